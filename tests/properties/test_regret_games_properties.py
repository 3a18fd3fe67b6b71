"""The solved regret games, played: what the minimax players and the forcing adversary claim.

Every game is played through :func:`game.play` with the absolute loss and the
regret read from the transcript (``observed("regret")``, the referee's own
arithmetic on the recorded rounds):

- the minimax forecaster never exceeds the game's value V(N, T), against
  oblivious and adaptive adversaries drawn at random, after any round;
- against the minimax adversary it gets V exactly: its predictions are
  dyadic, so every float the referee adds is exact;
- every learner's exact worst-case regret is at least V;
- the forcing adversary, played against a fresh copy of the learner it was
  solved for, forces the solved regret, within the rounding of the referee's
  float sum (at most 1e-12 here: T float losses of at most 1 added up);
- the certificate the adversaries hand over is the referee's copy, the best
  expert in hindsight, verified on every round when it claims to be perfect.
"""

from fractions import Fraction

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries import AdviceReplay, MinimaxRegretAdversary, RegretForcingAdversary
from game import play
from game.theory.solve import minimax_regret, worst_case_regret
from learners import (
    ExponentialWeights,
    MinimaxForecaster,
    RandomizedWeightedMajority,
    WeightedMajority,
)

#: How far the referee's float sum of T losses may stray from the exact regret.
ROUNDING = 1e-12


@attrs.define(eq=False)
class Threshold:
    """An adaptive adversary: drawn ±1 advice, the outcome −1 when p ≥ θ_t, else +1."""

    advice: np.ndarray
    thresholds: list
    presents = "advice"
    t: int = 0

    def instance(self, history):
        if self.t == len(self.advice):
            return None
        self.t += 1
        return self.advice[self.t - 1]

    def label(self, x, p, history):
        return -1 if p >= self.thresholds[self.t - 1] else 1

    def certificate(self):
        return None


@st.composite
def games(draw, most_experts=3, most_rounds=12):
    """(N, T, advice T × N of ±1 int8)."""
    n = draw(st.integers(1, most_experts), label="experts")
    t = draw(st.integers(1, most_rounds), label="horizon")
    signs = draw(st.lists(st.booleans(), min_size=n * t, max_size=n * t), label="advice")
    advice = np.where(np.array(signs).reshape(t, n), 1, -1).astype(np.int8)
    return n, t, advice


def check_certificate(tr):
    """The referee's certificate names the best expert in hindsight; a perfect one is verified."""
    cert = tr.certificate
    losses = tr.expert_losses()
    assert cert is not None and cert.experts == losses.size
    assert losses[cert.expert] == losses.min() and cert.expert == int(np.argmin(losses))
    assert cert.realizable == (losses.min() == 0)
    assert tr.certificate_verified is (True if cert.realizable else None)


@given(games(), st.booleans(), st.data())
def test_the_minimax_forecaster_never_exceeds_the_value(game, adaptive, data):
    n, horizon, advice = game
    value = float(minimax_regret(n, horizon))
    if adaptive:
        thresholds = data.draw(
            st.lists(st.floats(-1, 1), min_size=horizon, max_size=horizon), label="θ"
        )
        adversary = Threshold(advice, thresholds)
    else:
        outcomes = data.draw(
            st.lists(st.sampled_from([-1, 1]), min_size=horizon, max_size=horizon), label="y"
        )
        adversary = AdviceReplay(advice, outcomes)
    tr = play(MinimaxForecaster(n, horizon), adversary, rounds=horizon, loss="absolute")
    assert tr.regret().max() <= value + ROUNDING  # after every round, not only the last
    assert tr.observed("regret") <= value + ROUNDING
    assert tr.within_bound is True and tr.bound.value == value


@given(st.integers(1, 4), st.integers(0, 12))
def test_the_minimax_forecaster_gets_the_value_against_the_minimax_adversary(n, horizon):
    horizon = min(horizon, 8) if n == 4 else horizon
    value = minimax_regret(n, horizon)
    tr = play(
        MinimaxForecaster(n, max(horizon, 1)),
        MinimaxRegretAdversary(n, horizon),
        rounds=horizon,
        loss="absolute",
    )
    assert tr.observed("regret") == float(value)  # dyadic predictions: every sum is exact
    s = tr.summary()
    assert s["lower_bound"] == float(value) and s["forced"] is True
    assert s["within_bound"] is True
    if horizon:
        check_certificate(tr)


LEARNERS = {
    "exponential-weights": lambda eta, beta, t: ExponentialWeights(eta=eta),
    "exponential-weights tuned for L* ≤ T": lambda eta, beta, t: ExponentialWeights(
        loss_bound=float(t)
    ),
    "weighted-majority": lambda eta, beta, t: WeightedMajority(beta=beta),
    "randomized-weighted-majority": lambda eta, beta, t: RandomizedWeightedMajority(
        beta=beta, rng=np.random.default_rng(0)
    ),
    "minimax-forecaster of another horizon": lambda eta, beta, t: MinimaxForecaster(horizon=t + 1),
}


@st.composite
def learners(draw):
    """A learner's name and a factory of fresh copies of it."""
    name = draw(st.sampled_from(sorted(LEARNERS)), label="learner")
    eta = draw(st.floats(0.05, 5.0), label="η")
    beta = draw(st.floats(0.05, 0.95), label="β")
    return name, lambda t: LEARNERS[name](eta, beta, t)


@st.composite
def small_games(draw):
    """(N, T): small enough for the search of a learner's whole game tree."""
    n = draw(st.integers(1, 3), label="experts")
    t = draw(st.integers(1, 6 if n <= 2 else 3), label="horizon")
    return n, t


@given(learners(), small_games())
def test_every_learners_worst_case_is_at_least_the_value(learner, game):
    (name, make), (n, horizon) = learner, game
    if name.endswith("tuned for L* ≤ T") and n == 1:
        return  # Corollary 16.4's tuning needs two experts
    search = worst_case_regret(make(horizon), n, horizon)
    assert search.value >= minimax_regret(n, horizon), name
    assert search.loss - min(search.expert_losses) == search.value


@given(learners(), small_games())
def test_the_forcing_adversary_forces_the_solved_regret_on_a_fresh_copy(learner, game):
    (name, make), (n, horizon) = learner, game
    if name.endswith("tuned for L* ≤ T") and n == 1:
        return
    adversary = RegretForcingAdversary.solve(make(horizon), n, horizon)
    solved = adversary.solution.value
    tr = play(make(horizon), adversary, rounds=horizon + 5, loss="absolute")
    assert len(tr) == horizon
    assert abs(tr.observed("regret") - float(solved)) <= ROUNDING
    assert tr.lower_bound.value == float(solved) and tr.summary()["forced"] is True
    assert "exact worst case" in tr.lower_bound.theorem
    check_certificate(tr)


@given(games(most_experts=4, most_rounds=8), st.data())
def test_the_minimax_adversary_forces_the_value_on_a_learner_that_strays(game, data):
    n, horizon, _ = game
    name, make = data.draw(learners())
    if name.endswith("tuned for L* ≤ T") and n == 1:
        return
    tr = play(make(horizon), MinimaxRegretAdversary(n, horizon), rounds=horizon, loss="absolute")
    assert tr.observed("regret") >= float(minimax_regret(n, horizon)) - ROUNDING
    assert tr.summary()["forced"] is True
    check_certificate(tr)


def test_how_close_the_referee_sum_comes_to_the_solved_regret():
    """Measured: the largest gap between the referee's float regret and the exact one."""
    gaps = []
    for eta in (0.3, 1.0, 2.5):
        adversary = RegretForcingAdversary.solve(ExponentialWeights(eta=eta), 2, 8)
        tr = play(ExponentialWeights(eta=eta), adversary, rounds=8, loss="absolute")
        gaps.append(abs(Fraction(tr.observed("regret")) - adversary.solution.value))
    print(f"largest gap between the float and the exact regret: {float(max(gaps)):.3g}")
    assert max(gaps) <= ROUNDING
    assert pytest.approx(float(adversary.solution.value)) == tr.observed("regret")
