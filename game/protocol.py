"""The two players' protocols and the history the engine shows an adversary.

A round t (numbered from 1) runs:

1. ``x = adversary.instance(history)``; ``None`` ends the game.
2. ``p = learner.predict(x)``: a float in [-1, 1]; the predicted label is sign(p), sign(0) = +1.
3. ``y = adversary.label(x, p, history)``: -1 or +1.
4. ``updated = learner.update(x, y)``: True iff the learner's state changed.
5. The engine records t, x, p, y, mistake, loss, updated, the players'
   per-round ``extras()`` and, when asked, the learner's ``snapshot()``.

Optional members a player may define (the engine looks them up once per game):

- ``snapshot() -> dict``: the learner's proof quantities after the round's update.
- ``extras() -> dict``: per-round numbers that belong in the record (either player;
  the two players' keys must differ).
- ``mistake_bound(transcript) -> Bound | None``: the learner's theorem on the game played.
- ``bound_curve(transcript)``: for figures (a class-level method), that theorem after rounds 0…T.
- ``lower_bound() -> Bound | None``: what the adversary forces.
- ``deterministic: bool``: a learner declares whether it uses randomness.
- ``state_key() -> Hashable``: a learner's state between rounds (equal keys: equal future
  predictions and updates; ``predict`` leaves it unchanged; None: no key), by which
  :func:`game.theory.solve.worst_case` merges the game states it searches.

Examples
--------
>>> from game.protocol import History, Learner
>>> h = History([], [], [])
>>> len(h)
0
>>> class Always:
...     def predict(self, x): return 1.0
...     def update(self, x, y): return False
>>> isinstance(Always(), Learner)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["INSTANCE_KINDS", "Adversary", "History", "Learner"]

#: The kinds of instance a game can be played on. A learner class declares the
#: kinds it plays in ``plays`` (a frozenset); an adversary the kind it presents
#: in ``presents`` (or a frozenset of the kinds its instances can be read as:
#: a replay of numbers in [-1, 1] is a real vector or advice). The engine
#: refuses a game before round 1 when no kind presented is one the learner plays.
INSTANCE_KINDS = {
    "vector": "a real vector (numpy float array)",
    "bits": "a bit vector in {0, 1}^n (numpy bool or uint8 array)",
    "advice": "the N experts' advice, a vector in [-1, 1]^N",
    "point": "an int, the index of a point of a finite concept class",
}


@runtime_checkable
class Learner(Protocol):
    """Predicts in [-1, 1] and learns from the revealed label."""

    def predict(self, x: Any) -> float: ...

    def update(self, x: Any, y: int) -> bool: ...


@runtime_checkable
class Adversary(Protocol):
    """Chooses instances and labels; may hand over a certificate after the game."""

    def instance(self, history: History) -> Any: ...

    def label(self, x: Any, p: float, history: History) -> int: ...

    def certificate(self) -> Any: ...


class _ReadOnly(Sequence):
    """A read-only view of one of the referee's columns: indexing, slicing, length, iteration.

    There is no way to change the column through it (no item assignment,
    ``append`` or ``del``); ``instances`` hand out read-only copies of the
    recorded arrays, so a write to what an adversary reads never reaches the record.
    """

    __slots__ = ("_column", "_copy")

    def __init__(self, column: Sequence, copy: bool = False):
        self._column = column
        self._copy = copy

    def __len__(self) -> int:
        return len(self._column)

    def __getitem__(self, index):
        value = self._column[index]
        if not self._copy:
            return value
        if isinstance(index, slice):
            return [_frozen_copy(v) for v in value]
        return _frozen_copy(value)

    def __iter__(self):
        if not self._copy:
            return iter(self._column)
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _ReadOnly):
            other = list(other)
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(
            bool(np.array_equal(a, b)) for a, b in zip(self, other, strict=True)
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"<read-only column of {len(self)} rounds>"


def _frozen_copy(value: Any) -> Any:
    """An array's read-only copy (anything else is returned as it is: numbers are immutable)."""
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value


class History:
    """The rounds played so far, as the adversary sees them: read-only.

    ``instances``, ``predictions`` and ``labels`` hold one entry per completed
    round (round t at index t - 1). They are read-only views of the referee's
    record: they grow as the game goes on, they cannot be changed, and an
    instance read from them is a read-only copy, so no write by a player
    reaches what was recorded.

    Parameters
    ----------
    instances, predictions, labels : sequence
        The columns to show (the engine's record; a hand-driven game's lists).

    Examples
    --------
    >>> xs, ps, ys = [], [], []
    >>> h = History(xs, ps, ys)
    >>> ys.append(1); ps.append(-1.0); xs.append(0)
    >>> len(h), h.t, h.mistakes, list(h.labels)
    (1, 2, 1, [1])
    >>> h.labels.append(-1)
    Traceback (most recent call last):
    ...
    AttributeError: '_ReadOnly' object has no attribute 'append'
    """

    __slots__ = ("_instances", "_labels", "_predictions")

    def __init__(self, instances: Sequence, predictions: Sequence, labels: Sequence):
        object.__setattr__(self, "_instances", _ReadOnly(instances, copy=True))
        object.__setattr__(self, "_predictions", _ReadOnly(predictions))
        object.__setattr__(self, "_labels", _ReadOnly(labels))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"the history is read-only; cannot set {name!r}")

    @property
    def instances(self) -> Sequence:
        """The instances presented, round by round (read-only copies)."""
        return self._instances

    @property
    def predictions(self) -> Sequence[float]:
        """The learner's predictions, round by round."""
        return self._predictions

    @property
    def labels(self) -> Sequence[int]:
        """The labels given, round by round."""
        return self._labels

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def t(self) -> int:
        """The number of the round being played (completed rounds + 1)."""
        return len(self._labels) + 1

    @property
    def mistakes(self) -> int:
        """Mistakes so far (sign(0) = +1)."""
        return sum(
            (p >= 0) != (y > 0) for p, y in zip(self._predictions, self._labels, strict=True)
        )
