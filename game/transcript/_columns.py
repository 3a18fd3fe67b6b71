"""The referee's own copy of the instances of a game, and the checks it makes on them.

The engine copies every instance into an :class:`InstanceColumn` the moment the
adversary hands it over, before any player sees it again; what the players
keep, reuse or write afterwards never reaches the record. Rows of a block in
immutable memory (:func:`game.theory.frozen_copy`, as ``Replay`` and the
expert streams hold their data) cannot change, so they are recorded by
reference: the engine checks that once per block (:func:`game.theory.is_immutable`).
Instances of one shape and dtype go into one preallocated array, grown
geometrically (the transcript's instance column is a view of it, no stacking
at the end); anything else (points of a finite class, which are immutable
Python ints; instances whose shapes differ) into a list.

:func:`instance_fault` finds the first recorded instance the game cannot
accept: a non-finite number, or advice outside [-1, 1].

Examples
--------
>>> import numpy as np
>>> column = InstanceColumn(rounds=3)
>>> x = np.array([1.0, 2.0])
>>> column.store(x, 1)[0] is not None
True
>>> x[0] = 99.0  # the adversary reuses its buffer: the record keeps round 1 as it was
>>> column.rows(1).tolist()
[[1.0, 2.0]]
>>> instance_fault(np.array([[0.5, np.nan]]), "vector")
(0, 'a non-finite number (nan) at coordinate 1')
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["CompletedInstances", "InstanceColumn", "instance_fault"]


def _reserve() -> int:
    """Bytes the column may reserve at once: 2 GiB, or an eighth of the machine's memory.

    The reservation is virtual: the operating system gives a page of it memory
    only when a round is first written there, so a game that ends early costs
    only what it wrote, and a game of known length never grows (no copies).
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        physical = 1 << 33
    return max(1 << 24, min(1 << 31, physical // 8))


#: Bytes preallocated for the instance column before the first growth.
_FIRST_BYTES = _reserve()


class InstanceColumn:
    """Every instance of a game as the referee received it, copied.

    The engine's loop writes a row itself while the instance has the
    column's shape and dtype and there is room (``buf[t - 1] = x``), and calls
    :meth:`store` otherwise; :meth:`store` returns the state the loop keeps
    (buffer, row shape, dtype, capacity), with a shape of None once the column
    is a list.

    Parameters
    ----------
    rounds : int
        The most rounds of the game: the column never grows beyond them.
    """

    __slots__ = ("_buf", "_list", "_rounds")

    def __init__(self, rounds: int):
        self._rounds = max(int(rounds), 1)
        self._buf: np.ndarray | None = None
        self._list: list | None = None

    def store(self, x: Any, t: int, immutable: bool = False) -> tuple:
        """Record round t's instance ``x`` (the slow path); the loop's new state.

        ``immutable`` says ``x`` lives in memory no write can change
        (:func:`game.theory.is_immutable` of its block): it is recorded by
        reference, not copied, and the column becomes a list.
        """
        if immutable:
            if self._list is None:
                self._to_list(t - 1)
            del self._list[t - 1 :]
            self._list.append(x)
            return None, None, None, 0
        if self._list is None:
            array = _as_row(x)
            if array is not None:
                buf = self._buf
                if buf is None:
                    buf = self._first(array)
                if array.shape == buf.shape[1:] and array.dtype == buf.dtype:
                    if t > buf.shape[0]:
                        buf = self._grow(t)
                    buf[t - 1] = array
                    return self._state()
            self._to_list(t - 1)
        del self._list[t - 1 :]
        self._list.append(_frozen(x))
        return None, None, None, 0

    def _state(self) -> tuple:
        buf = self._buf
        return buf, buf.shape[1:], buf.dtype, buf.shape[0]

    def _first(self, array: np.ndarray) -> np.ndarray:
        row_bytes = max(array.nbytes, 1)
        cap = min(self._rounds, max(1024, _FIRST_BYTES // row_bytes))
        self._buf = np.empty((cap, *array.shape), dtype=array.dtype)
        return self._buf

    def _grow(self, t: int) -> np.ndarray:
        old = self._buf
        cap = min(self._rounds, max(t, 2 * old.shape[0]))
        buf = np.empty((cap, *old.shape[1:]), dtype=old.dtype)
        buf[: old.shape[0]] = old
        self._buf = buf
        return buf

    def _to_list(self, n: int) -> None:
        """From now on a list: the rows recorded so far become read-only copies."""
        buf = self._buf
        self._list = [] if buf is None else [_frozen(buf[i]) for i in range(n)]
        self._buf = None

    def rows(self, n: int):
        """The first n instances: a read-only array (a list when shapes or types differ)."""
        if self._list is not None:
            return self._list[:n]
        buf = self._buf
        if buf is None or n == 0:
            return []
        rows = buf[:n] if 2 * n > buf.shape[0] else buf[:n].copy()
        rows.flags.writeable = False
        return rows

    def __len__(self) -> int:  # the rows written; the engine's round count is the labels'
        if self._list is not None:
            return len(self._list)
        return 0 if self._buf is None else self._buf.shape[0]

    def __getitem__(self, index):
        if self._list is not None:
            return self._list[index]
        return self._buf[index]


def _as_row(x: Any) -> np.ndarray | None:
    """``x`` when it is a numeric array the column can hold, else None (kept in a list)."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "biuf":
        return x
    return None


def _frozen(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        x = x.copy()
        x.flags.writeable = False
    return x


def instance_fault(instances: Any, kind: str | None) -> tuple[int, str] | None:
    """The first round (0-based) whose instance the referee refuses, and why; None if none.

    Real numbers must be finite; advice (``kind == "advice"``) must lie in [-1, 1].

    Parameters
    ----------
    instances : numpy.ndarray or list
        The recorded instance column.
    kind : str or None
        What the adversary declares it presents (``presents``).

    Examples
    --------
    >>> import numpy as np
    >>> instance_fault(np.array([[1.0, -1.0], [2.0, 0.0]]), "advice")
    (1, 'advice 2 outside [-1, 1] at coordinate 0')
    >>> instance_fault(np.array([[1.0, -1.0]]), "advice") is None
    True
    """
    if isinstance(instances, np.ndarray):
        return _array_fault(instances, kind, 0)
    seen: set[int] = set()  # rows by reference repeat: each distinct array is checked once
    for i, x in enumerate(instances):
        if isinstance(x, np.ndarray | float) and id(x) not in seen:
            fault = _array_fault(np.asarray(x)[None, ...], kind, i)
            if fault is not None:
                return fault
            if isinstance(x, np.ndarray):
                seen.add(id(x))
    return None


def _array_fault(X: np.ndarray, kind: str | None, offset: int) -> tuple[int, str] | None:
    if X.dtype.kind != "f" or X.shape[0] == 0:
        return None
    rows = X.reshape(X.shape[0], -1)
    bad = ~np.isfinite(rows)
    if kind == "advice":
        with np.errstate(invalid="ignore"):
            outside = np.abs(rows) > 1.0
        bad |= outside
    hit = np.flatnonzero(bad.any(axis=1))
    if not hit.size:
        return None
    i = int(hit[0])
    j = int(np.flatnonzero(bad[i])[0])
    v = float(rows[i, j])
    if not np.isfinite(v):
        return offset + i, f"a non-finite number ({v}) at coordinate {j}"
    return offset + i, f"advice {v:g} outside [-1, 1] at coordinate {j}"


class CompletedInstances:
    """The instances of the rounds completed so far (as many as ``labels``), for a History.

    Examples
    --------
    >>> column, labels = InstanceColumn(rounds=2), []
    >>> _ = column.store(5, 1)
    >>> done = CompletedInstances(column, labels)
    >>> len(done), labels.append(1), len(done), done[0]
    (0, None, 1, 5)
    """

    __slots__ = ("_column", "_labels")

    def __init__(self, column: InstanceColumn, labels: list):
        self._column = column
        self._labels = labels

    def __len__(self) -> int:
        return len(self._labels)

    def __getitem__(self, index):
        n = len(self._labels)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(f"round index {index} out of range for {n} completed rounds")
        value = self._column[i]
        return int(value) if isinstance(value, np.integer) else value
