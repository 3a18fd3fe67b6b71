"""The Perceptron's lockstep kernel: K games at once equal K serial games, every convention."""

import numpy as np
import pytest

from adversaries import SeparableStream
from game import play, play_batch
from game.players import kernel_for
from game.sweep import lockstep_supported
from learners import Perceptron


def stream(seed, d=6, margin=0.1):
    return SeparableStream(d, margin, rng=np.random.default_rng(seed))


def same(a, b):
    return (
        a.digest == b.digest
        and a.bound == b.bound
        and a.certificate == b.certificate
        and a.certificate_verified == b.certificate_verified
        and a.summary()["within_bound"] == b.summary()["within_bound"]
    )


@pytest.mark.parametrize(
    "convention",
    [
        {},
        {"zero_label": -1, "update": "mistake", "normalize": True},
        {"update": "mistake"},
        {"normalize": True},
    ],
)
def test_lockstep_games_equal_serial_games(convention):
    seeds = range(5)
    learners = [Perceptron(**convention) for _ in seeds]
    assert lockstep_supported(learners, [stream(s) for s in seeds], 600)
    batch = play_batch(learners, [stream(s) for s in seeds], rounds=600)
    serial = [play(Perceptron(**convention), stream(s), rounds=600) for s in seeds]
    assert all(same(b, s) for b, s in zip(batch, serial, strict=True))
    assert batch[0] == serial[0]  # Transcript equality: digest, status, certificate, bounds


def test_learners_end_with_the_weights_their_serial_game_leaves():
    learners = [Perceptron() for _ in range(3)]
    play_batch(learners, [stream(s) for s in range(3)], rounds=300)
    for s, learner in enumerate(learners):
        alone = Perceptron()
        play(alone, stream(s), rounds=300)
        assert np.array_equal(learner.weights, alone.weights)


def test_the_kernel_takes_float64_vectors_of_the_learners_dimension_only():
    accepts = kernel_for(Perceptron).accepts
    f64 = np.dtype(np.float64)
    assert accepts(Perceptron(), 4, f64) and accepts(Perceptron(dimension=4), 4, f64)
    assert not accepts(Perceptron(dimension=3), 4, f64)
    assert not accepts(Perceptron(), 4, np.dtype(np.float32))
    assert not accepts(Perceptron(), 4, np.dtype(np.int8))


def test_a_learner_that_has_played_continues_from_its_weights():
    learners = [Perceptron(), Perceptron()]
    twins = [Perceptron(), Perceptron()]
    for s, (learner, twin) in enumerate(zip(learners, twins, strict=True)):
        play(learner, stream(10 + s), rounds=50)
        play(twin, stream(10 + s), rounds=50)
    assert lockstep_supported(learners, [stream(0), stream(1)], 200)
    batch = play_batch(learners, [stream(0), stream(1)], rounds=200)
    for s, (game, learner, twin) in enumerate(zip(batch, learners, twins, strict=True)):
        assert game.digest == play(twin, stream(s), rounds=200).digest
        assert np.array_equal(learner.weights, twin.weights)
