"""The Littlestone dimension engine beside the plain memoised recursion, in one run.

For each case it times, side by side:

- *engine*: ``game.theory.littlestone.ldim`` on a fresh class (a fresh engine, so
  nothing is remembered from an earlier run), best of ``--repeats``;
- *plain*: ``game.theory.littlestone.ldim_plain``, the textbook recursion memoised on
  the restricted set (a Python-int bitset), stopped at ``--cap`` seconds (or
  when its memo passes about 2 GB); a run that does not finish is shown as
  "> cap" and its speedup as a lower bound.

The cases: intervals over 64, 128 and 256 points; a random class of 16,384
hypotheses over 64 points; conjunctions over 7 and 8 bits; and an SOA game
against the optimal adversary on intervals over 128 points (the plain side
plays the same game with the plain recursion, one memo for the whole game).
Small calibration cases where the plain recursion does finish come first.
The large classes (intervals over 512 points, conjunctions over 10 bits, decision
lists over 5 bits of length 10) are timed on the engine alone, with its compiled
search (numba, the ``fast`` extra) and without it (``compiled(False)``, the numpy
search; ``--numpy-repeats`` runs, 1 by default), side by side with their targets;
for each of them a child process measures, with ``tracemalloc``, the peak memory
of building the class and of computing its dimension both ways, as a multiple of
the class matrix (the compiled search runs once on the class before the tracing
starts, so its machine code is loaded: a fixed cost of the process, not of the
class).

Run: ``python benchmarks/ldim.py [--cap SECONDS] [--repeats K] [--numpy-repeats K]
[--only NAME]``.
Targets: intervals over 256 points under 10 s; the SOA game under 10 s; at
least 20× faster than the plain recursion wherever it finishes within 10 minutes;
``ldim(decision_lists(5, 10))`` ≤ 3 s, ``ldim(intervals(512))`` and
``ldim(conjunctions(10))`` ≤ 1.5 s each with peak memory ≤ 3× the class matrix.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

import game
from adversaries import OptimalAdversary
from game.theory import compiled
from game.theory._ldim_engine import available
from game.theory.concepts import FiniteClass, build_class, conjunctions, intervals
from game.theory.littlestone import ldim, ldim_plain
from learners import SOA

_MEMO_BYTES = 2 * 10**9


def random_class(rows: int, points: int, seed: int = 0) -> FiniteClass:
    """``rows`` random ±1 rows over ``points`` points (fair coins), duplicates merged."""
    rng = np.random.default_rng(seed)
    return FiniteClass(np.where(rng.random((rows, points)) < 0.5, 1, -1), name="random")


def _max_memo(cls: FiniteClass) -> int:
    return max(10_000, _MEMO_BYTES // (cls.n_hypotheses // 8 + 120))


# -- the SOA game, both ways -----------------------------------------------------------


def soa_game(cls: FiniteClass) -> int:
    """SOA against the optimal adversary through the engine; returns the mistakes."""
    return game.play(SOA(cls), OptimalAdversary(cls), rounds=10_000).summary()["mistakes"]


def soa_game_plain(cls: FiniteClass, deadline: float, max_memo: int) -> int:
    """The same game with the plain recursion for every dimension (one shared memo)."""
    M = cls.matrix
    pos = [
        int.from_bytes(np.packbits(M[:, x] > 0, bitorder="little").tobytes(), "little")
        for x in range(cls.n_points)
    ]
    memo: dict[int, int] = {}

    def L(V: int) -> int:
        if V & (V - 1) == 0:
            return 0 if V else -1
        got = memo.get(V)
        if got is not None:
            return got
        if len(memo) & 1023 == 0:
            if time.perf_counter() > deadline:
                raise TimeoutError
            if len(memo) > max_memo:
                raise MemoryError
        best = 0
        for p in pos:
            a = V & p
            if a and a != V:
                best = max(best, 1 + min(L(a), L(V ^ a)))
        memo[V] = best
        return best

    V = (1 << cls.n_hypotheses) - 1
    mistakes = 0
    while L(V) >= 1:
        best_x, best_value = None, -2
        for x, p in enumerate(pos):  # the adversary: the point maximising the smaller side
            a = V & p
            if a and a != V:
                value = min(L(a), L(V ^ a))
                if value > best_value:
                    best_x, best_value = x, value
        a = V & pos[best_x]
        predicted = 1 if L(a) >= L(V ^ a) else -1  # SOA, ties to +1
        V = (V ^ a) if predicted == 1 else a  # the answer is the opposite
        mistakes += 1
    return mistakes


# -- peak memory, in a child process --------------------------------------------------

_PEAK = """
import contextlib, gc, json, sys, tracemalloc
from game.theory import compiled
from game.theory.concepts import build_class
from game.theory.littlestone import ldim
builder, fast, args = sys.argv[1], sys.argv[2] == "1", [int(a) for a in sys.argv[3:]]
if fast:  # compile (or load) every function the search takes before the tracing starts
    with compiled(True):
        ldim(build_class(builder, *args))
    gc.collect()
tracemalloc.start()
cls = build_class(builder, *args)
build = tracemalloc.get_traced_memory()[1]
gc.collect()
tracemalloc.reset_peak()
held = tracemalloc.get_traced_memory()[0]
with compiled(fast):
    ldim(cls)
dim = tracemalloc.get_traced_memory()[1] - held + cls.matrix.nbytes
print(json.dumps({"matrix": cls.matrix.nbytes, "build": build, "ldim": dim}))
"""


def peak_memory(builder: str, *args: int, fast: bool = True) -> dict[str, float]:
    """Peak traced bytes of building a class and of its Ldim, as multiples of its matrix.

    The Ldim figure counts the matrix itself plus everything allocated while
    computing (the names and the rest of the class are left out); ``fast``
    chooses the compiled search or the numpy one.
    """
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, builder, "1" if fast else "0", *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return {"build": got["build"] / got["matrix"], "ldim": got["ldim"] / got["matrix"]}


# -- timing ------------------------------------------------------------------------------


def time_engine(make: Callable[[], FiniteClass], run: Callable, repeats: int, fast: bool = True):
    best, value = float("inf"), None
    with compiled(fast):
        for _ in range(repeats):
            cls = make()  # a fresh class: a fresh engine, an empty memo
            gc.collect()
            start = time.perf_counter()
            value = run(cls)
            best = min(best, time.perf_counter() - start)
    return best, value


def time_plain(make: Callable[[], FiniteClass], run: Callable, cap: float):
    cls = make()
    gc.collect()
    start = time.perf_counter()
    try:
        value = run(cls, start + cap, _max_memo(cls))
    except (TimeoutError, MemoryError, RecursionError) as exc:
        reason = {TimeoutError: "time", MemoryError: "memory"}.get(type(exc), "recursion")
        return None, None, reason, time.perf_counter() - start
    return time.perf_counter() - start, value, None, None


#: The large classes, timed both ways: (case name, builder, arguments, target seconds).
LARGE = (
    ("intervals, 512 points", "intervals", (512,), 1.5),
    ("conjunctions, 10 bits", "conjunctions", (10,), 1.5),
    ("decision lists, 5 bits, length 10", "decision_lists", (5, 10), 3.0),
)
#: Peak memory of computing a large class's Ldim, at most this many times its matrix.
MEMORY_TARGET = 3.0


def cases():
    def dim(cls):
        return ldim(cls)

    def dim_plain(cls, deadline, max_memo):
        return ldim_plain(cls, deadline=deadline, max_memo=max_memo)

    return [
        ("intervals, 16 points (calibration)", lambda: intervals(16), dim, dim_plain),
        ("intervals, 20 points (calibration)", lambda: intervals(20), dim, dim_plain),
        ("conjunctions, 4 bits (calibration)", lambda: conjunctions(4), dim, dim_plain),
        ("random 256 × 12 (calibration)", lambda: random_class(256, 12), dim, dim_plain),
        ("intervals, 64 points", lambda: intervals(64), dim, dim_plain),
        ("intervals, 128 points", lambda: intervals(128), dim, dim_plain),
        ("intervals, 256 points", lambda: intervals(256), dim, dim_plain),
        ("random 16,384 × 64", lambda: random_class(16_384, 64), dim, dim_plain),
        ("conjunctions, 7 bits", lambda: conjunctions(7), dim, dim_plain),
        ("conjunctions, 8 bits", lambda: conjunctions(8), dim, dim_plain),
        (
            "SOA vs optimal adversary, intervals 128",
            lambda: intervals(128),
            soa_game,
            soa_game_plain,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for the plain side")
    parser.add_argument("--repeats", type=int, default=3, help="engine runs per case (best)")
    parser.add_argument(
        "--numpy-repeats", type=int, default=1, help="numpy-search runs per large case (best)"
    )
    parser.add_argument("--only", help="run the cases whose name contains this")
    args = parser.parse_args()
    console = Console(width=120)
    start = time.perf_counter()
    fast = available()  # loads the compiled loop
    loaded = f"loaded in {time.perf_counter() - start:.2f} s" if fast else "numba missing"
    console.print(f"compiled search: {loaded}")
    table = Table(title=f"Littlestone dimension: engine vs plain recursion (cap {args.cap:g} s)")
    for column in ("case", "|H| × points", "value", "engine s", "plain s", "speedup"):
        table.add_column(column, justify="left" if column == "case" else "right")
    for name, make, run, run_plain in cases():
        if args.only and args.only not in name:
            continue
        cls = make()
        shape = f"{cls.n_hypotheses:,} × {cls.n_points}"
        fast_s, value = time_engine(make, run, args.repeats)
        slow, plain_value, reason, gave_up = time_plain(make, run_plain, args.cap)
        if slow is None:
            plain = f"> {gave_up:.0f} ({reason})"
            speed = f"> {gave_up / fast_s:,.0f}×"
        else:
            if plain_value != value:
                raise SystemExit(f"{name}: engine {value} but plain {plain_value}")
            plain = f"{slow:.3f}"
            speed = f"{slow / fast_s:,.0f}×"
        table.add_row(name, shape, str(value), f"{fast_s:.3f}", plain, speed)
        console.print(f"{name}: value {value}, engine {fast_s:.3f} s, plain {plain}, {speed}")
    console.print(table)
    large = Table(title="Large classes: the compiled search beside the numpy search")
    for column in ("case", "|H| × points", "value", "compiled s", "numpy s", "ratio", "target"):
        large.add_column(column, justify="left" if column == "case" else "right")
    for name, builder, builder_args, target in LARGE:
        if args.only and args.only not in name:
            continue

        def make(builder=builder, builder_args=builder_args):
            return build_class(builder, *builder_args)

        cls = make()
        shape = f"{cls.n_hypotheses:,} × {cls.n_points}"
        slow, value = time_engine(make, ldim, args.numpy_repeats, fast=False)
        if fast:
            quick, quick_value = time_engine(make, ldim, args.repeats)
            if quick_value != value:
                raise SystemExit(f"{name}: compiled {quick_value} but numpy {value}")
            shown, ratio = f"{quick:.3f}", f"{slow / quick:.1f}×"
            met = "met" if quick <= target else "missed"
        else:
            shown = ratio = "—"
            met = "met" if slow <= target else "missed"
        large.add_row(
            name, shape, str(value), shown, f"{slow:.3f}", ratio, f"≤ {target:g} s ({met})"
        )
        console.print(f"{name}: value {value}, compiled {shown} s, numpy {slow:.3f} s")
    console.print(large)
    memory = Table(title="Peak memory (tracemalloc, child process), × the class matrix")
    for column in ("class", "matrix MB", "building", "ldim compiled", "ldim numpy", "target"):
        memory.add_column(column, justify="left" if column == "class" else "right")
    for _, builder, builder_args, _ in LARGE:
        label = f"{builder}({', '.join(map(str, builder_args))})"
        if args.only and args.only not in label:
            continue
        slow = peak_memory(builder, *builder_args, fast=False)
        quick = peak_memory(builder, *builder_args) if fast else None
        nbytes = build_class(builder, *builder_args).matrix.nbytes
        memory.add_row(
            label,
            f"{nbytes / 1e6:.1f}",
            f"{slow['build']:.2f}×",
            "—" if quick is None else f"{quick['ldim']:.2f}×",
            f"{slow['ldim']:.2f}×",
            f"≤ {MEMORY_TARGET:g}×",
        )
    console.print(memory)


if __name__ == "__main__":
    main()
