"""The Perceptron on a separable sequence scaled by 10^k, k from −170 to 200: the unscaled game.

Scaling every instance by the same positive number changes no sign of the
exact arithmetic: the Perceptron's predictions and updates are the same, and
(R/γ)² is scale-free. In floating point the plain scores of a game scaled by
1e200 overflow and those of a game scaled by 1e-170 underflow; the learner's
slow path (scaled scores, scaled normalising) must give back the unscaled
game, the bound must be the unscaled game's (R/γ)², and the lockstep kernel
must give the engine's transcript. A sequence whose unscaled game has a score
within 1e-9 of a tie (relative to ‖w‖‖x‖), where rounding alone may decide the
sign, is skipped.
"""

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from adversaries import Replay
from game import play, play_batch
from game.sweep import lockstep_supported
from learners import Perceptron

conventions = st.fixed_dictionaries(
    {
        "zero_label": st.sampled_from([1, -1]),
        "update": st.sampled_from(["nonpositive", "mistake"]),
        "normalize": st.booleans(),
    }
)


def separable(seed: int, d: int, n: int):
    """n Gaussian points pushed at least a random margin away from a random unit u's hyperplane."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 10.0, size=(n, 1))
    y = np.where(X @ u >= 0, 1, -1)
    X += (y * rng.uniform(0.01, 1.0))[:, None] * u
    return X, y, u


def nearest_tie(tr) -> float:
    """The smallest |w·x|/(‖w‖‖x‖) over the rounds where w and x are not zero (inf if none)."""
    X = np.asarray(tr.instances, dtype=np.float64)
    W = np.vstack((np.zeros(X.shape[1]), tr.snapshot("w")[:-1]))  # w before each round
    if tr.header["learner"]["params"]["normalize"]:
        X = X / np.linalg.norm(X, axis=1)[:, None]
    sizes = np.linalg.norm(W, axis=1) * np.linalg.norm(X, axis=1)
    seen = sizes > 0
    if not seen.any():
        return np.inf
    return float(np.min(np.abs(np.einsum("ij,ij->i", W, X))[seen] / sizes[seen]))


def scale_free_bound(X, y, u, normalize: bool) -> float:
    """(R/γ)² of the unscaled sequence, as the learner uses it."""
    if normalize:
        X = X / np.linalg.norm(X, axis=1)[:, None]
    radius = np.linalg.norm(X, axis=1).max()
    margin = np.min(y * (X @ u))
    return float((radius / margin) ** 2)


@given(
    seed=st.integers(0, 2**32 - 1),
    d=st.integers(1, 8),
    n=st.integers(1, 120),
    k=st.integers(-170, 200),
    convention=conventions,
)
@example(
    seed=0,
    d=2,
    n=100,
    k=200,
    convention={"zero_label": 1, "update": "nonpositive", "normalize": False},
)
@example(
    seed=1, d=2, n=100, k=200, convention={"zero_label": -1, "update": "mistake", "normalize": True}
)
@example(
    seed=2,
    d=3,
    n=100,
    k=-170,
    convention={"zero_label": 1, "update": "nonpositive", "normalize": False},
)
@example(
    seed=3,
    d=3,
    n=100,
    k=-170,
    convention={"zero_label": -1, "update": "mistake", "normalize": True},
)
@example(
    seed=4,
    d=5,
    n=100,
    k=-155,
    convention={"zero_label": 1, "update": "mistake", "normalize": False},
)
def test_a_game_scaled_by_a_power_of_ten_is_the_unscaled_game(seed, d, n, k, convention):
    X, y, u = separable(seed, d, n)
    plain = play(
        Perceptron(**convention),
        Replay(instances=X, labels=y, separator=u),
        rounds=n,
        snapshots=True,
    )
    assume(nearest_tie(plain) > 1e-9)
    scaled_X = X * 10.0**k
    assert np.isfinite(scaled_X).all() and (scaled_X[X != 0] != 0).all()
    scaled = play(
        Perceptron(**convention), Replay(instances=scaled_X, labels=y, separator=u), rounds=n
    )
    # predictions, mistakes and updates: the unscaled game's
    np.testing.assert_array_equal(scaled.predictions, plain.predictions)
    np.testing.assert_array_equal(scaled.mistakes, plain.mistakes)
    np.testing.assert_array_equal(scaled.updated, plain.updated)
    # the bound: the scale-free (R/γ)², applying, and holding
    expected = scale_free_bound(X, y, u, convention["normalize"])
    assert scaled.certificate_verified is True
    assert scaled.bound.applies, scaled.bound.reason
    assert scaled.bound.value == pytest.approx(expected, rel=1e-9)
    assert scaled.bound.value == pytest.approx(plain.bound.value, rel=1e-9)
    assert scaled.bound.verdict(scaled.observed("updates")) is True
    # the lockstep kernel: the engine's transcript
    learners = [Perceptron(**convention)]
    replays = [Replay(instances=scaled_X, labels=y, separator=u)]
    assert lockstep_supported(learners, replays, n)
    (batch,) = play_batch(learners, replays, rounds=n, lockstep=True)
    assert batch.digest == scaled.digest and batch.bound == scaled.bound
    assert np.array_equal(learners[0].weights, scaled_weights(convention, scaled_X, y))


def scaled_weights(convention, X, y):
    """The weights an engine-played learner ends with on the scaled game."""
    learner = Perceptron(**convention)
    play(learner, Replay(instances=X, labels=y), rounds=len(y))
    return learner.weights
