"""Reading input files without trusting them: one regular file, sizes checked first.

Every file the framework reads on a user's behalf (a scenario, a data file, a
transcript, a class matrix) is read through these functions, so every reader
refuses the same things with the same one line, and never hangs, never
exhausts memory and never echoes what the file holds:

- anything that is not a regular file (a directory, a FIFO, a device such as
  ``/dev/zero``, a socket) is refused from ``os.stat`` before it is opened, and
  it is opened non-blocking, so a FIFO swapped in meanwhile cannot block;
- a missing file, a symlink loop, a name too long, a NUL in the path or a
  permission refused is one line saying so;
- a file larger than its cap is refused before it is read, naming the cap;
- a ``.npy`` file is judged from its header before its data is read: the
  elements its header claims must be numbers the file holds, so a 192-byte
  file that claims 10¹² elements is refused without allocating them;
- a ``.csv`` file is comma-separated numbers with the same number on every
  row; an error names the row (the file's line, counted from 1) and the
  column (from 1) and says what was expected, never the text it found;
- every number of an array file must be finite (``nan``, ``inf`` and
  ``1e400``, which reads as ``inf``, are refused naming the row and column).

A refusal is raised through ``fail``, a callable that turns the problem (one
phrase, without the path) into the exception to raise; :func:`refusal` makes
the usual one, ``ERROR(f"{path}: {problem}")``.

These functions live in :mod:`game.theory` because it is the one room every
reader can import: the theory imports nothing outside itself but
:mod:`game.errors`, and its finite classes read ``.npy`` and ``.csv`` files.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from game.errors import ScenarioError
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "X.csv"
...     _ = path.write_text("1,2\\n3,1e400\\n")
...     read_array_file(path, fail=refusal(ScenarioError, "X.csv"))
Traceback (most recent call last):
...
game.errors.ScenarioError: X.csv: row 2, column 2: not finite (inf); expected a finite number
>>> read_input(Path("/dev/zero"), limit=1024, fail=refusal(ScenarioError, "/dev/zero"))
Traceback (most recent call last):
...
game.errors.ScenarioError: /dev/zero: not a regular file (a character device)
"""

from __future__ import annotations

import errno
import io
import math
import os
import stat
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from game.errors import GameError

__all__ = [
    "MAX_CSV_BYTES",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_TEXT_BYTES",
    "input_lines",
    "nesting_depth",
    "os_problem",
    "read_array_file",
    "read_input",
    "refusal",
]

#: The largest text file (a scenario) read whole: 16 MiB.
MAX_TEXT_BYTES = 16 * 2**20
#: The largest ``.csv`` data file: 256 MiB (larger arrays belong in ``.npy`` files).
MAX_CSV_BYTES = 256 * 2**20
#: The longest line of a JSON Lines file (a transcript): 64 MiB.
MAX_LINE_BYTES = 64 * 2**20
#: The deepest nesting of lists and tables read from a file.
MAX_DEPTH = 64

#: ``fail(problem)``: the exception to raise for a problem with the file.
Refusal = Callable[[str], Exception]


def refusal(error: type[GameError], path: str | os.PathLike) -> Refusal:
    """The usual ``fail``: ``error(f"{path}: {problem}")``.

    Examples
    --------
    >>> from game.errors import TranscriptError
    >>> str(refusal(TranscriptError, "t.jsonl")("empty file"))
    't.jsonl: empty file'
    """
    return lambda problem: error(f"{path}: {problem}")


def size_text(n: int) -> str:
    """A number of bytes as a reader says it: ``"16 MiB"``, ``"192 bytes"``.

    Examples
    --------
    >>> size_text(192), size_text(16 * 2**20), size_text(7 * 2**40 + 2**39)
    ('192 bytes', '16 MiB', '7.5 TiB')
    """
    if n < 1024:
        return f"{n} bytes"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        n /= 1024
        if n < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}" if n < 1e21 else f"{n:.3e} {unit}"
    raise AssertionError("unreachable")


_ERRNO = {
    errno.ENOENT: "no such file",
    errno.ELOOP: "a symlink loop (too many levels of symbolic links)",
    errno.ENAMETOOLONG: "a file name too long for the file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "no such file (a folder on its path is a file)",
}


def os_problem(exc: OSError | ValueError) -> str:
    """What an ``OSError`` (or the ``ValueError`` of a NUL in a path) says, as a phrase.

    Examples
    --------
    >>> os_problem(ValueError("embedded null byte"))
    'the path holds a NUL character'
    >>> os_problem(OSError(errno.ELOOP, "Too many levels of symbolic links"))
    'a symlink loop (too many levels of symbolic links)'
    """
    if isinstance(exc, ValueError):
        return "the path holds a NUL character"
    if exc.errno in _ERRNO:
        return _ERRNO[exc.errno]
    return f"cannot be read: {exc.strerror or type(exc).__name__}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def input_stat(path: Path, fail: Refusal) -> os.stat_result:
    """``os.stat(path)`` of a regular file; anything else is refused through ``fail``."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        raise fail(os_problem(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise fail(f"not a regular file ({_kind(info.st_mode)})")
    return info


def open_input(path: Path, fail: Refusal) -> tuple[BinaryIO, os.stat_result]:
    """The regular file ``path`` opened for reading (non-blocking), and its ``stat``.

    It is checked with ``os.stat`` before it is opened, and again once open.
    """
    input_stat(path, fail)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:
        raise fail(os_problem(exc)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # replaced between the two looks
        os.close(fd)
        raise fail(f"not a regular file ({_kind(info.st_mode)})")
    return os.fdopen(fd, "rb"), info


def read_input(path: Path, *, limit: int, fail: Refusal, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Parameters
    ----------
    path : Path
        The file.
    limit : int
        The most bytes it may hold; a larger file is refused before it is read.
    fail : callable
        ``fail(problem)`` is raised.
    what : str
        What the file is, as the refusal names it ("scenario file").
    """
    stream, info = open_input(path, fail)
    with stream:
        if info.st_size > limit:
            raise fail(
                f"{size_text(info.st_size)}, larger than the {size_text(limit)} a {what} may be"
            )
        try:
            data = stream.read(limit + 1)
        except OSError as exc:
            raise fail(os_problem(exc)) from None
    if len(data) > limit:  # it grew while it was read
        raise fail(f"larger than the {size_text(limit)} a {what} may be")
    return data


def input_lines(path: Path, *, limit: int, fail: Refusal) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of a regular file, read one at a time: ``(number, line, ended)``.

    ``number`` counts from 1, ``line`` is without its newline, ``ended`` says
    whether it had one (only the last line may lack it). A line longer than
    ``limit`` bytes is refused naming its number and the cap, before more of
    it is read.
    """
    stream, _ = open_input(path, fail)
    with stream:
        number = 0
        while True:
            try:
                line = stream.readline(limit + 1)
            except OSError as exc:
                raise fail(os_problem(exc)) from None
            if not line:
                return
            number += 1
            ended = line.endswith(b"\n")
            if len(line) > limit and not (ended and len(line) == limit + 1):
                raise fail(f"line {number} is longer than {size_text(limit)}, the longest read")
            yield number, line[:-1] if ended else line, ended


def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep lists and dicts nest in ``value`` (a scalar is 0), counted up to ``limit + 1``.

    Walks without recursion, so a value nested deeper than Python's stack is
    measured too; it stops as soon as the depth passes ``limit``.

    Examples
    --------
    >>> nesting_depth(3), nesting_depth([1, [2]]), nesting_depth({"a": [[[]]]})
    (0, 2, 4)
    >>> nesting_depth([[[[[]]]]], limit=2)
    3
    """
    if not isinstance(value, list | dict):
        return 0
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children if isinstance(child, list | dict))
    return deepest


# -- array files -------------------------------------------------------------------------


def _position(index: tuple[int, ...]) -> str:
    """Where an entry is, as a refusal says it: rows and columns counted from 1."""
    if len(index) == 1:
        return f"row {index[0] + 1}"
    if len(index) == 2:
        return f"row {index[0] + 1}, column {index[1] + 1}"
    return "entry [" + ", ".join(str(i) for i in index) + "]"


def _nonfinite(array: np.ndarray) -> tuple[tuple[int, ...], float] | None:
    """The index and value of the first NaN or ±inf of a float array (None: none)."""
    if array.dtype.kind != "f" or bool(np.isfinite(array).all()):
        return None
    index = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
    return index, float(array[index])


def _npy(path: Path, fail: Refusal) -> np.ndarray:
    """A ``.npy`` array, judged from its header before its data is read."""
    from numpy.lib import format as npy

    stream, info = open_input(path, fail)
    with stream:
        if info.st_size == 0:
            raise fail("empty file; expected a .npy array")
        try:
            version = npy.read_magic(stream)
        except ValueError:
            raise fail("not a .npy file (it does not start with the .npy magic string)") from None
        try:
            if version == (1, 0):
                shape, fortran, dtype = npy.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, fortran, dtype = npy.read_array_header_2_0(stream)
            else:
                raise fail(f".npy format version {version[0]}.{version[1]}; expected 1.0 or 2.0")
        except (ValueError, SyntaxError, TypeError, OverflowError, MemoryError):
            raise fail("its .npy header is malformed or larger than 10,000 bytes") from None
        if dtype.kind not in "biuf" or dtype.fields is not None or dtype.subdtype is not None:
            raise fail(f"holds {dtype.name} entries; expected numbers (bool, integer or float)")
        count = math.prod(shape)
        claimed = count * dtype.itemsize
        held = info.st_size - stream.tell()
        shown = "×".join(str(n) for n in shape) or "a scalar"
        if claimed > held:
            raise fail(
                f"its header claims {shown} = {count:,} elements ({size_text(claimed)}), "
                f"but the file holds {size_text(held)} of data"
            )
        try:
            data = np.fromfile(stream, dtype=dtype, count=count)
        except MemoryError:
            raise fail(
                f"its {count:,} elements ({size_text(claimed)}) do not fit in memory"
            ) from None
        except (OSError, ValueError) as exc:
            raise fail(f"cannot read its data ({type(exc).__name__})") from None
        if data.size != count:
            raise fail(f"its data is cut short: {data.size:,} of {count:,} elements")
    return data.reshape(shape, order="F" if fortran else "C")


def _cells(line: str) -> list[str] | None:
    """The cells of one CSV line as ``numpy.loadtxt`` reads it (None: a blank or comment line)."""
    line = line.split("#", 1)[0].strip()
    return [cell.strip() for cell in line.split(",")] if line else None


def _csv_fault(text: str) -> str | None:
    """The first problem of a CSV text of numbers: its row (line) and column, and what it is."""
    width = None
    first = 0
    for number, line in enumerate(text.splitlines(), start=1):
        cells = _cells(line)
        if cells is None:
            continue
        for column, cell in enumerate(cells, start=1):
            try:
                value = float(cell)
            except ValueError:
                what = "an empty cell" if not cell else "not a number"
                return f"row {number}, column {column}: {what}; expected a number"
            if not math.isfinite(value):
                return (
                    f"row {number}, column {column}: not finite ({value}); expected a finite number"
                )
        if width is None:
            width, first = len(cells), number
        elif len(cells) != width:
            return (
                f"row {number} has {len(cells)} columns, row {first} has {width}; "
                "expected the same number on every row"
            )
    return None


def _csv(path: Path, fail: Refusal, ndmin: int) -> np.ndarray:
    """A ``.csv`` matrix (or vector) of numbers."""
    data = read_input(path, limit=MAX_CSV_BYTES, fail=fail, what=".csv data file")
    if not data.strip():
        raise fail("empty file; expected rows of comma-separated numbers")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(
            f"not UTF-8 text (byte {exc.start + 1}); expected comma-separated numbers"
        ) from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data": refused below
            array = np.loadtxt(io.StringIO(text), delimiter=",", ndmin=ndmin, dtype=np.float64)
    except (ValueError, TypeError):
        raise fail(_csv_fault(text) or "not rows of comma-separated numbers") from None
    if array.size and _nonfinite(array) is not None:
        raise fail(_csv_fault(text) or "a non-finite number; expected finite numbers")
    return array


def read_array_file(path: Path, *, fail: Refusal, ndmin: int = 1) -> np.ndarray:
    """The numbers of a ``.npy`` or ``.csv`` file, all finite, at least one.

    Parameters
    ----------
    path : Path
        The file; its suffix says how to read it.
    fail : callable
        ``fail(problem)`` is raised (see :func:`refusal`).
    ndmin : int, default 1
        The fewest dimensions a ``.csv`` array is given (2 for a matrix).

    Returns
    -------
    numpy.ndarray
        Of a bool, integer or float dtype (a ``.csv`` file's is float64).

    Raises
    ------
    Exception
        ``fail(problem)``: not a regular file, too large, a ``.npy`` header
        that claims more than the file holds, not numbers, a ragged ``.csv``,
        no numbers at all, a NaN or an infinity (naming its row and column).

    Examples
    --------
    >>> import tempfile
    >>> from game.errors import ScenarioError
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "X.csv"
    ...     _ = path.write_text("1,2\\n3,db_password\\n")
    ...     read_array_file(path, fail=refusal(ScenarioError, "X.csv"))
    Traceback (most recent call last):
    ...
    game.errors.ScenarioError: X.csv: row 2, column 2: not a number; expected a number
    """
    path = Path(path)
    if path.suffix == ".npy":
        array = _npy(path, fail)
    elif path.suffix == ".csv":
        array = _csv(path, fail, ndmin)
    else:
        raise fail(f"a {path.suffix or 'suffixless'} file; expected a .npy or .csv file")
    if array.size == 0:
        raise fail(f"no numbers (an array of shape {array.shape}); expected at least one")
    bad = _nonfinite(array)
    if bad is not None:
        index, value = bad
        raise fail(f"{_position(index)}: not finite ({value}); expected a finite number")
    return array
