"""The expert weights' arithmetic, once: K games' WeightRows are K games' Weights, bit for bit."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from learners import _weights as weights_module
from learners._weights import FLOOR, FOLD, WeightRows, Weights, due, patience


def same_state(rows: WeightRows, k: int, one: Weights) -> bool:
    game = rows.game(k)
    return (
        np.array_equal(game.w, one.w)
        and game.total == one.total
        and np.array_equal(game.losses(), one.losses())
        and game.shift == one.shift
        and game.since == one.since
        and np.array_equal(game.recent, one.recent)
    )


@given(
    n=st.integers(1, 40),
    etas=st.lists(st.floats(0.01, 30.0), min_size=1, max_size=4),
    rounds=st.integers(1, 400),
    graded_rate=st.sampled_from([0.0, 0.05, 0.5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rows_update_as_each_games_weights_do(n, etas, rounds, graded_rate, seed):
    rng = np.random.default_rng(seed)
    rows, games = WeightRows(etas, n), [Weights(n, eta) for eta in etas]
    for _ in range(rounds):
        v = rng.uniform(-1.0, 1.0, (len(etas), n))
        v[:, : n // 2] = np.round(v[:, : n // 2])  # some even votes: the exact sum decides
        assert rows.vote(v).tolist() == [g.vote(x) for g, x in zip(games, v, strict=True)]
        act = rng.random(len(etas))
        wrong = rng.random((len(etas), n)) < rng.random()
        zero_one = np.flatnonzero((act >= graded_rate) & wrong.any(axis=1))
        graded = np.flatnonzero(act < graded_rate)
        losses = rng.random((graded.size, n)) * (rng.random((graded.size, n)) < 0.7)
        rows.zero_one_update(zero_one, wrong[zero_one])
        rows.update(graded, losses)
        for k in zero_one:
            assert games[k].zero_one_update(np.where(wrong[k], -1, 1).astype(np.int8), 1)
        for k, ell in zip(graded, losses, strict=True):
            games[k].update(ell)
    for k, game in enumerate(games):
        assert same_state(rows, k, game)
        assert game.untouched() == (not game.losses().any())


def test_the_schedule_of_rebuilds_and_folds():
    assert due(FOLD, patience(0.01), 1.0) == (False, True)
    assert due(patience(1.0), patience(1.0), 1.0) == (True, False)
    assert due(1, 4096, FLOOR) == (False, False)
    assert due(1, 4096, FLOOR / 2) == (True, False)
    assert due(1, 4096, math.nan) == (True, False)  # not at least FLOOR
    since = np.array([FOLD, 5, 3])
    rebuild, fold = due(since, np.array([400, 5, 400]), np.array([1.0, 1.0, 0.0]))
    assert rebuild.tolist() == [False, True, True] and fold.tolist() == [True, False, False]


def test_a_total_below_the_floor_rebuilds_every_row_as_its_game():
    eta = 40.0  # e^(−40) a loss: a few updates take the total under 2⁻⁵⁰⁰
    rows, game = WeightRows([eta], 3), Weights(3, eta)
    for _ in range(12):
        rows.zero_one_update(np.array([0]), np.ones((1, 3), dtype=bool))
        game.zero_one_update(np.full(3, -1, dtype=np.int8), 1)
        assert same_state(rows, 0, game) and game.total >= FLOOR


@pytest.mark.parametrize("n", [1, 7, 1024])
def test_fresh_weights_are_untouched_until_updated(n):
    weights = Weights(n, 0.5)
    assert weights.untouched()
    weights.update(np.zeros(n))  # a rebuild without a loss leaves every weight 1
    assert weights.untouched()
    weights.zero_one_update(np.full(n, -1, dtype=np.int8), 1)
    assert not weights.untouched()


def exact_potential(losses: np.ndarray, eta: float) -> float:
    """−ln Σ_i exp(−η·L_i), the sum correctly rounded (math.fsum)."""
    least = float(losses.min())
    return eta * least - math.log(math.fsum(np.exp(-eta * (losses - least)).tolist()))


@given(
    n=st.integers(1, 100),
    eta=st.floats(0.01, 30.0),
    rounds=st.integers(1, 120),
    graded_rate=st.sampled_from([0.0, 0.1]),
    small=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_potential_is_summed_from_the_exact_losses(n, eta, rounds, graded_rate, small, seed):
    # the weights kept drift from exp(−η·L_i) by up to 2⁻⁵⁴·e^η a loss (10⁻³ at
    # η = 30); Φ does not: it is the exact losses' within the rounding of its sum
    rng = np.random.default_rng(seed)
    with pytest.MonkeyPatch.context() as patch:
        if small:  # blocks of 8 experts above 8: the blocked, lazy update and sum
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


@pytest.mark.parametrize("eta", [0.3, 5.0, 19.825281931823064, 30.0])
def test_the_potential_between_rebuilds_is_the_rebuilt_weights_bit_for_bit(eta):
    # summed from the losses as a rebuild sums its weights: rebuilding changes nothing
    rng = np.random.default_rng(7)
    weights = Weights(9, eta)
    for _ in range(patience(eta) - 1):
        weights.zero_one_update(np.where(rng.random(9) < 0.4, -1, 1), 1)
        assert weights.since > 0
        rebuilt = Weights(9, eta)
        rebuilt.base, rebuilt.recent = weights.base.copy(), weights.recent.copy()
        rebuilt.rebuild()
        assert (
            weights.potential()
            == rebuilt.potential()
            == (rebuilt.eta * rebuilt.shift - math.log(rebuilt.total))
        )
