"""Columns kept on disk: a game's rounds in an unlinked temporary file, mapped into memory.

A game played with ``keep="disk"`` (:func:`game.play`) records its columns
here instead of in memory: each column is an array in a temporary file of its
own, created in a folder (the transcript's, or the system's temporary folder)
and unlinked at once, so the file has no name, nothing is left behind when
the process ends however it ends, and its disk space is freed when the last
array that maps it is gone. The operating system keeps the pages written in
its file cache and writes them to disk as it needs the memory back: a game's
length is bounded by the disk, not the memory.

:class:`~game.transcript.DiskFile` is one such file, mapped as an array that grows by
doubling (the file is lengthened and mapped again; nothing is copied);
:class:`~game.transcript.DiskColumn` is a column of one number per round with the few list
methods the engine's record uses (``append``, ``len``, indexing, ``del
column[k:]``).

Examples
--------
>>> import numpy as np
>>> column = DiskColumn(np.float64)
>>> for p in (1.0, -1.0, 0.5):
...     column.append(p)
>>> len(column), column[1], column[-1], column[:2]
(3, -1.0, 0.5, [1.0, -1.0])
>>> del column[2:]
>>> column.array(len(column)).tolist()
[1.0, -1.0]
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np

from game.errors import GameError
from game.transcript._memory import unwritable

__all__ = ["DiskColumn", "DiskFile"]

#: Rows a file holds before it first grows.
_FIRST_ROWS = 1 << 16


class DiskFile:
    """An array of rows in an unlinked temporary file, mapped into memory, grown by doubling.

    Parameters
    ----------
    row : tuple of int
        The shape of one row.
    dtype : numpy.dtype
        The rows' dtype.
    folder : path-like, optional
        Where the file is made (default: the system's temporary folder).
    rows : int, optional
        The rows mapped at first (default 65,536; at least 1).

    Raises
    ------
    GameError
        When the folder cannot hold the file (naming the folder and the reason).
    """

    __slots__ = ("_dtype", "_file", "_folder", "_row", "array")

    def __init__(
        self,
        row: tuple[int, ...],
        dtype: Any,
        folder: str | os.PathLike | None = None,
        rows: int = _FIRST_ROWS,
    ):
        self._row = tuple(int(n) for n in row)
        self._dtype = np.dtype(dtype)
        self._folder = os.fspath(folder) if folder is not None else tempfile.gettempdir()
        try:
            self._file = tempfile.TemporaryFile(dir=self._folder)
        except OSError as exc:
            raise GameError(
                f"{self._folder}: cannot keep the rounds on disk there: {exc.strerror or exc}"
            ) from None
        self.array: np.ndarray = self._map(max(1, int(rows)))

    def _map(self, rows: int) -> np.ndarray:
        row_bytes = self._dtype.itemsize * int(np.prod(self._row, dtype=np.int64))
        if row_bytes == 0:  # rows of no values (an empty vector) take no room: nothing to map
            return np.empty((rows, *self._row), dtype=self._dtype)
        size = rows * row_bytes
        try:
            self._file.truncate(size)
            if hasattr(os, "posix_fallocate"):  # the disk's blocks taken now: a full disk is an
                os.posix_fallocate(self._file.fileno(), 0, size)  # error here, not a SIGBUS later
            return np.memmap(self._file, dtype=self._dtype, mode="r+", shape=(rows, *self._row))
        except OSError as exc:
            raise GameError(
                f"{self._folder}: cannot keep {rows:,} rounds on disk there: {exc.strerror or exc}"
            ) from None

    def grow(self, rows: int) -> np.ndarray:
        """Map at least ``rows`` rows (doubling): the rows written stay; nothing is copied."""
        have = self.array.shape[0]
        if rows > have:
            self.array = self._map(max(rows, 2 * have))
        return self.array


class DiskColumn:
    """One number per round on disk (a :class:`~game.transcript.DiskFile`), used as a list is.

    Indexing gives Python numbers (a slice, a list of them), as a list of
    them would; ``array(n)`` the first n values as an array nobody writes.

    Parameters
    ----------
    dtype : numpy.dtype
        float64 for predictions and extras, int8 for labels, bool for updates.
    folder : path-like, optional
        Where the file is made (default: the system's temporary folder).
    """

    __slots__ = ("_buf", "_disk", "_n")

    def __init__(self, dtype: Any, folder: str | os.PathLike | None = None):
        self._disk = DiskFile((), dtype, folder)
        self._buf = self._disk.array
        self._n = 0

    def append(self, value: Any) -> None:
        """Add one value at the end."""
        n = self._n
        if n == self._buf.shape[0]:
            self._buf = self._disk.grow(n + 1)
        self._buf[n] = value
        self._n = n + 1

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):
        values = self._buf[: self._n][index]
        return values.tolist() if isinstance(values, np.ndarray) else values.item()

    def __iter__(self) -> Iterator:
        for start in range(0, self._n, _FIRST_ROWS):
            yield from self._buf[start : min(self._n, start + _FIRST_ROWS)].tolist()

    def __delitem__(self, index: slice) -> None:
        """Only ``del column[k:]``: keep the first k values."""
        if not isinstance(index, slice) or index.stop is not None or index.step is not None:
            raise TypeError("a column on disk only drops its last values: del column[k:]")
        start = index.start or 0
        self._n = min(self._n, start if start >= 0 else max(0, self._n + start))

    def array(self, n: int) -> np.ndarray:
        """The first n values: an array nobody writes, mapping the file (no copy)."""
        return unwritable(np.asarray(self._buf[:n]))
