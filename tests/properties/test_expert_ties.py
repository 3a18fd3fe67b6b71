"""Ties of the weighted learners are exact, whatever the history.

Weighted Majority's and Exponential Weights' weights are functions of the
experts' cumulative losses alone (:mod:`learners._weights`): experts with equal
losses weigh the same bit for bit at every round, in a game played by the
engine, by one game's lazy pass (above SMALL experts) or in lockstep. So an
even vote is exactly 0: Weighted Majority predicts +1, Exponential Weights
and Randomized Weighted Majority 0, after any number of updates.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries.experts import AdviceReplay
from game import play, play_batch
from game.sweep import lockstep_supported
from game.theory import get_loss
from learners import _weights as weights_module
from learners.experts import ExponentialWeights, RandomizedWeightedMajority, WeightedMajority

#: Rates with the large η (30 to 40) where e^(−η) is far from 1 + (e^(−η) − 1).
etas = st.one_of(st.floats(0.01, 40.0), st.sampled_from([30.0, 35.0, 40.0]))
betas = st.one_of(st.floats(0.01, 0.99), st.sampled_from([0.5, 0.25, math.exp(-35.0)]))


@st.composite
def twin_games(draw, max_pairs=12, max_rounds=600, graded=False):
    """Advice of 2M experts where expert i and expert M + i advise alike on every round
    but a few (so they lose alike, or not), outcomes at random."""
    pairs = draw(st.integers(1, max_pairs))
    rounds = draw(st.integers(0, max_rounds))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if graded:
        half = rng.uniform(-1.0, 1.0, (rounds, pairs))
        half[rng.random((rounds, pairs)) < 0.3] = 1.0
    else:
        half = (2 * rng.integers(0, 2, (rounds, pairs)) - 1).astype(np.int8)
    advice = np.concatenate([half, half], axis=1)
    apart = rng.random((rounds, pairs)) < draw(st.sampled_from([0.0, 0.01, 0.1]))
    advice[:, pairs:][apart] = -advice[:, pairs:][apart]
    outcomes = 2 * rng.integers(0, 2, rounds) - 1
    return advice, outcomes


def groups_weigh_alike(weights: np.ndarray, losses: np.ndarray) -> bool:
    """Every two experts with equal losses have bit-equal weights."""
    order = np.lexsort((weights, losses))
    same = losses[order][1:] == losses[order][:-1]
    return bool(np.all(weights[order][1:][same] == weights[order][:-1][same]))


def reference_losses(advice, outcomes, loss):
    """Every expert's loss after each round, summed in round order as the learner sums it."""
    running = np.zeros(advice.shape[1])
    out = []
    for f, y in zip(advice, outcomes, strict=True):
        if loss == "zero-one" or advice.dtype.kind in "iu":
            running = running + ((f >= 0) != (y > 0))
        else:
            running = running + get_loss(loss)(f.astype(np.float64), y)
        out.append(running.copy())
    return out


def learner_of(kind, rate, loss):
    if kind == "weighted-majority":
        return WeightedMajority(beta=rate)
    if kind == "randomized":
        return RandomizedWeightedMajority(beta=rate, rng=np.random.default_rng(0))
    return ExponentialWeights(eta=rate, loss=loss)


learners = st.one_of(
    st.tuples(st.just("weighted-majority"), betas, st.just("zero-one")),
    st.tuples(st.just("randomized"), betas, st.just("zero-one")),
    st.tuples(
        st.just("exponential-weights"), etas, st.sampled_from(["absolute", "squared", "zero-one"])
    ),
)


@given(game=st.one_of(twin_games(), twin_games(graded=True)), spec=learners, lazy=st.booleans())
def test_equal_losses_weigh_the_same_at_every_round(game, spec, lazy):
    kind, rate, loss = spec
    advice, outcomes = game
    if advice.dtype.kind == "f" and kind != "exponential-weights":
        loss = "zero-one"  # the majority votes count mistakes of the signs
    losses = reference_losses(advice, outcomes, loss)
    with pytest.MonkeyPatch.context() as patch:
        if lazy:  # above 4 experts: the lazy update and its one pass over the counts
            patch.setattr(weights_module, "SMALL", 4)
            patch.setattr(weights_module, "BLOCK", 8)
        learner = learner_of(kind, rate, loss)
        pairs = advice.shape[1] // 2
        for f, y, after in zip(advice, outcomes, losses, strict=True):
            learner.predict(f)
            learner.update(f, int(y))
            assert learner._weights.losses().tolist() == after.tolist()
            assert groups_weigh_alike(learner.weights, after)
            # expert i against its twin M + i: an even vote whenever their losses agree
            tie = np.ones(advice.shape[1], dtype=np.int8)
            tie[pairs:] = -1
            if np.array_equal(after[:pairs], after[pairs:]):
                p = learner.predict(tie)
                assert p == (1.0 if kind == "weighted-majority" else 0.0)


@pytest.mark.parametrize("updates", [3, 4, 103, 104, 287, 288, 289, 1000, 4097])
@pytest.mark.parametrize("lazy", [False, True])
def test_an_exact_tie_predicts_plus_one_after_any_number_of_updates(updates, lazy):
    # β = 1/2 and counts (0, 1, 2, 3, 3) above the least: 1 = 1/2 + 1/4 + 1/8 + 1/8
    # exactly, either way round; after updates − 3 rounds that every expert lost
    with pytest.MonkeyPatch.context() as patch:
        if lazy:
            patch.setattr(weights_module, "SMALL", 4)
            patch.setattr(weights_module, "BLOCK", 2)
        wm = WeightedMajority(beta=0.5)
        everyone = np.full(5, -1, dtype=np.int8)
        for _ in range(updates - 3):
            assert wm.update(everyone, 1)
        for lose in ([1, -1, -1, -1, -1], [1, 1, -1, -1, -1], [1, 1, 1, -1, -1]):
            assert wm.update(np.array(lose, dtype=np.int8), 1)
        assert wm._weights.losses().tolist() == [updates - 3 + k for k in (0, 1, 2, 3, 3)]
        assert wm.weights.tolist() == [0.5, 0.25, 0.125, 0.0625, 0.0625]
        assert wm.predict(np.array([1, -1, -1, -1, -1], dtype=np.int8)) == 1.0
        assert wm.predict(np.array([-1, 1, 1, 1, 1], dtype=np.int8)) == 1.0


@given(updates=st.integers(1, 3000), beta=betas)
def test_a_tie_between_equal_counts_predicts_plus_one_after_any_number_of_updates(updates, beta):
    # counts (0, 0, 1, 1) above the least: one of each a side is an even vote
    wm = WeightedMajority(beta=beta)
    everyone = np.full(4, -1, dtype=np.int8)
    for _ in range(updates - 1):
        wm.update(everyone, 1)
    wm.update(np.array([1, 1, -1, -1], dtype=np.int8), 1)
    assert wm.predict(np.array([1, -1, 1, -1], dtype=np.int8)) == 1.0
    assert wm.predict(np.array([-1, 1, -1, 1], dtype=np.int8)) == 1.0
    assert wm._weights.split(np.array([True, False, False, True])) == 0.0
    assert wm.predict(np.array([-1, -1, 1, 1], dtype=np.int8)) == -1.0  # 2β against 2


@given(
    experts=st.integers(2, 40),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4, unique=True),
    rounds=st.integers(1, 500),
    spec=st.one_of(
        st.tuples(st.just("weighted-majority"), betas, st.just("zero-one")),
        st.tuples(st.just("exponential-weights"), etas, st.sampled_from(["absolute", "squared"])),
    ),
    graded=st.booleans(),
)
def test_lockstep_games_keep_the_ties_as_the_engine_does(experts, seeds, rounds, spec, graded):
    kind, rate, loss = spec
    games = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        half = (2 * rng.integers(0, 2, (rounds, experts)) - 1).astype(np.int8)
        if graded:
            half = half * rng.choice([0.25, 1.0], (rounds, experts))
        games.append((np.concatenate([half, half], axis=1), 2 * rng.integers(0, 2, rounds) - 1))

    def replays():
        return [AdviceReplay(a, y) for a, y in games]

    batch_learners = [learner_of(kind, rate, loss) for _ in seeds]
    assert lockstep_supported(batch_learners, replays(), rounds)
    batch = play_batch(batch_learners, replays(), rounds=rounds, loss=loss)
    for learner, replay, game in zip(batch_learners, replays(), batch, strict=True):
        alone = learner_of(kind, rate, loss)
        serial = play(alone, replay, rounds=rounds, loss=loss)
        assert game.digest == serial.digest and game.bound == serial.bound
        assert np.array_equal(learner._weights.w, alone._weights.w)
        assert learner._weights.total == alone._weights.total
        w = learner._weights.w
        assert np.array_equal(w[:experts], w[experts:])  # twins, bit for bit
        tie = np.repeat(np.array([1, -1], dtype=np.int8), experts)
        assert learner.predict(tie) == alone.predict(tie) == (1.0 if kind[0] == "w" else 0.0)
