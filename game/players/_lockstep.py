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

__all__ = [
    "LockstepLearner",
    "LockstepPlan",
    "LockstepRounds",
    "Source",
    "kernel_for",
    "lockstep_plan",
    "play_lockstep",
    "rounds_of",
]


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
    compiled : callable, optional
        ``compiled(values) -> bool``: whether ``run`` would go through compiled
        code (the ``fast`` extra installed and not switched off) for games of
        ``values`` instance values in all, loading that code only when the
        games are long enough to repay its loading. :func:`game.play` sends a
        single game through the kernels (K = 1) only then; without it, ``run``
        serves :func:`game.play_batch` alone.

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
    compiled: Callable[[int], bool] | None = None


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


@attrs.frozen
class LockstepPlan:
    """How K games play in lockstep: their kernels, each game's length, the instances' kind.

    Made by :func:`lockstep_plan`, played by :func:`play_lockstep`.
    """

    learner_kernel: LockstepLearner
    source: Source
    lengths: list[int]
    dimension: int
    dtype: np.dtype


def lockstep_plan(learners: list, adversaries: list, rounds: int) -> LockstepPlan | None:
    """The plan of K games in lockstep, or None when the kernels cannot reproduce them exactly.

    None for players of more than one class, a player in two games, a class
    without a kernel, a game the source cannot draw ahead, instances of
    differing lengths or dtypes, or a learner its kernel does not take. It
    changes no player.

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Perceptron
    >>> from adversaries import SeparableStream
    >>> s = SeparableStream(3, 0.1, rng=np.random.default_rng(0))
    >>> plan = lockstep_plan([Perceptron()], [s], 10)
    >>> plan.lengths, plan.dimension
    ([10], 3)
    >>> lockstep_plan([Perceptron(), Perceptron()], [s, s], 10) is None  # one stream, two games
    True
    """
    if not learners or len(learners) != len(adversaries):
        return None
    learner_cls, adversary_cls = type(learners[0]), type(adversaries[0])
    if any(type(p) is not learner_cls for p in learners) or any(
        type(a) is not adversary_cls for a in adversaries
    ):
        return None
    players = [id(p) for p in learners] + [id(a) for a in adversaries]
    if len(set(players)) != len(players):  # a player in two games plays them in turn
        return None
    learner_kernel, source = kernel_for(learner_cls), kernel_for(adversary_cls)
    if not isinstance(learner_kernel, LockstepLearner) or not isinstance(source, Source):
        return None
    plans = [source.plan(a, rounds) for a in adversaries]
    if any(p is None for p in plans):
        return None
    kinds = {(d, np.dtype(dtype)) for n, d, dtype in plans if n > 0}
    if len(kinds) > 1:
        return None
    d, dtype = kinds.pop() if kinds else (1, np.dtype(np.float64))
    if not all(learner_kernel.accepts(p, d, dtype) for p in learners):
        return None
    return LockstepPlan(learner_kernel, source, [n for n, _, _ in plans], d, dtype)


@attrs.frozen
class LockstepRounds:
    """The rounds of K games played in lockstep, game k in row k.

    Attributes
    ----------
    instances : list of numpy.ndarray
        Game k's n_k × d instances, read-only.
    labels : numpy.ndarray
        K × n int64 labels (±1; 1 past a game's end).
    predictions, updated : numpy.ndarray
        K × n float64 predictions and bool update flags.
    learner_extras : dict of str to numpy.ndarray
        The learner's per-round ``extras()``, name -> K × n floats.
    adversary_extras : list of dict
        Each game's adversary ``extras()``, name -> n_k floats.
    """

    instances: list
    labels: np.ndarray
    predictions: np.ndarray
    updated: np.ndarray
    learner_extras: dict
    adversary_extras: list


def play_lockstep(plan: LockstepPlan, learners: list, adversaries: list) -> LockstepRounds:
    """Play the planned games: every game's sequence drawn ahead, then the learners' kernel.

    Each adversary's generator and each learner end where their serial game
    leaves them. Games whose sources give equal keys share one draw.

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Perceptron
    >>> from adversaries import SeparableStream
    >>> learners = [Perceptron(), Perceptron()]
    >>> streams = [SeparableStream(3, 0.1, rng=np.random.default_rng(s)) for s in (0, 1)]
    >>> played = play_lockstep(lockstep_plan(learners, streams, 20), learners, streams)
    >>> played.predictions.shape, played.instances[1].shape
    ((2, 20), (20, 3))
    """
    source, lengths = plan.source, plan.lengths
    k_games, n_max = len(learners), max(lengths, default=0)
    keys = (
        [source.key(a, n) for a, n in zip(adversaries, lengths, strict=True)] if source.key else []
    )
    if keys and keys[0] is not None and all(k == keys[0] for k in keys):
        drawn = [source.examples(adversaries[0], n_max)] * k_games
    else:
        drawn = [source.examples(a, n) for a, n in zip(adversaries, lengths, strict=True)]
    # a game without rounds gets an empty d-column array, like the others
    Xs = [
        got[0] if n else np.empty((0, plan.dimension), dtype=plan.dtype)
        for got, n in zip(drawn, lengths, strict=True)
    ]
    for X in Xs:
        X.flags.writeable = False
    y = np.ones((k_games, n_max), dtype=np.int64)
    for k, got in enumerate(drawn):
        y[k, : len(got[1])] = got[1]
    played = plan.learner_kernel.run(learners, Xs, y, np.asarray(lengths))
    return LockstepRounds(
        instances=Xs,
        labels=y,
        predictions=played[0],
        updated=played[1],
        learner_extras=played[2] if len(played) > 2 else {},
        adversary_extras=[got[2] if len(got) > 2 else {} for got in drawn],
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
