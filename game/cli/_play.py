"""``python -m game play``: a person plays one side of a scenario at the terminal.

::

    python -m game play SCENARIO --as learner|adversary [--out FILE] [--force]
        [--seed N] [--rounds N] [--size N]

SCENARIO is a ``.toml`` file or a built-in scenario's name. The side named by
``--as`` is played by the person (:class:`game.HumanLearner` or
:class:`game.HumanAdversary` at the terminal), the other as the scenario
says. Each round shows what the theory says that side sees and reads the
person's move; a bad move is asked again with the reason. As the learner:
the instance, the version space or the experts consistent so far, and the
mistakes; type ``+`` or ``-`` (or a number in [-1, 1] when the loss is not
zero-one). As the adversary: type the instance (a point's index, bits like
``0110``, a vector like ``0.5, -1``, advice like ``+ - +``; an empty line or
``q`` ends the game), see the prediction, type the label. With a finite
class the labels must stay realizable, and the certificate is a consistent
hypothesis. ``--size`` sets the number of entries a human adversary's
vectors, bits or advice have (default: as the scenario's adversary's).

At the end the game's summary is printed (the table ``python -m game run`` prints)
and one line says what the theory says of it: as the learner, the lower
bound the adversary claimed and the mistakes it forced; as the adversary,
the certificate, the referee's check of it and the learner's bound.

The transcript goes to ``runs/NAME-as-SIDE.jsonl`` unless ``--out`` says
otherwise (replaced only with ``--force``); Ctrl-C or the end of the input
(Ctrl-D) at a learner's prompt stops the game, the finished rounds kept and
the footer marked aborted (exit status 130). ``python -m game replay FILE``
re-plays it from the recorded moves to the same digest.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from game.cli._output import check_out, scenario_inputs
from game.cli._run import summary_table
from game.scenario import load_scenario

__all__ = ["add_parser", "run"]

_RUNS = Path("runs")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``play`` command to an argparse subparsers object."""
    p = subparsers.add_parser("play", help="play one side of a scenario yourself")
    p.add_argument("scenario", help="a scenario .toml file or a built-in scenario's name")
    p.add_argument(
        "--as",
        dest="side",
        required=True,
        choices=("learner", "adversary"),
        help="the side you play",
    )
    p.add_argument("--out", type=Path, help="transcript file (default runs/NAME-as-SIDE.jsonl)")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument("--seed", type=int, help="override the scenario's seed")
    p.add_argument("--rounds", type=int, help="override the scenario's rounds")
    p.add_argument(
        "--size",
        type=int,
        help="entries of the vectors, bits or advice you enter as the adversary",
    )
    return p


def run(args: argparse.Namespace, console: Console) -> int:
    """Seat the person, play the game, print its summary; the exit status."""
    from game.human import (
        HumanAdversary,
        HumanLearner,
        TerminalSeat,
        at_the_table,
        human_scenario,
        verdict,
    )

    scenario = load_scenario(args.scenario)
    side = args.side
    out = args.out or _RUNS / f"{scenario.source.stem}-as-{side}.jsonl"
    check_out(out, force=args.force, inputs=scenario_inputs(scenario))
    if args.size is not None and args.size < 1:
        from game.errors import ParameterError

        raise ParameterError("--size", args.size, "a positive integer")
    with at_the_table(TerminalSeat(console)):
        game = human_scenario(scenario, side, size=args.size)
        other = "adversary" if side == "learner" else "learner"
        other_name = game.spec[other]["name"]
        console.print(
            f"You play the [bold]{side}[/] against [bold]{other_name}[/]"
            + (f": {scenario.description}" if scenario.description else "")
            + ".\n"
            + (HumanLearner if side == "learner" else HumanAdversary).__doc__.splitlines()[0]
            + " Ctrl-C stops the game and keeps the transcript.",
            highlight=False,
        )
        transcript = game.play(
            seed=args.seed, rounds=args.rounds, out=out, overwrite=args.force, check=False
        )
    title = f"{scenario.description or args.scenario} — you as the {side}"
    console.print(summary_table(transcript, title=title))
    console.print(verdict(transcript, side), highlight=False)
    console.print(f"transcript: {out}", highlight=False, soft_wrap=True)
    return 0
