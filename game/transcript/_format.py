"""The transcript file's format: its name and version, written in every header line.

A reader accepts a header whose ``format`` is :data:`FORMAT` and whose
``version`` is at most :data:`VERSION`.

Examples
--------
>>> from game.transcript import FORMAT, VERSION
>>> FORMAT, VERSION
('online-learning-games/transcript', 1)
"""

__all__ = ["FORMAT", "VERSION"]

#: The ``format`` of every transcript file's header line.
FORMAT = "online-learning-games/transcript"
#: The newest version of the format this package writes and reads.
VERSION = 1
