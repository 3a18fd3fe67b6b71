"""``python -m game report``: play every scenario of a folder into one HTML page.

::

    python -m game report [SCENARIO_DIR] [--out report.html] [--force] [--rounds N]
        [--format png|svg] [--figures mistakes,regret,...] [--quiet]

Without a folder it plays the installed gallery, the built-in scenarios
(:func:`game.builtin_scenarios`), from any folder. Each scenario gets its
summary, its rounds and the figures that apply to it (of
:data:`game.viz.FIGURE_KINDS`, all by default). On a terminal the scenario
being played and a bar of its rounds show on standard error. A negative
``--rounds`` is refused before any game is played (exit 2). An existing
``--out`` is replaced only with ``--force``, and a file of the folder's
scenarios (a scenario, its data) never: the command refuses before any game.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from game.cli._output import check_out, scenario_inputs
from game.engine import RoundsBar
from game.errors import GameError, check_integer
from game.scenario import builtin_scenarios, load_scenario
from game.viz import FIGURE_KINDS

__all__ = ["add_parser", "run"]


class _Latest:
    """The progress of the game playing now: the last of ``bars``, its rounds and end steps."""

    def __init__(self, bars: list[RoundsBar]):
        self.bars = bars

    def __call__(self, done: int, total: int) -> None:
        self.bars[-1](done, total)

    def step(self, text: str | None) -> None:
        self.bars[-1].step(text)


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``report`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "report", help="play every scenario of a folder (or the built-in ones) into one HTML page"
    )
    p.add_argument(
        "folder", nargs="?", help="a folder of scenario .toml files (default: the built-in ones)"
    )
    p.add_argument("--out", type=Path, default=Path("report.html"), help="the HTML file")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument("--rounds", type=int, help="play each game for at most N rounds")
    p.add_argument("--format", default="png", choices=("png", "svg"), help="figures as")
    p.add_argument(
        "--figures",
        default=",".join(FIGURE_KINDS),
        help="comma-separated figures to draw where they apply (default all)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress (scenario names, bars)")
    return p


def run(args: argparse.Namespace, console: Console) -> int:
    """Write the report and say where."""
    from game.viz.report import write_report

    if args.rounds is not None:  # refused before any game, naming the option
        check_integer("--rounds", args.rounds, low=0)
    quiet = args.quiet or not Console(stderr=True).is_terminal
    bars: list[RoundsBar] = []

    def announce(name: str, index: int, count: int) -> None:
        if bars:
            bars.pop().close()
        if not quiet:
            Console(stderr=True).print(f"[{index + 1}/{count}] {name}", highlight=False)
            bars.append(RoundsBar(name, enabled=True))

    figures = [f.strip() for f in args.figures.split(",") if f.strip()]
    folder, only = args.folder, None
    if folder is None:  # the installed gallery: every built-in scenario, by its file's name
        gallery = builtin_scenarios()
        only = [path.stem for path in gallery.values()]
        folder = next(iter(gallery.values())).parent
    check_out(args.out, force=args.force, inputs=_inputs(Path(folder)))
    try:
        out = write_report(
            folder,
            args.out,
            only=only,
            rounds=args.rounds,
            fmt=args.format,
            figures=figures,
            on_scenario=announce,
            progress=None if quiet else _Latest(bars),
        )
    finally:
        for bar in bars:
            bar.close()
    console.print(f"report written to {out}", markup=False)
    return 0


def _inputs(folder: Path) -> list[Path]:
    """The files a report of ``folder`` reads: its scenarios and their data files.

    A scenario that cannot be loaded adds only its own file (the report names its error).
    """
    found: list[Path] = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        try:
            found += scenario_inputs(load_scenario(path))
        except GameError:
            found.append(path)
    return found
