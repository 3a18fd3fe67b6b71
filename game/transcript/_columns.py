"""The referee's own copy of the instances of a game, and the checks it makes on them.

The engine copies every instance into an :class:`InstanceColumn` the moment the
adversary hands it over, before any player sees it again; what the players
keep, reuse or write afterwards never reaches the record. Instances of one
shape and dtype go into one preallocated array, grown geometrically (the
transcript's instance column is a view of it, no stacking at the end); points
of a finite class into an int64 column; anything else, or instances whose
shapes differ, into a list of read-only copies (points of a finite class, Python
ints, are immutable and kept as they are; lists are copied whole).

Rows of a block in immutable memory (:func:`game.theory.frozen_copy`, as
``Replay`` and the expert streams hold their data) cannot change, so they are
recorded by reference and handed over as they are; the engine checks that
once per block (:func:`game.theory.is_immutable`).

The players are otherwise handed the referee's copy, never the adversary's object:
a row of the column seen through memory numpy will not write (its
``writeable`` flag cannot be set again, on it or on its ``base``), so neither
player can change the record, what the other player sees of the round, or the
adversary's own arrays.

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
>>> shown = column.shown(1)  # what the players are handed: the record, unwritable
>>> shown.flags.writeable = True
Traceback (most recent call last):
...
ValueError: cannot set WRITEABLE flag to True of this array
>>> instance_fault(np.array([[0.5, np.nan]]), "vector")
(0, 'a non-finite number (nan) at coordinate 1')
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np

from game.transcript._memory import unwritable
from game.transcript._spill import DiskFile

__all__ = ["CompletedInstances", "InstanceColumn", "NotNumbers", "instance_fault", "unwritable"]


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

#: Rows of the first mapping of a column kept on disk (it then doubles).
_DISK_ROWS = 1 << 16


class InstanceColumn:
    """Every instance of a game as the referee received it, copied.

    The engine's loop writes a row itself while the instance has the
    column's shape and dtype and there is room (``buf[t - 1] = x``), hands
    the players ``view[t - 1]``, and calls :meth:`store` otherwise;
    :meth:`store` returns what to hand the players and the state the loop
    keeps (buffer, its unwritable view, row shape, dtype, capacity), with a
    shape of None once the column is a list.

    Parameters
    ----------
    rounds : int
        The most rounds of the game: the column never grows beyond them.
    disk : path-like, optional
        Keep the rows on disk, in an unlinked temporary file made in this
        folder (:class:`~game.transcript.DiskFile`), not in memory.
        Rows of immutable blocks are then copied there too, not kept by
        reference; instances that are not arrays of one shape and dtype (the
        points of a finite class, rows whose shapes differ) are still kept in
        a list in memory.
    """

    __slots__ = ("_buf", "_disk", "_folder", "_list", "_rounds", "_view")

    def __init__(self, rounds: int, disk: str | os.PathLike | None = None):
        self._rounds = max(int(rounds), 1)
        self._folder = disk
        self._disk: DiskFile | None = None
        self._buf: np.ndarray | None = None
        self._view: np.ndarray | None = None
        self._list: list | None = None

    @property
    def on_disk(self) -> bool:
        """Whether the rows are kept on disk (rows of immutable blocks are then copied too)."""
        return self._folder is not None

    def store(self, x: Any, t: int, immutable: bool = False) -> tuple:
        """Record round t's instance ``x`` (the slow path); what the players see, the loop's state.

        ``immutable`` says ``x`` is a row of a block in memory no write can
        change (:func:`game.theory.is_immutable`): it is recorded by reference,
        not copied, and handed to the players as it is; the column becomes a list.

        Raises :class:`NotNumbers` for an instance that is not numbers (the
        referee records and digests numbers only); an array of Python numbers
        is recorded, and shown, as floats.
        """
        if immutable and self._folder is None:  # recorded by reference, shown as it is
            if self._list is None:
                self._to_list(t - 1)
            del self._list[t - 1 :]
            self._list.append(x)
            return x, None, None, None, None, 0
        x = _numbers(x)
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
                    view = self._view
                    return view[t - 1], buf, view, buf.shape[1:], buf.dtype, buf.shape[0]
            self._to_list(t - 1)
        del self._list[t - 1 :]
        self._list.append(_frozen(x))
        return self.shown(t), None, None, None, None, 0

    def _first(self, array: np.ndarray) -> np.ndarray:
        row_bytes = max(array.nbytes, 1)
        cap = min(self._rounds, max(1024, _FIRST_BYTES // row_bytes))
        if self._folder is not None:
            self._disk = DiskFile(array.shape, array.dtype, self._folder, min(cap, _DISK_ROWS))
            self._buf = self._disk.array
        else:
            self._buf = np.empty((cap, *array.shape), dtype=array.dtype)
        self._view = unwritable(self._buf)
        return self._buf

    def _grow(self, t: int) -> np.ndarray:
        old = self._buf
        cap = min(self._rounds, max(t, 2 * old.shape[0]))
        if self._disk is not None:  # the file is lengthened and mapped again: no copy
            buf = self._disk.grow(cap)
        else:
            buf = np.empty((cap, *old.shape[1:]), dtype=old.dtype)
            buf[: old.shape[0]] = old
        self._buf = buf
        self._view = unwritable(buf)
        return buf

    def _to_list(self, n: int) -> None:
        """From now on a list: the rows recorded so far become read-only copies."""
        buf = self._buf
        self._list = [] if buf is None else [_frozen(buf[i]) for i in range(n)]
        self._buf = self._view = None

    def shown(self, t: int) -> Any:
        """Round t's instance as the players see it: the record, through memory nobody writes.

        A row of the column's unwritable view; from a list, the recorded
        array itself (unwritable too) or a copy of a recorded list.
        """
        if self._list is None:
            return self._view[t - 1]
        x = self._list[t - 1]
        return copy.deepcopy(x) if isinstance(x, list | dict) else x

    def rows(self, n: int):
        """The first n instances: an array nobody can write (a list when shapes or types differ)."""
        if self._list is not None:
            return self._list[:n]
        buf = self._buf
        if buf is None or n == 0:
            return []
        if self._disk is not None or 2 * n > buf.shape[0]:
            return self._view[:n]
        return _frozen(buf[:n])

    def __len__(self) -> int:  # the rows written; the engine's round count is the labels'
        if self._list is not None:
            return len(self._list)
        return 0 if self._buf is None else self._buf.shape[0]

    def __getitem__(self, index):
        if self._list is not None:
            return self._list[index]
        return self._view[index]


class NotNumbers(ValueError):
    """An instance the referee cannot record: it is not numbers. ``why`` says what it is."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def _numbers(x: Any) -> Any:
    """``x`` when it is numbers (an object array of numbers as floats), else :class:`NotNumbers`.

    Numbers are real: an array of booleans, integers or floats, a Python or
    numpy real number, or a (nested, rectangular) list or tuple of them.
    """
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "biuf":
            return x
        if x.dtype.kind == "O":
            try:
                return x.astype(np.float64)
            except (TypeError, ValueError):
                pass
        raise NotNumbers(f"values of dtype {x.dtype}, not real numbers")
    if isinstance(x, bool | int | float | np.bool_ | np.integer | np.floating):
        return x
    if isinstance(x, list | tuple):
        try:
            kind = np.asarray(x).dtype.kind
        except ValueError:
            raise NotNumbers(f"a ragged {type(x).__name__}, not an array of numbers") from None
        if kind in "biuf":
            return x
    raise NotNumbers(f"a {type(x).__name__} ({x!r:.40}), not real numbers")


def _as_row(x: Any) -> np.ndarray | None:
    """``x`` when it is a numeric array the column can hold, else None (kept in a list)."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "biuf":
        return x
    return None


def _frozen(x: Any) -> Any:
    """The record's copy of an instance: an array nobody can write, a list copied whole."""
    if isinstance(x, np.ndarray):
        return unwritable(x.copy())
    if isinstance(x, list | tuple | dict):
        return copy.deepcopy(x)
    return x


def instance_fault(instances: Any, kind: str | None) -> tuple[int, str] | None:
    """The first round (0-based) whose instance the referee refuses, and why; None if none.

    Real numbers must be finite; advice (``kind == "advice"``) must lie in
    [-1, 1], integers too. An array of Python objects is read as the numbers it
    holds.

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
    >>> instance_fault(np.array([[1, -1], [1, 2]]), "advice")
    (1, 'advice 2 outside [-1, 1] at coordinate 1')
    >>> instance_fault([np.array([0.5, float("inf")], dtype=object)], "vector")
    (0, 'a non-finite number (inf) at coordinate 1')
    """
    if isinstance(instances, np.ndarray):
        return _array_fault(instances, kind, 0)
    owner = _one_owner(instances)
    if owner is not None and _array_fault(owner.reshape(1, -1), kind, 0) is None:
        return None  # every row is a row of one block, and every value of it passes
    clean: set[int] = set()  # blocks whose every row passed: their rows need no check
    for i, x in enumerate(instances):
        if not isinstance(x, np.ndarray | float):
            continue
        owner = x.base if isinstance(x, np.ndarray) else None
        if owner is not None and id(owner) in clean:
            continue
        if owner.__class__ is np.ndarray:  # a row of a block: one pass over the whole block
            if _array_fault(owner.reshape(1, -1), kind, 0) is None:
                clean.add(id(owner))  # every value of the block passes: so do all its rows
                continue
        fault = _array_fault(np.asarray(x)[None, ...], kind, i)
        if fault is not None:
            return fault
    return None


#: Values an instance check looks at a time: a long game's column (on disk, say)
#: is checked a block of rows at a time, never with one mask as large as the column.
_BLOCK_VALUES = 1 << 20


def _one_owner(instances: list) -> np.ndarray | None:
    """The one array every instance is a view of (as an immutable block's rows are), or None."""
    try:
        owners = {id(x.base) for x in instances}
    except AttributeError:  # a number or a list among them
        return None
    owner = instances[0].base if len(owners) == 1 else None
    return owner if owner.__class__ is np.ndarray else None


def _array_fault(X: np.ndarray, kind: str | None, offset: int) -> tuple[int, str] | None:
    step = max(1, _BLOCK_VALUES // max(1, int(np.prod(X.shape[1:], dtype=np.int64))))
    if X.shape[0] <= step:
        return _block_fault(X, kind, offset)
    for start in range(0, X.shape[0], step):
        fault = _block_fault(X[start : start + step], kind, offset + start)
        if fault is not None:
            return fault
    return None


def _block_fault(X: np.ndarray, kind: str | None, offset: int) -> tuple[int, str] | None:
    if X.dtype.kind == "O":  # Python numbers in an object array: read as floats
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError):
            return None
    advice_of_integers = kind == "advice" and X.dtype.kind in "iu"
    if X.shape[0] == 0 or not (X.dtype.kind == "f" or advice_of_integers):
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
