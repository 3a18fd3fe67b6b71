"""The peak memory of a long game kept in memory, as a multiple of its instances' bytes.

Plays the Perceptron against ``SeparableStream`` (d = 100, 10⁶ rounds by
default) with the rounds in memory and no transcript file, in a fresh
interpreter (the game of ``benchmarks/streaming.py``), and samples the
process's anonymous memory (``RssAnon``) every 10 ms. The figure is the peak
less the memory before the game, divided by the bytes of the game's instances
(rounds × d × 8): what the record, the end of the game (digest, certificate,
bound) and every temporary cost on top of the instances themselves.
Target: at most 1.3×.

Run: ``python benchmarks/memory.py [--rounds N] [--dimension D]``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from rich.console import Console
from streaming import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--dimension", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        f = run(args.rounds, args.dimension, "memory", Path(folder), write=False)
    instances = args.rounds * args.dimension * 8
    used = f["anonymous"] - f["before"]
    Console().print(
        f"Perceptron vs SeparableStream, d = {args.dimension}, {args.rounds:,} rounds in memory: "
        f"peak {used / 1e6:,.0f} MB above the start for {instances / 1e6:,.0f} MB of instances, "
        f"{used / instances:.2f}× (target ≤ 1.3×); {args.rounds / f['seconds']:,.0f} rounds/s"
    )


if __name__ == "__main__":
    main()
