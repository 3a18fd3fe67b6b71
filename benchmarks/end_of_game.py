"""The end of a game beside the game: each step the referee takes after the last round.

Plays the Perceptron against ``Replay`` of separable unit vectors (d = 100 by
default, 10⁵ rounds) with a separator, and times the loop and each step of its
end (checking the instances, verifying the certificate, computing the bounds,
computing the digest) through ``play``'s progress steps, best of ``--repeats``.
Beside it, in the same run, the digest's canonical form of the instances read
off the doubles' bits (what the digest uses) against its definition through
``numpy.frexp`` and ``numpy.round`` (the same integers), per value.

Run: ``python benchmarks/end_of_game.py [--rounds N] [--dim D] [--repeats K]``.
Target (issue 17): the end of the game at most 0.5× its loop.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from adversaries import Replay
from game import play
from game.transcript import canonical
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


def frexp_form(values: np.ndarray) -> np.ndarray:
    """The canonical form by its definition (the digest's before it read the bits)."""
    finite = np.isfinite(values)
    mantissa, exponent = np.frexp(np.where(finite, values, 0.0))
    quantised = np.round(mantissa * 2.0**24).astype("<i8")
    exponent = exponent.astype("<i8")
    carry = np.abs(quantised) == 1 << 24
    quantised = np.where(carry, quantised // 2, quantised)
    exponent = np.where(carry, exponent + 1, exponent)
    code = np.select([np.isnan(values), values == np.inf, values == -np.inf], [1, 2, 3], 0)
    return np.stack([quantised, exponent, code.astype("<i8")], axis=-1)


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
    bits = per_value(canonical, X.ravel(), args.repeats)
    frexp = per_value(frexp_form, X.ravel(), args.repeats)
    console.print(
        f"canonical form of the instances: {bits:.1f} ns a value from the bits, "
        f"{frexp:.1f} ns through frexp and round ({frexp / bits:.1f}×), the same integers: "
        f"{np.array_equal(canonical(X[:1000]), frexp_form(X[:1000]))}"
    )


if __name__ == "__main__":
    main()
