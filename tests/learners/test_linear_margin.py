"""Balcan's Margin Perceptron(γ): initialisation, the two thresholds, margin mistakes."""

import math

import numpy as np
import pytest

from adversaries import NoisyStream, Replay, SeparableStream
from game import ParameterError, play
from learners import MarginPerceptron


def test_first_example_initialises_w_to_y1_x1_on_the_unit_sphere():
    mp = MarginPerceptron(gamma=0.2)
    x = np.array([0.0, 5.0])
    assert mp.predict(x) == 1.0
    assert mp.update(x, -1) is True
    np.testing.assert_allclose(mp.weights, [0.0, -1.0])


@pytest.mark.parametrize(
    ("angle_score", "label", "prediction", "band", "updated"),
    [
        (0.30, 1, 1.0, False, False),  # w·x/‖w‖ = 0.3 ≥ γ/2 = 0.25: positive, no update
        (0.30, -1, 1.0, False, True),  # a prediction mistake outside the band
        (0.25, 1, 1.0, False, False),  # exactly γ/2: positive (the threshold is ≥)
        (0.20, 1, 1.0, True, True),  # inside (−γ/2, γ/2): a margin mistake though right
        (-0.20, -1, -1.0, True, True),
        (-0.25, -1, -1.0, False, False),  # exactly −γ/2: negative
        (-0.40, 1, -1.0, False, True),
    ],
)
def test_thresholds_at_plus_and_minus_half_gamma(angle_score, label, prediction, band, updated):
    mp = MarginPerceptron(gamma=0.5)
    mp.update(np.array([1.0, 0.0]), 1)  # w = e₁
    x = np.array([angle_score, math.sqrt(1 - angle_score**2)])  # w·x/‖w‖ = angle_score
    assert mp.predict(x) == prediction
    assert mp.update(x, label) is updated
    assert mp.extras() == {"margin_mistake": 1.0 if band else 0.0}


def test_margin_mistakes_are_recorded_apart_from_prediction_mistakes():
    stream = SeparableStream(6, 0.3, 1.0, np.random.default_rng(1))
    tr = play(MarginPerceptron(gamma=0.3), stream, rounds=800)
    band = tr.extras["margin_mistake"].astype(bool)
    assert np.array_equal(tr.updated, band | tr.mistakes)
    assert band.sum() > 0 and (band & ~tr.mistakes).sum() > 0  # right, yet in the band
    assert tr.observed("margin_mistake") == band.sum()
    assert tr.bound.value == pytest.approx(12 / 0.3**2) and tr.within_bound


def test_bound_is_not_applicable_when_the_data_margin_is_below_gamma():
    stream = SeparableStream(4, 0.05, 1.0, np.random.default_rng(2))
    tr = play(MarginPerceptron(gamma=0.5), stream, rounds=200)
    assert tr.bound.value == pytest.approx(48.0) and not tr.bound.applies
    assert tr.bound.reason.startswith("margin ≥ γ fails: the data's margin 0.06")
    assert tr.bound.verdict(tr.observed("updates")) is None
    assert "not applicable: margin ≥ γ fails" in str(tr.bound)


def test_a_comparator_is_not_a_separator():
    stream = NoisyStream(4, 0.2, 1.0, np.random.default_rng(2), rate=0.2)
    bound = play(MarginPerceptron(), stream, rounds=50).bound
    assert bound.reason == (
        "realizable fails: the certificate is a comparator, not claimed to separate the rounds"
    )
    assert bound.verdict(0) is None


def test_no_bound_without_a_halfspace_certificate():
    # x and 2x labelled apart: no separator through the origin, so Replay hands none
    replay = Replay(instances=[[1.0, 0.0], [2.0, 0.0]], labels=[1, -1])
    assert play(MarginPerceptron(), replay, rounds=2).bound is None


@pytest.mark.parametrize("gamma", [0.0, -0.1, 1.5])
def test_gamma_must_be_in_zero_one(gamma):
    with pytest.raises(ParameterError, match=r"gamma must be a number in \(0, 1\]") as info:
        MarginPerceptron(gamma=gamma)
    assert (info.value.parameter, info.value.value) == ("gamma", gamma)


@pytest.mark.parametrize("dtype", [bool, np.uint8])
def test_bit_vectors_are_normalised_as_floats(dtype):
    mp = MarginPerceptron()
    x = np.ones(300, dtype=dtype)
    mp.predict(x)
    mp.update(x, 1)
    assert np.linalg.norm(mp.weights) == pytest.approx(1.0)


def test_a_zero_instance_changes_nothing_and_a_second_update_recomputes():
    mp = MarginPerceptron(gamma=0.5)
    z = np.zeros(2)
    mp.predict(z)
    assert mp.update(z, 1) is False and mp.extras() == {"margin_mistake": 1.0}
    x = np.array([1.0, 0.0])
    mp.predict(x)
    assert mp.update(x, 1) is True  # w = e₁
    assert mp.update(x, 1) is False  # w·x/‖w‖ = 1 ≥ γ/2 now
