"""Norms, scores and ratios that give the right finite answer, or +inf, for any finite input.

The bounds of the Perceptron family name R = max ‖x_t‖, the margins
y_t·(u·x_t) of a unit vector u and ratios such as (R/γ)². Computed plainly,
instances of size 1e200 overflow x·x to inf and instances of size 1e-170
underflow it to 0; here every row is scaled by its largest entry first, so the
answer is exact to rounding whenever it is representable, and ±inf only when
it is not.

Examples
--------
>>> import numpy as np
>>> from game.theory import row_norms, scores, squared_ratio
>>> X = np.array([[3e200, 4e200], [3e-170, 4e-170], [0.0, 0.0]])
>>> row_norms(X).tolist()
[5e+200, 5e-170, 0.0]
>>> scores(X, np.array([1.0, 0.0])).tolist()
[3e+200, 3e-170, 0.0]
>>> squared_ratio(1.0, 1e-160)
inf
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["row_norms", "scores", "squared_ratio", "unit_vector", "vector_norm"]

#: Inside [_SMALL, _LARGE] a plain dot product of unit-scale rows neither
#: overflows nor loses its leading digits to underflow.
_LARGE = 1e150
_SMALL = 1e-150


def _scales(X: np.ndarray) -> np.ndarray:
    """Each row's largest absolute entry (0 for a zero row)."""
    if X.shape[-1] == 0:
        return np.zeros(X.shape[:-1])
    return np.max(np.abs(X), axis=-1)


def _plain(s: np.ndarray) -> bool:
    """Whether rows of these scales can be multiplied without scaling."""
    nonzero = s[s > 0]
    return not nonzero.size or (nonzero.max() <= _LARGE and nonzero.min() >= _SMALL)


def row_norms(X) -> np.ndarray:
    """The Euclidean norm of each row of ``X`` (a vector gives a 0-d array).

    Parameters
    ----------
    X : array_like
        Finite real numbers, rows along the last axis.

    Examples
    --------
    >>> row_norms([[1e-200, 0.0], [3.0, 4.0]]).tolist()
    [1e-200, 5.0]
    """
    X = np.asarray(X, dtype=np.float64)
    s = _scales(X)
    if _plain(s):
        return np.sqrt(np.einsum("...i,...i->...", X, X))
    safe = np.where(s > 0, s, 1.0)
    Y = X / safe[..., None]
    with np.errstate(over="ignore"):
        return s * np.sqrt(np.einsum("...i,...i->...", Y, Y))


def vector_norm(x) -> float:
    """The Euclidean norm of one vector, as a float.

    Examples
    --------
    >>> vector_norm([3e300, 4e300])
    5e+300
    """
    return float(row_norms(np.asarray(x, dtype=np.float64).ravel()))


def unit_vector(w) -> np.ndarray:
    """w/‖w‖ for a finite non-zero w, without overflow or underflow.

    Examples
    --------
    >>> unit_vector([0.0, 1e-300]).tolist()
    [0.0, 1.0]
    """
    w = np.asarray(w, dtype=np.float64).ravel()
    s = float(np.max(np.abs(w))) if w.size else 0.0
    if s == 0.0:
        raise ValueError("the zero vector has no direction")
    v = w / s
    return v / math.sqrt(float(v @ v))


def scores(X, w) -> np.ndarray:
    """x·w for each row x of ``X``: the exact product rounded, or ±inf where it overflows.

    Rows are scaled by their largest entry and w by its own, so neither a huge
    nor a tiny row loses its sign or its leading digits.

    Examples
    --------
    >>> scores([[1e300, 1e300]], [1e10, -1e10]).tolist()
    [0.0]
    >>> scores([[1e300, 0.0]], [1e10, 0.0]).tolist()
    [inf]
    """
    X = np.asarray(X, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64).ravel()
    s = _scales(X)
    sw = float(np.max(np.abs(w))) if w.size else 0.0
    if sw == 0.0:
        return np.zeros(X.shape[:-1])
    if _plain(s) and _SMALL <= sw <= _LARGE:
        return X @ w
    safe = np.where(s > 0, s, 1.0)
    with np.errstate(over="ignore"):
        return ((X / safe[..., None]) @ (w / sw)) * safe * sw


def squared_ratio(numerator: float, denominator: float) -> float:
    """(a/b)² for a ≥ 0 and b > 0, +inf where it overflows (never an exception).

    Examples
    --------
    >>> squared_ratio(2.0, 0.5), squared_ratio(1e200, 1e-200)
    (16.0, inf)
    """
    with np.errstate(over="ignore"):
        ratio = float(np.float64(numerator) / np.float64(denominator))
    return ratio * ratio if ratio < 1e154 else math.inf
