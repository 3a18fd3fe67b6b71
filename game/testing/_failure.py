"""How a conformance check fails: :class:`CheckFailure`, a sentence naming the player.

Examples
--------
>>> from game.testing import CheckFailure
>>> issubclass(CheckFailure, AssertionError)
True
"""

from __future__ import annotations

from game.engine import play
from game.errors import CertificateError, ProtocolError
from game.transcript import Transcript

__all__ = ["CheckFailure", "fail", "play_or_fail"]


class CheckFailure(AssertionError):
    """A player failed a conformance check; the message says how."""


def fail(player: str, check: str, message: str) -> CheckFailure:
    """The failure of ``check`` by ``player``: ``"player: check: message"``."""
    return CheckFailure(f"{player}: {check}: {message}")


def play_or_fail(learner, adversary, name: str, check: str, rounds: int = 60) -> Transcript:
    """:func:`game.play`; a protocol or certificate error becomes a failure of ``check``."""
    try:
        return play(learner, adversary, rounds=rounds)
    except (ProtocolError, CertificateError) as exc:
        raise fail(name, check, str(exc)) from None
