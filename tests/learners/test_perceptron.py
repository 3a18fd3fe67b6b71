"""learners.perceptron: every source's convention on hand-made sequences.

The sequence below is worked by hand for each (zero_label, update) pair; the
expected columns are what the sources' pseudo-code gives, round by round.
"""

import math

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import ParameterError, play
from game.theory.bounds import block_novikoff
from learners import Perceptron

X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0], [0.0, 2.0]]
Y = [1, -1, 1, -1, -1]

# (zero_label, update): predictions, mistakes, updated, w after each round's update
HAND = {
    # Abernethy lecture 16 (004), §21.4 (000): +1 on zero, update when y·w·x ≤ 0
    (1, "nonpositive"): (
        [1, 1, 1, -1, 1],
        [0, 1, 0, 0, 1],
        [1, 1, 1, 0, 1],
        [[1, 0], [1, -1], [2, 0], [2, 0], [2, -2]],
    ),
    # CS229 notes (001): +1 on zero, update on mistakes
    (1, "mistake"): (
        [1, 1, -1, -1, 1],
        [0, 1, 1, 0, 1],
        [0, 1, 1, 0, 1],
        [[0, 0], [0, -1], [1, 0], [1, 0], [1, -2]],
    ),
    # Balcan lecture 3 (003) without normalising: -1 on zero, update on mistakes
    (-1, "mistake"): (
        [-1, -1, 1, -1, -1],
        [1, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
        [[1, 0], [1, 0], [1, 0], [1, 0], [1, 0]],
    ),
    # -1 on zero, update when y·w·x ≤ 0
    (-1, "nonpositive"): (
        [-1, -1, -1, -1, -1],
        [1, 0, 1, 0, 0],
        [1, 1, 1, 0, 1],
        [[1, 0], [1, -1], [2, 0], [2, 0], [2, -2]],
    ),
}


@pytest.mark.parametrize(("zero_label", "rule"), list(HAND))
def test_each_convention_by_hand(zero_label, rule):
    predictions, _, updated, weights = HAND[(zero_label, rule)]
    p = Perceptron(zero_label=zero_label, update=rule)
    for t, (x, y) in enumerate(zip(X, Y, strict=True)):
        x = np.array(x)
        got = p.predict(x)
        assert type(got) is float and got == predictions[t], f"round {t + 1}"
        assert p.update(x, y) is bool(updated[t]), f"round {t + 1}"
        assert p.weights.tolist() == weights[t], f"round {t + 1}"


@pytest.mark.parametrize(("zero_label", "rule"), list(HAND))
def test_each_convention_in_a_game(zero_label, rule):
    predictions, mistakes, updated, weights = HAND[(zero_label, rule)]
    tr = play(
        Perceptron(zero_label=zero_label, update=rule),
        Replay(instances=X, labels=Y),
        rounds=10,
        snapshots=True,
    )
    assert tr.predictions.tolist() == predictions
    assert tr.mistakes.astype(int).tolist() == mistakes
    assert tr.updated.astype(int).tolist() == updated
    assert [np.asarray(w).tolist() for w in tr.snapshots["w"]] == weights
    assert tr.snapshot("norm2").tolist() == [float(np.dot(w, w)) for w in weights]


def test_the_default_is_lecture_16():
    p = Perceptron()
    assert (p.zero_label, p.update_rule, p.normalize, p.dimension) == (
        1,
        "nonpositive",
        False,
        None,
    )


def test_normalize_scales_each_instance_to_unit_length():
    # Balcan lecture 3 (003): -1 on zero, update on mistakes, unit-length examples
    p = Perceptron(zero_label=-1, update="mistake", normalize=True)
    assert p.predict(np.array([3.0, 4.0])) == -1.0
    assert p.update(np.array([3.0, 4.0]), 1) is True
    assert p.weights == pytest.approx([0.6, 0.8])
    assert p.predict(np.array([0.0, -2.0])) == -1.0  # w·x/‖x‖ = -0.8
    assert p.update(np.array([0.0, -2.0]), 1) is True
    assert p.weights == pytest.approx([0.6, -0.2])
    # a zero instance is used as it is: score 0, predicted -1, right, no update
    assert p.predict(np.zeros(2)) == -1.0
    assert p.update(np.zeros(2), -1) is False
    assert p.weights == pytest.approx([0.6, -0.2])


def test_normalize_changes_the_weights_not_the_signs():
    rng = np.random.default_rng(5)
    Xs = rng.standard_normal((40, 3)) * rng.uniform(0.1, 10, (40, 1))
    ys = np.where(Xs @ np.array([1.0, -2.0, 0.5]) >= 0, 1, -1)
    plain, unit = Perceptron(), Perceptron(normalize=True)
    for x, y in zip(Xs, ys, strict=True):
        plain.predict(x), plain.update(x, int(y))
        unit.predict(x), unit.update(x, int(y))
    expected = Perceptron()
    for x, y in zip(Xs / np.linalg.norm(Xs, axis=1)[:, None], ys, strict=True):
        expected.predict(x), expected.update(x, int(y))
    assert unit.weights == pytest.approx(expected.weights)
    assert not np.allclose(plain.weights, unit.weights)


class Counting(np.ndarray):
    """An instance that counts the dot products (``numpy.vdot``) it takes part in."""

    products = 0

    def __array_function__(self, func, types, args, kwargs):
        if func is np.vdot:
            Counting.products += 1
        return super().__array_function__(func, types, args, kwargs)


def counting(values):
    Counting.products = 0
    return np.asarray(values, dtype=float).view(Counting)


def test_update_on_the_predicted_object_reuses_its_score():
    p = Perceptron(dimension=2)
    x = counting([1.0, 2.0])
    p.predict(x)
    assert Counting.products == 1
    assert p.update(x, 1) is True  # score 0 from predict: y·w·x ≤ 0
    assert Counting.products == 1
    assert p.weights.tolist() == [1.0, 2.0]


def test_update_on_another_object_recomputes_the_score():
    p = Perceptron()
    p.update(np.array([1.0, 0.0]), 1)  # w = (1, 0)
    a, b = counting([1.0, 0.0]), np.asarray([-1.0, 0.0]).view(Counting)
    assert p.predict(a) == 1.0  # score +1
    assert p.update(b, 1) is True  # recomputed: score -1, y·w·x < 0
    assert Counting.products == 2
    assert p.weights.tolist() == [0.0, 0.0]
    c = a.copy()  # equal values, another object: recomputed too
    p.predict(a)
    p.update(c, 1)
    assert Counting.products == 4


def test_update_without_predict_works():
    p = Perceptron()
    assert p.update(np.array([2.0, -1.0]), -1) is True
    assert p.weights.tolist() == [-2.0, 1.0]
    assert p.predict(np.array([2.0, -1.0])) == -1.0


def test_a_second_update_on_the_same_object_sees_the_new_weights():
    p = Perceptron()
    x = np.array([1.0, 0.0])
    p.predict(x)
    assert p.update(x, -1) is True  # w = (-1, 0)
    assert p.update(x, -1) is False  # y·w·x = 1 > 0: no update
    assert p.weights.tolist() == [-1.0, 0.0]


def test_a_zero_instance_changes_nothing_and_says_so():
    p = Perceptron(dimension=2)
    z = np.zeros(2)
    p.predict(z)
    assert p.update(z, 1) is False


def test_weights_are_a_copy_and_dimension_fixes_their_size():
    assert Perceptron().weights.shape == (0,)
    p = Perceptron(dimension=3)
    assert p.weights.tolist() == [0.0, 0.0, 0.0]
    p.weights[0] = 5.0
    assert p.weights.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError):
        p.predict(np.ones(2))


def test_bit_instances():
    p = Perceptron()
    x = np.array([True, False, True])
    assert p.predict(x) == 1.0
    assert p.update(x, -1) is True
    assert p.weights.tolist() == [-1.0, 0.0, -1.0]
    assert p.predict(x) == -1.0


def test_normalize_scales_bit_instances_to_unit_length_too():
    p = Perceptron(normalize=True)
    x = np.array([True, True, False, True])
    p.predict(x)
    p.update(x, 1)
    assert p.weights == pytest.approx(np.array([1.0, 1.0, 0.0, 1.0]) / math.sqrt(3.0))


def test_snapshot_is_the_squared_norm_and_the_weights():
    p = Perceptron()
    p.update(np.array([3.0, 4.0]), 1)
    snap = p.snapshot()
    assert snap["norm2"] == 25.0 and snap["w"].tolist() == [3.0, 4.0]
    snap["w"][0] = 0.0
    assert p.weights.tolist() == [3.0, 4.0]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"zero_label": 0},
        {"zero_label": 2},
        {"zero_label": True},
        {"update": "always"},
        {"update": None},
        {"normalize": 1},
        {"normalize": "yes"},
        {"dimension": 0},
        {"dimension": 2.0},
        {"dimension": True},
    ],
    ids=repr,
)
def test_validation_errors_name_the_parameter(kwargs):
    with pytest.raises(ParameterError) as info:
        Perceptron(**kwargs)
    ((name, value),) = kwargs.items()
    assert (info.value.parameter, info.value.value) == (name, value)
    msg = str(info.value)
    assert msg.startswith(f"{name} must be"), msg
    assert msg.endswith(f"got {value!r}"), msg


def test_numpy_values_are_accepted():
    p = Perceptron(zero_label=np.int8(-1), normalize=np.True_, dimension=np.int64(3))
    assert (p.zero_label, p.normalize) == (-1, True)


def stream_game(normalize=False, **kwargs):
    stream = SeparableStream(4, margin=0.2, radius=2.0, rng=np.random.default_rng(11))
    return play(Perceptron(normalize=normalize, **kwargs), stream, rounds=400)


@pytest.mark.parametrize("normalize", [False, True])
def test_mistake_bound_is_block_novikoff_on_the_rounds_played(normalize):
    tr = stream_game(normalize)
    X = np.asarray(tr.instances)
    norms = np.linalg.norm(X, axis=1)
    if normalize:
        X = X / norms[:, None]
        norms = np.ones(len(X))
    u = tr.certificate.weights / np.linalg.norm(tr.certificate.weights)
    gamma = float(np.min(tr.labels * (X @ u)))
    assert tr.bound.value == pytest.approx((norms.max() / gamma) ** 2, rel=1e-9)
    assert tr.bound.quantity == "updates" and tr.bound.kind == "upper"
    assert tr.summary()["within_bound"] is True
    assert tr.observed("mistakes") <= tr.observed("updates") <= tr.bound.value


def test_no_bound_without_a_halfspace_certificate_or_without_rounds():
    # x and 2x labelled apart: no separator through the origin, so Replay hands none
    X_, Y_ = [[1.0, 0.0], [2.0, 0.0]], [1, -1]
    assert play(Perceptron(), Replay(instances=X_, labels=Y_), rounds=2).bound is None
    empty = Replay(instances=np.empty((0, 2)), labels=[], separator=[1.0, 1.0])
    assert play(Perceptron(), empty, rounds=5).bound is None


def test_a_pasteable_separable_game_and_its_bound():
    # w* = (1, 1) separates with margin min y·(u·x) = 1/√2 (rounds 1 and 2); R = √5
    X_ = [[1.0, 0.0], [0.0, 1.0], [-1.0, -2.0], [2.0, 1.0]]
    tr = play(Perceptron(), Replay(instances=X_, labels=[1, 1, -1, 1], separator=[1, 1]), rounds=4)
    assert tr.certificate_verified is True
    assert tr.bound.value == pytest.approx(10.0, rel=1e-12)
    assert tr.bound.value == pytest.approx(block_novikoff(math.sqrt(5.0), 2**-0.5).value)
    assert tr.bound.quantity == "updates"
    assert tr.updated.tolist() == [True, True, False, False]
    assert tr.observed("updates") <= tr.bound.value
