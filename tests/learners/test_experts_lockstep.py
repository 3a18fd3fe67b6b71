"""The expert learners' lockstep kernels: K games of Halving, Weighted Majority or
Exponential Weights at once equal K serial games, weights and losses included."""

import numpy as np
import pytest

from adversaries.experts import AdviceReplay, ExpertStream
from game import GameError, play, play_batch
from game.sweep import lockstep_supported
from learners import experts
from learners.experts import Halving


def same(a, b):
    return (
        a.digest == b.digest
        and a.bound == b.bound
        and a.certificate == b.certificate
        and a.certificate_verified == b.certificate_verified
        and a.summary()["within_bound"] == b.summary()["within_bound"]
    )


def expert_stream(seed, experts=16, graded=False, horizon=300):
    return ExpertStream(experts, 2, np.random.default_rng(seed), horizon=horizon, graded=graded)


def weighted(name, **params):
    return getattr(experts, name)(**params)


@pytest.mark.parametrize(
    ("name", "params", "graded", "loss"),
    [
        ("ExponentialWeights", {}, False, "absolute"),
        ("ExponentialWeights", {"eta": 4.0}, True, "absolute"),  # graded: exp every round
        ("ExponentialWeights", {"eta": 0.02, "loss": "squared"}, False, "squared"),
        ("ExponentialWeights", {"loss": "zero-one"}, True, "zero-one"),
        ("ExponentialWeights", {"loss_bound": 3.0}, True, "squared"),
        ("WeightedMajority", {}, False, "zero-one"),
        ("WeightedMajority", {"beta": 0.999}, False, "zero-one"),  # weights far from TINY
        ("ExponentialWeights", {"eta": 40.0}, False, "absolute"),
        ("WeightedMajority", {"beta": 0.01}, True, "zero-one"),  # 0.01**k past TINY
    ],
)
def test_weighted_learners_in_lockstep_equal_serial_games(name, params, graded, loss):
    learners = [weighted(name, **params) for _ in range(4)]
    streams = [expert_stream(s, graded=graded, horizon=200 + 100 * s) for s in range(4)]
    assert lockstep_supported(learners, streams, 500)
    batch = play_batch(learners, streams, rounds=500, loss=loss)
    for s, (game, learner) in enumerate(zip(batch, learners, strict=True)):
        alone = weighted(name, **params)
        serial = play(
            alone, expert_stream(s, graded=graded, horizon=200 + 100 * s), rounds=500, loss=loss
        )
        assert same(game, serial) and game.observed("loss") == serial.observed("loss")
        assert np.array_equal(learner.weights, alone.weights)
        assert np.array_equal(learner._weights.losses(), alone._weights.losses())


def test_weighted_learners_replaying_advice_equal_serial_games():
    advice = np.array([[1, 0, -1], [1, 1, -1], [0, 0, 0], [-1, 1, 1]])  # zeros: graded updates
    outcomes = [1, -1, 1, 1]
    for name in ("ExponentialWeights", "WeightedMajority"):
        batch = play_batch(
            [weighted(name) for _ in range(2)],
            [AdviceReplay(advice, outcomes), AdviceReplay(advice[:2], outcomes[:2])],
            rounds=10,
        )
        assert same(batch[0], play(weighted(name), AdviceReplay(advice, outcomes), rounds=10))
        assert same(
            batch[1], play(weighted(name), AdviceReplay(advice[:2], outcomes[:2]), rounds=10)
        )


def too_many_experts():  # above 1024 experts the learner's blocked arithmetic is not copied
    return [weighted("ExponentialWeights")], [expert_stream(0, experts=1025, horizon=5)]


def weights_already_moved():
    learner = weighted("WeightedMajority", experts=16)
    learner.update(np.ones(16, dtype=np.int8), -1)
    return [learner], [expert_stream(0)]


def another_number_of_experts():
    return [weighted("ExponentialWeights", experts=8)], [expert_stream(0)]


def a_tuned_rate_with_one_expert():  # the tuned η needs N ≥ 2
    return [weighted("ExponentialWeights", loss_bound=2.0)], [expert_stream(0, experts=1)]


@pytest.mark.parametrize(
    "case",
    [
        too_many_experts,
        weights_already_moved,
        another_number_of_experts,
        a_tuned_rate_with_one_expert,
    ],
)
def test_weighted_learners_decline_what_they_cannot_reproduce(case):
    learners, adversaries = case()
    assert not lockstep_supported(learners, adversaries, 50)
    serial_learners, serial_adversaries = case()
    games = play_batch(learners, adversaries, rounds=50, errors="return")
    for g, learner, adversary in zip(games, serial_learners, serial_adversaries, strict=True):
        try:
            expected = play(learner, adversary, rounds=50)
        except (GameError, ValueError) as exc:
            assert str(g) == str(exc)
        else:
            assert same(g, expected)


def test_weighted_learners_with_their_number_of_experts_given_play_in_lockstep():
    learners = [weighted("ExponentialWeights", experts=16) for _ in range(2)]
    streams = [expert_stream(s) for s in range(2)]
    assert lockstep_supported(learners, streams, 100)
    batch = play_batch(learners, streams, rounds=100)
    serial = play(weighted("ExponentialWeights", experts=16), expert_stream(1), rounds=100)
    assert same(batch[1], serial)


def test_halving_in_lockstep_leaves_the_consistent_experts_of_its_serial_game():
    learners = [Halving() for _ in range(3)]
    streams = [expert_stream(s, experts=40) for s in range(3)]
    assert lockstep_supported(learners, streams, 300)
    batch = play_batch(learners, streams, rounds=300)
    for s, (game, learner) in enumerate(zip(batch, learners, strict=True)):
        alone = Halving()
        assert same(game, play(alone, expert_stream(s, experts=40), rounds=300))
        assert learner.consistent.tolist() == alone.consistent.tolist()
        assert learner.snapshot() == alone.snapshot()


def halving_over_a_class():  # its instances are points, not advice vectors
    return [Halving(concept_class=[[1, -1], [1, 1]])], [expert_stream(0, experts=2)]


def halving_that_has_played():
    learner = Halving()
    learner.update(np.ones(16, dtype=np.int8), 1)
    return [learner], [expert_stream(0)]


@pytest.mark.parametrize("case", [halving_over_a_class, halving_that_has_played])
def test_halving_declines_what_it_cannot_reproduce(case):
    learners, adversaries = case()
    assert not lockstep_supported(learners, adversaries, 50)
