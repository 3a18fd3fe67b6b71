"""``python -m game tournament``: every learner against every adversary that fits, over seeds.

::

    python -m game tournament FILE.toml [--seeds 0:5] [--workers N]
        [--out results.csv|.parquet] [--plot heat.png|.svg|.pdf]
        [--quantity mistakes|regret|ratio] [--force]

FILE is a tournament ``.toml`` file (:mod:`game.sweep`, ``load_tournament``)
or a built-in tournament's name (``builtin``: the 13 built-in learners against
every built-in adversary they fit).

Prints one table row per pair played (mean mistakes, mean regret in expert
games, what the bound counts ÷ the bound where one applies, games over the
bound), then the pairs not played: the unfit ones (no instance kind in
common), by learner, and the failed ones, each with its one-line reason.
``--out`` writes every game's row (and one row per pair not played);
``--plot`` draws the heat map of ``--quantity``.

Every option is checked before the first game: a bad ``--seeds``, an ``--out``
that is not a ``.csv`` or ``.parquet`` file, a ``--plot`` that is not a
``.png``, ``.svg`` or ``.pdf`` file, an existing file without ``--force``, a
bad tournament file each end in one line with exit 2. A game over its bound,
a game ended by an error or a pair that failed exits with 1; Ctrl-C keeps
(and writes) every finished game and exits with 130.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.cli._output import check_out, progress_wanted
from game.cli._sweep import check_results_out
from game.errors import GameError, ParameterError
from game.sweep import QUANTITIES, TournamentResult, load_tournament, parse_seeds

__all__ = ["add_parser", "run", "tournament_table"]

_FIGURES = (".png", ".svg", ".pdf")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``tournament`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "tournament", help="play every learner against every adversary that fits, over seeds"
    )
    p.add_argument("file", help="a tournament .toml file or a built-in tournament's name")
    p.add_argument("--seeds", help="override the file's seeds: N, A:B, A:B:STEP or a comma list")
    p.add_argument("--workers", type=int, help="processes of the local pool (default: cores)")
    p.add_argument("--out", type=Path, help="write every game's row to a .csv or .parquet file")
    p.add_argument("--plot", type=Path, help="draw the heat map to a .png, .svg or .pdf file")
    p.add_argument(
        "--quantity",
        default="mistakes",
        choices=QUANTITIES,
        help="what the heat map shows per pair (default mistakes)",
    )
    p.add_argument("--force", action="store_true", help="replace existing --out and --plot files")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress bar")
    shown.add_argument(
        "--progress", action="store_true", help="a progress bar even when not on a terminal"
    )
    return p


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return str(value)


def tournament_table(result: TournamentResult, title: str | None = None) -> Table:
    """A rich table of the pairs played and failed: one row each, in pair order.

    Examples
    --------
    >>> import game
    >>> r = game.tournament(["perceptron", "halving"], {"separable-stream": {"dimension": 2,
    ...     "margin": 0.2}}, seeds=2, rounds=30, workers=1)
    >>> table = tournament_table(r)
    >>> [c.header for c in table.columns][:4], table.row_count
    (['learner', 'adversary', 'games', 'mistakes'], 1)
    """
    table = Table(
        title=None if title is None else Text(title, style="table.title"),
        title_justify="left",
        caption=(
            "mistakes, regret: means per game (regret: expert games); bound ratio: what the "
            "bound counts ÷ the bound, mean and max (where the bound applies); over: games "
            "over their bound"
        ),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("learner", no_wrap=True)
    table.add_column("adversary", no_wrap=True)
    table.add_column("games", justify="right", no_wrap=True)
    table.add_column("mistakes", justify="right", no_wrap=True)
    table.add_column("regret", justify="right", no_wrap=True)
    table.add_column("bound ratio", justify="right", no_wrap=True)
    table.add_column("over", justify="right", no_wrap=True)
    table.add_column("errors / reason", overflow="fold")
    for s in result.summary():
        if s["status"] == "unfit":
            continue
        learner, adversary = Text(s["learner"]), Text(s["adversary"])
        if s["status"] == "failed":
            table.add_row(
                learner, adversary, "—", "—", "—", "—", "—", Text(f"failed: {s['reason']}", "red")
            )
            continue
        ratio = (
            "—"
            if s["ratio_mean"] is None
            else f"{_fmt(s['ratio_mean'])} (max {_fmt(s['ratio_max'])})"
        )
        over = f"[red]{s['violations']}[/]" if s["violations"] else "[green]0[/]"
        errors = f"[red]{s['errors']} games ended with an error[/]" if s["errors"] else ""
        table.add_row(
            learner,
            adversary,
            str(s["games"]),
            _fmt(s["mistakes_mean"], 4),
            _fmt(s["regret_mean"], 4),
            ratio,
            over,
            errors,
        )
    return table


def _unfit_lines(result: TournamentResult) -> list[str]:
    by_learner: dict[str, list[str]] = {}
    for p in result.pairs:
        if p["status"] == "unfit":
            by_learner.setdefault(p["learner"], []).append(p["adversary"])
    return [f"{learner} × {', '.join(adv)}" for learner, adv in by_learner.items()]


def _check_plot(path: Path | None, force: bool, inputs: list) -> None:
    if path is None:
        return
    if path.suffix.lower() not in _FIGURES:
        raise GameError(f"--plot must be a {', '.join(_FIGURES)} file, got {str(path)!r}")
    check_out(path, force=force, inputs=inputs, flag="--plot")
    from game.viz.plots import require_matplotlib

    require_matplotlib()


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the tournament, write what was asked and print its table; the exit status."""
    spec = load_tournament(args.file)
    inputs = [spec.source]
    check_results_out(args.out)
    check_out(args.out, force=args.force, inputs=inputs)
    _check_plot(args.plot, args.force, inputs)
    if args.out is not None and args.plot is not None and args.out == args.plot:
        raise GameError(f"--out and --plot name the same file {str(args.out)!r}")
    seeds = None
    if args.seeds is not None:
        try:
            seeds = parse_seeds(args.seeds)
        except ParameterError as exc:
            raise exc.renamed("--seeds") from None
    try:
        result = spec.play(seeds=seeds, workers=args.workers, progress=progress_wanted(args))
    except ParameterError as exc:
        names = {"workers": "--workers", "seeds": "--seeds"}
        raise exc.renamed(names.get(exc.parameter, exc.parameter)) from None
    if args.out is not None:
        result.save(args.out, overwrite=args.force)
    written = None
    if args.plot is not None and any(p["status"] == "played" for p in result.pairs):
        from game.viz.plots import plot_tournament, save_figure

        written = save_figure(plot_tournament(result, args.quantity), args.plot)
    played = sum(p["status"] == "played" for p in result.pairs)
    title = (
        f"{args.file}: {len(result.learners)} learners × {len(result.adversaries)} adversaries, "
        f"{played} pairs played, {len(result)} games"
    )
    console.print(tournament_table(result, title=title))
    unfit = _unfit_lines(result)
    if unfit:
        count = sum(p["status"] == "unfit" for p in result.pairs)
        console.print(
            Text.assemble(
                ("unfit", "yellow"),
                f": {count} pairs not played (no instance kind in common):",
            ),
            soft_wrap=True,
        )
        for line in unfit:
            console.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)
    for p in result.pairs:
        if p["status"] == "failed":
            line = f": {p['learner']} × {p['adversary']}: {p['reason']}"
            console.print(Text.assemble(("failed", "red"), line), soft_wrap=True)
    for row in result.errors()[:20]:
        line = f": {row['learner']} × {row['adversary']}, seed {row['seed']}: {row['reason']}"
        console.print(Text.assemble(("error", "red"), line), soft_wrap=True)
    for row in result.violations()[:20]:
        line = (
            f": {row['learner']} × {row['adversary']}, seed {row['seed']}: "
            f"{row['bound_quantity']} over the bound {_fmt(row['bound'], 6)}"
        )
        console.print(Text.assemble(("over the bound", "red"), line), soft_wrap=True)
    if args.out is not None:
        console.print(
            f"results written to {args.out}", markup=False, highlight=False, soft_wrap=True
        )
    if written is not None:
        console.print(f"heat map written to {written}", markup=False, highlight=False)
    if result.interrupted:
        console.print(
            f"[yellow]interrupted[/]: {len(result)} of {result.requested} games finished and kept"
        )
        return 130
    failed = any(p["status"] == "failed" for p in result.pairs)
    return 1 if result.violations() or result.errors() or failed else 0
