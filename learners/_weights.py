"""Expert weights w_i = exp(−η·L_i): the arithmetic, once, for one game or K games in lockstep.

Weighted Majority and Exponential Weights (:mod:`learners.experts`) keep
their weights in a :class:`Weights`, one game's; their lockstep kernels
(:mod:`learners._experts_lockstep`) keep K games' in a :class:`WeightRows`,
one game a row of K × N arrays. Both are built from the functions below,
which take one game's arrays (the experts on the only axis) or K games'
rows (the experts on the last axis) alike, and from the constants below,
defined here only. So the K games of a lockstep batch are their serial games
bit for bit: every weight, every total and every vote.

- :func:`zero_one_step`: the wrong experts lose 1, L_i += 1 and
  w_i ×= e^(−η), and the total is re-summed (numpy's pairwise sum);
- :func:`due`: after a zero-one update, a rebuild is due once the weights
  may have decayed by e^(−DECAY) (``patience`` updates, at most
  MOST_PATIENCE) or when the total falls below FLOOR; else the unit losses
  are folded into the exact ones every FOLD updates (:func:`fold`);
- :func:`rebuild_step`: w = exp(−η·(L − min L)) from the exact losses, the
  weights below TINY set to 0, the total a BLAS dot with ones; a graded
  update (any losses) adds its losses and rebuilds;
- :func:`near_even` and :func:`exact_dot`: a vote w·v (a BLAS dot, :func:`dot`)
  within N·ROUNDING of the total is summed again exactly (``math.fsum``).

Above SMALL experts one game works block by block with a lazy update (see
:class:`Weights`); K games play in lockstep only up to SMALL.

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

import math
from collections.abc import Sequence

import numpy as np

from learners.weight_kernels import accepts, weights_pass

__all__ = [
    "BLOCK",
    "DECAY",
    "DOT_PIECE",
    "FLOOR",
    "FOLD",
    "MOST_PATIENCE",
    "ROUNDING",
    "SMALL",
    "TINY",
    "WeightRows",
    "Weights",
    "dot",
    "due",
    "exact_dot",
    "fold",
    "lose_factor",
    "near_even",
    "patience",
    "rebuild_step",
    "weight_sum",
    "zero_one_step",
]

#: Up to this many experts an update is a few whole-array operations (and K games
#: play in lockstep); above it one game's update is lazy and blocked.
SMALL = 1024
#: Experts a block of the lazy pass and of a rebuild's sum holds.
BLOCK = 1 << 16
#: Length of the pieces a long dot product is split into: below OpenBLAS's
#: threshold for threads, so a dot never waits on threads of a busy machine.
DOT_PIECE = 8192
#: A rebuild is due once the weights may have decayed by e^(−DECAY) since the last.
DECAY = 200.0
#: ... or after this many zero-one updates, whatever η.
MOST_PATIENCE = 4096
#: ... or when the total weight falls below this.
FLOOR = 2.0**-500
#: Weights below this (the best is 1 after a rebuild) are set to 0 at a rebuild.
TINY = 2.0**-700
#: The int8 counts of recent unit losses are folded into the exact losses this often.
FOLD = 120
#: A weighted vote within N·ROUNDING of the total weight is summed exactly.
ROUNDING = 2.0**-52


def lose_factor(eta: float) -> float:
    """e^(−η) as an update multiplies by it: 1 + (e^(−η) − 1), what the blocked pass computes.

    Examples
    --------
    >>> lose_factor(math.log(2.0))
    0.5
    """
    return (math.exp(-eta) - 1.0) + 1.0


def patience(eta: float) -> int:
    """Zero-one updates between rebuilds: after DECAY/η the weights may have decayed by e^(−DECAY).

    Examples
    --------
    >>> patience(0.5), patience(1e-9), patience(1e9)
    (400, 4096, 1)
    """
    return max(1, min(MOST_PATIENCE, int(DECAY / eta)))


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


def weight_sum(w: np.ndarray, ones: np.ndarray):
    """Σ_i w_i of each row, as BLAS dots with ``ones`` (a long vector block by block).

    Examples
    --------
    >>> weight_sum(np.array([0.5, 0.25]), np.ones(2))
    0.75
    """
    if w.ndim > 1:
        return dot(w, ones)
    total = 0.0
    for s in range(0, w.shape[0], BLOCK):
        block = w[s : s + BLOCK]
        total += dot(block, ones[: block.shape[0]])
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


def zero_one_step(w: np.ndarray, recent: np.ndarray, wrong: np.ndarray, lose) -> np.ndarray:
    """The wrong experts of each row lose 1: L_i += 1, w_i ×= e^(−η); returns each row's Σ w.

    ``recent`` counts the unit losses since the last fold (int8); ``lose`` is
    :func:`lose_factor` (a float, or one per row as a K × 1 array). The total
    is numpy's pairwise sum of each row, as ``w.sum()``.

    Examples
    --------
    >>> w, recent = np.ones(3), np.zeros(3, dtype=np.int8)
    >>> float(zero_one_step(w, recent, np.array([True, False, True]), 0.5))
    2.0
    >>> w.tolist(), recent.tolist()
    ([0.5, 1.0, 0.5], [1, 0, 1])
    """
    recent += wrong
    if w.shape[-1] <= 64:  # a masked multiply: quicker on short rows, slower on long ones
        np.multiply(w, lose, out=w, where=wrong)
    else:
        w *= np.where(wrong, lose, 1.0)
    return np.add.reduce(w, -1)


def due(since, patience, total):
    """What a zero-one update leaves due: (rebuild, fold), for a game or elementwise for K.

    A rebuild once ``since`` (zero-one updates since the last rebuild) reaches
    ``patience`` or when the total is not at least FLOOR; else a fold of the
    unit losses every FOLD updates, before the int8 counts could overflow.

    Examples
    --------
    >>> due(3, 400, 1.0), due(400, 400, 1.0), due(120, 400, 1.0), due(3, 400, 0.0)
    ((False, False), (True, False), (False, True), (True, False))
    """
    # x ^ True is "not x", for a bool and for an array of them alike
    rebuild = (since >= patience) | ((total >= FLOOR) ^ True)
    return rebuild, (since % FOLD == 0) & (rebuild ^ True)


def fold(base: np.ndarray, recent: np.ndarray) -> None:
    """The unit losses counted in ``recent`` folded into the exact losses ``base``.

    Examples
    --------
    >>> base, recent = np.array([0.5, 1.0]), np.array([2, 0], dtype=np.int8)
    >>> fold(base, recent); base.tolist(), recent.tolist()
    ([2.5, 1.0], [0, 0])
    """
    np.add(base, recent, out=base)
    recent[...] = 0


def rebuild_step(base, recent, w, eta, ones, losses=None) -> tuple:
    """w = exp(−η·(L − min L)) from the exact losses L, in place; returns each row's (min L, Σ w).

    ``losses`` (a graded update, any ℓ_i ≥ 0) are added to L first, then the
    unit losses are folded in. The best expert's weight is 1, nothing
    overflows, and the weights below TINY (invisible in a sum of doubles)
    are set to 0, so none turns subnormal (slow) before the next rebuild
    restores it exactly. ``eta`` is a float, or one per row as a K × 1 array.

    Examples
    --------
    >>> base, recent, w = np.array([1.0, 2.0]), np.array([0, 1], dtype=np.int8), np.ones(2)
    >>> shift, total = rebuild_step(base, recent, w, math.log(2.0), np.ones(2))
    >>> float(shift), total, w.tolist(), base.tolist()
    (1.0, 1.25, [1.0, 0.25], [1.0, 3.0])
    """
    if losses is not None:
        np.add(base, losses, out=base)
    fold(base, recent)
    shift = base.min(axis=-1)  # a number for one game, one a row for K
    np.subtract(base, shift if base.ndim == 1 else shift[:, None], out=w)
    np.multiply(w, -eta, out=w)
    np.exp(w, out=w)
    w[w < TINY] = 0.0
    return shift, weight_sum(w, ones)


class Weights:
    """One game's weights w_i = exp(−η·L_i) over N experts, kept without underflow or overflow.

    The cumulative losses L_i are kept exactly: ``base`` (float) holds them as
    of the last fold, ``recent`` (int8) counts the unit losses of the zero-one
    updates since (folded into ``base`` every FOLD = 120), so the log-weights
    −η·L_i are exact. ``w`` holds exp(−η·(L_i − shift)), the weights scaled by
    the constant e^(η·shift), and ``total`` their sum; the weighted average of
    the advice, (w·f)/total, does not depend on the scale.

    A zero-one update (every expert loses 0 or 1) multiplies the losers'
    weights by e^(−η). Any other update, and a zero-one update after which the
    weights may have decayed by e^(−200) since the last rebuild (or after 4096
    of them), rebuilds ``w`` from the exact losses (:func:`rebuild_step`).

    Between rebuilds ``w`` drifts from exp(−η·(L_i − shift)). The factor an
    update multiplies by, ``lose`` = 1 + (e^(−η) − 1) (:func:`lose_factor`, what
    the blocked pass computes), is e^(−η) within 2⁻⁵⁴ + 2⁻⁵²·e^(−η): within
    2⁻⁵⁴·e^η + 2⁻⁵² relatively, 2.7·10⁻⁸ at η = 20. So each loss since the
    last rebuild moves log w_i by up to that, and each multiplication's
    rounding by 2⁻⁵³, until the next rebuild (at most ``patience`` − 1 updates
    later) restores the exact weights. The predictions are those of the weights
    kept; :meth:`potential` sums Φ from the exact losses, not from ``w``.

    For N above SMALL = 1024 a zero-one update is applied lazily, in the same
    pass over the weights as the next round's weighted sum, so that the
    weights stream through memory once a round: every read of ``w``,
    ``total`` or the losses applies it first. The pass is one compiled loop
    when numba is installed (:mod:`learners.weight_kernels`), else numpy
    operations over blocks of 2¹⁶ experts, their temporaries in cache; both
    give the same weights bit for bit. Up to SMALL experts an update is the
    functions of this module on whole arrays, as :class:`WeightRows` applies
    them to K games.

    Examples
    --------
    >>> weights = Weights(2, math.log(2.0))
    >>> weights.zero_one_update(np.array([1, -1], dtype=np.int8), 1), weights.total
    (True, 1.5)
    >>> weights.vote(np.array([1.0, -1.0])), weights.losses().tolist()
    (0.5, [0.0, 1.0])
    """

    def __init__(self, n: int, eta: float):
        self.eta = float(eta)
        self.factor = math.exp(-self.eta)
        # what the blocks compute, 1 + (e^(−η) − 1)·1, bit for bit
        self.lose = lose_factor(self.eta)
        self.base = np.zeros(n)
        self.recent = np.zeros(n, dtype=np.int8)
        self._w = np.ones(n)
        self._total = float(n)
        self.shift = 0.0
        self.since = 0
        self.patience = patience(self.eta)
        self._pending: tuple[np.ndarray, int] | None = None
        size = min(n, BLOCK)
        self._f = np.empty(size)
        self._g = np.empty(size)
        self._b = np.empty(size, dtype=bool)
        self._ones = np.ones(size)
        self._none = np.zeros(0, dtype=np.int8)

    @property
    def n(self) -> int:
        return self._w.shape[0]

    @property
    def w(self) -> np.ndarray:
        """The scaled weights exp(−η·(L_i − shift)) (the pending update applied)."""
        self._settle()
        return self._w

    @property
    def total(self) -> float:
        """Σ_i w_i (the pending update applied)."""
        self._settle()
        return self._total

    def untouched(self) -> bool:
        """Whether no update has reached the weights yet: every w_i = 1, no loss, no rebuild.

        Examples
        --------
        >>> weights = Weights(2, 1.0)
        >>> before = weights.untouched()
        >>> _ = weights.zero_one_update(np.array([1, -1], dtype=np.int8), 1)
        >>> before, weights.untouched()
        (True, False)
        """
        return (
            self._pending is None
            and self.since == 0
            and self.shift == 0.0
            and self._total == float(self.n)
            and not self.base.any()
            and not self.recent.any()
            and bool(np.all(self._w == 1.0))
        )

    def losses(self) -> np.ndarray:
        """L_i, every expert's cumulative loss (a new array)."""
        self._settle()
        return self.base + self.recent

    def potential(self) -> float:
        """Φ = −ln Σ_i exp(−η·L_i) from the exact losses: η·m − ln Σ_i exp(−η·(L_i − m)), m = min L.

        The sum is formed as a rebuild forms ``total`` (block by block, the
        weights below TINY left out), so right after a rebuild, or before any
        update, Φ is η·shift − ln(total) bit for bit and is computed so. After
        zero-one updates ``w`` has drifted from exp(−η·(L_i − shift)) (see the
        class's notes), so Φ is summed again from the losses, not from ``w``.

        Examples
        --------
        >>> weights = Weights(1, 21.0)        # one expert, who loses once
        >>> weights.zero_one_update(np.array([1], dtype=np.int8), -1)
        True
        >>> weights.potential(), -math.log(weights.total)
        (21.0, 21.0000000386)
        """
        self._settle()
        if self.since == 0:  # w is a rebuild's (or untouched): its total is the sum below
            return self.eta * self.shift - math.log(self._total)
        base, recent, x, n = self.base, self.recent, self._f, self.n
        step = x.shape[0]  # min(N, BLOCK): the scratch block's length
        least = math.inf
        for s in range(0, n, step):
            block = x[: min(n - s, step)]
            np.add(base[s : s + step], recent[s : s + step], out=block)
            least = min(least, float(block.min()))
        total = 0.0
        for s in range(0, n, step):
            block = x[: min(n - s, step)]
            np.add(base[s : s + step], recent[s : s + step], out=block)
            np.subtract(block, least, out=block)
            np.multiply(block, -self.eta, out=block)
            np.exp(block, out=block)
            block[block < TINY] = 0.0
            total += dot(block, self._ones[: block.shape[0]])
        return self.eta * least - math.log(total)

    def _blocks(self, v: np.ndarray | None) -> float:
        """One pass over the weights: apply the pending update, sum w, and return w·v."""
        labels, y = self._pending if self._pending is not None else (None, 0)
        run = weights_pass()
        if run is not None and (v is None or accepts(v)) and (labels is None or accepts(labels)):
            total, product = run(
                self._w,
                self.recent,
                labels if labels is not None else self._none,
                y,
                self.lose,
                v if v is not None else self._none,
                labels is not None,
                v is not None,
            )
            product = float(product)
        else:
            total, product = self._numpy_blocks(labels, y, v)
        if labels is not None:
            self._pending = None
            self._total = float(total)
            self._updated()
        return product

    def _numpy_blocks(self, labels: np.ndarray | None, y: int, v: np.ndarray | None) -> tuple:
        """:meth:`_blocks` with numpy, block by block: (Σ w, w·v) after the update."""
        w, recent, step, n = self._w, self.recent, BLOCK, self._w.shape[0]
        down = self.factor - 1.0
        total = product = 0.0
        for s in range(0, n, step):
            e = min(s + step, n)
            block = w[s:e]
            if labels is not None:
                wrong, factor = self._b[: e - s], self._f[: e - s]
                np.not_equal(labels[s:e], y, out=wrong)
                np.add(recent[s:e], wrong.view(np.int8), out=recent[s:e])
                np.copyto(factor, wrong, casting="unsafe")
                factor *= down
                factor += 1.0
                block *= factor
            if labels is not None:
                total += dot(block, self._ones[: e - s])
            if v is not None:
                values = self._g[: e - s]
                np.copyto(values, v[s:e], casting="unsafe")
                product += dot(block, values)
        return total, product

    def _settle(self) -> None:
        if self._pending is not None:
            self._blocks(None)

    def _updated(self) -> None:
        self.since += 1
        rebuild_due, fold_due = due(self.since, self.patience, self._total)
        if rebuild_due:
            self.rebuild()
        elif fold_due:
            fold(self.base, self.recent)

    def dot(self, v: np.ndarray) -> float:
        """Σ_i w_i·v_i, in the scaled units of ``total`` (the pending update applied)."""
        if self._w.shape[0] <= SMALL:
            return float(np.dot(self._w, v))  # dot(w, v), the call saved on a hot path
        if self._pending is not None:
            product = self._blocks(v)
            if self.since == 0:  # the update triggered a rebuild: w changed again
                product = self._blocks(v)
            return product
        return self._blocks(v)

    def vote(self, v: np.ndarray) -> float:
        """w·v for a prediction, summed exactly when its rounding could decide its sign.

        When the fast sum (BLAS, numpy or the compiled pass) is within
        N·2⁻⁵²·Σ w of 0 (:func:`near_even`), the products are summed again
        exactly (:func:`exact_dot`): an even vote of the stored weights is then
        exactly 0.0, and a vote barely off even keeps its sign, whatever order
        the machine adds in. (Advice outside [−1, 1] widens the rounding past
        the window.)
        """
        product = self.dot(v)
        if near_even(product, self.n, self._total):
            product = exact_dot(self._w, v)
        return product

    def zero_one_update(self, labels: np.ndarray, y: int) -> bool:
        """Experts with ``labels[i] != y`` (labels ±1) lose 1: L_i += 1, w_i ×= e^(−η).

        Returns False, changing nothing, when no expert loses.
        """
        if self._pending is not None:
            self._blocks(None)
        if self._w.shape[0] > SMALL:
            if int(labels.min() if y > 0 else labels.max()) == y:  # every label is y
                return False
            self._pending = (labels, y)
            return True
        wrong = labels != y
        if not np.count_nonzero(wrong):
            return False
        self._total = float(zero_one_step(self._w, self.recent, wrong, self.lose))
        self._updated()
        return True

    def update(self, losses: np.ndarray) -> None:
        """L_i += ℓ_i for any losses ℓ_i ≥ 0, then rebuild the weights."""
        self.rebuild(losses)

    def rebuild(self, losses: np.ndarray | None = None) -> None:
        """w = exp(−η·(L − min L)) exactly from the losses (``losses`` added first)."""
        self._settle()
        shift, total = rebuild_step(self.base, self.recent, self._w, self.eta, self._ones, losses)
        self.shift, self._total, self.since = float(shift), float(total), 0


class WeightRows:
    """The weights of K games as the rows of K × N arrays (N ≤ SMALL), each game's as its
    :class:`Weights` would be, bit for bit.

    Every method acts on the games ``idx`` (an array of row indices) with the
    functions one game's :class:`Weights` uses, and keeps each game's own η,
    ``patience``, counts since the last rebuild, shift and total.

    Parameters
    ----------
    etas : sequence of float
        Each game's η.
    n : int
        N, the experts of every game.

    Examples
    --------
    >>> rows = WeightRows([math.log(2.0)], 2)
    >>> rows.update(np.array([0]), np.array([[0.0, 1.0]]))
    >>> rows.w.tolist(), rows.total.tolist(), rows.game(0).losses().tolist()
    ([[1.0, 0.5]], [1.5], [0.0, 1.0])
    """

    def __init__(self, etas: Sequence[float], n: int):
        self.eta = np.array(etas, dtype=np.float64).reshape(-1)
        k_games = self.eta.shape[0]
        self.lose = np.array([lose_factor(eta) for eta in self.eta])
        self.patience = np.array([patience(eta) for eta in self.eta], dtype=np.int64)
        self.w = np.ones((k_games, n))
        self.total = np.full(k_games, float(n))
        self.base = np.zeros((k_games, n))
        self.recent = np.zeros((k_games, n), dtype=np.int8)
        self.shift = np.zeros(k_games)
        self.since = np.zeros(k_games, dtype=np.int64)
        self.ones = np.ones(n)

    @staticmethod
    def fits(n: int) -> bool:
        """Whether K games of n experts play as rows: one game's arithmetic is then whole-array
        (up to SMALL), which the rows repeat; above, it is blocked and lazy, which they do not.

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
        w, recent = self.w[idx], self.recent[idx]
        total = zero_one_step(w, recent, wrong, self.lose[idx, None])
        self.w[idx], self.recent[idx], self.total[idx] = w, recent, total
        self.since[idx] += 1
        rebuild_due, fold_due = due(self.since[idx], self.patience[idx], total)
        self.rebuild(idx[rebuild_due])
        for k in idx[fold_due]:
            fold(self.base[k], self.recent[k])

    def update(self, idx: np.ndarray, losses: np.ndarray) -> None:
        """Games ``idx``: L_i += ℓ_i (``losses`` one row a game), then rebuild."""
        self.rebuild(idx, losses)

    def rebuild(self, idx: np.ndarray, losses: np.ndarray | None = None) -> None:
        """Games ``idx``: w = exp(−η·(L − min L)) from the exact losses (``losses`` added first)."""
        if not idx.size:
            return
        base, recent, w = self.base[idx], self.recent[idx], self.w[idx]
        shift, total = rebuild_step(base, recent, w, self.eta[idx, None], self.ones, losses)
        self.base[idx], self.recent[idx], self.w[idx] = base, recent, w
        self.shift[idx], self.total[idx], self.since[idx] = shift, total, 0

    def game(self, k: int) -> Weights:
        """Game k's weights as a :class:`Weights` of their own (copies of row k)."""
        weights = Weights(self.w.shape[1], float(self.eta[k]))
        weights.base = self.base[k].copy()
        weights.recent = self.recent[k].copy()
        weights._w = self.w[k].copy()
        weights._total = float(self.total[k])
        weights.shift = float(self.shift[k])
        weights.since = int(self.since[k])
        return weights
