"""The optimal adversary of a finite class: it forces Ldim(H) mistakes on every learner.

Lemma 21.6 of Shalev-Shwartz & Ben-David §21.1.1 (the chapter of seed 000),
played adaptively instead of from a fixed tree: with V the hypotheses
consistent so far and d = Ldim(V) ≥ 1, present a point x with
min(Ldim(V_x⁺), Ldim(V_x⁻)) = d − 1 (the largest possible), then answer the
opposite of the learner's prediction. Both sides are non-empty, so the answer
keeps a consistent hypothesis, the learner errs, and the side kept has
dimension at least d − 1. Every deterministic learner therefore errs at least
Ldim(H) times; SOA, which predicts the side of larger dimension, is answered
with the side of dimension exactly d − 1 every round and errs exactly Ldim(H)
times. This generalises the halving adversary (H = all 2ⁿ experts' bits) and
the conjunction adversary (H = monotone conjunctions) to any finite class.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import concept_class_field
from game.theory.bounds import Bound, ldim_lower_bound
from game.theory.concepts import FiniteClass, FiniteClassCertificate

__all__ = ["OptimalAdversary"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class OptimalAdversary:
    """Presents the point that keeps Ldim highest and answers against the prediction.

    Parameters
    ----------
    concept_class : FiniteClass
        The class H (or an object with ``.matrix``, or a ±1 matrix).

    Notes
    -----
    Each round the point is the witness :meth:`LdimEngine.witness` proves:
    among the points maximising the smaller dimension of the two sides, the
    first found when trying points by how evenly they split V (most even first,
    then by index). The game ends when one hypothesis is left (nothing more can
    be forced); the certificate is then that hypothesis, or, if the rounds ran
    out first, the consistent hypothesis of lowest index. ``extras()`` logs
    ``ldim``, the dimension of the version space after each round.

    Examples
    --------
    >>> import game
    >>> from game.theory.concepts import thresholds
    >>> from learners import SOA
    >>> H = thresholds(15)
    >>> tr = game.play(SOA(H), OptimalAdversary(H), rounds=100)
    >>> s = tr.summary()
    >>> s["mistakes"], s["lower_bound"], s["bound"], s["certificate_verified"]
    (4, 4.0, 4.0, True)
    """

    presents: ClassVar[str] = "point"

    concept_class: FiniteClass = concept_class_field(
        "the finite class H (a [concept_class] table, a .npy/.csv file, or a ±1 matrix)"
    )
    _alive: Any = attrs.field(init=False, default=None, repr=False)
    _x: int | None = attrs.field(init=False, default=None, repr=False)
    _d: int | None = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        self._alive = np.ones(self.concept_class.n_hypotheses, dtype=bool)

    def _dimension(self) -> int:
        if self._d is None:
            self._d = self.concept_class.engine.ldim(self._alive)
        return self._d

    def instance(self, history) -> int | None:
        """A point of largest min(Ldim(V_x⁺), Ldim(V_x⁻)); None once one hypothesis is left."""
        if self._dimension() < 1:
            return None
        self._x = self.concept_class.engine.witness(self._alive)
        return self._x

    def label(self, x, p: float, history) -> int:
        """The opposite of the prediction (sign(0) = +1), unless no hypothesis would be left."""
        x = int(x)
        y = -1 if p >= 0 else 1
        plus = self.concept_class.matrix[:, x] > 0
        side = self._alive & (plus if y == 1 else ~plus)
        if not side.any():
            y = -y
            side = self._alive & (plus if y == 1 else ~plus)
        self._alive = side
        self._d = None
        return y

    def extras(self) -> dict[str, float]:
        """``ldim``: Ldim of the hypotheses consistent after the round."""
        return {"ldim": float(self._dimension())}

    def certificate(self) -> FiniteClassCertificate | None:
        """The consistent hypothesis of lowest index (None for an empty class)."""
        alive = np.flatnonzero(self._alive)
        if alive.size == 0:
            return None
        return self.concept_class.certificate(int(alive[0]))

    def lower_bound(self) -> Bound:
        """Lemma 21.6: mistakes ≥ Ldim(H) for every deterministic learner."""
        return ldim_lower_bound(max(self.concept_class.engine.ldim(), 0))
