"""The expert weights' arithmetic, once: weights read from the losses alone, and K games'
WeightRows are K games' Weights, bit for bit."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from learners import _weights as weights_module
from learners._weights import CHUNK, TINY, WeightRows, Weights, powers


def same_state(rows: WeightRows, k: int, one: Weights) -> bool:
    game = rows.game(k)
    return (
        np.array_equal(game.w, one.w)
        and game.total == one.total
        and np.array_equal(game.losses(), one.losses())
        and game.least == one.least
        and (game.graded_losses is None) == (one.graded_losses is None)
        and np.array_equal(game.counts, one.counts)
    )


def expected_weights(weights: Weights) -> np.ndarray:
    """What the weights must be, from the losses alone: β**k, exp(−η·k) or the graded exp."""
    losses = weights.losses()
    above = losses - losses.min()
    if weights.graded_losses is not None:
        w = np.exp(above * -weights.eta)
    elif weights.beta is not None:
        w = np.array([weights.beta ** int(k) for k in above])
    else:
        w = np.exp(above * -weights.eta)
    w[w < TINY] = 0.0
    return w


@given(
    n=st.integers(1, 40),
    rates=st.lists(st.tuples(st.floats(0.01, 40.0), st.booleans()), min_size=1, max_size=4),
    rounds=st.integers(1, 400),
    graded_rate=st.sampled_from([0.0, 0.05, 0.5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rows_update_as_each_games_weights_do(n, rates, rounds, graded_rate, seed):
    rng = np.random.default_rng(seed)
    etas = [eta for eta, _ in rates]
    betas = [math.exp(-eta) if counted else None for eta, counted in rates]
    rows = WeightRows(etas, n, betas)
    games = [Weights(n, eta, beta) for eta, beta in zip(etas, betas, strict=True)]
    for _ in range(rounds):
        v = rng.uniform(-1.0, 1.0, (len(etas), n))
        v[:, : n // 2] = np.round(v[:, : n // 2])  # some even votes: the exact sum decides
        assert rows.vote(v).tolist() == [g.vote(x) for g, x in zip(games, v, strict=True)]
        act = rng.random(len(etas))
        wrong = rng.random((len(etas), n)) < rng.random()
        zero_one = np.flatnonzero((act >= graded_rate) & wrong.any(axis=1))
        graded = np.flatnonzero(act < graded_rate)
        losses = rng.random((graded.size, n)) * (rng.random((graded.size, n)) < 0.7)
        graded, losses = graded[losses.any(axis=1)], losses[losses.any(axis=1)]
        rows.zero_one_update(zero_one, wrong[zero_one])
        rows.update(graded, losses)
        for k in zero_one:
            assert games[k].zero_one_update(np.where(wrong[k], -1, 1).astype(np.int8), 1)
        for k, ell in zip(graded, losses, strict=True):
            games[k].update(ell)
    for k, game in enumerate(games):
        assert same_state(rows, k, game)
        assert np.array_equal(game.w, expected_weights(game))
        assert game.untouched() == (not game.losses().any())


def test_a_table_entry_is_a_function_of_k_alone():
    # tables are made of the same chunks whoever asks and however long
    short, long = powers(0.01, None, 10), powers(0.01, None, 5 * CHUNK)
    assert short.shape == (CHUNK,) and long.shape == (5 * CHUNK,)
    assert np.array_equal(long[:CHUNK], short)
    assert long.tolist() == np.exp(np.arange(5 * CHUNK, dtype=np.float64) * -0.01).tolist()
    halves = powers(math.log(2.0), 0.5, 2000)  # complete: 2⁻⁷⁰¹ is below TINY
    assert halves.tolist() == [2.0**-k for k in range(701)] + [0.0] * (CHUNK - 701)


def test_a_complete_table_reads_zero_past_its_end():
    weights = Weights(2, 30.0)
    for _ in range(100):  # expert 1 loses 100 times: e^(−3000), far below TINY
        weights.zero_one_update(np.array([1, -1], dtype=np.int8), 1)
    assert weights.table.shape == (CHUNK,) and weights.w.tolist() == [1.0, 0.0]
    assert weights.losses().tolist() == [0.0, 100.0] and weights.total == 1.0


def test_a_table_grows_with_the_counts_at_a_small_eta():
    eta = 1e-6  # e^(−η·k) stays far from TINY: the table grows as the counts spread
    rows, game = WeightRows([eta], 3), Weights(3, eta)
    wrong = np.array([[True, False, False]])
    for _ in range(3 * CHUNK):
        rows.zero_one_update(np.array([0]), wrong)
        game.zero_one_update(np.array([-1, 1, 1], dtype=np.int8), 1)
    assert game.table.shape[0] > 3 * CHUNK and rows.tables.shape[1] > 3 * CHUNK
    assert same_state(rows, 0, game)
    assert game.w[0] == np.exp(np.float64(3 * CHUNK) * -eta)


@pytest.mark.parametrize("eta", [0.3, 5.0, 19.825281931823064, 30.0, 40.0])
def test_equal_losses_weigh_the_same_however_they_came(eta):
    # expert 0 loses on rounds 1…k, expert 1 on the last k rounds, expert 2 never
    # (then once at the end): however far apart, equal counts give equal weights
    k, rounds = 7, 500
    weights = Weights(3, eta)
    for t in range(rounds):
        labels = np.array([-1 if t < k else 1, -1 if t >= rounds - k else 1, 1], dtype=np.int8)
        weights.zero_one_update(labels, 1)
    weights.zero_one_update(np.array([1, 1, -1], dtype=np.int8), 1)
    assert weights.losses().tolist() == [k, k, 1]
    assert weights.w[0] == weights.w[1] == np.exp(np.float64(k - 1) * -eta)
    assert weights.w[2] == 1.0


@pytest.mark.parametrize("n", [1, 7, 1024, 1025])
def test_fresh_weights_are_untouched_until_updated(n):
    weights = Weights(n, 0.5)
    assert weights.untouched()
    weights.update(np.zeros(n))  # losses all 0 change nothing
    assert weights.untouched() and weights.graded_losses is None
    weights.zero_one_update(np.full(n, -1, dtype=np.int8), 1)
    assert not weights.untouched()
    assert weights.losses().tolist() == [1.0] * n and weights.w.tolist() == [1.0] * n


def test_a_graded_update_turns_the_game_graded_for_good():
    weights = Weights(3, 1.0)
    weights.zero_one_update(np.array([-1, 1, 1], dtype=np.int8), 1)
    weights.update(np.array([0.0, 0.5, 0.0]))
    assert weights.graded_losses.tolist() == [1.0, 0.5, 0.0]
    weights.zero_one_update(np.array([1, 1, -1], dtype=np.int8), 1)  # a unit loss, as a float
    assert weights.losses().tolist() == [1.0, 0.5, 1.0]
    assert weights.w.tolist() == np.exp(np.array([0.5, 0.0, 0.5]) * -1.0).tolist()


def exact_potential(losses: np.ndarray, eta: float) -> float:
    """−ln Σ_i exp(−η·L_i), the sum correctly rounded (math.fsum)."""
    least = float(losses.min())
    return eta * least - math.log(math.fsum(np.exp(-eta * (losses - least)).tolist()))


@given(
    n=st.integers(1, 100),
    eta=st.floats(0.01, 40.0),
    rounds=st.integers(1, 120),
    graded_rate=st.sampled_from([0.0, 0.1]),
    small=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_potential_is_the_losses(n, eta, rounds, graded_rate, small, seed):
    rng = np.random.default_rng(seed)
    with pytest.MonkeyPatch.context() as patch:
        if small:  # blocks of 8 experts above 8: the lazy update and its pass
            patch.setattr(weights_module, "SMALL", 8)
            patch.setattr(weights_module, "BLOCK", 8)
        weights = Weights(n, eta)
        for _ in range(rounds):
            if rng.random() < graded_rate:
                weights.update(rng.random(n))
            else:
                weights.zero_one_update(np.where(rng.random(n) < rng.random(), -1, 1), 1)
            phi, want = weights.potential(), exact_potential(weights.losses(), eta)
            assert abs(phi - want) <= 8 * 2.0**-53 * (n + 2 + abs(want))
            assert np.array_equal(weights.w, expected_weights(weights))
