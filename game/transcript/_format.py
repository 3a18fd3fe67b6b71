"""The transcript file's format: its name and version, written in every header line.

A reader accepts a header whose ``format`` is :data:`FORMAT` and whose
``version`` is :data:`VERSION`. Version 2 digested the game's header, its
certificate, status and bounds beside the rounds; version 3 hashes each
float in 4 bytes, at the single precision it was compared at already
(:mod:`game.transcript._digest`). A file of an older version is refused with a
line saying to re-run its game.

Examples
--------
>>> from game.transcript import FORMAT, VERSION
>>> FORMAT, VERSION
('online-learning-games/transcript', 3)
"""

__all__ = ["FORMAT", "VERSION"]

#: The ``format`` of every transcript file's header line.
FORMAT = "online-learning-games/transcript"
#: The newest version of the format this package writes and reads.
VERSION = 3
