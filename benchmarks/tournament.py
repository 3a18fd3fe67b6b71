"""The built-in tournament: wall time at 1 and 2 workers, and the two tables compared.

Plays ``scenarios/tournaments/builtin.toml`` (``python -m game tournament
builtin``: the 13 built-in learners against every built-in adversary whose
instances they play, 5 seeds a pair) in this process (``workers=1``) and on a
pool of 2 processes, ``--repeats`` times each (best time kept), checks that
both tables hold the same games with the same outcomes (every column but wall
time) and prints the times, the speed-up and the target.

Run: ``python benchmarks/tournament.py [--repeats K] [--seeds SEEDS]``.
Target: under 120 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import time

from game.sweep import load_tournament

#: The target for the built-in tournament on 2 cores, in seconds.
TARGET = 120.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs of each (best kept)")
    parser.add_argument("--seeds", default=None, help="override the file's seeds (e.g. 0:20)")
    args = parser.parse_args()
    spec = load_tournament("builtin")
    best: dict[int, float] = {}
    results = {}
    for _ in range(args.repeats):
        for workers in (1, 2):
            start = time.perf_counter()
            results[workers] = spec.play(seeds=args.seeds, workers=workers)
            best[workers] = min(best.get(workers, float("inf")), time.perf_counter() - start)
    one, two = results[1], results[2]
    played = sum(p["status"] == "played" for p in one.pairs)
    unfit = sum(p["status"] == "unfit" for p in one.pairs)
    failed = sum(p["status"] == "failed" for p in one.pairs)
    print(
        f"built-in tournament: {len(one.learners)} learners × {len(one.adversaries)} adversaries; "
        f"{played} pairs played, {unfit} unfit, {failed} failed; {len(one)} games "
        f"({one.lockstep} in lockstep); {os.cpu_count()} cores here"
    )
    print(f"  workers 1: {best[1]:8.2f} s")
    print(f"  workers 2: {best[2]:8.2f} s   speed-up {best[1] / best[2]:.2f}×")
    same = one.matches(two)
    print(f"  tables identical at 1 and 2 workers (wall time aside): {same}")
    verdict = "met" if best[2] < TARGET else "MISSED"
    print(f"  target: under {TARGET:.0f} s on 2 workers: {verdict} ({best[2] / TARGET:.3f} of it)")
    if not same:
        raise SystemExit("the tables differ")


if __name__ == "__main__":
    main()
