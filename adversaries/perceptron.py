"""Adversaries that make the Perceptron's bound tight.

:class:`OrthogonalAdversary` presents the standard basis e₁, …, e_d and labels
each one against the learner's prediction. Every label is consistent with
u = Σ y_t·e_t/√d, a unit vector with margin y_t·(u·e_t) = 1/√d on every
round, and R = 1, so Block–Novikoff allows (R/γ)² = d updates: every
deterministic learner (every learner, in fact, since the label answers the
prediction already made) errs on all d rounds, and the Perceptron's bound is
met with equality.
"""

from __future__ import annotations

import math
from typing import ClassVar

import attrs
import numpy as np

from game.players import integer_at_least
from game.theory import HalfspaceCertificate
from game.theory.bounds import Bound

__all__ = ["MAX_DIMENSION", "OrthogonalAdversary"]

#: The largest dimension: a full game records d instances of dimension d.
MAX_DIMENSION = 2**12

ORTHOGONAL_SOURCE = (
    "tightness of Block–Novikoff (CS229 notes, seed 001; Balcan lecture 3, seed 003, "
    "Theorem 1): R = 1, γ = 1/√d, (R/γ)² = d; the labels answer each prediction as in "
    "the lower bound of seed 003, §2.1"
)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class OrthogonalAdversary:
    """Presents e₁, e₂, …, e_d and answers the opposite of every prediction.

    The label of round t is −sign(p_t) (sign(0) = +1), so every round is a
    mistake; the game ends after d rounds. The certificate is
    u = Σ_t y_t·e_t/√d (entries of rounds not played, if the game was cut
    short, are +1/√d), whose margin is 1/√d on every round.

    Parameters
    ----------
    dimension : int
        d ≥ 1: the number of rounds and the instances' dimension.

    Examples
    --------
    >>> from game import play
    >>> from learners import Perceptron
    >>> tr = play(Perceptron(), OrthogonalAdversary(9), rounds=100)
    >>> s = tr.summary()
    >>> s["mistakes"], s["updates"], s["bound"], s["lower_bound"], s["certificate_verified"]
    (9, 9, 9.0..., 9.0, True)
    """

    presents: ClassVar[str] = "vector"

    dimension: int = attrs.field(
        validator=integer_at_least(1, MAX_DIMENSION),
        metadata={"doc": f"dimension d (at most {MAX_DIMENSION}): forces d mistakes"},
    )
    _labels: list = attrs.field(init=False, factory=list, repr=False)

    def instance(self, history) -> np.ndarray | None:
        """e_t (a read-only vector) on round t ≤ d, then None."""
        t = len(self._labels)
        if t >= self.dimension:
            return None
        e = np.zeros(self.dimension)
        e[t] = 1.0
        e.flags.writeable = False
        return e

    def label(self, x, p, history) -> int:
        """The opposite of the predicted label sign(p), sign(0) = +1."""
        y = -1 if p >= 0 else 1
        self._labels.append(y)
        return y

    def certificate(self) -> HalfspaceCertificate:
        """u = Σ y_t·e_t/√d: unit length, margin 1/√d on every round."""
        signs = np.ones(self.dimension)
        signs[: len(self._labels)] = self._labels
        return HalfspaceCertificate(signs / math.sqrt(self.dimension))

    def lower_bound(self) -> Bound:
        """Every round presented is a mistake: d of them in a game played to its end."""
        k = len(self._labels)
        return Bound(
            float(k),
            f"mistakes ≥ {k}: each of e_1, …, e_{k} is labelled against the prediction "
            f"(d = {self.dimension} = 1/γ² with γ = 1/√d)",
            ORTHOGONAL_SOURCE,
            quantity="mistakes",
            kind="lower",
        )
