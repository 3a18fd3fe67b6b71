"""What every command shares: where it prints, and the progress bar of a game's rounds.

A command prints its result on :func:`output_console`. Progress goes to
standard error, and only when asked for or on a terminal.
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console

__all__ = ["RoundsBar", "output_console", "rounds_bar"]


def output_console() -> Console:
    """The console a command prints its result on: standard output."""
    return Console()


class RoundsBar:
    """A rich progress bar of a game's rounds with rounds per second, on standard error.

    Used as the ``progress`` callback of :func:`game.play`. It appears only once
    the game has run for about a second, and only when ``enabled``.

    Examples
    --------
    >>> bar = RoundsBar("a game", enabled=False)
    >>> bar(500, 1000)  # disabled: draws nothing
    >>> bar.close()
    """

    def __init__(self, label: str, enabled: bool, delay: float = 1.0):
        self.label, self.enabled, self.delay = label, enabled, delay
        self.start = time.perf_counter()
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if self.bar is None:
            if elapsed < self.delay:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("rounds, {task.fields[rate]:,.0f} rounds/s"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, rate=0.0)
        self.bar.update(self.task, completed=done, rate=done / max(elapsed, 1e-9))

    def close(self) -> None:
        """Stop the bar (it stays on screen with its last count, as the total)."""
        if self.bar is not None:
            done = self.bar.tasks[0].completed
            self.bar.update(self.task, total=done, completed=done)
            self.bar.stop()
            self.bar = None


def rounds_bar(args: Any, label: str) -> RoundsBar:
    """The bar ``--progress`` asks for and ``--quiet`` turns off; by default on a terminal."""
    quiet = getattr(args, "quiet", False)
    wanted = getattr(args, "progress", False) or Console(stderr=True).is_terminal
    return RoundsBar(label, enabled=wanted and not quiet)
