"""The Littlestone dimension and the VC dimension of a finite class, exactly.

Shalev-Shwartz & Ben-David, *Understanding Machine Learning*, §21.1.1 (the
chapter of seed 000): Ldim(H) is the largest depth of a tree that H shatters
(Definition 21.5); no learner has a mistake bound below Ldim(H) (Lemma 21.6)
and the Standard Optimal Algorithm attains it (Lemma 21.7). :func:`ldim` runs
the bitset engine of the class (:class:`~game.theory.littlestone.LdimEngine`);
:func:`ldim_plain` is the textbook recursion, kept as the reference it is
checked against.

Examples
--------
>>> from game.theory.concepts import thresholds
>>> from game.theory.littlestone import ldim, vcdim
>>> ldim(thresholds(7)), vcdim(thresholds(7))
(3, 1)
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from game.theory.concepts import as_finite_class

__all__ = ["ldim", "ldim_plain", "vcdim"]


def ldim(cls: Any) -> int:
    """The exact Littlestone dimension of a finite class.

    Ldim(∅) = −1 and Ldim of a single hypothesis is 0. Computed by
    :class:`game.theory.littlestone.LdimEngine` (the class's cached one for a
    :class:`FiniteClass`, so later questions about its restrictions reuse the work).

    Parameters
    ----------
    cls : FiniteClass, object with ``.matrix``, or a ±1 matrix

    Examples
    --------
    >>> from game.theory.concepts import FiniteClass, all_functions, intervals, singletons
    >>> ldim(all_functions(4)), ldim(singletons(9)), ldim(intervals(16))
    (4, 1, 6)
    >>> ldim([[1, -1]]), ldim(FiniteClass(np.zeros((0, 3))))
    (0, -1)
    """
    return as_finite_class(cls, "cls").engine.ldim()


def ldim_plain(cls: Any, *, deadline: float | None = None, max_memo: int | None = None) -> int:
    """Ldim by the textbook recursion, memoised on the restricted set: a reference.

    Ldim(V) = 1 + max over splitting points x of min(Ldim(V_x⁺), Ldim(V_x⁻)),
    with V a Python-int bitset over the hypotheses and one memo entry per set
    met. No bounds, pruning or merging: it is what :func:`ldim` is checked and
    benchmarked against, and is exponential in practice (intervals over 20
    points take seconds).

    Parameters
    ----------
    deadline : float, optional
        A ``time.perf_counter()`` value; past it, ``TimeoutError`` is raised.
    max_memo : int, optional
        The most restricted sets to remember; past it, ``MemoryError`` is raised.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> ldim_plain(thresholds(7))
    3
    """
    M = as_finite_class(cls, "cls").matrix
    H, n = M.shape
    if H == 0:
        return -1
    pos = []
    for x in range(n):
        bits = np.flatnonzero(M[:, x] > 0)
        pos.append(sum(1 << int(h) for h in bits))
    memo: dict[int, int] = {}
    calls = [0]

    def rec(V: int) -> int:
        if V & (V - 1) == 0:
            return 0 if V else -1
        got = memo.get(V)
        if got is not None:
            return got
        calls[0] += 1
        if calls[0] & 1023 == 0:
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError("the plain recursion ran past its deadline")
            if max_memo is not None and len(memo) > max_memo:
                raise MemoryError(f"the plain recursion met more than {max_memo} sets")
        best = 0
        for p in pos:
            a = V & p
            if a and a != V:
                value = 1 + min(rec(a), rec(V ^ a))
                if value > best:
                    best = value
        memo[V] = best
        return best

    return rec((1 << H) - 1)


def vcdim(cls: Any) -> int:
    """The VC dimension: the size of the largest set of points the class shatters.

    A depth-first search over sets of points in increasing order, extending a
    shattered set S only by points that split every labelling class of S, and
    stopping at the upper bound min(Ldim, ⌊log₂|H|⌋). VCdim(∅) = −1 (no set,
    not even the empty one, is shattered by no hypothesis), which keeps
    VCdim ≤ Ldim for every class. Exponential in the worst case; meant for
    small and structured classes.

    Examples
    --------
    >>> from game.theory.concepts import all_functions, intervals
    >>> vcdim(intervals(10)), vcdim(all_functions(3))
    (2, 3)
    """
    fc = as_finite_class(cls, "cls")
    H = fc.n_hypotheses
    if H <= 1:
        return H - 1
    upper = min(fc.engine.ldim(), int(math.log2(H)))
    B = fc.matrix > 0
    # points that split the class, one per class of equal-or-opposite columns
    B = B[:, B.any(axis=0) & ~B.all(axis=0)]
    B = B ^ B[0]
    _, first = np.unique(np.packbits(B.T, axis=1), axis=0, return_index=True)
    B = B[:, np.sort(first)]
    n = B.shape[1]
    best = min(1, n)
    if best >= upper:
        return best
    width = ((H + 63) >> 6) << 3
    pad = np.zeros((n, width * 8 - H), dtype=bool)
    pos = np.packbits(np.concatenate([B.T, pad], axis=1), axis=1, bitorder="little")
    neg = np.packbits(np.concatenate([~B.T, pad], axis=1), axis=1, bitorder="little")
    pos, neg = pos.view(np.uint64), neg.view(np.uint64)

    def dfs(classes: np.ndarray, size: int, cand: np.ndarray) -> bool:
        # S ∪ {x} is shattered iff x splits every labelling class of S; a point
        # that extends S ∪ {x} extends S, so the candidates only shrink
        nonlocal best
        splits = (classes[:, None, :] & pos[cand][None]).any(axis=2)
        splits &= (classes[:, None, :] & neg[cand][None]).any(axis=2)
        ok = cand[splits.all(axis=0)]
        for i, x in enumerate(ok.tolist()):
            if size + (ok.size - i) <= best:
                break
            if size + 1 > best:
                best = size + 1
                if best >= upper:
                    return True
            children = np.concatenate([classes & pos[x], classes & neg[x]])
            if dfs(children, size + 1, ok[i + 1 :]):
                return True
        return False

    everyone = np.packbits(
        np.concatenate([np.ones(H, dtype=bool), pad[0]]), bitorder="little"
    ).view(np.uint64)
    dfs(everyone[None, :], 0, np.arange(n))
    return best
