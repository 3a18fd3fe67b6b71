"""How a conformance check fails: :class:`CheckFailure`, one line naming the player.

Every failure reads ``"player: check: what happened"`` on one line: :func:`fail`
folds line breaks away, and :func:`shown` gives a value's repr cut to a
readable length (a value whose ``repr`` raises is still shown).

Examples
--------
>>> from game.testing import CheckFailure
>>> issubclass(CheckFailure, AssertionError)
True
>>> str(fail("my-learner", "snapshot", f"round 3: snapshot()['w'] is {shown(float('nan'))}"))
"my-learner: snapshot: round 3: snapshot()['w'] is nan"
"""

from __future__ import annotations

from typing import Any

from game.engine import play
from game.errors import CertificateError, ProtocolError
from game.transcript import Transcript

__all__ = ["CheckFailure", "a_kind", "fail", "play_or_fail", "shown"]


class CheckFailure(AssertionError):
    """A player failed a conformance check; the message says how, on one line."""


def fail(player: str, check: str, message: str) -> CheckFailure:
    """The failure of ``check`` by ``player``: ``"player: check: message"``, on one line."""
    return CheckFailure(" ".join(f"{player}: {check}: {message}".split()))


def shown(value: Any, width: int = 80) -> str:
    """``repr(value)`` on one line, cut to about ``width`` characters.

    Examples
    --------
    >>> shown("x" * 200, width=12)
    "'xxxxxxxxxx…"
    >>> class Odd:
    ...     def __repr__(self):
    ...         raise RuntimeError
    >>> shown(Odd()).startswith("<")
    True
    """
    try:
        text = repr(value)
    except Exception:
        text = object.__repr__(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def a_kind(value: Any) -> str:
    """``"a str"``, ``"an object"``: the type of ``value`` with its article.

    Examples
    --------
    >>> a_kind("x"), a_kind(object()), a_kind(1.5)
    ('a str', 'an object', 'a float')
    """
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def play_or_fail(learner, adversary, name: str, check: str, rounds: int) -> Transcript:
    """:func:`game.play`; a protocol or certificate error becomes a failure of ``check``."""
    try:
        return play(learner, adversary, rounds=rounds)
    except (ProtocolError, CertificateError) as exc:
        raise fail(name, check, str(exc)) from None
