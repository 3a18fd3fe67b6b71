"""Adversaries that walk shattered trees."""

from __future__ import annotations

import pickle
import re

import networkx as nx
import numpy as np
import pytest

import game
from adversaries import HalfspaceTreeAdversary, TreeAdversary
from game import ParameterError
from game.players import learners_for, lookup
from game.theory import HalfspaceCertificate
from game.theory.concepts import FiniteClassCertificate, conjunctions, intervals, thresholds
from game.theory.littlestone import halfspace_tree, ldim, littlestone_tree


def _point_learners(cls):
    return [lookup(name)(concept_class=cls) for name in learners_for("point", deterministic=True)]


@pytest.mark.parametrize("cls", [thresholds(12), intervals(9), conjunctions(3)])
def test_every_deterministic_point_learner_errs_at_every_level(cls):
    for learner in _point_learners(cls):
        tr = game.play(learner, TreeAdversary(concept_class=cls), rounds=100)
        s = tr.summary()
        assert len(tr) == s["mistakes"] == ldim(cls), type(learner).__name__
        assert s["certificate_verified"] and s["forced"]
        assert isinstance(tr.certificate, FiniteClassCertificate)


def test_walks_a_given_tree_and_stops_at_its_leaf():
    cls = intervals(6)
    tree = littlestone_tree(cls)
    adversary = TreeAdversary(tree=tree, concept_class=cls)
    assert adversary.depth == tree.graph["depth"] == 4
    tr = game.play(lookup("soa")(cls), adversary, rounds=10)
    assert len(tr) == 4
    assert tr.lower_bound.value == 4 and "Lemma 21.6" in tr.lower_bound.source


def test_a_game_cut_short_still_hands_over_a_consistent_witness():
    cls = intervals(16)
    tr = game.play(lookup("soa")(cls), TreeAdversary(concept_class=cls), rounds=3)
    assert len(tr) == 3 and tr.certificate_verified


def test_a_halfspace_tree_is_walked_with_vector_witnesses():
    tr = game.play(lookup("perceptron")(), TreeAdversary(tree=halfspace_tree(6)), rounds=10)
    assert tr.summary()["mistakes"] == 6
    assert isinstance(tr.certificate, HalfspaceCertificate) and tr.certificate_verified


def test_refuses_trees_it_cannot_walk():
    cls = thresholds(3)
    cases = [
        ({}, "concept_class", "given when the tree is not"),
        ({"tree": {1: 2}}, "tree", "tree must be a networkx.DiGraph, got {1: 2}"),
        ({"tree": littlestone_tree(cls)}, "concept_class", "witnesses are hypothesis indices"),
        ({"tree": littlestone_tree(intervals(5)), "concept_class": cls}, "tree", "shattered by"),
        ({"tree": nx.DiGraph()}, "tree", "with 0 nodes .* empty"),
        ({"concept_class": [[1, 0]]}, "concept_class", "a 2-D matrix of"),
    ]
    for kwargs, parameter, message in cases:
        with pytest.raises(ParameterError, match=message) as info:
            TreeAdversary(**kwargs)
        assert info.value.parameter == parameter


def _no_instances() -> nx.DiGraph:
    tree = littlestone_tree(thresholds(3))
    for node in tree:
        tree.nodes[node].pop("instance", None)
    return tree


def _unlabelled() -> nx.DiGraph:
    tree = littlestone_tree(thresholds(3))
    for a, b in tree.edges:
        tree.edges[a, b].pop("label")
    return tree


@pytest.mark.parametrize(
    ("tree", "says"),
    [
        (_no_instances(), "internal node 1 has no instance"),
        (_unlabelled(), "its two edges must be labelled -1 and +1"),
        (nx.DiGraph([(1, 2), (3, 4)]), "not a rooted tree"),
    ],
    ids=["no instances", "no labels", "two roots"],
)
def test_a_malformed_tree_is_refused_naming_tree(tree, says):
    with pytest.raises(ParameterError, match=re.escape(says)) as info:
        TreeAdversary(tree=tree, concept_class=thresholds(3))
    assert info.value.parameter == "tree" and info.value.value is tree


# -- the halfspace tree ------------------------------------------------------------------


def test_every_deterministic_vector_learner_errs_every_round():
    names = learners_for("vector", deterministic=True)
    assert "perceptron" in names
    for name in names:
        tr = game.play(lookup(name)(), HalfspaceTreeAdversary(dimension=3), rounds=40)
        s = tr.summary()
        assert s["mistakes"] == len(tr) == 40, name
        assert s["certificate_verified"] and s["forced"], name


def test_the_certificate_margin_halves_every_round():
    tr = game.play(lookup("perceptron")(), HalfspaceTreeAdversary(), rounds=30)
    margin = tr.extras["margin"]
    ratios = margin[1:] / margin[:-1]
    assert np.all((ratios > 0.45) & (ratios < 0.55))
    w = tr.certificate.weights
    assert w[0] == -1.0 and 0.0 < w[1] < 1.0
    # the logged margin of the last round is the certificate's margin on the game
    X = np.asarray(tr.instances, dtype=float)
    assert tr.certificate.margin(X, tr.labels) == pytest.approx(margin[-1])


def test_the_perceptron_bound_holds_but_grows_fourfold():
    short = game.play(lookup("perceptron")(), HalfspaceTreeAdversary(), rounds=10)
    longer = game.play(lookup("perceptron")(), HalfspaceTreeAdversary(), rounds=11)
    assert short.summary()["within_bound"] and longer.summary()["within_bound"]
    assert longer.bound.value / short.bound.value == pytest.approx(4.0, rel=0.2)


def test_stops_after_its_exact_rounds():
    tr = game.play(lookup("perceptron")(), HalfspaceTreeAdversary(), rounds=1000)
    assert len(tr) == HalfspaceTreeAdversary.MAX_ROUNDS
    assert tr.certificate_verified and tr.summary()["mistakes"] == len(tr)


def test_instances_are_the_book_tree():
    adversary = HalfspaceTreeAdversary(dimension=4)
    x = adversary.instance(None)
    assert x.tolist() == [0.5, 1.0, 0.0, 0.0]
    adversary.label(x, 1.0, None)  # predicted +: a < 1/2
    assert adversary.instance(None).tolist() == [0.25, 1.0, 0.0, 0.0]
    adversary.label(x, -1.0, None)  # predicted −: a > 1/4
    assert adversary.instance(None)[0] == 0.375


def test_dimension_is_validated_and_the_adversary_pickles():
    with pytest.raises(ValueError, match="dimension"):
        HalfspaceTreeAdversary(dimension=1)
    adversary = HalfspaceTreeAdversary()
    adversary.label(adversary.instance(None), 1.0, None)
    clone = pickle.loads(pickle.dumps(adversary))
    assert np.array_equal(clone.instance(None), adversary.instance(None))
