"""The end of a game beside the game: each step the referee takes after the last round.

Plays the Perceptron against ``Replay`` of separable unit vectors (d = 100 by
default, 10⁵ rounds) with a separator, and times the loop and each step of its
end (checking the instances, verifying the certificate, computing the bounds,
computing the digest) through ``play``'s progress steps, best of ``--repeats``.
Beside it, in the same run, the digest of the instances against hashing their
single-precision bytes alone (the floor of a digest that hashes 4 bytes a value)
and their raw doubles, per value.

Run: ``python benchmarks/end_of_game.py [--rounds N] [--dim D] [--repeats K]``.
Target: the end of the game at most 0.5× its loop.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from adversaries import Replay
from game import play
from game.transcript import digest_columns
from learners import Perceptron

STEPS = (
    "checking the instances",
    "verifying the certificate",
    "computing the bounds",
    "computing the digest",
)


class Clock:
    """A progress callback that times the loop and each step of the game's end."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.loop: float | None = None
        self.steps: dict[str, float] = {}
        self._step: str | None = None
        self._since = 0.0

    def __call__(self, done: int, total: int) -> None:
        if done == total and self.loop is None:
            self.loop = time.perf_counter() - self.start

    def step(self, text: str | None) -> None:
        now = time.perf_counter()
        if self._step is not None:
            self.steps[self._step] = now - self._since
        self._step, self._since = text, now


def per_value(work, values: np.ndarray, repeats: int, piece: int = 1 << 17) -> float:
    """Best ns a value of ``work`` over ``values``, a piece at a time as the digest does."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(0, values.size, piece):
            work(values[i : i + piece])
        best = min(best, time.perf_counter() - start)
    return best / values.size * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n, d = args.rounds, args.dim
    rng = np.random.default_rng(0)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((2 * n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    X = X[np.abs(X @ u) > 0.02][:n]
    y = np.where(X @ u >= 0, 1, -1)
    best: Clock | None = None
    for _ in range(args.repeats):
        clock = Clock()
        game = Replay(instances=X, labels=y, separator=u)
        play(Perceptron(), game, rounds=len(y), progress=clock)
        if best is None or sum(clock.steps.values()) < sum(best.steps.values()):
            best = clock
    assert best is not None and best.loop is not None
    title = f"Perceptron vs Replay, d = {d}, {len(y):,} rounds (best of {args.repeats})"
    table = Table(title=title)
    for column in ("part", "seconds", "µs a round", "÷ the loop"):
        table.add_column(column, justify="left" if column == "part" else "right")

    def row(name: str, seconds: float) -> None:
        table.add_row(name, f"{seconds:.3f}", f"{seconds / len(y) * 1e6:.2f}",
                      f"{seconds / best.loop:.2f}×")  # fmt: skip

    row("the loop", best.loop)
    for step in STEPS:
        row(step, best.steps.get(step, 0.0))
    row("the end of the game", sum(best.steps.values()))
    console = Console()
    console.print(table)
    digest = per_value(lambda v: digest_columns([("x", v)]), X.ravel(), args.repeats, X.size)
    singles = X.ravel().astype(np.float32)
    floor = per_value(lambda v: hashlib.sha256(v).digest(), singles, args.repeats, X.size)
    doubles = per_value(lambda v: hashlib.sha256(v).digest(), X.ravel(), args.repeats, X.size)
    console.print(
        f"digest of the instances: {digest:.2f} ns a value; hashing their singles alone "
        f"{floor:.2f} ns ({digest / floor:.2f}×), their doubles {doubles:.2f} ns"
    )


if __name__ == "__main__":
    main()
