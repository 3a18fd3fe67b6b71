"""The lockstep protocol: a class declares its kernel in its own body; kernel_for reads it."""

import numpy as np
import pytest

from adversaries import NoisyStream, SeparableStream
from game import GameError, play_batch
from game.players import LockstepLearner, Source, kernel_for, rounds_of
from game.sweep import lockstep_supported
from learners import Perceptron, RandomizedWeightedMajority, WeightedMajority


def test_kernels_are_found_by_class():
    assert isinstance(kernel_for(Perceptron), LockstepLearner)
    assert kernel_for(Perceptron) is Perceptron.lockstep
    assert isinstance(kernel_for(SeparableStream), Source)
    assert kernel_for(int) is None


def test_a_subclass_does_not_inherit_its_parents_kernel():
    # RandomizedWeightedMajority draws where WeightedMajority votes: the kernel would be wrong
    assert isinstance(kernel_for(WeightedMajority), LockstepLearner)
    assert kernel_for(RandomizedWeightedMajority) is None

    class Tweaked(Perceptron):
        pass

    assert kernel_for(Tweaked) is None
    streams = [SeparableStream(3, 0.1, rng=np.random.default_rng(s)) for s in range(2)]
    assert lockstep_supported([Perceptron(), Perceptron()], streams, 10)
    assert not lockstep_supported([Tweaked(), Tweaked()], streams, 10)
    games = play_batch([Tweaked(), Tweaked()], streams, rounds=10)  # played by the engine
    assert [len(g) for g in games] == [10, 10]


def test_a_subclass_plays_in_lockstep_with_a_kernel_of_its_own():
    # NoisyStream is a SeparableStream with its own source (its noise and its record)
    assert kernel_for(NoisyStream) is not kernel_for(SeparableStream)

    class Declared(Perceptron):
        lockstep = Perceptron.lockstep

    streams = [SeparableStream(3, 0.1, rng=np.random.default_rng(s)) for s in range(2)]
    assert kernel_for(Declared) is Perceptron.lockstep
    assert lockstep_supported([Declared(), Declared()], streams, 10)


def test_a_lockstep_attribute_that_is_not_a_kernel_is_refused():
    class Odd:
        lockstep = True

    with pytest.raises(GameError, match=r"Odd\.lockstep must be a game\.players\.Source"):
        kernel_for(Odd)


def test_rounds_of_pads_short_games_with_zero_rows():
    Xs = [np.arange(6.0).reshape(3, 2), np.ones((1, 2))]
    rows = [x.copy() for _, x in rounds_of(Xs, 2, window=2)]
    assert [r.tolist() for r in rows] == [
        [[0.0, 1.0], [1.0, 1.0]],
        [[2.0, 3.0], [0.0, 0.0]],
        [[4.0, 5.0], [0.0, 0.0]],
    ]


def test_rounds_of_no_game():
    assert list(rounds_of([], 3)) == []
    assert list(rounds_of([np.empty((0, 3))], 3)) == []
