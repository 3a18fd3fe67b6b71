"""Lockstep kernels of the expert learners: Halving, Weighted Majority, Exponential Weights.

Each is the ``lockstep`` its class declares in :mod:`learners.experts` (the
protocol is :mod:`game.players`'s): K games' rounds at once, each game's
transcript and final state exactly its serial game's.

Halving on K games at once keeps the consistent experts C_t of every game as
a row of a K × N mask; it predicts +1 when 2·|{i ∈ C_t : f_i ≥ 0}| ≥ |C_t|
(Abernethy lecture 16, seed 004, §16.1.2), then drops the experts whose
sign(f_i) (sign(0) = +1) differs from the outcome. Only counts are compared,
so the lockstep game is the serial one exactly.

Weighted Majority and Exponential Weights (§16.2–16.3 of the same lecture)
keep the K games' weights in a :class:`~learners._weights.WeightRows`, whose
arithmetic is one game's :class:`~learners._weights.Weights`' own (the same
functions of ``learners._weights``, the same tables of powers), so the
lockstep game is the serial one bit for bit. A game takes the zero-one
update where its serial game does: Weighted Majority always, Exponential
Weights on the zero-one loss or on advice whose every entry is exactly ±1
(integer advice); other rounds are graded by the loss. Above 1,024 experts
one game works with a lazy update; such games, and learners whose weights
have already moved, are played serially.

Examples
--------
>>> import numpy as np
>>> from game import play, play_batch
>>> from learners.experts import ExponentialWeights, Halving
>>> from adversaries.experts import ExpertStream
>>> def stream(seed):
...     return ExpertStream(64, 0, np.random.default_rng(seed), horizon=200)
>>> batch = play_batch([Halving() for _ in range(3)], [stream(s) for s in range(3)], rounds=200)
>>> serial = [play(Halving(), stream(s), rounds=200) for s in range(3)]
>>> [b.digest == s.digest and b.bound == s.bound for b, s in zip(batch, serial)]
[True, True, True]
>>> batch = play_batch([ExponentialWeights(eta=0.5) for _ in range(3)],
...                    [stream(s) for s in range(3)], rounds=200)
>>> serial = [play(ExponentialWeights(eta=0.5), stream(s), rounds=200) for s in range(3)]
>>> [b.digest == s.digest and b.observed("loss") == s.observed("loss")
...  for b, s in zip(batch, serial)]
[True, True, True]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from game.players import LockstepLearner, rounds_of
from game.theory import get_loss
from learners._weights import WeightRows, Weights

__all__ = ["EXPONENTIAL_WEIGHTS", "HALVING", "WEIGHTED_MAJORITY"]


# -- Halving --------------------------------------------------------------------
def _halving_accepts(learner: Any, d: int, dtype: np.dtype) -> bool:
    return (
        dtype.kind in "iuf"
        and learner.concept_class is None
        and learner.experts in (None, d)
        and learner._points is None  # fresh: no instance seen yet
        and learner._alive is None
        and learner._mask is None
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
            learner._points, learner._n = False, d
            learner._size = int(np.count_nonzero(alive[k]))
            if ever[k]:
                learner._alive = np.flatnonzero(alive[k])
    return P, U


#: ``Halving`` on advice vectors (not on a concept class's points).
HALVING = LockstepLearner(accepts=_halving_accepts, run=_halving_run)


# -- Weighted Majority and Exponential Weights ----------------------------------
def _weights_accepts(eta_of: Callable[[Any, int], float]):
    """``accepts`` of a weighted learner whose η for N = d is ``eta_of(learner, d)``."""

    def accepts(learner: Any, d: int, dtype: np.dtype) -> bool:
        if dtype.kind not in "iuf" or not WeightRows.fits(d) or learner.experts not in (None, d):
            return False
        try:
            eta = eta_of(learner, d)
        except ValueError:  # no η for N = d (a tuned η needs N ≥ 2): the serial game raises
            return False
        weights = learner._weights
        return weights is None or (
            isinstance(weights, Weights)
            and weights.n == d
            and weights.eta == eta
            and weights.beta == getattr(learner, "beta", None)
            and weights.untouched()
        )

    return accepts


def _weights_run(eta_of: Callable[[Any, int], float], mixture: bool):
    """``run`` of Weighted Majority (a vote of the signs) or Exponential Weights (a mixture)."""

    def run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
        k_games, n_max = y.shape
        d = Xs[0].shape[1] if Xs else 1
        betas = None if mixture else [float(p.beta) for p in learners]
        rows = WeightRows([eta_of(p, d) for p in learners], d, betas)
        integer = bool(Xs) and Xs[0].dtype.kind in "iu"
        names = [p.loss for p in learners] if mixture else ["zero-one"] * k_games
        by_signs = np.array([name == "zero-one" for name in names])
        graded_losses = {name: np.array([n == name for n in names]) for name in set(names)}
        graded_losses.pop("zero-one", None)
        P = np.empty((k_games, n_max))
        U = np.zeros((k_games, n_max), dtype=bool)
        for t, f in rounds_of(Xs, d):
            plus = f >= 0
            vote = rows.vote(f if mixture else np.where(plus, 1.0, -1.0))
            if mixture:
                P[:, t] = np.clip(vote / rows.total, -1.0, 1.0)
            else:
                P[:, t] = np.where(vote >= 0.0, 1.0, -1.0)
            inside = t < lengths
            up = y[:, t] > 0
            wrong = plus != up[:, None]
            signs = by_signs
            if mixture and integer:  # integer advice all ±1 is a zero-one update
                signs = by_signs | np.all(np.abs(f) == 1, axis=1)
            elif not mixture:
                signs = np.ones(k_games, dtype=bool)
            changed = signs & inside & wrong.any(axis=1)
            idx = np.flatnonzero(changed)
            if idx.size:
                rows.zero_one_update(idx, wrong[idx])
            for name, uses in graded_losses.items():
                g = np.flatnonzero(uses & ~signs & inside)
                if not g.size:
                    continue
                losses = get_loss(name)(f[g], y[g, t, None])
                has = losses.any(axis=1)
                changed[g] = has
                if has.any():
                    rows.update(g[has], losses[has])
            U[:, t] = changed
        for k, learner in enumerate(learners):
            if lengths[k] > 0:  # the weights the serial game ends with
                learner._weights = rows.game(k)
        return P, U

    return run


def _beta_eta(learner: Any, d: int) -> float:
    return float(-math.log(learner.beta))


def _learning_rate(learner: Any, d: int) -> float:
    return float(learner.learning_rate_for(d))


#: ``WeightedMajority`` on advice vectors of at most 1024 experts.
WEIGHTED_MAJORITY = LockstepLearner(
    accepts=_weights_accepts(_beta_eta), run=_weights_run(_beta_eta, mixture=False)
)
#: ``ExponentialWeights`` on advice vectors of at most 1024 experts.
EXPONENTIAL_WEIGHTS = LockstepLearner(
    accepts=_weights_accepts(_learning_rate), run=_weights_run(_learning_rate, mixture=True)
)
