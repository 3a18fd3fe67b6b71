"""Regret and expert losses from transcripts; Halving over finite classes; the blocked weights.

The transcript's per-expert losses, best expert and regret are checked against
a direct computation from the advice matrix; the learners' blocked, lazy
arithmetic (used above 1024 experts) is checked against their whole-array
arithmetic by shrinking the block size.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries.experts import AdviceReplay
from adversaries.replay import Replay
from game import Transcript, play
from game.testing.strategies import (
    any_finite_class,
    best_expert_games,
    graded_games,
    perfect_expert_games,
    point_sequences,
)
from game.theory import compiled, get_loss
from learners import _weights as weights_module
from learners import weight_kernels
from learners.experts import (
    ExponentialWeights,
    Halving,
    RandomizedWeightedMajority,
    WeightedMajority,
)

any_game = st.one_of(perfect_expert_games(), best_expert_games(), graded_games())
losses = st.sampled_from(["zero-one", "absolute", "squared"])


def direct(game, loss):
    """(L after each round (T × N), learner-independent) from the matrix itself."""
    per_round = get_loss(loss)(game.advice.astype(float), game.outcomes[:, None])
    return np.cumsum(np.asarray(per_round, dtype=float).reshape(len(game), -1), axis=0)


@given(any_game, losses, st.data())
def test_expert_losses_best_expert_and_regret_match_the_matrix(game, loss, data):
    tr = play(WeightedMajority(), game.adversary(), rounds=len(game), loss=loss)
    if len(game) == 0:
        assert tr.regret().shape == (0,) and tr.best_expert().shape == (0,)
        return
    L = direct(game, loss)
    assert tr.expert_losses() == pytest.approx(L[-1])
    t = data.draw(st.integers(0, len(game)), label="t")
    assert tr.expert_losses(t) == pytest.approx(L[t - 1] if t else np.zeros(game.experts))
    assert tr.best_expert().tolist() == np.argmin(L, axis=1).tolist()
    mine = np.cumsum(get_loss(loss)(tr.predictions, tr.labels))
    assert tr.regret() == pytest.approx(mine - L.min(axis=1))


@given(game=any_game, loss=losses)
def test_regret_survives_a_round_trip_through_a_file(tmp_path_factory, game, loss):
    path = tmp_path_factory.mktemp("runs") / "game.jsonl"
    tr = play(WeightedMajority(), game.adversary(), rounds=len(game), loss=loss, out=path)
    back = Transcript.load(path)
    assert back.regret() == pytest.approx(tr.regret())
    assert back.best_expert().tolist() == tr.best_expert().tolist()


def test_regret_of_a_point_game_uses_the_class_matrix():
    matrix = np.array([[1, 1, 1], [-1, 1, 1], [-1, -1, 1]], dtype=np.int8)
    tr = play(
        Halving(concept_class=matrix),
        Replay(instances=[0, 1, 2, 0], labels=[-1, 1, 1, 1]),
        rounds=4,
    )
    assert tr.expert_losses(matrix=matrix).tolist() == [1.0, 1.0, 2.0]
    assert tr.best_expert(matrix=matrix).tolist() == [1, 1, 1, 0]
    assert tr.mistakes.tolist() == [False, False, False, True]
    assert tr.regret(matrix=matrix).tolist() == [0.0, 0.0, 0.0, 0.0]


@given(point_sequences(any_finite_class()))
def test_halving_over_a_finite_class_is_halving_over_its_hypotheses(data):
    cls, _target, points, labels = data
    if not points:
        return
    tr = play(
        Halving(concept_class=cls), Replay(instances=points, labels=labels), rounds=len(points)
    )
    assert tr.within_bound
    assert tr.observed("mistakes") <= math.log2(cls.matrix.shape[0])
    advice = cls.matrix[:, points].T  # the same game, each hypothesis an expert
    same = play(Halving(), AdviceReplay(advice, labels), rounds=len(points))
    assert same.predictions.tolist() == tr.predictions.tolist()


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 40 experts, the lazy blocked path from 9 experts on."""
    monkeypatch.setattr(weights_module, "BLOCK", 40)
    monkeypatch.setattr(weights_module, "SMALL", 8)
    monkeypatch.setattr(weights_module, "DOT_PIECE", 16)


def predictions_and_potentials(make, game, loss):
    learner = make()
    tr = play(learner, game.adversary(), rounds=len(game), loss=loss, snapshots=True)
    key = next(iter(tr.initial_snapshot), None) if tr.initial_snapshot else None
    snaps = tr.snapshot(key) if key and len(tr) else np.zeros(0)
    return tr.predictions, snaps, tr.extras.get("mistake_probability", np.zeros(0))


@pytest.mark.parametrize(
    ("make", "loss"),
    [
        (lambda: WeightedMajority(beta=0.3, experts=173), "zero-one"),
        (lambda: ExponentialWeights(eta=2.5, loss="absolute", experts=173), "absolute"),
        (lambda: ExponentialWeights(eta=0.4, loss="squared", experts=173), "squared"),
        (lambda: ExponentialWeights(eta=1.0, loss="zero-one", experts=173), "zero-one"),
        (lambda: RandomizedWeightedMajority(rng=np.random.default_rng(1), experts=173), "zero-one"),
    ],
)
@pytest.mark.parametrize("graded", [False, True])
@pytest.mark.parametrize("way", ["numpy", "compiled"])
def test_blocked_lazy_weights_match_whole_array_weights(make, loss, graded, way, request):
    # 600 rounds: the least count rises often, expert 3 errs now and then
    rng = np.random.default_rng(7)
    advice = (2 * rng.integers(0, 2, (600, 173)) - 1).astype(np.int8)
    advice[:, 3] = np.where(rng.random(600) < 0.9, 1, -1)  # a good expert
    if graded:
        advice = advice * rng.uniform(0.1, 1.0, advice.shape)
    outcomes = np.ones(600, dtype=np.int64)
    from game.testing.strategies import ExpertGame

    game = ExpertGame(advice, outcomes)
    if way == "compiled" and not weight_kernels.available():
        pytest.skip("numba is not installed (the fast extra)")
    whole = predictions_and_potentials(make, game, loss)
    request.getfixturevalue("small_blocks")
    with compiled(way == "compiled"):
        blocked = predictions_and_potentials(make, game, loss)
    for a, b in zip(whole, blocked, strict=True):
        assert np.allclose(a, b, rtol=1e-9, atol=1e-12)
