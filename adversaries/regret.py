"""Adversaries that force regret in binary prediction with expert advice, exactly.

The game (:mod:`game.theory.solve`): N experts advise ±1, the learner predicts
p ∈ [−1, 1] and loses ``|p − y|/2`` (the absolute loss), every expert loses 0 or 1
a round; the regret is the learner's loss minus the best expert's.

- :class:`MinimaxRegretAdversary` plays the solved game: it presents the advice
  of largest value and answers the outcome of largest "loss now + value to go"
  against the prediction actually made. Every learner, randomised or not,
  ends T rounds with a regret of at least the game's value V(N, T) (Cover
  1965; Cesa-Bianchi & Lugosi 2006, §2.10), and the minimax forecaster
  (``learners.minimax``) with exactly V.
- :class:`RegretForcingAdversary` replays the worst sequence of one given
  learner, found by ``game.theory.solve.worst_case_regret``: it forces that
  learner's exact worst-case regret on it.

Both present int8 advice vectors (read-only) and hand over the best expert in
hindsight as the certificate, a comparator (realizable only when that expert
never erred), as :class:`~adversaries.experts.TwoConstantExperts` does. Their
lower bounds are on ``"regret"``; the referee checks that the game grades the
predictions by ``|p − y|/2`` (the absolute loss, or predictions that are all ±1).

Examples
--------
>>> from game import play
>>> from learners import ExponentialWeights
>>> tr = play(ExponentialWeights(), MinimaxRegretAdversary(2, 6), rounds=6, loss="absolute")
>>> s = tr.summary()
>>> s["lower_bound"], s["forced"], tr.observed("regret") >= s["lower_bound"]
(0.9375, True, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError
from game.players import (
    build_by_name,
    describe_player,
    integer_at_least,
    lookup,
    loss_field,
    name_of,
    parameters,
)
from game.theory import ExpertCertificate, frozen_copy
from game.theory.bounds import Bound, forced_regret_lower_bound, minimax_regret_bound
from game.theory.solve import (
    MAX_REGRET_EXPERTS,
    RegretGame,
    RegretSearch,
    worst_case_regret,
)

__all__ = ["MinimaxRegretAdversary", "RegretForcingAdversary"]

#: The most states a :class:`RegretForcingAdversary` searches by default.
MAX_STATES = 100_000


def _advice_array(advice: tuple[int, ...]) -> np.ndarray:
    return frozen_copy(np.array(advice, dtype=np.int8))


def _prediction(p: Any) -> Fraction:
    """The prediction as the exact rational its float holds."""
    return Fraction(float(p))


@attrs.define(eq=False)
class _Ledger:
    """What both adversaries track: the experts' losses, the learner's loss, the rounds played."""

    game: RegretGame
    losses: list[int] = attrs.field(init=False)
    learner_loss: Fraction = attrs.field(init=False, default=Fraction(0))
    t: int = attrs.field(init=False, default=0)  # rounds played
    advice: tuple[int, ...] | None = attrs.field(init=False, default=None)
    #: From this round on the minimax adversary plays; its guarantee, fixed then:
    #: the learner's loss so far + the value to go is never below it.
    minimax_from: int | None = attrs.field(init=False, default=None)
    guarantee: Fraction | None = attrs.field(init=False, default=None)

    def __attrs_post_init__(self) -> None:
        self.losses = [0] * self.game.experts

    def start_minimax(self) -> None:
        """The minimax adversary plays from the next round: fix its guarantee now."""
        self.minimax_from = self.t + 1
        self.guarantee = self.learner_loss + self.game.value_to_go(self.losses, self.t + 1)

    def record(self, p: Fraction, y: int) -> None:
        advice = self.advice
        self.losses = [m + int(a != y) for m, a in zip(self.losses, advice, strict=True)]
        self.learner_loss += abs(p - y) / 2
        self.t += 1

    def regret(self) -> Fraction:
        return self.learner_loss - min(self.losses)

    def forced(self) -> Fraction:
        """The least regret the minimax play guarantees after the rounds played.

        The learner's loss so far plus the value to go never falls below the
        guarantee; the regret is that minus the part of the value to go still
        to come, V(L, T − t) − V(L, 0), which is 0 once all T rounds are played.
        """
        game, t = self.game, self.t
        to_come = game.value_to_go(self.losses, t + 1) - game.value_to_go(
            self.losses, game.horizon + 1
        )
        return self.guarantee - to_come

    def best(self) -> int:
        return int(np.argmin(self.losses))


def _certificate(ledger: _Ledger) -> ExpertCertificate:
    best = ledger.best()
    return ExpertCertificate(best, experts=ledger.game.experts, realizable=ledger.losses[best] == 0)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class MinimaxRegretAdversary:
    """The minimax adversary of the solved game: it forces regret ≥ V(N, T) on every learner.

    Each round it presents the advice a* of largest value
    (:meth:`game.theory.solve.RegretGame.adversary_move`, the most even split
    among equals) and, once the learner has predicted p, answers the outcome y
    of largest ``|p − y|/2`` + V(L + ℓ(a*, y), rounds left)
    (:meth:`~game.theory.solve.RegretGame.outcome`). The learner's loss so far
    plus the value to go never decreases, so after the T rounds the regret is
    at least V(N, T) whatever the learner, and exactly V for the minimax
    forecaster. The game ends after ``horizon`` rounds.

    The certificate is the best expert in hindsight (the smallest index among
    ties): a comparator, realizable when it never erred.

    Parameters
    ----------
    experts : int, default 2
        N, from 1 to 4.
    horizon : int, default 16
        T, the rounds of the game.

    Notes
    -----
    ``lower_bound()`` is V(N, T) after a whole game; after fewer rounds (the
    game cut short) it is what the play guarantees by then, V minus the part of
    the value to go still to come. It is on ``"regret"``, for any learner whose
    predictions the game grades by ``|p − y|/2``.

    Examples
    --------
    >>> from game import play
    >>> from learners import MinimaxForecaster
    >>> tr = play(MinimaxForecaster(3, 5), MinimaxRegretAdversary(3, 5), rounds=5,
    ...           loss="absolute")
    >>> tr.observed("regret"), tr.lower_bound.value, tr.summary()["forced"]
    (1.15625, 1.15625, True)
    """

    presents: ClassVar[str] = "advice"

    experts: int = attrs.field(
        default=2,
        validator=integer_at_least(1, MAX_REGRET_EXPERTS),
        metadata={"doc": f"N, the experts (at most {MAX_REGRET_EXPERTS})"},
    )
    horizon: int = attrs.field(
        default=16,
        validator=integer_at_least(0),
        metadata={"doc": "T, the rounds of the game"},
    )
    _ledger: _Ledger = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._ledger = _Ledger(RegretGame(self.experts, self.horizon))
        self._ledger.start_minimax()

    @property
    def value(self) -> Fraction:
        """V(N, T), the regret it forces over a whole game."""
        return self._ledger.game.value

    def instance(self, history) -> np.ndarray | None:
        """The advice of largest value, or None after ``horizon`` rounds."""
        ledger = self._ledger
        if ledger.t >= self.horizon:
            return None
        ledger.advice = ledger.game.adversary_move(ledger.losses, ledger.t + 1)
        return _advice_array(ledger.advice)

    def label(self, x, p: float, history) -> int:
        """The outcome of largest loss + value to go against p."""
        ledger = self._ledger
        q = _prediction(p)
        y = ledger.game.outcome(ledger.losses, ledger.advice, q, ledger.t + 1)
        ledger.record(q, y)
        return y

    def certificate(self) -> ExpertCertificate:
        """The best expert in hindsight: a comparator, realizable when it never erred."""
        return _certificate(self._ledger)

    def lower_bound(self) -> Bound:
        """regret ≥ V(N, T) on every learner (what the rounds played guarantee, if fewer)."""
        return minimax_regret_bound(self.experts, self.horizon, self._ledger.forced(), kind="lower")


def _learner_params(value: Any) -> tuple[tuple[str, Any], ...]:
    """The learner's parameters as sorted (name, value) pairs: a table, a dict or pairs."""
    expected = "a table of the learner's parameters (name = value)"
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple):
        items = []
        for item in value:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise ParameterError("learner_params", value, expected)
            items.append(tuple(item))
    else:
        raise ParameterError("learner_params", value, expected)
    if not all(isinstance(k, str) for k, _ in items):
        raise ParameterError("learner_params", value, expected)
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in items))


def _build_learner(name: str, params: tuple, loss: str) -> Any:
    """The learner a scenario would build from its name and parameters, with the game's loss."""
    if not isinstance(name, str):
        raise ParameterError("learner", name, "a learner's registry name")
    cls = lookup(name, "learner")
    if "advice" not in getattr(cls, "plays", frozenset({"advice"})):
        raise ParameterError("learner", name, "a learner that plays advice")
    supplies = {"loss": loss, "rng": np.random.default_rng(0)}
    try:
        return build_by_name(name, "learner", dict(params), supplies=supplies)
    except (ParameterError, TypeError) as exc:
        raise ParameterError(
            "learner_params", dict(params), f"parameters of {name}", str(exc)
        ) from None


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class RegretForcingAdversary:
    """Replays one learner's worst sequence: it forces that learner's exact worst-case regret.

    Built from the learner's registry name and parameters (so a scenario can
    name it: the learner is built as a scenario builds it, the game's loss
    passed to a learner that takes one, a generator seeded with 0 to one that
    needs one), or with :meth:`solve` from a learner object. The sequence is
    ``game.theory.solve.worst_case_regret``'s: the advice of each round, the
    prediction the learner makes there and the outcome answered.

    Against the learner it was solved for (a fresh copy of it) every
    prediction is the one expected, and the regret after T rounds is exactly
    the solved value (summed in floats by the referee: within rounding of it).
    A learner that predicts anything else on some round is not the one solved
    for: from that round on the adversary answers, then presents, as
    :class:`MinimaxRegretAdversary` does, which still forces at least what the
    learner's loss so far and the game's value to go guarantee by then.

    The certificate is the best expert in hindsight (a comparator unless it
    never erred). The game ends after ``horizon`` rounds.

    Parameters
    ----------
    learner : str
        The learner's registry name (``"exponential-weights"``).
    experts : int, default 2
        N, from 1 to 4.
    horizon : int, default 8
        T.
    learner_params : table, optional
        The learner's parameters (``{eta = 0.5}``), as in its scenario table.
    loss : str, default "absolute"
        The loss handed to a learner that takes one (a scenario passes its own).
    max_states : int, default 100,000
        The most states the search may visit.

    Notes
    -----
    ``lower_bound()`` is on ``"regret"``: the solved value when the learner was
    the one solved for and played every round; the regret of the rounds played
    when the game was cut short; the minimax play's guarantee once the learner
    strayed. ``solution`` holds the search (:class:`~game.theory.solve.RegretSearch`).

    Examples
    --------
    >>> from game import play
    >>> from learners import WeightedMajority
    >>> adversary = RegretForcingAdversary("weighted-majority", experts=2, horizon=6)
    >>> adversary.solution.value
    Fraction(3, 1)
    >>> tr = play(WeightedMajority(), adversary, rounds=6, loss="absolute")
    >>> tr.observed("regret"), tr.summary()["forced"]
    (3.0, True)
    """

    presents: ClassVar[str] = "advice"

    learner: str = attrs.field(
        metadata={"doc": "the registry name of the learner whose worst sequence is replayed"},
    )
    experts: int = attrs.field(
        default=2,
        validator=integer_at_least(1, MAX_REGRET_EXPERTS),
        metadata={"doc": f"N, the experts (at most {MAX_REGRET_EXPERTS})"},
    )
    horizon: int = attrs.field(
        default=8, validator=integer_at_least(0), metadata={"doc": "T, the rounds of the game"}
    )
    learner_params: tuple = attrs.field(
        factory=tuple,
        converter=_learner_params,
        metadata={"doc": "the learner's parameters, a table as in its scenario table"},
    )
    loss: str = loss_field("the loss handed to the learner when it takes one", "absolute")
    max_states: int = attrs.field(
        default=MAX_STATES,
        validator=integer_at_least(1),
        metadata={"doc": "the most states the search of the learner's game tree may visit"},
    )
    _solved: RegretSearch | None = attrs.field(default=None, repr=False, alias="solved")
    _ledger: _Ledger = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        game = RegretGame(self.experts, self.horizon)  # refuses a game too large, by name
        if self._solved is None:
            learner = _build_learner(self.learner, self.learner_params, self.loss)
            solved = worst_case_regret(
                learner, self.experts, self.horizon, max_states=self.max_states
            )
            self._solved = solved
        elif not isinstance(self._solved, RegretSearch) or (
            self._solved.experts,
            self._solved.horizon,
        ) != (self.experts, self.horizon):
            raise ParameterError(
                "solved",
                self._solved,
                f"a RegretSearch of {self.experts} experts over {self.horizon} rounds",
            )
        self._ledger = _Ledger(game)

    @classmethod
    def solve(
        cls,
        learner: Any,
        experts: int,
        horizon: int,
        *,
        max_states: int = MAX_STATES,
    ) -> RegretForcingAdversary:
        """The adversary of this learner object's worst sequence (the learner is not played).

        Its ``learner`` is the learner's registry name (its class's path when
        it is not registered) and ``learner_params`` its parameters, save what
        a scenario supplies, so that the header describes it.

        Examples
        --------
        >>> from learners import ExponentialWeights
        >>> adversary = RegretForcingAdversary.solve(ExponentialWeights(eta=2.0), 2, 4)
        >>> adversary.learner, dict(adversary.learner_params)["eta"]
        ('exponential-weights', 2.0)
        """
        solved = worst_case_regret(learner, experts, horizon, max_states=max_states)
        cls_of = type(learner)
        name = name_of(cls_of) or f"{cls_of.__module__}:{cls_of.__qualname__}"
        params = describe_player(learner)["params"]
        supplied = {p["name"]: p["supplied"] for p in parameters(cls_of)}
        loss = "absolute"
        for key, what in supplied.items():
            if what == "loss" and isinstance(params.get(key), str):
                loss = params[key]
        kept = {k: v for k, v in params.items() if supplied.get(k) is None}
        return cls(
            name,
            experts=experts,
            horizon=horizon,
            learner_params=kept,
            loss=loss,
            max_states=max_states,
            solved=solved,
        )

    @property
    def solution(self) -> RegretSearch:
        """The search: the value, the sequence, the states searched."""
        return self._solved

    def instance(self, history) -> np.ndarray | None:
        """The sequence's advice (the minimax move once the learner strayed); None at the end."""
        ledger = self._ledger
        if ledger.t >= self.horizon:
            return None
        if ledger.minimax_from is None:
            ledger.advice = self._solved.path[ledger.t].advice
        else:
            ledger.advice = ledger.game.adversary_move(ledger.losses, ledger.t + 1)
        return _advice_array(ledger.advice)

    def label(self, x, p: float, history) -> int:
        """The sequence's outcome if p is the prediction expected, else the minimax answer."""
        ledger = self._ledger
        q = _prediction(p)
        step = self._solved.path[ledger.t] if ledger.minimax_from is None else None
        strays = step is not None and q != step.prediction
        if step is not None and not strays:
            y = step.outcome
        else:
            y = ledger.game.outcome(ledger.losses, ledger.advice, q, ledger.t + 1)
        ledger.record(q, y)
        if strays:  # not the learner solved for: the minimax play from here
            ledger.start_minimax()
        return y

    def certificate(self) -> ExpertCertificate:
        """The best expert in hindsight: a comparator, realizable when it never erred."""
        return _certificate(self._ledger)

    def lower_bound(self) -> Bound:
        """The solved value on the learner solved for (see Notes for the other cases)."""
        ledger = self._ledger
        if ledger.minimax_from is not None:
            return minimax_regret_bound(self.experts, self.horizon, ledger.forced(), kind="lower")
        return forced_regret_lower_bound(ledger.regret(), self.learner, self.experts, self.horizon)
