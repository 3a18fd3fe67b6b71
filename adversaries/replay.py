"""Replaying recorded instances and labels to any learner.

``Replay`` declares its lockstep source (``Replay.lockstep``, the protocol of
:mod:`game.players`): the rows still to play, when they are contiguous
vectors of one numeric dtype, as :func:`game.play_batch` needs them; the
Replays of one array or transcript share it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_instance
from game.players import Source, data_field
from game.protocol import INSTANCE_KINDS
from game.theory import Certificate, HalfspaceCertificate, frozen_copy
from game.transcript import Transcript

__all__ = ["Replay"]

_EITHER = "give either transcript or instances and labels, not both"


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
        """The source's certificate, when it had one."""
        return self._cert
