"""The streams' draws in numpy and compiled, side by side: a whole game's examples.

For each dimension d (10, 100, 1,000 by default), ``SeparableStream(d,
0.1).examples(rounds)`` (the lockstep source's draw of a whole game, 256
rows at a time) and the same for ``NoisyStream`` (rate 0.2, flipped labels),
timed in numpy (inside ``game.theory.compiled(False)``) and
compiled (:mod:`adversaries.draw_kernels`), the calls interleaved and the
best of ``--repeats`` kept; every stream is built (seed 0) before its clock
starts. Each row says whether the two ways drew the same numbers, bit for bit
(instances, labels, and the noise record) and left the generator in the same
state. A third column times the engine's own per-round path: ``instance`` and
``label`` for every round, drawing a block of 256 whenever one runs out.

Target: compiled / numpy ≥ 2.5× at d = 100, bit-identical.

Run: ``python benchmarks/draws.py [--rounds N] [--dimensions 10 100 1000] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

from adversaries import NoisyStream, SeparableStream
from adversaries.draw_kernels import available
from game.players import kernel_for
from game.theory import compiled


def makers(dimension: int) -> dict[str, Callable]:
    """The streams drawn, each a function building it fresh (seed 0)."""
    return {
        "SeparableStream": lambda: SeparableStream(dimension, 0.1, rng=np.random.default_rng(0)),
        "NoisyStream": lambda: NoisyStream(dimension, 0.1, rate=0.2, rng=np.random.default_rng(0)),
    }


def whole_game(stream, rounds: int) -> tuple:
    """The game drawn ahead, as ``game.play_batch`` draws it (the lockstep source)."""
    return kernel_for(type(stream)).examples(stream, rounds)


def per_round(stream, rounds: int) -> None:
    """The engine's calls: an instance and its label each round."""
    instance, label = stream.instance, stream.label
    for _ in range(rounds):
        label(instance(None), 1.0, None)


def same(a: tuple, b: tuple) -> bool:
    """Whether two draws hold the same arrays and extras, bit for bit."""
    if len(a) != len(b):
        return False
    for p, q in zip(a, b, strict=True):
        if isinstance(p, dict):
            if p.keys() != q.keys() or not all(np.array_equal(p[k], q[k]) for k in p):
                return False
        elif p.dtype != q.dtype or p.tobytes() != q.tobytes():
            return False
    return True


def timed(make: Callable, draw: Callable, on: bool, rounds: int) -> tuple[float, object, dict]:
    """One timed draw from a fresh stream: (seconds, what it drew, the final state)."""
    stream = make()
    with compiled(on):
        start = time.perf_counter()
        got = draw(stream, rounds)
        seconds = time.perf_counter() - start
    return seconds, got, stream.rng.bit_generator.state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--dimensions", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if not available():
        print("numba is not installed: both ways draw in numpy")
    table = Table(title=f"Stream draws, {args.rounds:,} rounds, best of {args.repeats}")
    columns = ["stream", "d", "way", "numpy ms", "compiled ms", "numpy / compiled", "identical"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("stream", "way") else "right")
    target = None
    for d in args.dimensions:
        for name, make in makers(d).items():
            for way, draw in [("whole game", whole_game), ("per round", per_round)]:
                best = {False: float("inf"), True: float("inf")}
                results = {}
                for _ in range(args.repeats):
                    for on in (False, True):
                        seconds, got, state = timed(make, draw, on, args.rounds)
                        best[on] = min(best[on], seconds)
                        results[on] = (got, state)
                (a, sa), (b, sb) = results[False], results[True]
                identical = sa == sb and ((a is None and b is None) or same(a, b))
                ratio = best[False] / best[True]
                if (name, d, way) == ("SeparableStream", 100, "whole game"):
                    target = (ratio, identical)
                table.add_row(
                    name, str(d), way, f"{best[False] * 1e3:.1f}", f"{best[True] * 1e3:.1f}",
                    f"{ratio:.2f}×", "yes" if identical else "NO",
                )  # fmt: skip
    Console(width=120).print(table)
    if target is not None:
        ratio, identical = target
        word = "bit-identical" if identical else "NOT identical"
        print(f"SeparableStream, d = 100, whole game: {ratio:.2f}× (target ≥ 2.5×), {word}")


if __name__ == "__main__":
    main()
