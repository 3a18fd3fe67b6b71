"""adversaries.streams.SeparableStream: every example in the ball, on its side, with margin."""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from adversaries import SeparableStream
from game import HalfspaceCertificate, ParameterError, play
from learners import Perceptron

# float slack: x is built from a few products and a square root
SLACK = 1e-12


def stream(dimension=3, margin=0.1, radius=1.0, seed=0, **kwargs):
    return SeparableStream(dimension, margin, radius, rng=np.random.default_rng(seed), **kwargs)


def check_examples(s, X, y):
    radius, margin = s.radius, s.margin
    assert X.shape == (len(y), s.dimension)
    assert set(np.unique(y).tolist()) <= {-1, 1}
    norms = np.linalg.norm(X, axis=1)
    assert np.all(norms <= radius * (1 + SLACK)), norms.max()
    along = y * (X @ s.direction)
    assert np.all(along >= margin - SLACK * radius), along.min()
    assert np.all(along <= radius * (1 + SLACK))


@given(
    dimension=st.integers(1, 40),
    share=st.floats(1e-3, 1.0),
    radius=st.floats(1e-3, 1e3),
    seed=st.integers(0, 2**32 - 1),
)
@example(dimension=1, share=1.0, radius=1.0, seed=0)
@example(dimension=2, share=1e-3, radius=1e3, seed=1)
@example(dimension=40, share=0.5, radius=1e-3, seed=2)
def test_every_example_is_in_the_ball_and_separated_with_the_margin(dimension, share, radius, seed):
    s = stream(dimension, share * radius, radius, seed)
    X, y = s.examples(300)
    check_examples(s, X, y)


def test_the_instances_a_game_sees_obey_the_promise_too():
    s = stream(dimension=6, margin=0.3, radius=2.0, seed=4)
    tr = play(Perceptron(), s, rounds=700)
    check_examples(s, np.asarray(tr.instances), tr.labels.astype(int))
    assert tr.certificate_verified is True


@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 700])
def test_examples_n_is_what_a_game_against_a_fresh_stream_sees(n):
    X, y = stream(dimension=5, seed=8).examples(n)
    tr = play(Perceptron(), stream(dimension=5, seed=8), rounds=n)
    assert X.shape == (n, 5) and y.shape == (n,)
    assert np.array_equal(np.asarray(tr.instances).reshape(n, 5), X)
    assert tr.labels.tolist() == y.tolist()


def test_the_same_seed_gives_the_same_stream_and_another_seed_another():
    a, b, c = stream(seed=3), stream(seed=3), stream(seed=4)
    assert np.array_equal(a.direction, b.direction)
    Xa, ya = a.examples(50)
    Xb, yb = b.examples(50)
    Xc, _ = c.examples(50)
    assert np.array_equal(Xa, Xb) and np.array_equal(ya, yb)
    assert not np.array_equal(Xa, Xc)
    ga = play(Perceptron(), stream(seed=3), rounds=300)
    gb = play(Perceptron(), stream(seed=3), rounds=300)
    assert ga.digest == gb.digest


def test_instances_are_read_only_rows_and_labels_python_ints():
    s = stream()
    x = s.instance(None)
    y = s.label(x, 1.0, None)
    assert type(y) is int and y in (-1, 1)
    with pytest.raises(ValueError):
        x[0] = 1.0


def test_labels_are_balanced_and_margins_spread_over_the_interval():
    s = stream(dimension=4, margin=0.2, radius=1.0, seed=12)
    X, y = s.examples(4000)
    assert 0.45 < np.mean(y == 1) < 0.55
    along = y * (X @ s.direction)
    # a is uniform on [0.2, 1]: mean 0.6
    assert abs(along.mean() - 0.6) < 0.02
    assert along.min() < 0.21 and along.max() > 0.99


def test_the_orthogonal_part_fills_its_ball():
    # in d = 3, v is uniform in a disc of radius √(R² − a²): half of the draws lie
    # beyond 1/√2 of that radius
    s = stream(dimension=3, margin=0.5, radius=1.0, seed=21)
    X, y = s.examples(4000)
    a = y * (X @ s.direction)
    v = X - (X @ s.direction)[:, None] * s.direction
    ratio = np.linalg.norm(v, axis=1) / np.sqrt(1.0 - a**2)
    assert abs(np.mean(ratio > 2**-0.5) - 0.5) < 0.03
    assert np.all(np.abs(v @ s.direction) < 1e-12)


def test_dimension_one_works():
    s = stream(dimension=1, margin=0.25, radius=2.0, seed=5)
    assert abs(s.direction[0]) == 1.0
    X, y = s.examples(300)
    check_examples(s, X, y)
    tr = play(Perceptron(), stream(dimension=1, margin=0.25, radius=2.0, seed=5), rounds=300)
    assert tr.certificate_verified is True
    assert tr.observed("updates") <= tr.bound.value


def test_margin_equal_to_radius_puts_every_example_at_distance_radius():
    s = stream(dimension=3, margin=0.5, radius=0.5, seed=6)
    X, y = s.examples(100)
    assert np.allclose(X, 0.5 * y[:, None] * s.direction)


def test_a_given_direction_is_normalised_and_certified():
    s = stream(dimension=2, direction=[3.0, 4.0])
    assert s.direction.tolist() == pytest.approx([0.6, 0.8])
    cert = s.certificate()
    assert isinstance(cert, HalfspaceCertificate) and cert.realizable
    assert np.array_equal(cert.weights, s.direction)
    X, y = s.examples(200)
    check_examples(s, X, y)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"margin": 1.5, "radius": 1.0}, "margin"),
        ({"margin": 0.0}, "margin"),
        ({"margin": -0.1}, "margin"),
        ({"margin": float("nan")}, "margin"),
        ({"radius": 0.0, "margin": 0.1}, "radius"),
        ({"radius": float("inf")}, "radius"),
        ({"dimension": 0}, "dimension"),
        ({"dimension": -3}, "dimension"),
        ({"dimension": 2.0}, "dimension"),
        ({"dimension": True}, "dimension"),
        ({"rng": 0}, "rng"),
        ({"direction": [1.0, 0.0]}, "direction"),
        ({"direction": [0.0, 0.0, 0.0]}, "direction"),
        ({"direction": [[1.0, 0.0, 0.0]]}, "direction"),
        ({"direction": ["x", 1.0, 0.0]}, "direction"),
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(kwargs, name):
    args = {"dimension": 3, "margin": 0.1, "radius": 1.0, "rng": np.random.default_rng(0)}
    with pytest.raises(ParameterError) as info:
        SeparableStream(**(args | kwargs))
    assert str(info.value).startswith(f"{name} must"), str(info.value)
    assert info.value.parameter == name
