"""The entry point: the parser built from the command modules, and exit statuses.

Every command is a module of :mod:`game.cli` with ``add_parser(subparsers)``
(adds its subcommand, returns its parser) and ``run(args, console)`` (does the
work, returns the exit status); :data:`COMMANDS` lists them in the order
``--help`` shows them.

Exit statuses: 0 on success; 1 when a game's ``[expect]`` fails or a replay
differs from its record (``failed: …`` on standard error), or a sweep or a
selfcheck finds a violation; 2 for bad input (every :class:`~game.errors.GameError`,
as one line ``error: …`` on standard error, never a traceback; argparse's own
usage errors too); 130 when interrupted.

``--version`` prints the installed distribution's version
(``online-learning-games 0.1.0``), read from its metadata. Usage lines name the
program as it was started: ``python -m game``, or the console script
``online-learning-games`` (:func:`script`).
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version

from game.cli import (
    _expect,
    _ldim,
    _list,
    _plot,
    _replay,
    _report,
    _run,
    _selfcheck,
    _sweep,
)
from game.cli._output import output_console
from game.errors import ExpectationError, GameError, ReplayMismatch

__all__ = ["COMMANDS", "DISTRIBUTION", "main", "parser", "script", "version_line"]

#: The command modules, in the order ``python -m game --help`` lists them.
COMMANDS = (_run, _replay, _expect, _list, _sweep, _plot, _report, _ldim, _selfcheck)

#: The distribution the packages are installed from, and the console script's name.
DISTRIBUTION = "online-learning-games"


def version_line() -> str:
    """What ``--version`` prints: the distribution's name and its installed version.

    The version is read from the installed distribution's metadata, never
    written in the code; without one (the packages imported from a bare
    checkout) the line says so.

    Examples
    --------
    >>> version_line()  # doctest: +ELLIPSIS
    'online-learning-games ...'
    """
    try:
        return f"{DISTRIBUTION} {version(DISTRIBUTION)}"
    except PackageNotFoundError:
        return f"{DISTRIBUTION} (version unknown: the distribution is not installed)"


def parser(prog: str = "python -m game") -> argparse.ArgumentParser:
    """The parser of ``python -m game``: one subcommand per module of :data:`COMMANDS`.

    Parameters
    ----------
    prog : str
        The program's name in usage lines.

    Examples
    --------
    >>> args = parser().parse_args(["run", "perceptron-separable", "--no-out"])
    >>> args.command, args.no_out, args.handler is _run.run
    ('run', True, True)
    >>> parser(prog="online-learning-games").format_usage().split()[:4]
    ['usage:', 'online-learning-games', '[-h]', '[--version]']
    """
    top = argparse.ArgumentParser(
        prog=prog, description="Adversary-versus-learner games of online learning."
    )
    top.add_argument(
        "--version",
        action="version",
        version=version_line(),
        help="print the installed version and exit",
    )
    subparsers = top.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        # entry: the command line itself, for a command that runs command lines (selfcheck)
        module.add_parser(subparsers).set_defaults(handler=module.run, entry=main)
    return top


def main(argv: list[str] | None = None, *, prog: str = "python -m game") -> int:
    """Run ``python -m game`` with ``argv`` (default: the process's arguments); the exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program's name.
    prog : str
        The program's name in usage lines.

    Examples
    --------
    >>> main(["ldim", "thresholds", "nine"])
    2
    """
    args = parser(prog).parse_args(argv)
    try:
        return args.handler(args, output_console())
    except (ExpectationError, ReplayMismatch) as exc:
        print(f"failed: {exc}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def script() -> int:
    """The console script ``online-learning-games``: :func:`main` under its own name.

    Examples
    --------
    >>> import sys
    >>> from unittest import mock
    >>> with mock.patch.object(sys, "argv", ["online-learning-games", "lst"]):
    ...     script()
    Traceback (most recent call last):
    ...
    SystemExit: 2

    The usage line on standard error reads ``usage: online-learning-games [-h]
    [--version] ...``, and ``online-learning-games --version`` prints
    ``version_line``.
    """
    return main(prog=DISTRIBUTION)
