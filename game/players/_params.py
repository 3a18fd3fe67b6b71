"""Building blocks for players' constructor parameters.

Players are attrs classes whose fields are the scenario parameters. The
validators here are thin adapters over the checks of :mod:`game.errors`, so
every field is refused with the same :class:`~game.errors.ParameterError`
(its message names the parameter, as a caller writes it, and the value); a
numpy scalar or a ``Fraction`` that passes is stored as the Python number it
equals (a real number as a ``float``, an integer as an ``int``).

A field the scenario fills is *declared* so in its metadata, never guessed
from its name:

- :func:`rng_field` — the player's generator, which a scenario derives from its seed;
- :func:`loss_field` — the game's loss, which a scenario passes from its ``loss``;
- :func:`concept_class_field` — a finite class, which a scenario shares from its
  ``[concept_class]`` table (or reads from the player's table when it has none).

:func:`supplied` says which of these a field is (None for every other field,
which a scenario's player table sets). :func:`data_field` marks a field that a
scenario may fill from a data file beside it.

Examples
--------
>>> import attrs
>>> from game.players import loss_field, positive, supplied
>>> @attrs.define
... class Toy:
...     margin: float = attrs.field(validator=positive)
...     loss: str = loss_field("the loss the toy learns from")
>>> Toy(-1.0)
Traceback (most recent call last):
...
game.errors.ParameterError: margin must be a number > 0, got -1.0
>>> [supplied(f) for f in attrs.fields(Toy)]
[None, 'loss']
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from game.errors import (
    check_choice,
    check_generator,
    check_integer,
    check_positive,
    check_real,
)
from game.theory import LOSSES
from game.theory.concepts import as_finite_class

__all__ = [
    "DATA_SUFFIXES",
    "SUPPLIED",
    "concept_class_field",
    "data_field",
    "generator",
    "integer_at_least",
    "is_data_field",
    "loss_field",
    "one_of",
    "positive",
    "real_in",
    "rng_field",
    "supplied",
]

#: File kinds a data field may name, by suffix.
DATA_SUFFIXES = (".npy", ".csv", ".jsonl")

#: What a scenario supplies to a declared field: its generator, its loss, its finite class.
SUPPLIED = ("rng", "loss", "concept_class")


def _name(attribute) -> str:
    """The parameter's name as a caller writes it (an attrs alias, else the field name)."""
    return getattr(attribute, "alias", None) or attribute.name


#: Types a field keeps as given: the Python numbers, bools and strings themselves.
_PLAIN = (int, float, bool, str)


def _keep(instance, attribute, value, normalised) -> None:
    """Store a value of another type as the Python value it equals.

    A numpy scalar becomes the ``int`` or ``float`` it equals (so no int8
    arithmetic overflows), a ``Fraction`` the ``float``; a Python ``int``,
    ``float``, ``bool`` or ``str`` is stored as given.
    """
    if instance is not None and type(value) not in _PLAIN:
        object.__setattr__(instance, attribute.name, normalised)


def positive(instance, attribute, value) -> None:
    """Validator: a finite number > 0 (:func:`game.errors.check_positive`)."""
    _keep(instance, attribute, value, check_positive(_name(attribute), value))


def real_in(low: float, high: float, *, closed_low: bool = True, closed_high: bool = True):
    """Validator factory: a number from ``low`` to ``high`` (:func:`game.errors.check_real`)."""

    def check(instance, attribute, value) -> None:
        number = check_real(
            _name(attribute),
            value,
            low=low,
            high=high,
            closed_low=closed_low,
            closed_high=closed_high,
        )
        _keep(instance, attribute, value, number)

    return check


def integer_at_least(low: int, high: int | None = None):
    """Validator factory: an integer ≥ ``low`` (and ≤ ``high`` when given).

    Any ``numbers.Integral`` passes (numpy integers too, stored as the ``int``
    they equal), a bool never (:func:`game.errors.check_integer`).
    """

    def check(instance, attribute, value) -> None:
        number = check_integer(_name(attribute), value, low=low, high=high)
        _keep(instance, attribute, value, number)

    return check


def one_of(*choices: Any):
    """Validator factory: one of the given values (:func:`game.errors.check_choice`)."""

    def check(instance, attribute, value) -> None:
        _keep(instance, attribute, value, check_choice(_name(attribute), value, choices))

    return check


def generator(instance, attribute, value) -> None:
    """Validator: a ``numpy.random.Generator`` (:func:`game.errors.check_generator`)."""
    check_generator(_name(attribute), value)


def rng_field(doc: str = "the player's random generator") -> Any:
    """A field the scenario fills with the player's generator (from its seed).

    By default a Generator seeded with 0, so a player built in Python is
    reproducible too.
    """
    return attrs.field(
        factory=lambda: np.random.default_rng(0),
        validator=generator,
        metadata={"doc": doc, "supplied": "rng"},
        repr=False,
    )


def loss_field(
    doc: str = "the loss the player learns from (a scenario passes its own)",
    default: str = "zero-one",
) -> Any:
    """A field the scenario fills with the game's loss: one of ``game.theory.LOSSES``.

    Parameters
    ----------
    doc : str
        What the loss is for, shown by ``python -m game list``.
    default : str, default "zero-one"
        The loss when the player is built in Python without one.
    """
    return attrs.field(
        default=default,
        validator=one_of(*LOSSES),
        metadata={"doc": doc, "supplied": "loss"},
    )


def _finite_class(required: bool) -> attrs.Converter:
    def convert(value: Any, field: attrs.Attribute) -> Any:
        if value is None and not required:
            return None
        return as_finite_class(value, _name(field))

    return attrs.Converter(convert, takes_field=True)


def concept_class_field(doc: str, *, required: bool = True) -> Any:
    """A field the scenario fills with the shared finite class of its ``[concept_class]``.

    The value is made a :class:`~game.theory.concepts.FiniteClass` by
    :func:`~game.theory.concepts.as_finite_class` (a class as it is; an object
    with ``.matrix`` or a ±1 matrix as a new one). Without a ``[concept_class]``
    table a scenario's player table may give it (a data file or a matrix).

    Parameters
    ----------
    doc : str
        What the class is to the player.
    required : bool, default True
        Without it, the field defaults to None (no class).
    """
    metadata = {"doc": doc, "supplied": "concept_class", "data": True}
    if required:
        return attrs.field(converter=_finite_class(True), metadata=metadata)
    return attrs.field(default=None, converter=_finite_class(False), metadata=metadata)


def supplied(field: attrs.Attribute) -> str | None:
    """What a scenario supplies to this field (one of :data:`SUPPLIED`), or None."""
    return field.metadata.get("supplied")


def data_field(doc: str, **kwargs: Any) -> Any:
    """A field that a scenario may fill from a data file (``.npy``, ``.csv``, ``.jsonl``)."""
    metadata = {"doc": doc, "data": True}
    return attrs.field(metadata=metadata, **kwargs)


def is_data_field(field: attrs.Attribute) -> bool:
    """Whether a scenario may name a data file for this field."""
    return bool(field.metadata.get("data"))
