"""The Perceptron, with each source's conventions selectable.

The sources differ in two details (``../shared/seeds/README.md``):

- the label predicted on a zero score: +1 in the CS229 notes (seed 001) and
  Abernethy's lecture 16 (seed 004), −1 in Balcan's lecture 3 (seed 003,
  "predict positive iff w·x > 0");
- when to update: on mistakes (001, 003), or whenever y·w·x ≤ 0 (004 and
  Shalev-Shwartz & Ben-David §21.4, seed 000), which also updates on a
  zero-score round predicted right.

==========================  ==============  ===============  =============
source                      ``zero_label``  ``update``       ``normalize``
==========================  ==============  ===============  =============
CS229 notes (001)           +1              "mistake"        False
Balcan lecture 3 (003)      −1              "mistake"        True
Abernethy lecture 16 (004)  +1              "nonpositive"    False
§21.4 as OGD (000)          +1              "nonpositive"    False
==========================  ==============  ===============  =============

The default is 004's. Updates are recorded apart from mistakes either way.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.bounds import Bound, block_novikoff
from game.certificates import HalfspaceCertificate
from game.params import integer_at_least, one_of

__all__ = ["Perceptron"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Perceptron:
    """The online Perceptron: w₁ = 0, predict sign(w·x), update w += y·x.

    Parameters
    ----------
    zero_label : {1, -1}, default 1
        The label predicted when w·x = 0.
    update : {"nonpositive", "mistake"}, default "nonpositive"
        Update whenever y·w·x ≤ 0 (004, §21.4), or only on mistakes (001, 003).
    normalize : bool, default False
        Scale every instance to unit length before use, as Balcan's lecture 3
        does (a zero instance is used as it is).
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Notes
    -----
    ``mistake_bound`` is Block–Novikoff's (R/γ)² on updates, with R the largest
    norm of an instance played (after normalising) and γ the adversary's
    halfspace certificate's margin on the rounds played.

    Examples
    --------
    >>> import numpy as np
    >>> p = Perceptron(zero_label=-1, update="mistake")
    >>> x = np.array([1.0, 0.0])
    >>> p.predict(x), p.update(x, 1), p.predict(x)
    (-1.0, True, 1.0)
    >>> Perceptron().predict(x)   # 004: a zero score predicts +1
    1.0
    """

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})

    zero_label: int = attrs.field(
        default=1,
        validator=one_of(1, -1),
        metadata={"doc": "label predicted on a zero score: 1 (001, 004) or -1 (003)"},
    )
    update_rule: str = attrs.field(
        default="nonpositive",
        alias="update",
        validator=one_of("nonpositive", "mistake"),
        metadata={"doc": "update when y·w·x ≤ 0 ('nonpositive', 004) or on mistakes ('mistake')"},
    )
    normalize: bool = attrs.field(
        default=False,
        validator=one_of(False, True),
        metadata={"doc": "scale instances to unit length first (003)"},
    )
    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _xn: Any = attrs.field(init=False, default=None, repr=False)
    _s: float = attrs.field(init=False, default=0.0, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.dimension is not None:
            self._w = np.zeros(self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the current weight vector (empty before the first instance)."""
        return np.zeros(0) if self._w is None else self._w.copy()

    def _prepare(self, x):
        if self.normalize:
            norm = float(np.sqrt(x @ x))
            return x / norm if norm > 0 else x
        return x

    def predict(self, x) -> float:
        """sign(w·x) as ±1.0, with ``zero_label`` on a zero score."""
        w = self._w
        if w is None:
            w = self._w = np.zeros(np.shape(x)[0])
        xn = self._prepare(x) if self.normalize else x
        s = float(w @ xn)
        self._x, self._xn, self._s = x, xn, s
        if s > 0.0:
            return 1.0
        if s < 0.0:
            return -1.0
        return 1.0 if self.zero_label == 1 else -1.0

    def update(self, x, y: int) -> bool:
        """w += y·x when the rule says so; returns whether w changed."""
        if x is self._x:
            xn, s = self._xn, self._s
        else:
            if self._w is None:
                self._w = np.zeros(np.shape(x)[0])
            xn = self._prepare(x) if self.normalize else x
            s = float(self._w @ xn)
        if self.update_rule == "nonpositive":
            change = y * s <= 0.0
        else:
            predicted = 1 if s > 0.0 or (s == 0.0 and self.zero_label == 1) else -1
            change = predicted != y
        if change:
            if y > 0:
                self._w += xn
            else:
                self._w -= xn
        return change

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w itself: the quantities of the Block–Novikoff proof."""
        w = self.weights
        return {"norm2": float(w @ w), "w": w}

    def mistake_bound(self, transcript) -> Bound | None:
        """Block–Novikoff on the rounds played, or None without a separating certificate."""
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        X = np.asarray(transcript.instances, dtype=np.float64)
        norms = np.linalg.norm(X, axis=1)
        if self.normalize:
            X = X / np.where(norms > 0, norms, 1.0)[:, None]
            norms = np.linalg.norm(X, axis=1)
        margin = cert.margin(X, transcript.labels)
        if margin <= 0:
            return None
        return block_novikoff(float(norms.max()), margin)
