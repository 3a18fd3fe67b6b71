"""Sweeps at scale: game-rounds per second, serial, on a process pool, in lockstep, on Dask.

One scenario, the Perceptron against ``SeparableStream`` (d = 100, margin
0.1, 1,000 rounds), over 1,000 seeds, timed side by side in one run:

- *serial*: a Python loop of ``Scenario.play(seed=s)``;
- *sweep, pool of 2, engine*: ``game.sweep`` on two worker processes, every
  game through ``game.play`` (``lockstep=False``);
- *play_batch, this process*: the games in lockstep (``game.play_batch``);
- *sweep, pool of 2, lockstep*: the default sweep, lockstep within chunks;
- *sweep, Dask LocalCluster of 2*: the same two sweeps through
  ``distributed.Client(cluster).get_executor()`` (the cluster is started
  before the clock, its workers without Dask's ``MALLOC_TRIM_THRESHOLD_``:
  see ``NO_MALLOC_TRIM``);
- *streams' draws alone*: only drawing every game's examples
  (``SeparableStream.examples``), which every way of playing the games must
  do: the floor under the lockstep time;
- *Gaussians alone*: only building every game and drawing from its own
  generator the standard normals its examples are made of (d per round, in
  blocks of 256): no way of playing these games, lockstep or other, can be
  faster, since each game's numbers come from its own generator. Serial time
  over this time is the ceiling of any speed-up;
- *Replay*: every game replays one sequence drawn beforehand, serially and in
  lockstep: the referee's and the learner's own work, without the drawing.

The methods run interleaved, ``--repeats`` times (best time kept), and every
method's games are checked equal to the serial loop's.
Run: ``python benchmarks/sweep.py [--seeds N] [--rounds N] [--dimension D] [--repeats K]
[--no-dask]``.
Targets: pool ≥ 1.7× serial on 2 cores; lockstep ≥ 10× serial; Dask within
1.5× of the pool.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

import game
from adversaries import Replay
from adversaries.blocks import BLOCK
from game.scenario import scenario_from_dict
from learners import Perceptron

#: Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which turns off glibc's
#: adaptive mmap threshold: every numpy temporary over 128 KiB (a stream's 256 × 100 block)
#: is then mapped and faulted in afresh, slowing these games by a third or more. Unset it.
NO_MALLOC_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


def scenario(dimension: int, rounds: int) -> game.Scenario:
    """The benchmark's scenario (not a file: built from a dict)."""
    spec = {
        "rounds": rounds,
        "seed": 0,
        "learner": {"name": "perceptron"},
        "adversary": {"name": "separable-stream", "dimension": dimension, "margin": 0.1},
    }
    return scenario_from_dict(spec, source=Path(__file__).with_name("sweep.toml"))


def methods(sc, seeds: list[int], rounds: int, executor) -> dict:
    """Each method: a function playing every game and returning the mistakes per game."""

    def serial():
        return [sc.play(seed=s, check=False).observed("mistakes") for s in seeds]

    def batch():
        players = [sc.build(s) for s in seeds]
        games = game.play_batch([p[0] for p in players], [p[1] for p in players], rounds=rounds)
        return [g.observed("mistakes") for g in games]

    def draws():
        for s in seeds:
            sc.build(s)[1].examples(rounds)

    def gaussians():
        for s in seeds:
            stream = sc.build(s)[1]
            stream.rng.standard_normal((-(-rounds // BLOCK) * BLOCK, stream.dimension))

    X, y = sc.build(0)[1].examples(rounds)  # one drawn sequence, replayed by every game

    def replayed_serial():
        return [
            game.play(Perceptron(), Replay(instances=X, labels=y), rounds=rounds).observed(
                "mistakes"
            )
            for _ in seeds
        ]

    def replayed_batch():
        games = game.play_batch(
            [Perceptron() for _ in seeds],
            [Replay(instances=X, labels=y) for _ in seeds],
            rounds=rounds,
        )
        return [g.observed("mistakes") for g in games]

    def swept(**kwargs):
        return lambda: game.sweep(sc, seeds, **kwargs).column("mistakes")

    out = {
        "serial game.play loop": serial,
        "sweep, pool of 2, engine": swept(workers=2, lockstep=False),
        "play_batch (lockstep), this process": batch,
        "sweep, pool of 2, lockstep": swept(workers=2),
    }
    if executor is not None:
        out["sweep, Dask LocalCluster of 2, engine"] = swept(executor=executor, lockstep=False)
        out["sweep, Dask LocalCluster of 2, lockstep"] = swept(executor=executor)
    out["streams' draws alone (the floor)"] = draws
    out["Gaussians alone (the ceiling of any speed-up)"] = gaussians
    out["serial game.play loop, Replay"] = replayed_serial
    out["play_batch (lockstep), Replay"] = replayed_batch
    return out


def measure(fns: dict, repeats: int) -> dict:
    """The fastest of ``repeats`` timed calls of each method, the calls interleaved.

    Interleaving (a, b, c, a, b, c, …) lets every method see the same machine
    load; every method's games are checked equal to the serial loop's.
    """
    best = dict.fromkeys(fns, float("inf"))
    reference: dict[bool, list] = {}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            got = fn()
            best[name] = min(best[name], time.perf_counter() - start)
            if got is not None:
                expected = reference.setdefault("Replay" in name, got)
                assert got == expected, f"{name} played different games"
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--dimension", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    sc, seeds = scenario(args.dimension, args.rounds), list(range(args.seeds))
    with contextlib.ExitStack() as stack:
        executor = None
        if not args.no_dask:
            import dask
            from distributed import Client, LocalCluster

            stack.enter_context(dask.config.set({NO_MALLOC_TRIM: None}))
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
                )
            )
            executor = stack.enter_context(Client(cluster)).get_executor()
            game.sweep(sc, seeds[:4], executor=executor)  # the workers import the package
        best = measure(methods(sc, seeds, args.rounds, executor), args.repeats)
    total = args.seeds * args.rounds
    serial = best["serial game.play loop"]
    table = Table(
        title=f"Perceptron vs SeparableStream, d = {args.dimension}, {args.rounds:,} rounds, "
        f"{args.seeds:,} seeds, best of {args.repeats}"
    )
    table.add_column("method")
    table.add_column("seconds", justify="right")
    table.add_column("game-rounds/s", justify="right")
    table.add_column("× serial", justify="right")
    for name, t in best.items():
        table.add_row(name, f"{t:.2f}", f"{total / t:,.0f}", f"{serial / t:.2f}×")
    Console().print(table)
    pool = best["sweep, pool of 2, engine"]
    print(f"pool / serial: {serial / pool:.2f}× (target ≥ 1.7×)")
    print(f"lockstep / serial: {serial / best['play_batch (lockstep), this process']:.2f}×", end="")
    print(" (target ≥ 10×)")
    ceiling = serial / best["Gaussians alone (the ceiling of any speed-up)"]
    print(f"ceiling: no way of playing these games beats drawing their Gaussians, {ceiling:.2f}×")
    replay = best["serial game.play loop, Replay"] / best["play_batch (lockstep), Replay"]
    print(f"lockstep / serial on a replayed sequence (no drawing): {replay:.2f}×")
    if executor is not None:
        dask_time = best["sweep, Dask LocalCluster of 2, engine"]
        print(f"Dask / pool, time: {dask_time / pool:.2f} (target ≤ 1.5)")


if __name__ == "__main__":
    main()
