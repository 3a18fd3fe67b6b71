"""What every command shares: where it prints, when it shows a game's progress, and
which files it may write.

A command prints its result on :func:`output_console`. On a terminal that is
rich's usual console, laid out for the terminal's width. Anywhere else (a pipe,
a file, a captured stream) the console is unbounded and never wraps: a table
row is one line and names, parameters, titles and paths come out whole, at any
``COLUMNS`` and any length of path. Progress goes to standard error, and only
when asked for or on a terminal: a game's is :class:`game.engine.RoundsBar`,
the display ``game.play(..., progress=True)`` shows, its rounds and then the
steps of the game's end.

A command never writes over an existing file unless ``--force`` is given, and
never over a file the same run reads (its scenario, the scenario's data), even
with ``--force``: :func:`check_out` refuses such a target with one line before
any game is played.

Examples
--------
>>> import io, contextlib
>>> from rich.table import Table
>>> table = Table(title="a title longer than its table, kept on one line", show_header=False)
>>> table.add_column("")
>>> table.add_row("x")
>>> with contextlib.redirect_stdout(io.StringIO()) as piped:
...     output_console().print(table)
>>> piped.getvalue().splitlines()[0].strip()
'a title longer than its table, kept on one line'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from game.engine import RoundsBar
from game.errors import GameError

__all__ = [
    "DATA_SUFFIXES",
    "UNBOUNDED",
    "check_out",
    "on_terminal",
    "output_console",
    "progress_wanted",
    "rounds_bar",
    "scenario_inputs",
]

#: The width of the console when output is not a terminal: wider than any line it prints.
#: (Never print on it what stretches to the console's width, such as a Panel or a Rule.)
UNBOUNDED = 1_000_000


def on_terminal(stream: IO[str] | None) -> bool:
    """Whether ``stream`` is a terminal (a pipe, a file or a capture is not)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def output_console() -> Console:
    """The console a command prints its result on: standard output.

    On a terminal, rich's console at the terminal's width. Otherwise a console
    that never wraps or cuts (colours are still rich's choice, so ``FORCE_COLOR``
    colours piped output without narrowing it).
    """
    if on_terminal(sys.stdout):
        return Console()
    return Console(width=UNBOUNDED, soft_wrap=True)


def progress_wanted(args: Any) -> bool:
    """Progress on standard error: ``--progress`` asks for it, ``--quiet`` turns it off,
    and by default it shows on a terminal only."""
    if getattr(args, "quiet", False):
        return False
    return bool(getattr(args, "progress", False)) or Console(stderr=True).is_terminal


def rounds_bar(args: Any, label: str) -> RoundsBar:
    """The progress display of one game, shown as :func:`progress_wanted` says.

    Examples
    --------
    >>> import argparse
    >>> rounds_bar(argparse.Namespace(quiet=True, progress=True), "a game").enabled
    False
    """
    return RoundsBar(label, enabled=progress_wanted(args))


#: The suffixes of the data files a scenario may name (arrays and transcripts).
DATA_SUFFIXES = (".npy", ".csv", ".jsonl")


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (through links), or one path if either is absent."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        try:
            return a.resolve() == b.resolve()
        except (OSError, RuntimeError):
            return False


def check_out(
    path: str | os.PathLike | None,
    *,
    force: bool,
    inputs: Iterable[str | os.PathLike] = (),
    flag: str = "--out",
) -> None:
    """Refuse to write ``path`` over an input of the run, or over a file without ``force``.

    Parameters
    ----------
    path : path-like or None
        The file the command is about to write (None: nothing to check).
    force : bool
        Whether an existing file may be replaced (the command's ``--force``).
    inputs : iterable of path-like
        The files the same run reads: never written over, even with ``force``.
    flag : str
        The option that named ``path``, for the message.

    Raises
    ------
    GameError
        One line naming the option and the file. A device or a pipe that
        exists (``/dev/null``) is not refused: writing to it replaces nothing.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> scenario = Path(tempfile.mkdtemp()) / "s.toml"
    >>> _ = scenario.write_text('rounds = 1')
    >>> check_out(scenario.with_name("new.jsonl"), force=False, inputs=[scenario])
    >>> check_out(scenario, force=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.errors.GameError: --out .../s.toml: the file exists; pass --force to overwrite it
    >>> check_out(scenario, force=True, inputs=[scenario])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.errors.GameError: --out .../s.toml: is read by this run; it is never written over ...
    """
    if path is None:
        return
    path = Path(path)
    for given in inputs:
        if _same_file(path, Path(given)):
            raise GameError(
                f"{flag} {path}: is read by this run; it is never written over "
                "(not even with --force): choose another file"
            )
    if path.is_dir():
        raise GameError(f"{flag} {path}: is a folder; expected a file")
    if path.is_file() and not force:
        raise GameError(f"{flag} {path}: the file exists; pass --force to overwrite it")


def scenario_inputs(scenario: Any) -> list[Path]:
    """The files a scenario's game reads: the scenario file and the data files it names.

    A data file is any string of the spec ending in one of :data:`DATA_SUFFIXES`,
    taken relative to the scenario's folder as the scenario takes it.

    Examples
    --------
    >>> from game import load_scenario
    >>> [p.name for p in scenario_inputs(load_scenario("perceptron-separable"))]
    ['perceptron_separable.toml']
    """
    found = [Path(scenario.source)]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value.endswith(DATA_SUFFIXES) and "\0" not in value:
            found.append(Path(scenario.base) / value)

    walk(scenario.spec)
    return found
