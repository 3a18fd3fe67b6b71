"""The noisy stream: SeparableStream's draws with labels flipped or points pushed inside."""

import numpy as np
import pytest

from adversaries import NoisyStream, SeparableStream
from game import ParameterError, play
from learners import Perceptron


def _stream(**kwargs):
    return NoisyStream(6, 0.2, 1.5, np.random.default_rng(11), **kwargs)


def test_clean_examples_are_the_separable_streams_draws():
    # draw_noisy draws the clean block first with SeparableStream.draw, then the noise
    noisy = _stream(rate=0.3)
    clean = SeparableStream(6, 0.2, 1.5, np.random.default_rng(11))
    X, y, corrupted = noisy.draw_noisy(256)
    Xc, yc = clean.draw(256)
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(y[~corrupted], yc[~corrupted])
    np.testing.assert_array_equal(y[corrupted], -yc[corrupted])


def test_rate_and_noise_do_not_change_the_clean_examples():
    a = _stream(rate=0.1, noise="flip").draw_noisy(500)
    b = _stream(rate=0.4, noise="margin").draw_noisy(500)
    both_clean = ~a[2] & ~b[2]
    assert both_clean.sum() > 200
    np.testing.assert_array_equal(a[0][both_clean], b[0][both_clean])
    np.testing.assert_array_equal(a[1][both_clean], b[1][both_clean])


def test_margin_noise_pushes_points_inside_the_band_and_keeps_the_ball():
    stream = _stream(rate=0.5, noise="margin")
    X, y, corrupted = stream.draw_noisy(1000)
    m = y * (X @ stream.direction)
    assert np.all(m[~corrupted] >= 0.2)
    assert np.all((m[corrupted] >= -0.2) & (m[corrupted] < 0.2))
    assert np.all(np.linalg.norm(X, axis=1) <= 1.5 + 1e-12)
    assert 400 < corrupted.sum() < 600


@pytest.mark.parametrize("rate", [0.0, 1.0])
def test_extreme_rates(rate):
    stream = _stream(rate=rate)
    X, y, corrupted = stream.draw_noisy(300)
    assert corrupted.all() if rate == 1.0 else not corrupted.any()
    m = y * (X @ stream.direction)
    assert np.all(m <= -0.2) if rate == 1.0 else np.all(m >= 0.2)


def test_game_logs_corrupted_rounds_and_hands_over_a_comparator():
    stream = _stream(rate=0.2)
    tr = play(Perceptron(), stream, rounds=600)
    fresh = _stream(rate=0.2)
    flags = np.concatenate([fresh.draw_noisy(256)[2] for _ in range(3)])[:600]
    np.testing.assert_array_equal(tr.extras["corrupted"].astype(bool), flags)
    assert tr.certificate.realizable is False and tr.certificate_verified is None
    np.testing.assert_array_equal(tr.certificate.weights, stream.direction)
    assert tr.within_bound


def test_examples_match_the_game():
    tr = play(Perceptron(), _stream(rate=0.25, noise="margin"), rounds=300)
    X, y = _stream(rate=0.25, noise="margin").examples(300)
    np.testing.assert_array_equal(np.asarray(tr.instances), X)
    np.testing.assert_array_equal(tr.labels, y)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rate": 1.5}, r"rate must be a number in \[0, 1\], got 1.5"),
        ({"rate": -0.1}, r"rate must be a number in \[0, 1\]"),
        ({"noise": "swap"}, "noise must be one of 'flip', 'margin', got 'swap'"),
    ],
)
def test_parameters_are_validated(kwargs, message):
    with pytest.raises(ParameterError, match=message) as info:
        _stream(**kwargs)
    assert info.value.parameter == next(iter(kwargs))
