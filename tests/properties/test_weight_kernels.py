"""The compiled pass over expert counts against numpy: the same weights, the same games.

Runs only where numba is installed (the ``fast`` extra; CI installs it).
"""

import contextlib
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from game import play
from game.testing.strategies import best_expert_games, graded_games
from game.theory import compiled
from learners import _weights as weights_module
from learners._weights import powers
from learners.experts import ExponentialWeights, WeightedMajority
from learners.weight_kernels import weights_pass

pytest.importorskip("numba")


def numpy_pass(counts, table, least, labels, y, advice, update, weigh):
    """What the compiled pass computes, written with numpy over the whole array."""
    if update:
        counts += labels != y
        least = int(counts.min())
    w = table[np.minimum(counts - least, table.shape[0] - 1)]
    return float(w.sum()), (float(w @ advice) if weigh else 0.0), least, w


@given(
    st.integers(1, 700),
    st.integers(0, 2**32 - 1),
    st.sampled_from([-1, 1]),
    st.floats(1e-3, 40.0),
    st.booleans(),
    st.booleans(),
    st.sampled_from([np.int8, np.int64, np.float64, np.bool_]),
)
def test_compiled_pass_gives_numpy_counts_bit_for_bit(n, seed, y, eta, update, weigh, dtype):
    rng = np.random.default_rng(seed)
    table = powers(eta, None, 2)
    counts = rng.integers(0, 40, n).astype(np.int64)
    counts -= counts.min() - int(rng.integers(0, 5))
    least = int(counts.min())
    labels = (2 * rng.integers(0, 2, n) - 1).astype(np.int8)
    if dtype is np.float64:
        advice = rng.uniform(-1.0, 1.0, n)
    elif dtype is np.bool_:
        advice = rng.random(n) < 0.5
    else:
        advice = (2 * rng.integers(0, 2, n) - 1).astype(dtype)
    twin = counts.copy()
    total, product, got_least = weights_pass()(
        counts, table, least, labels, y, advice, update, weigh
    )
    want_total, want_product, want_least, w = numpy_pass(
        twin, table, least, labels, y, advice, update, weigh
    )
    assert np.array_equal(counts, twin) and got_least == want_least
    # the sums differ only in the order of additions: within n roundings of Σ|terms|
    assert abs(total - want_total) <= 4 * n * np.finfo(float).eps * want_total
    if weigh:
        scale = np.abs(w * advice).sum()
        assert abs(product - want_product) <= 4 * n * np.finfo(float).eps * scale
    else:
        assert product == 0.0


@contextlib.contextmanager
def passes_counted():
    """A list that gets an entry each time a learner takes the compiled pass."""
    calls = []
    real = weights_module.weights_pass

    def counted():
        run = real()
        if run is None:
            return None

        def counting(*args):
            calls.append(args[6:])  # (update, weigh)
            return run(*args)

        return counting

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(weights_module, "weights_pass", counted)
        yield calls


def both_ways(make, game, loss):
    """The game played with the numpy pass and with the compiled pass: (transcript, learner).

    Both take the lazy one-pass path from 9 experts on (the games have up to 48).
    """
    out = []
    for way in (False, True):
        with compiled(way), passes_counted() as calls, pytest.MonkeyPatch.context() as mp:
            mp.setattr(weights_module, "SMALL", 8)
            mp.setattr(weights_module, "BLOCK", 40)
            mp.setattr(weights_module, "DOT_PIECE", 16)
            learner = make()
            tr = play(learner, game.adversary(), rounds=len(game), loss=loss, snapshots=True)
            out.append((tr, learner))
        assert bool(calls) == (way and game.experts > 8)  # each way went its own way
    return out


games = st.one_of(
    best_expert_games(max_experts=48, max_rounds=40), graded_games(max_experts=48, max_rounds=40)
)


@given(game=games, eta=st.floats(0.05, 4.0), loss=st.sampled_from(["absolute", "squared"]))
def test_exponential_weights_plays_the_same_game_either_way(game, eta, loss):
    assume(len(game) > 0)  # a game of no rounds has no N, so no weights and no bound
    (a, la), (b, lb) = both_ways(lambda: ExponentialWeights(eta=eta, loss=loss), game, loss)
    assert a.within_bound and b.within_bound  # Theorem 16.3, both ways
    assert np.array_equal(la.cumulative_losses, lb.cumulative_losses)
    assert np.array_equal(la._weights.w, lb._weights.w)
    assert la._weights.least == lb._weights.least
    assert np.allclose(a.predictions, b.predictions, rtol=1e-9, atol=1e-12)
    assert np.allclose(a.snapshot("potential"), b.snapshot("potential"), rtol=1e-12, atol=1e-12)
    assert a.updated.tolist() == b.updated.tolist()


@given(game=best_expert_games(max_experts=48, max_rounds=40), beta=st.floats(0.01, 0.99))
def test_weighted_majority_plays_the_same_game_either_way(game, beta):
    # the votes' signs are exact (summed again exactly near even), so the votes,
    # ties included, come out the same whatever order the sums are added in
    assume(len(game) > 0)
    (a, la), (b, lb) = both_ways(lambda: WeightedMajority(beta=beta), game, "zero-one")
    assert a.within_bound and b.within_bound
    assert a.digest == b.digest
    assert a.predictions.tolist() == b.predictions.tolist()
    assert np.array_equal(la._weights.w, lb._weights.w)
    # the total weight is summed in each way's order: its last bits may differ
    assert la.snapshot()["log2_weight"] == pytest.approx(lb.snapshot()["log2_weight"], rel=1e-12)


def test_a_long_game_of_a_million_experts_either_way():
    # the size the benchmark plays, long enough for the least count to rise often
    rng = np.random.default_rng(3)
    n, rounds = 2**20, 150
    advice = [(2 * rng.integers(0, 2, n) - 1).astype(np.int8) for _ in range(4)]
    outcomes = 2 * rng.integers(0, 2, rounds) - 1
    results = []
    for way in (False, True):
        with compiled(way), passes_counted() as calls:
            ewa = ExponentialWeights(eta=2.0)
            p = []
            for t in range(rounds):
                p.append(ewa.predict(advice[t % 4]))
                ewa.update(advice[t % 4], int(outcomes[t]))
            results.append((np.array(p), ewa.cumulative_losses, ewa.snapshot()["potential"]))
        assert len(calls) >= rounds if way else not calls
    (p0, l0, phi0), (p1, l1, phi1) = results
    assert np.array_equal(l0, l1)
    assert np.allclose(p0, p1, rtol=1e-9, atol=1e-12)
    assert math.isclose(phi0, phi1, rel_tol=1e-12)


@pytest.mark.parametrize("dtype", [np.float16, np.dtype(">f8"), np.dtype(">i8")], ids=str)
def test_advice_the_loop_does_not_take_is_weighed_by_numpy(dtype):
    rng = np.random.default_rng(5)
    advice = [(2 * rng.integers(0, 2, 3000) - 1).astype(dtype) for _ in range(3)]
    predictions = []
    for way in (False, True):
        with compiled(way), passes_counted() as calls:
            ewa = ExponentialWeights(eta=0.3, loss="absolute")
            p = []
            for t in range(9):
                p.append(ewa.predict(advice[t % 3]))
                ewa.update(advice[t % 3], 1 if t % 2 else -1)
            predictions.append(p)
        assert not calls  # numpy weighed every round, either way
    assert predictions[0] == predictions[1]
    assert -1.0 < predictions[0][-1] < 1.0
