"""The compiled draws of :mod:`adversaries.draw_kernels` (imported only when numba is installed).

The loops run numpy's own PCG64 generator on its state, lifted out of the
stream's ``numpy.random.Generator`` and put back afterwards
(:func:`adversaries.draw_kernels.separable`): the 128-bit step and the XSL-RR
output of ``numpy/random/src/pcg64``, numpy's 32-bit buffer, its
``next_double``, its ziggurat for normals and Lemire's bounded integers, each
as numpy computes it, drawn in numpy's order. So the same numbers and the
same final state, bit for bit. Sums along a row are numpy's pairwise sums,
replayed exactly (:func:`_row_sum`); nothing is compiled with fast-math, so
every product and sum is rounded as numpy rounds it.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic
from numba.np.random._constants import (
    fi_double,
    ki_double,
    wi_double,
    ziggurat_nor_inv_r,
    ziggurat_nor_r,
)

from game.theory import jit

__all__ = ["combine", "separable"]

#: PCG64's 128-bit multiplier (``PCG_DEFAULT_MULTIPLIER_128``).
_MULTIPLIER = (2549297995355413924 << 64) | 4865540595714422341
#: The ziggurat's thresholds as signed integers (all below 2⁵³): compared without a cast.
_KI = ki_double.astype(np.int64)
_WI, _FI = wi_double, fi_double
#: x·(−1) is −x exactly (signed zeros too): the sign taken without an unpredictable branch.
_SIGN = np.array([1.0, -1.0])
_U64 = numba.uint64
_TO_DOUBLE = 1.0 / 9007199254740992.0


@intrinsic
def _step(typingctx, hi, lo, inc_hi, inc_lo):
    """PCG64's step: (hi, lo) ← ((hi·2⁶⁴ + lo)·multiplier + inc) mod 2¹²⁸."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide, word = ir.IntType(128), ir.IntType(64)
        shift = ir.Constant(wide, 64)

        def join(h, low):
            return builder.or_(builder.shl(builder.zext(h, wide), shift), builder.zext(low, wide))

        state = builder.mul(join(args[0], args[1]), ir.Constant(wide, _MULTIPLIER))
        state = builder.add(state, join(args[2], args[3]))
        high = builder.trunc(builder.lshr(state, shift), word)
        return context.make_tuple(
            builder, signature.return_type, (high, builder.trunc(state, word))
        )

    return sig, codegen


@jit(inline="always")
def _output(hi, lo):
    """PCG64's XSL-RR output of a state: (hi ⊕ lo) rotated right by hi's top 6 bits."""
    x = hi ^ lo
    rot = hi >> _U64(58)
    return (x >> rot) | (x << ((_U64(64) - rot) & _U64(63)))


@jit(inline="always")
def _double(hi, lo):
    """numpy's ``next_double`` of a state just stepped: its top 53 bits over 2⁵³."""
    return (_output(hi, lo) >> _U64(11)) * _TO_DOUBLE


@jit
def _normal_tail(hi, lo, inc_hi, inc_lo, rabs, idx, x):
    """The ziggurat's rare branches (numpy's ``random_standard_normal``): (value, hi, lo).

    Entered when the first try's ``rabs`` is not below its threshold: the
    base strip's tail (idx = 0) or a wedge test, then tries again from the top.
    """
    while True:
        if idx == 0:
            while True:
                hi, lo = _step(hi, lo, inc_hi, inc_lo)
                xx = -ziggurat_nor_inv_r * np.log1p(-_double(hi, lo))
                hi, lo = _step(hi, lo, inc_hi, inc_lo)
                yy = -np.log1p(-_double(hi, lo))
                if yy + yy > xx * xx:
                    if (rabs >> 8) & 0x1:
                        return -(ziggurat_nor_r + xx), hi, lo
                    return ziggurat_nor_r + xx, hi, lo
        hi, lo = _step(hi, lo, inc_hi, inc_lo)
        if (_FI[idx - 1] - _FI[idx]) * _double(hi, lo) + _FI[idx] < np.exp(-0.5 * x * x):
            return x, hi, lo
        hi, lo = _step(hi, lo, inc_hi, inc_lo)
        r = _output(hi, lo)
        idx = r & 0xFF
        r >>= 8
        rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
        x = rabs * _WI[idx]
        if r & 0x1:
            x = -x
        if rabs < _KI[idx]:
            return x, hi, lo


@jit
def _leaf(a, lo, n):
    """Σ a[lo : lo + n], n ≤ 128, as numpy adds it: in order below 8, else eight running sums."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i, m = 8, n - n % 8
    while i < m:
        j = lo + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@jit
def _row_sum(a, frames, sums):
    """``numpy.add.reduce`` of a contiguous row: 0.0 plus numpy's pairwise sum of it.

    numpy adds a run of more than 128 values as the sum of its two halves (the
    first half's length a multiple of 8), recursively, and a shorter run with
    :func:`_leaf`. The recursion is unrolled on ``frames`` (int64, shape
    (3, 64): start, length, halves done) and ``sums`` (64 partial sums),
    deeper than any row numpy can index needs.
    """
    n = a.shape[0]
    if n <= 128:
        return 0.0 + _leaf(a, 0, n)
    top, done = 0, 0
    frames[0, 0], frames[1, 0], frames[2, 0] = 0, n, 0
    while top >= 0:
        lo, k = frames[0, top], frames[1, top]
        if k <= 128:
            sums[done] = _leaf(a, lo, k)
            done += 1
            top -= 1
            continue
        half = k // 2
        half -= half % 8
        stage = frames[2, top]
        frames[2, top] = stage + 1
        if stage == 0:
            top += 1
            frames[0, top], frames[1, top], frames[2, top] = lo, half, 0
        elif stage == 1:
            top += 1
            frames[0, top], frames[1, top], frames[2, top] = lo + half, k - half, 0
        else:
            done -= 1
            sums[done - 1] = sums[done - 1] + sums[done]
            top -= 1
    return 0.0 + sums[0]


@jit
def separable(state, u, low, high, block, X, y, a, U, extra):
    """Draw ``SeparableStream.draw(block)`` block after block, the state advanced in place.

    ``state`` is PCG64's (state high, state low, inc high, inc low,
    has_uint32, uinteger) as uint64. For each block of ``block`` rows (the
    last may be shorter), in numpy's order: the labels (``integers(0, 2)·2 −
    1``, one buffered 32-bit draw each) into y, the margins (``uniform(low,
    high)``) into a, the Gaussian rows into X, each projected off u
    (g −= (Σ g·u)·u, with numpy's pairwise sum), their norms into ``U[1]``;
    when X has more than one column, the radial uniforms into ``U[0]``; then
    ``extra.shape[0]`` runs of a block's uniforms into ``extra`` (a noisy
    stream's noise). X's rows are the projected Gaussian rows; :func:`combine`
    finishes them.
    """
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
    has32, word = state[4], state[5]
    m, d = X.shape
    span = high - low
    t = np.empty(d)
    frames, sums = np.empty((3, 64), dtype=np.int64), np.empty(64)
    for s in range(0, m, block):
        e = min(s + block, m)
        for i in range(s, e):  # Lemire's bound for 2 values: the top bit of a 32-bit draw
            if has32:
                bits = word
                has32 = _U64(0)
            else:
                hi, lo = _step(hi, lo, inc_hi, inc_lo)
                r = _output(hi, lo)
                has32 = _U64(1)
                word = r >> _U64(32)
                bits = r & _U64(0xFFFFFFFF)
            y[i] = np.int64(bits >> _U64(31)) * 2 - 1
        for i in range(s, e):
            hi, lo = _step(hi, lo, inc_hi, inc_lo)
            a[i] = low + span * _double(hi, lo)
        if d > 1:
            for i in range(s, e):
                row = X[i]
                for j in range(d):
                    hi, lo = _step(hi, lo, inc_hi, inc_lo)
                    r = _output(hi, lo)
                    idx = r & 0xFF
                    r >>= 8
                    rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
                    x = rabs * _WI[idx] * _SIGN[r & 0x1]  # ±1 exactly, without a branch
                    if rabs >= _KI[idx]:
                        x, hi, lo = _normal_tail(hi, lo, inc_hi, inc_lo, rabs, idx, x)
                    row[j] = x
                    t[j] = x * u[j]
                along = _row_sum(t, frames, sums)
                for j in range(d):
                    g = row[j] - along * u[j]
                    row[j] = g
                    t[j] = g * g
                U[1, i] = math.sqrt(_row_sum(t, frames, sums))
            for i in range(s, e):
                hi, lo = _step(hi, lo, inc_hi, inc_lo)
                U[0, i] = 0.0 + 1.0 * _double(hi, lo)
        for k in range(extra.shape[0]):
            for i in range(s, e):
                hi, lo = _step(hi, lo, inc_hi, inc_lo)
                extra[k, i] = _double(hi, lo)
    state[0], state[1], state[4], state[5] = hi, lo, has32, word


@jit
def combine(X, y, a, u, c):
    """X[i] = (y_i·a_i)·u + X[i]·c_i (or (y_i·a_i)·u alone when c is empty), in place."""
    m, d = X.shape
    spread = c.shape[0] > 0
    for i in range(m):
        base = y[i] * a[i]
        row = X[i]
        if spread:
            ci = c[i]
            for j in range(d):
                row[j] = base * u[j] + row[j] * ci
        else:
            for j in range(d):
                row[j] = base * u[j]
