"""The orthogonal adversary forces d = 1/γ² mistakes: Block–Novikoff is tight."""

import math

import numpy as np
import pytest

from adversaries import OrthogonalAdversary
from game import play
from game.players import learners_for, lookup
from game.testing import RandomLearner

DETERMINISTIC_VECTOR_LEARNERS = learners_for("vector", deterministic=True)


def test_the_linear_learners_are_among_the_deterministic_vector_learners():
    assert {
        "perceptron",
        "online-gradient-descent",
        "margin-perceptron",
        "batch-perceptron",
    } <= set(DETERMINISTIC_VECTOR_LEARNERS)


@pytest.mark.parametrize("name", DETERMINISTIC_VECTOR_LEARNERS)
@pytest.mark.parametrize("d", [1, 2, 7, 25])
def test_every_deterministic_vector_learner_makes_exactly_d_mistakes(name, d):
    tr = play(lookup(name)(), OrthogonalAdversary(d), rounds=10 * d)
    assert len(tr) == d
    assert tr.observed("mistakes") == d
    assert tr.certificate_verified is True
    assert tr.lower_bound.value == d and tr.summary()["forced"] is True


@pytest.mark.parametrize("d", [1, 4, 10, 16])
def test_the_perceptron_bound_is_met_with_equality(d):
    tr = play(lookup("perceptron")(), OrthogonalAdversary(d), rounds=d)
    assert tr.observed("updates") == d
    assert tr.bound.value == pytest.approx(d, rel=1e-12)  # (R/γ)² = 1/(1/√d)² = d
    assert tr.within_bound


def test_certificate_is_a_unit_vector_with_margin_one_over_sqrt_d():
    adversary = OrthogonalAdversary(9)
    tr = play(RandomLearner(np.random.default_rng(0)), adversary, rounds=9)
    u = tr.certificate.weights
    assert np.linalg.norm(u) == pytest.approx(1.0)
    np.testing.assert_allclose(u, tr.labels / 3.0)
    assert tr.certificate.margin(tr.instances, tr.labels) == pytest.approx(1 / 3)
    assert tr.observed("mistakes") == 9  # randomised learners too: the label answers p


def test_a_game_cut_short_forces_its_rounds_and_keeps_a_unit_certificate():
    tr = play(lookup("perceptron")(), OrthogonalAdversary(10), rounds=4)
    assert tr.observed("mistakes") == 4 and tr.lower_bound.value == 4
    assert np.linalg.norm(tr.certificate.weights) == pytest.approx(1.0)
    assert tr.certificate.margin(tr.instances, tr.labels) == pytest.approx(1 / math.sqrt(10))


def test_instances_are_the_standard_basis_and_read_only():
    adversary = OrthogonalAdversary(3)
    rows = [adversary.instance(None)]
    assert rows[0].tolist() == [1.0, 0.0, 0.0] and not rows[0].flags.writeable
    adversary.label(rows[0], 0.0, None)
    assert adversary.instance(None).tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("d", [0, -2, 2.5])
def test_dimension_is_validated(d):
    with pytest.raises((TypeError, ValueError), match="dimension must be an integer"):
        OrthogonalAdversary(d)


def test_dimension_is_capped():
    with pytest.raises(ValueError, match="between 1 and 4096"):
        OrthogonalAdversary(10**12)
