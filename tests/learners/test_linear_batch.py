"""The Batch Perceptron: ``fit``, and the same loop as a game against the picker."""

import re

import numpy as np
import pytest

from adversaries import MisclassifiedPicker, SeparableStream
from game import GameError, ParameterError, play
from game.theory.bounds import batch_perceptron
from learners import BatchPerceptron


def _data(n=60, d=5, seed=0):
    stream = SeparableStream(d, 0.05, 1.0, np.random.default_rng(seed))
    X, y = stream.examples(n)
    return X, y, stream.direction


def test_fit_returns_a_separator_and_the_iteration_count():
    X, y, _ = _data()
    w, iterations = BatchPerceptron().fit(X, y)
    assert np.all(y * (X @ w) > 0)
    assert 0 < iterations <= (1.0 / 0.05) ** 2


@pytest.mark.parametrize("rule", ["first", "cyclic", "random"])
def test_fit_is_the_game_against_the_picker(rule):
    X, y, _ = _data(seed=1)
    w, iterations = BatchPerceptron().fit(X, y, rule=rule, rng=np.random.default_rng(7))
    learner = BatchPerceptron()
    picker = MisclassifiedPicker(instances=X, labels=y, rule=rule, rng=np.random.default_rng(7))
    tr = play(learner, picker, rounds=10**6)
    assert len(tr) == iterations == tr.observed("updates")  # every round is an iteration
    np.testing.assert_array_equal(learner.weights, w)
    np.testing.assert_array_equal(picker.weights, w)
    assert tr.certificate_verified and tr.within_bound


def test_fit_sets_the_learners_weights():
    X, y, _ = _data(seed=2)
    learner = BatchPerceptron()
    w, _ = learner.fit(X, y)
    np.testing.assert_array_equal(learner.weights, w)
    assert all(learner.predict(x) == label for x, label in zip(X, y.tolist(), strict=True))


def test_fit_gives_up_on_a_set_no_halfspace_separates():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    with pytest.raises(GameError, match="no separator in 50 iterations"):
        BatchPerceptron().fit(X, np.array([1, -1]), max_iterations=50)


@pytest.mark.parametrize(
    ("kwargs", "parameter", "message"),
    [
        ({"max_iterations": True}, "max_iterations", "an integer ≥ 0, got True"),
        ({"max_iterations": -1}, "max_iterations", "an integer ≥ 0, got -1"),
        ({"max_iterations": 2.5}, "max_iterations", "an integer ≥ 0, got 2.5"),
        ({"rule": "last"}, "rule", "one of 'first', 'cyclic', 'random', got 'last'"),
        ({"rng": 0}, "rng", "a numpy.random.Generator, got 0"),
        ({"X": [[1.0, np.nan]]}, "X", "a finite matrix of numbers"),
        ({"y": [1, 0]}, "y", "a vector of -1 and 1, got [1, 0]"),
        ({"y": [1]}, "y", "a vector of 2 entries, got [1]"),
    ],
)
def test_fit_refuses_a_bad_argument_naming_it(kwargs, parameter, message):
    arguments = {"X": [[1.0, 0.0], [0.0, 1.0]], "y": [1, -1]} | kwargs
    X, y = arguments.pop("X"), arguments.pop("y")
    with pytest.raises(ParameterError, match=f"^{parameter} must be " + re.escape(message)) as info:
        BatchPerceptron().fit(X, y, **arguments)
    assert info.value.parameter == parameter


def test_fit_takes_a_numpy_integer_and_zero_iterations():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, 1])
    assert BatchPerceptron().fit(X, y, max_iterations=np.int64(5))[1] == 2
    with pytest.raises(GameError, match="no separator in 0 iterations"):
        BatchPerceptron().fit(X, y, max_iterations=0)


def test_bound_rescales_the_certificate_to_margin_one():
    X = np.array([[2.0, 0.0], [0.0, 1.0]])
    picker = MisclassifiedPicker(instances=X, labels=[1, 1], separator=[3.0, 3.0])
    tr = play(BatchPerceptron(), picker, rounds=100)
    # w = (1, 1) is the rescaled separator: min y⟨w, x⟩ = 1, B ≤ √2; R = 2
    assert tr.bound.value == pytest.approx(batch_perceptron(2.0, np.sqrt(2)).value) == 8.0
    assert tr.observed("updates") <= 8


def test_no_bound_without_a_realizable_halfspace():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    tr = play(BatchPerceptron(), MisclassifiedPicker(instances=X, labels=[1, -1]), rounds=5)
    assert tr.certificate is None and tr.bound is None
