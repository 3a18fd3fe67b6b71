"""The Perceptron's conventions, lecture 003's normalisation, its bounds, and a peer."""

import numpy as np
import pytest

from adversaries import NoisyStream, Replay, SeparableStream
from game import HalfspaceCertificate, play
from game.theory.bounds import balcan_nonseparable, block_novikoff
from learners import Perceptron
from learners.perceptron import comparator_bounds, instances_as_used, tightest

X0 = np.array([1.0, 0.0])


@pytest.mark.parametrize(
    ("zero_label", "update", "label", "prediction", "updated"),
    [
        # a zero score (w = 0): the prediction is zero_label; the update rule decides
        (1, "nonpositive", 1, 1.0, True),  # 004 / §21.4: y·w·x = 0 ≤ 0 updates, right or not
        (1, "nonpositive", -1, 1.0, True),
        (1, "mistake", 1, 1.0, False),  # CS229: right, no update
        (1, "mistake", -1, 1.0, True),
        (-1, "mistake", -1, -1.0, False),  # Balcan 003: predict + only when w·x > 0
        (-1, "mistake", 1, -1.0, True),
        (-1, "nonpositive", -1, -1.0, True),
    ],
)
def test_zero_score_conventions(zero_label, update, label, prediction, updated):
    p = Perceptron(zero_label=zero_label, update=update)
    assert p.predict(X0) == prediction
    assert p.update(X0, label) is updated
    assert p.weights.tolist() == ([label * 1.0, 0.0] if updated else [0.0, 0.0])


def test_normalize_scales_every_instance_to_unit_length_as_lecture_003():
    p = Perceptron(zero_label=-1, update="mistake", normalize=True)
    x = np.array([3.0, 4.0])
    assert p.predict(x) == -1.0
    assert p.update(x, 1)
    np.testing.assert_allclose(p.weights, [0.6, 0.8])
    # a second, longer instance on the wrong side adds only its direction
    z = np.array([0.0, -10.0])
    assert p.predict(z) == -1.0 and not p.update(z, -1)
    assert p.update(np.array([-20.0, 0.0]), 1) is True
    np.testing.assert_allclose(p.weights, [-0.4, 0.8])


def test_normalize_leaves_a_zero_instance_as_it_is():
    p = Perceptron(normalize=True)
    assert p.update(np.zeros(3), 1) is False  # y·w·x = 0: the rule fires, but w stays 0
    assert p.weights.tolist() == [0.0, 0.0, 0.0]


def test_normalized_bound_measures_the_margin_on_unit_length_instances():
    X = np.array([[2.0, 0.0], [0.0, 0.5]])
    tr = play(
        Perceptron(normalize=True), Replay(instances=X, labels=[1, 1], separator=[1, 1]), rounds=2
    )
    # unit instances (1, 0) and (0, 1): γ = 1/√2 for u = (1, 1)/√2, R = 1
    assert tr.bound.value == pytest.approx(2.0)
    Xu, norms = instances_as_used(tr, normalize=True)
    np.testing.assert_allclose(norms, [1.0, 1.0])
    np.testing.assert_allclose(Xu, np.eye(2))


def test_realizable_bound_is_block_novikoff():
    stream = SeparableStream(8, 0.2, 2.0, np.random.default_rng(3))
    tr = play(Perceptron(), stream, rounds=500)
    assert tr.bound.source == block_novikoff(1.0, 1.0).source
    assert tr.within_bound and tr.observed("updates") <= tr.bound.value


@pytest.mark.parametrize("normalize", [False, True])
def test_comparator_gives_the_tightest_non_separable_bound(normalize):
    stream = NoisyStream(6, 0.1, 1.0, np.random.default_rng(4), rate=0.05)
    tr = play(Perceptron(normalize=normalize), stream, rounds=800)
    assert tr.certificate.realizable is False and tr.certificate_verified is None
    bounds = comparator_bounds(tr, normalize=normalize)
    assert len(bounds) == 2 and all(b.applies for b in bounds)  # R ≤ 1: Balcan's and §21.4's
    assert tr.bound == tightest(bounds) == min(bounds, key=lambda b: b.value)
    assert all(b.holds(tr.observed("updates")) for b in bounds)


def test_balcan_bound_needs_instances_in_the_unit_ball():
    stream = NoisyStream(4, 0.2, 3.0, np.random.default_rng(5), rate=0.1)
    tr = play(Perceptron(), stream, rounds=300)
    balcan, hinge = comparator_bounds(tr)
    assert balcan.source.startswith("Balcan lecture 3") and not balcan.applies
    assert balcan.reason.startswith("norms ≤ 1 fails: R = 2.99")  # radius 3
    assert balcan.verdict(tr.observed("updates")) is None  # not applicable, never "holds"
    assert hinge.source.startswith("Shalev-Shwartz & Ben-David §21.4") and hinge.applies
    assert tr.bound == hinge  # the tightest bound that applies
    # normalising brings them back to the unit sphere
    stream = NoisyStream(4, 0.2, 3.0, np.random.default_rng(5), rate=0.1)
    tr = play(Perceptron(normalize=True), stream, rounds=300)
    assert all(b.applies for b in comparator_bounds(tr, normalize=True))


def test_no_bound_without_a_halfspace_certificate():
    # x and 2x labelled apart: no separator through the origin, so Replay hands none
    X = [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1]), rounds=3)
    assert tr.certificate is None and tr.bound is None
    assert comparator_bounds(tr) == []


def test_balcan_bound_by_hand():
    # margins 0.5, 0.5 and one point 0.3 on the wrong side: at γ = 0.5, TD = 0.8
    b = balcan_nonseparable([0.5, 0.5, -0.3], gamma=0.5)
    assert b.value == pytest.approx(4 + 4 * 0.8)
    assert balcan_nonseparable([0.5, 0.5, -0.3]).value <= b.value


def test_weights_match_scikit_learn_after_every_round():
    sklearn = pytest.importorskip("sklearn.linear_model")
    stream = NoisyStream(5, 0.1, 1.0, np.random.default_rng(3), rate=0.1)
    X, y = stream.examples(300)
    peer = sklearn.Perceptron(penalty=None, alpha=0, fit_intercept=False, eta0=1, shuffle=False)
    ours = Perceptron(zero_label=-1, update="nonpositive")
    updates = 0
    for t, (x, label) in enumerate(zip(X, y.tolist(), strict=True), 1):
        prediction = ours.predict(x)
        if t > 1:
            assert peer.predict(x[None])[0] == prediction, f"round {t}"
        updates += ours.update(x, label)
        peer.partial_fit(x[None], [label], classes=[-1, 1])
        np.testing.assert_allclose(peer.coef_[0], ours.weights, rtol=0, atol=1e-12)
    assert updates > 10  # the comparison saw many updates, some on noisy rounds


def test_certificate_can_be_passed_explicitly():
    tr = play(Perceptron(), Replay(instances=np.eye(2), labels=[1, 1]), rounds=2)
    (b1, b2) = comparator_bounds(tr, HalfspaceCertificate([1.0, 1.0], realizable=False))
    assert b1.holds(2) and b2.holds(2)


@pytest.mark.parametrize("dtype", [bool, np.uint8])
def test_normalize_handles_bit_vectors_without_integer_wraparound(dtype):
    x = np.ones(300, dtype=dtype)  # x·x = 300: a uint8 or bool dot product would wrap
    p = Perceptron(normalize=True)
    p.predict(x)
    p.update(x, -1)
    assert np.linalg.norm(p.weights) == pytest.approx(1.0)


@pytest.mark.parametrize("normalize", [False, True])
def test_a_second_update_on_the_same_object_recomputes_the_score(normalize):
    p = Perceptron(normalize=normalize)
    x = np.array([2.0, 0.0])
    p.predict(x)
    assert p.update(x, -1) is True
    assert p.update(x, -1) is False  # y·w·x > 0 now
    assert p.weights.tolist() == [-1.0 if normalize else -2.0, 0.0]
