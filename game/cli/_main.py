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
"""

from __future__ import annotations

import argparse
import sys

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

__all__ = ["COMMANDS", "main", "parser"]

#: The command modules, in the order ``python -m game --help`` lists them.
COMMANDS = (_run, _replay, _expect, _list, _sweep, _plot, _report, _ldim, _selfcheck)


def parser() -> argparse.ArgumentParser:
    """The parser of ``python -m game``: one subcommand per module of :data:`COMMANDS`.

    Examples
    --------
    >>> args = parser().parse_args(["run", "scenarios/perceptron_separable.toml", "--no-out"])
    >>> args.command, args.no_out, args.handler is _run.run
    ('run', True, True)
    """
    top = argparse.ArgumentParser(
        prog="python -m game", description="Adversary-versus-learner games of online learning."
    )
    subparsers = top.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.add_parser(subparsers).set_defaults(handler=module.run)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m game`` with ``argv`` (default: the process's arguments); the exit status.

    Examples
    --------
    >>> main(["ldim", "thresholds", "nine"])
    2
    """
    args = parser().parse_args(argv)
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
