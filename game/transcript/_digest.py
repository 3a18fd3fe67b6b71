"""The transcript digest: SHA-256 over a canonical, machine-independent form of the game.

The digest (:func:`digest_game`) covers everything that defines the game and
its record, and nothing that depends on where or when it ran:

- the header's game-defining entries (:data:`GAME_FIELDS`: the players and
  their parameters, rounds, loss, seed, and the scenario's spec without its
  ``expect`` table and description); never the package versions, the
  scenario's path or the timings;
- every round (:func:`digest_columns`): instances, predictions, labels,
  updates and the players' extras. The learner's snapshots are an
  observation of the game, not the game: one game has one digest whether or
  not it was watched;
- the certificate handed over, the status (complete or aborted), and each
  bound's value, quantity, kind and whether it applies.

Totals and the certificate's verification are not digested: a reader
recomputes them from the rounds. JSON values are digested in a canonical text
(:func:`canonical_text`: sorted keys, every float by its canonical form).

The rounds' canonical form is a sequence of columns, each written as its
name, its shape and its values as little-endian 64-bit integers:

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
import json
import math
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "GAME_FIELDS",
    "canonical",
    "canonical_text",
    "digest_columns",
    "digest_game",
    "game_fields",
]

#: The header entries that define a game, digested in this order.
GAME_FIELDS = ("learner", "adversary", "rounds", "loss", "seed", "scenario")
#: Entries of a scenario's spec that do not define its game (the recorded
#: expectations, the digest among them, and the prose).
_NOT_THE_GAME = ("expect", "description", "snapshots")

_BITS = 24
_SCALE = float(2**_BITS)
# a double's bits: sign, 11 exponent bits, 52 fraction bits; the canonical mantissa keeps
# 24 bits of the significand (its leading one and 23 more) and drops the other 29
_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)
_LEADING = np.int64(1 << 52)
_DROPPED = 53 - _BITS
_HALF = np.int64(1 << (_DROPPED - 1))
_KEPT_FRACTION = np.int64((1 << (_BITS - 1)) - 1)
_KEPT_LEADING = np.int64(1 << (_BITS - 1))


def canonical(values) -> np.ndarray:
    """The canonical int64 form of an array (floats become mantissa, exponent, code).

    A float x becomes (round(m·2²⁴), e, code) with x = m·2ᵉ, m ∈ [0.5, 1)
    (``numpy.frexp``), the mantissa rounded half to even, and code 0, or 1
    for NaN, 2 for +inf, 3 for −inf (whose mantissa and exponent are 0). It is
    read off the double's bits in a few integer passes (about 8× ``frexp``
    and ``round``); the rare subnormal values go through ``frexp`` itself.

    Examples
    --------
    >>> canonical(np.array([0.75, -1.0, 2.0**-1074, np.inf])).tolist()
    [[12582912, 0, 0], [-8388608, 1, 0], [8388608, -1073, 0], [0, 0, 2]]
    """
    array = np.asarray(values)
    if array.dtype.kind in "biu":
        return array.astype("<i8")
    if array.dtype.kind != "f":
        raise TypeError(f"cannot digest values of dtype {array.dtype}")
    array = np.asarray(array, dtype=np.float64)
    if array.ndim == 0:
        return canonical(array.reshape(1))[0]
    if not array.flags.c_contiguous:
        array = array.copy()
    out = np.empty((*array.shape, 3), dtype="<i8")
    bits = array.view(np.int64)
    magnitude = bits & _MAGNITUDE
    # rounded half to even at the mantissa's last kept bit; a carry runs into the exponent field
    kept = magnitude >> _DROPPED
    kept &= 1
    kept += magnitude
    kept += _HALF - 1
    kept >>= _DROPPED  # the exponent field, then the 23 fraction bits kept
    exponent = kept >> (_BITS - 1)
    exponent -= 1022
    kept &= _KEPT_FRACTION
    kept |= _KEPT_LEADING
    np.negative(kept, out=kept, where=bits < 0)
    out[..., 0] = kept
    out[..., 1] = exponent
    out[..., 2] = 0
    # zero and subnormals (exponent field 0), infinities and NaN (2047)
    special = (magnitude - _LEADING).view(np.uint64) >= np.uint64(2046 << 52)
    if special.any():
        _special(array[special], out, special)
    return out


def _special(values: np.ndarray, out: np.ndarray, where: np.ndarray) -> None:
    """Zeros, subnormals, infinities and NaN in canonical form, through ``frexp`` itself."""
    finite = np.isfinite(values)
    mantissa, exponent = np.frexp(np.where(finite, values, 0.0))
    quantised = np.round(mantissa * _SCALE).astype("<i8")
    exponent = exponent.astype("<i8")
    carry = np.abs(quantised) == (1 << _BITS)
    quantised = np.where(carry, quantised // 2, quantised)
    exponent = np.where(carry, exponent + 1, exponent)
    code = np.select([np.isnan(values), values == np.inf, values == -np.inf], [1, 2, 3], 0)
    out[where] = np.stack([quantised, exponent, code.astype("<i8")], axis=-1)


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
_PIECE = 1 << 17  # 1 MB of doubles: the passes of canonical() stay in the cache


def _write(h, array: np.ndarray) -> None:
    """Hash the canonical form's shape, then its bytes, a block of rounds at a time."""
    if array.ndim == 0:
        form = canonical(array)
        h.update(repr(form.shape).encode() + b"\n")
        h.update(form)
        return
    empty = canonical(array[:0])  # checks the dtype; floats gain a last axis of 3
    h.update(repr(array.shape + empty.shape[array.ndim :]).encode() + b"\n")
    step = max(1, _PIECE // max(1, math.prod(array.shape[1:])))
    for start in range(0, array.shape[0], step):
        h.update(canonical(array[start : start + step]))  # contiguous: hashed in place


def canonical_text(value: Any) -> bytes:
    """The canonical JSON text of a JSON-ready value: sorted keys, floats as their canonical form.

    A float becomes the list of its canonical integers (mantissa, exponent,
    code; see :func:`canonical`), so values a few last bits apart share a text
    as rounds do.

    Examples
    --------
    >>> canonical_text({"b": 1, "a": [0.5, "x"]})
    b'{"a":[[8388608,0,0],"x"],"b":1}'
    """
    return json.dumps(
        _quantised(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def _quantised(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _quantised(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_quantised(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return canonical(np.float64(value)).tolist()
    return value


def game_fields(header: dict) -> dict:
    """The header's game-defining entries (:data:`GAME_FIELDS`), the spec without its expectations.

    Examples
    --------
    >>> game_fields({"rounds": 5, "versions": {"numpy": "2"},
    ...              "scenario": {"path": "a.toml", "spec": {"seed": 1, "expect": {}}}})
    {'rounds': 5, 'scenario': {'seed': 1}}
    """
    out = {k: header[k] for k in GAME_FIELDS if k in header and k != "scenario"}
    scenario = header.get("scenario")
    if isinstance(scenario, dict) and isinstance(scenario.get("spec"), dict):
        spec = scenario["spec"]
        out["scenario"] = {k: v for k, v in spec.items() if k not in _NOT_THE_GAME}
    return out


def digest_game(
    rounds: str,
    header: dict,
    *,
    certificate: dict | None,
    status: str,
    bounds: Iterable[dict | None],
) -> str:
    """``sha256:`` + hex digest of a game: its header, rounds, certificate, status and bounds.

    Parameters
    ----------
    rounds : str
        :func:`digest_columns` of the rounds.
    header : dict
        The transcript's header (only :func:`game_fields` of it is digested).
    certificate : dict or None
        The certificate's ``to_dict()`` (its readable description left out).
    status : str
        ``"complete"``, ``"aborted"`` or ``"incomplete"``.
    bounds : iterable of dict or None
        Each bound's ``to_dict()``; its value, quantity, kind and whether it
        applies are digested (not its wording).

    Examples
    --------
    >>> a = digest_game("sha256:00", {"rounds": 3}, certificate=None, status="complete",
    ...                 bounds=[None, None])
    >>> b = digest_game("sha256:00", {"rounds": 3}, certificate=None, status="aborted",
    ...                 bounds=[None, None])
    >>> a != b
    True
    """
    h = hashlib.sha256(b"online-learning-games/game/2\n")
    h.update(rounds.encode() + b"\n")
    h.update(canonical_text(game_fields(header)) + b"\n")
    if certificate is not None:
        certificate = {k: v for k, v in certificate.items() if k != "description"}
    h.update(canonical_text(certificate) + b"\n")
    h.update(status.encode() + b"\n")
    for bound in bounds:
        if bound is not None:
            hypotheses = bound.get("hypotheses", ())
            bound = {
                "value": bound["value"],
                "quantity": bound["quantity"],
                "kind": bound["kind"],
                "applies": all(h["holds"] for h in hypotheses),
            }
        h.update(canonical_text(bound) + b"\n")
    return "sha256:" + h.hexdigest()
