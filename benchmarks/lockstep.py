"""Lockstep games beside serial games and beside their own draws: the Perceptron's kernels.

200 Perceptron games against ``SeparableStream`` (d = 100, margin 0.1, 1,000
rounds, seeds 0–199), timed side by side in one run, the calls interleaved
and the best of ``--repeats`` kept; every way's players are built before its
clock starts, and every way computes its games' digests:

- *play_batch, compiled*: ``game.play_batch`` with the learners' compiled
  loops on (the Perceptron's lockstep loop, ``learners.perceptron.lockstep_loop``);
- *play_batch, compiled, digests not asked for*: the same, its transcripts'
  digests left uncomputed (the difference is the digests' cost);
- *play_batch, numpy kernel*: the same inside
  ``game.theory.compiled(False)`` (every compiled loop off: the draws too);
- *play_batch one game at a time*: 200 calls of ``play_batch`` with K = 1,
  compiled: what an oblivious single game costs through the kernel;
- *serial game.play, compiled off*: a Python loop of ``game.play``, the
  engine's own round loop, inside ``compiled(False)``;
- *serial game.play, compiled on*: the same loop with the compiled paths
  on, so an oblivious single game may go through a kernel with K = 1;
- *draws alone*: only each game's examples, drawn by its stream's lockstep
  source (``Source.examples``), which every way of playing must draw;
- *kernel alone, compiled* and *kernel alone, numpy*: only the Perceptron's
  lockstep kernel (``Perceptron.lockstep.run``) on those drawn games.

Every way's digests are compared with the serial loop's, in this run.
Targets: play_batch compiled ≥ 5× the serial loop; draws alone / play_batch
≥ 0.7; single games with the compiled paths on ≥ 5× the engine's loop.

Run: ``python benchmarks/lockstep.py [--games K] [--rounds N] [--dimension D] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

import game
from adversaries import SeparableStream
from game.players import kernel_for
from game.theory import compiled
from learners import Perceptron
from learners.perceptron import lockstep_loop

BATCH = "play_batch, compiled"
SERIAL = "serial game.play, compiled off"
DRAWS = "draws alone"
SINGLE = "serial game.play, compiled on"
NO_DIGESTS = "play_batch, compiled, digests not asked for"


def players(games: int, dimension: int) -> tuple[list, list]:
    """Fresh learners and streams, seeds 0 … games − 1."""
    streams = [
        SeparableStream(dimension, 0.1, rng=np.random.default_rng(seed)) for seed in range(games)
    ]
    return [Perceptron() for _ in range(games)], streams


def ways(games: int, rounds: int, dimension: int) -> dict[str, Callable]:
    """Each way: a function of fresh players that plays (or draws) and returns digests or None."""
    source = kernel_for(SeparableStream)
    drawn = [source.examples(s, rounds) for s in players(games, dimension)[1]]
    Xs = [X for X, _ in drawn]
    y = np.array([labels for _, labels in drawn], dtype=np.int64)
    lengths = np.full(games, rounds)
    run = kernel_for(Perceptron).run

    def batch(learners, streams):
        return [g.digest for g in game.play_batch(learners, streams, rounds=rounds)]

    def batch_alone(learners, streams):
        game.play_batch(learners, streams, rounds=rounds)

    def numpy_batch(learners, streams):
        with compiled(False):
            return batch(learners, streams)

    def one_by_one(learners, streams):
        return [batch([p], [s])[0] for p, s in zip(learners, streams, strict=True)]

    def serial(learners, streams, on=False):
        with compiled(on):
            return [
                game.play(p, s, rounds=rounds).digest
                for p, s in zip(learners, streams, strict=True)
            ]

    def serial_compiled(learners, streams):
        return serial(learners, streams, on=True)

    def draws(learners, streams):
        for s in streams:
            source.examples(s, rounds)

    def kernel(on):
        def play(learners, streams):
            with compiled(on):
                run(learners, Xs, y, lengths)

        return play

    return {
        BATCH: batch,
        NO_DIGESTS: batch_alone,
        "play_batch, numpy kernel": numpy_batch,
        "play_batch one game at a time (K = 1)": one_by_one,
        SERIAL: serial,
        SINGLE: serial_compiled,
        DRAWS: draws,
        "kernel alone, compiled": kernel(True),
        "kernel alone, numpy": kernel(False),
    }


def measure(fns: dict, repeats: int, games: int, dimension: int) -> dict:
    """The fastest of ``repeats`` timed calls of each way, the calls interleaved.

    Interleaving (a, b, c, a, b, c, …) lets every way see the same machine
    load; every way's digests are checked equal to the serial loop's.
    """
    best = dict.fromkeys(fns, float("inf"))
    digests: dict[str, list] = {}
    for _ in range(repeats):
        for name, fn in fns.items():
            learners, streams = players(games, dimension)
            start = time.perf_counter()
            got = fn(learners, streams)
            best[name] = min(best[name], time.perf_counter() - start)
            if got is not None:
                digests.setdefault(name, got)
    for name, got in digests.items():
        assert got == digests[SERIAL], f"{name} played other games than the serial loop"
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--dimension", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if lockstep_loop() is None:
        print("numba is not installed: the compiled ways run the numpy kernel")
    fns = ways(args.games, args.rounds, args.dimension)
    learners, streams = players(2, args.dimension)  # the engine's first-game check, done now
    game.play_batch(learners, streams, rounds=args.rounds)
    best = measure(fns, args.repeats, args.games, args.dimension)
    total = args.games * args.rounds
    serial = best[SERIAL]
    table = Table(
        title=f"Perceptron vs SeparableStream, d = {args.dimension}, {args.rounds:,} rounds, "
        f"{args.games} games, best of {args.repeats}"
    )
    for column, justify in [("way", "left"), ("seconds", "right"), ("µs a round", "right")]:
        table.add_column(column, justify=justify)
    table.add_column("serial / way", justify="right")
    for name, t in best.items():
        table.add_row(name, f"{t:.3f}", f"{t / total * 1e6:.3f}", f"{serial / t:.2f}×")
    Console().print(table)
    batch = best[BATCH]
    print(f"play_batch compiled / serial engine loop: {serial / batch:.2f}× (target ≥ 5×)")
    print(f"single games, compiled on / off: {serial / best[SINGLE]:.2f}× (target ≥ 5×)")
    print(f"draws alone / play_batch compiled: {best[DRAWS] / batch:.2f} (target ≥ 0.7)")
    kernel = best["kernel alone, compiled"]
    digests = batch - best[NO_DIGESTS]
    rest = best[NO_DIGESTS] - best[DRAWS] - kernel
    print(
        f"play_batch compiled = draws {best[DRAWS] / batch:.0%} + kernel {kernel / batch:.0%} "
        f"+ digests {digests / batch:.0%} + the rest (transcripts, verification, bounds) "
        f"{rest / batch:.0%}"
    )
    print("digests: every way's equal the serial loop's")


if __name__ == "__main__":
    main()
