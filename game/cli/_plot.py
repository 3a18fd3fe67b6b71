"""``python -m game plot``: draw one figure of a transcript (needs the ``plot`` extra).

::

    python -m game plot TRANSCRIPT [--kind mistakes|regret|potential|tree] [--out FILE]
        [--force] [--allow-incomplete]

The kinds are :data:`game.viz.FIGURE_KINDS`; the figure is written beside the
transcript as ``NAME-KIND.png`` unless ``--out`` names a file (.png, .svg, .pdf).
An existing figure is replaced only with ``--force``, and the transcript never.
A transcript without its footer (a run that died) is drawn only with
``--allow-incomplete``, from its complete rounds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from game.cli._output import check_out
from game.transcript import Transcript
from game.viz import FIGURE_KINDS

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``plot`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "plot", help=f"draw a transcript: {', '.join(FIGURE_KINDS[:-1])} or {FIGURE_KINDS[-1]}"
    )
    p.add_argument("transcript", help="a transcript .jsonl")
    p.add_argument("--kind", default="mistakes", choices=FIGURE_KINDS, help="default mistakes")
    p.add_argument("--out", type=Path, help="figure file (default TRANSCRIPT-KIND.png)")
    p.add_argument("--force", action="store_true", help="replace an existing figure file")
    p.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="draw a transcript without its footer (a run that died) from its complete rounds",
    )
    return p


def run(args: argparse.Namespace, console: Console) -> int:
    """Draw the figure and say where it was written."""
    from game.viz.plots import figure_for, save_figure

    path = Path(args.transcript)
    out = args.out or path.with_name(f"{path.stem}-{args.kind}.png")
    check_out(out, force=args.force, inputs=[path])
    transcript = Transcript.load(path, allow_incomplete=args.allow_incomplete)
    written = save_figure(figure_for(transcript, args.kind), out)
    console.print(f"figure written to {written}", markup=False)
    return 0
