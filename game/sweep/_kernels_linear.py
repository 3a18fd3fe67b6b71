"""The built-in batch kernels of vector games: the Perceptron, the streams and ``Replay``.

Each kernel reproduces its player's serial game bit for bit (see
:mod:`game.sweep`); where it cannot be sure of that, its ``plan`` or
``accepts`` declines and the game is played serially.

Examples
--------
>>> import numpy as np
>>> from game.sweep._kernels_linear import PERCEPTRON, SEPARABLE_STREAM
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> stream = SeparableStream(4, 0.2, rng=np.random.default_rng(0))
>>> SEPARABLE_STREAM.plan(stream, 100), PERCEPTRON.accepts(Perceptron(), 4, np.float64)
((100, 4, dtype('float64')), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from game.sweep._lockstep import LockstepLearner, Source, rounds_of

__all__ = ["NOISY_STREAM", "PERCEPTRON", "REPLAY", "SEPARABLE_STREAM"]


# -- SeparableStream ------------------------------------------------------------
def _separable_plan(stream: Any, rounds: int) -> tuple | None:
    # ``examples`` reproduces a game only from a stream that has presented nothing yet
    if getattr(stream, "_rows", None) != [] or getattr(stream, "_i", None) != 0:
        return None
    return int(rounds), int(stream.dimension), np.dtype(np.float64)


def _separable_examples(stream: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    return stream.examples(n)


SEPARABLE_STREAM = Source(plan=_separable_plan, examples=_separable_examples)


# -- NoisyStream ----------------------------------------------------------------
def _noisy_examples(stream: Any, n: int) -> tuple:
    from adversaries.blocks import BLOCK as _BLOCK  # the blocks ``instance`` draws

    blocks = [stream.draw_noisy(_BLOCK) for _ in range(-(-n // _BLOCK))]
    if not blocks:
        return np.empty((0, stream.dimension)), np.empty(0, dtype=np.int64), {}
    X, y, corrupted = (np.concatenate([b[i] for b in blocks])[:n] for i in range(3))
    return X, y, {"corrupted": corrupted.astype(np.float64)}


NOISY_STREAM = Source(plan=_separable_plan, examples=_noisy_examples)


# -- Replay ---------------------------------------------------------------------
def _replay_rows(replay: Any, rounds: int):
    rows, ys, i = (
        getattr(replay, "_rows", None),
        getattr(replay, "_ys", None),
        getattr(replay, "_i", None),
    )
    if not isinstance(rows, list) or not isinstance(ys, list) or not isinstance(i, int):
        return None
    n = max(0, min(int(rounds), len(rows) - i))
    return rows[i : i + n], ys[i : i + n]


#: Plans of recent Replay sources (the rows' checks cost a pass over them): the
#: Replays of a sweep's games are built from one array or transcript.
_plans: dict[int, tuple] = {}


def _replay_plan(replay: Any, rounds: int) -> tuple | None:
    source = replay.transcript if replay.transcript is not None else replay.instances
    key = (getattr(replay, "_i", None), int(rounds), len(getattr(replay, "_rows", ())))
    known = _plans.get(id(source))
    if known is not None and known[0] is source and known[1] == key:
        return known[2]
    plan = _replay_check(replay, rounds)
    if len(_plans) > 64:
        _plans.clear()
    _plans[id(source)] = (source, key, plan)
    return plan


def _replay_check(replay: Any, rounds: int) -> tuple | None:
    got = _replay_rows(replay, rounds)
    if got is None:
        return None
    rows, _ = got
    if not rows:
        return 0, 1, np.dtype(np.float64)
    first = rows[0]
    if type(first) is not np.ndarray or first.ndim != 1 or first.dtype.kind not in "iuf":
        return None
    shape, dtype = first.shape, first.dtype
    for row in rows:  # the learner sees each row as it is: contiguous vectors of one dtype
        if (
            type(row) is not np.ndarray
            or row.dtype != dtype
            or row.shape != shape
            or not row.flags.c_contiguous
        ):
            return None
    return len(rows), int(shape[0]), dtype


def _replay_examples(replay: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    rows, ys = _replay_rows(replay, n)
    X = np.stack(rows) if rows else np.empty((0, 1))  # a copy: one array per game
    return X, np.array(ys, dtype=np.int64)


def _replay_key(replay: Any, n: int) -> Any:
    source = replay.transcript if replay.transcript is not None else replay.instances
    return id(source), replay._i, n


REPLAY = Source(plan=_replay_plan, examples=_replay_examples, key=_replay_key)


# -- Perceptron -----------------------------------------------------------------
def _perceptron_accepts(learner: Any, d: int, dtype: np.dtype) -> bool:
    if dtype != np.float64:  # the learner's arithmetic on other dtypes is not reproduced
        return False
    w = getattr(learner, "_w", None)
    if w is None:
        return learner.dimension is None
    return type(w) is np.ndarray and w.dtype == np.float64 and w.shape == (d,)


def _normalized(X: np.ndarray) -> np.ndarray:
    """X scaled row by row as the learner's ``_prepare`` does (a zero row kept as it is)."""
    norms = np.sqrt(np.vecdot(X, X))  # x @ x, one BLAS dot per row
    safe = np.where(norms > 0, norms, 1.0)
    return np.where((norms > 0)[:, None], X / safe[:, None], X)


def _perceptron_run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
    """The Perceptron's rounds on K games at once (every convention, per game).

    Round t: s = w·x (``numpy.vecdot``: the learner's ``w @ x``), prediction
    +1 if s > 0, −1 if s < 0, else ``zero_label``; update when y·s ≤ 0
    ("nonpositive") or when the predicted label (s == 0 giving +1 only with
    ``zero_label`` = 1, as the learner's ``update`` reads it) differs from y
    ("mistake"), unless x is zero; w ± x on the games that update.
    """
    k_games, n_max = y.shape
    d = Xs[0].shape[1] if Xs else 1
    W = np.zeros((k_games, d))
    for k, learner in enumerate(learners):
        if learner._w is not None:
            W[k] = learner._w
    zero_label = np.array([float(p.zero_label) for p in learners])
    by_mistake = np.array([p.update_rule == "mistake" for p in learners])
    Xs = [_normalized(X) if p.normalize else X for p, X in zip(learners, Xs, strict=True)]
    yf = y.astype(np.float64)
    # rounds that may update: inside the game, and x not zero (a zero x leaves w as it is)
    may = np.zeros((k_games, n_max), dtype=bool)
    for k, X in enumerate(Xs):
        may[k, : len(X)] = X.any(axis=1)
    S = np.empty((k_games, n_max))
    U = np.zeros((k_games, n_max), dtype=bool)
    any_mistake, all_mistake = bool(by_mistake.any()), bool(by_mistake.all())
    zero_plus = zero_label > 0
    for t, xt in rounds_of(Xs, d):
        s = S[:, t] = np.vecdot(W, xt)
        yt = yf[:, t]
        if any_mistake:
            predicted = np.where((s > 0.0) | ((s == 0.0) & zero_plus), 1.0, -1.0)
            change = predicted != yt
            if not all_mistake:
                change = np.where(by_mistake, change, yt * s <= 0.0)
        else:
            change = yt * s <= 0.0
        change &= may[:, t]
        U[:, t] = change
        idx = np.flatnonzero(change)
        if idx.size:
            W[idx] += yt[idx, None] * xt[idx]  # w + (−x) is w − x exactly
    P = np.where(S > 0.0, 1.0, np.where(S < 0.0, -1.0, zero_label[:, None]))
    for k, learner in enumerate(learners):
        if lengths[k] > 0 or learner._w is not None:
            learner._w = W[k].copy()
    return P, U


PERCEPTRON = LockstepLearner(accepts=_perceptron_accepts, run=_perceptron_run)
