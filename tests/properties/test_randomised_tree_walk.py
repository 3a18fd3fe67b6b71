"""A shattered tree walked against the likelier label: depth/2 expected mistakes, any learner."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import game
from adversaries import TreeAdversary
from game.errors import ParameterError
from game.testing.strategies import any_finite_class
from game.theory.littlestone import ldim
from game.theory.solve import expected_mistakes
from learners import ExponentialWeights, Halving, RandomizedWeightedMajority, WeightedMajority

classes = any_finite_class(max_hypotheses=30, max_points=6)


def _learners(seed: int, beta: float, eta: float):
    return {
        "randomized-weighted-majority": RandomizedWeightedMajority(
            beta=beta, rng=np.random.default_rng(seed)
        ),
        "exponential-weights": ExponentialWeights(eta=eta, loss="absolute"),
        "weighted-majority": WeightedMajority(beta=beta),
        "halving": Halving(),
    }


@given(
    classes,
    st.integers(0, 2**16),
    st.floats(0.05, 0.95),
    st.floats(0.05, 4.0),
)
def test_every_learner_errs_depth_over_two_in_expectation(cls, seed, beta, eta):
    depth = ldim(cls)
    for name, learner in _learners(seed, beta, eta).items():
        walk = TreeAdversary(concept_class=cls, advice=True, randomised=True)
        tr = game.play(learner, walk, rounds=depth + 5)
        exact = expected_mistakes(tr.predictions, tr.labels)
        # every round costs (1 + |p|)/2 ≥ 1/2, computed exactly from the declared mixture
        per_round = [(1 + abs(Fraction(float(p)))) / 2 for p in tr.predictions]
        assert exact == sum(per_round, Fraction(0)), name
        assert len(tr) == depth, name
        assert exact >= Fraction(depth, 2), name
        assert tr.observed("expected mistakes") == float(exact), name
        assert tr.lower_bound.value == depth / 2
        assert tr.lower_bound.applies, (name, tr.lower_bound.reason)
        assert tr.summary()["certificate_verified"] is True, name


def test_a_deterministic_learner_is_charged_its_mistakes():
    from game.theory.concepts import intervals

    H = intervals(16)
    tr = game.play(Halving(), TreeAdversary(concept_class=H, advice=True), rounds=50)
    assert tr.observed("expected mistakes") == tr.observed("mistakes") == ldim(H)
    assert tr.lower_bound.quantity == "mistakes"
    assert tr.certificate.describe() == f"expert {tr.certificate.expert} of {H.n_hypotheses}"


def test_the_deterministic_bound_does_not_apply_to_a_randomised_learner_but_the_expected_does():
    from game.theory.concepts import thresholds

    H = thresholds(15)
    rwm = RandomizedWeightedMajority(rng=np.random.default_rng(3))
    plain = game.play(rwm, TreeAdversary(concept_class=H, advice=True), rounds=20)
    assert not plain.lower_bound.applies
    assert "randomises" in plain.lower_bound.reason
    rwm = RandomizedWeightedMajority(rng=np.random.default_rng(3))
    walk = TreeAdversary(concept_class=H, advice=True, randomised=True)
    tr = game.play(rwm, walk, rounds=20)
    assert tr.lower_bound.applies
    assert tr.summary()["forced"] is True


def test_a_transcript_of_the_expected_walk_reads_back_with_its_verdict(tmp_path):
    from game.theory.concepts import intervals

    H = intervals(8)
    rwm = RandomizedWeightedMajority(rng=np.random.default_rng(1))
    walk = TreeAdversary(concept_class=H, advice=True, randomised=True)
    path = tmp_path / "walk.jsonl"
    tr = game.play(rwm, walk, rounds=20, out=path)
    back = game.Transcript.load(path)
    assert back.lower_bound.applies
    assert back.observed("expected mistakes") == tr.observed("expected mistakes")
    assert back.digest == tr.digest


def test_advice_needs_the_class_of_points():
    from game.theory.littlestone import halfspace_tree

    with pytest.raises(ParameterError, match="advice"):
        TreeAdversary(tree=halfspace_tree(3), advice=True)


def test_the_walk_of_points_shown_as_advice_is_checked_against_the_class_columns():
    from game.theory.concepts import intervals

    pytest.importorskip("matplotlib")
    from game.viz.plots._tree import tree_path

    H = intervals(8)
    walk = TreeAdversary(concept_class=H, advice=True)
    tr = game.play(Halving(), walk, rounds=20)
    path = tree_path(walk.tree, transcript=tr, matrix=H.matrix)
    assert len(path) == len(tr) + 1
    with pytest.raises(ParameterError, match="did not walk this tree"):
        tree_path(walk.tree, transcript=tr)  # advice is not a point without the class
    with pytest.raises(ParameterError, match="did not walk this tree"):
        tree_path(walk.tree, transcript=tr, matrix=-H.matrix)
