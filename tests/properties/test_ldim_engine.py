"""The Ldim engine's compiled search against its numpy search and the plain recursion.

Three ways to the same numbers: numpy alone (``compiled(False)``), the
compiled search as the engine uses it, and the numpy search with its large-state
steps compiled (the compiled search's thresholds set to nothing). All must
give the plain recursion's dimension, and the same witnesses.
The compiled parts run only where numba is installed (the ``fast`` extra; CI
installs it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.testing.strategies import any_finite_class
from game.theory import _ldim_engine as engine_module
from game.theory import compiled
from game.theory._ldim_engine import LdimEngine, _pack, popcount_rows
from game.theory.concepts import FiniteClass
from game.theory.littlestone import ldim_plain

numba = pytest.importorskip("numba")
loop = pytest.importorskip("game.theory._ldim_loop")


@st.composite
def matrices(draw, max_hypotheses: int = 300, max_points: int = 9):
    """A ±1 matrix with distinct rows: a few up to ``max_hypotheses`` random rows, any bias."""
    points = draw(st.integers(1, max_points))
    rows = draw(st.integers(1, min(max_hypotheses, 1 << points)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    bias = draw(st.floats(0.05, 0.95))
    M = np.where(rng.random((rows, points)) < bias, 1, -1).astype(np.int8)
    return np.unique(M, axis=0)


def answers(M: np.ndarray, mode: str):
    """Ldim, witness, a restriction's Ldim and two decision questions, in one mode."""
    if mode == "numpy":
        context = compiled(False)
    else:
        context = compiled(True)
    small_k, few_points = engine_module._NATIVE_K, engine_module._NATIVE_POINTS
    worth = engine_module._WORTH
    engine_module._WORTH = 0  # the compiled loop for the smallest classes too
    if mode == "kernels":  # the numpy search, its steps compiled
        engine_module._NATIVE_K = engine_module._NATIVE_POINTS = 0
    try:
        with context:
            e = LdimEngine(M)
            d = e.ldim()
            rows = np.arange(0, M.shape[0], 2)
            return (
                d,
                e.witness(),
                e.ldim(rows),
                e.witness(rows),
                e.at_least(None, d + 1),
                e.at_least(rows, max(d, 1)),
            )
    finally:
        engine_module._NATIVE_K, engine_module._NATIVE_POINTS = small_k, few_points
        engine_module._WORTH = worth


@given(matrices(max_hypotheses=48, max_points=7))
def test_every_way_gives_the_plain_recursion(M):
    want = ldim_plain(FiniteClass(M))
    got = [answers(M, mode) for mode in ("numpy", "compiled", "kernels")]
    assert got[0][0] == want
    assert got[1] == got[0]
    assert got[2] == got[0]


@given(matrices(max_hypotheses=400, max_points=10))
def test_compiled_and_numpy_agree_on_larger_classes(M):
    want = answers(M, "numpy")
    assert answers(M, "compiled") == want
    assert answers(M, "kernels") == want


@given(any_finite_class(max_hypotheses=40, max_points=6))
def test_compiled_agrees_on_structured_classes(cls):
    assert answers(cls.matrix, "compiled") == answers(cls.matrix, "numpy")
    assert answers(cls.matrix, "compiled")[0] == ldim_plain(cls)


@given(matrices(max_hypotheses=64, max_points=8))
def test_the_counting_bounds_never_cut_a_real_answer(M):
    """Ldim ≤ 1 + ⌊log₂ b⌋ (b the largest minority) ≤ ⌊log₂ |V|⌋: the search starts below both."""
    d = ldim_plain(FiniteClass(M))
    r = M.shape[0]
    if r <= 1:
        assert d == r - 1
        return
    plus = (M > 0).sum(axis=0)
    b = int(np.minimum(plus, r - plus).max())
    assert d <= b.bit_length() <= math.floor(math.log2(r))
    e = LdimEngine(M)
    st_ = e.state(None)
    if st_.key is not None:
        assert e._entry(st_)[1] >= d


@given(st.integers(1, 9), st.integers(1, 400), st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_the_bit_gathers_equal_numpy(n, r, seed, density):
    rng = np.random.default_rng(seed)
    bits = rng.random((n, r)) < 0.5
    side = rng.random(r) < density
    P, S = _pack(bits), _pack(side[None])[0]
    want = _pack(bits[:, side])
    r_side = int(side.sum())
    assert np.array_equal(loop.compress(P, S, r_side), want)
    assert np.array_equal(loop._compress_bits(P, S, r_side), want)
    Q = np.vstack([P, S[None]])  # the side as a row of the state, gathered by the search
    rows = np.arange(n)
    assert np.array_equal(loop._split_side(Q, rows, n, False, r, r_side), want)
    flipped = _pack(bits[:, ~side])
    assert np.array_equal(loop._split_side(Q, rows, n, True, r, r - r_side), flipped)
    for x, m in zip(P[:, 0].tolist(), S.tolist(), strict=False):
        assert loop._pext_bits(np.uint64(x), np.uint64(m)) == loop._extract(
            np.uint64(x), np.uint64(m)
        )


@given(st.integers(1, 200), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_packing_and_counting_equal_numpy(rows, points, seed):
    rng = np.random.default_rng(seed)
    M = np.where(rng.random((rows, points)) < 0.5, 1, -1).astype(np.int8)
    idx = np.sort(rng.choice(rows, size=int(rng.integers(1, rows + 1)), replace=False))
    assert np.array_equal(loop.pack_points(M, idx, True), _pack((M > 0).T))
    P = loop.pack_points(M, idx, False)
    assert np.array_equal(P, _pack((M[idx] > 0).T))
    j = int(rng.integers(0, points))
    want = popcount_rows(P & P[j])
    assert np.array_equal(loop.counts_with(P, j), want)
    inside = (P[j] & ~P).any(axis=1)
    assert loop.covered(P[j], P, points, False, idx.size) == (not inside.all())


def test_the_switch_turns_the_compiled_search_off():
    assert engine_module.available()
    with compiled(False):
        assert engine_module._loop() is None
    assert engine_module._loop() is not None
