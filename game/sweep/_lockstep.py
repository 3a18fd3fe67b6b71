"""Lockstep games: K independent games at once, with a leading batch axis.

:func:`play_batch` plays learner k against adversary k for every k, and each
game's transcript is identical to what :func:`game.play` gives for the same
pair: the same instances, predictions, labels and updates (so the same
digest), the same certificate, verification and bound.

It runs in lockstep when the learners' class declares a
:class:`~game.players.LockstepLearner` and the adversaries' class a
:class:`~game.players.Source` (the protocol of :mod:`game.players`, read with
:func:`~game.players.kernel_for`), and falls back to playing the games one by
one otherwise, so it accepts any players. The built-in kernels are the
Perceptron's (every convention), Halving's, Weighted Majority's and
Exponential Weights' (on advice vectors of up to 1,024 experts), and the
sources of ``SeparableStream``, ``NoisyStream`` (with its ``corrupted``
record), ``Replay``, ``ExpertStream`` and ``AdviceReplay``; each lives beside
its player in :mod:`learners` or :mod:`adversaries`.

The first lockstep game of each pair of classes in a process is also played
by the engine, on copies of its players, and compared: a kernel that no
longer matches its player stops with a :class:`GameError` instead of giving
other numbers.

Each game keeps its own generator, so lockstep games draw exactly the numbers
their serial games draw; the certificate and the bound are evaluated by the
engine's own code on each game. A batch the kernels cannot reproduce exactly
(players of more than one class, instances that are not contiguous vectors
of the learner's dtype, a stream already partly consumed, a player that
appears twice) is played serially instead.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from game.sweep import play_batch
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> def stream(seed):
...     return SeparableStream(5, 0.1, rng=np.random.default_rng(seed))
>>> batch = play_batch([Perceptron() for _ in range(3)], [stream(s) for s in range(3)],
...                    rounds=300)
>>> serial = [play(Perceptron(), stream(s), rounds=300) for s in range(3)]
>>> [b.digest == s.digest and b.bound == s.bound for b, s in zip(batch, serial)]
[True, True, True]
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from game.engine import game_header, lockstep_transcripts, play
from game.errors import GameError, ParameterError, check_choice, check_integer
from game.players import kinds_clash, lockstep_plan, play_lockstep
from game.theory import get_loss
from game.transcript import versions

__all__ = ["lockstep_supported", "play_batch"]

#: Bytes of instances one lockstep group may hold; larger batches are played
#: in groups of games that fit.
MEMORY_BUDGET = 256 * 2**20


#: Pairs of classes whose first lockstep game in this process matched the engine's.
_verified: set[tuple[str, str]] = set()


def _path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def lockstep_supported(learners: Sequence, adversaries: Sequence, rounds: int) -> bool:
    """Whether :func:`play_batch` would play these games in lockstep (it never changes them).

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Perceptron
    >>> from adversaries import SeparableStream
    >>> s = SeparableStream(3, 0.1, rng=np.random.default_rng(0))
    >>> lockstep_supported([Perceptron()], [s], 10)
    True
    >>> lockstep_supported([Perceptron(), Perceptron()], [s, s], 10)  # one stream, two games
    False
    """
    return lockstep_plan(list(learners), list(adversaries), rounds) is not None


def _check(learners, adversaries, rounds, loss, meta, errors, lockstep) -> list:
    """play_batch's arguments, checked; the header entries of each game."""
    if len(learners) != len(adversaries):
        raise ParameterError(
            "adversaries",
            adversaries,
            "one adversary per learner",
            f"{len(adversaries)} adversaries for {len(learners)} learners",
        )
    check_integer("rounds", rounds, low=0)
    get_loss(loss)
    check_choice("errors", errors, ("raise", "return"))
    check_choice("lockstep", lockstep, (False, True))
    if meta is None or isinstance(meta, dict):
        return [meta] * len(learners)
    expected = f"a dict or one dict per game ({len(learners)} games)"
    if not isinstance(meta, Iterable) or isinstance(meta, str | bytes):
        raise ParameterError("meta", meta, expected)
    metas = list(meta)
    if len(metas) != len(learners) or not all(m is None or isinstance(m, dict) for m in metas):
        raise ParameterError("meta", meta, expected)
    return metas


def play_batch(
    learners: Sequence,
    adversaries: Sequence,
    *,
    rounds: int,
    loss: str = "zero-one",
    meta: dict | Sequence[dict | None] | None = None,
    errors: str = "raise",
    lockstep: bool = True,
) -> list:
    """Play learner k against adversary k for every k; in lockstep where kernels allow.

    Parameters
    ----------
    learners, adversaries : sequence
        One pair per game; each player plays one game (fresh players, as
        :meth:`game.Scenario.build` makes them).
    rounds : int
        The most rounds of every game.
    loss : {"zero-one", "absolute", "squared"}
        The loss that grades every round.
    meta : dict or sequence of dict, optional
        Extra header entries, for every game or one per game.
    errors : {"raise", "return"}, default "raise"
        On a game that :func:`game.play` would end with a :class:`GameError` (a
        certificate that disagrees, a player that breaks the protocol):
        raise the first such error, or put the error in that game's place.
    lockstep : bool, default True
        Play in lockstep when both players' classes declare a kernel
        (:func:`game.players.kernel_for`); False plays the games one by one
        with :func:`game.play`.

    Returns
    -------
    list of Transcript (or GameError with ``errors="return"``)
        Game k's transcript equals ``game.play(learners[k], adversaries[k],
        rounds=rounds, loss=loss)``'s. In lockstep a game's ``wall_time`` is
        the batch's time divided evenly among its games; snapshots are not
        logged (use :func:`game.play` for them).

    Raises
    ------
    ParameterError
        For a bad argument, before any game is played: as many adversaries as
        learners, ``rounds`` an integer ≥ 0, a known ``loss``, ``meta`` a dict
        or one per game, ``errors`` one of its two words, ``lockstep`` a bool.

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Perceptron
    >>> from adversaries import Replay
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> games = play_batch([Perceptron(), Perceptron(zero_label=-1, update="mistake")],
    ...                    [Replay(instances=X, labels=[1, -1, 1]) for _ in range(2)],
    ...                    rounds=10)
    >>> [(len(t), t.observed("mistakes"), t.observed("updates")) for t in games]
    [(3, 1, 3), (3, 1, 1)]
    """
    learners, adversaries = list(learners), list(adversaries)
    metas = _check(learners, adversaries, rounds, loss, meta, errors, lockstep)
    clash = any(kinds_clash(a, b) for a, b in zip(learners, adversaries, strict=True))
    # a pair whose kinds do not fit is refused by the engine, game by game, before round 1
    plan = lockstep_plan(learners, adversaries, rounds) if lockstep and not clash else None
    if plan is None:
        out = []
        for learner, adversary, m in zip(learners, adversaries, metas, strict=True):
            try:
                out.append(play(learner, adversary, rounds=rounds, loss=loss, meta=m))
            except GameError as exc:
                if errors == "raise":
                    raise
                out.append(exc)
        return out
    pair = (_path(type(learners[0])), _path(type(adversaries[0])))
    twin = _twin(learners[0], adversaries[0]) if pair not in _verified else None
    size = max(1, MEMORY_BUDGET // max(1, max(plan.lengths, default=0) * plan.dimension * 8))
    shared = {"rounds": int(rounds), "loss": loss, "snapshots": False, "versions": versions()}
    out = []
    for lo in range(0, len(learners), size):
        hi = lo + size
        group = attrs.evolve(plan, lengths=plan.lengths[lo:hi])
        headers = [
            game_header(learner, adversary, rounds=int(rounds), loss=loss, meta=m, shared=shared)
            for learner, adversary, m in zip(
                learners[lo:hi], adversaries[lo:hi], metas[lo:hi], strict=True
            )
        ]
        start = time.perf_counter()
        played = play_lockstep(group, learners[lo:hi], adversaries[lo:hi])
        out += lockstep_transcripts(
            played, headers, learners[lo:hi], adversaries[lo:hi], time.perf_counter() - start
        )
    if twin is not None:
        _verify(pair, out[0], twin, rounds, loss, metas[0])
    if errors == "raise":
        for result in out:
            if isinstance(result, GameError):
                raise result
    return out


def _twin(learner: Any, adversary: Any) -> tuple | None:
    """A copy of the first game's players (generators included), or None if it cannot be made."""
    try:
        return copy.deepcopy((learner, adversary))
    except Exception:
        return None


def _outcome(game: Any) -> tuple:
    if isinstance(game, GameError):
        return ("error", str(game))
    return (game.digest, game.status, game.observed("updates"), game.bound, game.certificate)


def _verify(pair: tuple, lockstep_game: Any, twin: tuple, rounds: int, loss: str, meta) -> None:
    """The first lockstep game of a pair of classes in this process, checked against the engine.

    A kernel copies its players' arithmetic; should a player change and its
    kernel not follow, this stops the batch rather than let a sweep differ
    silently from ``game.play``.
    """
    try:
        serial: Any = play(twin[0], twin[1], rounds=rounds, loss=loss, meta=meta, lockstep=False)
    except GameError as exc:
        serial = exc
    if _outcome(serial) != _outcome(lockstep_game):
        raise GameError(
            f"the lockstep kernels of {pair[0]} against {pair[1]} disagree with game.play "
            "on the first game of the batch; play with lockstep=False (--no-lockstep) and "
            "update the kernel the player class declares (its lockstep attribute)"
        )
    _verified.add(pair)
