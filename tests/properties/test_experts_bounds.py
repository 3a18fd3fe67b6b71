"""Every bound of prediction with expert advice, on every generated game.

Games come from :mod:`game.testing.strategies`; a failing example prints as an
``ExpertGame(advice=array(...), outcomes=array(...), ...)`` that can be pasted
and replayed with ``play(learner, game.adversary(), rounds=len(game))``.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries import AdviceReplay
from adversaries.experts import TwoConstantExperts
from adversaries.halving import HalvingLowerBound
from game import play
from game.players import learners_for, lookup
from game.testing.strategies import best_expert_games, graded_games, perfect_expert_games
from game.theory import get_loss
from game.theory.bounds import exponential_weights_tuned, potential_slack
from learners.experts import (
    ExponentialWeights,
    Halving,
    RandomizedWeightedMajority,
    WeightedMajority,
    tuned_eta,
)

DETERMINISTIC = learners_for("advice", deterministic=True)
any_game = st.one_of(perfect_expert_games(), best_expert_games(), graded_games())
betas = st.floats(0.01, 0.99)
etas = st.floats(0.01, 20.0)
convex = st.sampled_from(["absolute", "squared"])


def play_game(learner, game, loss="zero-one", snapshots=False):
    return play(learner, game.adversary(), rounds=len(game), loss=loss, snapshots=snapshots)


def holds(tr) -> bool:
    """The learner's bound held (an empty game, where N is never seen, has none)."""
    return tr.within_bound is True or (len(tr) == 0 and tr.bound is None)


#: The unit roundoff of a double.
U = 2.0**-53


def potential_tolerance(phi: np.ndarray, n: int, eta: float) -> np.ndarray:
    """How far below 0 :func:`potential_slack` may fall, round by round, for EWA on N = n.

    Φ_{t+1} − Φ_t − (1 − e^(−η))·ℓ_t ≥ 0 holds exactly for exact weights; only
    rounding moves it, by at most 8u·(N + 2 + |Φ_t| + |Φ_{t+1}|) with u = 2⁻⁵³.
    The weights that predict are those Φ is summed from, functions of the
    losses alone: exp(−x_i) with x_i = η·(L_i − min L) (a table entry, or a
    graded rebuild), x_i within u·x_i and exp within u, which weigh
    Σ_i e^(−x_i)·2u·(1 + x_i) ≤ 2N·u; Φ = η·min L − ln Σ w within
    u·(2.5N + 3 + 2|Φ|) (the sum of N terms within N·u, ln, η·min L ≤ |Φ| +
    ln N and the subtraction); the prediction's dot, sum, division and loss
    within (2N + 1)·u; the graded losses' float sums L_i + ℓ_i within
    u·(|Φ_{t+1}| + N); this difference within u·(|Φ_t| + |Φ_{t+1}| + 3).
    (Weights below 2⁻⁷⁰⁰, which are 0, move Φ and ℓ_t by less than N·2⁻⁷⁰⁰.)
    """
    return 8 * U * (n + 2 + np.abs(phi[:-1]) + np.abs(phi[1:]))


def exponential_weights_potentials(tr, n: int, eta: float) -> tuple[np.ndarray, np.ndarray]:
    """EWA's potentials Φ_1, …, Φ_{T+1} in a game with snapshots, and the proof's slack."""
    phi = np.concatenate([[tr.initial_snapshot["potential"]], tr.snapshot("potential")])
    slack = potential_slack(phi, tr.losses, eta)
    assert np.all(slack >= -potential_tolerance(phi, n, eta)), slack
    return phi, slack


@given(perfect_expert_games())
def test_halving_errs_at_most_log2_n_times_with_a_perfect_expert(game):
    tr = play_game(Halving(), game)
    assert holds(tr)
    assert tr.observed("mistakes") <= math.floor(math.log2(game.experts))
    assert tr.certificate_verified


@given(best_expert_games(), betas)
def test_weighted_majority_bound(game, beta):
    tr = play_game(WeightedMajority(beta=beta), game)
    assert holds(tr), tr.summary()


@given(graded_games(), betas)
def test_weighted_majority_bound_on_graded_advice(game, beta):
    assert holds(play_game(WeightedMajority(beta=beta), game))


@given(any_game, betas, st.integers(0, 2**32 - 1))
def test_randomized_weighted_majority_expected_mistakes(game, beta, seed):
    tr = play_game(RandomizedWeightedMajority(beta=beta, rng=np.random.default_rng(seed)), game)
    assert holds(tr) and (tr.bound is None or tr.bound.quantity == "mistake_probability")
    q = tr.extras.get("mistake_probability", np.zeros(0))
    assert q.shape == (len(tr),) and np.all((q >= 0) & (q <= 1))


@given(any_game, etas, convex)
def test_exponential_weights_theorem_16_3_and_its_potential(game, eta, loss):
    ewa = ExponentialWeights(eta=eta, loss=loss, experts=game.experts)
    tr = play_game(ewa, game, loss=loss, snapshots=True)
    assert tr.initial_snapshot["potential"] == pytest.approx(-math.log(game.experts))
    if len(game) == 0:
        return
    # the bound holds for every expert i, the best included
    L = tr.expert_losses()
    each = (eta * L + math.log(game.experts)) / -math.expm1(-eta)
    assert tr.observed("loss") <= each.min() * (1 + 1e-9) + 1e-9
    assert tr.within_bound
    # the proof, round by round: Φ_{t+1} − Φ_t ≥ (1 − e^(−η))·ℓ_t
    exponential_weights_potentials(tr, game.experts, eta)


def test_exponential_weights_potential_is_its_losses_at_a_large_eta():
    # η = 19.8…: once a multiplication by 1 + (e^(−η) − 1) (2.1·10⁻⁸ relatively
    # below e^(−η)) made Φ rise at round 5 and fall back at a rebuild. The weights
    # are now exp(−η·(L_i − min L)) read from the losses every round: Φ is η from
    # round 5 on, every weight the table's.
    rows = ["-++", "+--", "+--", "+--", "+++", "-++", "++-", "+--", "-++", "-++"]
    advice = np.array([[1 if c == "+" else -1 for c in row] for row in rows], dtype=np.int8)
    outcomes = np.array([-1, 1, 1, 1, -1, -1, 1, 1, -1, -1])
    eta = 19.825281931823064
    ewa = ExponentialWeights(eta=eta, loss="absolute", experts=3)
    tr = play(ewa, AdviceReplay(advice, outcomes), rounds=10, loss="absolute", snapshots=True)
    phi, slack = exponential_weights_potentials(tr, 3, eta)
    losses = ewa.cumulative_losses
    assert ewa._weights.w.tolist() == np.exp((losses - losses.min()) * -eta).tolist()
    assert tr.losses[5:].tolist() == [0.0] * 5
    assert phi[5:].tolist() == [eta] * 6  # −ln(e^(−η)·(1 + 2e^(−4η))) is η in doubles
    assert slack[5:].tolist() == [0.0] * 5


@given(st.one_of(best_expert_games(), graded_games()), convex)
def test_exponential_weights_tuned_corollary(game, loss):
    # an oblivious game: the best expert's loss is known before it is played
    best = float(get_loss(loss)(game.advice.astype(float), game.outcomes[:, None]).sum(0).min())
    if game.experts < 2 or best <= 0:
        return
    ewa = ExponentialWeights(eta=tuned_eta(game.experts, best), loss=loss)
    tr = play_game(ewa, game, loss=loss)
    corollary = exponential_weights_tuned(game.experts, best)
    assert tr.observed("loss") <= corollary.value * (1 + 1e-9)
    assert tr.bound.value <= corollary.value * (1 + 1e-9)  # the theorem is the sharper


@given(st.integers(0, 10))
def test_halving_lower_bound_forces_exactly_n_on_halving(n):
    tr = play(Halving(), HalvingLowerBound(n), rounds=64)
    assert int(tr.mistakes.sum()) == n == len(tr)
    assert tr.certificate_verified


@pytest.mark.parametrize("name", DETERMINISTIC)
@given(n=st.integers(0, 9))
def test_halving_lower_bound_forces_n_on_every_deterministic_learner(name, n):
    tr = play(lookup(name)(), HalvingLowerBound(n), rounds=64)
    assert int(tr.mistakes.sum()) >= n
    assert tr.summary()["forced"] and tr.certificate_verified


@pytest.mark.parametrize("name", DETERMINISTIC)
@given(horizon=st.integers(0, 60))
def test_two_constant_experts_force_a_mistake_every_round(name, horizon):
    tr = play(lookup(name)(), TwoConstantExperts(horizon=horizon), rounds=100)
    assert len(tr) == horizon and bool(tr.mistakes.all())
    assert tr.expert_losses(loss="zero-one").min(initial=0) <= horizon // 2
