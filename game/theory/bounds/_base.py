"""The :class:`Bound` value every theorem returns."""

from __future__ import annotations

import math
import numbers
from typing import Any

import attrs
import numpy as np

from game.errors import ParameterError, check_choice, check_instance, check_real

__all__ = ["Bound", "Hypothesis", "real_vector"]

_KINDS = ("upper", "lower")


def _number(value) -> float:
    return check_real("value", value, finite=False)


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def real_vector(parameter: str, value: Any) -> np.ndarray:
    """The finite real numbers of ``value`` (a sequence or an array), flattened, as float64.

    A theorem's per-round quantities (margins, losses, potentials) pass through
    here: bools, text and NaN or infinite entries are refused, naming the
    caller's parameter.

    Examples
    --------
    >>> real_vector("margins", [1, 0.5]).tolist()
    [1.0, 0.5]
    >>> real_vector("margins", [0.5, float("nan")])
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: margins must be an array of finite numbers, got [0.5, nan]
    """
    expected = "an array of finite numbers"
    if value is None or isinstance(value, str | bytes):
        raise ParameterError(parameter, value, expected)
    try:
        array = np.asarray(value)
        if array.dtype.kind not in "iuf" and array.size:
            if array.dtype.kind != "O" or not all(map(_real, array.flat)):
                raise TypeError(array.dtype)
        array = array.astype(np.float64, copy=False).ravel()
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(parameter, value, expected) from None
    if not np.isfinite(array).all():
        raise ParameterError(parameter, value, expected)
    return array


def _string(instance, attribute, value) -> None:
    check_instance(attribute.alias, value, str, "a string")


def _kind(instance, attribute, value) -> None:
    check_choice(attribute.alias, value, _KINDS)


@attrs.frozen
class Hypothesis:
    """One hypothesis of a theorem, as checked on the game played.

    Parameters
    ----------
    name : str
        What the theorem assumes, in a few words: ``"realizable"``, ``"margin
        measured"``, ``"norms finite"``, ``"oblivious adversary"``, …
    holds : bool
        Whether the referee found it true on the game.
    detail : str, default ""
        What was measured, or why it fails (shown when it fails).

    Examples
    --------
    >>> h = Hypothesis("norms finite", False, "R = inf: an instance overflows")
    >>> str(h)
    'norms finite fails: R = inf: an instance overflows'
    """

    name: str = attrs.field(validator=_string)
    holds: bool = attrs.field(validator=attrs.validators.instance_of(bool))
    detail: str = attrs.field(default="", validator=_string)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"name": self.name, "holds": self.holds, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hypothesis:
        """Inverse of :meth:`to_dict`."""
        return cls(data["name"], data["holds"], data.get("detail", ""))

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "fails"
        return f"{self.name} {verdict}" + (f": {self.detail}" if self.detail else "")


def _hypotheses(value: Any) -> tuple[Hypothesis, ...]:
    items = tuple(value)
    for item in items:
        check_instance("hypotheses", item, Hypothesis, "a tuple of Hypothesis")
    return items


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
    hypotheses : tuple of Hypothesis, default ()
        The theorem's hypotheses as checked on the game. The bound *applies*
        only when every one holds; otherwise it is reported as not applicable,
        with the first failing hypothesis as the reason, never as holding.

    Examples
    --------
    >>> b = Bound(4.0, "mistakes ≤ (R/γ)²", "CS229 notes, Block–Novikoff")
    >>> b.holds(3), b.holds(5)
    (True, False)
    >>> Bound.from_dict(b.to_dict()) == b
    True
    >>> c = b.given(Hypothesis("realizable", False, "no perfect separator"))
    >>> c.applies, c.reason
    (False, 'realizable fails: no perfect separator')
    """

    value: float = attrs.field(converter=lambda v: _number(v))
    theorem: str = attrs.field(validator=_string)
    source: str = attrs.field(validator=_string)
    quantity: str = attrs.field(default="mistakes", validator=_string)
    kind: str = attrs.field(default="upper", validator=_kind)
    hypotheses: tuple[Hypothesis, ...] = attrs.field(default=(), converter=_hypotheses)

    @property
    def applies(self) -> bool:
        """Whether every hypothesis of the theorem held on the game."""
        return all(h.holds for h in self.hypotheses)

    @property
    def reason(self) -> str | None:
        """Why the bound does not apply: its first failing hypothesis (None when it applies)."""
        for h in self.hypotheses:
            if not h.holds:
                return str(h)
        return None

    def given(self, *hypotheses: Hypothesis) -> Bound:
        """This bound with more checked hypotheses appended."""
        return attrs.evolve(self, hypotheses=self.hypotheses + hypotheses)

    def verdict(self, observed: float) -> bool | None:
        """:meth:`holds` where the theorem applies, None where a hypothesis fails."""
        return self.holds(observed) if self.applies else None

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
            "hypotheses": [h.to_dict() for h in self.hypotheses],
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
            hypotheses=[Hypothesis.from_dict(h) for h in data.get("hypotheses", ())],
        )

    def __str__(self) -> str:
        sign = "≤" if self.kind == "upper" else "≥"
        text = f"{self.quantity} {sign} {self.value:g}  ({self.theorem}; {self.source})"
        return text if self.applies else f"{text}  not applicable: {self.reason}"
