"""The family of errors the referee raises, and the checks of a parameter's value.

Every error the framework raises on bad input or a misbehaving player is a
:class:`GameError`, so a caller can catch them all at once; the command line
prints such an error as one line and exits with status 2.

A refused parameter is a :class:`ParameterError` (a ``GameError`` and a
``ValueError``) that names the parameter as a caller writes it and the value.
Every constructor and builder checks its parameters with the functions below,
one vocabulary with one message shape, ``NAME must be EXPECTED, got VALUE``:

=======================  ================================================
:func:`check_integer`    a ``numbers.Integral`` (numpy integers too), not a bool
:func:`check_real`       a real number, finite, in a range (open or closed ends)
:func:`check_positive`   a finite real number > 0
:func:`check_choice`     one of the given values
:func:`check_generator`  a ``numpy.random.Generator``
:func:`check_instance`   an instance of the given type(s)
=======================  ================================================

Each returns the value normalised (``int``, ``float``, the choice itself), so a
caller writes ``n = check_integer("n", n, low=0)``. The scenario layer reads
the offending key from ``ParameterError.parameter``, never from the text.

Examples
--------
>>> from game.errors import ProtocolError, GameError
>>> issubclass(ProtocolError, GameError)
True
>>> import numpy as np
>>> check_integer("rounds", np.int64(5), low=0)
5
>>> check_integer("rounds", True, low=0)
Traceback (most recent call last):
...
game.errors.ParameterError: rounds must be an integer ≥ 0, got True
>>> check_real("beta", 1.0, low=0, high=1, closed_high=False)
Traceback (most recent call last):
...
game.errors.ParameterError: beta must be a number in [0, 1), got 1.0
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "CertificateError",
    "ExpectationError",
    "GameError",
    "ParameterError",
    "ProtocolError",
    "ReplayMismatch",
    "ScenarioError",
    "TranscriptError",
    "UnknownPlayerError",
    "check_choice",
    "check_generator",
    "check_instance",
    "check_integer",
    "check_positive",
    "check_real",
]


class GameError(Exception):
    """Root of every error the framework raises on purpose."""


class ScenarioError(GameError):
    """A scenario file is malformed: names the file, the key and what was expected."""


class ProtocolError(GameError):
    """A player broke the round protocol: names the player, the round and the value."""


class CertificateError(GameError):
    """An adversary's realizable certificate disagrees with a label it gave."""


class TranscriptError(GameError):
    """A transcript file is incomplete or corrupt: names the file and the line."""


class ExpectationError(GameError):
    """A scenario's ``[expect]`` table does not hold for the game just played."""


class ReplayMismatch(GameError):
    """A replayed game differs from its record: names the first differing round."""


class UnknownPlayerError(ScenarioError):
    """No player is registered under a name; suggests the closest names.

    Parameters
    ----------
    name : str
        The name that was looked up.
    known : iterable of str
        The registered names, searched for a close match.
    role : str, optional
        ``"learner"`` or ``"adversary"`` when the lookup wanted one role.
    """

    def __init__(self, name: str, known: Iterable[str], role: str | None = None):
        self.name = name
        self.known = sorted(known)
        self.suggestions = difflib.get_close_matches(name, self.known, n=3, cutoff=0.5)
        what = f"{role} " if role else "player "
        msg = f"unknown {what}{name!r}"
        if self.suggestions:
            msg += "; did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        else:
            msg += "; `python -m game list` shows the registered players"
        super().__init__(msg)


def _shown(value: Any) -> str:
    """A value as an error message shows it: its repr on one line, at most 80 characters."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, np.ndarray) and value.size > 16:
        return f"an array of shape {value.shape}"
    if isinstance(value, np.ndarray):
        value = value.tolist()
    text = repr(value)
    if text.startswith("<") and " at 0x" in text:  # an object without a repr of its own
        text = str(value) if str(value) != text else f"a {type(value).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"


class ParameterError(GameError, ValueError):
    """A parameter's value is refused: names the parameter and the value.

    Parameters
    ----------
    parameter : str
        The parameter as a caller writes it (an attrs alias, a keyword, a
        scenario key).
    value : object
        The value refused.
    expected : str
        What the value must be, a phrase read after "must be".
    note : str, optional
        Why, appended in parentheses.

    Attributes
    ----------
    parameter, value, expected, note
        As given; the scenario layer names its key from ``parameter``.

    Examples
    --------
    >>> error = ParameterError("margin", -1.0, "a number > 0")
    >>> str(error), error.parameter, error.value
    ('margin must be a number > 0, got -1.0', 'margin', -1.0)
    >>> isinstance(error, ValueError) and isinstance(error, GameError)
    True
    """

    def __init__(self, parameter: str, value: Any, expected: str, note: str = ""):
        self.parameter = parameter
        self.value = value
        self.expected = expected
        self.note = note
        message = f"{parameter} must be {expected}, got {_shown(value)}"
        super().__init__(f"{message} ({note})" if note else message)

    def __reduce__(self) -> tuple:
        return type(self), (self.parameter, self.value, self.expected, self.note)

    def renamed(self, parameter: str) -> ParameterError:
        """The same refusal under another parameter name (a caller's name for it).

        Examples
        --------
        >>> str(ParameterError("matrix", [[1, 0]], "a ±1 matrix").renamed("cls"))
        'cls must be a ±1 matrix, got [[1, 0]]'
        """
        return type(self)(parameter, self.value, self.expected, self.note)


def _bound(x: float) -> str:
    """A bound as a message writes it: 0 rather than 0.0, else the float's repr."""
    if isinstance(x, numbers.Integral):
        return str(int(x))
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 2**53 else repr(x)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool | np.bool_)


def check_integer(
    parameter: str, value: Any, *, low: int | None = None, high: int | None = None
) -> int:
    """An integer (any ``numbers.Integral``, numpy's too, but not a bool) from low to high.

    Parameters
    ----------
    parameter : str
        The name the error gives.
    value : object
        The value to check.
    low, high : int, optional
        Inclusive bounds.

    Returns
    -------
    int
        ``int(value)``.

    Raises
    ------
    ParameterError
        ``NAME must be an integer ≥ LOW, got VALUE`` (or "between LOW and HIGH").

    Examples
    --------
    >>> check_integer("n", 3, low=0, high=9)
    3
    >>> check_integer("n", 2.0, low=1)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: n must be an integer ≥ 1, got 2.0
    """
    if low is not None and high is not None:
        expected = f"an integer between {low} and {high}"
    elif low is not None:
        expected = f"an integer ≥ {low}"
    elif high is not None:
        expected = f"an integer ≤ {high}"
    else:
        expected = "an integer"
    if _is_bool(value) or not isinstance(value, numbers.Integral):
        raise ParameterError(parameter, value, expected)
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise ParameterError(parameter, value, expected)
    return number


def check_real(
    parameter: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    closed_low: bool = True,
    closed_high: bool = True,
    finite: bool = True,
) -> float:
    """A real number (int, float, numpy's; not a bool, not NaN) in a range.

    Parameters
    ----------
    parameter : str
        The name the error gives.
    value : object
        The value to check.
    low, high : float, optional
        The ends of the range.
    closed_low, closed_high : bool, default True
        Whether each end belongs to the range.
    finite : bool, default True
        Refuse ±inf (else they pass when the range holds them).

    Returns
    -------
    float
        ``float(value)``.

    Examples
    --------
    >>> check_real("rate", 0, low=0, high=1)
    0.0
    >>> check_real("rate", float("nan"), low=0, high=1)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: rate must be a number in [0, 1], got nan
    >>> check_real("scale", -1, low=0, closed_low=False)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: scale must be a number > 0, got -1
    """
    if low is not None and high is not None:
        left, right = "[" if closed_low else "(", "]" if closed_high else ")"
        expected = f"a number in {left}{_bound(low)}, {_bound(high)}{right}"
    elif low is not None:
        expected = f"a number {'≥' if closed_low else '>'} {_bound(low)}"
    elif high is not None:
        expected = f"a number {'≤' if closed_high else '<'} {_bound(high)}"
    else:
        expected = "a finite number" if finite else "a number"
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise ParameterError(parameter, value, expected)
    try:
        number = float(value)
    except OverflowError:  # an integer (or a Fraction) beyond the largest float
        raise ParameterError(parameter, value, expected, "too large for a float") from None
    ok = not math.isnan(number) and (not finite or math.isfinite(number))
    if ok and low is not None:
        ok = number >= low if closed_low else number > low
    if ok and high is not None:
        ok = number <= high if closed_high else number < high
    if not ok:
        raise ParameterError(parameter, value, expected)
    return number


def check_positive(parameter: str, value: Any) -> float:
    """A finite real number > 0, as a float.

    Examples
    --------
    >>> check_positive("eta", np.float32(0.5))
    0.5
    >>> check_positive("eta", 0)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: eta must be a number > 0, got 0
    """
    return check_real(parameter, value, low=0, closed_low=False)


def check_choice(parameter: str, value: Any, choices: Iterable[Any]) -> Any:
    """One of ``choices``; a bool matches only a bool choice (and 1 is not True).

    Returns
    -------
    object
        The matching choice itself (``1`` for ``numpy.int64(1)``).

    Examples
    --------
    >>> check_choice("zero_label", np.int8(-1), (1, -1))
    -1
    >>> check_choice("zero_label", 0, (1, -1))
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: zero_label must be one of 1, -1, got 0
    """
    choices = tuple(choices)
    if not isinstance(value, np.ndarray):
        for choice in choices:
            if _is_bool(value) != isinstance(choice, bool):
                continue
            try:
                same = bool(value == choice)
            except (TypeError, ValueError):
                same = False
            if same:
                return choice
    raise ParameterError(parameter, value, "one of " + ", ".join(repr(c) for c in choices))


def check_generator(parameter: str, value: Any) -> np.random.Generator:
    """A ``numpy.random.Generator`` (a seed or a legacy ``RandomState`` is refused).

    Examples
    --------
    >>> check_generator("rng", 0)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: rng must be a numpy.random.Generator, got 0
    """
    if not isinstance(value, np.random.Generator):
        raise ParameterError(parameter, value, "a numpy.random.Generator")
    return value


def check_instance(parameter: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    """An instance of ``kind``; ``what`` names it in the error ("a Transcript").

    Examples
    --------
    >>> check_instance("name", 3, str, "a string")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: name must be a string, got 3
    """
    if not isinstance(value, kind):
        raise ParameterError(parameter, value, what)
    return value
