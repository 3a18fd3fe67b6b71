"""The record of a game: :class:`Transcript` and :class:`Round`, the JSON Lines
file (writer and reader) and the digest.
"""

from game.transcript._digest import canonical, digest_columns
from game.transcript._format import FORMAT, VERSION
from game.transcript._transcript import Round, Transcript, TranscriptWriter, versions

__all__ = [
    "FORMAT",
    "VERSION",
    "Round",
    "Transcript",
    "TranscriptWriter",
    "canonical",
    "digest_columns",
    "versions",
]
