"""What every command shares: where it prints, and when it shows a game's progress.

A command prints its result on :func:`output_console`. On a terminal that is
rich's usual console, laid out for the terminal's width. Anywhere else (a pipe,
a file, a captured stream) the console is unbounded and never wraps: a table
row is one line and names, parameters, titles and paths come out whole, at any
``COLUMNS`` and any length of path. Progress goes to standard error, and only
when asked for or on a terminal: a game's is :class:`game.engine.RoundsBar`,
the display ``game.play(..., progress=True)`` shows, its rounds and then the
steps of the game's end.

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

import sys
from typing import IO, Any

from rich.console import Console

from game.engine import RoundsBar

__all__ = [
    "UNBOUNDED",
    "on_terminal",
    "output_console",
    "progress_wanted",
    "rounds_bar",
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
