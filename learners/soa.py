"""The Standard Optimal Algorithm (SOA) over a finite class.

Shalev-Shwartz & Ben-David §21.1.1 (the chapter of seed 000): keep the version
space V_t of the hypotheses consistent so far; on x_t predict the label r whose
restriction V_t(r) = {h ∈ V_t : h(x_t) = r} has the larger Littlestone
dimension, +1 on a tie; then keep V_t(y_t). A mistake means the label with
the smaller (or equal) dimension came, so Ldim(V_{t+1}) < Ldim(V_t) (else both
sides would have dimension Ldim(V_t) and V_t a deeper tree): at most Ldim(H)
mistakes on every sequence some h ∈ H labels (Lemma 21.7).

The dimensions are computed exactly by the class's shared
:class:`game.theory.littlestone.LdimEngine`, whose memo carries over from round to
round and from player to player, and each version space's dimension is kept
in a small cache: a game costs far less than two fresh ``ldim`` calls per round.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError
from game.players import concept_class_field
from game.theory.bounds import Bound, soa_bound
from game.theory.concepts import FiniteClass, point_index

__all__ = ["SOA"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class SOA:
    """The Standard Optimal Algorithm: predict the side of larger Littlestone dimension.

    Parameters
    ----------
    concept_class : FiniteClass
        The class H (or an object with ``.matrix``, or a ±1 matrix). Instances
        are its point indices.

    Notes
    -----
    A label that no hypothesis left agrees with (the sequence is not realised
    by H) leaves the version space as it is; ``update`` then returns False and
    ``mistake_bound`` returns None, as Lemma 21.7 no longer applies.
    ``snapshot()`` gives ``|V_t|`` and Ldim(V_t) after the round's update.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> soa = SOA(thresholds(7))            # Ldim 3: binary search on θ
    >>> soa.predict(3), soa.update(3, -1), soa.snapshot()
    (1.0, True, {'version_space': 4, 'ldim': 2})
    >>> soa.predict(5)
    1.0
    """

    proof: ClassVar[str] = "soa"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"point"})

    concept_class: FiniteClass = concept_class_field(
        "the finite class H (a [concept_class] table, a .npy/.csv file, or a ±1 matrix)"
    )
    _alive: Any = attrs.field(init=False, default=None, repr=False)
    _x: int | None = attrs.field(init=False, default=None, repr=False)
    _plus: Any = attrs.field(init=False, default=None, repr=False)
    _realizable: bool = attrs.field(init=False, default=True, repr=False)

    def __attrs_post_init__(self) -> None:
        self._alive = np.ones(self.concept_class.n_hypotheses, dtype=bool)

    def _sides(self, x: Any) -> tuple[int, np.ndarray]:
        try:
            x = point_index(x, self.concept_class.n_points)
        except ParameterError as exc:  # a played instance: the referee names the round
            raise ValueError(str(exc)) from None
        if x != self._x:
            self._plus = self._alive & (self.concept_class.matrix[:, x] > 0)
            self._x = x
        return x, self._plus

    def predict(self, x: Any) -> float:
        """+1.0 when Ldim(V(+1)) ≥ Ldim(V(−1)), else −1.0."""
        _, plus = self._sides(x)
        minus = self._alive & ~plus
        engine = self.concept_class.engine
        if not minus.any():
            return 1.0
        if not plus.any():
            return -1.0
        return 1.0 if engine.ldim(plus) >= engine.ldim(minus) else -1.0

    def update(self, x: Any, y: int) -> bool:
        """Keep the hypotheses that give x the label y; True iff one was dropped."""
        _, plus = self._sides(x)
        kept = plus if y == 1 else self._alive & ~plus
        if not kept.any():
            self._realizable = False
            return False
        changed = int(kept.sum()) < int(self._alive.sum())
        self._alive = kept
        self._x = None
        return changed

    @property
    def version_space(self) -> np.ndarray:
        """The indices of the hypotheses consistent with every label so far."""
        return np.flatnonzero(self._alive)

    def state_key(self) -> bytes:
        """What its future predictions depend on: V_t, as packed bits.

        Equal keys, equal behaviour from here on (:func:`game.theory.solve.worst_case`
        merges states by it).
        """
        return np.packbits(self._alive).tobytes()

    def snapshot(self) -> dict[str, Any]:
        """``|V_t|`` and Ldim(V_t): the quantity Lemma 21.7's proof decreases on every mistake."""
        return {
            "version_space": int(self._alive.sum()),
            "ldim": self.concept_class.engine.ldim(self._alive),
        }

    def mistake_bound(self, transcript) -> Bound | None:
        """Lemma 21.7's Ldim(H), or None when no h ∈ H gives the labels played (H empty too)."""
        if not self._realizable or not self._alive.any():
            return None
        return soa_bound(self.concept_class.engine.ldim())
