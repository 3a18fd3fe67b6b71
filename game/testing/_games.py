"""The games the conformance checks play: how long, and a referee that plays call by call.

A check's game length is drawn from the check's own seed (:func:`game_length`),
from :data:`MIN_ROUNDS` to ``MAX_ROUNDS``: every game runs well past the
first hundred rounds, where a player's late faults show, and the checks of one
player stop at different rounds. :class:`HandGame` plays the round of
:mod:`game.protocol` one call at a time, as :func:`game.play` does (the players
see the referee's read-only copy of each instance, the adversary a read-only
history of it, and their answers are checked as the engine checks them), so
that a check can look at the players between two calls; a call that raises,
or answers out of the protocol, is a failure naming the round, the call and
the value.

Examples
--------
>>> import numpy as np
>>> from game.testing import RandomLearner, reference_adversary
>>> MIN_ROUNDS <= game_length(0) <= MAX_ROUNDS
True
>>> game = HandGame(RandomLearner(np.random.default_rng(0)),
...                 reference_adversary("bits", np.random.default_rng(0)), "random", "demo")
>>> [row[0] for row in game.play(3)]
[1, 2, 3]
>>> len(game.history), game.xs[0].flags.writeable
(3, False)
"""

from __future__ import annotations

import copy
import numbers
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

from game.protocol import History
from game.testing._failure import fail, shown

__all__ = [
    "MAX_ROUNDS",
    "MIN_ROUNDS",
    "HandGame",
    "clone_mid_game",
    "frozen_copy",
    "game_length",
    "same_answer",
    "when",
]

#: The fewest rounds a check's game asks for (an adversary may end it sooner).
MIN_ROUNDS = 128
#: The most rounds a check's game asks for.
MAX_ROUNDS = 512


def game_length(seed: int) -> int:
    """The rounds of the game a check with ``seed`` plays, from MIN_ROUNDS to MAX_ROUNDS.

    Examples
    --------
    >>> game_length(3) == game_length(3), len({game_length(s) for s in range(8)}) > 1
    (True, True)
    """
    rng = np.random.default_rng([seed, 0x6C656E677468])
    return int(rng.integers(MIN_ROUNDS, MAX_ROUNDS + 1))


def when(t: int) -> str:
    """``"round t"``, or ``"before round 1"`` for t = 0."""
    return f"round {t}" if t else "before round 1"


def frozen_copy(x: Any) -> Any:
    """The referee's copy of an instance: an array copied into memory no one may write.

    Anything else is returned as it is (a point index is an immutable int).

    Examples
    --------
    >>> x = np.zeros(2)
    >>> y = frozen_copy(x)
    >>> y is x, y.flags.writeable
    (False, False)
    """
    if isinstance(x, np.ndarray):
        x = x.copy()
        x.flags.writeable = False
    return x


@attrs.define(eq=False)
class HandGame:
    """One game played call by call, for a check named ``check`` of the player ``name``.

    ``xs``, ``ps`` and ``ys`` are the record (the referee's copies of the
    instances, the predictions, the labels), which ``history`` shows the
    adversary read-only; ``given`` holds what the adversary's ``instance``
    returned, the objects themselves.
    """

    learner: Any
    adversary: Any
    name: str
    check: str
    xs: list = attrs.field(init=False, factory=list)
    ps: list = attrs.field(init=False, factory=list)
    ys: list = attrs.field(init=False, factory=list)
    given: list = attrs.field(init=False, factory=list)
    history: History = attrs.field(init=False)

    @history.default
    def _history(self) -> History:
        return History(self.xs, self.ps, self.ys)

    def call(self, t: int, method: str, fn: Callable, *args: Any) -> Any:
        """``fn(*args)``, round t's call of ``method``; an exception is a failure naming both."""
        try:
            return fn(*args)
        except Exception as exc:
            hint = ""
            if "_ReadOnly" in str(exc) or "read-only" in str(exc):
                hint = " (what the referee shows a player is read-only)"
            raise fail(
                self.name,
                self.check,
                f"{when(t)}: {method} raised {type(exc).__name__}: {exc}{hint}",
            ) from None

    def instance(self, t: int) -> Any:
        """Round t's instance as the players see it (the referee's copy), or None: the end."""
        raw = self.call(t, "instance", self.adversary.instance, self.history)
        if raw is None:
            return None
        self.given.append(raw)
        return frozen_copy(raw)

    def predict(self, t: int, x: Any) -> Any:
        """Round t's prediction: a real number in [-1, 1], or a failure naming it."""
        return self.prediction(t, self.call(t, "predict", self.learner.predict, x))

    def prediction(self, t: int, p: Any) -> Any:
        """``p`` when it is a real number in [-1, 1], else a failure naming round t and it."""
        real = isinstance(p, numbers.Real) and not isinstance(p, bool | np.bool_)
        if not real or not -1 <= p <= 1:
            raise fail(
                self.name,
                self.check,
                f"round {t}: predict returned {shown(p)}; expected a float in [-1, 1]",
            )
        return p

    def label(self, t: int, x: Any, p: Any) -> Any:
        """Round t's label: -1 or 1, or a failure naming it."""
        y = self.call(t, "label", self.adversary.label, x, p, self.history)
        integral = isinstance(y, numbers.Integral) and not isinstance(y, bool | np.bool_)
        if not integral or y not in (-1, 1):
            raise fail(
                self.name, self.check, f"round {t}: label returned {shown(y)}; expected -1 or 1"
            )
        return y

    def update(self, t: int, x: Any, y: Any) -> Any:
        """Whether round t's update changed the learner: a bool, or a failure naming it."""
        u = self.call(t, "update", self.learner.update, x, y)
        if not isinstance(u, bool | np.bool_):
            raise fail(
                self.name,
                self.check,
                f"round {t}: update returned {shown(u)}; expected True or False",
            )
        return u

    def record(self, x: Any, p: Any, y: Any) -> None:
        """Round t is over: its instance, prediction and label join the record."""
        self.xs.append(x)
        self.ps.append(p)
        self.ys.append(y)

    def rounds(self, rounds: int) -> Iterator[tuple[int, Any]]:
        """``(t, x)`` for each round the adversary opens, up to ``rounds`` more rounds."""
        start = len(self.ys)
        for t in range(start + 1, start + rounds + 1):
            x = self.instance(t)
            if x is None:
                return
            yield t, x

    def play(self, rounds: int) -> list[tuple[int, Any, Any, Any]]:
        """Up to ``rounds`` more whole rounds; each one's ``(t, p, y, updated)``."""
        rows = []
        for t, x in self.rounds(rounds):
            p = self.predict(t, x)
            y = self.label(t, x, p)
            u = self.update(t, x, y)
            self.record(x, p, y)
            rows.append((t, p, y, u))
        return rows


def same_answer(a: Any, b: Any) -> bool:
    """Whether two answers of a player (predictions, labels, updates) are the same.

    Equal values of one type, NaN equal to NaN: a copy of a player must answer
    exactly as the player does.

    Examples
    --------
    >>> same_answer(1.0, 1.0), same_answer(float("nan"), float("nan")), same_answer(1.0, -1.0)
    (True, True, False)
    """
    return type(a) is type(b) and (a == b or (a != a and b != b))


def clone_mid_game(learner: Any, adversary: Any, name: str, check: str, seed: int) -> None:
    """Copy both players mid-game; each copy must continue exactly as the originals do.

    The game against ``adversary`` lasts :func:`game_length` (``seed``)
    rounds; after a round drawn from ``seed`` the players (and the record so
    far) are pickled and deep-copied (``copy.deepcopy``), and every copy
    plays the rest of the game: its answers must be the originals', round by round.

    Raises
    ------
    CheckFailure
        The players cannot be pickled or deep-copied, or a copy continues differently.
    """
    rounds = game_length(seed)
    half = int(np.random.default_rng([seed, 0x68616C66]).integers(1, rounds))
    game = HandGame(learner, adversary, name, check)
    game.play(half)
    state = (learner, adversary, game.xs, game.ps, game.ys)
    try:
        pickled = pickle.dumps(state)
    except Exception as exc:
        raise fail(name, check, f"cannot be pickled mid-game (after round {half}): {exc}") from None
    try:
        copied = copy.deepcopy(state)
    except Exception as exc:
        raise fail(
            name, check, f"cannot be deep-copied mid-game (after round {half}): {exc}"
        ) from None
    copies = {"unpickled copy": pickle.loads(pickled), "deep copy": copied}
    rest = game.play(rounds - half)
    for what, (learner2, adversary2, xs, ps, ys) in copies.items():
        other = HandGame(learner2, adversary2, name, check)
        other.xs.extend(xs)
        other.ps.extend(ps)
        other.ys.extend(ys)
        again = other.play(rounds - half)
        for a, b in zip(rest, again, strict=False):
            if not all(same_answer(u, v) for u, v in zip(a, b, strict=True)):
                raise fail(
                    name,
                    check,
                    f"the {what} (taken after round {half}) continues differently at round "
                    f"{a[0]}: (prediction, label, updated) {tuple(a[1:])!r} by the original, "
                    f"{tuple(b[1:])!r} by the copy",
                )
        if len(rest) != len(again):
            raise fail(
                name,
                check,
                f"the {what} (taken after round {half}) plays {len(again)} more rounds, "
                f"the original {len(rest)}",
            )
