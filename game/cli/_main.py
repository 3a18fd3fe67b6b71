"""The entry point: the parser built from the command modules, and exit statuses.

Every command is a module of :mod:`game.cli` with ``add_parser(subparsers)``
(adds its subcommand, returns its parser) and ``run(args, console)`` (does the
work, returns the exit status); :data:`COMMANDS` lists them in the order
``--help`` shows them.

Exit statuses: 0 on success; 1 when a game's ``[expect]`` fails or a replay
differs from its record (``failed: …`` on standard error), or a sweep or a
selfcheck finds a violation; 2 for bad input (every :class:`~game.errors.GameError`,
as one line ``error: …`` on standard error, never a traceback; argparse's own
usage errors too; a file that cannot be written, a full disk); 128 + the
signal's number when a signal stops the command: 130 for SIGINT (Ctrl-C), 143
for SIGTERM (what ``kill`` and ``timeout`` send), 129 for SIGHUP.

SIGTERM and SIGHUP are handled as SIGINT is: the game stops, every finished
round is kept, and the transcript's footer is marked aborted with the reason
(``interrupted by SIGTERM``); the line on standard error says so and where the
file is. A second signal while the command cleans up ends it at once.

``--version`` prints the installed distribution's version
(``online-learning-games 0.1.0``), read from its metadata. Usage lines name the
program as it was started: ``python -m game``, or the console script
``online-learning-games`` (:func:`script`).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version

from game.cli import (
    _animate,
    _expect,
    _ldim,
    _list,
    _margin,
    _play,
    _plot,
    _replay,
    _report,
    _run,
    _selfcheck,
    _solve,
    _sweep,
    _tournament,
)
from game.cli._output import output_console
from game.errors import ExpectationError, GameError, ReplayMismatch

__all__ = [
    "COMMANDS",
    "DISTRIBUTION",
    "Interrupted",
    "main",
    "message",
    "parser",
    "script",
    "version_line",
]

#: The command modules, in the order ``python -m game --help`` lists them.
COMMANDS = (
    _run, _play, _replay, _expect, _list, _sweep, _tournament, _plot, _animate, _report, _ldim,
    _solve, _margin, _selfcheck,
)  # fmt: skip

#: The distribution the packages are installed from, and the console script's name.
DISTRIBUTION = "online-learning-games"


#: The signals that stop a command as Ctrl-C does.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(KeyboardInterrupt):
    """A signal stopped the command: a KeyboardInterrupt that names it.

    Examples
    --------
    >>> exc = Interrupted(signal.SIGTERM)
    >>> str(exc), exc.status
    ('interrupted by SIGTERM', 143)
    """

    def __init__(self, signum: int):
        self.signum = int(signum)
        super().__init__(f"interrupted by {signal.Signals(signum).name}")

    @property
    def status(self) -> int:
        """The exit status: 128 + the signal's number."""
        return 128 + self.signum


def _stop(signum: int, frame: object) -> None:
    """The handler of :data:`STOP_SIGNALS`: the first raises :class:`Interrupted`.

    A second signal while the command cleans up takes the default action
    (SIGINT: a plain KeyboardInterrupt; SIGTERM and SIGHUP: the end of the process).
    """
    for other in STOP_SIGNALS:
        signal.signal(
            other, signal.default_int_handler if other == signal.SIGINT else signal.SIG_DFL
        )
    raise Interrupted(signum)


@contextlib.contextmanager
def _signals_stop() -> Iterator[None]:
    """Within the block the stop signals raise :class:`Interrupted`; then handlers are restored.

    Only the main thread can set handlers; elsewhere the block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    for s in STOP_SIGNALS:
        signal.signal(s, _stop)
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def message(exc: BaseException) -> str:
    """The one line that reports ``exc``: its message, then its notes (where the file is).

    A transcript that did not finish names the command line's ``--allow-incomplete``.

    Examples
    --------
    >>> exc = GameError("out.jsonl: the disk is full")
    >>> exc.add_note("the transcript keeps 3 rounds")
    >>> message(exc)
    'out.jsonl: the disk is full; the transcript keeps 3 rounds'
    """
    unfinished = getattr(exc, "unfinished", None)
    if unfinished is not None:
        what, rounds = unfinished
        text = (
            f"{what}: the game did not finish; "
            f"pass --allow-incomplete to keep its {rounds} complete rounds"
        )
    else:
        text = str(exc) or "interrupted"
    return "; ".join([text, *getattr(exc, "__notes__", ())])


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
        with _signals_stop():
            return args.handler(args, output_console())
    except (ExpectationError, ReplayMismatch) as exc:
        print(f"failed: {message(exc)}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {message(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(message(exc), file=sys.stderr)
        return getattr(exc, "status", 128 + signal.SIGINT)


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
