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
    phi = np.concatenate([[tr.initial_snapshot["potential"]], tr.snapshot("potential")])
    slack = potential_slack(phi, tr.losses, eta)
    assert np.all(slack >= -1e-9 * (1 + np.abs(phi[1:])))


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
