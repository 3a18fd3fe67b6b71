"""``python -m game selfcheck``: the conformance suite over the registry and a fuzz pass.

::

    python -m game selfcheck [--scenarios DIR] [--seconds S] [--seed N]

The scenarios that tell how to build each adversary are the built-in ones
(installed with the package, so every built-in player is checked from any
folder) unless ``--scenarios`` names a folder; a folder that is not one, or
holds no scenario, is refused with one line and exit 2. Prints the players
checked, the checks run and passed, and how many malformed scenarios and
damaged transcripts got the right answer, and the corpus of hostile inputs
counted by class and by outcome (clean, traceback, hang, silent, wrong; see
:func:`game.testing.selfcheck`), then every player skipped and why, and every
failure; exits with 1 when anything failed (a corpus case that was not clean
included), and with 2 (one line naming the option) for a bad option.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.errors import ParameterError

__all__ = ["add_parser", "run"]

#: How the table names each class of hostile input and each outcome.
_KINDS = {
    "scenario": "scenario files",
    "data": "data files",
    "transcript": "transcripts",
    "argument": "command-line arguments",
    "name": "player and scenario names",
    "player": "user-written players",
}
_VERDICTS = {
    "clean": "clean: one line, the right exit status",
    "traceback": "tracebacks",
    "hang": "hangs",
    "silent": "silently accepted",
    "wrong": "refused wrongly",
}

#: selfcheck's parameters by the options that give them.
_OPTIONS = {"folder": "--scenarios", "seconds": "--seconds", "seed": "--seed"}


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``selfcheck`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "selfcheck", help="conformance checks of every player and a fuzz pass"
    )
    p.add_argument(
        "--scenarios", metavar="DIR", help="a folder of scenarios (default: the built-in ones)"
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="fuzz pass duration in seconds, 0 to 86400 (default 3)",
    )
    p.add_argument("--seed", type=int, default=0, help="fuzzer seed")
    return p


def run(args: argparse.Namespace, console: Console) -> int:
    """Run the checks and the fuzz pass, print the counts; 1 when anything failed."""
    from game.testing import selfcheck

    try:
        report = selfcheck(args.scenarios, seconds=args.seconds, seed=args.seed, cli=args.entry)
    except ParameterError as exc:  # named as the command line spells it
        raise exc.renamed(_OPTIONS.get(exc.parameter, exc.parameter)) from None
    table = Table(title="selfcheck", show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    table.add_row("players checked", str(report.players))
    table.add_row("checks run", str(report.checks_run))
    table.add_row("checks passed", str(report.checks_run - report.checks_failed))
    table.add_row("malformed scenarios tried", str(report.scenarios_tried))
    table.add_row("  refused with the right ScenarioError", str(report.scenarios_refused))
    table.add_row("damaged transcripts tried", str(report.transcripts_tried))
    table.add_row("  answered rightly", str(report.transcripts_right))
    outcomes = report.corpus.outcomes
    table.add_row("hostile inputs tried", str(len(outcomes)))
    for kind, count in report.corpus.by_kind().items():
        table.add_row(f"  {_KINDS[kind]}", str(count))
    for verdict, count in report.corpus.by_verdict().items():
        table.add_row(f"  {_VERDICTS[verdict]}", str(count))
    console.print(table)
    for name, why in report.skipped.items():
        console.print(f"skipped {name}: {why}", markup=False)
    for message in report.failures + report.fuzz_failures[:20] + report.corpus.failures:
        console.print(Text.assemble(("FAIL", "red"), " ", message), highlight=False)
    return 0 if report.ok else 1
