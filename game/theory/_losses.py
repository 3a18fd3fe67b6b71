"""The losses that grade a round, each with values in [0, 1].

A loss takes the learner's prediction ``p`` in [-1, 1] and the outcome ``y``
in {-1, +1}. All three work elementwise on numpy arrays, so a transcript
grades every round in one call.

- ``zero-one``: 1 when the predicted label sign(p) (with sign(0) = +1) differs from y.
- ``absolute``: ``|p - y| / 2``.
- ``squared``: (p - y)² / 4.

Examples
--------
>>> import numpy as np
>>> from game.theory import get_loss
>>> get_loss("absolute")(np.array([1.0, 0.0, -1.0]), np.array([1, 1, 1]))
array([0. , 0.5, 1. ])
>>> get_loss("zero-one")(0.0, -1)
1.0
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.errors import check_choice

__all__ = ["LOSSES", "absolute", "get_loss", "predicted_label", "squared", "zero_one"]


def predicted_label(p):
    """The predicted label sign(p), with sign(0) = +1, as int (or int8 array).

    Examples
    --------
    >>> predicted_label(0.0), predicted_label(-0.25)
    (1, -1)
    """
    if np.ndim(p) == 0:
        return 1 if p >= 0 else -1
    return np.where(np.asarray(p) >= 0, 1, -1).astype(np.int8)


def _scalar_or_array(value):
    return float(value) if np.ndim(value) == 0 else value


def zero_one(p, y):
    """1 when sign(p) differs from y, else 0 (sign(0) = +1)."""
    if p.__class__ is float and y.__class__ is int:  # one round: no arrays
        return 1.0 if (p >= 0) != (y > 0) else 0.0
    p = np.asarray(p, dtype=np.float64)
    return _scalar_or_array(((p >= 0) != (np.asarray(y) > 0)).astype(np.float64))


def absolute(p, y):
    """``|p - y| / 2``: equals the zero-one loss on deterministic predictions."""
    if p.__class__ is float and y.__class__ is int:  # one round: the same float64 arithmetic
        return abs(p - y) / 2.0
    return _scalar_or_array(np.abs(np.asarray(p, dtype=np.float64) - y) / 2.0)


def squared(p, y):
    """(p - y)² / 4."""
    if p.__class__ is float and y.__class__ is int:  # one round: the same float64 arithmetic
        d = p - y
        return d * d / 4.0
    d = np.asarray(p, dtype=np.float64) - y
    return _scalar_or_array(d * d / 4.0)


LOSSES: dict[str, Callable] = {"zero-one": zero_one, "absolute": absolute, "squared": squared}


def get_loss(name: str) -> Callable:
    """The loss registered under ``name``; a :class:`~game.errors.ParameterError` lists the choices.

    Examples
    --------
    >>> get_loss("squared")(0.0, 1)
    0.25
    >>> get_loss("hinge")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: loss must be one of 'zero-one', 'absolute', 'squared', got 'hinge'
    """
    return LOSSES[check_choice("loss", name, LOSSES)]
