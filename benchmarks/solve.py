"""The solvers of small games, timed on the cases their targets name, in one run.

- ``worst_case`` of Halving over ``intervals(16)`` (target: under 10 s);
- ``worst_case`` of the decision-list learner over the decision lists on 3 bits
  (``decision_lists(3, 3)``: every list the learner can hold; target: under 10 s);
- ``minimax_regret(2, 16)`` from a cold cache (target: under 1 s);
- ``best_margin`` on 2,000 separable points in 64 dimensions (target: under 2 s),
  with the gap between the bounds it proves;
- the ceiling of the first: how much of that search is the learner's own calls
  (its ``predict``, ``update`` and ``state_key``, and the copies of its state),
  each call timed where it is made;
- and, beside them, what each solve is worth: the value against Ldim and the
  learner's bound, and Exponential Weights' exact worst-case regret for
  T = 1 … 12 against the minimax regret (the tables of the README).

Each is the best of ``--repeats`` runs (a solve never remembers an earlier one:
the caches are cleared). Run: ``python benchmarks/solve.py [--repeats K] [--quick]``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import time
from collections.abc import Callable, Iterator

import numpy as np
from rich.console import Console
from rich.table import Table

import game
from adversaries import ForcingAdversary
from game.theory.concepts import (
    bit_vectors,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    thresholds,
)
from game.theory.solve import best_margin, minimax_regret, worst_case, worst_case_regret
from learners import SOA, ConjunctionLearner, DecisionListLearner, ExponentialWeights, Halving


def best_of(repeats: int, work: Callable[[], object]) -> tuple[float, object]:
    """The least wall time of ``repeats`` runs of ``work``, and its last result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def separable_points(n: int, d: int, margin: float, seed: int = 0):
    """n unit-length points in d dimensions, separated through the origin with margin ≥ ``margin``.

    Returns
    -------
    X, y : the points and their labels.
    """
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    rows = []
    while sum(len(r) for r in rows) < n:
        X = rng.standard_normal((4 * n, d))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        rows.append(X[np.abs(X @ u) >= margin])
    X = np.concatenate(rows)[:n]
    return X, np.where(X @ u >= 0, 1, -1)


def timings(console: Console, repeats: int) -> None:
    table = Table(title="solvers against their targets (best of runs, this machine)")
    for column in ("case", "value", "search", "time", "target"):
        table.add_column(column, justify="right" if column in ("time", "value") else "left")
    H = intervals(16)
    t, r = best_of(repeats, lambda: worst_case(Halving(H), H))
    table.add_row("worst_case(Halving, intervals(16))", str(r.value), f"{r.states:,} states",
                  f"{t:.2f} s", "< 10 s")  # fmt: skip
    D = decision_lists(3, 3)
    t, r = best_of(repeats, lambda: worst_case(DecisionListLearner(3), D, points=bit_vectors(3)))
    table.add_row("worst_case(DecisionListLearner, decision_lists(3, 3))", str(r.value),
                  f"{r.states:,} states", f"{t:.2f} s", "< 10 s")  # fmt: skip

    def cold_minimax():
        from game.theory.solve import _regret_games

        for cached in vars(_regret_games).values():
            if hasattr(cached, "cache_clear"):
                cached.cache_clear()
        return minimax_regret(2, 16)

    t, v = best_of(repeats, cold_minimax)
    table.add_row("minimax_regret(2, 16)", str(v), "cold cache", f"{t * 1e3:.1f} ms", "< 1 s")
    X, y = separable_points(2000, 64, 0.05)
    t, m = best_of(repeats, lambda: best_margin(X, y))
    gap = m.margin_high - m.margin_low
    table.add_row("best_margin(2,000 × 64)", f"{m.margin_low:.5f}", f"gap {gap:.1e}",
                  f"{t:.2f} s", "< 2 s")  # fmt: skip
    console.print(table)


@contextlib.contextmanager
def timed_calls(methods: dict[str, tuple[type, str]]) -> Iterator[collections.Counter]:
    """Within the block, every call of the named methods adds its wall time to the counter.

    ``methods`` maps a label to (class, method name); the methods are restored on leaving.
    The timer itself adds about 0.1 µs a call.
    """
    spent: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    saved = {label: getattr(owner, name) for label, (owner, name) in methods.items()}

    def timing(label: str, method: Callable) -> Callable:
        def call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - start
                calls[label] += 1

        return call

    for label, (owner, name) in methods.items():
        setattr(owner, name, timing(label, saved[label]))
    try:
        yield spent, calls
    finally:
        for label, (owner, name) in methods.items():
            setattr(owner, name, saved[label])


def ceiling(console: Console) -> None:
    """How much of Halving's search over intervals(16) its own calls take."""
    from game.theory.solve import _worst_case

    H = intervals(16)
    methods = {
        "predict": (Halving, "predict"),
        "update": (Halving, "update"),
        "state_key": (Halving, "state_key"),
        "copies of its state": (_worst_case._Copier, "__call__"),
    }
    with timed_calls(methods) as (spent, calls):
        gc.collect()
        start = time.perf_counter()
        worst_case(Halving(H), H)
        total = time.perf_counter() - start
    table = Table(title="worst_case(Halving, intervals(16)): where the time goes (timed calls)")
    for column in ("part", "calls", "time", "per call", "share"):
        table.add_column(column, justify="left" if column == "part" else "right")
    own = 0.0
    for label in methods:
        own += spent[label]
        table.add_row(label, f"{calls[label]:,}", f"{spent[label]:.2f} s",
                      f"{spent[label] / max(calls[label], 1) * 1e6:.2f} µs",
                      f"{spent[label] / total:.0%}")  # fmt: skip
    table.add_row("the learner's calls, together", "", f"{own:.2f} s", "", f"{own / total:.0%}")
    table.add_row("the search itself", "", f"{total - own:.2f} s", "", f"{1 - own / total:.0%}")
    table.add_row("whole search (timers on)", "", f"{total:.2f} s", "", "100%")
    console.print(table)


def worst_cases(console: Console) -> None:
    table = Table(title="worst cases: value / Ldim / the learner's bound on its forced game")
    for column in ("learner", "class", "value", "Ldim", "bound", "played: mistakes, forced"):
        table.add_column(column)
    cases = [
        ("halving", Halving, thresholds(15), None),
        ("halving", Halving, intervals(8), None),
        ("halving", Halving, intervals(16), None),
        ("soa", SOA, intervals(16), None),
        ("halving", Halving, conjunctions(3), None),
        ("conjunction-learner", ConjunctionLearner, conjunctions(3), 3),
        ("conjunction-learner", ConjunctionLearner, monotone_conjunctions(3), 3),
        ("decision-list-learner", DecisionListLearner, decision_lists(3, 1), 3),
        ("decision-list-learner", DecisionListLearner, decision_lists(3, 3), 3),
    ]
    for name, kind, H, bits in cases:
        make = (lambda: kind(H)) if bits is None else (lambda: kind(bits))  # noqa: B023
        points = None if bits is None else bit_vectors(bits)
        forcing = ForcingAdversary.solve(make(), H, points)
        result = forcing.solution
        tr = game.play(make(), forcing, rounds=max(1, len(result.path)))
        s = tr.summary()
        bound = "—" if s["bound"] is None else f"{s['bound']:.4g}"
        table.add_row(name, H.name, str(result.value), str(result.ldim), bound,
                      f"{s['mistakes']}, {s['forced']}")  # fmt: skip
    console.print(table)


def regrets(console: Console) -> None:
    table = Table(title="two experts: minimax regret against Exponential Weights' exact worst case")
    for column in ("T", "minimax", "EWA η = 1", "ratio", "EWA η = √(8 ln 2 / T)", "ratio"):
        table.add_column(column, justify="right")
    for T in range(1, 13):
        v = minimax_regret(2, T)
        one = worst_case_regret(ExponentialWeights(eta=1.0, loss="absolute"), 2, T).value
        tuned = np.sqrt(8 * np.log(2) / T)
        other = worst_case_regret(ExponentialWeights(eta=float(tuned), loss="absolute"), 2, T).value
        table.add_row(
            str(T), f"{v} = {float(v):.4f}", f"{float(one):.4f}", f"{float(one / v):.2f}",
            f"{float(other):.4f}", f"{float(other / v):.2f}",
        )  # fmt: skip
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing (default 3)")
    parser.add_argument("--quick", action="store_true", help="the timings only")
    args = parser.parse_args()
    console = Console()
    timings(console, args.repeats)
    ceiling(console)
    if not args.quick:
        worst_cases(console)
        regrets(console)


if __name__ == "__main__":
    main()
