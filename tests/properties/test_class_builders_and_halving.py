"""The int8 class builders, the engine's packed states and Halving over a class's columns.

Each is checked against a plain reference written from its definition: the
builders' matrices and names, the engine's answers on classes whose first
hypothesis labels points +1 (the canonical form flips those columns in place),
and Halving's predictions and updates when it plays points.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.testing.strategies import any_finite_class
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
from game.theory.littlestone import LdimEngine, ldim_plain
from learners.experts import Halving

# -- references written from the definitions -------------------------------------


def _bits(n):
    """Row i: i in binary, x1 the top bit."""
    return [[(i >> (n - 1 - j)) & 1 for j in range(n)] for i in range(1 << n)]


def _pm(rows):
    return np.array([[1 if v else -1 for v in row] for row in rows], dtype=np.int8).reshape(
        len(rows), -1
    )


def conjunction_rows(n):
    """3ⁿ conjunctions in the builder's order (x_j added, then ¬x_j, variable by variable)."""
    X = _bits(n)
    terms = [()]
    for j in range(n):
        terms = terms + [(*t, (j, 1)) for t in terms] + [(*t, (j, 0)) for t in terms]
    rows = [[all(x[v] == b for v, b in t) for x in X] for t in terms]
    return [*rows, [False] * (1 << n)]


def decision_list_rows(n, length):
    """Distinct functions of lists of at most ``length`` rules, breadth first, first found."""
    X = _bits(n)
    literals = [(j, b) for j in range(n) for b in (1, 0)]
    rows = [tuple([True] * (1 << n)), tuple([False] * (1 << n))]
    seen = set(rows)
    frontier = list(rows)
    for _ in range(length):
        grown = []
        for tail in frontier:
            for j, b in literals:
                for label in (True, False):
                    row = tuple(label if x[j] == b else t for x, t in zip(X, tail, strict=True))
                    if row not in seen:
                        seen.add(row)
                        rows.append(row)
                        grown.append(row)
        frontier = grown
    return rows


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 24))
def test_interval_thresholds_and_singletons_match_their_definitions(n):
    iv = intervals(n)
    pairs = [(a, b) for a in range(n) for b in range(a, n)]
    expected = _pm([[False] * n] + [[a <= x <= b for x in range(n)] for a, b in pairs])
    assert iv.matrix.dtype == np.int8 and np.array_equal(iv.matrix, expected)
    assert len(iv.hypothesis_names) == 1 + len(pairs)
    th = thresholds(n)
    assert np.array_equal(th.matrix, _pm([[x >= t for x in range(n)] for t in range(n + 1)]))
    if n:
        assert np.array_equal(
            singletons(n).matrix, _pm([[x == i for x in range(n)] for i in range(n)])
        )


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6))
def test_boolean_builders_match_their_definitions(n):
    X = _bits(n)
    assert np.array_equal(conjunctions(n).matrix, _pm(conjunction_rows(n)))
    assert conjunctions(n).matrix.dtype == np.int8
    parity = [[sum(s[j] * x[j] for j in range(n)) % 2 == 1 for x in X] for s in X]
    assert np.array_equal(parities(n).matrix, _pm(parity))
    mono = [r for r in conjunction_rows(n)[:-1]]
    # the monotone ones are the conjunctions with no negated literal, in the same order
    keep = [i for i in range(3**n) if all(d != 2 for d in _ternary(i, n))]
    assert np.array_equal(monotone_conjunctions(n).matrix, _pm([mono[i] for i in keep]))
    m = min(n, 5)
    functions = [[(i >> j) & 1 for j in range(m)] for i in range(1 << m)]
    assert np.array_equal(all_functions(m).matrix, _pm(functions))


def _ternary(i, n):
    """The digits of i in base 3, variable 1 first: 0 absent, 1 positive, 2 negated."""
    return [(i // 3**j) % 3 for j in range(n)]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 3), st.integers(0, 4))
def test_decision_lists_match_their_definition(n, length):
    dl = decision_lists(n, length)
    rows = decision_list_rows(n, length)
    assert dl.matrix.dtype == np.int8
    assert np.array_equal(dl.matrix, _pm(rows))
    assert len(dl.hypothesis_names) == len(rows) == len(set(dl.hypothesis_names))


def test_a_builder_hands_over_a_read_only_matrix_and_a_caller_keeps_its_own():
    assert not intervals(5).matrix.flags.writeable
    mine = np.array([[1, -1], [1, 1]], dtype=np.int8)
    FiniteClass(mine)
    assert mine.flags.writeable  # a caller's array is copied, never taken


# -- the engine: flipping its packed bits in place leaves the matrix as it was -----


@settings(max_examples=60, deadline=None)
@given(any_finite_class(max_hypotheses=30, max_points=6), st.data())
def test_engine_answers_and_keeps_its_bools_when_the_first_hypothesis_reads_plus(cls, data):
    M = cls.matrix[::-1].copy()  # any row first, often one with +1 entries
    engine = LdimEngine(M)
    before = M.copy()
    assert engine.ldim() == ldim_plain(FiniteClass(M))
    rows = data.draw(st.lists(st.integers(0, M.shape[0] - 1), unique=True), label="rows")
    assert engine.ldim(rows) == (ldim_plain(FiniteClass(M[sorted(rows)])) if rows else -1)
    depth = engine.ldim()
    x, plus, minus = engine.split_rows(engine.state())
    if depth >= 1:
        assert np.all(M[plus, x] == 1) and np.all(M[minus, x] == -1)
        assert min(engine.ldim(plus), engine.ldim(minus)) == depth - 1
    assert np.array_equal(M, before)
    assert engine.ldim(rows) == LdimEngine(before).ldim(rows)  # the memo's states unchanged


# -- Halving over a class's points: the reference ----------------------------------


def halving_points_reference(matrix, points, outcomes):
    """Predictions and updates of Halving playing points: +1 iff |{h ∈ C: h(x) = +1}| ≥ |C|/2."""
    alive = list(range(matrix.shape[0]))
    out = []
    for x, y in zip(points, outcomes, strict=True):
        plus = sum(1 for h in alive if matrix[h, x] >= 0)
        out.append(1.0 if 2 * plus >= len(alive) else -1.0)
        kept = [h for h in alive if matrix[h, x] == y]
        out.append(len(kept) < len(alive))
        alive = kept
        out.append(len(alive))
    return out


@settings(max_examples=60, deadline=None)
@given(any_finite_class(max_hypotheses=40, max_points=6), st.data())
def test_halving_on_points_matches_the_reference(cls, data):
    T = data.draw(st.integers(1, 12), label="rounds")
    points = data.draw(st.lists(st.integers(0, cls.n_points - 1), min_size=T, max_size=T))
    outcomes = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=T, max_size=T))
    h = Halving(concept_class=cls)
    got = []
    for x, y in zip(points, outcomes, strict=True):
        got.append(h.predict(x))
        got.append(h.update(x, y))
        got.append(h.snapshot()["consistent"])
    assert got == halving_points_reference(cls.matrix, points, outcomes)
    alive = np.zeros(cls.n_hypotheses, dtype=bool)
    alive[h.consistent] = True
    assert h.state_key() == (cls.n_hypotheses, np.packbits(alive).tobytes())


def test_halving_reads_a_point_as_one_row_of_the_columns():
    cls = all_functions(12)
    h = Halving(concept_class=cls)
    assert h.predict(3) == 1.0 and h.update(3, -1)
    assert h.snapshot() == {"consistent": 2048}
    assert np.shares_memory(cls.columns, cls.columns[3])
    assert cls.columns.shape == (12, 4096) and cls.columns.flags.c_contiguous
    assert math.isclose(np.mean(cls.columns[3, h.consistent] == -1), 1.0)
