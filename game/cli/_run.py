"""``python -m game run``: play a scenario, print its summary, write its transcript.

::

    python -m game run SCENARIO [--out FILE | --no-out] [--force] [--seed N] [--rounds N]
        [--snapshots] [--plot FILE] [--plot-kind KIND] [--quiet | --progress]
        [--keep memory|disk]

SCENARIO is a ``.toml`` file or a built-in scenario's name
(``python -m game run perceptron-separable``, from any folder). The summary is
:func:`game.viz.summary_entries` drawn as a rich table; the transcript goes to
``runs/NAME.jsonl`` (NAME: the scenario file's stem) unless told otherwise. An
existing transcript (or ``--plot`` figure) is replaced only with ``--force``,
and a file the game reads (the scenario, its data) never: the command refuses
before the game starts. The transcript is written to a temporary file beside
it and renamed when the game ends; an interrupted or failed game keeps its
complete rounds, marked aborted (see :func:`game.play`). A scenario's
``[expect]`` table is checked after the game (exactly only without ``--seed``
or ``--rounds``): a failure exits with 1 after the summary is printed.

A game whose rounds would take more than half the available memory keeps
them on disk as it plays (``keep="disk"`` of :func:`game.play`, beside the
transcript), so its memory stays what the players hold; ``--keep`` chooses.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.cli._output import check_out, rounds_bar, scenario_inputs
from game.engine import KEEP
from game.errors import ExpectationError
from game.scenario import load_scenario
from game.transcript import Transcript
from game.viz import FIGURE_KINDS, SummaryRow, format_value, summary_entries

__all__ = ["add_parser", "run", "summary_table"]

_RUNS = Path("runs")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``run`` command to an argparse subparsers object."""
    p = subparsers.add_parser("run", help="play a scenario and print its summary")
    p.add_argument("scenario", help="a scenario .toml file or a built-in scenario's name")
    p.add_argument("--out", type=Path, help="transcript file (default runs/NAME.jsonl)")
    p.add_argument("--no-out", action="store_true", help="write no transcript")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing --out or --plot file (never a file the game reads)",
    )
    p.add_argument("--seed", type=int, help="override the scenario's seed")
    p.add_argument("--rounds", type=int, help="override the scenario's rounds")
    p.add_argument("--snapshots", action="store_true", help="log the learner's snapshots")
    p.add_argument("--plot", type=Path, metavar="FILE", help="write a figure (.png, .svg, .pdf)")
    p.add_argument(
        "--plot-kind",
        default="mistakes",
        choices=FIGURE_KINDS,
        help="the figure (default mistakes)",
    )
    p.add_argument(
        "--keep",
        choices=KEEP,
        help="keep the rounds in memory or on disk while the game runs (default: on disk "
        "when they would take over half the available memory)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--progress", action="store_true", help="a progress bar even when not on a terminal"
    )
    return p


def _cell(row: SummaryRow) -> Text:
    text = Text() if row.value is None else Text(format_value(row.value))
    if row.verdict is not None:
        style = "" if row.ok is None else ("green" if row.ok else "red")
        text.append("  " if text else "").append(row.verdict, style=style)
    if not text:
        text.append("—")
    if row.note is not None:
        text.append("\n").append(row.note, style="dim")
    return text


def summary_table(transcript: Transcript, title: str | None = None) -> Table:
    """A rich table of a game's summary (:func:`~game.viz.summary_entries`).

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> from learners.experts import Halving
    >>> game = play(Halving(), HalvingLowerBound(experts=8), rounds=10)
    >>> table = summary_table(game, title="Halving against the balanced adversary")
    >>> for label, cell in zip(table.columns[0].cells, table.columns[1].cells):
    ...     print(f"{label:>20}  {cell}")  # doctest: +ELLIPSIS
                 learner  halving
               adversary  halving-lower-bound
                  rounds  3
                mistakes  3
                 updates  3
         loss (zero-one)  3
                   bound  mistakes ≤ 3  holds
                 theorem  mistakes ≤ log₂ N = log₂ 8 when a perfect expert exists
    Abernethy lecture 16 (seed 004), Theorem 16.1
             lower bound  mistakes ≥ 3  forced
    Abernethy lecture 16 (seed 004), §16.1.2, ...
             certificate  expert 0 of 8 (realizable)
    certificate verified  yes
                  status  complete
               wall time  ... s
                  digest  sha256:...
    """
    shown = None if title is None else Text(title, style="table.title")
    table = Table(title=shown, show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")  # a digest is never cut short
    for row in summary_entries(transcript):
        table.add_row(row.label, _cell(row))
    return table


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the scenario, print its summary and check its expectations; the exit status."""
    scenario = load_scenario(args.scenario)
    stem = scenario.source.stem
    out = None if args.no_out else (args.out or _RUNS / f"{stem}.jsonl")
    inputs = scenario_inputs(scenario)
    check_out(out, force=args.force, inputs=inputs)
    check_out(args.plot, force=args.force, inputs=[*inputs, *([out] if out else [])], flag="--plot")
    snapshots = args.snapshots or (args.plot is not None and args.plot_kind == "potential") or None
    bar = rounds_bar(args, stem)
    try:
        transcript = scenario.play(
            seed=args.seed,
            rounds=args.rounds,
            out=out,
            overwrite=args.force,
            snapshots=snapshots,
            check=False,
            progress=bar if bar.enabled else None,
            keep=args.keep,
        )
    finally:
        bar.close()
    exact = args.seed is None and args.rounds is None
    failures = scenario.check(transcript, exact=exact)
    title = scenario.description or str(args.scenario)
    console.print(summary_table(transcript, title=title))
    if out is not None:
        console.print(f"transcript written to {out}", markup=False)
    if args.plot is not None:
        from game.viz.plots import figure_for, save_figure

        written = save_figure(figure_for(transcript, args.plot_kind), args.plot)
        console.print(f"figure written to {written}", markup=False)
    if failures:
        raise ExpectationError(f"{args.scenario}: " + "; ".join(failures))
    if scenario.expect:
        console.print("[green]every expectation holds[/]")
    return 0
