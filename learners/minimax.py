"""The minimax forecaster of binary prediction with expert advice: the least worst-case regret.

The game (:mod:`game.theory.solve`): N experts advise ±1, the learner predicts
p ∈ [−1, 1] and loses |p − y|/2, every expert loses 0 or 1 a round; after T
rounds the regret is the learner's loss minus the best expert's. Solved exactly
by backward induction, the game has a value V(N, T), the minimax regret (Cover
1965 for N = 2: T/2 − E[min(k, T − k)], k ~ Binomial(T, ½)), and the
forecaster that predicts p* = A − B on every round (A and B the values to go
after the outcomes +1 and −1, clipped to [−1, 1]) keeps its regret at most V
against every adversary, however adaptive. No learner can do better: the
minimax adversary (``adversaries.regret``) forces V on every learner.

Examples
--------
>>> import numpy as np
>>> f = MinimaxForecaster(experts=2, horizon=3)
>>> x = np.array([1, -1], dtype=np.int8)
>>> f.predict(x), f.update(x, 1), f.predict(x)
(0.0, True, 0.5)
>>> f.value
Fraction(3, 4)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import integer_at_least
from game.theory.bounds import Bound, minimax_regret_bound
from game.theory.solve import MAX_REGRET_EXPERTS, RegretGame, max_regret_horizon
from learners.experts import ExponentialWeights

__all__ = ["MinimaxForecaster"]


def _solvable(n: int, horizon: int) -> bool:
    return n <= MAX_REGRET_EXPERTS and horizon <= max_regret_horizon(n)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class MinimaxForecaster:
    """Predicts the minimax-optimal p* of the solved game of N experts over T rounds.

    On round t, with L the experts' cumulative losses and a the advice,
    p* = A − B clipped to [−1, 1], where A and B are the game's values to go
    after the outcome +1 and after −1 (:meth:`game.theory.solve.RegretGame.prediction`).
    Its regret is then at most the value V(N, T) of the game on every game of
    at most T rounds, against every adversary (:meth:`mistake_bound`; Cover
    1965, Cesa-Bianchi et al. 1997). Every p* is a multiple of 2^(−(T − t)) in
    [−1, 1], so the float it returns is p* exactly.

    Advice is read by its sign (sign(0) = +1), as the game has it: ±1 advice.
    Every expert's loss is counted 0 or 1 a round, [sign(a_i) ≠ y].

    Past the game it was solved for it plays on, no longer minimax: after T
    rounds it starts a new game of T rounds (the losses counted from there);
    when the game cannot be solved (more than 4 experts, or a horizon longer
    than ``game.theory.solve.max_regret_horizon`` allows for them) it plays
    Exponential Weights with η = √(8·ln N / T) (the tuning of Cesa-Bianchi &
    Lugosi 2006, Theorem 2.2, regret ≤ √(T·ln N / 2)). The bound then does not
    apply (a game longer than T) or is not given (no solved game).

    Parameters
    ----------
    experts : int, optional
        N, from 1 to 4 (the game is solved when the learner is built); by
        default the length of the first advice vector (solved then).
    horizon : int, default 16
        T, the rounds of the game solved.

    Notes
    -----
    It declares ``deterministic = False``, as Exponential Weights does: its
    prediction is a mixture p ∈ [−1, 1] (the chance (1 + p)/2 of the label +1),
    not a label, and the framework's deterministic learners predict exactly
    ±1 (a lower bound on mistakes holds for those). The mixture itself is a
    function of the game so far, which ``state_key()`` declares.

    ``update`` returns True every round (the rounds left are part of its
    state) but the last of a game of one round. ``snapshot()`` is
    ``{"value_to_go": V(L, rounds left)}``, the quantity its bound's proof
    tracks. ``state_key()`` is its state as a hashable: the round within the
    game and the experts' losses above the least (those out of reach of the
    best clamped), which decide every later prediction.

    Examples
    --------
    >>> from game import play
    >>> from adversaries import MinimaxRegretAdversary
    >>> tr = play(MinimaxForecaster(2, 8), MinimaxRegretAdversary(2, 8), rounds=8,
    ...           loss="absolute")
    >>> tr.observed("regret"), tr.bound.value, tr.within_bound
    (1.09375, 1.09375, True)
    """

    deterministic: ClassVar[bool] = False  # a mixture, not a label (see Notes)
    plays: ClassVar[frozenset[str]] = frozenset({"advice"})

    experts: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1)),
        metadata={
            "doc": f"N, the experts of the game solved (at most {MAX_REGRET_EXPERTS}; "
            "default: the length of the first advice vector)"
        },
    )
    horizon: int = attrs.field(
        default=16,
        validator=integer_at_least(1),
        metadata={"doc": "T, the rounds of the game solved (then it starts a new one)"},
    )
    _game: RegretGame | None = attrs.field(init=False, default=None, repr=False)
    _fallback: ExponentialWeights | None = attrs.field(init=False, default=None, repr=False)
    _n: int | None = attrs.field(init=False, default=None, repr=False)
    _losses: list[int] = attrs.field(init=False, factory=list, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)  # rounds played in this game
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _signs: tuple[int, ...] | None = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.experts is not None:
            RegretGame(self.experts, self.horizon)  # refuses a game it cannot solve, by name
            self._start(self.experts)

    def _start(self, n: int) -> None:
        self._n = n
        self._losses = [0] * n
        if _solvable(n, self.horizon):
            self._game = RegretGame(n, self.horizon)
        else:
            eta = math.sqrt(8.0 * math.log(max(n, 2)) / self.horizon)
            self._fallback = ExponentialWeights(eta=eta, loss="absolute", experts=n)

    @property
    def value(self) -> Fraction | None:
        """V(N, T), the regret it never exceeds (None before N is known or when not solved)."""
        return None if self._game is None else self._game.value

    def _read(self, x) -> tuple[int, ...]:
        """The advice's signs (sign(0) = +1), N from the first vector."""
        f = x if isinstance(x, np.ndarray) else np.asarray(x)
        n = self._n if self._n is not None else self.experts
        if f.ndim != 1 or f.shape[0] == 0 or (n is not None and f.shape[0] != n):
            expected = "a vector of at least one entry" if n is None else f"a vector of {n} entries"
            raise ValueError(f"MinimaxForecaster: the advice must be {expected}, got {f.shape}")
        if self._n is None:
            self._start(f.shape[0])
        return tuple(np.where(f >= 0, 1, -1).tolist())

    def predict(self, x) -> float:
        """p* of the solved game on this round (Exponential Weights' mixture when not solved)."""
        signs = self._read(x)
        if self._fallback is not None:
            return self._fallback.predict(np.array(signs, dtype=np.int8))
        self._x, self._signs = x, signs
        return float(self._game.prediction(self._losses, signs, self._t + 1))

    def update(self, x, y: int) -> bool:
        """Every expert whose sign differs from y loses 1 and the round is counted.

        True iff its state changed: every round, but for a game of one round
        (a new one starts as the last began) and Exponential Weights' rounds
        where no expert lost.
        """
        signs = self._signs if x is self._x and self._signs is not None else self._read(x)
        self._x = self._signs = None
        if self._fallback is not None:
            return self._fallback.update(np.array(signs, dtype=np.int8), y)
        before = (self._t, self._losses)
        self._losses = [m + int(s != y) for m, s in zip(self._losses, signs, strict=True)]
        self._t += 1
        if self._t == self.horizon:  # the game solved is over: a new one starts
            self._t, self._losses = 0, [0] * self._n
        return (self._t, self._losses) != before

    def snapshot(self) -> dict[str, float]:
        """``value_to_go``: V(L, rounds left) of the game under way, after the round's update.

        The proof of the bound in one number: the learner's loss in this game
        so far plus ``value_to_go`` never exceeds V(N, T), and a new game starts
        at V. Dyadic, so exact. Exponential Weights' ``potential`` when no game
        is solved; empty before N is known.
        """
        if self._fallback is not None:
            return self._fallback.snapshot()
        if self._game is None:
            return {}
        return {"value_to_go": float(self._game.value_to_go(self._losses, self._t + 1))}

    def state_key(self) -> tuple:
        """A hashable that decides its future predictions (see Notes)."""
        head = (type(self).__name__, self.experts, self.horizon, self._n)
        if self._fallback is not None:
            return (*head, "fallback", self._fallback.state_key())
        if self._n is None:
            return head
        least, out_of_reach = min(self._losses), self.horizon - self._t + 1
        return (*head, self._t, tuple(min(m - least, out_of_reach) for m in self._losses))

    def mistake_bound(self, transcript) -> Bound | None:
        """regret ≤ V(N, T), with the game's hypotheses checked on the game played.

        ``absolute loss`` (the game's loss), ``advice ±1``, ``N experts`` (the
        advice has the N entries solved for) and ``rounds ≤ T``. None when no
        game was solved (N unknown, or too many experts for an exact solution).
        """
        if self._game is None:
            return None
        n = len(transcript)
        advice = np.asarray(transcript.instances) if n else np.zeros((0, self._n))
        played = int(advice.shape[1]) if advice.ndim == 2 else 0
        return minimax_regret_bound(
            self._game.experts,
            self.horizon,
            self._game.value,
            loss=transcript.loss_name,
            plus_minus_one=bool(np.all(np.abs(advice) == 1)),
            played=played if n else self._game.experts,
            rounds=n,
        )
