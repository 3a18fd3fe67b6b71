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

__all__ = ["INSTANCE_KINDS", "Adversary", "History", "Learner"]

#: The kinds of instance a game can be played on. A learner class declares the
#: kinds it plays in ``plays`` (a frozenset); an adversary class the kind it
#: presents in ``presents``.
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


class History:
    """The rounds played so far, as the adversary sees them.

    A live view on the engine's columns: ``instances``, ``predictions`` and
    ``labels`` hold one entry per completed round (round t at index t - 1).
    They are the engine's own lists: read them, never change them.

    Parameters
    ----------
    instances, predictions, labels : list
        The engine's columns.
    """

    __slots__ = ("instances", "labels", "predictions")

    def __init__(self, instances: list, predictions: list, labels: list):
        self.instances: Sequence = instances
        self.predictions: Sequence[float] = predictions
        self.labels: Sequence[int] = labels

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def t(self) -> int:
        """The number of the round being played (completed rounds + 1)."""
        return len(self.labels) + 1

    @property
    def mistakes(self) -> int:
        """Mistakes so far (sign(0) = +1)."""
        return sum((p >= 0) != (y > 0) for p, y in zip(self.predictions, self.labels, strict=True))
