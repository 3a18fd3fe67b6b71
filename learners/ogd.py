"""Online Gradient Descent on the hinge surrogate: the Perceptron of §21.4 (seed 000).

Shalev-Shwartz & Ben-David §21.4 derive the Perceptron as Online Gradient
Descent over all of R^d (no projection): w₁ = 0, predict sign(w_t·x_t), and
w_{t+1} = w_t − η·v_t with v_t a subgradient of the round's surrogate f_t,
where f_t(w) = max(0, 1 − y_t·(w·x_t)) on the rounds with y_t·(w_t·x_t) ≤ 0
and f_t = 0 on the others. So v_t = −y_t·x_t on those rounds and 0 elsewhere,
and w_t = η·θ_t with θ_t the Perceptron's weights: the predictions, mistakes
and updates are the Perceptron's for every η > 0.

The score θ·x is the Perceptron's (:mod:`learners.perceptron`): plain, and
recomputed scaled (:func:`~learners.perceptron.scaled_score`) where it is not
finite or below ``SAFE_LOW``, so the prediction is right for any finite instance.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import integer_at_least, one_of, positive
from game.theory import HalfspaceCertificate
from game.theory.bounds import Bound, ogd_regret, perceptron_hinge
from learners.perceptron import (
    SAFE_LOW,
    halfspace_margins,
    instances_as_used,
    scaled_score,
    weights_finite,
)

__all__ = ["OnlineGradientDescent"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class OnlineGradientDescent:
    """Online Gradient Descent with step η on §21.4's hinge surrogates.

    w₁ = 0; predict sign(w·x) with sign(0) = +1; on a round with y·(w·x) ≤ 0
    the subgradient is v = −y·x and w ← w + η·y·x, else v = 0.

    The weights are kept as w = η·θ with θ = −Σ v_s (the sum of the y·x added
    so far): the same vector, but the sign of w·x is computed as the sign of
    θ·x, so no rounding of η can flip a prediction. Hence the mistakes and
    updates equal the Perceptron's (``Perceptron()``, the default convention)
    for every η > 0, exactly as the section argues.

    Parameters
    ----------
    eta : float, default 1.0
        The step size η > 0.
    theorem : {"mistakes", "regret"}, default "mistakes"
        Which theorem ``mistake_bound`` evaluates: §21.4's bound on updates
        (Theorem 21.16), or the regret bound of Online Gradient Descent
        (Theorem 21.15) on the logged surrogate losses.
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Notes
    -----
    Every round logs ``surrogate``, the round's f_t(w_t): 1 − y·(w_t·x_t) on
    the rounds with y·(w_t·x_t) ≤ 0, 0 elsewhere. The regret bound is on its
    sum. ``update`` returns whether w changed: on a zero instance the
    subgradient is 0 and it returns False, though f_t is the hinge there.

    Examples
    --------
    >>> import numpy as np
    >>> ogd = OnlineGradientDescent(eta=0.5)
    >>> x = np.array([1.0, 2.0])
    >>> ogd.predict(x), ogd.update(x, -1), ogd.extras()
    (1.0, True, {'surrogate': 1.0})
    >>> ogd.weights.tolist(), ogd.predict(x)
    ([-0.5, -1.0], -1.0)
    """

    proof: ClassVar[str] = "perceptron"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})

    eta: float = attrs.field(default=1.0, validator=positive, metadata={"doc": "step size η > 0"})
    theorem: str = attrs.field(
        default="mistakes",
        validator=one_of("mistakes", "regret"),
        metadata={"doc": "bound to evaluate: 'mistakes' (Thm 21.16) or 'regret' (Thm 21.15)"},
    )
    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**26)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _theta: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _s: float = attrs.field(init=False, default=0.0, repr=False)
    _f: float = attrs.field(init=False, default=0.0, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.dimension is not None:
            self._theta = np.zeros(self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """The current w = η·θ (empty before the first instance)."""
        return np.zeros(0) if self._theta is None else self.eta * self._theta

    def predict(self, x) -> float:
        """sign(w·x) as ±1.0, +1 on a zero score."""
        theta = self._theta
        if theta is None:
            theta = self._theta = np.zeros(np.shape(x)[0])
        s = float(np.vdot(theta, x))
        if not SAFE_LOW <= abs(s) < math.inf:  # overflowed, NaN, or maybe underflowed
            s = scaled_score(theta, x)
        self._x, self._s = x, s
        return 1.0 if s >= 0.0 else -1.0

    def update(self, x, y: int) -> bool:
        """w ← w − η·v with v = −y·x when y·(w·x) ≤ 0; returns whether w changed."""
        if x is self._x:
            s = self._s
            self._x = None
        else:
            if self._theta is None:
                self._theta = np.zeros(np.shape(x)[0])
            s = float(np.vdot(self._theta, x))
            if not SAFE_LOW <= abs(s) < math.inf:
                s = scaled_score(self._theta, x)
        if y * s <= 0.0:
            self._f = 1.0 - y * self.eta * s  # +inf where η·|s| exceeds the floats
            if not x.any():  # v = 0: w stays (the round still counts in f_t)
                return False
            if y > 0:
                self._theta += x
            else:
                self._theta -= x
            return True
        self._f = 0.0
        return False

    def extras(self) -> dict[str, float]:
        """The round's surrogate loss f_t(w_t)."""
        return {"surrogate": self._f}

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w: the quantities of the Perceptron's proof, scaled by η."""
        w = self.weights
        return {"norm2": float(np.vdot(w, w)), "w": w}  # +inf beyond the floats

    def mistake_bound(self, transcript) -> Bound | None:
        """§21.4's bound on updates, or the regret bound, from the adversary's halfspace.

        The certificate's weights give the direction u of the comparator
        w* = c·u; see :func:`game.theory.bounds.perceptron_hinge` and
        :func:`game.theory.bounds.ogd_regret` for the scaling c. Both theorems
        hold for every w*, separating or not; their hypotheses as checked on the
        game are "norms finite" (Theorem 21.16's R) and "weights finite" (the
        floating point θ is the algorithm's). None without a halfspace
        certificate or rounds.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries import Replay
        >>> X = np.array([[1.0, 0.0], [-0.6, 0.8]]) * 1e200
        >>> replay = Replay(instances=X, labels=[1, -1], separator=[1, 0])
        >>> tr = play(OnlineGradientDescent(), replay, rounds=2)
        >>> tr.observed("updates"), tr.bound.applies
        (1, True)
        """
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        X, norms = instances_as_used(transcript)
        margins = halfspace_margins(X, transcript.labels, cert.weights, norms)
        # the rounds with y·(w·x) ≤ 0, where f_t is the hinge: f_t(w_t) ≥ 1 exactly there
        # (a zero instance among them leaves w as it is, so it is no update)
        updated = np.asarray(transcript.extras["surrogate"]) > 0
        weights = weights_finite(X, transcript.updated, norms)
        if self.theorem == "regret":
            with np.errstate(over="ignore"):
                gradients = float(np.sum(norms[updated] ** 2))
            return ogd_regret(self.eta, margins[updated], gradients).given(weights)
        return perceptron_hinge(margins[updated], float(norms.max()), margins=margins).given(
            weights
        )
