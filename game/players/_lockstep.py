"""The lockstep protocol: a player class that can play K games at once declares its kernel.

:func:`game.play_batch` plays learner k against adversary k for every k. When
both classes of a batch declare a kernel it plays all K games at once, on a
leading batch axis, and each game's transcript is exactly what
:func:`game.play` gives for the same pair; otherwise it plays them one by one.

A class declares its kernel in its own body, as the class attribute
``lockstep``:

- an oblivious adversary, whose instances and labels do not depend on the
  learner, a :class:`Source`: it draws each game's whole sequence ahead, from
  the adversary's own generator, exactly as the game would see it;
- a learner whose state can be kept for K games as K rows, a
  :class:`LockstepLearner`: it plays the K games round by round
  (:func:`rounds_of` walks their instances) and leaves every learner in the
  state its serial game would.

:func:`kernel_for` reads the attribute from the class's own ``__dict__``: a
subclass, which may change what its parent computes, plays in lockstep only
if it declares a kernel of its own. A kernel belongs with its player, in the
player's own package, where it may read the player's state; the framework
calls it only through this protocol. The first lockstep game of each pair of
classes in a process is also played by the engine and compared, so a kernel
that no longer matches its player stops with a :class:`~game.errors.GameError`.

Examples
--------
A learner that always predicts +1 and never updates, with a kernel that
plays K games at once:

>>> import numpy as np
>>> from game import play, play_batch
>>> from game.players import LockstepLearner, kernel_for
>>> from game.sweep import lockstep_supported
>>> def accepts(learner, d, dtype):          # any instances: nothing to reproduce
...     return True
>>> def run(learners, Xs, y, lengths):       # K × n predictions and update flags
...     return np.ones(y.shape), np.zeros(y.shape, dtype=bool)
>>> class AlwaysPlus:
...     deterministic = True
...     lockstep = LockstepLearner(accepts=accepts, run=run)
...     def predict(self, x):
...         return 1.0
...     def update(self, x, y):
...         return False
>>> class Subclass(AlwaysPlus):              # inherits the methods, not the kernel
...     pass
>>> kernel_for(AlwaysPlus) is AlwaysPlus.lockstep, kernel_for(Subclass)
(True, None)
>>> from adversaries import SeparableStream
>>> def stream(seed):
...     return SeparableStream(3, 0.1, rng=np.random.default_rng(seed))
>>> lockstep_supported([AlwaysPlus(), AlwaysPlus()], [stream(0), stream(1)], 50)
True
>>> batch = play_batch([AlwaysPlus(), AlwaysPlus()], [stream(0), stream(1)], rounds=50)
>>> [b.digest == play(AlwaysPlus(), stream(s), rounds=50).digest for s, b in enumerate(batch)]
[True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np

from game.errors import GameError

__all__ = ["LockstepLearner", "Source", "kernel_for", "rounds_of"]


@attrs.frozen
class Source:
    """Lockstep kernel of an oblivious adversary: its whole game, drawn ahead.

    Parameters
    ----------
    plan : callable
        ``plan(adversary, rounds) -> (n, d, dtype) or None``: the number of
        rounds the game will last, the instances' length and dtype, or None
        when the kernel cannot reproduce this adversary's game exactly. It
        must not change the adversary.
    examples : callable
        ``examples(adversary, n) -> (X, y)`` or ``(X, y, extras)``: the n
        instances the game would present (an n × d C-contiguous array of the
        planned dtype, the rows the game presents), their labels, and the
        adversary's per-round ``extras()`` as arrays (name -> n values);
        advancing the adversary's generator as the game would.
    key : callable, optional
        ``key(adversary, n)``: games whose keys are equal (and not None) present
        the same sequence, which is then drawn once and shared.

    Examples
    --------
    >>> import numpy as np
    >>> from adversaries import SeparableStream
    >>> stream = SeparableStream(4, 0.2, rng=np.random.default_rng(0))
    >>> source = kernel_for(SeparableStream)
    >>> source.plan(stream, 100)
    (100, 4, dtype('float64'))
    >>> X, y = source.examples(stream, 100)
    >>> X.shape, y.shape
    ((100, 4), (100,))
    """

    plan: Callable[[Any, int], tuple[int, int, np.dtype] | None]
    examples: Callable[[Any, int], tuple]
    key: Callable[[Any, int], Any] | None = None


@attrs.frozen
class LockstepLearner:
    """Lockstep kernel of a learner: K games' rounds played at once.

    Parameters
    ----------
    accepts : callable
        ``accepts(learner, d, dtype) -> bool``: whether the kernel reproduces
        this learner exactly on instances of length d and this dtype. It must
        not change the learner.
    run : callable
        ``run(learners, Xs, y, lengths) -> (predictions, updated)`` or
        ``(predictions, updated, extras)``: play game k on the rows of
        ``Xs[k]`` (n_k × d) with labels ``y[k, :n_k]`` (``y`` is K × n, int64;
        ``lengths`` holds the n_k); return the K × n predictions (float64),
        update flags (bool) and the learner's per-round ``extras()`` (name ->
        K × n floats), and leave every learner in the state its serial game
        would. :func:`rounds_of` walks the games' rounds in windows.

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Perceptron
    >>> kernel = kernel_for(Perceptron)
    >>> kernel.accepts(Perceptron(), 4, np.dtype(np.float64)), kernel.accepts(
    ...     Perceptron(dimension=3), 4, np.dtype(np.float64))
    (True, False)
    """

    accepts: Callable[[Any, int, np.dtype], bool]
    run: Callable[[list, list, np.ndarray, np.ndarray], tuple]


def kernel_for(cls: type) -> Source | LockstepLearner | None:
    """The lockstep kernel a player class declares in its own body (``lockstep``), or None.

    Only the class's own ``__dict__`` is read: a subclass does not inherit
    its parent's kernel.

    Raises
    ------
    GameError
        When the class's ``lockstep`` is neither a :class:`Source` nor a
        :class:`LockstepLearner`.

    Examples
    --------
    >>> from learners import Perceptron, RandomizedWeightedMajority, WeightedMajority
    >>> type(kernel_for(Perceptron)).__name__, kernel_for(int)
    ('LockstepLearner', None)
    >>> kernel_for(WeightedMajority) is not None, kernel_for(RandomizedWeightedMajority)
    (True, None)
    """
    kernel = vars(cls).get("lockstep")
    if kernel is None or isinstance(kernel, Source | LockstepLearner):
        return kernel
    raise GameError(
        f"{cls.__qualname__}.lockstep must be a game.players.Source or LockstepLearner, "
        f"got {kernel!r:.80}"
    )


def rounds_of(
    Xs: Sequence[np.ndarray], d: int, window: int = 64, dtype: Any = np.float64
) -> Iterator[tuple[int, np.ndarray]]:
    """The K games' instances round by round: yields (t, x) with x the K × d rows of round t.

    Rows are copied window by window into one reused buffer of ``dtype`` (a
    game shorter than the others gives zero rows past its end), so walking K
    games costs one pass over their instances, cache-resident.

    Examples
    --------
    >>> import numpy as np
    >>> Xs = [np.arange(6.0).reshape(3, 2), np.ones((2, 2))]
    >>> [(t, x.tolist()) for t, x in rounds_of(Xs, 2)]
    [(0, [[0.0, 1.0], [1.0, 1.0]]), (1, [[2.0, 3.0], [1.0, 1.0]]), (2, [[4.0, 5.0], [0.0, 0.0]])]
    """
    n_max = max((len(X) for X in Xs), default=0)
    buffer = np.zeros((len(Xs), min(window, max(n_max, 1)), d), dtype=dtype)
    for t0 in range(0, n_max, window):
        t1 = min(t0 + window, n_max)
        for k, X in enumerate(Xs):
            part = X[t0:t1]
            buffer[k, : len(part)] = part
            buffer[k, len(part) : t1 - t0] = 0
        for t in range(t0, t1):
            yield t, buffer[:, t - t0]
