"""The minimax regret of binary prediction with expert advice, exactly, and a learner's worst case.

The game
    N experts, T rounds. On round t the adversary presents the advice
    a ∈ {−1, +1}^N, the learner predicts p ∈ [−1, 1], the adversary reveals
    y ∈ {−1, +1}; the learner loses ``|p − y|/2`` and expert i loses
    ℓ_i(a, y) = [a_i ≠ y] (0 or 1: on ±1 advice the absolute, squared and
    zero-one losses agree). The regret after T rounds is the learner's total
    loss minus the best expert's, min_i L_i.

The value, by backward induction
    Let L be the experts' cumulative losses and r the rounds left, and let
    V(L, r) be the most the adversary can force of "the learner's loss still to
    come minus the best expert's final loss" (Cesa-Bianchi & Lugosi 2006,
    §2.10; the recursion of the forecaster MM of Cesa-Bianchi, Freund,
    Haussler, Helmbold, Schapire & Warmuth 1997, How to use expert advice):

        V(L, 0) = −min_i L_i,
        V(L, r) = max_a min_p max_y [ |p − y|/2 + V(L + ℓ(a, y), r − 1) ],

    and the minimax regret of the game is V(0, T). With A = V(L + ℓ(a, +1), r − 1)
    and B = V(L + ℓ(a, −1), r − 1) the inner min-max is over
    max((1 − p)/2 + A, (1 + p)/2 + B): the first term falls and the second
    rises with p, so the minimum is where they meet, p = A − B, worth
    (A + B + 1)/2, when that p lies in [−1, 1] (|A − B| ≤ 1); otherwise the
    nearer end, p = +1 when A − B > 1 (worth A = max(A, B)) and p = −1 when
    B − A > 1 (worth B). That p is the minimax-optimal forecaster's
    prediction, and the y that attains the max against any other p is the
    adversary's best answer.

What the computation uses
    - Shifts: V(L + c, r) = V(L, r) − c for a constant c, so only the losses
      relative to their minimum matter (``V(L, r) = V(L − min L, r) − min L``).
    - Symmetry: experts are exchangeable, so the relative losses are sorted;
      and a ↦ −a with y ↦ −y swaps A and B, so half the advice vectors suffice.
    - Experts out of reach: with r rounds left the best expert ends at most r
      above the current minimum, so an expert r + 1 or more above it can never
      be the best; its relative loss is clamped to r + 1.
    - Exact arithmetic on integers: every value with r rounds left is a
      multiple of 2^(−r) (each round halves at most once: (A + B + 1)/2), so
      U(L, r) = 2^r·V(L − min L, r) is an integer; the values are returned as
      :class:`fractions.Fraction`. A prediction p* = A − B with r rounds left is
      a multiple of 2^(−(r − 1)) in [−1, 1]: a float64 holds it exactly for any
      horizon this module solves.

Cover (1965) solved N = 2: V(0, T) = T/2 − E[min(k, T − k)] with k ~ Binomial(T, ½)
(½, ½, ¾, ¾, 15/16, … for T = 1, 2, 3, …).

A given learner's worst case
    :func:`worst_case_regret` searches the game tree of one learner whose
    prediction is a function of the game so far: the adversary's max over advice
    and outcome, the learner's own p in place of the min. The learner is cloned
    (``copy.deepcopy``) at every branch and the search is memoised on (the
    learner's ``state_key()``, the experts' relative losses, the rounds left).

Pure: it imports nothing from outside :mod:`game.theory` but :mod:`game.errors`.

Examples
--------
>>> [str(minimax_regret(2, t)) for t in range(1, 6)]
['1/2', '1/2', '3/4', '3/4', '15/16']
>>> game = RegretGame(2, 3)
>>> game.value, game.prediction([0, 0], [1, -1], 1)
(Fraction(3, 4), Fraction(0, 1))
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
import numbers
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from game.errors import ParameterError, ProtocolError, check_integer

__all__ = [
    "MAX_REGRET_EXPERTS",
    "MAX_SEARCH_EXPERTS",
    "MAX_SOLVER_WORK",
    "RegretGame",
    "RegretSearch",
    "RegretStep",
    "max_regret_horizon",
    "minimax_regret",
    "worst_case_regret",
]

#: The most experts whose game :func:`minimax_regret` solves.
MAX_REGRET_EXPERTS = 4
#: The most (state, advice) evaluations a solution may take (about 10 µs each, so
#: about 5 s): a horizon that needs more is refused (see :func:`max_regret_horizon`).
MAX_SOLVER_WORK = 500_000
#: The most experts :func:`worst_case_regret` searches (2^N advice vectors a node).
MAX_SEARCH_EXPERTS = 8
#: The states :func:`worst_case_regret` searches at most by default (about 1 ms each
#: for Exponential Weights on two experts: every branch deep-copies the learner).
DEFAULT_MAX_STATES = 100_000


# -- the value of the game ---------------------------------------------------------------------


def _work(experts: int, horizon: int) -> int:
    """(state, advice) evaluations of a solution: Σ_r C(r + N, N − 1)·2^(N − 1)."""
    half = 1 << (experts - 1)
    return sum(math.comb(r + experts, experts - 1) * half for r in range(1, horizon + 1))


@functools.cache
def max_regret_horizon(experts: int) -> int:
    """The longest horizon whose game on ``experts`` experts is solved (others are refused).

    A solution evaluates every (sorted, clamped) state of the experts' relative
    losses with every advice vector up to symmetry, Σ_{r ≤ T} C(r + N, N − 1)·2^(N−1)
    evaluations (about T^N·2^(N−1)/(N − 1)!/N), at most ``MAX_SOLVER_WORK``.

    Examples
    --------
    >>> [max_regret_horizon(n) for n in (1, 2, 3, 4)]
    [500000, 704, 87, 31]
    """
    n = check_integer("experts", experts, low=1, high=MAX_REGRET_EXPERTS)
    if n == 1:
        return MAX_SOLVER_WORK  # one expert: the value is 0, one state a round
    low, high = 1, 2
    while _work(n, high) <= MAX_SOLVER_WORK:
        low, high = high, 2 * high
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if _work(n, mid) <= MAX_SOLVER_WORK else (low, mid)
    return low


def _check_game(experts: Any, horizon: Any) -> tuple[int, int]:
    """(N, T) of a game this module solves; a ParameterError naming what it refuses."""
    n = check_integer("experts", experts, low=1)
    if n > MAX_REGRET_EXPERTS:
        raise ParameterError(
            "experts",
            experts,
            f"an integer between 1 and {MAX_REGRET_EXPERTS}",
            f"the exact game has 2^N advice vectors a round and a state for every sorted "
            f"vector of relative losses; beyond {MAX_REGRET_EXPERTS} experts it is too large "
            "to solve here",
        )
    horizon = check_integer("horizon", horizon, low=0)
    longest = max_regret_horizon(n)
    if horizon > longest:
        raise ParameterError(
            "horizon",
            horizon,
            f"an integer between 0 and {longest} with {n} experts",
            f"the exact solution takes about {_work(n, horizon):,} evaluations, more than "
            f"the {MAX_SOLVER_WORK:,} allowed",
        )
    return n, horizon


def _half_advice(n: int) -> list[tuple[int, ...]]:
    """The advice vectors with a_0 = +1: every other is the negation of one of them."""
    return [(1, *rest) for rest in itertools.product((1, -1), repeat=n - 1)]


@functools.lru_cache(maxsize=8)
def _solve(n: int, horizon: int) -> tuple[dict[tuple[int, ...], int], ...]:
    """U_r[state] = 2^r·V(state, r) for r = 0, …, T and every canonical state.

    A canonical state with r rounds left is a sorted tuple of relative losses,
    the first 0, each at most r + 1 (clamped: see the module's text).
    """
    moves = [
        (tuple(int(a != 1) for a in advice), tuple(int(a != -1) for a in advice))
        for advice in _half_advice(n)
    ]
    tables: list[dict[tuple[int, ...], int]] = [
        {(0, *rest): 0 for rest in itertools.combinations_with_replacement(range(2), n - 1)}
    ]
    for r in range(1, horizon + 1):
        previous, half = tables[r - 1], 1 << (r - 1)

        def following(state, losses, previous=previous, half=half, cap=r):
            new = [d + e for d, e in zip(state, losses, strict=True)]
            least = min(new)
            key = tuple(sorted(min(v - least, cap) for v in new))
            return previous[key] - least * half

        table = {}
        for rest in itertools.combinations_with_replacement(range(r + 2), n - 1):
            state = (0, *rest)
            best = None
            for plus, minus in moves:
                a, b = following(state, plus), following(state, minus)
                value = a + b + half if abs(a - b) <= half else 2 * max(a, b)
                if best is None or value > best:
                    best = value
            table[state] = best
        tables.append(table)
    return tuple(tables)


def minimax_regret(experts: int, horizon: int) -> Fraction:
    """The minimax regret V(0, T) of binary prediction with N experts over T rounds, exactly.

    The learner predicts p ∈ [−1, 1] and loses ``|p − y|/2``; the experts' advice is
    ±1, so each expert loses 0 or 1 a round (see the module's text for the
    recursion and its derivation). For N = 2 this is Cover's (1965)
    T/2 − E[min(k, T − k)], k ~ Binomial(T, ½); with N = 1 it is 0.

    Parameters
    ----------
    experts : int
        N, from 1 to ``MAX_REGRET_EXPERTS`` (4).
    horizon : int
        T ≥ 0, at most :func:`max_regret_horizon` (N).

    Returns
    -------
    fractions.Fraction
        A multiple of 2^(−T).

    Raises
    ------
    ParameterError
        For more than 4 experts, or a horizon whose solution would take too long.

    Examples
    --------
    >>> minimax_regret(2, 16)
    Fraction(6435, 4096)
    >>> minimax_regret(3, 4), minimax_regret(1, 10)
    (Fraction(17, 16), Fraction(0, 1))
    >>> minimax_regret(5, 3)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: experts must be an integer between 1 and 4, got 5 (...)
    """
    n, horizon = _check_game(experts, horizon)
    return Fraction(_solve(n, horizon)[horizon][(0,) * n], 1 << horizon)


def _loss_vector(losses: Any, n: int) -> tuple[int, ...]:
    """The experts' cumulative losses as N non-negative integers (integral floats accepted)."""
    expected = f"{n} non-negative integers, one per expert"
    try:
        values = list(np.asarray(losses).reshape(-1).tolist())
    except (TypeError, ValueError):
        raise ParameterError("losses", losses, expected) from None
    if np.ndim(losses) != 1 or len(values) != n:
        raise ParameterError("losses", losses, expected)
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or v != v or v < 0:
            raise ParameterError("losses", losses, expected)
        if isinstance(v, float) and not v.is_integer():
            raise ParameterError("losses", losses, expected)
        out.append(int(v))
    return tuple(out)


def _advice_vector(advice: Any, n: int) -> tuple[int, ...]:
    """The advice as N entries −1 or +1."""
    expected = f"{n} entries, each -1 or +1"
    try:
        values = list(np.asarray(advice).reshape(-1).tolist())
    except (TypeError, ValueError):
        raise ParameterError("advice", advice, expected) from None
    if np.ndim(advice) != 1 or len(values) != n:
        raise ParameterError("advice", advice, expected)
    if not all(not isinstance(v, bool) and v in (1, -1) for v in values):
        raise ParameterError("advice", advice, expected)
    return tuple(int(v) for v in values)


def _exact(p: Any, parameter: str = "p") -> Fraction:
    """A prediction in [−1, 1] as an exact fraction (a float is the rational it holds)."""
    expected = "a number in [-1, 1]"
    if isinstance(p, bool | np.bool_) or not isinstance(p, numbers.Real):
        raise ParameterError(parameter, p, expected)
    if isinstance(p, numbers.Rational):
        q = Fraction(int(p.numerator), int(p.denominator))
    else:
        f = float(p)
        if not math.isfinite(f):
            raise ParameterError(parameter, p, expected)
        q = Fraction(f)
    if not -1 <= q <= 1:
        raise ParameterError(parameter, p, expected)
    return q


@attrs.frozen(eq=False)
class RegretGame:
    """The solved game of N experts over T rounds: its value, its optimal players' moves.

    Rounds are numbered from 1; ``losses`` are the experts' cumulative losses
    before round t (each a non-negative integer), ``advice`` a vector of ±1.
    The table is solved once per (N, T) and shared: a copy (``copy.deepcopy``)
    is the object itself, and a pickle holds only (N, T).

    Parameters
    ----------
    experts : int
        N, from 1 to 4.
    horizon : int
        T, at most :func:`max_regret_horizon` (N).

    Examples
    --------
    >>> game = RegretGame(2, 4)
    >>> game.value
    Fraction(3, 4)
    >>> game.adversary_move([0, 0], 1)          # the experts disagree
    (1, -1)
    >>> game.prediction([0, 1], [1, -1], 2)     # lean towards the better expert
    Fraction(1, 2)
    >>> game.outcome([0, 1], [1, -1], 0.25, 2)  # it leans too little: the better one is right
    1
    >>> game.value_to_go([0, 0], 5)             # no round left: minus the best loss
    Fraction(0, 1)
    """

    experts: int
    horizon: int
    _tables: tuple = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        n, horizon = _check_game(self.experts, self.horizon)
        object.__setattr__(self, "experts", n)
        object.__setattr__(self, "horizon", horizon)
        object.__setattr__(self, "_tables", _solve(n, horizon))

    def __deepcopy__(self, memo: dict) -> RegretGame:
        return self  # immutable

    def __reduce__(self) -> tuple:
        return (type(self), (self.experts, self.horizon))

    @property
    def value(self) -> Fraction:
        """V(0, T): the minimax regret of the game."""
        return Fraction(self._tables[self.horizon][(0,) * self.experts], 1 << self.horizon)

    def _rounds_left(self, t: Any, *, over: bool = False) -> int:
        high = self.horizon + 1 if over else self.horizon
        if high < 1:
            raise ParameterError("t", t, "a round of the game (the game has no round)")
        return self.horizon + 1 - check_integer("t", t, low=1, high=high)

    def _to_go(self, losses: tuple[int, ...], r: int) -> Fraction:
        """V(L, r) for losses L (any non-negative integers) and r rounds left."""
        least = min(losses)
        state = tuple(sorted(min(v - least, r + 1) for v in losses))
        return Fraction(self._tables[r][state], 1 << r) - least

    def value_to_go(self, losses, t: int) -> Fraction:
        """V(L, T − t + 1): what the adversary can still force before round t (t = T + 1: over).

        The learner's loss from round t on minus the best expert's final loss,
        at best for the adversary against the best learner; the regret of a
        game is the learner's loss so far plus this, at least, against the
        minimax adversary, and at most against the minimax forecaster.
        """
        return self._to_go(_loss_vector(losses, self.experts), self._rounds_left(t, over=True))

    def _continuations(
        self, losses: tuple[int, ...], advice: tuple[int, ...], r: int
    ) -> tuple[Fraction, Fraction]:
        """(A, B): the values to go after outcome +1 and after −1."""
        after = [tuple(v + (a != y) for v, a in zip(losses, advice, strict=True)) for y in (1, -1)]
        return self._to_go(after[0], r - 1), self._to_go(after[1], r - 1)

    def prediction(self, losses, advice, t: int) -> Fraction:
        """The minimax forecaster's p* = A − B, clipped to [−1, 1], on round t.

        A multiple of 2^(−(T − t)): ``float(p*)`` is exact.
        """
        losses = _loss_vector(losses, self.experts)
        advice = _advice_vector(advice, self.experts)
        a, b = self._continuations(losses, advice, self._rounds_left(t))
        return min(Fraction(1), max(Fraction(-1), a - b))

    def advice_value(self, losses, advice, t: int) -> Fraction:
        """min_p max_y [``|p − y|/2`` + V(L + ℓ(a, y), r − 1)] for this advice on round t."""
        losses = _loss_vector(losses, self.experts)
        advice = _advice_vector(advice, self.experts)
        return self._advice_value(losses, advice, self._rounds_left(t))

    def _advice_value(self, losses, advice, r: int) -> Fraction:
        a, b = self._continuations(losses, advice, r)
        return (a + b + 1) / 2 if abs(a - b) <= 1 else max(a, b)

    def adversary_move(self, losses, t: int) -> tuple[int, ...]:
        """The advice of largest value on round t: the minimax adversary's move.

        Among equals, the most even split of the experts comes first (then the
        order of ``itertools.product`` over (+1, −1)).
        """
        losses = _loss_vector(losses, self.experts)
        r = self._rounds_left(t)
        candidates = sorted(
            itertools.product((1, -1), repeat=self.experts),
            key=lambda a: abs(sum(a)),
        )
        best, move = None, candidates[0]
        for advice in candidates:
            value = self._advice_value(losses, advice, r)
            if best is None or value > best:
                best, move = value, advice
        return move

    def outcome(self, losses, advice, p, t: int) -> int:
        """The outcome y maximising ``|p − y|/2`` + V(L + ℓ(a, y), T − t) against the prediction p.

        Among equals, the opposite of the predicted label sign(p) (sign(0) = +1).
        """
        losses = _loss_vector(losses, self.experts)
        advice = _advice_vector(advice, self.experts)
        q = _exact(p)
        a, b = self._continuations(losses, advice, self._rounds_left(t))
        plus, minus = (1 - q) / 2 + a, (1 + q) / 2 + b
        if plus == minus:
            return -1 if q >= 0 else 1
        return 1 if plus > minus else -1


# -- a given learner's worst case --------------------------------------------------------------


@attrs.frozen
class RegretStep:
    """One round of a forcing sequence: the advice, the learner's prediction, the outcome."""

    advice: tuple[int, ...]
    prediction: Fraction
    outcome: int

    @property
    def loss(self) -> Fraction:
        """The learner's loss ``|p − y|/2``, exactly."""
        return abs(self.prediction - self.outcome) / 2


@attrs.frozen
class RegretSearch:
    """What :func:`worst_case_regret` found: the value and the sequence that forces it.

    Attributes
    ----------
    value : fractions.Fraction
        The learner's exact worst-case regret over the game.
    experts, horizon : int
        N and T.
    path : tuple of RegretStep
        The adversary's forcing sequence against this learner (its prediction is
        a function of the game, so one sequence is a whole strategy), T rounds.
    states : int
        The states searched (memoised positions of the game tree).
    keyed : bool
        Whether the search was memoised on the learner's ``state_key()`` (else on
        the prefix of the game).
    learner : str
        The learner searched, as its class names it.
    """

    value: Fraction
    experts: int
    horizon: int
    path: tuple[RegretStep, ...]
    states: int
    keyed: bool
    learner: str

    @property
    def advice(self) -> np.ndarray:
        """The advice of the sequence, T × N int8."""
        return np.array([s.advice for s in self.path], dtype=np.int8).reshape(-1, self.experts)

    @property
    def outcomes(self) -> list[int]:
        """The outcomes of the sequence."""
        return [s.outcome for s in self.path]

    @property
    def loss(self) -> Fraction:
        """The learner's total loss along the sequence."""
        return sum((s.loss for s in self.path), Fraction(0))

    @property
    def expert_losses(self) -> tuple[int, ...]:
        """Every expert's total loss along the sequence."""
        return tuple(
            sum(int(s.advice[i] != s.outcome) for s in self.path) for i in range(self.experts)
        )

    def __str__(self) -> str:
        rounds = "; ".join(f"{list(s.advice)} p={s.prediction} y={s.outcome:+d}" for s in self.path)
        return (
            f"worst-case regret of {self.learner} with N = {self.experts}, T = {self.horizon}: "
            f"{self.value} ≈ {float(self.value):.6g} ({self.states:,} states searched"
            f"{', memoised on state_key()' if self.keyed else ''}); forced by: {rounds or '—'}"
        )


def _tree_size(experts: int, horizon: int) -> int:
    """Internal nodes of the full game tree: Σ_{t<T} (2·2^N)^t."""
    branching = 2 << experts
    return sum(branching**t for t in range(horizon))


def _name(learner: Any) -> str:
    return type(learner).__qualname__


def _root_key(learner: Any) -> Any:
    fn = getattr(learner, "state_key", None)
    return None if fn is None else fn()


@attrs.define(eq=False)
class _Search:
    """The memoised search of one learner's game tree."""

    n: int
    horizon: int
    max_states: int
    name: str
    keyed: bool
    advice: list[tuple[int, ...]] = attrs.field(init=False)
    arrays: list[np.ndarray] = attrs.field(init=False)
    memo: dict = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        # among equals the most even split first, as RegretGame.adversary_move
        self.advice = sorted(itertools.product((1, -1), repeat=self.n), key=lambda a: abs(sum(a)))
        self.arrays = []
        for a in self.advice:
            x = np.array(a, dtype=np.int8)
            x.flags.writeable = False
            self.arrays.append(x)

    def key(self, learner: Any, prefix: tuple) -> Any:
        if self.keyed:
            try:
                key = learner.state_key()
                hash(key)
            except TypeError as exc:
                raise ProtocolError(
                    f"learner {self.name}: state_key() must return a hashable value ({exc})"
                ) from None
            if key is not None:
                return ("key", key)
        return ("prefix", prefix)

    def predict(self, learner: Any, x: np.ndarray, prefix: tuple) -> Fraction:
        try:
            p = learner.predict(x)
        except Exception as exc:
            raise ProtocolError(
                f"learner {self.name}: predict raised {type(exc).__name__} on advice "
                f"{x.tolist()} after {len(prefix)} rounds: {exc}"
            ) from exc
        if isinstance(p, bool) or not isinstance(p, numbers.Real) or not -1.0 <= float(p) <= 1.0:
            raise ProtocolError(
                f"learner {self.name}: predict returned {p!r} on advice {x.tolist()}; "
                "expected a float in [-1, 1]"
            )
        return Fraction(float(p))

    def update(self, learner: Any, x: np.ndarray, y: int, prefix: tuple) -> None:
        try:
            learner.update(x, y)
        except Exception as exc:
            raise ProtocolError(
                f"learner {self.name}: update raised {type(exc).__name__} on advice "
                f"{x.tolist()}, outcome {y:+d}, after {len(prefix)} rounds: {exc}"
            ) from exc

    def child(self, rel: tuple[int, ...], i: int, y: int, r: int) -> tuple[tuple[int, ...], int]:
        """Relative losses after advice i and outcome y (clamped for r − 1 rounds), the shift."""
        new = [d + (a != y) for d, a in zip(rel, self.advice[i], strict=True)]
        least = min(new)
        return tuple(min(v - least, r) for v in new), least

    def value(self, learner: Any, rel: tuple[int, ...], r: int, prefix: tuple) -> Fraction:
        """max over the adversary of [the learner's loss to come − the rise of the best loss]."""
        if r == 0:
            return Fraction(0)
        key = (self.key(learner, prefix), rel, r)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if len(self.memo) >= self.max_states:
            raise ParameterError(
                "max_states",
                self.max_states,
                f"more than {self.max_states:,}",
                f"the search of {self.name} reached {self.max_states:,} states with "
                f"{self.horizon - r} of {self.horizon} rounds played; the game tree has "
                f"{_tree_size(self.n, self.horizon):,} positions: raise max_states or "
                "shorten the horizon",
            )
        best = None
        for i, x in enumerate(self.arrays):
            clone = copy.deepcopy(learner)
            p = self.predict(clone, x, prefix)
            first = -1 if p >= 0 else 1  # among equals, the answer against the prediction
            for j, y in enumerate((first, -first)):
                after = clone if j else copy.deepcopy(clone)
                step = (*prefix, (i, y))
                self.update(after, x, y, step)
                rel_after, shift = self.child(rel, i, y, r)
                total = abs(p - y) / 2 - shift + self.value(after, rel_after, r - 1, step)
                if best is None or total > best[0]:
                    best = (total, i, y)
        self.memo[key] = best
        return best[0]

    def path(self, learner: Any) -> tuple[RegretStep, ...]:
        """The forcing sequence, replayed on a fresh copy of the learner."""
        learner = copy.deepcopy(learner)
        rel, prefix, steps = (0,) * self.n, (), []
        for r in range(self.horizon, 0, -1):
            _, i, y = self.memo[(self.key(learner, prefix), rel, r)]
            x = self.arrays[i]
            p = self.predict(learner, x, prefix)
            prefix = (*prefix, (i, y))
            self.update(learner, x, y, prefix)
            rel, _ = self.child(rel, i, y, r)
            steps.append(RegretStep(self.advice[i], p, y))
        return tuple(steps)


def worst_case_regret(
    learner: Any, experts: int, horizon: int, *, max_states: int = DEFAULT_MAX_STATES
) -> RegretSearch:
    """The exact worst-case regret of one learner over T rounds with N experts, and its sequence.

    The adversary presents ±1 advice and reveals outcomes; the learner's
    prediction p on each round is taken as the exact rational its float holds
    (``Fraction(float(p))``) and graded by the absolute loss ``|p − y|/2``, its
    experts' losses 0 or 1. The search is the backward induction of the
    module's text with the learner's own p in place of the min: from (the
    learner's state, the experts' losses, the rounds left) the adversary takes
    the advice and outcome of largest "loss now + value to go". The learner,
    as given, is never played: every branch plays a deep copy
    (``copy.deepcopy``), so the learner must be copyable and start the game
    in the state it is given in (normally fresh).

    Memoised on (``learner.state_key()``, the experts' losses relative to their
    least, the rounds left) when the learner defines ``state_key`` (a hashable
    that identifies its future predictions; None means "not known": the node
    is then keyed by the prefix of the game), else on the prefix of the game,
    so the tree is searched whole: Σ_{t<T} (2·2^N)^t positions, refused up
    front when more than ``max_states``.

    Which learners: the prediction must be a function of the game so far.
    A learner that declares ``deterministic = True`` (or declares nothing) is
    taken to be one. A learner that declares ``deterministic = False`` is
    accepted only with a ``state_key()`` that returns a key: it declares so its
    prediction is a function of its state. Exponential Weights predicts the
    weighted mixture of the advice, a deterministic number; Randomized
    Weighted Majority shows its mixture p and draws its coin only in
    ``update``, after the outcome, so under the absolute loss its regret here
    is its expected regret (with ``reveal="draw"`` its prediction is the coin,
    and it has no key: refused).

    Parameters
    ----------
    learner : Learner
        Plays "advice": ``predict`` takes an int8 vector of ±1 (read-only).
    experts : int
        N, from 1 to ``MAX_SEARCH_EXPERTS`` (8).
    horizon : int
        T ≥ 0.
    max_states : int, default 100,000
        The most states searched; a search that needs more is refused.

    Returns
    -------
    RegretSearch

    Raises
    ------
    ParameterError
        Naming ``learner`` when its prediction is not known to be a function of
        the game, ``max_states`` when the search needs more states (with the
        estimate), ``experts`` or ``horizon`` when out of range.
    ProtocolError
        When the learner's ``predict``, ``update`` or ``state_key`` misbehaves.

    Examples
    --------
    >>> class FollowTheLeader:
    ...     deterministic = True
    ...     def __init__(self, n): self.losses = [0] * n
    ...     def predict(self, x):   # the advice of the first expert of least loss
    ...         return float(x[self.losses.index(min(self.losses))])
    ...     def update(self, x, y):
    ...         self.losses = [m + int(a != y) for m, a in zip(self.losses, x)]
    ...         return True
    ...     def state_key(self): return tuple(self.losses)
    >>> search = worst_case_regret(FollowTheLeader(2), 2, 4)
    >>> search.value, minimax_regret(2, 4), search.keyed
    (Fraction(2, 1), Fraction(3, 4), True)
    >>> [(s.advice, int(s.prediction), s.outcome) for s in search.path]
    [((1, -1), 1, -1), ((1, -1), -1, 1), ((1, -1), 1, -1), ((1, -1), -1, 1)]
    """
    n = check_integer("experts", experts, low=1, high=MAX_SEARCH_EXPERTS)
    horizon = check_integer("horizon", horizon, low=0)
    max_states = check_integer("max_states", max_states, low=1)
    name = _name(learner)
    for method in ("predict", "update"):
        if not callable(getattr(learner, method, None)):
            raise ParameterError("learner", learner, "a learner (predict and update)")
    try:
        keyed = _root_key(learner) is not None
    except Exception as exc:
        raise ProtocolError(
            f"learner {name}: state_key raised {type(exc).__name__}: {exc}"
        ) from exc
    if getattr(learner, "deterministic", None) is False and not keyed:
        raise ParameterError(
            "learner",
            learner,
            "a learner whose prediction is a function of the game so far",
            f"{name} declares deterministic = False and no state_key() says its prediction "
            "is a function of its state (a learner that draws its prediction cannot be "
            "searched this way)",
        )
    if not keyed and _tree_size(n, horizon) > max_states:
        raise ParameterError(
            "max_states",
            max_states,
            f"at least {_tree_size(n, horizon):,} for this search",
            f"{name} has no state_key(), so every prefix of the game is a state of its own: "
            f"(2·2^{n})^t of them after t rounds; give the learner a state_key(), shorten the "
            "horizon or raise max_states",
        )
    search = _Search(n, horizon, max_states, name, keyed)
    value = search.value(copy.deepcopy(learner), (0,) * n, horizon, ())
    path = search.path(learner)
    return RegretSearch(value, n, horizon, path, len(search.memo), keyed, name)
