"""Transcripts: every round of a game, in columns, and their JSON Lines files.

A :class:`Transcript` holds one column per field of the round (instances,
predictions, labels, updated, and the players' extras), never an object per
round; ``len``, indexing and iteration give :class:`Round` records on demand.

On disk a transcript is JSON Lines: a header line (``"type": "header"``), one
line per round, and a footer line (``"type": "footer"``) with the certificate,
the totals and the digest. :class:`TranscriptWriter` streams the file while the
game runs; :meth:`Transcript.load` reads it back. Rows of
``pandas.read_json(path, lines=True)`` with a non-null ``t`` are the rounds.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(3, 0.2, 1.0, np.random.default_rng(0)), rounds=50)
>>> len(tr), tr[0].t, int(tr.mistakes.sum()) == int(tr.cumulative_mistakes()[-1])
(50, 1, True)
>>> tr.summary()["within_bound"]
True
"""

from __future__ import annotations

import contextlib
import copy
import errno
import functools
import json
import operator
import os
import platform
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import orjson

from game.errors import GameError, TranscriptError, check_choice, check_instance
from game.players import describe_player, rebuild
from game.theory import (
    Certificate,
    best_expert,
    block_novikoff_claims,
    expert_losses,
    first_disagreement,
    get_loss,
    regret,
)
from game.theory.bounds import Bound, Hypothesis
from game.transcript._digest import canonical, canonical_text, digest_columns, digest_game
from game.transcript._format import FORMAT, VERSION
from game.transcript._memory import unwritable
from game.transcript._reader import read_transcript

__all__ = [
    "Round",
    "Transcript",
    "TranscriptWriter",
    "jsonable",
    "lower_bound_hypotheses",
    "verify",
    "versions",
]

_FLUSH_EVERY = 64


def jsonable(value: Any) -> Any:
    """``value`` with numpy arrays and scalars turned into JSON-ready Python values."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if all(v.__class__ is float or v.__class__ is int for v in value):
            return list(value)  # numbers already (a weight vector, say)
        return [jsonable(v) for v in value]
    return value


#: Arrays whose values orjson writes exactly as ``tolist()`` and :mod:`json` would (as
#: numbers that read back to the same values); others go through :func:`jsonable`.
_DIRECT_DTYPES = frozenset(np.dtype(k) for k in ("float64", "int64", "int32", "int8", "bool"))


def _round_line(line: dict) -> bytes:
    """One round's JSON line (without its newline), written by orjson, about 13× :mod:`json`.

    Numbers come out as :func:`json.dumps` writes them but for their form (no
    spaces; the shortest text that reads back to the same float, as
    ``repr`` gives, though ``1e-05`` may read ``0.00001``). A line that
    holds a value JSON cannot (NaN or an infinity, which orjson would write
    as ``null``) or a value orjson does not take is written by :mod:`json`
    instead, as it always was (``NaN``), so a file reads back to the values
    the game had.

    Examples
    --------
    >>> _round_line({"t": 1, "x": np.array([0.5, -1.0]), "p": 1.0})
    b'{"t":1,"x":[0.5,-1.0],"p":1.0}'
    >>> _round_line({"t": 2, "x": np.array([np.nan]), "p": 1.0})
    b'{"t": 2, "x": [NaN], "p": 1.0}'
    """
    try:
        text = orjson.dumps(line, option=orjson.OPT_SERIALIZE_NUMPY)
    except orjson.JSONEncodeError:
        text = b"null"
    if b"null" not in text:
        return text
    return json.dumps(jsonable(line)).encode("utf-8")


def _same(a: Any, b: Any) -> bool:
    """Equality of instances and snapshots that may hold numpy arrays."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))


@attrs.frozen
class Round:
    """One round of a game, as recorded.

    Attributes
    ----------
    t : int
        The round's number, from 1.
    instance : object
        What the adversary presented.
    prediction : float
        The learner's prediction in [-1, 1].
    label : int
        The adversary's label, ±1.
    mistake : bool
        sign(prediction) != label, with sign(0) = +1.
    loss : float
        The game's loss on the round.
    updated : bool
        Whether the learner's state changed.
    extras : dict
        Per-round numbers the players logged.
    snapshot : dict or None
        The learner's proof quantities after the round, when logged.
    """

    t: int
    instance: Any = attrs.field(eq=attrs.cmp_using(eq=_same))
    prediction: float
    label: int
    mistake: bool
    loss: float
    updated: bool
    extras: dict = attrs.field(factory=dict)
    snapshot: dict | None = attrs.field(default=None, eq=attrs.cmp_using(eq=_same))


def _copied(value: Any) -> Any:
    """A copy of a JSON-like value (dicts and lists copied, anything else shared)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return copy.deepcopy(value) if isinstance(value, np.ndarray | set) else value


def _nobody_writes(array: np.ndarray) -> bool:
    """Whether numpy refuses to write ``array``, now and after its flag is set again."""
    if array.flags.writeable:
        return False
    try:
        array.view().flags.writeable = True
    except ValueError:
        return True
    return False


def _kept(column: np.ndarray) -> np.ndarray:
    """A column to hand over: shared when nobody can write it (a game's on disk), else copied."""
    return column if _nobody_writes(column) else column.copy()


def _shared_or_copied(instances: list) -> list:
    """A list of instances to hand over: arrays nobody can write shared, the rest copied.

    Whether numpy refuses to write an array is a property of the memory below
    it, so it is asked once per block (rows recorded by reference share one).
    """
    out, verdicts = [], {}
    for x in instances:
        if isinstance(x, np.ndarray):
            owner = x.base if x.base is not None else x
            safe = verdicts.get(id(owner))
            if safe is None:
                safe = verdicts[id(owner)] = _nobody_writes(x)
            out.append(x if safe else unwritable(x.copy()))
        elif isinstance(x, list | tuple | dict):
            out.append(copy.deepcopy(x))
        else:
            out.append(x)
    return out


def _stack(instances: list):
    """Instances stacked into one array when they share a shape, else the list itself."""
    if isinstance(instances, np.ndarray):  # already one row per round (the engine's column)
        return instances if instances.shape[0] else np.empty((0,))
    if not instances:
        return np.empty((0,))
    try:
        stacked = np.asarray(instances)
    except ValueError:
        return list(instances)
    if stacked.dtype == object:
        return list(instances)
    return stacked


@attrs.define(eq=False)
class Transcript:
    """The record of one game, column by column.

    Build one with :func:`game.play` or :meth:`Transcript.load`; the
    constructor takes the columns as they are.

    Parameters
    ----------
    header : dict
        Format, players and their parameters, seed, loss, scenario, versions.
    raw_instances : list
        One instance per round, as presented.
    predictions, labels, updated : numpy.ndarray
        Float64, int8 and bool columns.
    extras : dict of str to numpy.ndarray
        Per-round numbers logged by the players' ``extras()``.
    snapshots : dict of str to list, or None
        The learner's ``snapshot()`` after each round, when logged.
    certificate : Certificate or None
        What the adversary handed over.
    certificate_verified : bool or None
        True when a realizable certificate agreed with every round; None for a
        comparator or no certificate.
    bound, lower_bound : Bound or None
        The learner's theorem and what the adversary claims to force.
    status : str
        ``"complete"``, ``"aborted"`` (with ``reason``) or ``"incomplete"``.
    unchecked : tuple of str
        What a file claimed that could not be recomputed when it was read
        (``"bound"`` and ``"lower_bound"`` when its learner cannot be rebuilt
        from the header).
    """

    header: dict
    raw_instances: list
    predictions: np.ndarray
    labels: np.ndarray
    updated: np.ndarray
    extras: dict = attrs.field(factory=dict)
    snapshots: dict | None = None
    certificate: Certificate | None = None
    certificate_verified: bool | None = None
    bound: Bound | None = None
    lower_bound: Bound | None = None
    status: str = "complete"
    reason: str | None = None
    wall_time: float = 0.0
    initial_snapshot: dict | None = None
    unchecked: tuple = ()
    _cache: dict = attrs.field(factory=dict, init=False, repr=False)

    # -- columns ---------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.labels.shape[0])

    @property
    def instances(self):
        """All instances stacked along axis 0 (a list when their shapes differ)."""
        if "instances" not in self._cache:
            self._cache["instances"] = _stack(self.raw_instances)
        return self._cache["instances"]

    @property
    def loss_name(self) -> str:
        """The name of the game's loss."""
        return self.header.get("loss", "zero-one")

    @property
    def mistakes(self) -> np.ndarray:
        """Boolean column: sign(p) != y with sign(0) = +1."""
        return (self.predictions >= 0) != (self.labels > 0)

    @property
    def losses(self) -> np.ndarray:
        """Float column: the game's loss on each round."""
        return np.asarray(get_loss(self.loss_name)(self.predictions, self.labels), dtype=float)

    @property
    def updates(self) -> np.ndarray:
        """Boolean column: did the learner's state change (same as ``updated``)."""
        return self.updated

    def cumulative_mistakes(self) -> np.ndarray:
        """Mistakes made up to and including each round."""
        return np.cumsum(self.mistakes, dtype=np.int64)

    def cumulative_updates(self) -> np.ndarray:
        """Updates made up to and including each round."""
        return np.cumsum(self.updated, dtype=np.int64)

    def expert_losses(self, t: int | None = None, *, loss: str | None = None, matrix=None):
        """Expert game: every expert's cumulative loss after round t (see :mod:`game.theory`)."""
        return expert_losses(self, t, loss=loss, matrix=matrix)

    def regret(self, *, loss: str | None = None, matrix=None) -> np.ndarray:
        """Expert game: regret against the best expert after each round (see :mod:`game.theory`)."""
        return regret(self, loss=loss, matrix=matrix)

    def best_expert(self, *, loss: str | None = None, matrix=None) -> np.ndarray:
        """Expert game: the best expert in hindsight after each round (see :mod:`game.theory`)."""
        return best_expert(self, loss=loss, matrix=matrix)

    def snapshot(self, key: str) -> np.ndarray:
        """The logged snapshot values of ``key``, one per round (after its update)."""
        if not self.snapshots:
            raise GameError("this transcript has no snapshots; play with snapshots=True")
        if key not in self.snapshots:
            raise GameError(f"no snapshot {key!r}; logged: {', '.join(self.snapshots)}")
        return np.asarray(self.snapshots[key], dtype=float)

    def running(self, quantity: str) -> np.ndarray:
        """``quantity`` after each round 1 … T, as :meth:`observed` totals it at the end.

        ``"regret"`` is the expert game's regret after each round (not a sum of
        its own); ``"expected mistakes"`` adds (1 − yₜpₜ)/2 in floating point.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries import Replay
        >>> from learners import Perceptron
        >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> play(Perceptron(), Replay(instances=X, labels=[-1, 1, 1]), rounds=3).running("mistakes")
        array([1., 1., 1.])
        """
        if quantity == "regret":
            return np.asarray(self.regret(), dtype=np.float64)
        if quantity == "mistakes":
            steps = self.mistakes
        elif quantity == "updates":
            steps = self.updated
        elif quantity == "loss":
            steps = self.losses
        elif quantity == "expected mistakes":
            steps = (1 - np.asarray(self.labels) * np.asarray(self.predictions, float)) / 2
        elif quantity in self.extras:
            steps = self.extras[quantity]
        else:
            raise GameError(f"the transcript has no quantity {quantity!r}")
        return np.cumsum(np.asarray(steps, dtype=np.float64))

    def observed(self, quantity: str) -> float:
        """The total of ``quantity`` over the game.

        ``"mistakes"``, ``"updates"``, ``"loss"`` (the game's), ``"expected mistakes"``
        (Σ (1 − yₜpₜ)/2 from the learner's declared predictions, summed exactly:
        :func:`game.theory.solve.expected_mistakes`), ``"regret"`` (an expert
        game's regret after the last round, on the game's loss:
        :func:`game.theory.regret`) or an extras column.
        """
        if quantity == "mistakes":
            return int(self.mistakes.sum())
        if quantity == "expected mistakes":
            from game.theory.solve import expected_mistakes  # the solvers load networkx

            return float(expected_mistakes(self.predictions, self.labels))
        if quantity == "updates":
            return int(self.updated.sum())
        if quantity == "loss":
            return float(self.losses.sum())
        if quantity == "regret":
            return float(self.regret()[-1]) if len(self) else 0.0
        if quantity in self.extras:
            return float(np.sum(self.extras[quantity]))
        raise GameError(f"transcript has no quantity {quantity!r}")

    def proof_claims(self, certificate=None, **options):
        """Block–Novikoff's two claims on every update round (see :mod:`game.theory`).

        Needs snapshots of w and a halfspace certificate (the transcript's by default).
        """
        return block_novikoff_claims(self, certificate, **options)

    # -- rounds ----------------------------------------------------------------
    def __getitem__(self, index: int | slice):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = operator.index(index)
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(f"round index {index} out of range for {n} rounds")
        p = float(self.predictions[i])
        y = int(self.labels[i])
        snap = None
        if self.snapshots:
            snap = {k: v[i] for k, v in self.snapshots.items()}
        instance = self.raw_instances[i]
        if isinstance(instance, np.generic):  # a point of an int64 column
            instance = instance.item()
        return Round(
            t=i + 1,
            instance=instance,
            prediction=p,
            label=y,
            mistake=(p >= 0) != (y > 0),
            loss=float(get_loss(self.loss_name)(p, y)),
            updated=bool(self.updated[i]),
            extras={k: v[i].item() for k, v in self.extras.items()},
            snapshot=snap,
        )

    def __iter__(self) -> Iterator[Round]:
        for i in range(len(self)):
            yield self[i]

    # -- identity --------------------------------------------------------------
    def _digest_columns(self):
        inst = self.instances
        columns = [
            ("instances", inst),
            ("predictions", self.predictions),
            ("labels", self.labels),
            ("updated", self.updated),
        ]
        columns += [(f"extras.{k}", self.extras[k]) for k in sorted(self.extras)]
        return columns

    @property
    def rounds_digest(self) -> str:
        """SHA-256 of the rounds alone (instances, predictions, labels, updates, extras).

        Two games whose rounds are the same share it, whoever played them;
        :attr:`digest` covers the whole game.
        """
        if "rounds" not in self._cache:
            self._cache["rounds"] = digest_columns(self._digest_columns())
        return self._cache["rounds"]

    @property
    def digest(self) -> str:
        """SHA-256 of the game: its header's game, rounds, certificate, status and bounds.

        See :mod:`game.transcript` (``digest_game``): totals and the
        certificate's verification are left out, since they are recomputed.
        """
        return digest_game(
            self.rounds_digest,
            self.header,
            certificate=None if self.certificate is None else jsonable(self.certificate.to_dict()),
            status=self.status,
            bounds=[None if b is None else b.to_dict() for b in (self.bound, self.lower_bound)],
        )

    def first_difference(self, other: Transcript) -> int | None:
        """The number of the first round where two transcripts differ, or None.

        Rounds are compared on their canonical form; when one game is a prefix
        of the other, the first round only one of them has is returned.
        """
        n = min(len(self), len(other))
        first = None
        for (_name, a), (_, b) in zip(
            self._digest_columns(), other._digest_columns(), strict=False
        ):
            a, b = a[:n], b[:n]
            if isinstance(a, list) or isinstance(b, list):
                diff = [i for i in range(n) if not np.array_equal(canonical(a[i]), canonical(b[i]))]
            else:
                ca, cb = canonical(a), canonical(b)
                if ca.shape != cb.shape:
                    diff = [0] if n else []
                else:
                    axes = tuple(range(1, ca.ndim))
                    diff = np.flatnonzero(np.any(ca != cb, axis=axes) if axes else ca != cb)
            if len(diff):
                first = int(diff[0]) if first is None else min(first, int(diff[0]))
        if self._extras_keys() != other._extras_keys() and n:
            first = 0 if first is None else first
        if first is None and len(self) != len(other):
            first = n
        return None if first is None else first + 1

    def _extras_keys(self):
        return sorted(self.extras)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transcript):
            return NotImplemented
        return (
            self.digest == other.digest
            and self.status == other.status
            and self.certificate == other.certificate
            and self.bound == other.bound
            and self.lower_bound == other.lower_bound
        )

    __hash__ = None

    def copy(self) -> Transcript:
        """A copy that shares nothing a write can reach: what is done to it never reaches this one.

        The columns, header, extras and snapshots are copied; the instances
        are shown through memory numpy will not write (the referee's own column
        is shown as it is), and the frozen certificate's arrays are shared. A player
        that computes its bound from the game (``mistake_bound``) is handed such
        a copy, so nothing it writes or assigns changes the record.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from learners import Perceptron
        >>> from adversaries import SeparableStream
        >>> tr = play(Perceptron(), SeparableStream(3, 0.2, 1.0, np.random.default_rng(0)),
        ...           rounds=20)
        >>> other = tr.copy()
        >>> other.labels[:] = 1; other.header["rounds"] = 0; other.status = "aborted"
        >>> other == tr, tr.header["rounds"], tr.status
        (False, 20, 'complete')
        """
        raw = self.raw_instances
        if isinstance(raw, np.ndarray):
            raw = raw if _nobody_writes(raw) else unwritable(raw)
        elif isinstance(self.instances, np.ndarray) and len(raw):  # stacked once, then shown
            raw = unwritable(self.instances)
        else:
            raw = _shared_or_copied(raw)
        return Transcript(
            header=_copied(self.header),
            raw_instances=raw,
            predictions=_kept(self.predictions),
            labels=_kept(self.labels),
            updated=_kept(self.updated),
            extras={k: _kept(np.asarray(v)) for k, v in self.extras.items()},
            snapshots=copy.deepcopy(self.snapshots),
            certificate=copy.copy(self.certificate),
            certificate_verified=self.certificate_verified,
            bound=self.bound,
            lower_bound=self.lower_bound,
            status=self.status,
            reason=self.reason,
            wall_time=self.wall_time,
            initial_snapshot=copy.deepcopy(self.initial_snapshot),
            unchecked=self.unchecked,
        )

    # -- summary ---------------------------------------------------------------
    @property
    def within_bound(self) -> bool | None:
        """Whether the learner's bound held (None when it has none or it does not apply)."""
        if self.bound is None:
            return None
        return self.bound.verdict(self.observed(self.bound.quantity))

    def summary(self) -> dict[str, Any]:
        """The game at a glance: counts beside the bound, certificate, time and digest."""
        learner = self.header.get("learner", {}).get("name")
        adversary = self.header.get("adversary", {}).get("name")
        out: dict[str, Any] = {
            "learner": learner,
            "adversary": adversary,
            "rounds": len(self),
            "mistakes": self.observed("mistakes"),
            "updates": self.observed("updates"),
            "loss": self.observed("loss"),
            "loss_name": self.loss_name,
            "bound": None if self.bound is None else self.bound.value,
            "bound_quantity": None if self.bound is None else self.bound.quantity,
            "theorem": None if self.bound is None else self.bound.theorem,
            "source": None if self.bound is None else self.bound.source,
            "within_bound": self.within_bound,
            "bound_not_applicable": None if self.bound is None else self.bound.reason,
            "lower_bound": None if self.lower_bound is None else self.lower_bound.value,
            "forced": None
            if self.lower_bound is None
            else self.lower_bound.verdict(self.observed(self.lower_bound.quantity)),
            "lower_bound_not_applicable": None
            if self.lower_bound is None
            else self.lower_bound.reason,
            "certificate": None if self.certificate is None else self.certificate.describe(),
            "certificate_realizable": None
            if self.certificate is None
            else self.certificate.realizable,
            "certificate_verified": self.certificate_verified,
            "status": self.status,
            "wall_time": self.wall_time,
            "digest": self.digest,
        }
        if self.reason:
            out["reason"] = self.reason
        if self.unchecked:
            out["unchecked"] = list(self.unchecked)
        return out

    def _repr_html_(self) -> str:
        """Jupyter's view: the summary table, then the first and last rounds (:mod:`game.viz`)."""
        from game.viz import transcript_html

        return transcript_html(self)

    # -- files -----------------------------------------------------------------
    def footer(self) -> dict[str, Any]:
        """The footer line's content."""
        return {
            "type": "footer",
            "status": self.status,
            "reason": self.reason,
            "rounds": len(self),
            "mistakes": self.observed("mistakes"),
            "updates": self.observed("updates"),
            "loss": self.observed("loss"),
            "certificate": None if self.certificate is None else self.certificate.to_dict(),
            "certificate_verified": self.certificate_verified,
            "bound": None if self.bound is None else self.bound.to_dict(),
            "lower_bound": None if self.lower_bound is None else self.lower_bound.to_dict(),
            "wall_time": self.wall_time,
            "digest": self.digest,
        }

    def save(self, path: str | os.PathLike) -> Path:
        """Write the whole transcript as JSON Lines (header, rounds, footer)."""
        writer = TranscriptWriter(path, self.header, self.initial_snapshot)
        snaps = self.snapshots
        for i, x in enumerate(self.raw_instances):
            writer.round(
                i + 1,
                x,
                float(self.predictions[i]),
                int(self.labels[i]),
                bool(self.updated[i]),
                {k: v[i] for k, v in snaps.items()} if snaps else None,
                {k: v[i].item() for k, v in self.extras.items()} if self.extras else None,
            )
        writer.close(self.footer())
        return writer.path

    @classmethod
    def load(cls, path: str | os.PathLike, *, allow_incomplete: bool = False) -> Transcript:
        """Read a JSON Lines transcript back.

        Parameters
        ----------
        path : path-like
            The file.
        allow_incomplete : bool, default False
            Accept a file without its footer (a run that died), keeping every
            complete round; a torn last line is dropped.

        Raises
        ------
        ParameterError
            When ``path`` is not a path (str or os.PathLike) or
            ``allow_incomplete`` not a bool.
        TranscriptError
            Naming the file and line: a corrupt or out-of-order line, a missing
            footer (unless allowed), a digest that does not match the file, a
            footer's claim (totals, verification, bounds) that disagrees with
            what the rounds give, a header whose rounds, seed or loss are not
            its game's.
        """
        check_instance("path", path, (str, os.PathLike), "a path (str or os.PathLike)")
        allow_incomplete = check_choice("allow_incomplete", allow_incomplete, (False, True))
        read = read_transcript(Path(path), allow_incomplete=allow_incomplete)
        transcript = cls(**read.fields)
        if read.footer is not None:
            if read.digest != transcript.digest:
                raise TranscriptError(
                    f"{read.footer}: the footer's digest does not match the file: its game, "
                    "rounds, certificate, status or bounds were changed after it was written"
                )
            _recompute(transcript, read.recorded, read.footer)
        return transcript


def _recompute(transcript: Transcript, recorded: dict, where: str) -> None:
    """Recompute what a footer claims; a claim that disagrees is a :class:`TranscriptError`.

    The totals come from the rounds; the certificate (rebuilt with the class
    registered for its kind) is verified against them again; the header's
    rounds, seed and loss are checked against the rounds played and the
    scenario's spec; the learner's bound (of a complete game, or any bound an
    aborted one claims) is computed again, and the lower bound's hypotheses
    checked again, where the learner can be rebuilt from the header
    (:func:`game.players.rebuild`): the transcript then holds the bounds as
    recomputed. Where the learner cannot be rebuilt, the bounds are kept as
    written and named in ``transcript.unchecked``.
    """
    transcript.certificate_verified = verify(transcript)
    for field in ("mistakes", "updates", "loss"):
        if field in recorded:
            _agree(where, field, recorded[field], transcript.observed(field))
    if "certificate_verified" in recorded:
        _agree(where, "certificate_verified", recorded["certificate_verified"],
               transcript.certificate_verified)  # fmt: skip
    _check_header(transcript, where.rsplit(":", 1)[0] + ":1")
    if transcript.certificate_verified is False and transcript.status == "complete":
        raise TranscriptError(
            f"{where}: the certificate disagrees with the rounds, yet the footer says the game "
            "completed (the referee ends such a game aborted)"
        )
    learner, _why = rebuild(transcript.header, "learner")
    unchecked = []
    # an aborted game may have stopped before its bound was asked for; a bound it claims is checked
    if transcript.status == "complete" or transcript.bound is not None:
        if learner is None or transcript.certificate_verified is False:
            unchecked += ["bound"] if transcript.bound is not None else []
        else:
            transcript.bound = _recomputed_bound(transcript, learner, where)
    if transcript.lower_bound is not None:
        if learner is None:
            unchecked.append("lower_bound")
        else:
            transcript.lower_bound = _rechecked_lower_bound(transcript, learner, where)
    transcript.unchecked = tuple(unchecked)


def _check_header(transcript: Transcript, where: str) -> None:
    """The header's rounds hold the rounds played; its seed, rounds and loss are its scenario's."""
    header, played = transcript.header, len(transcript)
    limit = header.get("rounds")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit < played:
        raise TranscriptError(
            f"{where}: header says at most {limit} rounds; the file holds {played}"
        )
    scenario = header.get("scenario")
    spec = scenario.get("spec") if isinstance(scenario, dict) else None
    if not isinstance(spec, dict):
        return
    for key, default in (("seed", 0), ("rounds", None), ("loss", "zero-one")):
        if key in header and spec.get(key, default) is not None:
            if canonical_text(header[key]) != canonical_text(spec.get(key, default)):
                raise TranscriptError(
                    f"{where}: header's {key} = {header[key]!r} differs from its scenario's "
                    f"{spec.get(key, default)!r}"
                )


def _recomputed_bound(transcript: Transcript, learner: Any, where: str) -> Bound | None:
    """The learner's bound computed again from the rounds; refused when the file's differs."""
    try:
        bound_fn = getattr(learner, "mistake_bound", None)
        bound = bound_fn(transcript.copy()) if bound_fn is not None else None
    except Exception as exc:
        raise TranscriptError(
            f"{where}: the learner's bound cannot be recomputed from the rounds: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    same = (bound is None) == (transcript.bound is None) and (
        bound is None
        or canonical_text(_verdict(bound)) == canonical_text(_verdict(transcript.bound))
    )
    if not same:
        raise TranscriptError(
            f"{where}: footer's bound is {_shown(transcript.bound)}; recomputed from the rounds "
            f"it is {_shown(bound)}"
        )
    return bound  # its wording too is the referee's, not the file's


#: The hypotheses the referee checks of a lower bound's theorem (:func:`lower_bound_hypotheses`).
_REFEREE_HYPOTHESES = ("deterministic learner", "labels realizable", "absolute loss")


def lower_bound_hypotheses(
    lower: Bound | None, transcript: Transcript, learner: Any
) -> Bound | None:
    """A lower bound with what the referee checks of its theorem on the game.

    A lower bound on mistakes holds for deterministic learners (a learner
    that randomises shows its mixture, which is not its mistakes; a bound on
    ``"expected mistakes"``, read from that mixture, holds for any; a bound on
    ``"regret"``, forced against the prediction p itself, holds for any learner
    whose p the game grades by the absolute loss ``|p − y|/2``), and one
    forced with a realizable certificate (or none) needs that certificate
    verified on every round; a comparator (``realizable=False``) claims no
    realizability. The engine appends these hypotheses to what the adversary
    claims; reading a file checks them again.

    Parameters
    ----------
    lower : Bound or None
        The adversary's lower bound (anything but a lower bound is returned as it is).
    transcript : Transcript
        The game, its certificate verified.
    learner : object
        The learner, whose ``deterministic`` declaration is read.

    Examples
    --------
    >>> from game import play
    >>> from learners import Halving, RandomizedWeightedMajority
    >>> from adversaries import HalvingLowerBound
    >>> tr = play(Halving(), HalvingLowerBound(experts=4), rounds=5)
    >>> for h in tr.lower_bound.hypotheses:
    ...     print(h)
    deterministic learner holds: learner halving declares it
    labels realizable holds: the certificate agrees with every round
    >>> lower = lower_bound_hypotheses(tr.lower_bound, tr, RandomizedWeightedMajority())
    >>> lower.applies
    False
    >>> print(lower.reason)
    deterministic learner fails: learner randomized-weighted-majority randomises its predictions
    """
    if lower is None or lower.kind != "lower":
        return lower
    lower = attrs.evolve(
        lower, hypotheses=tuple(h for h in lower.hypotheses if h.name not in _REFEREE_HYPOTHESES)
    )
    hypotheses = []
    declared = getattr(learner, "deterministic", None)
    who = f"learner {describe_player(learner)['name']}"
    if lower.quantity == "expected mistakes":
        pass  # counted from the declared probabilities: any learner, randomised or not
    elif lower.quantity == "regret":
        hypotheses.append(_graded_absolute(transcript))
    elif declared is True:
        hypotheses.append(Hypothesis("deterministic learner", True, f"{who} declares it"))
    elif declared is False:
        hypotheses.append(
            Hypothesis("deterministic learner", False, f"{who} randomises its predictions")
        )
    else:
        hypotheses.append(
            Hypothesis("deterministic learner", False, f"{who} does not declare `deterministic`")
        )
    certificate = transcript.certificate
    if certificate is None or certificate.realizable:
        verified = transcript.certificate_verified is True
        detail = "the certificate agrees with every round" if verified else "no certificate"
        hypotheses.append(Hypothesis("labels realizable", verified, detail))
    return lower.given(*hypotheses)


def _graded_absolute(transcript: Transcript) -> Hypothesis:
    """Whether every prediction was graded as |p − y|/2: the absolute loss, or p = ±1 throughout."""
    loss = transcript.loss_name
    if loss == "absolute":
        return Hypothesis("absolute loss", True, "the game's loss is |p − y|/2")
    if bool(np.all(np.abs(transcript.predictions) == 1.0)):
        return Hypothesis(
            "absolute loss", True, f"every prediction is ±1: the {loss} loss of it is |p − y|/2"
        )
    return Hypothesis(
        "absolute loss",
        False,
        f"the {loss} loss grades a prediction inside (-1, 1) otherwise than |p − y|/2",
    )


def _rechecked_lower_bound(transcript: Transcript, learner: Any, where: str) -> Bound:
    """The file's lower bound with the referee's hypotheses checked again; refused on a difference.

    Its value, quantity and kind are the adversary's claim (digested; a replay
    derives them again); whether the theorem applies is recomputed.
    """
    claimed = transcript.lower_bound
    again = lower_bound_hypotheses(claimed, transcript, learner)
    checked = {h.name: h for h in again.hypotheses if h.name in _REFEREE_HYPOTHESES}
    for h in claimed.hypotheses:
        if h.name in checked and h.holds != checked[h.name].holds:
            raise TranscriptError(
                f"{where}: footer's lower bound says {h.name!r} {_holds(h)}; "
                f"recomputed, it {_holds(checked[h.name])}"
            )
    if again.applies != claimed.applies:
        raise TranscriptError(
            f"{where}: footer's lower bound is {_shown(claimed)}; recomputed from the rounds "
            f"it is {_shown(again)}"
        )
    return again


def _holds(hypothesis: Hypothesis) -> str:
    return "holds" if hypothesis.holds else "fails"


def _verdict(bound: Bound) -> dict:
    return {"value": bound.value, "quantity": bound.quantity, "kind": bound.kind,
            "applies": bound.applies}  # fmt: skip


def _shown(bound: Bound | None) -> str:
    if bound is None:
        return "none"
    text = f"{bound.quantity} {'≤' if bound.kind == 'upper' else '≥'} {bound.value:g}"
    return text if bound.applies else f"{text} (not applicable: {bound.reason})"


def _agree(where: str, field: str, claimed: Any, actual: Any) -> None:
    """A footer's claim against the value recomputed from the rounds."""
    if isinstance(claimed, bool) or isinstance(actual, bool) or claimed is None or actual is None:
        same = claimed is actual
    elif isinstance(claimed, int | float):
        same = abs(claimed - actual) <= 1e-9 * max(1.0, abs(actual))
    else:
        same = False
    if not same:
        raise TranscriptError(
            f"{where}: footer says {field} = {claimed!r}; the rounds give {actual!r}"
        )


def verify(transcript: Transcript) -> bool | None:
    """Whether the transcript's realizable certificate agrees with every round (None: none claimed).

    The certificate is judged by the class registered for its kind (a
    transcript read back holds such a rebuilt copy); a certificate that cannot
    label the rounds, or whose kind does not fit them, does not agree.
    """
    certificate = transcript.certificate
    if certificate is None or not certificate.realizable:
        return None
    try:
        return first_disagreement(certificate, transcript.instances, transcript.labels) is None
    except Exception:
        return False


def versions() -> dict[str, str]:
    """Versions of the interpreter and packages that shape a game's numbers.

    Read once per process (the installed distribution's metadata costs about
    0.3 ms to read); each call returns a new dict.
    """
    return dict(_versions())


@functools.cache
def _versions() -> tuple[tuple[str, str], ...]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "numpy": np.__version__}
    try:
        out["online-learning-games"] = version("online-learning-games")
    except PackageNotFoundError:
        out["online-learning-games"] = "unknown"
    return tuple(out.items())


class TranscriptWriter:
    """Streams a transcript to JSON Lines while the game runs; nothing written is lost.

    The file is written to a temporary file beside ``path`` (``NAME.XXXXXXXX.partial``,
    created exclusively, so two writers never share one) and moved to ``path``
    by :meth:`close`, whole, by one rename:

    - a complete game's file replaces ``path`` when ``overwrite`` (the default,
      as :func:`numpy.save` does) and is otherwise linked to ``path`` only if no
      file has that name by then (else :class:`~game.errors.GameError`, the
      temporary file kept), so of two runs writing one ``path`` one wins whole;
    - an aborted game's file (its footer marked aborted with the reason) takes
      ``path`` only when no file has that name: it never replaces an existing
      one, and is kept under its temporary name otherwise. ``path`` says
      where the file is.

    A ``path`` that exists and is not a regular file (``/dev/stdout``,
    ``/dev/full``) is written in place. The header is written at once; round
    lines are written every 64 rounds and at the end, so a run killed mid-game
    keeps all but its last few rounds. A write that fails (a full disk) is a
    :class:`~game.errors.GameError` naming the file and the rounds written
    before it; the file keeps them and nothing more is tried on it.

    Parameters
    ----------
    path : path-like
        The file to write (its folder is created).
    header : dict
        The header line's content (``type`` and ``format`` are added).
    initial_snapshot : dict, optional
        The learner's snapshot before round 1.
    overwrite : bool, default True
        Whether a complete game's file replaces an existing file at ``path``.

    Attributes
    ----------
    path : Path
        Where the file is: the temporary file until :meth:`close` moves it.
    rounds_written : int
        The rounds whose lines are wholly written.
    failed : GameError or None
        The write that failed, if one did.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> w = TranscriptWriter(folder / "t.jsonl", {"rounds": 1, "loss": "zero-one"})
    >>> [p.name for p in folder.iterdir()] == [w.path.name], w.path.suffix
    (True, '.partial')
    >>> w.round(1, [1.0], 0.5, 1, False)
    >>> w.close({"type": "footer", "status": "complete", "rounds": 1})
    >>> [p.name for p in folder.iterdir()], w.rounds_written
    (['t.jsonl'], 1)
    >>> w = TranscriptWriter(folder / "t.jsonl", {"rounds": 1}, overwrite=False)
    >>> w.close({"type": "footer", "status": "complete", "rounds": 0})
    Traceback (most recent call last):
    ...
    game.errors.GameError: ...t.jsonl: the file exists; the transcript is kept in ...partial
    """

    def __init__(
        self,
        path: str | os.PathLike,
        header: dict,
        initial_snapshot: dict | None = None,
        *,
        overwrite: bool = True,
    ):
        self.target = Path(path)
        self.overwrite = overwrite
        self.closed = False
        self.rounds_written = 0  # rounds whose lines are wholly written
        self._pending: list[tuple[int, bytes]] = []
        self._size = 0  # bytes wholly written: what a torn write is cut back to
        self.failed: GameError | None = None  # the write that failed, if one did
        self._loss = get_loss(header.get("loss", "zero-one"))
        self._fd, self.path = _open_for_writing(self.target)
        self._in_place = self.path == self.target
        line = {"type": "header", "format": FORMAT, "version": VERSION, **header}
        if initial_snapshot is not None:
            line["initial_snapshot"] = jsonable(initial_snapshot)
        try:
            self._write(json.dumps(line, allow_nan=False) + "\n")
        except BaseException:
            self._discard()
            raise

    def round(self, t, x, p, y, updated, snapshot=None, extras=None) -> None:
        """Queue round t's line (written at the next flush)."""
        direct = x.__class__ is np.ndarray and x.dtype in _DIRECT_DTYPES and x.flags.c_contiguous
        line = {
            "t": t,
            "x": x if direct else jsonable(x),
            "p": p,
            "y": y,
            "mistake": (p >= 0) != (y > 0),
            "loss": float(self._loss(p, y)),
            "updated": updated,
        }
        if extras:
            line["extras"] = jsonable(extras)
        if snapshot is not None:
            line["snapshot"] = jsonable(snapshot)
        self._pending.append((t, _round_line(line)))
        if len(self._pending) >= _FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Write the queued lines to the operating system."""
        if self._pending and self.failed is None:
            self._write(b"\n".join(line for _, line in self._pending) + b"\n")
            self.rounds_written = self._pending[-1][0]
            self._pending.clear()

    def close(self, footer: dict) -> None:
        """Write the footer, close the file and move it to its name (see the class).

        Round lines queued beyond ``footer["rounds"]`` (a round the game did
        not finish) are dropped, and a write torn by an interrupt is cut back
        first, so the file holds whole rounds and the footer agrees with them.
        After a failed write only the rounds already written are kept.
        """
        if self.closed:
            return
        self.closed = True
        failed_before = self.failed  # raised already, where it happened
        try:
            if self.failed is None:
                keep = footer.get("rounds")
                if isinstance(keep, int):
                    self._pending = [(t, line) for t, line in self._pending if t <= keep]
                if not self._in_place and os.lseek(self._fd, 0, os.SEEK_CUR) != self._size:
                    os.ftruncate(self._fd, self._size)  # a write cut short by an interrupt
                    os.lseek(self._fd, self._size, os.SEEK_SET)
                self.flush()
                self._write(json.dumps(jsonable(footer)) + "\n")
        except GameError:
            pass  # the failed write is the error already being reported, or reported below
        finally:
            os.close(self._fd)
        if not self._in_place:
            if footer.get("status") == "complete" and self.failed is None:
                self._commit(replace=self.overwrite)
            else:
                self._commit(replace=False, quiet=True)
        if self.failed is not None and failed_before is None:
            raise self.failed

    def _write(self, text: str | bytes) -> None:
        """Write ``text`` whole; a failure is kept and raised as a GameError naming the file."""
        if self.failed is not None:
            raise self.failed
        data = text.encode("utf-8") if isinstance(text, str) else text
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as exc:
            written = self.rounds_written if self._size else None
            self.failed = _write_failed(self.target, exc, written)
            raise self.failed from None
        self._size += len(data)

    def _commit(self, *, replace: bool, quiet: bool = False) -> None:
        """Move the temporary file to the target: by one rename, or a link that never replaces."""
        try:
            if replace:
                os.replace(self.path, self.target)
            else:
                os.link(self.path, self.target)  # fails, changing nothing, if the name is taken
                os.unlink(self.path)
        except FileExistsError:
            if quiet:
                return
            raise GameError(
                f"{self.target}: the file exists; the transcript is kept in {self.path}"
            ) from None
        except OSError as exc:
            if quiet:
                return
            raise GameError(
                f"{self.target}: cannot move the transcript there ({exc.strerror}); "
                f"it is kept in {self.path}"
            ) from None
        self.path = self.target

    def _discard(self) -> None:
        """The header could not be written: close and remove the temporary file."""
        self.closed = True
        os.close(self._fd)
        if not self._in_place:
            with contextlib.suppress(OSError):
                os.unlink(self.path)


def _open_for_writing(target: Path) -> tuple[int, Path]:
    """The descriptor to write and the file it writes: a new temporary file beside ``target``.

    A ``target`` that exists and is not a regular file (a device, a pipe) is
    opened in place; a folder is refused.
    """
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise GameError(f"{target}: cannot write the transcript: {_problem(exc)}") from None
    try:
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise GameError(f"{target}: is a folder; expected a transcript file")
        if info is not None and not stat.S_ISREG(info.st_mode):
            return os.open(target, os.O_WRONLY | os.O_APPEND), target
        target.parent.mkdir(parents=True, exist_ok=True)
        while True:  # created exclusively, with the mode a new file gets (the umask applies)
            name = target.with_name(f"{target.name}.{secrets.token_hex(4)}.partial")
            try:
                return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), name
            except FileExistsError:
                continue
    except OSError as exc:
        raise GameError(f"{target}: cannot write the transcript: {_problem(exc)}") from None


def _problem(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _write_failed(target: Path, exc: OSError, rounds: int | None) -> GameError:
    """The error for a write to ``target`` that failed after ``rounds`` whole rounds.

    ``rounds`` is None when not even the header was written.
    """
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        problem = "the disk is full"
    else:
        problem = f"the write failed ({_problem(exc)})"
    if rounds is None:
        return GameError(f"{target}: {problem}; nothing of the transcript was written")
    return GameError(
        f"{target}: {problem}; {rounds} rounds were written before it (kept, with the "
        "header and no footer)"
    )
