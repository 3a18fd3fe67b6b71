"""The compiled loops of :mod:`game.theory._ldim_engine` (imported only when numba is installed).

The functions work on a state's packed bits (points × 64-bit words over its
hypotheses, as the engine keeps them):

- :func:`ge` answers "is Ldim(V) ≥ k?" by the engine's own depth-first
  search: the same cut-offs (Ldim(V) ≤ 1 + ⌊log₂ b⌋ with b the largest
  minority; both sides of a candidate must have a point whose minority is at
  least 2^(k−2)), the same order of candidate points (most even split first,
  then by index), so the same answer and the same witness, with no memo: the
  engine hands it the questions small enough that a memo costs more than it
  saves. A side is gathered from its parent with one parallel-bit-extract
  instruction per word where the processor has one (x86 BMI2), else bit by
  bit;
- :func:`compress`, :func:`counts_with`, :func:`covered` and
  :func:`pack_points` are the engine's numpy steps for large states, without
  temporaries.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from game.theory._compiled import jit

__all__ = ["compress", "counts_with", "covered", "ge", "pack_points"]


_ONE = np.uint64(1)


@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count of a uint64 (LLVM's ctpop)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@jit
def _popcount(x):
    return np.int64(_ctpop(x))


def _host_has(feature: str) -> bool:
    """Whether this processor has an instruction set extension (as LLVM names it)."""
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get(feature))
    except Exception:  # an unknown host: the portable loop
        return False


@intrinsic
def _pext(typingctx, x, m):
    """The x86 BMI2 parallel bit extract: x's bits at m's set positions, packed low."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64"
        )
        return builder.call(fn, args)

    return sig, codegen


_PEXT = _host_has("bmi2")


@jit
def _pext_bits(x, m):
    """``pext`` one bit at a time, for processors without it."""
    out = np.uint64(0)
    t = np.uint64(0)
    while m != 0:
        low = m & (~m + _ONE)
        if x & low:
            out |= _ONE << t
        t += _ONE
        m ^= low
    return out


@jit
def _compress_pext(P, side, r_side):
    """:func:`compress` with one ``pext`` instruction per word."""
    n, w = P.shape
    out = np.zeros((n, (r_side + 63) >> 6), dtype=np.uint64)
    t = 0
    for wd in range(w):
        m = side[wd]
        if m == 0:
            continue
        count = _popcount(m)
        ow = t >> 6
        ob = t & 63
        spill = ob + count > 64
        for i in range(n):
            v = _pext(P[i, wd], m)
            out[i, ow] |= v << np.uint64(ob)
            if spill:
                out[i, ow + 1] |= v >> np.uint64(64 - ob)
        t += count
    return out


@jit
def _compress_bits(P, side, r_side):
    """The bits of each row of ``P`` at the positions set in ``side``, packed anew.

    ``P`` is points × words, ``side`` one row of words; the result is points ×
    ⌈r_side / 64⌉ words, bit t of a row being its t-th selected bit.
    """
    n, w = P.shape
    out = np.zeros((n, (r_side + 63) >> 6), dtype=np.uint64)
    positions = np.empty(64, dtype=np.uint64)
    t = 0
    for wd in range(w):
        m = side[wd]
        if m == 0:
            continue
        count = 0
        b = np.uint64(0)
        while m != 0:
            if m & _ONE:
                positions[count] = b
                count += 1
            m = m >> _ONE
            b += _ONE
        ow = t >> 6
        ob = t & 63
        if ob + count <= 64:  # the selected bits land in one output word
            for i in range(n):
                x = P[i, wd]
                acc = np.uint64(0)
                for c in range(count):
                    acc |= ((x >> positions[c]) & _ONE) << np.uint64(c)
                out[i, ow] |= acc << np.uint64(ob)
        else:
            for i in range(n):
                x = P[i, wd]
                for c in range(count):
                    tt = t + c
                    out[i, tt >> 6] |= ((x >> positions[c]) & _ONE) << np.uint64(tt & 63)
        t += count
    return out


@jit
def _pext_hw(x, m):
    return _pext(x, m)


#: The processor's parallel bit extract when it has one, else a loop over the bits.
_extract = _pext_hw if _PEXT else _pext_bits
compress = _compress_pext if _PEXT else _compress_bits


@jit
def _split_side(P, rows, j, flip, r, r_side):
    """The rows ``rows`` of P at the positions set in row j (its complement with ``flip``)."""
    w = P.shape[1]
    n = rows.shape[0]
    out = np.zeros((n, (r_side + 63) >> 6), dtype=np.uint64)
    tail = ~np.uint64(0) if r & 63 == 0 else (_ONE << np.uint64(r & 63)) - _ONE
    t = 0
    for wd in range(w):
        m = ~P[j, wd] if flip else P[j, wd]
        if wd == w - 1:
            m &= tail
        if m == 0:
            continue
        count = _popcount(m)
        ow = t >> 6
        ob = t & 63
        spill = ob + count > 64
        for a in range(n):
            v = _extract(P[rows[a], wd], m)
            out[a, ow] |= v << np.uint64(ob)
            if spill:
                out[a, ow + 1] |= v >> np.uint64(64 - ob)
        t += count
    return out


@jit
def ge(P, cnt, r, k):
    """Is Ldim(V) ≥ k? A witness row of ``P`` (≥ 0) when it is, else −1.

    ``P`` holds V's packed bits (points × words over its r hypotheses) and
    ``cnt`` each point's count of set bits; columns on which V agrees may be
    present. For k ≤ 1 the answer is read off r (witness 0).
    """
    if r <= 1 or k <= 1:
        return 0 if k <= r - 1 else -1
    n, w = P.shape
    bal = np.empty(n, dtype=np.int64)
    most = 0
    for i in range(n):
        b = min(cnt[i], r - cnt[i])
        bal[i] = b
        most = max(most, b)
    bits = 0
    while most >> bits:
        bits += 1
    if k > bits:  # Ldim(V) ≤ 1 + ⌊log₂ (largest minority)⌋
        return -1
    if k == 2:
        return np.int64(np.argmax(bal)) if most >= 2 else -1
    need = 1 << (k - 1)
    half = need >> 1
    n_cand = 0
    for i in range(n):
        if bal[i] >= need:
            n_cand += 1
    cand = np.empty(n_cand, dtype=np.int64)
    c = 0
    for i in range(n):
        if bal[i] >= need:
            cand[c] = i
            c += 1
    cand = cand[np.argsort(-bal[cand], kind="mergesort")]
    sp = np.empty(n, dtype=np.int64)
    for j in cand:
        rp = cnt[j]
        rm = r - rp
        best_p = 0
        best_m = 0
        for i in range(n):
            s = 0
            for wd in range(w):
                s += _popcount(P[i, wd] & P[j, wd])
            sp[i] = s
            best_p = max(best_p, min(s, rp - s))
            sm = cnt[i] - s
            best_m = max(best_m, min(sm, rm - sm))
        if best_p < half or best_m < half:
            continue
        if k == 3:  # both sides have a point splitting them 2 | 2
            return j
        ok = True
        for turn in range(2):
            plus = (turn == 0) == (rp <= rm)  # the smaller side first
            rs = rp if plus else rm
            live = 0
            for i in range(n):
                s = sp[i] if plus else cnt[i] - sp[i]
                if 0 < s < rs:
                    live += 1
            rows = np.empty(live, dtype=np.int64)
            child_cnt = np.empty(live, dtype=np.int64)
            live = 0
            for i in range(n):
                s = sp[i] if plus else cnt[i] - sp[i]
                if 0 < s < rs:
                    rows[live] = i
                    child_cnt[live] = s
                    live += 1
            child = _split_side(P, rows, j, not plus, r, rs)
            if ge(child, child_cnt, rs, k - 1) < 0:
                ok = False
                break
        if ok:
            return j
    return -1


@jit
def counts_with(P, j):
    """Each row's count of set bits shared with row ``j`` (the counts on one side of a split)."""
    n, w = P.shape
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        s = 0
        for wd in range(w):
            s += _popcount(P[i, wd] & P[j, wd])
        out[i] = s
    return out


@jit
def covered(A, R, n_rows, flip, r):
    """Whether A (its complement in r bits, with ``flip``) lies inside a row of R[:n_rows]."""
    w = A.shape[0]
    last = w - 1
    tail = ~np.uint64(0) if r & 63 == 0 else (_ONE << np.uint64(r & 63)) - _ONE
    for q in range(n_rows):
        inside = True
        for wd in range(w):
            a = ~A[wd] if flip else A[wd]
            if wd == last:
                a &= tail
            if a & ~R[q, wd]:
                inside = False
                break
        if inside:
            return True
    return False


@jit
def pack_points(M, idx, every):
    """The +1 bits of the rows ``idx`` of M (all rows with ``every``), packed by point.

    The result is points × ⌈r / 64⌉ words, bit h of a point's row being
    whether hypothesis ``idx[h]`` labels it +1.
    """
    r = M.shape[0] if every else idx.shape[0]
    n = M.shape[1]
    w = (r + 63) >> 6
    out = np.empty((n, w), dtype=np.uint64)
    buf = np.empty(n, dtype=np.uint64)
    for blk in range(w):
        buf[:] = 0
        for b in range(min(64, r - (blk << 6))):
            h = (blk << 6) + b
            row = h if every else idx[h]
            bit = np.uint64(b)
            for x in range(n):
                buf[x] |= np.uint64(M[row, x] > 0) << bit
        out[:, blk] = buf
    return out
