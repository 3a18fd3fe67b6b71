"""Properties of the Littlestone dimension, its trees, SOA and the optimal adversary."""

from __future__ import annotations

import itertools
import math

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

import game
from adversaries import OptimalAdversary, Replay
from game.players import learners_for, lookup
from game.testing.strategies import (
    any_finite_class,
    finite_classes,
    point_sequences,
    structured_classes,
)
from game.theory.littlestone import (
    is_shattered,
    ldim,
    ldim_plain,
    littlestone_tree,
    tree_depth,
    vcdim,
)
from learners import SOA

classes = any_finite_class(max_hypotheses=40, max_points=7)


@given(classes)
def test_ldim_at_most_log2_of_the_class_size(cls):
    d = ldim(cls)
    assert -1 <= d <= math.floor(math.log2(cls.n_hypotheses))
    assert d <= cls.n_points


@given(any_finite_class(max_hypotheses=40, max_points=5))
def test_ldim_agrees_with_the_plain_recursion(cls):
    assert ldim(cls) == ldim_plain(cls)


@given(finite_classes(max_hypotheses=60, max_points=9))
def test_ldim_agrees_with_the_plain_recursion_on_every_restriction(cls):
    rows = [h for h in range(cls.n_hypotheses) if h % 3 != 1]
    sub = cls.subclass(rows)
    assert cls.engine.ldim(rows) == ldim_plain(sub)


@given(classes)
def test_vcdim_at_most_ldim(cls):
    assert vcdim(cls) <= ldim(cls)


@given(classes)
def test_littlestone_tree_is_shattered_and_of_depth_ldim(cls):
    tree = littlestone_tree(cls)
    assert tree_depth(tree) == ldim(cls)
    assert is_shattered(tree, cls)


def _complete_tree(instances):
    """The complete tree whose internal node i (heap order) holds instances[i - 1]."""
    tree = nx.DiGraph()
    for i, x in enumerate(instances, start=1):
        tree.add_node(i, instance=x)
        tree.add_edge(i, 2 * i, label=-1)
        tree.add_edge(i, 2 * i + 1, label=1)
    return tree


@settings(max_examples=25)
@given(finite_classes(max_hypotheses=12, max_points=3))
def test_no_tree_one_deeper_than_ldim_is_shattered(cls):
    depth = ldim(cls) + 1
    internal = 2**depth - 1
    if cls.n_points**internal > 3**6:  # only the small cases, by brute force
        return
    for instances in itertools.product(range(cls.n_points), repeat=internal):
        assert not is_shattered(_complete_tree(instances), cls)


@given(point_sequences(classes, max_length=25))
def test_soa_errs_at_most_ldim_on_every_realisable_sequence(data):
    cls, _, points, labels = data
    tr = game.play(SOA(cls), Replay(instances=points, labels=labels), rounds=len(points))
    s = tr.summary()
    assert s["mistakes"] <= ldim(cls)
    assert s["within_bound"] is not False


@given(classes)
def test_optimal_adversary_forces_exactly_ldim_on_soa(cls):
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=100)
    s = tr.summary()
    assert s["mistakes"] == max(ldim(cls), 0)
    assert s["certificate_verified"] is not False


@settings(max_examples=60)
@given(any_finite_class(max_hypotheses=30, max_points=6), st.data())
def test_optimal_adversary_forces_ldim_on_every_deterministic_point_learner(cls, data):
    name = data.draw(st.sampled_from(learners_for("point", deterministic=True)))
    learner = lookup(name)(concept_class=cls)
    tr = game.play(learner, OptimalAdversary(cls), rounds=200)
    s = tr.summary()
    assert s["mistakes"] >= max(ldim(cls), 0), name
    assert s["certificate_verified"] is not False


@settings(max_examples=30)
@given(structured_classes(4))
def test_structured_classes_agree_with_the_plain_recursion(cls):
    assert ldim(cls) == ldim_plain(cls)
