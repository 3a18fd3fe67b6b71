"""The transcript digest: SHA-256 over a canonical, machine-independent form of the rounds.

The canonical form is a sequence of columns, each written as its name, its
shape and its values as little-endian 64-bit integers:

- instances, then predictions, labels, updated, then the players' extras in
  sorted key order;
- integers and booleans as themselves;
- a float as the pair (round(m·2²⁴), e) of its binary mantissa m ∈ [0.5, 1) and
  exponent e (``numpy.frexp``), plus a code for NaN and ±inf: single precision,
  about 7 significant digits. Vectorised ``exp`` and BLAS kernels differ between
  processors in the last bit of a double; at single precision such a difference
  changes the canonical form with probability about 2⁻²⁹ per value, so the same
  scenario and seed give the same digest on every machine. Numbers a few
  last bits apart share a digest unless one sits on a rounding boundary;
  a relative change of 10⁻⁶ or more always changes it. Exact columns
  (labels, updates, ±1 predictions) are compared exactly.

Examples
--------
>>> import numpy as np
>>> from game.transcript import digest_columns
>>> a = digest_columns([("predictions", np.array([1.0, -1.0]))])
>>> b = digest_columns([("predictions", np.array([1.0, -1.0 + 1e-12]))])
>>> a == b, a.startswith("sha256:")
(True, True)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable

import numpy as np

__all__ = ["canonical", "digest_columns"]

_BITS = 24
_SCALE = float(2**_BITS)


def canonical(values) -> np.ndarray:
    """The canonical int64 form of an array (floats become mantissa, exponent, code)."""
    array = np.asarray(values)
    if array.dtype.kind in "biu":
        return array.astype("<i8")
    if array.dtype.kind != "f":
        raise TypeError(f"cannot digest values of dtype {array.dtype}")
    array = array.astype(np.float64)
    finite = np.isfinite(array)
    mantissa, exponent = np.frexp(np.where(finite, array, 0.0))
    quantised = np.round(mantissa * _SCALE).astype("<i8")
    exponent = exponent.astype("<i8")
    carry = np.abs(quantised) == (1 << _BITS)
    quantised = np.where(carry, quantised // 2, quantised)
    exponent = np.where(carry, exponent + 1, exponent)
    code = np.select([np.isnan(array), array == np.inf, array == -np.inf], [1, 2, 3], 0)
    return np.stack([quantised, exponent, code.astype("<i8")], axis=-1)


def digest_columns(columns: Iterable[tuple[str, object]]) -> str:
    """``sha256:`` + hex digest of named columns in their canonical form.

    A column is an array (rounds along axis 0) or a list of per-round arrays of
    differing shapes, each digested with its own shape.
    """
    h = hashlib.sha256(b"online-learning-games/rounds/1\n")
    for name, column in columns:
        h.update(name.encode() + b"\n")
        parts = column if isinstance(column, list) else [column]
        for part in parts:
            _write(h, np.asarray(part))
    return "sha256:" + h.hexdigest()


#: Values put in canonical form at a time: a long game's columns are digested
#: piece by piece (the bytes hashed are the same), never as one int64 copy.
_PIECE = 1 << 20


def _write(h, array: np.ndarray) -> None:
    """Hash the canonical form's shape, then its bytes, a block of rounds at a time."""
    if array.ndim == 0:
        form = canonical(array)
        h.update(repr(form.shape).encode() + b"\n")
        h.update(form.tobytes())
        return
    empty = canonical(array[:0])  # checks the dtype; floats gain a last axis of 3
    h.update(repr(array.shape + empty.shape[array.ndim :]).encode() + b"\n")
    step = max(1, _PIECE // max(1, math.prod(array.shape[1:])))
    for start in range(0, array.shape[0], step):
        h.update(np.ascontiguousarray(canonical(array[start : start + step])).tobytes())
