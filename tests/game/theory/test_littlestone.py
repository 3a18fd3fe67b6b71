"""Littlestone dimension, VC dimension and shattered trees: known values and formats."""

from __future__ import annotations

import itertools
import math
import re

import networkx as nx
import numpy as np
import pytest

from game.errors import ParameterError
from game.theory._ldim_engine import LdimEngine, popcount_rows
from game.theory.concepts import (
    FiniteClass,
    all_functions,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    parities,
    singletons,
    thresholds,
)
from game.theory.littlestone import (
    halfspace_tree,
    is_shattered,
    ldim,
    ldim_plain,
    littlestone_tree,
    read_tree,
    tree_children,
    tree_depth,
    tree_root,
    vcdim,
    write_tree,
)

# -- known values ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 7, 8, 15, 16, 31, 100, 255, 1000])
def test_thresholds_on_n_points_have_ldim_floor_log2_n_plus_1(n):
    assert ldim(thresholds(n)) == math.floor(math.log2(n + 1))


@pytest.mark.parametrize("n", [2, 3, 10, 500])
def test_singletons_have_ldim_1(n):
    assert ldim(singletons(n)) == 1


def test_one_singleton_is_one_hypothesis():
    assert ldim(singletons(1)) == 0


@pytest.mark.parametrize("m", [0, 1, 2, 5, 9, 12])
def test_all_functions_on_m_points_have_ldim_m(m):
    assert ldim(all_functions(m)) == m


@pytest.mark.parametrize("n", [1, 2, 4, 6, 8])
def test_monotone_conjunctions_over_n_bits_have_ldim_n(n):
    assert ldim(monotone_conjunctions(n)) == n


@pytest.mark.parametrize("n", [1, 3, 6])
def test_parities_over_n_bits_have_ldim_n(n):
    assert ldim(parities(n)) == n


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_conjunctions_over_n_bits_have_ldim_n_plus_1(n):
    # the contradictory conjunction (all −) adds one level to the monotone n
    assert ldim(conjunctions(n)) == n + 1


@pytest.mark.parametrize(("n", "expected"), [(1, 1), (2, 2), (4, 3), (8, 4), (16, 6), (64, 10)])
def test_intervals(n, expected):
    assert ldim(intervals(n)) == expected


def test_empty_class_and_single_hypothesis():
    assert ldim(FiniteClass(np.zeros((0, 4)))) == -1
    assert ldim([[1, -1, 1]]) == 0
    assert ldim(FiniteClass(np.zeros((1, 0)))) == 0


def test_ldim_accepts_plain_matrices_and_objects_with_a_matrix():
    class Holder:
        matrix = thresholds(7).matrix

    assert ldim(Holder()) == ldim(thresholds(7).matrix) == 3


def test_plain_recursion_agrees_on_known_values():
    assert ldim_plain(thresholds(10)) == 3
    assert ldim_plain(intervals(8)) == 4
    assert ldim_plain(decision_lists(2, 2)) == ldim(decision_lists(2, 2))
    assert ldim_plain(FiniteClass(np.zeros((0, 2)))) == -1


def test_plain_recursion_honours_its_deadline():
    with pytest.raises(TimeoutError):
        ldim_plain(intervals(40), deadline=0.0)


@pytest.mark.parametrize(
    ("cls", "expected"),
    [
        (thresholds(9), 1),
        (intervals(9), 2),
        (singletons(5), 1),
        (all_functions(4), 4),
        (monotone_conjunctions(3), 3),
        (conjunctions(3), 3),
        (parities(3), 3),
        (FiniteClass(np.zeros((0, 3))), -1),
        (FiniteClass([[1, 1]]), 0),
    ],
)
def test_vc_dimension(cls, expected):
    assert vcdim(cls) == expected


# -- the engine --------------------------------------------------------------------------


def test_engine_restrictions_and_questions():
    e = LdimEngine(intervals(16).matrix)
    assert e.ldim() == 6
    assert e.at_least(None, 6) and not e.at_least(None, 7)
    assert e.at_least(None, -1) and e.at_least([], -1) and not e.at_least([], 0)
    mask = np.zeros(e.n_hypotheses, dtype=bool)
    mask[:3] = True
    assert e.ldim(mask) == e.ldim([0, 1, 2]) == 1
    assert e.stats["memo"] > 0 and e.stats["questions"] > 0


def test_engine_witness_maximises_the_smaller_side():
    cls = intervals(12)
    e = cls.engine
    d = e.ldim()
    x = e.witness()
    plus = cls.matrix[:, x] > 0
    assert min(e.ldim(plus), e.ldim(~plus)) == d - 1
    assert LdimEngine([[1, 1]]).witness() is None


@pytest.mark.parametrize(
    "rows",
    [[7], [-1], np.ones(2, dtype=bool), np.ones((4, 1), dtype=bool), [1.0], ["a"], [[0, 1], [2]]],
    ids=["too-large", "negative", "short-mask", "2-D mask", "float", "text", "ragged"],
)
def test_engine_refuses_bad_rows_naming_them(rows):
    e = LdimEngine(thresholds(3).matrix)
    expected = "rows must be a bool mask of 4 entries or hypothesis indices in 0..3, got "
    for ask in (e.ldim, e.witness, lambda r: e.at_least(r, 1)):
        with pytest.raises(ParameterError, match=re.escape(expected)) as info:
            ask(rows)
        assert info.value.parameter == "rows"
    assert e.ldim([np.int64(3), 0]) == 1 and e.ldim(np.array([], dtype=np.int64)) == -1
    with pytest.raises(ParameterError, match=r"^k must be an integer, got 1\.5$"):
        e.at_least(None, 1.5)
    with pytest.raises(ValueError, match="2-D"):
        LdimEngine(np.ones(3))


def test_translated_restrictions_share_one_memo_entry():
    cls = intervals(32)
    e = cls.engine

    def inside(a, b):  # ∅ and the intervals inside [a, b]: every other point is −
        outside = [x for x in range(32) if not a <= x <= b]
        return cls.consistent(outside, [-1] * len(outside))

    assert e.ldim(inside(4, 11)) == ldim(intervals(8))
    before = e.stats["memo"]
    assert e.ldim(inside(20, 27)) == e.ldim(inside(13, 20)) == ldim(intervals(8))
    assert e.stats["memo"] == before


def test_popcount_rows():
    words = np.array([[0, 2**64 - 1], [5, 0]], dtype=np.uint64)
    assert popcount_rows(words).tolist() == [64, 2]


# -- trees -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls", [thresholds(7), intervals(10), conjunctions(3), singletons(4), all_functions(3)]
)
def test_littlestone_tree_is_shattered_and_of_depth_ldim(cls):
    tree = littlestone_tree(cls)
    assert tree_depth(tree) == tree.graph["depth"] == ldim(cls)
    assert is_shattered(tree, cls)
    for node, data in tree.nodes(data=True):
        if tree.out_degree(node) == 0:  # the witness realises its path
            h = data["witness"]
            path = nx.shortest_path(tree, 1, node)
            for a, b in itertools.pairwise(path):
                x = tree.nodes[a]["instance"]
                assert cls.matrix[h, x] == tree.edges[a, b]["label"]


def test_tree_numbering_follows_the_book():
    tree = littlestone_tree(thresholds(3))
    assert tree_root(tree) == 1
    assert tree_children(tree, 1) == {-1: 2, 1: 3}
    assert sorted(n for n in tree if tree.out_degree(n) == 0) == [4, 5, 6, 7]


def _malformed_trees() -> list:
    """(name, graph, what the refusal says): graphs that are not trees of this format."""
    two_roots = nx.DiGraph([(1, 2, {"label": -1}), (3, 4, {"label": 1})])
    no_instance = nx.DiGraph([(1, 2, {"label": -1}), (1, 3, {"label": 1})])
    bad_label = nx.DiGraph([(1, 2, {"label": 0}), (1, 3, {"label": 1})])
    bad_label.nodes[1]["instance"] = 0
    one_child = nx.DiGraph([(1, 2, {"label": 1})])
    one_child.nodes[1]["instance"] = 0
    uneven = littlestone_tree(thresholds(3))
    uneven.remove_nodes_from([4, 5])
    uneven.nodes[2].pop("instance")
    uneven.nodes[2]["witness"] = 0
    cycle = nx.DiGraph([(1, 2), (2, 1)])
    return [
        ("two roots", two_roots, "the graph is not a rooted tree"),
        ("no instance", no_instance, "internal node 1 has no instance"),
        ("bad label", bad_label, "node 1: its two edges must be labelled -1 and +1"),
        ("one child", one_child, "node 1: an internal node has exactly two children"),
        ("uneven", uneven, "the leaves lie at different depths [1, 2]"),
        ("cycle", cycle, "the graph is not a rooted tree"),
        ("not a graph", {1: 2}, "tree must be a networkx.DiGraph, got {1: 2}"),
    ]


@pytest.mark.parametrize(
    ("graph", "says"), [m[1:] for m in _malformed_trees()], ids=[m[0] for m in _malformed_trees()]
)
def test_a_malformed_tree_is_a_parameter_error_naming_tree(graph, says):
    with pytest.raises(ParameterError, match=re.escape(says)) as info:
        tree_depth(graph)
    assert info.value.parameter == "tree" and info.value.value is graph
    assert not is_shattered(graph)


def test_tree_root_and_children_name_the_tree():
    two_roots = nx.DiGraph([(1, 2), (3, 4)])
    with pytest.raises(ParameterError, match=r"^tree must be a tree with one root, got .*2 roots"):
        tree_root(two_roots)
    tree = littlestone_tree(thresholds(3))
    with pytest.raises(ParameterError, match=r"tree must be a tree with the node 99") as info:
        tree_children(tree, 99)
    assert info.value.parameter == "tree"
    with pytest.raises(ParameterError, match="exactly two children"):
        tree_children(tree, 4)  # a leaf
    with pytest.raises(ParameterError, match=r"networkx\.DiGraph"):
        tree_root([(1, 2)])


def test_trees_of_the_empty_and_of_one_hypothesis():
    empty = littlestone_tree(FiniteClass(np.zeros((0, 2))))
    assert empty.number_of_nodes() == 0 and empty.graph["depth"] == -1
    one = littlestone_tree([[1, -1]])
    assert list(one.nodes(data="witness")) == [(1, 0)]


def test_is_shattered_rejects_unrealised_paths_and_malformed_trees():
    cls = thresholds(3)
    tree = littlestone_tree(cls)
    assert not is_shattered(tree, thresholds(1))  # instances outside the class
    bad = tree.copy()
    bad.nodes[1]["instance"] = 0  # then −1 at the root leaves only "x ≥ 1…" below 2
    bad.nodes[2]["instance"] = 0
    assert not is_shattered(bad, cls)
    uneven = tree.copy()
    uneven.remove_nodes_from([4, 5])
    assert not is_shattered(uneven, cls)
    same_labels = nx.DiGraph()
    same_labels.add_node(1, instance=0)
    same_labels.add_edge(1, 2, label=1)
    same_labels.add_edge(1, 3, label=1)
    assert not is_shattered(same_labels, cls)
    assert not is_shattered(nx.DiGraph([(1, 2), (2, 1)]), cls)


def test_is_shattered_without_a_class_checks_the_witnesses():
    tree = littlestone_tree(thresholds(3))
    assert not is_shattered(tree)  # witnesses are indices: a class is needed


@pytest.mark.parametrize("depth", [0, 1, 2, 5, 10])
def test_halfspace_tree_is_shattered_at_every_depth(depth):
    tree = halfspace_tree(depth, dimension=3)
    assert tree_depth(tree) == depth
    assert is_shattered(tree)
    assert tree.number_of_nodes() == 2 ** (depth + 1) - 1


def test_halfspace_tree_matches_the_book():
    tree = halfspace_tree(3)
    assert tree.nodes[1]["instance"].tolist() == [0.5, 1.0]
    assert tree.nodes[2]["instance"].tolist() == [0.25, 1.0]
    assert tree.nodes[3]["instance"].tolist() == [0.75, 1.0]
    assert tree.nodes[4]["instance"].tolist() == [0.125, 1.0]
    broken = tree.copy()
    broken.nodes[15]["witness"] = np.array([-1.0, 0.1])  # not on the all-+ path
    assert not is_shattered(broken)


@pytest.mark.parametrize(
    ("depth", "dimension", "parameter"),
    [(-1, 2, "depth"), (21, 2, "depth"), (True, 2, "depth"), (2.0, 2, "depth"),
     (2, 1, "dimension"), (2, np.bool_(True), "dimension")],
)  # fmt: skip
def test_halfspace_tree_validates(depth, dimension, parameter):
    with pytest.raises(ParameterError) as info:
        halfspace_tree(depth, dimension)
    assert info.value.parameter == parameter
    assert halfspace_tree(np.int8(2), np.int64(3)).graph == {
        "depth": 2, "kind": "halfspace", "dimension": 3,
    }  # fmt: skip


@pytest.mark.parametrize("function", [ldim, vcdim, littlestone_tree, ldim_plain])
@pytest.mark.parametrize("bad", [[[1, 0]], [1, -1], None, [[1, -1], [1]], "thresholds"])
def test_a_bad_class_is_refused_naming_cls(function, bad):
    with pytest.raises(ParameterError, match=r"^cls must be ") as info:
        function(bad)
    assert info.value.parameter == "cls" and info.value.value is bad


@pytest.mark.parametrize("name", ["t.txt", "t.json"])
def test_tree_files_are_named_by_suffix(tmp_path, name):
    with pytest.raises(ParameterError, match=r"^path must be a \.graphml") as info:
        write_tree(littlestone_tree(thresholds(3)), tmp_path / name)
    assert info.value.parameter == "path"
    with pytest.raises(ParameterError, match=r"^path must be a \.graphml file"):
        read_tree(tmp_path / name)


def test_graphml_round_trip(tmp_path):
    tree = littlestone_tree(intervals(6))
    back = read_tree(write_tree(tree, tmp_path / "t.graphml"))
    assert sorted(back.edges(data="label")) == sorted(tree.edges(data="label"))
    assert dict(back.nodes(data="instance")) == dict(tree.nodes(data="instance"))
    assert is_shattered(back, intervals(6))
    assert back.graph["depth"] == tree.graph["depth"]


def test_graphml_round_trip_of_vectors(tmp_path):
    tree = halfspace_tree(3)
    back = read_tree(write_tree(tree, tmp_path / "h.graphml"))
    assert np.array_equal(back.nodes[5]["instance"], tree.nodes[5]["instance"])
    assert is_shattered(back)


def test_dot_output(tmp_path):
    path = write_tree(littlestone_tree(thresholds(3)), tmp_path / "t.dot")
    text = path.read_text()
    assert text.startswith("digraph littlestone {")
    assert '1 -> 2 [label="-1"];' in text and '1 -> 3 [label="+1"];' in text
    assert 'label="x ≥ ' in text and "shape=box" in text


def test_tree_files_refuse_other_suffixes(tmp_path):
    tree = littlestone_tree(thresholds(3))
    with pytest.raises(ValueError, match=r"\.graphml or \.dot"):
        write_tree(tree, tmp_path / "t.png")
    with pytest.raises(ValueError, match=r"\.graphml"):
        read_tree(tmp_path / "t.dot")
