"""Batch kernels of prediction with expert advice: Halving and the advice streams.

Halving (:mod:`learners.experts`) on K games at once: the consistent experts
C_t of every game as a row of a K × N mask; predict +1 when
2·|{i ∈ C_t : f_i ≥ 0}| ≥ |C_t| (Abernethy lecture 16, seed 004, §16.1.2),
then drop the experts whose sign(f_i) (sign(0) = +1) differs from the
outcome. Only counts are compared, so the lockstep game is the serial one
exactly. The sources are the oblivious advice adversaries of
:mod:`adversaries.experts` (``ExpertStream``, ``AdviceReplay``), whose whole
game is drawn when they are built. See :mod:`game.batch`.

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
"""

from __future__ import annotations

from typing import Any

import numpy as np

from game.batch import LockstepLearner, Source, rounds_of

__all__ = ["ADVICE_REPLAY", "EXPERT_STREAM", "HALVING"]


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
