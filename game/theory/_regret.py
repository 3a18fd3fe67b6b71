"""Every expert's cumulative loss, the best expert in hindsight, and the learner's regret.

In a game of prediction with expert advice the instance of round t is the
advice vector f^t = (f_1^t, …, f_N^t), so a transcript knows every expert's
loss: expert i's cumulative loss after round t is L_i^t = Σ_{s ≤ t} ℓ(f_i^s, y_s),
with ℓ the game's loss (or another one asked for). The best expert after round
t is argmin_i L_i^t (ties go to the smallest index), and the regret after round
t is the learner's cumulative loss minus min_i L_i^t (Abernethy lecture 16,
seed 004, §16.3.1). On the zero-one loss an expert's loss counts the rounds
where the sign of its advice (sign(0) = +1) differs from the outcome: its
mistakes.

A game over a finite concept class (instances are point indices) is an expert
game too: hypothesis h advises ``matrix[h, x]`` on point x; pass the class's
``matrix``.

The rounds are read in blocks of about 2²² advice entries, never stacked whole,
so a game of N = 2²⁰ experts costs a few megabytes whatever its length.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from adversaries.replay import Replay
>>> from learners.perceptron import Perceptron
>>> advice = np.array([[1, -1, 1], [1, 1, -1], [-1, 1, 1]])
>>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, 1, 1]), rounds=3)
>>> expert_losses(tr).tolist()
[1.0, 1.0, 1.0]
>>> best_expert(tr).tolist(), regret(tr).tolist()
([0, 0, 0], [0.0, 1.0, 1.0])
"""

from __future__ import annotations

import attrs
import numpy as np

from game.errors import GameError, ParameterError, check_integer
from game.theory._losses import get_loss

__all__ = [
    "ExpertRecord",
    "best_expert",
    "best_expert_losses",
    "expert_losses",
    "perfect_experts",
    "regret",
]

#: Advice entries handled per block.
_BLOCK_ENTRIES = 1 << 22


@attrs.frozen(eq=False)
class ExpertRecord:
    """What a pass over an expert game's rounds finds.

    Attributes
    ----------
    losses : numpy.ndarray
        (N,) every expert's cumulative loss after the last round.
    best : numpy.ndarray
        (T,) the best expert after each round (the smallest index among ties).
    best_losses : numpy.ndarray
        (T,) the best expert's cumulative loss after each round, min_i L_i^t.
    """

    losses: np.ndarray
    best: np.ndarray
    best_losses: np.ndarray


def _advice_rows(transcript, matrix, stop: int):
    """Yield (advice block (k × N), labels (k,)) for rounds 1..stop."""
    labels = np.asarray(transcript.labels[:stop])
    rows = transcript.raw_instances
    if matrix is not None:
        matrix = np.asarray(matrix)
        if matrix.ndim != 2:
            raise ParameterError("matrix", matrix, "a 2-D matrix, hypotheses × points")
        points = np.asarray(rows[:stop], dtype=np.intp)
        k = max(1, _BLOCK_ENTRIES // max(1, matrix.shape[0]))
        for s in range(0, stop, k):
            yield matrix[:, points[s : s + k]].T, labels[s : s + k]
        return
    if stop == 0:
        return
    n = np.shape(rows[0])
    if len(n) != 1:
        raise GameError(f"an expert game's instances are advice vectors; round 1 has shape {n}")
    k = max(1, _BLOCK_ENTRIES // max(1, n[0]))
    for s in range(0, stop, k):
        chunk = rows[s : min(s + k, stop)]
        try:
            block = np.asarray(chunk)
        except ValueError:
            block = None
        if block is None or block.ndim != 2 or block.dtype == object or block.shape[1] != n[0]:
            raise GameError(
                f"rounds {s + 1}–{s + len(chunk)}: advice vectors must all have {n[0]} entries"
            )
        yield block, labels[s : s + k]


def _plus_minus_one(block: np.ndarray) -> bool:
    """Integer advice all ±1 (no 0, nothing beyond): every loss of it is its zero-one loss."""
    return (
        block.dtype.kind in "iu"
        and np.count_nonzero(block) == block.size
        and int(block.min()) >= -1
        and int(block.max()) <= 1
    )


def _experts(transcript, matrix) -> int:
    if matrix is not None:
        return int(np.shape(matrix)[0])
    if len(transcript) == 0:
        return 0
    return int(np.shape(transcript.raw_instances[0])[0])


def _scan(transcript, loss: str, matrix, stop: int) -> ExpertRecord:
    """One pass over rounds 1..stop."""
    n = _experts(transcript, matrix)
    zero_one = loss == "zero-one"
    fn = get_loss(loss)
    running = np.zeros(n, dtype=np.int64 if zero_one else np.float64)
    best = np.empty(stop, dtype=np.int64)
    best_losses = np.empty(stop, dtype=np.float64)
    t = 0
    for block, ys in _advice_rows(transcript, matrix, stop):
        if zero_one or _plus_minus_one(block):
            step = (block >= 0) != (ys[:, None] > 0)
        else:
            step = fn(np.asarray(block, dtype=np.float64), ys[:, None])
        cumulative = np.cumsum(step, axis=0, dtype=running.dtype)
        cumulative += running
        k = cumulative.shape[0]
        best[t : t + k] = np.argmin(cumulative, axis=1)
        best_losses[t : t + k] = cumulative[np.arange(k), best[t : t + k]]
        running = cumulative[-1]
        t += k
    return ExpertRecord(running.astype(np.float64), best, best_losses)


def _sums(transcript, loss: str, matrix, stop: int) -> np.ndarray:
    """Every expert's cumulative loss after round ``stop``, without per-round minima."""
    running = np.zeros(_experts(transcript, matrix), dtype=np.float64)
    fn = get_loss(loss)
    for block, ys in _advice_rows(transcript, matrix, stop):
        if loss == "zero-one" or _plus_minus_one(block):
            running += np.count_nonzero((block >= 0) != (ys[:, None] > 0), axis=0)
        else:
            running += fn(np.asarray(block, dtype=np.float64), ys[:, None]).sum(axis=0)
    return running


def _cached(transcript, key, compute):
    cache = getattr(transcript, "_cache", None)
    if cache is None:
        return compute()
    if key not in cache:
        cache[key] = compute()
    return cache[key]


def _record(transcript, loss: str | None, matrix) -> ExpertRecord:
    loss = transcript.loss_name if loss is None else loss
    get_loss(loss)

    def compute():
        return _scan(transcript, loss, matrix, len(transcript))

    if matrix is not None:
        return compute()
    return _cached(transcript, ("expert-record", loss), compute)


def perfect_experts(transcript, *, matrix=None) -> np.ndarray:
    """The experts right on every round (the sign of their advice, sign(0) = +1, is the label).

    Stops reading as soon as none is left.

    Returns
    -------
    numpy.ndarray
        Their indices, in increasing order.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners.perceptron import Perceptron
    >>> advice = np.array([[1, -1, 1], [-1, -1, 1]])
    >>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, -1]), rounds=2)
    >>> perfect_experts(tr).tolist()
    [0]
    """
    alive = np.arange(_experts(transcript, matrix))
    for block, ys in _advice_rows(transcript, matrix, len(transcript)):
        for row, y in zip(block, ys, strict=True):
            alive = alive[(row[alive] >= 0) == (y > 0)]
            if alive.size == 0:
                return alive
    return alive


def expert_losses(transcript, t: int | None = None, *, loss: str | None = None, matrix=None):
    """Every expert's cumulative loss after round ``t`` (default: the last round).

    Parameters
    ----------
    transcript : Transcript
        A game whose instances are advice vectors (or points, with ``matrix``).
    t : int, optional
        The round, from 0 (no round played: all zeros) to the number of rounds.
    loss : str, optional
        The loss to grade the experts with (default: the game's).
    matrix : array_like, optional
        A finite class's ±1 matrix (hypotheses × points) when the instances are points.

    Returns
    -------
    numpy.ndarray
        (N,) float cumulative losses.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners.perceptron import Perceptron
    >>> advice = np.array([[1.0, -1.0], [0.5, -0.5]])
    >>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, -1]), rounds=2,
    ...           loss="absolute")
    >>> expert_losses(tr).tolist(), expert_losses(tr, 1).tolist()
    ([0.75, 1.25], [0.0, 1.0])
    """
    total = len(transcript)
    if t is None:
        t = total
    t = check_integer("t", t, low=0, high=total)
    loss = transcript.loss_name if loss is None else loss
    get_loss(loss)
    if t == total and matrix is None:
        key = ("expert-losses", loss)
        return _cached(transcript, key, lambda: _sums(transcript, loss, matrix, total)).copy()
    return _sums(transcript, loss, matrix, int(t))


def best_expert(transcript, *, loss: str | None = None, matrix=None) -> np.ndarray:
    """The best expert after each round: argmin_i L_i^t, the smallest index among ties.

    Returns
    -------
    numpy.ndarray
        (T,) int expert indices.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners.perceptron import Perceptron
    >>> advice = np.array([[-1, 1], [-1, 1], [1, -1]])
    >>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, -1, -1]), rounds=3)
    >>> best_expert(tr).tolist()
    [1, 0, 1]
    """
    return _record(transcript, loss, matrix).best.copy()


def best_expert_losses(transcript, *, loss: str | None = None, matrix=None) -> np.ndarray:
    """min_i L_i^t after each round t: the best expert's cumulative loss.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners.perceptron import Perceptron
    >>> advice = np.array([[-1, 1], [-1, 1], [1, -1]])
    >>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, -1, -1]), rounds=3)
    >>> best_expert_losses(tr).tolist()
    [0.0, 1.0, 1.0]
    """
    return _record(transcript, loss, matrix).best_losses.copy()


def regret(transcript, *, loss: str | None = None, matrix=None) -> np.ndarray:
    """The regret after each round: the learner's cumulative loss minus min_i L_i^t.

    Both sides are graded with ``loss`` (default: the game's loss), so
    ``regret(tr, loss="zero-one")`` is mistakes minus the best expert's mistakes.

    Returns
    -------
    numpy.ndarray
        (T,) floats; the last entry is the regret of the whole game.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners.perceptron import Perceptron
    >>> advice = np.array([[-1, 1], [-1, 1], [1, -1]])
    >>> tr = play(Perceptron(), Replay(instances=advice, labels=[1, -1, -1]), rounds=3)
    >>> tr.mistakes.astype(int).tolist(), regret(tr).tolist()
    ([0, 1, 1], [0.0, 0.0, 1.0])
    """
    name = transcript.loss_name if loss is None else loss
    mine = np.cumsum(get_loss(name)(transcript.predictions, transcript.labels), dtype=np.float64)
    return mine - _record(transcript, name, matrix).best_losses
