"""Expected mistakes of a learner that randomises, exactly, from its declared probabilities."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from game.errors import ParameterError

__all__ = ["expected_mistakes"]


def expected_mistakes(predictions, labels) -> Fraction:
    """Σₜ (1 − yₜpₜ)/2: the expected mistakes of a learner that predicts +1 w.p. (1 + pₜ)/2.

    A learner that randomises shows its mixture pₜ ∈ [−1, 1]; it errs on round t
    with probability (1 − yₜpₜ)/2 (for a deterministic learner, pₜ = ±1, this is
    its mistake). The sum is exact: every float is a rational number, and the
    rounds are added as fractions.

    Parameters
    ----------
    predictions : array_like
        The declared predictions pₜ, finite numbers in [−1, 1].
    labels : array_like
        The labels yₜ, −1 or +1, as many as the predictions.

    Returns
    -------
    fractions.Fraction

    Examples
    --------
    >>> expected_mistakes([0.5, -1.0, 0.0], [-1, -1, 1])
    Fraction(5, 4)
    >>> expected_mistakes([1.5], [1])
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: predictions must be finite numbers in [-1, 1], got [1.5]
    """
    p = np.asarray(predictions, dtype=np.float64).reshape(-1)
    y = np.asarray(labels).reshape(-1)
    if not (np.isfinite(p).all() and (np.abs(p) <= 1).all()):
        raise ParameterError("predictions", predictions, "finite numbers in [-1, 1]")
    if y.shape != p.shape or not np.isin(y, (-1, 1)).all():
        raise ParameterError(
            "labels", labels, f"{p.size} labels, each -1 or +1 (one per prediction)"
        )
    agreement = sum(map(Fraction, (y * p).tolist()), Fraction(0))  # y·p is exact: a sign change
    return (p.size - agreement) / 2
