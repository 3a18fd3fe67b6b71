"""The :class:`Bound` value every theorem returns."""

from __future__ import annotations

import math
from typing import Any

import attrs

from game.errors import check_choice, check_instance, check_real

__all__ = ["Bound"]

_KINDS = ("upper", "lower")


def _number(value) -> float:
    return check_real("value", value, finite=False)


def _string(instance, attribute, value) -> None:
    check_instance(attribute.alias, value, str, "a string")


def _kind(instance, attribute, value) -> None:
    check_choice(attribute.alias, value, _KINDS)


@attrs.frozen
class Bound:
    """A theorem's guarantee, evaluated on the quantities it names.

    Parameters
    ----------
    value : float
        The number the theorem guarantees (may be ``inf`` when a hypothesis fails).
    theorem : str
        The statement, in one line, with the quantities filled in.
    source : str
        Where the theorem is stated: seed text, lecture and theorem number.
    quantity : str, default "mistakes"
        What the bound is about: ``"mistakes"``, ``"updates"``, ``"loss"``, or the
        name of a per-round record a player logs (summed over the rounds).
    kind : {"upper", "lower"}, default "upper"
        An upper bound must not be exceeded; a lower bound is what an adversary forces.

    Examples
    --------
    >>> b = Bound(4.0, "mistakes ≤ (R/γ)²", "CS229 notes, Block–Novikoff")
    >>> b.holds(3), b.holds(5)
    (True, False)
    >>> Bound.from_dict(b.to_dict()) == b
    True
    """

    value: float = attrs.field(converter=lambda v: _number(v))
    theorem: str = attrs.field(validator=_string)
    source: str = attrs.field(validator=_string)
    quantity: str = attrs.field(default="mistakes", validator=_string)
    kind: str = attrs.field(default="upper", validator=_kind)

    def holds(self, observed: float) -> bool:
        """Whether ``observed`` respects the bound (a relative slack of 1e-9 for rounding)."""
        slack = 1e-9 * max(1.0, abs(self.value)) if math.isfinite(self.value) else 0.0
        if self.kind == "upper":
            return observed <= self.value + slack
        return observed >= self.value - slack

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``inf`` is written as the string ``"inf"``)."""
        value = self.value if math.isfinite(self.value) else ("inf" if self.value > 0 else "-inf")
        return {
            "value": value,
            "theorem": self.theorem,
            "source": self.source,
            "quantity": self.quantity,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Bound:
        """Inverse of :meth:`to_dict`."""
        return cls(
            value=float(data["value"]),
            theorem=data["theorem"],
            source=data["source"],
            quantity=data.get("quantity", "mistakes"),
            kind=data.get("kind", "upper"),
        )

    def __str__(self) -> str:
        sign = "≤" if self.kind == "upper" else "≥"
        return f"{self.quantity} {sign} {self.value:g}  ({self.theorem}; {self.source})"
