"""The memory of a long game with its rounds on disk, beside the same game in memory.

Plays the Perceptron against ``SeparableStream`` (d = 100 by default) with
``keep="disk"`` and a transcript file, each game in a fresh interpreter, and
samples the process's memory every 10 ms while it runs:

- ``anonymous``: the peak of ``RssAnon`` (``/proc/self/status``), the memory
  the game holds itself: what cannot be given back without swapping;
- ``resident``: the peak resident set (``VmHWM``), which also counts the pages
  of the mapped column files the operating system keeps in its file cache and
  gives back whenever memory is needed.

The same game with ``keep="memory"`` is played at the smallest length, for
comparison, and the ratio of the two modes' rounds per second is printed. The
figure the streaming mode is for: the anonymous peak stays flat as the rounds
grow tenfold.

Run: ``python benchmarks/streaming.py [--rounds 100000 1000000 10000000] [--dimension 100]
[--no-out]`` (10⁷ rounds at d = 100 write about 8 GB of columns and 22 GB of
transcript, about three minutes a million rounds with the transcript, one
without: writing JSON Lines is most of a round's cost).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

#: The game, run in a fresh interpreter: prints one JSON line of its figures.
GAME = r"""
import json, os, sys, threading, time
import numpy as np
from adversaries import SeparableStream
from game import play
from learners import Perceptron

rounds, dimension, keep, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
peak = {"RssAnon": 0, "VmHWM": 0}
done = threading.Event()

def status():
    with open("/proc/self/status") as f:
        return {k: int(v.split()[0]) * 1024 for k, v in (l.split(":", 1) for l in f) if k in peak}

def sample():
    while not done.wait(0.01):
        for k, v in status().items():
            peak[k] = max(peak[k], v)

threading.Thread(target=sample, daemon=True).start()
before = status()
stream = SeparableStream(dimension=dimension, margin=0.1, radius=1.0, rng=np.random.default_rng(0))
start = time.perf_counter()
tr = play(Perceptron(), stream, rounds=rounds, out=out if out != "-" else None, keep=keep)
digest = tr.digest
seconds = time.perf_counter() - start
done.set()
for k, v in status().items():
    peak[k] = max(peak[k], v)
print(json.dumps({
    "anonymous": peak["RssAnon"], "resident": peak["VmHWM"], "before": before["RssAnon"],
    "seconds": seconds, "mistakes": int(tr.summary()["mistakes"]), "digest": digest,
    "file": os.path.getsize(out) if out != "-" else 0,
}))
"""


def run(rounds: int, dimension: int, keep: str, folder: Path, write: bool) -> dict:
    """One game in a fresh interpreter (its transcript written if ``write``); its figures."""
    out = folder / f"{keep}-{rounds}.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", GAME, str(rounds), str(dimension), keep, str(out) if write else "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    out.unlink(missing_ok=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--dimension", type=int, default=100)
    parser.add_argument("--folder", type=Path, help="where the transcripts go (default: a temp)")
    parser.add_argument(
        "--no-out", action="store_true", help="write no transcript (the columns still go to disk)"
    )
    args = parser.parse_args()
    table = Table(title=f"Perceptron vs SeparableStream, d = {args.dimension}")
    for column in ("rounds", "keep", "anonymous peak", "resident peak", "rounds/s", "file"):
        table.add_column(column, justify="right")
    mb = 1e6
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        games = [(min(args.rounds), "memory")] + [(n, "disk") for n in args.rounds]
        speeds = {}
        for rounds, keep in games:
            f = run(rounds, args.dimension, keep, Path(folder), not args.no_out)
            speeds.setdefault(rounds, {})[keep] = rounds / f["seconds"]
            table.add_row(
                f"{rounds:,}",
                keep,
                f"{f['anonymous'] / mb:,.0f} MB",
                f"{f['resident'] / mb:,.0f} MB",
                f"{rounds / f['seconds']:,.0f}",
                f"{f['file'] / mb:,.0f} MB",
            )
    console = Console()
    console.print(table)
    first = min(args.rounds)
    ratio = speeds[first]["disk"] / speeds[first]["memory"]
    console.print(f"rounds/s on disk / in memory at {first:,} rounds: {ratio:.2f}×")


if __name__ == "__main__":
    main()
