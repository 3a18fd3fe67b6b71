"""The transcript file's format: its name and version, written in every header line.

A reader accepts a header whose ``format`` is :data:`FORMAT` and whose
``version`` is :data:`VERSION`. Version 2 digests the game's header, its
certificate, status and bounds beside the rounds; a file of version 1 is
refused with a line saying to re-run its game.

Examples
--------
>>> from game.transcript import FORMAT, VERSION
>>> FORMAT, VERSION
('online-learning-games/transcript', 2)
"""

__all__ = ["FORMAT", "VERSION"]

#: The ``format`` of every transcript file's header line.
FORMAT = "online-learning-games/transcript"
#: The newest version of the format this package writes and reads.
VERSION = 2
