"""Balcan's Margin Perceptron(γ) (seed 003, lecture 3, §1.1).

Examples are normalised to unit length; w₁ = y₁·x₁ for the first example seen;
the learner predicts positive when w·x/‖w‖ ≥ γ/2, negative when it is ≤ −γ/2,
and calls the example a *margin mistake* when w·x/‖w‖ lies strictly between.
On a prediction mistake or a margin mistake it updates as the Perceptron does:
w ← w + y·x. Theorem 2: on a sequence separated by a unit w* with margin γ it
updates at most 12/γ² times.

Floating point as in :mod:`learners.perceptron`: an instance is normalised by
:func:`~learners.perceptron.unit_length` (scaled where x·x over- or
underflows) and a score that is not finite or below ``SAFE_LOW`` is recomputed
by :func:`~learners.perceptron.scaled_score`, so any finite instance is on the
right side; γ enters only as γ/2 and in 12/γ², never as a divisor.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import integer_at_least, real_in
from game.theory import HalfspaceCertificate, vector_norm
from game.theory.bounds import Bound, margin_perceptron
from learners.perceptron import (
    SAFE_LOW,
    bound_with,
    halfspace_margins,
    instances_as_used,
    realizable,
    scaled_score,
    unit_length,
)

__all__ = ["MarginPerceptron"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class MarginPerceptron:
    """The Margin Perceptron(γ): updates on mistakes and on margin mistakes.

    The game asks for a label on every round, also inside the margin band; the
    learner then answers sign(w·x) with sign(0) = +1 and the round is a margin
    mistake whatever the label. Before the first update w = 0 and w·x/‖w‖ is
    taken as 0, so round 1 is a margin mistake and its update sets w₁ = y₁·x₁,
    the lecture's initialisation. A round updates when it is a prediction
    mistake or a margin mistake (or both); ``margin_mistake`` (1 or 0) is
    logged apart on every round, so prediction mistakes, margin mistakes and
    updates are three columns of the transcript.

    Parameters
    ----------
    gamma : float, default 0.1
        γ ∈ (0, 1]: the band is w·x/‖w‖ ∈ (−γ/2, γ/2).
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Examples
    --------
    >>> import numpy as np
    >>> mp = MarginPerceptron(gamma=0.5)
    >>> x = np.array([3.0, 4.0])
    >>> mp.predict(x), mp.update(x, -1), mp.extras()     # round 1 sets w₁ = y₁·x₁/‖x₁‖
    (1.0, True, {'margin_mistake': 1.0})
    >>> mp.weights.tolist()
    [-0.6, -0.8]
    >>> z = np.array([0.8, -0.6])                        # orthogonal to w: in the band
    >>> mp.predict(z), mp.update(z, 1), mp.extras()
    (1.0, True, {'margin_mistake': 1.0})
    """

    proof: ClassVar[str] = "margin-perceptron"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})

    gamma: float = attrs.field(
        default=0.1,
        validator=real_in(0.0, 1.0, closed_low=False),
        metadata={"doc": "margin γ in (0, 1]: updates when |w·x|/‖w‖ < γ/2 or on a mistake"},
    )
    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**26)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _norm: float = attrs.field(init=False, default=0.0, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _xn: Any = attrs.field(init=False, default=None, repr=False)
    _r: float = attrs.field(init=False, default=0.0, repr=False)
    _band: bool = attrs.field(init=False, default=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.dimension is not None:
            self._w = np.zeros(self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the current weight vector (empty before the first instance)."""
        return np.zeros(0) if self._w is None else self._w.copy()

    def _score(self, x) -> None:
        if self._w is None:
            self._w = np.zeros(np.shape(x)[0])
        xn = unit_length(x)
        if self._norm > 0:
            s = float(np.vdot(self._w, xn))
            if not SAFE_LOW <= abs(s) < math.inf:  # NaN, or maybe underflowed
                s = scaled_score(self._w, xn)
            r = s / self._norm
        else:
            r = 0.0
        self._x, self._xn, self._r = x, xn, r

    def predict(self, x) -> float:
        """+1 when w·x/‖w‖ ≥ γ/2, −1 when ≤ −γ/2, sign(w·x) (0 → +1) in the band."""
        self._score(x)
        return 1.0 if self._r >= 0.0 else -1.0

    def update(self, x, y: int) -> bool:
        """w += y·x/‖x‖ on a mistake or a margin mistake; returns whether it updated."""
        if x is not self._x:
            self._score(x)
        self._x = None  # the score is used once: a second update recomputes it
        r = self._r
        half = 0.5 * self.gamma
        self._band = -half < r < half
        wrong = (r >= 0.0) != (y > 0)
        if self._band or wrong:
            if not self._xn.any():  # a zero instance: w stays, no update
                return False
            if y > 0:
                self._w += self._xn
            else:
                self._w -= self._xn
            nn = float(np.vdot(self._w, self._w))
            self._norm = math.sqrt(nn) if SAFE_LOW <= nn < math.inf else vector_norm(self._w)
            return True
        return False

    def extras(self) -> dict[str, float]:
        """``margin_mistake``: 1.0 when the round's w·x/‖w‖ was in (−γ/2, γ/2)."""
        return {"margin_mistake": 1.0 if self._band else 0.0}

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w, the quantities of the proof of Theorem 2."""
        w = self.weights
        return {"norm2": float(np.vdot(w, w)), "w": w}  # +inf beyond the floats

    def mistake_bound(self, transcript) -> Bound | None:
        """Theorem 2's 12/γ² on updates, with its hypotheses as checked on the game.

        "realizable" (a halfspace certificate the referee verified), "margin
        measured" (the certificate's margin on the unit-length instances is
        > 0) and "margin ≥ γ" (it is at least the learner's γ); where one
        fails the bound is not applicable. None without a halfspace certificate
        or without a round.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries import Replay
        >>> X, y = np.array([[1e-170, 1e-171], [-1e-170, 0.0]]), [1, -1]
        >>> def game(gamma):
        ...     replay = Replay(instances=X, labels=y, separator=[1, 0])
        ...     return play(MarginPerceptron(gamma=gamma), replay, rounds=2)
        >>> game(1e-200).bound.value, game(1e-200).bound.applies   # 12/γ² beyond the floats
        (inf, True)
        >>> print(game(1.0).bound.reason)
        margin ≥ γ fails: the data's margin 0.995037 is below γ = 1
        """
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        X, norms = instances_as_used(transcript, normalize=True)
        data_margin = float(halfspace_margins(X, transcript.labels, cert.weights, norms).min())
        return bound_with(
            realizable(transcript, cert), margin_perceptron(self.gamma, margin=data_margin)
        )
