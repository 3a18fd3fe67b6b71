"""Online Gradient Descent on §21.4's hinge surrogates."""

import numpy as np
import pytest

from adversaries import NoisyStream, Replay, SeparableStream
from game import ParameterError, play
from game.theory.bounds import ogd_regret
from learners import OnlineGradientDescent, Perceptron


def test_first_round_subgradient_is_minus_y_x():
    ogd = OnlineGradientDescent(eta=0.25)
    x = np.array([2.0, -1.0])
    assert ogd.predict(x) == 1.0  # w₁ = 0, sign(0) = +1
    assert ogd.update(x, -1) is True  # y·w·x = 0 ≤ 0: v = −y·x = x, w = −η·x
    np.testing.assert_allclose(ogd.weights, [-0.5, 0.25])
    assert ogd.extras() == {"surrogate": 1.0}  # f₁(w₁) = max(0, 1 − 0)
    assert ogd.predict(x) == -1.0
    assert ogd.update(x, -1) is False and ogd.extras() == {"surrogate": 0.0}


def test_surrogate_is_the_hinge_of_the_current_weights_on_update_rounds():
    X = np.array([[1.0, 0.0], [0.2, 1.0], [-1.0, 0.5], [1.0, 1.0]])
    tr = play(OnlineGradientDescent(eta=0.5), Replay(instances=X, labels=[1, -1, 1, -1]), rounds=4)
    w = np.zeros(2)
    for t, (x, y) in enumerate(zip(X, [1, -1, 1, -1], strict=True)):
        score = y * float(w @ x)
        expected = 1.0 - score if score <= 0 else 0.0
        assert tr.extras["surrogate"][t] == pytest.approx(expected)
        if score <= 0:
            w = w + 0.5 * y * x


@pytest.mark.parametrize("eta", [1e-6, 0.1, 1.0, 37.0])
def test_weights_are_eta_times_the_perceptrons(eta):
    stream = NoisyStream(7, 0.05, 1.0, np.random.default_rng(2), rate=0.1)
    X, y = stream.examples(400)
    ogd, perceptron = OnlineGradientDescent(eta=eta), Perceptron()
    for x, label in zip(X, y.tolist(), strict=True):
        assert ogd.predict(x) == perceptron.predict(x)
        assert ogd.update(x, label) == perceptron.update(x, label)
    np.testing.assert_allclose(ogd.weights, eta * perceptron.weights, rtol=1e-12)


def test_regret_bound_holds_on_a_noisy_stream():
    stream = NoisyStream(5, 0.1, 1.0, np.random.default_rng(0), rate=0.1, noise="margin")
    tr = play(OnlineGradientDescent(eta=0.2, theorem="regret"), stream, rounds=600)
    assert tr.bound.quantity == "surrogate" and "Theorem 21.15" in tr.bound.source
    assert tr.within_bound
    # the comparator scaling is the best one: no other scaling gives less
    X = np.asarray(tr.instances)
    u = tr.certificate.weights
    m = tr.labels * (X @ u)
    updated = tr.updated
    g = float(np.sum(np.linalg.norm(X[updated], axis=1) ** 2))
    for c in (0.0, 0.5, 1.0, 3.0, 10.0):
        assert tr.bound.value <= ogd_regret(0.2, m[updated], g, scale=c).value + 1e-9


def test_mistakes_theorem_is_section_21_4s():
    stream = SeparableStream(5, 0.1, 1.0, np.random.default_rng(0))
    tr = play(OnlineGradientDescent(eta=3.0), stream, rounds=600)
    assert "Theorem 21.16" in tr.bound.source and tr.bound.quantity == "updates"
    assert tr.within_bound


def test_no_bound_without_a_certificate():
    # x and 2x labelled apart: no separator through the origin, so Replay hands none
    replay = Replay(instances=[[1.0, 0.0], [2.0, 0.0]], labels=[1, -1])
    tr = play(OnlineGradientDescent(), replay, rounds=2)
    assert tr.certificate is None and tr.bound is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"eta": 0.0}, "eta must be a number > 0, got 0.0"),
        ({"eta": -1}, "eta must be a number > 0, got -1"),
        ({"theorem": "loss"}, "theorem must be one of 'mistakes', 'regret', got 'loss'"),
    ],
)
def test_parameters_are_validated(kwargs, message):
    with pytest.raises(ParameterError, match=message) as info:
        OnlineGradientDescent(**kwargs)
    assert info.value.parameter == next(iter(kwargs))


def test_a_zero_instance_is_no_update_but_its_surrogate_counts():
    ogd = OnlineGradientDescent()
    z = np.zeros(2)
    ogd.predict(z)
    assert ogd.update(z, 1) is False and ogd.extras() == {"surrogate": 1.0}
    x = np.array([1.0, 0.0])
    ogd.predict(x)
    assert ogd.update(x, -1) is True
    assert ogd.update(x, -1) is False  # the second update sees the new w
