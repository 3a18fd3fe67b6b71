"""Building blocks for players' constructor parameters.

Players are attrs classes whose fields are the scenario parameters. These
helpers give every field the same shape of validation message (it names the
parameter and the value) and mark the fields a scenario may fill from a data
file beside it.

Examples
--------
>>> import attrs
>>> from game.players._params import positive
>>> @attrs.define
... class Toy:
...     margin: float = attrs.field(validator=positive)
>>> Toy(-1.0)
Traceback (most recent call last):
...
ValueError: margin must be > 0, got -1.0
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

__all__ = [
    "DATA_SUFFIXES",
    "data_field",
    "generator",
    "integer_at_least",
    "is_data_field",
    "one_of",
    "positive",
    "real_in",
    "rng_field",
]

#: File kinds a data field may name, by suffix.
DATA_SUFFIXES = (".npy", ".csv", ".jsonl")


def _name(attribute) -> str:
    """The parameter's name as a caller writes it (an attrs alias, else the field name)."""
    return getattr(attribute, "alias", None) or attribute.name


def _real(attribute, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{_name(attribute)} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{_name(attribute)} must be a number, got nan")
    return value


def positive(instance, attribute, value) -> None:
    """Validator: a finite number > 0."""
    v = _real(attribute, value)
    if not (0 < v < math.inf):
        raise ValueError(f"{_name(attribute)} must be > 0, got {value!r}")


def real_in(low: float, high: float, *, closed_low: bool = True, closed_high: bool = True):
    """Validator factory: a number in the interval from ``low`` to ``high``."""
    left, right = "[" if closed_low else "(", "]" if closed_high else ")"

    def check(instance, attribute, value) -> None:
        v = _real(attribute, value)
        ok_low = v >= low if closed_low else v > low
        ok_high = v <= high if closed_high else v < high
        if not (ok_low and ok_high):
            raise ValueError(
                f"{_name(attribute)} must be in {left}{low}, {high}{right}, got {value!r}"
            )

    return check


def integer_at_least(low: int, high: int | None = None):
    """Validator factory: an integer ≥ ``low`` (and ≤ ``high`` when given)."""

    def check(instance, attribute, value) -> None:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise TypeError(f"{_name(attribute)} must be an integer, got {value!r}")
        if value < low or (high is not None and value > high):
            span = f"≥ {low}" if high is None else f"between {low} and {high}"
            raise ValueError(f"{_name(attribute)} must be an integer {span}, got {value!r}")

    return check


def one_of(*choices: Any):
    """Validator factory: one of the given values."""

    def check(instance, attribute, value) -> None:
        if isinstance(value, bool) != isinstance(choices[0], bool) or value not in choices:
            shown = ", ".join(repr(c) for c in choices)
            raise ValueError(f"{_name(attribute)} must be one of {shown}, got {value!r}")

    return check


def generator(instance, attribute, value) -> None:
    """Validator: a ``numpy.random.Generator``."""
    if not isinstance(value, np.random.Generator):
        raise TypeError(f"{_name(attribute)} must be a numpy.random.Generator, got {value!r}")


def rng_field(doc: str = "the player's random generator") -> Any:
    """An ``rng`` field: a Generator, by default one seeded with 0 (reproducible)."""
    return attrs.field(
        factory=lambda: np.random.default_rng(0),
        validator=generator,
        metadata={"doc": doc, "rng": True},
        repr=False,
    )


def data_field(doc: str, **kwargs: Any) -> Any:
    """A field that a scenario may fill from a data file (``.npy``, ``.csv``, ``.jsonl``)."""
    metadata = {"doc": doc, "data": True}
    return attrs.field(metadata=metadata, **kwargs)


def is_data_field(field: attrs.Attribute) -> bool:
    """Whether a scenario may name a data file for this field."""
    return bool(field.metadata.get("data"))
