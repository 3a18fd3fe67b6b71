"""The referee: :func:`play` runs the round protocol and logs every round.

The loop in :func:`play` is the round of :mod:`game.protocol` and nothing else:
instance, predict, label, update, record. What surrounds it lives in helpers:

- the checks on the players' answers have a fast path inline (one comparison
  each) and a slow path in ``_prediction``, ``_label`` and
  ``_updated``, called only when the fast one fails;
- a ``_Recorder`` owns the columns (the referee's copy of the instances,
  an :class:`~game.transcript.InstanceColumn`, and three Python lists, turned
  into a :class:`~game.transcript.Transcript` when the game ends), the optional
  per-round record (snapshots, extras, the JSON Lines file, the ``trace``
  callback) and the abort path; a plain game (no snapshots, no extras, no
  file, no trace) has no per-round record at
  all, so its round costs one row copy, three list appends and one identity
  check over the players' own calls;
- the players are handed the referee's copy of each instance, never the
  adversary's object, through memory numpy will not write: no write by either
  player reaches the record, the other player's view of the round, or the
  adversary's own arrays;
- :func:`settle` asks for the certificate and the bounds after the game;
- the header is built by :func:`game_header`, the one place a header is built;
- progress, when asked for, is a callback the loop reaches through the
  adversary's ``instance`` (a plain game carries no progress code at all), and
  the steps of the game's end (the instances checked, the certificate verified,
  the bounds, the digest) are told to it as each begins; :class:`RoundsBar` is
  the default display, the one ``play(..., progress=True)`` and the command
  line show.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> stream = SeparableStream(dimension=5, margin=0.1, radius=1.0, rng=np.random.default_rng(1))
>>> tr = play(Perceptron(), stream, rounds=200)
>>> s = tr.summary()
>>> s["rounds"], s["certificate_verified"], s["mistakes"] <= s["updates"] <= s["bound"]
(200, True, True)
"""

from __future__ import annotations

import math
import numbers
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import numpy as np

from game.errors import (
    CertificateError,
    GameError,
    ParameterError,
    ProtocolError,
    check_choice,
    check_instance,
    check_integer,
)
from game.players import (
    LockstepRounds,
    describe_player,
    kinds_clash,
    lockstep_plan,
    play_lockstep,
)
from game.protocol import Adversary, History, Learner
from game.theory import Certificate, first_disagreement, get_loss, is_immutable, referee_copy
from game.theory.bounds import Bound
from game.transcript import (
    CompletedInstances,
    DiskColumn,
    InstanceColumn,
    NotNumbers,
    Round,
    Transcript,
    TranscriptWriter,
    instance_fault,
    lower_bound_hypotheses,
    versions,
)

__all__ = [
    "KEEP",
    "RoundsBar",
    "check_progress",
    "check_trace",
    "extras_clash",
    "game_header",
    "lockstep_transcripts",
    "play",
    "refuse_existing",
    "settle",
]

_ndarray = np.ndarray

#: Where a game keeps its rounds while it runs (:func:`play`'s ``keep``).
KEEP = ("memory", "disk")

#: Never the base of an instance: a game on disk records no row by reference.
_NEVER = object()

#: The calls of a round, by the number the loop keeps in ``stage``: who made
#: the call that failed, and which method it was.
_STAGES = {
    1: ("adversary", "instance"),
    2: ("learner", "predict"),
    3: ("adversary", "label"),
    4: ("learner", "update"),
    5: ("learner", "snapshot"),
    6: ("learner", "extras"),
    7: ("adversary", "extras"),
}


def _check_options(*, out: Any = None, meta: Any = None) -> None:
    """Check the options a game takes beside its players (each may be None).

    ``out`` a path (str or os.PathLike), ``meta`` a dict; anything else is a
    :class:`~game.errors.ParameterError` naming it (``progress`` goes through
    :func:`check_progress`).

    Examples
    --------
    >>> _check_options(out="game.jsonl", meta={"seed": 0})
    >>> _check_options(meta=5)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: meta must be a dict of header entries, got 5
    """
    if out is not None:
        check_instance("out", out, (str, os.PathLike), "a path (str or os.PathLike)")
    if meta is not None:
        check_instance("meta", meta, dict, "a dict of header entries")


def refuse_existing(path: str | os.PathLike) -> None:
    """Refuse ``path`` when a regular file (or a link to one) has that name.

    A device or a pipe (``/dev/null``, ``/dev/stdout``) is not refused: writing
    to it replaces nothing.

    Examples
    --------
    >>> import tempfile
    >>> refuse_existing("/dev/null")
    >>> with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
    ...     refuse_existing(f.name)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.errors.GameError: ....jsonl: the file exists; not overwritten
    """
    if os.path.isfile(path):
        raise GameError(f"{os.fspath(path)}: the file exists; not overwritten")


def game_header(
    learner: Any,
    adversary: Any,
    *,
    rounds: int,
    loss: str,
    snapshots: bool = False,
    meta: dict | None = None,
    shared: dict | None = None,
) -> dict[str, Any]:
    """The transcript header of a game: the one place it is built.

    Parameters
    ----------
    learner, adversary : object
        The players, described by registry name and parameters.
    rounds : int
        The most rounds of the game.
    loss : str
        The loss that grades every round.
    snapshots : bool, default False
        Whether the learner's snapshots are logged.
    meta : dict, optional
        Extra entries (a scenario's path, spec and seed), added last.
    shared : dict, optional
        ``versions`` already read for a batch of games (read once per batch).

    Examples
    --------
    >>> from learners import Perceptron
    >>> from adversaries import Replay
    >>> h = game_header(Perceptron(), Replay(instances=[[1.0]], labels=[1]), rounds=3,
    ...                 loss="zero-one")
    >>> h["learner"]["name"], h["adversary"]["name"], h["rounds"]
    ('perceptron', 'replay', 3)
    """
    header: dict[str, Any] = {
        "learner": describe_player(learner),
        "adversary": describe_player(adversary),
        "rounds": int(rounds),
        "loss": loss,
        "snapshots": bool(snapshots),
        "versions": (shared or {}).get("versions") or versions(),
    }
    if meta:
        header.update(meta)
    return header


def play(
    learner: Learner,
    adversary: Adversary,
    *,
    rounds: int,
    loss: str = "zero-one",
    snapshots: bool = False,
    out: str | os.PathLike | None = None,
    overwrite: bool = True,
    meta: dict | None = None,
    progress: bool | Callable[[int, int], Any] | None = None,
    keep: str = "memory",
    trace: Callable[[Round, int], Any] | None = None,
    lockstep: bool = True,
) -> Transcript:
    """Play one game and return its transcript.

    Parameters
    ----------
    learner : Learner
        Has ``predict(x) -> float`` and ``update(x, y) -> bool``.
    adversary : Adversary
        Has ``instance(history)``, ``label(x, p, history)`` and ``certificate()``.
    rounds : int
        The most rounds to play; the adversary ends the game sooner by returning None.
    loss : {"zero-one", "absolute", "squared"}
        The loss that grades every round.
    snapshots : bool, default False
        Log the learner's ``snapshot()`` after every round's update (and before round 1).
    out : path-like, optional
        Stream the transcript to this JSON Lines file as the game runs. It is
        written to a temporary file beside ``out`` (``NAME.XXXXXXXX.partial``)
        and renamed to ``out`` when the game ends, so ``out`` never holds half
        a game. A game that fails or is interrupted keeps its complete rounds
        under a footer marked aborted with the reason; that file takes the name
        ``out`` only if no file has it, and otherwise stays under its temporary
        name (the error's note says where). See
        :class:`~game.transcript.TranscriptWriter`.
    overwrite : bool, default True
        Whether a complete game's file replaces an existing file ``out``, as
        :func:`numpy.save` does. False refuses an existing ``out`` before
        round 1 and never replaces a file that appears while the game runs
        (of two games writing one ``out``, the first to end keeps it; the other
        raises, its file kept under the temporary name). An aborted game's file
        never replaces an existing one.
    meta : dict, optional
        Extra header entries (a scenario records its spec and seed here).
    progress : bool or callable, optional
        True shows the default display (:class:`RoundsBar`, on standard error,
        once the game has run for about a second): the rounds with rounds per
        second, then each step of the game's end. False or None shows nothing,
        and the loop carries no progress code at all. A callable is called as
        ``progress(done, rounds)`` with the rounds completed, at most about
        every 0.1 s while the game runs and once when its rounds are over; if
        it has a ``step`` method, ``progress.step(text)`` is called as each
        step of the game's end begins ("checking the instances", "verifying the
        certificate", "computing the bounds", "computing the digest") and
        ``progress.step(None)`` when the last is done. With progress the digest
        is computed before ``play`` returns, as that last step (without it, when
        first asked for). An exception the callback raises stops the game as a
        :class:`GameError`.
    keep : {"memory", "disk"}, default "memory"
        Where the rounds are kept while the game runs. ``"disk"`` is the
        streaming mode: every column (instances, predictions, labels,
        updates, the players' extras) goes to an unlinked temporary file in
        ``out``'s folder (the system's temporary folder without ``out``),
        mapped into memory, so the game's memory stays what its players hold
        however long it runs, and its length is bounded by the disk. The
        transcript returned maps those files (its columns read from disk as
        they are used; the space is freed when it is gone) and the game's end
        reads them a block at a time. Rows of immutable blocks are copied
        there too; the points of a finite class and the learner's snapshots
        stay in memory. A round costs about 0.5 µs more.
    trace : callable, optional
        Called as ``trace(round, mistakes)`` after every round is recorded (and
        before its line is written to ``out``): ``round`` a
        :class:`~game.transcript.Round` (its number, the instance as the
        players saw it, prediction, label, mistake, loss, whether the learner
        updated, the players' extras, and the learner's snapshot when
        snapshots are logged, else None), ``mistakes`` the mistakes so far,
        this round's included. None (the default) adds nothing to the round
        loop. An exception the callback raises stops the game as a
        :class:`GameError` naming the round, which is not kept (rounds 1 to
        t - 1 are, as when a player fails).
    lockstep : bool, default True
        Let a game both of whose players declare lockstep kernels
        (:mod:`game.players`) be played by them at once, K = 1, when the
        learner's kernel runs compiled (the ``fast`` extra): an oblivious
        adversary's whole sequence is drawn ahead and the learner's rounds run
        in one compiled loop, giving the transcript the round loop gives (the
        same rounds, digest, certificate and bounds; property-tested). Only a
        game with no file, snapshots, progress or trace, kept in memory, goes
        that way. False always plays the round loop.

    Returns
    -------
    Transcript

    Raises
    ------
    ParameterError
        For a bad argument: ``rounds`` not an integer ≥ 0, an unknown ``loss``,
        ``snapshots`` not a bool, ``out`` not a path, ``overwrite`` not a bool,
        ``meta`` not a dict, ``progress`` not a bool, None or a callable,
        ``keep`` not "memory" or "disk", ``trace`` not None or a callable,
        ``lockstep`` not a bool.
    ProtocolError
        A player broke the protocol (a prediction outside [-1, 1] or NaN, a label
        other than ±1, an ``update`` that returned no bool) or raised: the message
        names the player, the round and the value. An instance that is not real
        numbers is refused as it is presented, a non-finite one (or advice
        outside [-1, 1]) at the latest after the game, naming the adversary and
        the round. The file written so far keeps every complete round and a
        footer marked aborted.
    GameError
        ``out`` cannot be written: a folder, an existing file with
        ``overwrite=False``, a full disk (naming the rounds written before it).
    CertificateError
        The adversary's realizable certificate contradicts a label; names the
        first such round. The transcript file is completed first.
    """
    rounds = check_integer("rounds", rounds, low=0)
    get_loss(loss)
    snapshots = check_choice("snapshots", snapshots, (False, True))
    _check_options(out=out, meta=meta)
    overwrite = check_choice("overwrite", overwrite, (False, True))
    keep = check_choice("keep", keep, KEEP)
    if out is not None and not overwrite:
        refuse_existing(out)
    progress = check_progress(progress)
    trace = check_trace(trace)
    header = game_header(
        learner, adversary, rounds=rounds, loss=loss, snapshots=snapshots, meta=meta
    )
    clash = kinds_clash(learner, adversary)
    if clash is not None:
        raise ProtocolError(clash)
    lockstep = check_choice("lockstep", lockstep, (False, True))
    plain = out is None and keep == "memory" and not snapshots and not progress and trace is None
    if lockstep and plain:
        game = _kernel_game(learner, adversary, header, rounds)
        if game is not None:
            return game
    disk = None
    if keep == "disk":
        disk = os.path.dirname(os.path.abspath(out)) if out is not None else tempfile.gettempdir()
    where = (out, overwrite, disk, trace)
    if progress is not True:
        progress = None if progress is False else progress
        return _referee(learner, adversary, header, rounds, snapshots, where, progress)
    bar = RoundsBar(f"{header['learner']['name']} vs {header['adversary']['name']}")
    try:
        return _referee(learner, adversary, header, rounds, snapshots, where, bar)
    finally:
        bar.close()


def _kernel_game(
    learner: Learner, adversary: Adversary, header: dict, rounds: int
) -> Transcript | None:
    """The game played by its players' compiled kernels (K = 1), or None to play it in the loop.

    Only when both classes declare lockstep kernels that reproduce this game
    exactly (:func:`game.players.lockstep_plan`) and the learner's runs
    compiled for a game of this length (``LockstepLearner.compiled``): the
    transcript is the loop's, round for round, and settled by the same
    :func:`settle`.
    """
    plan = lockstep_plan([learner], [adversary], rounds)
    if plan is None:
        return None
    compiled = plan.learner_kernel.compiled
    if compiled is None or not compiled(sum(plan.lengths) * plan.dimension):
        return None
    start = time.perf_counter()
    played = play_lockstep(plan, [learner], [adversary])
    (game,) = lockstep_transcripts(
        played, [header], [learner], [adversary], time.perf_counter() - start
    )
    if isinstance(game, GameError):
        raise game
    return game


def lockstep_transcripts(
    played: LockstepRounds, headers: list, learners: list, adversaries: list, wall_time: float
) -> list:
    """The transcripts of games played in lockstep, each settled as :func:`play` settles a game.

    Parameters
    ----------
    played : game.players.LockstepRounds
        The rounds of K games (:func:`game.players.play_lockstep`).
    headers : list of dict
        Each game's header (:func:`game_header`).
    learners, adversaries : list
        The players, spent as their games left them.
    wall_time : float
        Seconds the K games took, shared evenly among them.

    Returns
    -------
    list of Transcript or GameError
        A game the loop would have ended with an error (players logging the
        same extras key, a certificate that disagrees) gives that error.

    Examples
    --------
    >>> import numpy as np
    >>> from game.players import lockstep_plan, play_lockstep
    >>> from learners import Perceptron
    >>> from adversaries import SeparableStream
    >>> pair = [Perceptron()], [SeparableStream(3, 0.1, rng=np.random.default_rng(0))]
    >>> played = play_lockstep(lockstep_plan(*pair, 50), *pair)
    >>> header = game_header(pair[0][0], pair[1][0], rounds=50, loss="zero-one")
    >>> (game,) = lockstep_transcripts(played, [header], *pair, 0.0)
    >>> len(game), game.certificate_verified
    (50, True)
    """
    share = wall_time / max(1, len(learners))
    out: list = []
    for k, (learner, adversary) in enumerate(zip(learners, adversaries, strict=True)):
        X = played.instances[k]
        n = len(X)
        extras = {}
        if n:  # round 1 fixes the columns: the learner's, then the adversary's
            extras = {
                name: np.array(v[k, :n], dtype=np.float64)
                for name, v in played.learner_extras.items()
            }
            theirs = played.adversary_extras[k]
            clash = extras.keys() & theirs.keys()
            if clash:  # the loop stops such a game on round 1 (its players, spent,
                # are left where the whole game took them)
                out.append(extras_clash(adversary, 1, clash))
                continue
            extras.update({name: np.array(v[:n], dtype=np.float64) for name, v in theirs.items()})
        transcript = Transcript(
            header=headers[k],
            raw_instances=X if n else [],  # as the loop records no round
            predictions=np.array(played.predictions[k, :n], dtype=np.float64),
            labels=played.labels[k, :n].astype(np.int8),
            updated=np.array(played.updated[k, :n], dtype=bool),
            extras=extras,
        )
        transcript.wall_time = share
        failure = settle(transcript, learner, adversary)
        if failure is not None:
            transcript.status, transcript.reason = "aborted", str(failure)
            out.append(failure)
        else:
            out.append(transcript)
    return out


def _referee(
    learner: Learner,
    adversary: Adversary,
    header: dict,
    rounds: int,
    snapshots: bool,
    out: tuple[str | os.PathLike | None, bool, str | None, Callable | None],
    progress: Callable[[int, int], Any] | None,
) -> Transcript:
    """The game itself, its arguments checked: the round loop, then its end.

    ``out`` is the file, whether it may replace an existing one, the folder
    the rounds are kept in on disk (None: in memory) and the trace callback
    (None: none).
    """
    out, overwrite, disk, trace = out
    record = _Recorder.open(
        learner,
        adversary,
        header,
        snapshots=snapshots,
        out=out,
        overwrite=overwrite,
        disk=disk,
        trace=trace,
    )
    ps, ys, us = record.ps, record.ys, record.us
    store = record.xs.store  # the slow path of the copy; the loop writes rows itself
    # the column's state (store returns it): its buffer, the view of it players are handed
    buf, view, shape, dtype, cap = None, None, None, None, 0
    history = History(CompletedInstances(record.xs, ys), ps, ys)
    instance, predict = adversary.instance, learner.predict
    label, update = adversary.label, learner.update
    if progress is not None:
        instance = _reporting(instance, progress, int(rounds))
    record_more = record.per_round()  # None for a plain game: nothing more to record
    t = stage = 0  # the round and its call (numbered as in _STAGES) that a failure names
    # a block in immutable memory, whose rows are recorded by reference (never on disk)
    frozen = None if disk is None else _NEVER
    try:
        for t in range(1, rounds + 1):
            stage = 1
            x = instance(history)
            if x is None:
                break
            if x.__class__ is _ndarray:
                base = x.base
                if base is frozen and frozen is not None:  # immutable: kept by reference
                    x, buf, view, shape, dtype, cap = store(x, t, True)
                elif x.shape == shape and x.dtype is dtype and t <= cap:
                    buf[t - 1] = x  # the referee's copy, taken before anyone sees x again
                    x = view[t - 1]  # players see that copy, through memory they cannot write
                elif frozen is None and base.__class__ is _ndarray and is_immutable(base):
                    frozen = base  # rows of a block no write can ever change
                    x, buf, view, shape, dtype, cap = store(x, t, True)
                else:
                    x, buf, view, shape, dtype, cap = store(x, t)
            else:
                x, buf, view, shape, dtype, cap = store(x, t)
            stage = 2
            p = predict(x)
            if p.__class__ is not float or not -1.0 <= p <= 1.0:
                p = _prediction(p, learner, t)
            stage = 3
            y = label(x, p, history)
            if y.__class__ is not int or (y != 1 and y != -1):
                y = _label(y, adversary, t)
            stage = 4
            u = update(x, y)
            if u is not True and u is not False:
                u = _updated(u, learner, t)
            ps.append(p)
            ys.append(y)
            us.append(u)
            if record_more is not None:
                record_more(t, x, p, y, u)
    except BaseException as exc:
        error = record.abort(exc, t, stage)
        if error is exc:
            raise
        raise error from exc
    if progress is None:
        return record.finish()
    return record.finish(_stepper(progress, len(ys), int(rounds)))


# -- the record ------------------------------------------------------------------------------


@attrs.define(eq=False)
class _Recorder:
    """What one game leaves behind: its columns, its file and, if it fails, its abort.

    ``xs``, ``ps``, ``ys``, ``us`` are the four columns the loop appends to
    (and :class:`~game.protocol.History` shows the adversary); ``snaps`` and
    ``extras`` the optional ones, filled by :meth:`more`. Built by :meth:`open`.
    """

    learner: Any
    adversary: Any
    header: dict
    snapshot: Callable[[], dict] | None  # the learner's, when snapshots are logged
    learner_extras: Callable[[], dict] | None
    adversary_extras: Callable[[], dict] | None
    initial: dict | None  # the snapshot before round 1
    writer: TranscriptWriter | None
    disk: str | None = None  # the folder the columns are kept in, on disk; None: in memory
    trace: Callable[[Round, int], Any] | None = None  # play's trace callback
    xs: InstanceColumn = attrs.field(init=False)
    ps: list[float] | DiskColumn = attrs.field(init=False)
    ys: list[int] | DiskColumn = attrs.field(init=False)
    us: list[bool] | DiskColumn = attrs.field(init=False)
    snaps: dict[str, list] | None = attrs.field(init=False, default=None)  # keys of round 1
    extras: dict[str, list] = attrs.field(init=False, factory=dict)  # keys of round 1
    start: float = attrs.field(init=False, factory=time.perf_counter)
    mistakes: int = attrs.field(init=False, default=0)  # counted only for the trace

    def __attrs_post_init__(self) -> None:
        self.xs = InstanceColumn(self.header["rounds"], disk=self.disk)
        self.ps, self.ys, self.us = (self._column(t) for t in (np.float64, np.int8, np.bool_))

    def _column(self, dtype: Any) -> list | DiskColumn:
        """A new column of one number per round: a list, or on disk."""
        return [] if self.disk is None else DiskColumn(dtype, self.disk)

    @classmethod
    def open(
        cls,
        learner: Any,
        adversary: Any,
        header: dict,
        *,
        snapshots: bool,
        out: str | os.PathLike | None,
        overwrite: bool = True,
        disk: str | None = None,
        trace: Callable[[Round, int], Any] | None = None,
    ) -> _Recorder:
        """The recorder of a game about to start: initial snapshot taken, file opened.

        ``disk`` is the folder the columns are kept in (None: in memory);
        ``trace`` the callback told of every round (None: none).
        """
        snapshot = getattr(learner, "snapshot", None) if snapshots else None
        if snapshots and snapshot is None:
            raise GameError(
                f"{_who('learner', learner)} has no snapshot(); play with snapshots=False"
            )
        learner_extras = getattr(learner, "extras", None)
        adversary_extras = getattr(adversary, "extras", None)
        initial = dict(snapshot()) if snapshot else None
        writer = None
        if out is not None:
            writer = TranscriptWriter(out, header, initial, overwrite=overwrite)
        return cls(
            learner,
            adversary,
            header,
            snapshot,
            learner_extras,
            adversary_extras,
            initial,
            writer,
            disk,
            trace,
        )

    def per_round(self) -> Callable[[int, Any, float, int, bool], None] | None:
        """:meth:`more`, or None when a round leaves nothing beyond the four columns."""
        plain = (
            self.snapshot is None
            and self.learner_extras is None
            and self.adversary_extras is None
            and self.writer is None
            and self.trace is None
        )
        return None if plain else self.more

    def more(self, t: int, x: Any, p: float, y: int, u: bool) -> None:
        """Round t's snapshot, extras and file line, after its four columns.

        A player's call that raises is a :class:`ProtocolError` naming it; a
        file line that cannot be written is put on the round's last call.
        """
        stage = 4
        try:
            snap = row = None
            if self.snapshot is not None:
                stage = 5
                snap = self.snapshot()
                snaps = self.snaps
                if snaps is None or snap.keys() != snaps.keys():
                    snaps = self._snapshot_keys(snap, t)
                for k, v in snap.items():
                    snaps[k].append(v)
            if self.learner_extras is not None or self.adversary_extras is not None:
                row = {}
                if self.learner_extras is not None:
                    stage = 6
                    row.update(_extras(self.learner_extras(), "learner", self.learner, t))
                if self.adversary_extras is not None:
                    stage = 7
                    theirs = _extras(self.adversary_extras(), "adversary", self.adversary, t)
                    if row.keys() & theirs.keys():
                        raise extras_clash(self.adversary, t, row.keys() & theirs.keys())
                    row.update(theirs)
                if t == 1 or row.keys() != self.extras.keys():
                    self._extras_keys(row, t)
                for k, v in row.items():
                    self.extras[k].append(float(v))
            if self.trace is not None:
                self._trace(t, x, p, y, u, snap, row)
            if self.writer is not None:
                self.writer.round(t, x, p, y, u, snap, row)
        except GameError:
            raise
        except Exception as exc:
            raise self._raised(exc, t, stage) from exc

    def _trace(
        self, t: int, x: Any, p: float, y: int, u: bool, snap: dict | None, row: dict | None
    ) -> None:
        """Tell the trace callback of round t; what it raises, a :class:`GameError`."""
        mistake = (1 if p >= 0 else -1) != y
        self.mistakes += mistake
        loss = float(get_loss(self.header["loss"])(p, y))
        shown = Round(t, x, p, y, mistake, loss, u, dict(row or {}), snap)
        try:
            self.trace(shown, self.mistakes)
        except Exception as exc:
            raise GameError(
                f"the trace callback raised {type(exc).__name__} at round {t}: {exc}"
            ) from exc

    def _snapshot_keys(self, snap: dict, t: int) -> dict[str, list]:
        """The first snapshot's keys name the columns; a later change of keys is an error."""
        if self.snaps is not None:
            raise ProtocolError(
                f"{_who('learner', self.learner)}, round {t}: snapshot keys {sorted(snap)} "
                f"differ from round 1's {sorted(self.snaps)}"
            )
        self.snaps = {k: [] for k in snap}
        return self.snaps

    def _extras_keys(self, row: dict, t: int) -> None:
        """Round 1's extras keys name the columns, even when it logs none; then they stay."""
        if t != 1:
            raise ProtocolError(
                f"round {t}: extras keys {sorted(row)} differ from round 1's {sorted(self.extras)}"
            )
        self.extras = {k: self._column(np.float64) for k in row}

    def _raised(self, exc: Exception, t: int, stage: int) -> ProtocolError:
        """The error for a player's call that raised ``exc`` at ``stage`` of round t."""
        role, method = _STAGES[stage]
        player = self.learner if role == "learner" else self.adversary
        return ProtocolError(
            f"{_who(role, player)}, round {t}: {method} raised {type(exc).__name__}: {exc}"
        )

    def transcript(self) -> Transcript:
        """The columns recorded so far, as a transcript (no certificate, no bound yet)."""
        n = len(self.ys)
        snaps = self.snaps
        if snaps is None and self.initial is not None:
            snaps = {}  # snapshots logged, no round played
        transcript = Transcript(
            header=self.header,
            raw_instances=self.xs.rows(n),
            predictions=_as_array(self.ps, np.float64, n),
            labels=_as_array(self.ys, np.int8, n),
            updated=_as_array(self.us, np.bool_, n),
            extras={k: _as_array(v, np.float64, n) for k, v in self.extras.items()},
            snapshots=snaps,
            initial_snapshot=self.initial,
        )
        transcript.wall_time = time.perf_counter() - self.start
        return transcript

    def abort(self, exc: BaseException, t: int, stage: int) -> BaseException:
        """Round t failed at ``stage``: keep rounds 1 to t - 1, close the file, give the error.

        The error to raise is ``exc`` itself when it is a :class:`GameError` or
        not an :class:`Exception` (a KeyboardInterrupt goes through, the file
        kept), else a :class:`ProtocolError` naming the player, the round and
        the call. The file, if any, is closed with a footer marked aborted, and
        a note on the error says where it is (see :class:`~game.transcript.TranscriptWriter`).
        """
        played = t - 1  # round t never completed: drop whatever of it was recorded
        for column in (self.ps, self.ys, self.us):  # the instances' rows go by len(ys)
            del column[played:]
        for column in (*(self.snaps or {}).values(), *self.extras.values()):
            del column[played:]
        fault = None
        if stage >= 2 and len(self.xs) >= t:  # round t's instance was recorded
            presents = getattr(self.adversary, "presents", None)
            fault = instance_fault([self.xs[t - 1]], presents)
        if isinstance(exc, NotNumbers):  # round t's instance, refused before it was recorded
            fault = (t - 1, exc.why)
        if fault is not None and isinstance(exc, Exception):  # a bad instance, not its player
            error: BaseException = _refused(self.adversary, t - 1, fault[1])
        elif isinstance(exc, GameError) or not isinstance(exc, Exception):
            error = exc
        else:
            error = self._raised(exc, t, stage)
        if self.writer is not None:
            self._close_aborted(error)
        return error

    def _close_aborted(self, error: BaseException) -> None:
        """Close the file of a game stopped by ``error``; a note on ``error`` says where it is."""
        writer = self.writer
        if writer.closed:  # stopped while the file was being closed: it is where it is
            error.add_note(f"the transcript is in {writer.path}")
            return
        partial = self.transcript()
        partial.status, partial.reason = "aborted", str(error) or type(error).__name__
        try:
            writer.close(partial.footer())
        except GameError as exc:  # the footer could not be written: the rounds before it stay
            error.add_note(str(exc))
            return
        if writer.failed is None:
            error.add_note(
                f"the transcript keeps the {len(partial)} complete rounds, marked aborted: "
                f"{writer.path}"
            )

    def finish(self, step: Callable[[str | None], Any] | None = None) -> Transcript:
        """The game's transcript, settled (:func:`settle`) and its file closed.

        With ``step`` (a game shown with progress) each step of the end is told
        to it as it begins, and the digest is computed here, as the last step.
        Raises the error :func:`settle` returns, after the file's footer
        (marked aborted) is written. An interrupt during the game's end closes
        the file too, every round kept, its footer marked aborted.
        """
        transcript = self.transcript()
        try:
            failure = settle(transcript, self.learner, self.adversary, step=step)
            if step is not None and failure is None:
                try:
                    step("computing the digest")
                    _ = transcript.rounds_digest  # the costly part of the digest, kept
                    step(None)
                except GameError as exc:
                    failure = exc
        except BaseException as exc:  # a KeyboardInterrupt or a signal after the last round
            if self.writer is not None:
                self._close_aborted(exc)
            raise
        if self.writer is not None:
            if failure is not None:
                transcript.status, transcript.reason = "aborted", str(failure)
            self.writer.close(transcript.footer())
        if failure is not None:
            raise failure
        return transcript


def _as_array(column: list | DiskColumn, dtype: Any, n: int) -> np.ndarray:
    """The first n values of a column as an array: a list's copied, a column on disk's mapped."""
    if isinstance(column, DiskColumn):
        return column.array(n)
    return np.fromiter(column, dtype=dtype, count=n)


# -- checks on the players' answers (slow paths) ------------------------------------------------


def _who(role: str, player: Any) -> str:
    return f"{role} {describe_player(player)['name']}"


def _prediction(p: Any, learner: Any, t: int) -> float:
    """Slow path of the prediction check: coerce a real number, else raise."""
    if isinstance(p, numbers.Real) and not isinstance(p, bool | np.bool_):
        q = float(p)
        if -1.0 <= q <= 1.0:
            return q
    raise ProtocolError(
        f"{_who('learner', learner)}, round {t}: predict returned {p!r}; "
        "expected a float in [-1, 1]"
    )


def _label(y: Any, adversary: Any, t: int) -> int:
    """Slow path of the label check: accept integral ±1, else raise."""
    if isinstance(y, numbers.Integral) and not isinstance(y, bool | np.bool_) and y in (-1, 1):
        return int(y)
    raise ProtocolError(
        f"{_who('adversary', adversary)}, round {t}: label returned {y!r}; expected -1 or 1"
    )


def _updated(u: Any, learner: Any, t: int) -> bool:
    """Slow path of the update check: accept a numpy bool, else raise."""
    if isinstance(u, np.bool_):
        return bool(u)
    raise ProtocolError(
        f"{_who('learner', learner)}, round {t}: update returned {u!r}; expected True or False"
    )


def _extras(values: Any, role: str, player: Any, t: int) -> dict:
    if not isinstance(values, dict) or not all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values.values()
    ):
        raise ProtocolError(
            f"{_who(role, player)}, round {t}: extras() returned {values!r}; "
            "expected a dict of numbers"
        )
    return values


def extras_clash(adversary: Adversary, t: int, keys: Iterable[str]) -> ProtocolError:
    """The error for extras keys that both players log on round t (one column per key).

    Parameters
    ----------
    adversary : Adversary
        The player named by the error: its keys come second.
    t : int
        The round.
    keys : iterable of str
        The keys both players logged.

    Returns
    -------
    ProtocolError
        To raise, or to return in a game's place.

    Examples
    --------
    >>> from adversaries import Replay
    >>> error = extras_clash(Replay(instances=[[1.0]], labels=[1]), 1, {"p"})
    >>> str(error).split(";")[0]
    "adversary replay, round 1: extras() key(s) ['p'] are also the learner's"
    """
    return ProtocolError(
        f"{_who('adversary', adversary)}, round {t}: extras() key(s) {sorted(keys)} are also "
        "the learner's; expected keys of its own (one column per key)"
    )


# -- progress ----------------------------------------------------------------------------------

#: Rounds between two looks at the clock when a progress callback is given.
_PROGRESS_STRIDE = 64
#: Seconds between two calls of the progress callback.
_PROGRESS_PERIOD = 0.1


def check_progress(progress: Any) -> bool | Callable[[int, int], Any] | None:
    """``progress`` as :func:`play` and :func:`game.sweep` take it, or a ParameterError.

    True (or numpy's true) asks for the default display, False (or numpy's
    false) and None for none; a callable ``progress(done, total)`` is called as
    the work advances. Anything else (1, "yes") is refused, naming ``progress``.

    Returns
    -------
    bool, callable or None
        ``progress``, a numpy bool as the bool it equals.

    Raises
    ------
    ParameterError
        Naming ``progress``.

    Examples
    --------
    >>> import numpy as np
    >>> check_progress(np.True_), check_progress(None), check_progress(print) is print
    (True, None, True)
    >>> check_progress(1)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: progress must be True, False, None or a callable \
progress(done, total), got 1
    """
    if progress is None or callable(progress):
        return progress
    if isinstance(progress, bool | np.bool_):
        return bool(progress)
    raise ParameterError(
        "progress", progress, "True, False, None or a callable progress(done, total)"
    )


def check_trace(trace: Any) -> Callable[[Round, int], Any] | None:
    """``trace`` as :func:`play` takes it (None or a callable), or a ParameterError naming it.

    Examples
    --------
    >>> check_trace(None), check_trace(print) is print
    (None, True)
    >>> check_trace(True)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: trace must be None or a callable trace(round, mistakes), got True
    """
    if trace is None or callable(trace):
        return trace
    raise ParameterError("trace", trace, "None or a callable trace(round, mistakes)")


def _report(progress: Any, done: int, total: int) -> None:
    try:
        progress(done, total)
    except Exception as exc:
        raise GameError(
            f"the progress callback raised {type(exc).__name__} after {done} rounds: {exc}"
        ) from exc


def _stepper(progress: Any, done: int, total: int) -> Callable[[str | None], None]:
    """What tells ``progress`` the steps of the game's end, its exceptions a :class:`GameError`.

    Its first call first reports the rounds played, ``progress(done, total)``;
    then each call is ``progress.step(text)``, when the callback has ``step``.
    """
    step = getattr(progress, "step", None)
    reported = []

    def tell(text: str | None) -> None:
        if not reported:
            reported.append(True)
            _report(progress, done, total)
        if step is None:
            return
        try:
            step(text)
        except Exception as exc:
            where = "after the last step" if text is None else f"at the step {text!r}"
            raise GameError(
                f"the progress callback raised {type(exc).__name__} {where} of the game's end: "
                f"{exc}"
            ) from exc

    return tell


def _reporting(instance: Any, progress: Any, total: int) -> Any:
    """``instance`` wrapped so that ``progress(done, total)`` runs about every 0.1 s.

    The adversary's ``instance`` is called once per round, so the wrapper counts
    rounds; it reads the clock every :data:`_PROGRESS_STRIDE` rounds. The plain
    loop, without a callback, never sees it.
    """
    clock = time.perf_counter
    state = [0, clock()]

    def instance_with_progress(history):
        done = state[0]
        state[0] = done + 1
        if done % _PROGRESS_STRIDE == 0 and done:
            now = clock()
            if now - state[1] >= _PROGRESS_PERIOD:
                state[1] = now
                _report(progress, done, total)
        return instance(history)

    return instance_with_progress


#: How many seconds a game runs before :class:`RoundsBar` appears.
BAR_DELAY = 1.0


@attrs.define(eq=False)
class RoundsBar:
    """The progress display of a game: its rounds, then the steps of its end.

    The default ``progress`` of :func:`play` (``progress=True``) and the bar of
    the command line's ``run`` and ``report``. Called as ``bar(done, rounds)``
    it shows a bar of the rounds with rounds per second; ``bar.step(text)``
    (which :func:`play` calls as each step of the game's end begins) ends the
    rounds and shows the step on a line of its own, its time running, until
    the next step, ``bar.step(None)`` or :meth:`close` ends it: a finished step
    is marked ✓, one still running when the bar closes (the game stopped with
    an error) ✗. Nothing shows until the game has run for ``delay`` seconds,
    and nothing at all unless ``enabled``; from then on the display is truthful
    about the time before it appeared (every time shown runs from the bar's
    creation or its step's start). It draws with rich on ``console``, by
    default standard error.

    Parameters
    ----------
    label : str
        The bar's title (a scenario's name, or "LEARNER vs ADVERSARY").
    enabled : bool, default True
        False draws nothing (the command line's ``--quiet``, a pipe).
    delay : float, default ``BAR_DELAY``
        Seconds before the display appears.
    console : rich.console.Console, optional
        Where it draws; standard error by default.

    Examples
    --------
    >>> import io
    >>> from rich.console import Console
    >>> shown = io.StringIO()
    >>> bar = RoundsBar("a game", delay=0.0, console=Console(file=shown, width=100))
    >>> bar(1000, 1000)
    >>> bar.step("computing the digest")
    >>> bar.step(None)
    >>> bar.close()  # the display stays, as it was last drawn
    >>> print(shown.getvalue())  # doctest: +ELLIPSIS
    a game ━━━...━━━ 1000/1000 rounds, ... rounds/s ... s
    ✓ computing the digest ... s
    """

    label: str
    enabled: bool = True
    delay: float = attrs.field(factory=lambda: BAR_DELAY)
    console: Any = None
    start: float = attrs.field(init=False, factory=time.perf_counter)
    _rounds: Any = attrs.field(init=False, default=None)  # rich Progress of the rounds
    _steps: Any = attrs.field(init=False, default=None)  # rich Progress of the steps
    _task: Any = attrs.field(init=False, default=None)  # the rounds' task
    _step: Any = attrs.field(init=False, default=None)  # the step running, if any
    _live: Any = attrs.field(init=False, default=None)  # the display, once it shows
    _over: bool = attrs.field(init=False, default=False)  # the rounds are over
    _closed: bool = attrs.field(init=False, default=False)

    def __attrs_post_init__(self) -> None:
        if self.enabled:
            self._rounds, self._steps = _bar_parts(self.console)
            self._task = self._rounds.add_task(self.label, total=None, rate=0.0)

    def __call__(self, done: int, total: int) -> None:
        """``done`` of ``total`` rounds played."""
        if not self.enabled or self._closed:
            return
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        self._rounds.update(self._task, completed=done, total=total, rate=rate)
        self._show()

    def step(self, text: str | None) -> None:
        """Begin the step ``text`` of the game's end (None: the last step is done)."""
        if not self.enabled or self._closed:
            return
        self._end_rounds()
        self._end_step(done=True)
        if text is not None:
            self._step = self._steps.add_task(text, total=1)
        self._show()

    def close(self) -> None:
        """End the display; it stays on screen as last drawn (a running step marked ✗)."""
        if not self.enabled or self._closed:
            return
        self._closed = True
        if not self._over:  # the game stopped during its rounds: the bar stays where it was
            self._rounds.stop_task(self._task)
        self._end_step(done=False)
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _end_rounds(self) -> None:
        """The rounds are over: the game's length is the rounds played."""
        if not self._over:
            self._over = True
            done = self._rounds.tasks[0].completed
            self._rounds.update(self._task, total=done, completed=done)
            self._rounds.stop_task(self._task)

    def _end_step(self, *, done: bool) -> None:
        if self._step is not None:
            if done:
                self._steps.update(self._step, completed=1)
            self._steps.stop_task(self._step)
            self._step = None

    def _show(self) -> None:
        """Start the display once the game has run for ``delay`` seconds."""
        if self._live is None and time.perf_counter() - self.start >= self.delay:
            from rich.console import Group
            from rich.live import Live

            console = self._rounds.console
            self._live = Live(Group(self._rounds, self._steps), console=console)
            self._live.start()


def _bar_parts(console: Any) -> tuple[Any, Any]:
    """The two rich Progress tables of a :class:`RoundsBar`: the rounds, and the steps."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
    from rich.text import Text

    class Seconds(ProgressColumn):
        """The task's time: seconds with a tenth below a minute, then H:MM:SS."""

        def render(self, task: Any) -> Text:
            elapsed = task.elapsed or 0.0
            if elapsed < 60:
                return Text(f"{elapsed:.1f} s", style="progress.elapsed")
            m, s = divmod(int(elapsed), 60)
            return Text(f"{m // 60}:{m % 60:02d}:{s:02d}", style="progress.elapsed")

    class Mark(ProgressColumn):
        """A step's state: a spinner while it runs, ✓ done, ✗ stopped before it was."""

        def __init__(self) -> None:
            from rich.spinner import Spinner

            self.spinner = Spinner("dots", style="progress.spinner")
            super().__init__()

        def render(self, task: Any) -> Any:
            if task.finished:
                return Text("✓", style="green")
            if task.stop_time is not None:
                return Text("✗", style="red")
            return self.spinner.render(task.get_time())

    console = console if console is not None else Console(stderr=True)
    rounds = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rounds, {task.fields[rate]:,.0f} rounds/s"),
        Seconds(),
        console=console,
    )
    steps = Progress(Mark(), TextColumn("{task.description}"), Seconds(), console=console)
    return rounds, steps


# -- after the game ----------------------------------------------------------------------------


def settle(
    transcript: Transcript,
    learner: Learner,
    adversary: Adversary,
    *,
    step: Callable[[str], Any] | None = None,
) -> GameError | None:
    """The certificate, its verification and the bounds, set on ``transcript``; the error, if any.

    The error is returned, not raised, so the caller can still write the footer:
    an exception inside ``certificate``, ``mistake_bound`` or ``lower_bound`` as
    a :class:`ProtocolError` naming the player, a certificate that disagrees with
    the rounds played (or cannot label them) as a :class:`CertificateError`.

    Parameters
    ----------
    transcript : Transcript
        The rounds played, not yet settled.
    learner, adversary : Learner, Adversary
        The players, asked for ``mistake_bound``, ``certificate`` and ``lower_bound``.
    step : callable, optional
        ``step(text)`` is called as each step begins ("checking the
        instances", then "verifying the certificate" and "computing the bounds"
        where the players have them), so a progress display can show it; a
        :class:`GameError` it raises is returned as the error.

    Returns
    -------
    GameError or None

    Examples
    --------
    >>> from game import play
    >>> from learners import Perceptron
    >>> from adversaries import Replay
    >>> tr = play(Perceptron(), Replay(instances=[[1.0], [-1.0]], labels=[1, -1]), rounds=2)
    >>> liar = Replay(instances=[[1.0], [-1.0]], labels=[1, -1], separator=[-1.0])
    >>> print(settle(tr, Perceptron(), liar))
    adversary replay: its certificate (...) disagrees with round 1, labelled +1
    >>> tr.certificate_verified
    False
    """
    role, method = "adversary", "certificate"
    try:
        if step is not None:
            step("checking the instances")
        fault = instance_fault(transcript.raw_instances, getattr(adversary, "presents", None))
        if fault is not None:
            return _refused(adversary, *fault)
        get_certificate = getattr(adversary, "certificate", None)
        if step is not None and get_certificate is not None:
            step("verifying the certificate")
        handed = get_certificate() if get_certificate is not None else None
        if handed is not None and not isinstance(handed, Certificate):
            return ProtocolError(
                f"{_who('adversary', adversary)}: certificate() returned {handed!r:.120}; "
                "expected a game.theory.Certificate or None"
            )
        certificate = None
        if handed is not None:  # judged and recorded as the referee's own copy
            try:
                certificate = referee_copy(handed)
            except CertificateError as exc:
                return CertificateError(f"{_who('adversary', adversary)}: {exc}")
        transcript.certificate = certificate
        if certificate is not None and certificate.realizable:
            failure = _verify(transcript, certificate, adversary)
            if failure is not None:
                return failure
        role, method = "learner", "mistake_bound"
        bound_fn = getattr(learner, "mistake_bound", None)
        lower_fn = getattr(adversary, "lower_bound", None)
        if step is not None and (bound_fn is not None or lower_fn is not None):
            step("computing the bounds")
        if bound_fn is not None:  # handed a copy: what it writes never reaches the record
            transcript.bound = _bound(bound_fn(transcript.copy()), learner, "learner", method)
        role, method = "adversary", "lower_bound"
        if lower_fn is not None:
            lower = _bound(lower_fn(), adversary, "adversary", method)
            transcript.lower_bound = lower_bound_hypotheses(lower, transcript, learner)
    except GameError as exc:
        return exc
    except Exception as exc:
        player = learner if role == "learner" else adversary
        return ProtocolError(
            f"{_who(role, player)}, after the game: {method} raised {type(exc).__name__}: {exc}"
        )
    if transcript.bound is not None and math.isnan(transcript.bound.value):
        return ProtocolError(f"{_who('learner', learner)}: mistake_bound returned NaN")
    return None


def _verify(
    transcript: Transcript, certificate: Certificate, adversary: Any
) -> CertificateError | None:
    """Check a realizable certificate against every round; set ``certificate_verified``."""
    try:
        bad = first_disagreement(certificate, transcript.instances, transcript.labels)
    except Exception as exc:
        transcript.certificate_verified = False
        return CertificateError(
            f"{_who('adversary', adversary)}: its certificate ({certificate.describe()}) "
            f"cannot label the rounds played: {type(exc).__name__}: {exc}"
        )
    if bad is not None:
        transcript.certificate_verified = False
        return CertificateError(
            f"{_who('adversary', adversary)}: its certificate ({certificate.describe()}) "
            f"disagrees with round {bad + 1}, labelled {int(transcript.labels[bad]):+d}"
        )
    transcript.certificate_verified = True
    return None


def _refused(adversary: Any, i: int, why: str) -> ProtocolError:
    """The error for round i + 1's instance, which the referee does not accept."""
    return ProtocolError(
        f"{_who('adversary', adversary)}, round {i + 1}: the instance holds {why}; "
        "expected finite numbers (advice in [-1, 1])"
    )


def _bound(value: Any, player: Any, role: str, method: str) -> Bound | None:
    if value is not None and not isinstance(value, Bound):
        raise ProtocolError(
            f"{_who(role, player)}: {method}() returned {value!r}; "
            "expected a game.theory.bounds.Bound or None"
        )
    return value
