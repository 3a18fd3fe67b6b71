"""The reference opponents the conformance checks play against, and a step-by-step driver.

A random stream for "vector", random bit vectors labelled by a fixed literal
for "bits", random advice with a perfect expert for "advice", random points
labelled by a hypothesis of the given class for "point"; and, for adversaries,
a learner that predicts at random.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from game.testing import RandomLearner, reference_adversary
>>> tr = play(RandomLearner(np.random.default_rng(0)),
...           reference_adversary("bits", np.random.default_rng(0)), rounds=10)
>>> len(tr), tr.certificate is None
(10, True)
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from game.errors import GameError
from game.players import name_of, parameters, rng_field
from game.protocol import INSTANCE_KINDS, History

__all__ = [
    "ROUNDS",
    "RandomLearner",
    "declared",
    "drive",
    "player_name",
    "reference_adversary",
]

#: Rounds of a reference game when none is asked for (the checks draw their own:
#: :func:`game.testing._games.game_length`).
ROUNDS = 60


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class RandomLearner:
    """Predicts -1 or +1 uniformly at random and never learns (a reference opponent).

    Examples
    --------
    >>> import numpy as np
    >>> RandomLearner(np.random.default_rng(0)).predict(None) in (-1.0, 1.0)
    True
    """

    deterministic = False
    plays = frozenset(INSTANCE_KINDS)
    rng: np.random.Generator = rng_field("draws the predictions")

    def predict(self, x) -> float:
        return 1.0 if self.rng.random() < 0.5 else -1.0

    def update(self, x, y) -> bool:
        return False


def player_name(player: Any) -> str:
    """A player's registry name, or its class name when it is not registered."""
    return name_of(type(player)) or type(player).__qualname__


def declared(cls: type, what: str) -> str | None:
    """The parameter of ``cls`` declared as filled by a scenario with ``what``, or None.

    ``what`` is ``"rng"``, ``"loss"`` or ``"concept_class"``; the name is the
    player's own (see :func:`game.players.parameters`), never guessed.
    """
    for p in parameters(cls):
        if p["supplied"] == what:
            return p["name"]
    return None


def reference_adversary(
    kind: str, rng: np.random.Generator, concept_class: Any = None, rounds: int = ROUNDS
):
    """An oblivious, realizable adversary presenting ``kind`` instances (see module doc).

    It has ``rounds`` instances ready (the "vector" stream never ends).
    """
    from adversaries.replay import Replay
    from adversaries.streams import SeparableStream

    n = rounds
    if kind == "vector":
        return SeparableStream(5, 0.1, 1.0, rng)
    if kind == "bits":
        X = rng.integers(0, 2, size=(n, 8)).astype(bool)
        return Replay(instances=X, labels=np.where(X[:, 2], 1, -1))
    if kind == "advice":
        A = rng.choice(np.array([-1.0, 1.0]), size=(n, 16))
        return Replay(instances=A, labels=A[:, 3].astype(int))
    if kind == "point":
        if concept_class is None:
            raise GameError("a learner that plays points needs concept_class for its checks")
        matrix = np.asarray(concept_class.matrix)
        h = int(rng.integers(matrix.shape[0]))
        points = rng.integers(0, matrix.shape[1], size=n)
        return Replay(instances=points, labels=matrix[h, points])
    raise GameError(f"unknown instance kind {kind!r}")


def drive(learner, adversary, columns: tuple[list, list, list], rounds: int) -> list:
    """Play up to ``rounds`` rounds by hand, appending to ``columns``; returns the new rows.

    Each row is ``(p, y, updated)``. Instances are handed over read-only, as the
    engine hands them; the players can be pickled between two calls.
    """
    xs, ps, ys = columns
    history = History(xs, ps, ys)
    rows = []
    for _ in range(rounds):
        x = adversary.instance(history)
        if x is None:
            break
        if isinstance(x, np.ndarray):
            x = x.view()
            x.flags.writeable = False
        p = learner.predict(x)
        y = adversary.label(x, p, history)
        u = learner.update(x, y)
        xs.append(x)
        ps.append(p)
        ys.append(y)
        rows.append((float(p), int(y), bool(u)))
    return rows
