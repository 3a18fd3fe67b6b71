"""Reading a person's moves from text, and writing recorded moves back as text.

Every ``parse_*`` returns the move or raises :class:`ValueError` with the
reason in one line (what was found, what was expected); every ``format_*``
writes a recorded move as the text its ``parse_*`` reads back to the same
value and dtype, so a recorded human game replays exactly.

Examples
--------
>>> parse_label("-"), parse_label("+1")
(-1, 1)
>>> parse_prediction("0.25", "absolute")
0.25
>>> parse_instance("0110", "bits", 4)
array([0, 1, 1, 0], dtype=uint8)
>>> x = parse_instance("+ - +", "advice", 3)
>>> x, format_instance(x, "advice")
(array([ 1, -1,  1], dtype=int8), '+ - +')
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

__all__ = [
    "END",
    "format_instance",
    "format_label",
    "format_prediction",
    "parse_instance",
    "parse_label",
    "parse_prediction",
]

#: What the adversary's instance prompt takes to end the game (besides an empty line).
END = ("q", "quit")

_SIGNS = {"+": 1, "+1": 1, "1": 1, "-": -1, "-1": -1, "−": -1, "−1": -1}
_SPLIT = re.compile(r"[\s,;]+")


def _shown(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:39] + "…")


def parse_label(text: str) -> int:
    """A label: ``+``, ``-``, ``+1``, ``-1`` or ``1``."""
    key = text.strip()
    if key not in _SIGNS:
        raise ValueError(f"a label is + or - (or +1, -1), got {_shown(text)}")
    return _SIGNS[key]


def parse_prediction(text: str, loss: str = "zero-one") -> float:
    """A prediction: a sign (``+``, ``-``, ``+1``, ``-1``, ``1``), or under a loss
    other than zero-one also a number in [-1, 1]."""
    key = text.strip()
    if key in _SIGNS:
        return float(_SIGNS[key])
    if loss == "zero-one":
        raise ValueError(f"a prediction is + or - (or +1, -1), got {_shown(text)}")
    try:
        p = float(key)
    except ValueError:
        raise ValueError(
            f"a prediction is + or - or a number in [-1, 1], got {_shown(text)}"
        ) from None
    if not -1.0 <= p <= 1.0:  # also refuses NaN
        raise ValueError(f"a prediction must lie in [-1, 1], got {_shown(text)}")
    return p


def _entries(text: str, size: int | None, what: str) -> list[str]:
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if size is not None and len(tokens) != size:
        raise ValueError(f"{what} has {size} entries, got {len(tokens)} in {_shown(text)}")
    if not tokens:
        raise ValueError(f"{what} needs at least one entry")
    return tokens


def parse_instance(text: str, kind: str, size: int | None = None, points: int | None = None):
    """An instance of ``kind``: a point's index, bits like ``0110``, a vector
    like ``0.5, -1``, or advice like ``+ - +`` (or numbers in [-1, 1]).

    ``size`` is the length of a vector, bit vector or advice; ``points`` the
    number of points of the finite class (a point is an index below it).
    """
    if kind == "point":
        try:
            x = int(text.strip())
        except ValueError:
            raise ValueError(f"a point is an index, got {_shown(text)}") from None
        if points is not None and not 0 <= x < points:
            raise ValueError(f"a point is an index from 0 to {points - 1}, got {x}")
        if x < 0:
            raise ValueError(f"a point is a non-negative index, got {x}")
        return x
    if kind == "bits":
        compact = "".join(_SPLIT.split(text.strip()))
        if not compact or set(compact) - {"0", "1"}:
            raise ValueError(f"a bit vector is written in 0s and 1s, like 0110, got {_shown(text)}")
        if size is not None and len(compact) != size:
            raise ValueError(f"a bit vector has {size} bits, got {len(compact)}")
        return np.array([c == "1" for c in compact], dtype=np.uint8)
    if kind == "vector":
        tokens = _entries(text, size, "a vector")
        try:
            values = [float(t) for t in tokens]
        except ValueError:
            raise ValueError(f"a vector is numbers like 0.5, -1, got {_shown(text)}") from None
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"a vector's entries are finite numbers, got {_shown(text)}")
        return np.array(values, dtype=np.float64)
    if kind == "advice":
        tokens = _entries(text, size, "the advice")
        if all(t in _SIGNS for t in tokens):
            return np.array([_SIGNS[t] for t in tokens], dtype=np.int8)
        try:
            values = [float(_SIGNS.get(t, t)) for t in tokens]
        except ValueError:
            raise ValueError(
                f"advice is + and - (or numbers in [-1, 1]), got {_shown(text)}"
            ) from None
        if not all(-1.0 <= v <= 1.0 for v in values):
            raise ValueError(f"advice lies in [-1, 1], got {_shown(text)}")
        return np.array(values, dtype=np.float64)
    raise ValueError(f"no instance of kind {kind!r}")


def format_label(y: int) -> str:
    """``+`` or ``-``."""
    return "+" if y > 0 else "-"


def format_prediction(p: float, loss: str = "zero-one") -> str:
    """``+``/``-`` for ±1 exactly, else the number's shortest exact text."""
    p = float(p)
    if p in (1.0, -1.0):
        return format_label(int(p))
    return repr(p)


def format_instance(x: Any, kind: str) -> str:
    """The text :func:`parse_instance` reads back to ``x`` (same values, same dtype)."""
    if kind == "point":
        return str(int(x))
    x = np.asarray(x)
    if kind == "bits":
        return "".join("1" if v else "0" for v in x)
    if kind == "advice" and x.dtype.kind in "iub":
        return " ".join("+" if v > 0 else "-" for v in x)
    return ", ".join(repr(float(v)) for v in x)
