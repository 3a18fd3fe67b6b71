"""Replaying recorded instances and labels to any learner.

``Replay`` declares its lockstep source (``Replay.lockstep``, the protocol of
:mod:`game.players`): the rows still to play, when they are contiguous
vectors of one numeric dtype, as :func:`game.play_batch` needs them; the
Replays of one array or transcript share it.

A Replay of real vectors handed no certificate hands over the best-margin
separator of its data (:func:`game.theory.solve.best_margin`) when the data
separate through the origin and hold at most ``MAX_MARGIN_VALUES``
numbers; the solve is kept per data set, so the games of a sweep share it.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import GameError, ParameterError, check_instance
from game.players import Source, data_field
from game.protocol import INSTANCE_KINDS
from game.theory import Certificate, HalfspaceCertificate, frozen_copy
from game.transcript import Transcript

__all__ = ["MAX_MARGIN_VALUES", "Replay"]

_EITHER = "give either transcript or instances and labels, not both"

#: The most numbers (rows × columns) a Replay solves the best margin of, for
#: the certificate of data handed none: 2·10⁷ (2·10⁵ rows of 100 numbers, or
#: 2·10⁴ of 1,000, take about 2 to 4 s, once per data set; 2,000 rows of 64
#: about 0.05 s). A larger data set gets no certificate, as one handed none
#: always did.
MAX_MARGIN_VALUES = 2 * 10**7

#: Certificates solved for recent data sets, by the data's content: the
#: Replays of a sweep's games, built from one array or transcript, solve once.
_solved: dict[bytes, Certificate | None] = {}
_SOLVED_KEPT = 16
_solved_lock = threading.Lock()


def _data_key(X: np.ndarray, y: np.ndarray) -> bytes:
    """A digest of a data set's shape, dtype, rows and labels."""
    h = hashlib.blake2b(repr((X.shape, X.dtype.str)).encode(), digest_size=32)
    h.update(np.ascontiguousarray(X))
    h.update(np.ascontiguousarray(y, dtype=np.int8))
    return h.digest()


def _best_margin_certificate(X: np.ndarray, y: np.ndarray) -> Certificate | None:
    """The best-margin separator of (X, y) as a certificate, or None; solved once per data set.

    None when the data do not separate through the origin, or their best
    margin is within rounding of 0 (below 4·(d + 2)·2⁻⁵³·R, where the
    referee's dot products, summed in another order, could disagree on a
    sign).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> c = _best_margin_certificate(X, np.array([1, -1, 1]))
    >>> c.describe()
    'sign(w·x), w = (0.7071, -0.7071) in dimension 2; the best-margin separator ...'
    >>> _best_margin_certificate(np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([1, -1])) is None
    True
    """
    key = _data_key(X, y)
    with _solved_lock:
        if key in _solved:
            return _solved[key]
    from game.theory.solve import best_margin  # scipy is imported when a margin is solved

    try:
        found = best_margin(X, y)
    except GameError:  # the solver gave up: no certificate, as before it was asked
        found = None
    certificate = None
    if found is not None and found.separable:
        rounding = 4.0 * (X.shape[1] + 2) * 2.0**-53 * found.radius
        if found.margin_low > rounding:
            certificate = found.certificate()
    with _solved_lock:  # a sweep's threads may solve at once: the table stays whole
        while len(_solved) >= _SOLVED_KEPT:
            del _solved[next(iter(_solved))]
        _solved[key] = certificate
    return certificate


def _solvable(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """(X, y) when X is a non-empty matrix of real numbers of at most MAX_MARGIN_VALUES."""
    if (
        not isinstance(X, np.ndarray)
        or X.ndim != 2
        or X.dtype.kind not in "iuf"
        or X.size == 0
        or X.size > MAX_MARGIN_VALUES
    ):
        return None
    return X, np.asarray(y, dtype=np.int64)


def _rows_to_play(replay: Replay, rounds: int) -> tuple[list, list]:
    """The rows and labels the next ``rounds`` rounds present (fewer at the end)."""
    i = replay._i
    n = max(0, min(int(rounds), len(replay._rows) - i))
    return replay._rows[i : i + n], replay._ys[i : i + n]


#: Plans of recent Replays (the rows' checks cost a pass over them): the Replays
#: of a sweep's games are built from one array or transcript.
_plans: dict[int, tuple] = {}


def _lockstep_plan(replay: Replay, rounds: int) -> tuple | None:
    source = replay.transcript if replay.transcript is not None else replay.instances
    key = (replay._i, int(rounds), len(replay._rows))
    known = _plans.get(id(source))
    if known is not None and known[0] is source and known[1] == key:
        return known[2]
    plan = _check_rows(replay, rounds)
    if len(_plans) > 64:
        _plans.clear()
    _plans[id(source)] = (source, key, plan)
    return plan


def _check_rows(replay: Replay, rounds: int) -> tuple | None:
    rows, _ = _rows_to_play(replay, rounds)
    if not rows:
        return 0, 1, np.dtype(np.float64)
    first = rows[0]
    if type(first) is not np.ndarray or first.ndim != 1 or first.dtype.kind not in "iuf":
        return None
    shape, dtype = first.shape, first.dtype
    for row in rows:  # the learner sees each row as it is: contiguous vectors of one dtype
        if (
            type(row) is not np.ndarray
            or row.dtype != dtype
            or row.shape != shape
            or not row.flags.c_contiguous
        ):
            return None
    return len(rows), int(shape[0]), dtype


def _lockstep_examples(replay: Replay, n: int) -> tuple[np.ndarray, np.ndarray]:
    rows, ys = _rows_to_play(replay, n)
    X = np.stack(rows) if rows else np.empty((0, 1))  # a copy: one array per game
    return X, np.array(ys, dtype=np.int64)


def _lockstep_key(replay: Replay, n: int) -> Any:
    source = replay.transcript if replay.transcript is not None else replay.instances
    return id(source), replay._i, n


def _nonfinite(X: np.ndarray) -> str | None:
    """Where the first NaN or infinity of ``X`` is (rows and columns from 1), or None.

    Examples
    --------
    >>> _nonfinite(np.array([[1.0, 2.0], [np.inf, 0.0]])), _nonfinite(np.ones(3))
    ('row 2, column 1 is not finite', None)
    """
    if X.dtype.kind != "f" or bool(np.isfinite(X).all()):
        return None
    index = [int(i) + 1 for i in np.argwhere(~np.isfinite(X))[0]]
    place = f"row {index[0]}" + (f", column {index[1]}" if len(index) > 1 else "")
    return f"{place} is not finite"


def _nonfinite_row(transcript: Transcript) -> str | None:
    """The first round of a transcript whose instance holds a NaN or an infinity, or None."""
    X = transcript.instances  # stacked rows when the instances are vectors of one length
    if isinstance(X, np.ndarray) and X.dtype != object:
        where = _nonfinite(X)
        return None if where is None else "round " + where.removeprefix("row ")
    for t, x in enumerate(transcript.raw_instances, start=1):
        where = _nonfinite(np.asarray(x).reshape(1, -1))  # "row 1, column C is not finite"
        if where is not None:
            return f"round {t}" + where.removeprefix("row 1")
    return None


def _kinds_of(instances: Any) -> str | frozenset[str]:
    """What :attr:`Replay.presents` says of these instances (an array, or a list of them)."""
    if len(instances) == 0:  # nothing is presented: any learner can play
        return frozenset(INSTANCE_KINDS)
    X = instances if isinstance(instances, np.ndarray) else None
    if X is None or X.dtype == object:
        return "point" if isinstance(instances[0], int | np.integer) else "vector"
    if X.ndim == 1 and X.dtype.kind in "iu":
        return "point"
    if X.dtype == bool:
        return "bits"
    if X.dtype.kind in "iu" and np.isin(X, (0, 1)).all():
        return frozenset({"bits", "advice"})
    if np.all(np.abs(X) <= 1.0):
        return frozenset({"vector", "advice"})
    return "vector"


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Replay:
    """Presents recorded examples in order, obliviously, then ends the game.

    Give either a ``transcript`` (a :class:`~game.transcript.Transcript`, or in
    a scenario the path of a ``.jsonl`` file) or ``instances`` and ``labels``
    (arrays, or ``.npy``/``.csv`` files). A transcript's certificate is carried
    over; with arrays, ``separator`` makes a halfspace certificate.

    Handed no certificate (no ``separator``; a transcript without one), a
    Replay of real vectors (a matrix of numbers, one row per instance) hands
    over the **best-margin separator** of its whole data set, solved by
    :func:`game.theory.solve.best_margin`: a realizable
    :class:`~game.theory.HalfspaceCertificate` whose description says so, with
    γ*'s bounds and B's. The referee verifies it on every round played like
    any certificate, and the Perceptron family's bounds follow from it
    (Block–Novikoff's (R/γ)², Theorem 9.1's (RB)²). When the game stops
    before the data's end the separator still separates the rows played, with
    at least the margin γ* there. There is none (as before) when the data do
    not separate through the origin, when their margin is within rounding of
    0, or when they hold more than 2·10⁷ numbers (``adversaries.replay.MAX_MARGIN_VALUES``).
    The solve is kept per data set (by content), so a sweep's games share it.

    Parameters
    ----------
    transcript : Transcript, optional
        The game to replay.
    instances : array_like, optional
        One instance per row (or a vector of point indices).
    labels : array_like, optional
        ±1 per instance.
    separator : array_like, optional
        A weight vector claimed to separate ``instances`` (realizable certificate).

    Raises
    ------
    ParameterError
        Naming ``transcript`` when a recorded instance holds a NaN or an
        infinity (the round of an aborted game the referee refused), or
        ``instances`` when they are not a vector or a matrix of finite
        numbers (a NaN or an infinity is named by its row and column, counted
        from 1), or ``labels`` when they are not one -1 or 1 per instance (the
        first other entry named by its row).

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners import Perceptron
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1], separator=[1, -1]),
    ...           rounds=10)
    >>> len(tr), tr.certificate_verified
    (3, True)
    >>> tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1]), rounds=10)
    >>> print(tr.certificate.describe())   # no separator given: the best margin's
    sign(w·x), w = (0.7071, -0.7071) in dimension 2; the best-margin separator found by the
    solver: γ* ∈ [0.707107, 0.707107], B ≤ 1.41421
    >>> tr.certificate_verified, round(tr.bound.value, 6)   # (R/γ*)² = (√5 / (1/√2))²
    (True, 10.0)
    >>> Replay(instances=[[1.0, float("nan")]], labels=[1])
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: instances must be finite numbers, got ... (row 1, column 2 is ...)
    """

    #: Its rows, K games at once (:func:`game.play_batch`).
    lockstep: ClassVar[Source] = Source(
        plan=_lockstep_plan, examples=_lockstep_examples, key=_lockstep_key
    )

    transcript: Transcript | None = data_field("a transcript (.jsonl) to replay", default=None)
    instances: Any = data_field("instances, one per row (.npy, .csv or a list)", default=None)
    labels: Any = data_field("labels ±1 (.npy, .csv or a list)", default=None)
    separator: Any = attrs.field(
        default=None, metadata={"doc": "weights of a separating halfspace, when known"}
    )
    _rows: list = attrs.field(init=False, factory=list, repr=False)
    _ys: list = attrs.field(init=False, factory=list, repr=False)
    _cert: Certificate | None = attrs.field(init=False, default=None, repr=False)
    _i: int = attrs.field(init=False, default=0, repr=False)
    _n: int = attrs.field(init=False, default=0, repr=False)
    _y: int = attrs.field(init=False, default=1, repr=False)
    _kinds: Any = attrs.field(init=False, default=None, repr=False)
    _data: Any = attrs.field(init=False, default=None, repr=False)  # to solve, when no cert

    def __attrs_post_init__(self) -> None:
        if self.transcript is not None:
            if self.instances is not None or self.labels is not None:
                raise ParameterError("transcript", self.transcript, "None", _EITHER)
            check_instance("transcript", self.transcript, Transcript, "a Transcript")
            raw = self.transcript.raw_instances
            rows = list(frozen_copy(raw)) if isinstance(raw, np.ndarray) else list(raw)
            where = _nonfinite_row(self.transcript)
            if where is not None:  # the round of an aborted game the referee refused
                raise ParameterError(
                    "transcript", self.transcript, "a game of finite instances", where
                )
            ys = self.transcript.labels.tolist()
            self._cert = self.transcript.certificate
            if self._cert is None:
                self._data = _solvable(self.transcript.instances, self.transcript.labels)
        else:
            if self.instances is None or self.labels is None:
                missing = "instances" if self.instances is None else "labels"
                raise ParameterError(missing, None, "given", _EITHER)
            try:
                X = np.asarray(self.instances).view()
            except ValueError:
                raise ParameterError("instances", self.instances, "rows of one shape") from None
            if X.ndim not in (1, 2) or X.dtype.kind not in "biuf":
                raise ParameterError("instances", self.instances, "a vector or a matrix of numbers")
            where = _nonfinite(X)
            if where is not None:
                raise ParameterError("instances", self.instances, "finite numbers", where)
            try:
                y = np.asarray(self.labels)
            except ValueError:
                raise ParameterError("labels", self.labels, "a vector of -1 and 1") from None
            if y.ndim != 1 or y.shape[0] != X.shape[0]:
                raise ParameterError("labels", self.labels, f"a vector of {X.shape[0]} entries")
            if y.dtype.kind not in "biuf":
                raise ParameterError("labels", self.labels, "a vector of -1 and 1")
            wrong = np.flatnonzero(np.abs(y) != 1)
            if wrong.size:
                raise ParameterError(
                    "labels", self.labels, "a vector of -1 and 1", f"row {wrong[0] + 1} is neither"
                )
            X = frozen_copy(X)  # immutable: the referee records its rows by reference
            rows = X.tolist() if X.ndim == 1 else list(X)
            ys = y.astype(np.int64).tolist()
            if self.separator is not None:
                try:
                    self._cert = HalfspaceCertificate(self.separator)
                except ParameterError as exc:  # the separator is the certificate's weights
                    raise exc.renamed("separator") from None
            else:
                self._data = _solvable(X, ys)
        self._rows, self._ys, self._n = rows, ys, len(ys)
        self._kinds = _kinds_of(self.transcript.instances if self.transcript is not None else X)

    @property
    def presents(self) -> str | frozenset[str]:
        """The kinds the replayed instances can be read as (a learner must play one of them).

        Every kind for an empty replay; "point" for ints; "bits" for booleans;
        bits or advice for 0/1 integers; a real vector or advice for numbers all
        in [-1, 1]; else "vector".
        """
        return self._kinds

    def __len__(self) -> int:
        return len(self._ys)

    def instance(self, history) -> Any:
        """The next recorded instance, or None when all have been played."""
        i = self._i
        if i == self._n:
            return None
        self._i = i + 1
        self._y = self._ys[i]
        return self._rows[i]

    def label(self, x, p, history) -> int:
        """The recorded label of the instance just presented."""
        return self._y

    def certificate(self) -> Certificate | None:
        """The source's certificate, when it had one; else its data's best-margin separator.

        The separator is solved on the first call (see the class's notes) and
        kept; None when there is none.
        """
        if self._cert is None and self._data is not None:
            self._cert = _best_margin_certificate(*self._data)
            self._data = None
        return self._cert
