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

The rounds are hashed as a sequence of columns, each written as its name,
then each part (the column, or each per-round array of a column of differing
shapes) as its shape and its values:

- instances, then predictions, labels, updated, then the players' extras in
  sorted key order;
- integers and booleans as themselves, little-endian int64;
- floats by their canonical form (:func:`canonical`): the double rounded to
  single precision, 24 significant bits, half to even; ±0 are one, every NaN
  is one. Vectorised ``exp`` and BLAS kernels differ between processors in
  the last bit of a double; at single precision such a difference changes
  the canonical form with probability about 2⁻²⁹ per value, so the same
  scenario and seed give the same digest on every machine. Numbers a few
  last bits apart share a digest unless one sits on a rounding boundary; a
  relative change of 10⁻⁶ or more always changes it (for doubles of at
  least 2⁻¹⁰²², below which the form keeps the double's fixed step).
  Exact columns (labels, updates, ±1 predictions) are compared exactly.
- A float's form is hashed in 4 bytes, as the IEEE single it stands for,
  when that is 0 or a normal single (|x| in [2⁻¹²⁶, 2¹²⁸)), which is one to
  one; any other value (an infinity, a NaN, a number beyond single
  precision's exponents) as ``FF FF FF FF``, and after the part as the int64
  pair (flat index, canonical form), headed ``exceptions K``.

Producing the 4 bytes is a cast to single precision and a range check, in
numpy a cache-sized piece at a time, so the digest costs about 1.5× hashing
the singles alone (``benchmarks/end_of_game.py``). A compiled pass would save
part of that half but costs about 0.8 s to load, more than it saves below
some 10⁸ values; the digest has no compiled path.

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
import struct
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

#: Bits of a double's magnitude rounded away: 52 fraction bits less the 23 single precision keeps.
_DROPPED = np.uint64(29)
_MAGNITUDE = np.uint64(0x7FFF_FFFF_FFFF_FFFF)
_HALF_LESS_ONE = np.uint64((1 << 28) - 1)
#: The canonical forms of +inf, of every NaN, and of the largest finite double that rounds
#: without reaching infinity (finite numbers above it keep it).
INFINITY = 0x7FF0_0000_0000_0000 >> 29
NAN = INFINITY + 1
_LARGEST = INFINITY - 1


def canonical(values) -> np.ndarray:
    """The canonical int64 form of an array: one integer per value, floats at single precision.

    Integers and booleans are themselves. A float's double is rounded to 24
    significant bits: its magnitude's lowest 29 bits are rounded away half to
    even (a carry runs into the exponent), and the 35 bits left, read as an
    integer, are negated for a negative number. So ±0 are 0; +inf is
    ``INFINITY`` and −inf its negative; every NaN is ``NAN``; a finite
    number that would round to infinity keeps the largest finite form.

    Examples
    --------
    >>> form = canonical(np.array([0.75, -1.0, 1.0 + 2.0**-30, -0.0]))
    >>> form.tolist() == [(1022 << 23) | (1 << 22), -(1023 << 23), 1023 << 23, 0]
    True
    >>> canonical(np.array([np.inf, -np.inf, np.nan])).tolist() == [INFINITY, -INFINITY, NAN]
    True
    """
    array = np.asarray(values)
    if array.dtype.kind in "biu":
        return array.astype("<i8")
    if array.dtype.kind != "f":
        raise TypeError(f"cannot digest values of dtype {array.dtype}")
    if array.ndim == 0:
        return canonical(array.reshape(1))[0]
    array = np.ascontiguousarray(array, dtype=np.float64)
    out = np.empty(array.shape, dtype="<i8")
    bits = array.view(np.int64)
    magnitude = np.bitwise_and(bits.view(np.uint64), _MAGNITUDE, out=out.view(np.uint64))
    odd = magnitude >> _DROPPED  # rounded half to even at the last kept bit
    odd &= np.uint64(1)
    magnitude += odd
    magnitude += _HALF_LESS_ONE
    magnitude >>= _DROPPED
    if (magnitude >= INFINITY).any():  # infinities, NaN, and finite numbers that rounded up to inf
        _special(array, out)
    np.negative(out, out=out, where=bits < 0)
    return out


def _special(array: np.ndarray, magnitude: np.ndarray) -> None:
    """Infinities and NaN in canonical form, and the largest finite numbers kept finite."""
    magnitude[np.isfinite(array) & (magnitude >= INFINITY)] = _LARGEST
    magnitude[np.isinf(array)] = INFINITY
    nan = np.isnan(array)
    # every NaN is NAN: one whose sign bit is set is negated with the other negatives after
    magnitude[nan] = np.where(array.view(np.int64)[nan] < 0, -NAN, NAN)


def digest_columns(columns: Iterable[tuple[str, object]]) -> str:
    """``sha256:`` + hex digest of named columns in their canonical form.

    A column is an array (rounds along axis 0) or a list of per-round arrays of
    differing shapes, each digested with its own shape.
    """
    h = hashlib.sha256(b"online-learning-games/rounds/2\n")
    for name, column in columns:
        h.update(name.encode() + b"\n")
        parts = column if isinstance(column, list) else [column]
        for part in parts:
            _write(h, np.asarray(part))
    return "sha256:" + h.hexdigest()


#: Values hashed at a time: a long game's columns are digested piece by piece (the
#: bytes hashed are the same), each piece's passes in the cache, never one whole copy.
_PIECE = 1 << 15

#: Single precision's exponents, as the canonical form holds them (the double's, 1023-biased).
_SINGLE_LOW, _SINGLE_HIGH = 1023 - 126, 1023 + 127
_SINGLE_BIAS = np.int64((1023 - 127) << 23)
#: The 4 bytes that stand for a value outside single precision's normal numbers.
_ELSEWHERE = np.uint32(0xFFFF_FFFF)


def _write(h, array: np.ndarray) -> None:
    """Hash a part's shape, then its values: integers as int64, floats in 4 bytes and exceptions.

    A float whose canonical form is 0 or a normal single-precision number is
    hashed as that single's 4 bytes (its form and its single are one to one);
    any other (a NaN, an infinity, a number whose rounding leaves single
    precision's exponents) as ``FF FF FF FF``, and after the part its flat
    index and canonical form, as int64 pairs.
    """
    if array.ndim == 0:
        array = array.reshape(1)
        h.update(b"()\n")
    else:
        h.update(repr(array.shape).encode() + b"\n")
    kind = array.dtype.kind
    if kind not in "biuf":
        raise TypeError(f"cannot digest values of dtype {array.dtype}")
    flat = array.reshape(-1)
    if kind != "f":
        for start in range(0, len(flat), _PIECE):
            h.update(flat[start : start + _PIECE].astype("<i8"))
        return
    exceptions: list[np.ndarray] = []
    single = np.empty(min(len(flat), _PIECE), dtype=np.float32)
    bits = single.view(np.uint32)
    magnitude = np.empty_like(bits)
    for start in range(0, len(flat), _PIECE):
        piece = flat[start : start + _PIECE]
        n = len(piece)
        out, mag = bits[:n], magnitude[:n]
        with np.errstate(over="ignore", invalid="ignore"):  # found below as exceptions
            single[:n] = piece  # rounded half to even to 24 bits, as the canonical form is
        np.bitwise_and(out, np.uint32(0x7FFF_FFFF), out=mag)
        mag -= np.uint32(0x0080_0000)  # zeros, subnormals, infinities and NaN wrap to the top
        odd = mag >= np.uint32(0x7F00_0000)
        if odd.any():
            # singles ±0 (mostly doubles ±0) are the usual odd ones
            count = np.count_nonzero(mag == np.uint32(0xFF80_0000))
            if count == np.count_nonzero(odd) and count == np.count_nonzero(piece == 0):
                single[:n] += np.float32(0.0)  # −0 is 0; every other single is itself
            else:
                away = _outside(piece, out, mag, start)
                if len(away):
                    exceptions.append(away)
        h.update(out.astype("<u4", copy=False))
    if exceptions:
        pairs = np.concatenate(exceptions)
        h.update(f"exceptions {len(pairs)}\n".encode())  # (index, form) rows
        h.update(pairs.astype("<i8", copy=False))


def _outside(piece: np.ndarray, out: np.ndarray, mag: np.ndarray, start: int) -> np.ndarray:
    """Values whose single is not a normal number, set by their canonical form; the exceptions."""
    where = np.flatnonzero(mag >= np.uint32(0x7F00_0000))
    form = canonical(piece[where])
    exponent = np.abs(form) >> 23
    single = (exponent >= _SINGLE_LOW) & (exponent <= _SINGLE_HIGH)
    encoded = (np.abs(form) - _SINGLE_BIAS) | np.where(form < 0, np.int64(1) << 31, 0)
    out[where] = np.where(form == 0, 0, np.where(single, encoded, int(_ELSEWHERE)))
    away = (form != 0) & ~single
    return np.stack([where[away] + start, form[away]], axis=-1)


def canonical_text(value: Any) -> bytes:
    """The canonical JSON text of a JSON-ready value: sorted keys, floats as their canonical form.

    A float becomes a one-element list holding its canonical integer (see
    :func:`canonical`), so values a few last bits apart share a text as rounds
    do.

    Examples
    --------
    >>> canonical_text({"b": 1, "a": [0.5, "x"]}) == b'{"a":[[%d],"x"],"b":1}' % (1022 << 23)
    True
    """
    return json.dumps(
        _quantised(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def _quantised(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _quantised(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if len(value) > 8 and all(v.__class__ is float for v in value):  # a vector: at once
            return [[c] for c in canonical(np.array(value, dtype=np.float64)).tolist()]
        return [_quantised(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return [_canonical_float(value)]
    return value


def _canonical_float(x: float) -> int:
    """:func:`canonical` of one Python float, with Python integers (no array made)."""
    if x != x:
        return NAN
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    magnitude = bits & 0x7FFF_FFFF_FFFF_FFFF
    if magnitude == 0x7FF0_0000_0000_0000:
        kept = INFINITY
    else:
        kept = min((magnitude + (1 << 28) - 1 + ((magnitude >> 29) & 1)) >> 29, _LARGEST)
    return -kept if bits < 0 else kept


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
    h = hashlib.sha256(b"online-learning-games/game/3\n")
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
