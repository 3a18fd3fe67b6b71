"""The exact Littlestone dimension of a finite class and of its restrictions, fast.

Ldim is defined by the recursion (Shalev-Shwartz & Ben-David §21.1.1,
Definition 21.5; the chapter of seed 000)::

    Ldim(∅) = −1,   Ldim({h}) = 0,
    Ldim(V) = 1 + max over points x that split V of min(Ldim(V_x⁺), Ldim(V_x⁻)),

where V_x^y = {h ∈ V : h(x) = y}. Computing it is quasi-polynomial at best;
:class:`LdimEngine` answers the *decision* question "is Ldim(V) ≥ k?" by a
depth-first search with these devices, each of which keeps the answer exact:

- **Canonical restricted classes.** A set V is reduced to the points that
  still split it (a point on which all of V agrees is dropped), every column
  is flipped so that V's first hypothesis reads 0 (so two points that split V
  identically, or oppositely, become equal columns and are merged), and the
  columns are packed into 64-bit words (a bitset over V per point). The bytes
  of that packed matrix are the memo key: two restrictions that are equal on
  the points that still split them share one entry, even when they come from
  different hypotheses (intervals inside [3, 9] and inside [20, 26] are one
  key).
- **Bounds kept in the memo.** Each key holds a lower bound, an upper bound and
  a witness point; a question inside the bounds is answered at once.
- **Cut-offs.** Ldim(V) ≤ ⌊log₂|V|⌋, and more sharply Ldim(V) ≤ 1 + ⌊log₂ b⌋
  with b the largest minority count of a point. So Ldim(V) ≥ k needs a point
  whose both sides hold at least 2^(k−1) hypotheses, and each side must itself
  have a point whose minority is at least 2^(k−2): both are read off bit
  counts (popcounts over the packed words) before a side is ever built.
  Ldim ≥ 1, ≥ 2 and ≥ 3 are decided from counts alone.
- **Monotonicity.** V ⊆ W implies Ldim(V) ≤ Ldim(W). Within one question, a
  side contained in a side already refuted is refuted, and a side containing
  one already confirmed is confirmed, by a bitset test and no search.
- **Iterative deepening.** The exact value is found by asking k = lb + 1,
  lb + 2, … until the answer is no; the memo carries everything learnt from
  one question to the next, and from one call to the next.
- **A compiled search** (with numba installed, the ``fast`` extra):
  :mod:`game.theory._ldim_loop` runs the same search, with the same cut-offs
  and the same order of candidate points, as machine code without a memo. It
  takes every question "≥ k" with k ≤ 8, and every question on a state with
  at most 64 points that still split it (over few points a memo saves less
  than it costs: decision lists over 5 bits of length 10 are 15,036
  hypotheses over 32 points); larger questions stay here, in the memo, their
  sides gathered and counted by compiled loops. The loop is loaded (about a
  second, once per process) by the first engine of a class with at least
  65,536 matrix entries; smaller classes stay with numpy until it is loaded.
  :func:`compiled` switches it off; the answers and the witnesses are the
  same either way.

No bound sharper than the two counting bounds above is used before the
search. The counting bounds taken one or two levels deeper (1 + the largest
over points x of the smaller of the sides' bounds) give nothing on the
classes that cost the most: for decision lists over 5 bits of length 10,
Ldim 12, they give 13 at every depth tried, as ⌊log₂ 15,036⌋ does, and the
search must refute "≥ 13" by itself (it is 99% of the work).

One engine serves one class (``FiniteClass.engine`` keeps one per class), so a
game's many restriction questions share what was computed. The engine works on a
±1 matrix alone, so it sits below both the concept classes that keep it and
:mod:`game.theory.littlestone`, which exports it and builds trees with it.

Examples
--------
>>> import numpy as np
>>> from game.theory.littlestone import LdimEngine
>>> M = np.array([[1, 1, 1], [-1, 1, 1], [-1, -1, 1], [-1, -1, -1]])  # 4 thresholds
>>> e = LdimEngine(M)
>>> e.ldim(), e.ldim([1, 2, 3]), e.at_least(None, 3)
(2, 1, False)
>>> e.witness()      # the middle point splits the thresholds 2 | 2
1
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from game.errors import ParameterError, check_integer
from game.theory._compiled import compiled, compiled_enabled

__all__ = ["LdimEngine", "available", "popcount_rows"]

#: How many row masks' dimensions :meth:`LdimEngine.ldim` remembers as they are.
_MASK_CACHE = 1 << 14

if hasattr(np, "bitwise_count"):

    def popcount_rows(words: np.ndarray) -> np.ndarray:
        """The number of set bits in each row of a 2-D ``uint64`` array.

        Examples
        --------
        >>> popcount_rows(np.array([[3, 1], [0, 255]], dtype=np.uint64)).tolist()
        [3, 8]
        """
        return np.bitwise_count(words).sum(axis=1, dtype=np.int64)

else:  # numpy < 2.0
    _POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)

    def popcount_rows(words: np.ndarray) -> np.ndarray:
        """The number of set bits in each row of a 2-D ``uint64`` array."""
        w = np.ascontiguousarray(words)
        return _POP8[w.view(np.uint8)].reshape(w.shape[0], -1).sum(axis=1)


#: The compiled loop, once loaded (switched by :func:`game.theory.compiled`).
_kernels: dict[str, Any] = {"loop": None, "failed": None}

#: The entries a class's matrix needs for its engine to load the compiled loop (about a
#: second, once per process); smaller classes stay with numpy unless numba is loaded already.
_WORTH = 1 << 16
#: Questions "Ldim ≥ k" with k at most this go to the compiled search whatever the state.
_NATIVE_K = 8
#: So do all questions on a state with at most this many points that still split it:
#: over few points the search without a memo costs less than the memo saves.
_NATIVE_POINTS = 64


def _loop():
    """The compiled module (:mod:`game.theory._ldim_loop`), or None (no numba, or switched off)."""
    if not compiled_enabled():
        return None
    if _kernels["loop"] is None and _kernels["failed"] is None:
        try:
            from game.theory import _ldim_loop as loop

            one = np.ones((1, 1), dtype=np.uint64)  # compile (or load) the loop now
            loop.ge(one, np.ones(1, dtype=np.int64), 2, 2)
            loop.compress(one, one[0], 1)
        except Exception as exc:  # no numba, one built for another numpy, or a broken one
            _kernels["failed"] = f"{type(exc).__name__}: {exc}"
        else:
            _kernels["loop"] = loop
    return _kernels["loop"]


def available() -> bool:
    """Whether the compiled search can run (numba is installed and loads).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    with compiled(True):
        return _loop() is not None


#: About how many bits a block holds unpacked (a megabyte at a time).
_BLOCK = 1 << 20


def _pack(bits: np.ndarray) -> np.ndarray:
    """Rows of bits (bool or 0/1 uint8), packed little-endian into whole 64-bit words.

    Examples
    --------
    >>> _pack(np.array([[1, 0, 1], [0, 1, 1]], dtype=bool)).tolist()
    [[5], [6]]
    """
    k, r = bits.shape
    out = np.zeros((k, ((r + 63) >> 6) << 3), dtype=np.uint8)
    out[:, : (r + 7) >> 3] = np.packbits(bits, axis=1, bitorder="little")
    return out.view(np.uint64)


def _unpack(words: np.ndarray, r: int) -> np.ndarray:
    """The first r bits of each row of packed words, as 0/1 uint8 (the inverse of _pack)."""
    return np.unpackbits(words.view(np.uint8), axis=-1, count=r, bitorder="little")


def _room(buffer: np.ndarray, used: int) -> np.ndarray:
    """``buffer``, doubled in length when its ``used`` rows fill it."""
    if used < buffer.shape[0]:
        return buffer
    grown = np.empty((2 * buffer.shape[0], buffer.shape[1]), dtype=buffer.dtype)
    grown[:used] = buffer[:used]
    return grown


class _State:
    """One restricted class, reduced and packed (see the module docstring)."""

    __slots__ = ("P", "cnt", "cols", "key", "r", "rows")

    def __init__(self, r: int, rows: np.ndarray):
        self.r = r
        self.rows = rows
        self.P = self.cols = self.cnt = self.key = None


class LdimEngine:
    """Exact Littlestone dimensions of a ±1 matrix and of its row subsets.

    Parameters
    ----------
    matrix : array_like
        ±1 (or bool) entries, hypotheses × points, rows distinct.

    Attributes
    ----------
    stats : dict
        Counters: ``questions`` (searches that were not settled by the memo),
        ``states`` (restrictions reduced and keyed), ``pruned`` (candidate
        points settled by monotonicity), and the memo's size in ``memo``.

    Notes
    -----
    The memo grows with every question and is never trimmed; an engine for a
    class of 32,897 intervals over 256 points holds a few hundred entries
    after computing its dimension.
    """

    def __init__(self, matrix: Any):
        M = np.asarray(matrix)
        if M.ndim != 2:
            raise ParameterError("matrix", matrix, "a 2-D matrix, hypotheses × points")
        self._M = M  # read, never copied: each state holds its bits packed
        self.n_hypotheses = int(M.shape[0])
        self.n_points = int(M.shape[1])
        self._memo: dict[bytes, list[int]] = {}
        self._full: dict[int, np.ndarray] = {}
        self._counts = {"questions": 0, "states": 0, "pruned": 0}
        self._top: _State | None = None
        self._by_mask: dict[bytes, int] = {}

    def _loop(self):
        """The compiled loop, for a class large enough to repay loading it (or once loaded)."""
        if self.n_hypotheses * self.n_points < _WORTH and "numba" not in sys.modules:
            return None
        return _loop()

    @property
    def stats(self) -> dict[str, int]:
        """Work done so far (see the class docstring)."""
        return {**self._counts, "memo": len(self._memo)}

    # -- states --------------------------------------------------------------------

    def _rows(self, rows: Any) -> np.ndarray:
        """Hypothesis indices from ``rows``: None (all), a bool mask, or indices."""
        if rows is None:
            return np.arange(self.n_hypotheses, dtype=np.intp)
        n = self.n_hypotheses
        expected = f"a bool mask of {n} entries or hypothesis indices in 0..{n - 1}"
        try:
            array = np.asarray(rows)
        except (TypeError, ValueError):
            raise ParameterError("rows", rows, expected) from None
        if array.dtype == np.bool_:
            if array.shape != (n,):
                raise ParameterError("rows", rows, expected)
            return np.flatnonzero(array)
        if array.size == 0:
            return np.zeros(0, dtype=np.intp)
        if array.dtype.kind not in "iu":
            raise ParameterError("rows", rows, expected)
        idx = np.unique(array.reshape(-1))
        if idx[0] < 0 or idx[-1] >= n:
            raise ParameterError("rows", rows, expected)
        return idx.astype(np.intp)

    def state(self, rows: Any = None) -> _State:
        """The reduced, keyed restriction to ``rows`` (a bool mask or indices; None: all)."""
        if rows is None:
            if self._top is None:
                idx = self._rows(None)
                self._top = self._from_matrix(idx, every=True)
            return self._top
        return self._from_matrix(self._rows(rows))

    def _from_matrix(self, idx: np.ndarray, every: bool = False) -> _State:
        """The state of the hypotheses ``idx``, packed from the matrix a block of points at once."""
        M, r = self._M, idx.size
        if r <= 1:
            return _State(r, idx)
        loop = self._loop()
        if loop is not None and M.dtype.kind in "biuf":
            P = loop.pack_points(M, idx, every)
            return self._make(P, np.arange(self.n_points), idx, r)
        P = np.empty((self.n_points, (r + 63) >> 6), dtype=np.uint64)
        step = max(1, _BLOCK // r)
        for a in range(0, self.n_points, step):
            block = M[:, a : a + step] if every else M[idx, a : a + step]
            P[a : a + step] = _pack(np.ascontiguousarray((block > 0).T))
        return self._make(P, np.arange(self.n_points), idx, r)

    def _side(self, st: _State, side: np.ndarray, cnt=None) -> _State:
        """The state of the hypotheses of ``st`` marked by ``side`` (a bool mask over them).

        ``cnt``, when known, is each of ``st``'s points' count of +1 bits on the side.
        """
        r = int(np.count_nonzero(side))
        if r <= 1:
            return _State(r, st.rows[side])
        loop = self._loop()
        if loop is not None:
            P = loop.compress(st.P, _pack(side[None])[0], r)
            return self._make(P, st.cols, st.rows[side], r, cnt)
        P = np.empty((st.P.shape[0], (r + 63) >> 6), dtype=np.uint64)
        step = max(1, _BLOCK // st.r)
        for a in range(0, P.shape[0], step):
            P[a : a + step] = _pack(np.compress(side, _unpack(st.P[a : a + step], st.r), axis=1))
        return self._make(P, st.cols, st.rows[side], r, cnt)

    def _make(self, P: np.ndarray, cols: np.ndarray, rows: np.ndarray, r: int, cnt=None) -> _State:
        """Reduce V's packed bits (points × words over V's r hypotheses) to its canonical form.

        P must be the caller's own: its rows are flipped in place.
        """
        st = _State(r, rows)
        if r <= 1:
            return st
        self._counts["states"] += 1
        if cnt is None:
            cnt = popcount_rows(P)
        live = (cnt > 0) & (cnt < r)
        if not live.all():
            P, cols, cnt = P[live], cols[live], cnt[live]
        flip = (P[:, 0] & np.uint64(1)).astype(bool)
        if flip.any():
            P[flip] ^= self._ones(r)
            cnt = np.where(flip, r - cnt, cnt)
        nbytes = P.shape[1] << 3
        _, first = np.unique(P.view(np.dtype((np.void, nbytes))).ravel(), return_index=True)
        if first.size < P.shape[0]:
            first.sort()
            P, cols, cnt = P[first], cols[first], cnt[first]
        st.cols, st.cnt = cols, cnt
        # the memo key holds the bits; the state reads them there (one copy, not two)
        st.key = r.to_bytes(8, "little") + P.tobytes()
        st.P = np.frombuffer(st.key, dtype=np.uint64, offset=8).reshape(P.shape)
        return st

    def _entry(self, st: _State) -> list[int]:
        e = self._memo.get(st.key)
        if e is None:
            most = int(np.minimum(st.cnt, st.r - st.cnt).max())
            e = self._memo[st.key] = [1, most.bit_length(), -1]
        return e

    def _ones(self, r: int) -> np.ndarray:
        full = self._full.get(r)
        if full is None:
            bits = np.zeros(((r + 63) >> 6) << 6, dtype=bool)
            bits[:r] = True
            full = self._full[r] = np.packbits(bits, bitorder="little").view(np.uint64)
        return full

    # -- the decision question ---------------------------------------------------

    def _ge(self, st: _State, k: int) -> bool:
        """Is Ldim(V) ≥ k?"""
        r = st.r
        if r <= 1 or k <= 1:
            return k <= r - 1
        e = self._entry(st)
        if k <= e[0]:
            return True
        if k > e[1]:
            return False
        self._counts["questions"] += 1
        cnt = st.cnt
        loop = self._loop() if k <= _NATIVE_K or st.P.shape[0] <= _NATIVE_POINTS else None
        if loop is not None:  # the same search, compiled, with no memo below this question
            j = int(loop.ge(np.array(st.P), cnt, r, k))
            if j >= 0:
                e[0], e[2] = k, j
                return True
            e[1] = k - 1
            return False
        bal = np.minimum(cnt, r - cnt)
        if k == 2:
            best = int(np.argmax(bal))
            if bal[best] >= 2:
                e[0], e[2] = 2, best
                return True
            e[1] = 1
            return False
        need = 1 << (k - 1)
        half = need >> 1
        cand = np.flatnonzero(bal >= need)
        if cand.size:
            cand = cand[np.argsort(-bal[cand], kind="stable")]
        P = st.P
        full = self._ones(r)
        # the sides refuted and confirmed so far, in buffers that grow as they fill
        refuted = np.empty((8, P.shape[1]), dtype=np.uint64)
        confirmed = np.empty((8, P.shape[1]), dtype=np.uint64)
        n_ref = n_conf = 0
        loop = self._loop()
        for j in cand.tolist():
            A = P[j]
            B = full ^ A
            if n_ref:  # a side inside a side refuted: refuted too
                if loop is not None:
                    inside = loop.covered(A, refuted, n_ref, False, r) or loop.covered(
                        A, refuted, n_ref, True, r
                    )
                else:
                    R = refuted[:n_ref]
                    inside = not (A & ~R).any(axis=1).all() or not (B & ~R).any(axis=1).all()
                if inside:
                    self._counts["pruned"] += 1
                    continue
            # each point's count on the side A
            sp = popcount_rows(P & A) if loop is None else loop.counts_with(P, j)
            rp = int(cnt[j])
            sm = cnt - sp
            rm = r - rp
            if (
                int(np.minimum(sp, rp - sp).max()) < half
                or int(np.minimum(sm, rm - sm).max()) < half
            ):
                continue
            if k == 3:  # both sides have a point splitting them 2 | 2: Ldim ≥ 2 each
                e[0], e[2] = 3, j
                return True
            mask = _unpack(A, r).view(bool)
            sides = [(A, mask, sp), (B, ~mask, sm)]
            if rp > rm:
                sides.reverse()
            ok = True
            for packed, side, counts in sides:
                if n_conf and not (confirmed[:n_conf] & ~packed).any(axis=1).all():
                    self._counts["pruned"] += 1
                    continue
                child = self._side(st, side, counts)
                found = self._ge(child, k - 1)
                del child  # one side at a time
                if found:
                    confirmed = _room(confirmed, n_conf)
                    confirmed[n_conf] = packed
                    n_conf += 1
                else:
                    refuted = _room(refuted, n_ref)
                    refuted[n_ref] = packed
                    n_ref += 1
                    ok = False
                    break
            if ok:
                e[0], e[2] = k, j
                return True
        e[1] = k - 1
        return False

    def _ldim(self, st: _State) -> int:
        if st.r <= 1:
            return st.r - 1
        e = self._entry(st)
        k = e[0]
        while k < e[1] and self._ge(st, k + 1):
            k += 1
        e[1] = k
        return k

    # -- public questions ----------------------------------------------------------

    def ldim(self, rows: Any = None) -> int:
        """Ldim of the restriction to ``rows`` (a bool mask or hypothesis indices; None: all).

        A mask of another length, an index out of range or a row that is neither
        is a :class:`~game.errors.ParameterError` naming ``rows``.

        Examples
        --------
        >>> import numpy as np
        >>> LdimEngine(np.eye(5) * 2 - 1).ldim()   # singletons
        1
        >>> LdimEngine(np.eye(5) * 2 - 1).ldim([])
        -1
        """
        if (
            isinstance(rows, np.ndarray)
            and rows.dtype == np.bool_
            and rows.shape == (self.n_hypotheses,)
        ):
            key = np.packbits(rows).tobytes()
            got = self._by_mask.get(key)
            if got is None:
                got = self._ldim(self.state(rows))
                if len(self._by_mask) >= _MASK_CACHE:
                    self._by_mask.clear()
                self._by_mask[key] = got
            return got
        return self._ldim(self.state(rows))

    def at_least(self, rows: Any, k: int) -> bool:
        """Is Ldim of the restriction to ``rows`` at least ``k``? Often far cheaper than ldim."""
        return self._ge(self.state(rows), check_integer("k", k))

    def witness(self, rows: Any = None) -> int | None:
        """A point x maximising min(Ldim(V_x⁺), Ldim(V_x⁻)); None when no point splits V.

        The maximum is Ldim(V) − 1 by the recursion; among the maximisers the
        search returns the first it proves, trying points by how evenly they
        split V (most even first, then by index).
        """
        found = self._split(self.state(rows), None)
        return None if found is None else found[0]

    def _split(self, st: _State, depth: int | None):
        """(x, plus) for a witness of Ldim ≥ depth: plus marks V's rows labelled +1 at x."""
        if depth is None:
            depth = self._ldim(st)
        if depth < 1 or st.r <= 1:
            return None
        if not self._ge(st, depth):
            raise ValueError(f"the restriction has Ldim < {depth}")
        e = self._entry(st)
        j = max(e[2], 0)
        x = int(st.cols[j])
        side = _unpack(st.P[j], st.r).view(bool)
        # the bits are flipped so that V's first hypothesis reads 0: undo that for the labels
        return x, (~side if self._M[st.rows[0], x] > 0 else side)

    def split(self, st: _State, depth: int | None = None):
        """A witness point of ``Ldim(st) ≥ depth`` (default: its Ldim) and the two sides.

        Returns ``(x, plus_state, minus_state)``, with ``x`` None (and no
        sides) when ``depth`` < 1 or no point splits the state. Each side has
        Ldim ≥ depth − 1.
        """
        found = self._split(st, depth)
        if found is None:
            return None, None, None
        x, plus = found
        plus_state = self._side(st, plus)
        minus_state = self._side(st, ~plus)
        return x, plus_state, minus_state

    def split_rows(self, st: _State, depth: int | None = None):
        """Like :meth:`split`, with the sides as hypothesis indices instead of states."""
        found = self._split(st, depth)
        if found is None:
            return None, None, None
        x, plus = found
        return x, st.rows[plus], st.rows[~plus]

    def state_ldim(self, st: _State) -> int:
        """Ldim of a state made by :meth:`state` or :meth:`split`."""
        return self._ldim(st)
