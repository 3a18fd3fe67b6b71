"""Batch kernels of prediction with expert advice: Halving, the weighted learners, the streams.

Halving (:mod:`learners.experts`) on K games at once: the consistent experts
C_t of every game as a row of a K × N mask; predict +1 when
2·|{i ∈ C_t : f_i ≥ 0}| ≥ |C_t| (Abernethy lecture 16, seed 004, §16.1.2),
then drop the experts whose sign(f_i) (sign(0) = +1) differs from the
outcome. Only counts are compared, so the lockstep game is the serial one
exactly. The sources are the oblivious advice adversaries of
:mod:`adversaries.experts` (``ExpertStream``, ``AdviceReplay``), whose whole
game is drawn when they are built. See :mod:`game.sweep`.

Weighted Majority and Exponential Weights (§16.2–16.3 of the same lecture)
keep each game's ``_Weights`` of :mod:`learners.experts` as rows of K × N
arrays and repeat its arithmetic row by row: the exact cumulative losses
(the recent unit losses folded in every 120 updates), a zero-one update as
w_i ×= e^(−η) on the wrong experts with the total re-summed as numpy sums a
row, a rebuild w = exp(−η·(L − min L)) (tiny weights set to 0, total a BLAS
dot with ones) after a graded update, after ``patience`` zero-one updates or
when the total falls below 2⁻⁵⁰⁰, and the weighted sum w·f as the same BLAS
dot (``numpy.vecdot``), summed again exactly (``math.fsum``) within
N·2⁻⁵² of the total, as ``_Weights.vote`` does. The lockstep game is then the serial one bit for
bit. Above 1024 experts the learner works block by block with a lazy
update; that arithmetic is not repeated here, and such games (and learners
whose weights have already moved) are played serially.

Examples
--------
>>> import numpy as np
>>> from game import play, play_batch
>>> from learners.experts import Halving
>>> from adversaries.experts import ExpertStream
>>> def stream(seed):
...     return ExpertStream(64, 0, np.random.default_rng(seed), horizon=200)
>>> batch = play_batch([Halving() for _ in range(3)], [stream(s) for s in range(3)], rounds=200)
>>> serial = [play(Halving(), stream(s), rounds=200) for s in range(3)]
>>> [b.digest == s.digest and b.bound == s.bound for b, s in zip(batch, serial)]
[True, True, True]
>>> from learners.experts import ExponentialWeights
>>> batch = play_batch([ExponentialWeights(eta=0.5) for _ in range(3)],
...                    [stream(s) for s in range(3)], rounds=200)
>>> serial = [play(ExponentialWeights(eta=0.5), stream(s), rounds=200) for s in range(3)]
>>> [b.digest == s.digest and b.observed("loss") == s.observed("loss")
...  for b, s in zip(batch, serial)]
[True, True, True]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from game.sweep._lockstep import LockstepLearner, Source, rounds_of
from game.theory import get_loss


class _LearnersExperts:
    """``learners.experts``, imported when first used (``game`` never imports players at load)."""

    def __getattr__(self, name):
        import learners.experts

        return getattr(learners.experts, name)


experts = _LearnersExperts()

__all__ = [
    "ADVICE_REPLAY",
    "EXPERT_STREAM",
    "EXPONENTIAL_WEIGHTS",
    "HALVING",
    "WEIGHTED_MAJORITY",
]


# -- sources --------------------------------------------------------------------
def _advice_plan(adversary: Any, rounds: int) -> tuple | None:
    if getattr(adversary, "_t", None) != 0:  # a game already under way
        return None
    advice = adversary.advice
    if not advice.flags.c_contiguous:
        return None
    return min(int(rounds), advice.shape[0]), int(advice.shape[1]), advice.dtype


def _advice_examples(adversary: Any, n: int) -> tuple:
    return adversary.advice[:n], np.asarray(adversary.outcomes[:n], dtype=np.int64)


#: ``ExpertStream``: advice and outcomes drawn when the stream is built.
EXPERT_STREAM = Source(plan=_advice_plan, examples=_advice_examples)
#: ``AdviceReplay``: a fixed advice matrix and outcomes.
ADVICE_REPLAY = Source(plan=_advice_plan, examples=_advice_examples)


# -- Halving --------------------------------------------------------------------
def _halving_accepts(learner: Any, d: int, dtype: np.dtype) -> bool:
    return (
        dtype.kind in "iuf"
        and learner.concept_class is None
        and learner.experts in (None, d)
        and getattr(learner, "_points", 0) is None  # fresh: no instance seen yet
        and getattr(learner, "_alive", 0) is None
        and getattr(learner, "_mask", None) is None
    )


def _halving_run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
    """C_t as a K × N mask; +1 when 2·|{i ∈ C_t : f_i ≥ 0}| ≥ |C_t|; drop the wrong experts."""
    k_games, n_max = y.shape
    d = Xs[0].shape[1] if Xs else 1
    alive = np.ones((k_games, d), dtype=bool)
    P = np.empty((k_games, n_max))
    U = np.zeros((k_games, n_max), dtype=bool)
    ragged = bool((lengths < n_max).any())
    for t, f in rounds_of(Xs, d, dtype=Xs[0].dtype if Xs else np.float64):
        plus = f >= 0
        votes = np.count_nonzero(plus & alive, axis=1)
        size = np.count_nonzero(alive, axis=1)
        P[:, t] = np.where(2 * votes >= size, 1.0, -1.0)
        up = y[:, t] > 0
        changed = np.where(up, votes, size - votes) != size
        if ragged:
            changed &= t < lengths
        U[:, t] = changed
        if changed.any():
            alive[changed] &= plus[changed] == up[changed, None]
    ever = U.any(axis=1)
    for k, learner in enumerate(learners):
        if lengths[k] > 0:  # the state the serial game leaves, C_t as a list of indices
            state = {"_points": False, "_n": d, "_size": int(np.count_nonzero(alive[k]))}
            if ever[k]:
                state["_alive"] = np.flatnonzero(alive[k])
            for name, value in state.items():
                if hasattr(learner, name):
                    setattr(learner, name, value)
    return P, U


#: ``Halving`` on advice vectors (not on a concept class's points).
HALVING = LockstepLearner(accepts=_halving_accepts, run=_halving_run)


# -- Weighted Majority and Exponential Weights ----------------------------------
def _eta_of(learner: Any, d: int) -> float:
    """η of the learner's weights: −ln β (Weighted Majority) or its learning rate for N = d."""
    if isinstance(learner, experts.ExponentialWeights):
        return float(learner.learning_rate_for(d))
    return float(-math.log(learner.beta))


def _fresh(weights: Any, d: int, eta: float) -> bool:
    """Weights built but not yet touched: every w_i = 1, no loss, no rebuild."""
    return (
        weights.n == d
        and weights.eta == eta
        and weights._pending is None
        and weights.since == 0
        and weights.shift == 0.0
        and weights._total == float(d)
        and not weights.base.any()
        and not weights.recent.any()
        and bool(np.all(weights._w == 1.0))
    )


def _weights_accepts(learner: Any, d: int, dtype: np.dtype) -> bool:
    # up to SMALL experts the learner's sums are whole-array BLAS dots and numpy sums,
    # which the kernel repeats row by row; its blocked, lazy arithmetic above SMALL is not copied
    if dtype.kind not in "iuf" or d > experts._Weights.SMALL or learner.experts not in (None, d):
        return False
    if getattr(learner, "loss_bound", None) is not None and d < 2:
        return False  # the tuned η needs N ≥ 2: the serial game raises
    weights = getattr(learner, "_weights", 0)
    return weights is None or (
        isinstance(weights, experts._Weights) and _fresh(weights, d, _eta_of(learner, d))
    )


class _Batch:
    """The ``_Weights`` of K games as K × N arrays, updated as each game's weights would be."""

    def __init__(self, etas: np.ndarray, d: int):
        k_games = etas.shape[0]
        w = experts._Weights
        self.eta = etas
        self.lose = np.array([(math.exp(-e) - 1.0) + 1.0 for e in etas])
        self.patience = np.array([max(1, min(4096, int(w.DECAY / e))) for e in etas])
        self.w = np.ones((k_games, d))
        self.total = np.full(k_games, float(d))
        self.base = np.zeros((k_games, d))
        self.recent = np.zeros((k_games, d))  # small integer counts, as the int8 ones
        self.shift = np.zeros(k_games)
        self.since = np.zeros(k_games, dtype=np.int64)
        self.ones = np.ones(d)

    def zero_one(self, idx: np.ndarray, wrong: np.ndarray) -> None:
        """Games ``idx`` (each with some wrong expert): L_i += 1, w_i ×= e^(−η) on the wrong."""
        self.recent[idx] += wrong
        w = self.w[idx] * np.where(wrong, self.lose[idx, None], 1.0)
        self.w[idx] = w
        self.total[idx] = np.add.reduce(w, axis=1)  # each row's pairwise sum, as w.sum()
        self.since[idx] += 1
        due = (self.since[idx] >= self.patience[idx]) | ~(self.total[idx] >= 2.0**-500)
        self.rebuild(idx[due])
        rest = idx[~due]
        fold = rest[self.since[rest] % experts._FOLD == 0]
        if fold.size:
            self.base[fold] += self.recent[fold]
            self.recent[fold] = 0.0

    def graded(self, idx: np.ndarray, losses: np.ndarray) -> None:
        """Games ``idx``: L_i += ℓ_i, then rebuild."""
        self.base[idx] += losses
        self.rebuild(idx)

    def rebuild(self, idx: np.ndarray) -> None:
        """w = exp(−η·(L − min L)), the tiny weights set to 0; total = w·1 (a BLAS dot)."""
        if not idx.size:
            return
        base = self.base[idx] + self.recent[idx]
        self.base[idx] = base
        self.recent[idx] = 0.0
        shift = base.min(axis=1)
        w = base - shift[:, None]
        w *= -self.eta[idx, None]
        np.exp(w, out=w)
        w[w < experts._Weights.TINY] = 0.0
        self.w[idx] = w
        self.shift[idx] = shift
        self.total[idx] = np.vecdot(w, self.ones)
        self.since[idx] = 0

    def settle(self, learners: list, lengths: np.ndarray, d: int) -> None:
        """Leave each learner with the weights its serial game ends with."""
        for k, learner in enumerate(learners):
            if lengths[k] == 0:
                continue
            weights = experts._Weights(d, float(self.eta[k]))
            weights.base = self.base[k].copy()
            weights.recent = self.recent[k].astype(np.int8)
            weights._w = self.w[k].copy()
            weights._total = float(self.total[k])
            weights.shift = float(self.shift[k])
            weights.since = int(self.since[k])
            learner._weights = weights


def _weights_run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
    """Weighted Majority or Exponential Weights on K games: see :data:`WEIGHTED_MAJORITY`."""
    k_games, n_max = y.shape
    d = Xs[0].shape[1] if Xs else 1
    mixture = isinstance(learners[0], experts.ExponentialWeights) if learners else False
    batch = _Batch(np.array([_eta_of(p, d) for p in learners]), d)
    integer = bool(Xs) and Xs[0].dtype.kind in "iu"
    names = [getattr(p, "loss", "zero-one") for p in learners]
    by_signs = np.array([name == "zero-one" for name in names])
    graded_losses = {name: np.array([n == name for n in names]) for name in set(names)}
    graded_losses.pop("zero-one", None)
    P = np.empty((k_games, n_max))
    U = np.zeros((k_games, n_max), dtype=bool)
    close = d * experts._ROUNDING  # votes this close to even, times the total, are summed exactly
    for t, f in rounds_of(Xs, d):
        plus = f >= 0
        v = f if mixture else np.where(plus, 1.0, -1.0)
        vote = np.vecdot(batch.w, v)
        for k in np.flatnonzero(np.abs(vote) <= close * batch.total):
            vote[k] = math.fsum(np.multiply(batch.w[k], v[k]).tolist())
        if mixture:
            P[:, t] = np.clip(vote / batch.total, -1.0, 1.0)
        else:
            P[:, t] = np.where(vote >= 0.0, 1.0, -1.0)
        inside = t < lengths
        up = y[:, t] > 0
        wrong = plus != up[:, None]
        signs = by_signs
        if mixture and integer:  # ±1 integer advice (no zero) is a zero-one update
            signs = by_signs | np.all(f != 0, axis=1)
        elif not mixture:
            signs = np.ones(k_games, dtype=bool)
        changed = signs & inside & wrong.any(axis=1)
        idx = np.flatnonzero(changed)
        if idx.size:
            batch.zero_one(idx, wrong[idx])
        for name, uses in graded_losses.items():
            g = np.flatnonzero(uses & ~signs & inside)
            if not g.size:
                continue
            losses = get_loss(name)(f[g], y[g, t, None])
            has = losses.any(axis=1)
            changed[g] = has
            if has.any():
                batch.graded(g[has], losses[has])
        U[:, t] = changed
    batch.settle(learners, lengths, d)
    return P, U


#: ``WeightedMajority`` on advice vectors of at most 1024 experts.
WEIGHTED_MAJORITY = LockstepLearner(accepts=_weights_accepts, run=_weights_run)
#: ``ExponentialWeights`` on advice vectors of at most 1024 experts.
EXPONENTIAL_WEIGHTS = LockstepLearner(accepts=_weights_accepts, run=_weights_run)
