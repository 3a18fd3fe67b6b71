"""The engine's overhead: rounds per second of ``game.play`` beside a bare loop.

Plays the Perceptron against ``SeparableStream`` at d = 10, 100 and 1000 with
every round logged in the columnar transcript, and times, side by side in one
run, a bare Python loop doing the same Perceptron arithmetic (score, sign with
sign(0) = +1, w ± x when y·w·x ≤ 0) on the same examples:

- *stream*: both sides draw the examples from the same ``SeparableStream``
  (the engine through ``instance``/``label``, the bare loop with ``examples``);
- *replay*: both sides run over examples drawn beforehand (the engine through
  the ``Replay`` adversary), so the ratio is the referee's own overhead;
- *+ file*: the stream game also streaming its JSON Lines transcript, and
  what the file adds a round (µs), against the game's own time a round.

Run: ``python benchmarks/engine.py [--rounds N] [--repeats K]``. Target: the
engine at ≥ 0.6× the bare loop's rounds/s at d = 100.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from adversaries import Replay, SeparableStream
from game import play
from learners import Perceptron


def _stream(d: int) -> SeparableStream:
    return SeparableStream(d, 0.05, 1.0, np.random.default_rng(1))


def bare_loop(X: np.ndarray, y: list[int]) -> int:
    """The Perceptron's arithmetic alone; returns its mistakes."""
    w = np.zeros(X.shape[1])
    mistakes = 0
    for x, label in zip(list(X), y, strict=True):
        s = float(w @ x)
        if (1 if s >= 0 else -1) != label:
            mistakes += 1
        if label * s <= 0:
            if label > 0:
                w += x
            else:
                w -= x
    return mistakes


def bare_stream(d: int, n: int) -> int:
    """The bare loop, drawing its examples from the stream first."""
    X, y = _stream(d).examples(n)
    return bare_loop(X, y.tolist())


def best_of(fns: list, repeats: int) -> list[float]:
    """The fastest of ``repeats`` timed calls of each function, the calls interleaved.

    Interleaving (a, b, a, b, …) lets both sides see the same machine load.
    """
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, spent in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    return [min(spent) for spent in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n, k = args.rounds, args.repeats
    table = Table(title=f"Perceptron, {n:,} rounds, best of {k}; rounds per second")
    for column in (
        "d",
        "bare (stream)",
        "engine (stream)",
        "ratio",
        "bare (replay)",
        "engine (replay)",
        "ratio",
        "engine + file",
        "file µs/round",
        "file / game",
    ):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "t.jsonl"
        for d in (10, 100, 1000):
            X, y = _stream(d).examples(n)
            labels = y.tolist()
            game = play(Perceptron(), _stream(d), rounds=n)
            if int(game.mistakes.sum()) != bare_loop(X, labels):
                raise SystemExit(f"d = {d}: the engine and the bare loop disagree")
            bare_s, engine_s = best_of(
                [
                    lambda d=d: bare_stream(d, n),
                    lambda d=d: play(Perceptron(), _stream(d), rounds=n),
                ],
                k,
            )
            bare_r, engine_r = best_of(
                [
                    lambda X=X, labels=labels: bare_loop(X, labels),
                    lambda X=X, y=y: play(Perceptron(), Replay(instances=X, labels=y), rounds=n),
                ],
                k,
            )
            (filed,) = best_of(
                [lambda d=d: play(Perceptron(), _stream(d), rounds=n, out=out)], max(1, k // 3)
            )
            table.add_row(
                str(d),
                f"{n / bare_s:,.0f}",
                f"{n / engine_s:,.0f}",
                f"{bare_s / engine_s:.2f}×",
                f"{n / bare_r:,.0f}",
                f"{n / engine_r:,.0f}",
                f"{bare_r / engine_r:.2f}×",
                f"{n / filed:,.0f}",
                f"{(filed - engine_s) / n * 1e6:.2f}",
                f"{(filed - engine_s) / engine_s:.2f}×",
            )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
