"""``python -m game animate``: a transcript as an animation (needs the ``plot`` extra).

::

    python -m game animate TRANSCRIPT [--out FILE] [--kind perceptron|halving|tree|weights]
        [--fps N] [--max-frames N] [--dpi N] [--force] [--allow-incomplete]

The kinds are :data:`game.viz.ANIMATION_KINDS`; without ``--kind`` the
first that fits the game (:func:`game.viz.animations.animations_for`). The file
is written beside the transcript as ``NAME-KIND.gif`` unless ``--out`` names one
(``.gif``, or ``.mp4`` when ffmpeg is installed). As for ``plot``: an existing
file is replaced only with ``--force``, the transcript never, and a transcript
without its footer is animated only with ``--allow-incomplete``. A game longer
than ``--max-frames`` rounds is shown at evenly spaced rounds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from game.cli._output import check_out
from game.errors import GameError
from game.transcript import Transcript
from game.viz import ANIMATION_FORMATS, ANIMATION_KINDS

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``animate`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "animate", help="animate a transcript: " + ", ".join(ANIMATION_KINDS) + " (GIF or MP4)"
    )
    p.add_argument("transcript", help="a transcript .jsonl")
    p.add_argument(
        "--kind", choices=ANIMATION_KINDS, help="the animation (default: the first that fits)"
    )
    p.add_argument("--out", type=Path, help="a .gif or .mp4 file (default TRANSCRIPT-KIND.gif)")
    p.add_argument("--fps", type=float, default=4.0, help="frames per second (default 4)")
    p.add_argument(
        "--max-frames", type=int, default=60, help="the most frames; longer games are sampled"
    )
    p.add_argument("--dpi", type=int, default=80, help="dots per inch (default 80)")
    p.add_argument("--force", action="store_true", help="replace an existing animation file")
    p.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="animate a transcript without its footer (a run that died) from its complete rounds",
    )
    return p


def run(args: argparse.Namespace, console: Console) -> int:
    """Write the animation and say where."""
    from game.viz.animations import animate, animations_for

    path = Path(args.transcript)
    if args.out is not None and args.out.suffix.lower() not in ANIMATION_FORMATS:
        raise GameError(f"--out {args.out}: expected a .gif or .mp4 file")
    check_out(args.out, force=args.force, inputs=[path])
    transcript = Transcript.load(path, allow_incomplete=args.allow_incomplete)
    kind = args.kind
    if kind is None:
        fitting = animations_for(transcript)
        if not fitting:
            learner = (transcript.header.get("learner") or {}).get("name", "?")
            raise GameError(
                f"{path}: no animation fits this game of {learner}; expected a Perceptron on "
                "2-D instances (perceptron), Halving on experts (halving), a walk down a "
                "Littlestone tree (tree) or Weighted Majority or Exponential Weights on experts "
                "(weights)"
            )
        kind = fitting[0]
    out = args.out or path.with_name(f"{path.stem}-{kind}.gif")
    check_out(out, force=args.force, inputs=[path])
    try:
        written = animate(
            transcript, out, kind=kind, fps=args.fps, dpi=args.dpi, max_frames=args.max_frames
        )
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    console.print(f"animation written to {written}", markup=False)
    return 0
