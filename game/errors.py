"""The family of errors the referee raises.

Every error the framework raises on bad input or a misbehaving player is a
:class:`GameError`, so a caller can catch them all at once; the command line
prints such an error as one line and exits with status 2.

Examples
--------
>>> from game.errors import ProtocolError, GameError
>>> issubclass(ProtocolError, GameError)
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "CertificateError",
    "ExpectationError",
    "GameError",
    "ProtocolError",
    "ReplayMismatch",
    "ScenarioError",
    "TranscriptError",
    "UnknownPlayerError",
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
