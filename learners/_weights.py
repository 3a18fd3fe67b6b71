"""Expert weights read from the cumulative losses alone: one game, or K games in lockstep.

Weighted Majority and Exponential Weights (:mod:`learners.experts`) keep
their weights in a :class:`Weights`, one game's; their lockstep kernels
(``learners._experts_lockstep``) keep K games' in a :class:`WeightRows`,
one game a row of K × N arrays. Both are built from the functions below,
which take one game's arrays (the experts on the only axis) or K games'
rows (the experts on the last axis) alike, and from the constants below,
defined here only. So the K games of a lockstep batch are their serial games
bit for bit: every weight, every total and every vote.

An expert's weight is a function of the cumulative losses and nothing else:

- *counted* (every loss so far 0 or 1, the zero-one updates): expert i has
  lost m_i times (an exact integer) and weighs ``table[m_i − min_j m_j]``,
  read from a table of powers computed once (:func:`powers`):
  ``table[k] = β**k`` for Weighted Majority, ``exp(−η·k)`` for Exponential
  Weights (:func:`count_step`);
- *graded* (from the first update by losses of any size, such as Exponential
  Weights' on graded advice): expert i has lost
  L_i, the losses added in the order of the rounds (so equal histories give
  bit-equal L_i), and weighs ``exp(−η·(L_i − min_j L_j))``, every weight
  recomputed from the losses at each update (:func:`graded_step`). A counted
  game turns graded at its first graded update; its m_i become L_i exactly.

So experts with equal cumulative losses have bit-equal weights at every
round, however the game went; the best expert weighs 1 and the total is at
least 1, so nothing overflows or underflows however long the game. Weights
below TINY (2⁻⁷⁰⁰, invisible in a sum of doubles) are 0, the same ones in
the table and in a graded rebuild, so none turns subnormal (slow).

A vote w·v (a BLAS dot, :func:`dot`) within N·ROUNDING of the total is
summed again exactly (:func:`near_even`, :func:`exact_dot`, ``math.fsum``),
so the vote of a tie of bit-equal weights is exactly 0 whatever order the
machine adds in.

Above SMALL experts one game's counted update is lazy, applied in the same
pass as the next round's vote (see :class:`Weights`); K games play in
lockstep only up to SMALL.

Examples
--------
>>> import numpy as np
>>> etas = [0.5, 2.0]
>>> rows, games = WeightRows(etas, 3), [Weights(3, eta) for eta in etas]
>>> wrong = np.array([[True, False, False], [True, True, False]])
>>> rows.zero_one_update(np.arange(2), wrong)
>>> for game, row in zip(games, wrong):
...     _ = game.zero_one_update(np.where(row, -1, 1), 1)
>>> [np.array_equal(rows.game(k).w, game.w) for k, game in enumerate(games)]
[True, True]
>>> v = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
>>> rows.vote(v).tolist() == [game.vote(x) for game, x in zip(games, v)]
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from learners.weight_kernels import accepts, weights_pass

__all__ = [
    "BLOCK",
    "CHUNK",
    "DOT_PIECE",
    "ROUNDING",
    "SMALL",
    "TINY",
    "WeightRows",
    "Weights",
    "count_step",
    "dot",
    "exact_dot",
    "graded_step",
    "near_even",
    "powers",
]

#: Up to this many experts an update is a few whole-array operations (and K games
#: play in lockstep); above it one game's counted update is lazy and blocked.
SMALL = 1024
#: Experts a block of the lazy pass holds (without the compiled pass).
BLOCK = 1 << 16
#: Length of the pieces a long dot product is split into: below OpenBLAS's
#: threshold for threads, so a dot never waits on threads of a busy machine.
DOT_PIECE = 8192
#: Weights below this (the best weighs 1) are 0.
TINY = 2.0**-700
#: Entries of a table of powers computed at a time.
CHUNK = 1024
#: A weighted vote within N·ROUNDING of the total weight is summed exactly.
ROUNDING = 2.0**-52


@functools.lru_cache(maxsize=1024)
def _chunk(eta: float, beta: float | None, c: int) -> np.ndarray:
    """Entries c·CHUNK, …, (c + 1)·CHUNK − 1 of a table of powers (read-only)."""
    k = np.arange(c * CHUNK, (c + 1) * CHUNK, dtype=np.float64)
    if beta is None:  # as graded_step computes exp(−η·(L − min L)) where L − min L = k
        values = np.exp(np.multiply(k, -eta))
    else:  # Python's float power, exact where β^k is a double (β = 1/2: 2^(−k))
        values = np.array([beta**i for i in range(c * CHUNK, (c + 1) * CHUNK)])
    values[values < TINY] = 0.0
    values.flags.writeable = False
    return values


def powers(eta: float, beta: float | None, length: int) -> np.ndarray:
    """The weights of 0, 1, 2, … losses: ``β**k`` (with ``beta``), else ``exp(−η·k)``.

    At least ``length`` entries, or fewer when the table is *complete*: it
    ends with 0, past TINY, and every later entry is 0 too. An entry is a
    function of k alone (tables are built of the same chunks of CHUNK
    entries, whoever asks and however long), and ``exp(−η·k)`` is the value
    :func:`graded_step` gives a loss of k above the best.

    Examples
    --------
    >>> powers(math.log(2.0), 0.5, 4)[:4].tolist()
    [1.0, 0.5, 0.25, 0.125]
    >>> t = powers(800.0, None, 5000)
    >>> t.shape, t[:2].tolist()
    ((1024,), [1.0, 0.0])
    """
    chunks = []
    for c in range(max(1, -(-int(length) // CHUNK))):
        chunks.append(_chunk(float(eta), None if beta is None else float(beta), c))
        if chunks[-1][-1] == 0.0:
            break
    return np.concatenate(chunks) if len(chunks) > 1 else chunks[0]


def _complete(table: np.ndarray) -> bool:
    return bool(table[-1] == 0.0)


def dot(a: np.ndarray, b: np.ndarray):
    """a·b along the last axis as single-threaded BLAS dot products.

    Two vectors give a float (a long one summed in pieces of DOT_PIECE); two
    K × N matrices (N ≤ DOT_PIECE) give the K dots of their rows, each the
    BLAS dot the vectors would give.

    Examples
    --------
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> dot(a[0], a[1]), dot(a, a).tolist()
    (11.0, [5.0, 25.0])
    """
    if a.ndim > 1:
        return np.vecdot(a, b)
    n = a.shape[0]
    if n <= DOT_PIECE:
        return float(np.dot(a, b))
    k = n // DOT_PIECE
    m = k * DOT_PIECE
    pieces = np.matmul(a[:m].reshape(k, 1, DOT_PIECE), b[:m].reshape(k, DOT_PIECE, 1))
    total = float(pieces.sum())
    if m < n:
        total += float(np.dot(a[m:], b[m:]))
    return total


def near_even(product, n: int, total):
    """Whether a vote's sign could be its rounding's: |w·v| ≤ N·ROUNDING·Σw (elementwise).

    A sum of N terms w_i·v_i with |v_i| ≤ 1 rounds by less than that in any
    order of the additions.

    Examples
    --------
    >>> near_even(1e-20, 4, 1.0), near_even(np.array([0.0, 0.5]), 4, 1.0).tolist()
    (True, [True, False])
    """
    return abs(product) <= n * ROUNDING * total


def exact_dot(w: np.ndarray, v: np.ndarray) -> float:
    """w·v summed exactly (``math.fsum``, correctly rounded): an even vote is exactly 0.0.

    Examples
    --------
    >>> exact_dot(np.array([1e16, 1.0, 1e16]), np.array([1.0, 1.0, -1.0]))
    1.0
    """
    return math.fsum(np.multiply(w, v).tolist())


def _gather(table: np.ndarray, above: np.ndarray, w: np.ndarray, kind=None) -> None:
    """w = table[above], an index past a complete table's end reading its last entry, 0.

    With ``kind`` (one per row of ``above``), ``table`` holds one table a row
    and row r reads the table ``kind[r]``.
    """
    if kind is None:
        table.take(above, mode="clip", out=w)
    else:  # table kind[r]'s entry k is entry kind[r]·len + k of the flat tables
        length = table.shape[1]
        np.minimum(above, length - 1, out=above)
        above += (np.asarray(kind, dtype=np.int64) * length)[:, None]
        np.take(table.ravel(), above, out=w)


def count_step(counts: np.ndarray, wrong: np.ndarray, table: np.ndarray, w: np.ndarray,
               kind=None):  # fmt: skip
    """The wrong experts of each row lose 1: m_i += 1, w_i = table[m_i − min m]; returns
    each row's (min m, Σ w).

    ``table`` is :func:`powers`' (for K rows, the distinct tables as the rows
    of a matrix and ``kind`` the one each row reads), long enough for every
    m_i − min m or complete. The total is numpy's pairwise sum of each row,
    as ``w.sum()``.

    Examples
    --------
    >>> counts, w = np.zeros(3, dtype=np.int64), np.ones(3)
    >>> least, total = count_step(counts, np.array([True, False, True]), powers(0.7, 0.5, 8), w)
    >>> int(least), float(total), w.tolist(), counts.tolist()
    (0, 2.0, [0.5, 1.0, 0.5], [1, 0, 1])
    """
    counts += wrong
    least = counts.min(axis=-1)
    above = counts - (least if counts.ndim == 1 else least[:, None])
    _gather(table, above, w, kind)
    return least, np.add.reduce(w, -1)


def graded_step(losses: np.ndarray, new: np.ndarray, w: np.ndarray, eta):
    """L_i += ℓ_i (any ℓ_i ≥ 0), then w_i = exp(−η·(L_i − min L)); returns each row's
    (min L, Σ w).

    ``eta`` is a float, or one per row as a K × 1 array. The best expert
    weighs 1 and the weights below TINY are 0.

    Examples
    --------
    >>> losses, w = np.array([1.0, 2.0]), np.ones(2)
    >>> least, total = graded_step(losses, np.array([0.0, 1.0]), w, math.log(2.0))
    >>> float(least), float(total), w.tolist(), losses.tolist()
    (1.0, 1.25, [1.0, 0.25], [1.0, 3.0])
    """
    np.add(losses, new, out=losses)
    least = losses.min(axis=-1)
    np.subtract(losses, least if losses.ndim == 1 else least[:, None], out=w)
    np.multiply(w, -eta, out=w)
    np.exp(w, out=w)
    w[w < TINY] = 0.0
    return least, np.add.reduce(w, -1)


class Weights:
    """One game's expert weights, read from the cumulative losses alone (see the module).

    Counted, the state is the integer losses ``counts`` (m_i), their least
    ``least`` and a table of powers; graded, the float losses ``graded_losses``
    (L_i) and their least. Up to SMALL experts the weights ``w`` and their
    ``total`` are kept, recomputed at each update.

    Above SMALL experts a counted update is applied lazily, in the same call
    as the next round's weighted sum, and no weight is kept: the call raises
    the wrong experts' counts and finds the least, then sums
    ``table[m_i − least]`` and ``table[m_i − least]·v_i``. Every read of
    ``w``, ``total``, the losses or a dot product applies a pending update
    first. The call is two compiled loops when numba is installed
    (:mod:`learners.weight_kernels`), else numpy operations over blocks of
    2¹⁶ experts; both give the same counts, so the same weights, bit for bit
    (their sums may differ in the last bits, which :meth:`vote` does not
    see).

    Parameters
    ----------
    n : int
        N, the experts.
    eta : float
        η > 0: a loss of k above the best weighs exp(−η·k).
    beta : float, optional
        β = e^(−η) as the learner gives it: counted weights are then
        ``β**k`` (Weighted Majority), else ``exp(−η·k)``.

    Examples
    --------
    >>> weights = Weights(2, math.log(2.0), beta=0.5)
    >>> weights.zero_one_update(np.array([1, -1], dtype=np.int8), 1), weights.total
    (True, 1.5)
    >>> weights.vote(np.array([1.0, -1.0])), weights.losses().tolist()
    (0.5, [0.0, 1.0])
    """

    def __init__(self, n: int, eta: float, beta: float | None = None):
        self.eta = float(eta)
        self.beta = None if beta is None else float(beta)
        self.counts = np.zeros(n, dtype=np.int64)
        self.graded_losses: np.ndarray | None = None
        self.least: float = 0
        self.table = powers(self.eta, self.beta, 2)
        self.span = 0  # a bound on max m − least: the table reaches it or is complete
        self.lazy = n > SMALL  # counted updates wait for the next pass
        self._w = None if self.lazy else np.ones(n)
        self._total = float(n)
        self._pending: tuple[np.ndarray, int] | None = None
        self._none = np.zeros(0, dtype=np.int8)

    @property
    def n(self) -> int:
        return self.counts.shape[0]

    @property
    def w(self) -> np.ndarray:
        """The weights, the best 1 (the pending update applied)."""
        self._settle()
        if self._w is not None:
            return self._w
        w = np.empty(self.n)
        _gather(self.table, self.counts - self.least, w)
        return w

    @property
    def total(self) -> float:
        """Σ_i w_i (the pending update applied)."""
        self._settle()
        return self._total

    def untouched(self) -> bool:
        """Whether no loss has reached the weights yet: every w_i = 1.

        Examples
        --------
        >>> weights = Weights(2, 1.0)
        >>> before = weights.untouched()
        >>> _ = weights.zero_one_update(np.array([1, -1], dtype=np.int8), 1)
        >>> before, weights.untouched()
        (True, False)
        """
        return self._pending is None and self.graded_losses is None and not self.counts.any()

    def losses(self) -> np.ndarray:
        """L_i, every expert's cumulative loss (a new array)."""
        self._settle()
        return (
            self.counts.astype(np.float64)
            if self.graded_losses is None
            else self.graded_losses.copy()
        )

    def potential(self) -> float:
        """Φ = −ln Σ_i exp(−η·L_i) = η·min L − ln Σ_i w_i, from the weights of the losses.

        Examples
        --------
        >>> weights = Weights(2, 21.0)        # two experts, each loses once
        >>> weights.zero_one_update(np.array([1, 1], dtype=np.int8), -1)
        True
        >>> weights.potential() == 21.0 - math.log(2.0), weights.w.tolist()
        (True, [1.0, 1.0])
        """
        self._settle()
        return self.eta * self.least - math.log(self._total)

    def dot(self, v: np.ndarray) -> float:
        """Σ_i w_i·v_i, the best weighing 1 (the pending update applied)."""
        if self._w is not None:
            if self._pending is not None:
                self._settle()
            return dot(self._w, v)
        return self._pass(v)

    def vote(self, v: np.ndarray) -> float:
        """w·v for a prediction, summed exactly when its rounding could decide its sign.

        When the fast sum (BLAS, numpy or the compiled pass) is within
        N·2⁻⁵²·Σ w of 0 (:func:`near_even`), the products are summed again
        exactly (:func:`exact_dot`): an even vote of the weights is then
        exactly 0.0, and a vote barely off even keeps its sign, whatever order
        the machine adds in. (Advice outside [−1, 1] widens the rounding past
        the window.)
        """
        product = self.dot(v)
        if near_even(product, self.n, self._total):
            product = exact_dot(self.w, v)
        return product

    def split(self, plus: np.ndarray) -> float:
        """Σ_i w_i·s_i with s_i = +1 where ``plus`` (booleans), else −1: a majority vote.

        Formed as 2·Σ_{plus} w_i − Σ w (one dot product, of the booleans);
        when that is within 2N·ROUNDING·Σ w of 0, more than its rounding can
        be (3N·u·Σ w, u = 2⁻⁵³, in any order of the additions), the vote is
        summed again exactly (:func:`exact_dot`): its sign is then always the
        exact one, and an even vote is exactly 0.0.

        Examples
        --------
        >>> weights = Weights(3, math.log(2.0), beta=0.5)
        >>> _ = weights.zero_one_update(np.array([False, True, True]), False)
        >>> weights.w.tolist()
        [1.0, 0.5, 0.5]
        >>> weights.split(np.array([True, False, False]))   # 1 against 1/2 + 1/2
        0.0
        >>> weights.split(np.array([False, True, False]))
        -1.0
        """
        vote = 2.0 * self.dot(plus) - self._total
        if near_even(vote, 2 * self.n, self._total):
            vote = exact_dot(self.w, np.where(plus, 1.0, -1.0))
        return vote

    def zero_one_update(self, labels: np.ndarray, y) -> bool:
        """Experts with ``labels[i] != y`` lose 1: labels ±1 and y ±1, or booleans and y a bool.

        Returns False, changing nothing, when no expert loses.
        """
        self._settle()
        if self.graded_losses is not None:
            wrong = labels != y
            if not np.count_nonzero(wrong):
                return False
            self._grade(wrong)
            return True
        if self.lazy:
            if int(labels.min() if y > 0 else labels.max()) == y:  # every label is y
                return False
            self._reach(self.span + 1)
            self._pending = (labels, y)
            return True
        wrong = labels != y
        if not wrong.any():
            return False
        if self.span + 1 >= self.table.shape[0]:
            self._reach(self.span + 1)
        least, total = count_step(self.counts, wrong, self.table, self._w)
        self.span += 1 - (int(least) - self.least)  # max m rose by ≤ 1, the least by this
        self.least, self._total = int(least), float(total)
        return True

    def update(self, losses: np.ndarray) -> None:
        """L_i += ℓ_i for any losses ℓ_i ≥ 0 (the game turns graded), weights recomputed.

        Losses all 0 change nothing (the game stays counted).
        """
        self._settle()
        if not np.any(losses):
            return
        self._grade(losses)

    def _grade(self, losses: np.ndarray) -> None:
        if self.graded_losses is None:
            self.graded_losses = self.counts.astype(np.float64)
            if self._w is None:
                self._w = np.empty(self.n)
        least, total = graded_step(self.graded_losses, losses, self._w, self.eta)
        self.least, self._total = float(least), float(total)

    def _counted(self, least: int, total: float) -> None:
        self.span += 1 - (least - self.least)  # max m rose by ≤ 1, the least by this
        self.least, self._total = least, total

    def _reach(self, top: int) -> None:
        """The table of powers long enough for a count ``top`` above the least (or complete)."""
        if top >= self.table.shape[0] and not _complete(self.table):
            self.table = powers(self.eta, self.beta, max(top + 1, 2 * self.table.shape[0]))

    def _settle(self) -> None:
        if self._pending is not None:
            self._pass(None)

    def _pass(self, v: np.ndarray | None) -> float:
        """One call over the counts: apply the pending update, then (Σ w, w·v); returns w·v."""
        labels, y = self._pending if self._pending is not None else (None, 0)
        run = weights_pass()
        if run is not None and (v is None or accepts(v)) and (labels is None or accepts(labels)):
            total, product, least = run(
                self.counts,
                self.table,
                self.least,
                labels if labels is not None else self._none,
                y,
                v if v is not None else self._none,
                labels is not None,
                v is not None,
            )
        else:
            total, product, least = self._numpy_pass(labels, y, v)
        if labels is not None:
            self._pending = None
            self._counted(int(least), float(total))
        return float(product)

    def _numpy_pass(self, labels, y: int, v) -> tuple:
        """:meth:`_pass` with numpy, block by block: (Σ w, w·v, least) after the update."""
        counts, n = self.counts, self.counts.shape[0]
        least = self.least
        if labels is not None:
            least = None
            for s in range(0, n, BLOCK):
                block = counts[s : s + BLOCK]
                block += labels[s : s + BLOCK] != y
                lowest = int(block.min())
                least = lowest if least is None else min(least, lowest)
        size = min(n, BLOCK)
        above, w, values = np.empty(size, dtype=np.int64), np.empty(size), np.empty(size)
        total = product = 0.0
        for s in range(0, n, BLOCK):
            e = min(s + BLOCK, n)
            a, b = above[: e - s], w[: e - s]
            np.subtract(counts[s:e], least, out=a)
            np.take(self.table, a, mode="clip", out=b)
            total += float(np.add.reduce(b))
            if v is not None:
                x = values[: e - s]
                np.copyto(x, v[s:e], casting="unsafe")
                product += dot(b, x)
        return total, product, least


class WeightRows:
    """The weights of K games as the rows of K × N arrays (N ≤ SMALL), each game's as its
    :class:`Weights` would be, bit for bit.

    Every method acts on the games ``idx`` (an array of row indices) with the
    functions one game's :class:`Weights` uses, and keeps each game's own η
    (and β), counts or graded losses, least, table of powers and total. Games
    with the same η and β share a table.

    Parameters
    ----------
    etas : sequence of float
        Each game's η.
    n : int
        N, the experts of every game.
    betas : sequence of float or None, optional
        Each game's β (Weighted Majority: counted weights ``β**k``).

    Examples
    --------
    >>> rows = WeightRows([math.log(2.0)], 2)
    >>> rows.update(np.array([0]), np.array([[0.0, 0.5]]))
    >>> rows.w.tolist(), rows.total.tolist(), rows.game(0).losses().tolist()
    ([[1.0, 0.7071067811865476]], [1.7071067811865475], [0.0, 0.5])
    """

    def __init__(self, etas: Sequence[float], n: int, betas: Sequence | None = None):
        self.eta = np.array(etas, dtype=np.float64).reshape(-1)
        k_games = self.eta.shape[0]
        betas = [None] * k_games if betas is None else betas
        keys = [
            (eta, None if beta is None else float(beta))
            for eta, beta in zip(self.eta.tolist(), betas, strict=True)
        ]
        number = {key: k for k, key in enumerate(dict.fromkeys(keys))}
        self.kinds = list(number)  # the distinct (η, β), one table each
        self.kind = np.array([number[key] for key in keys], dtype=np.int64)
        self.tables = np.stack([powers(eta, beta, 2) for eta, beta in self.kinds])
        self.counts = np.zeros((k_games, n), dtype=np.int64)
        self.graded_losses = np.zeros((k_games, n))
        self.graded = np.zeros(k_games, dtype=bool)
        self.least = np.zeros(k_games)
        self.span = np.zeros(k_games, dtype=np.int64)
        self.w = np.ones((k_games, n))
        self.total = np.full(k_games, float(n))

    @staticmethod
    def fits(n: int) -> bool:
        """Whether K games of n experts play as rows: one game's arithmetic is then whole-array
        (up to SMALL), which the rows repeat; above, it is lazy, which they do not.

        Examples
        --------
        >>> WeightRows.fits(1024), WeightRows.fits(1025)
        (True, False)
        """
        return n <= SMALL

    def vote(self, v: np.ndarray) -> np.ndarray:
        """Each game's w·v (v one row a game), summed exactly where :func:`near_even`."""
        product = dot(self.w, v)
        for k in np.flatnonzero(near_even(product, self.w.shape[1], self.total)):
            product[k] = exact_dot(self.w[k], v[k])
        return product

    def zero_one_update(self, idx: np.ndarray, wrong: np.ndarray) -> None:
        """Games ``idx`` (each with some wrong expert, ``wrong`` one row a game) lose 1 there."""
        graded = self.graded[idx]
        if graded.any():
            self._grade(idx[graded], wrong[graded].astype(np.float64))
            idx, wrong = idx[~graded], wrong[~graded]
        if not idx.size:
            return
        self._reach(idx, self.span[idx] + 1)
        counts, w = self.counts[idx], self.w[idx]
        least, total = count_step(counts, wrong, self.tables, w, self.kind[idx])
        self.counts[idx], self.w[idx], self.total[idx] = counts, w, total
        self.span[idx] += 1 - (least - self.least[idx]).astype(np.int64)
        self.least[idx] = least

    def update(self, idx: np.ndarray, losses: np.ndarray) -> None:
        """Games ``idx``: L_i += ℓ_i (``losses`` one row a game, each with some loss > 0)."""
        if idx.size:
            self._grade(idx, losses)

    def _grade(self, idx: np.ndarray, losses: np.ndarray) -> None:
        fresh = idx[~self.graded[idx]]
        self.graded_losses[fresh] = self.counts[fresh]
        self.graded[fresh] = True
        graded, w = self.graded_losses[idx], self.w[idx]
        least, total = graded_step(graded, losses, w, self.eta[idx, None])
        self.graded_losses[idx], self.w[idx], self.total[idx] = graded, w, total
        self.least[idx] = least

    def _reach(self, idx: np.ndarray, top: np.ndarray) -> None:
        """Every table long enough for the counts ``top`` of games ``idx`` (or complete)."""
        length = self.tables.shape[1]
        short = [k for k in np.unique(self.kind[idx[top >= length]])
                 if not _complete(self.tables[k])]  # fmt: skip
        if not short:
            return
        length = max(int(top.max()) + 1, 2 * length)
        grown = np.zeros((len(self.kinds), length))
        for k, (eta, beta) in enumerate(self.kinds):
            table = powers(eta, beta, length)[:length]
            grown[k, : table.shape[0]] = table  # a complete table's zeros go on
        self.tables = grown

    def game(self, k: int) -> Weights:
        """Game k's weights as a :class:`Weights` of their own (copies of row k)."""
        eta, beta = self.kinds[self.kind[k]]
        weights = Weights(self.w.shape[1], eta, beta)
        weights.counts = self.counts[k].copy()
        if self.graded[k]:
            weights.graded_losses = self.graded_losses[k].copy()
            weights.least = float(self.least[k])
        else:
            weights.least = int(self.least[k])
            weights.span = int(self.span[k])
            weights._reach(weights.span)
        weights._w = self.w[k].copy()
        weights._total = float(self.total[k])
        return weights
