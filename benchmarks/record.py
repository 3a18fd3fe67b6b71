"""What the referee's own copy of the instances costs a game.

The engine copies every instance into its column (``InstanceColumn``) the
moment the adversary hands it over, so no later write by a player changes the
record. This script measures that copy side by side with the game it is part
of, in one run: the Perceptron against ``SeparableStream`` and against
``Replay`` at d = 10, 100 and 1000, and, on the very rows each game presented,
the copy alone (a fresh column, one ``column[t - 1] = x`` per round, in a
Python loop shaped like the engine's, less the same loop without the write).
The ratio copy / game is the share of the game the copy takes; the target is
at most 5% at d = 100 against the stream. ``Replay`` holds its rows in
immutable memory, so the referee records them by reference and copies
nothing: its column is shown for comparison.

Run: ``python benchmarks/record.py [--rounds N] [--repeats K]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from adversaries import Replay, SeparableStream
from game import play
from learners import Perceptron


def copy_alone(rows: list[np.ndarray]) -> float:
    """Seconds the copy adds: ``rows`` into a fresh column, less the same loop without the write.

    Both loops make the engine's checks (shape, dtype, room); only the first
    writes, into fresh memory as a game's column is.
    """
    column = np.empty((len(rows), *rows[0].shape), dtype=rows[0].dtype)
    shape, dtype, cap = column.shape[1:], column.dtype, column.shape[0]
    start = time.perf_counter()
    for t, x in enumerate(rows, 1):
        if x.shape == shape and x.dtype is dtype and t <= cap:
            column[t - 1] = x
    with_copy = time.perf_counter() - start
    start = time.perf_counter()
    for t, x in enumerate(rows, 1):
        if x.shape == shape and x.dtype is dtype and t <= cap:
            pass
    return with_copy - (time.perf_counter() - start)


def measure(d: int, rounds: int, repeats: int) -> dict[str, float]:
    """Median seconds of each game and of its copy, interleaved over ``repeats`` runs."""
    times: dict[str, list[float]] = {"stream": [], "replay": [], "copy": []}
    X = None
    for _ in range(repeats):
        stream = SeparableStream(d, 0.05, 1.0, np.random.default_rng(1))
        start = time.perf_counter()
        tr = play(Perceptron(), stream, rounds=rounds)
        times["stream"].append(time.perf_counter() - start)
        X = np.asarray(tr.instances)
        y = tr.labels.astype(np.int64)
        replay = Replay(instances=X, labels=y)
        start = time.perf_counter()
        play(Perceptron(), replay, rounds=rounds)
        times["replay"].append(time.perf_counter() - start)
        times["copy"].append(copy_alone(list(X)))
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    table = Table(title=f"The record's copy, Perceptron, {args.rounds:,} rounds, medians")
    for column in ("d", "game vs stream", "game vs replay (by reference)", "copy alone",
                   "copy / stream"):  # fmt: skip
        table.add_column(column, justify="right")
    for d in (10, 100, 1000):
        m = measure(d, args.rounds, args.repeats)
        per = {k: v / args.rounds * 1e6 for k, v in m.items()}
        table.add_row(
            str(d),
            f"{per['stream']:.2f} µs",
            f"{per['replay']:.2f} µs",
            f"{per['copy']:.3f} µs",
            f"{m['copy'] / m['stream']:.1%}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
