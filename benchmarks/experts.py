"""Expert learners at scale: per-round cost beside one numpy pass over the advice vector.

Plays N = 2²⁰ experts for 1,000 rounds through ``game.play`` (engine included)
and prints each learner's cost per round beside the floor: one numpy pass over
the same advice vector, ``advice.sum()``, timed in the same run with the calls
interleaved. Target: Halving and Exponential Weights within 3× of the floor.
For scale it also times one pass over N float64 numbers, ``weights.sum()``:
Exponential Weights and Weighted Majority read and rewrite N int64 loss counts
every round (and read them again to weigh the advice), eight times the bytes
of the int8 advice.

The advice is ±1 int8, as the project's adversaries send it. The adversary
cycles through 16 advice vectors drawn beforehand, rows of a block in
immutable memory as the expert streams hold theirs, so it costs nothing per
round and the referee records each row by reference (no copy): the
transcript holds 16 arrays however long the game; it hands over
no certificate (verifying one would stack the whole game into one array), and
the learners' ``mistake_bound`` is switched off (it reads the whole game again
after the last round; it is not part of a round). Games:

- *C_t collapses*: random advice, outcomes of expert 0 (a perfect expert).
  Halving's consistent set shrinks to a handful within ~20 rounds.
- *C_t ≈ N*: outcomes of expert 0 again, but on each advice vector only one
  expert in 1,000 disagrees with it, so Halving keeps about 98% of the experts
  and pays for all of them every round (its worst case per round).
- *random outcomes*: random advice and outcomes; every learner's weights
  change on every round (the case that costs Exponential Weights most).

Exponential Weights and Weighted Majority are timed both ways side by side:
with their pass over the weights compiled (numba, the ``fast`` extra) and
with numpy alone (inside ``game.theory.compiled(False)``). The
compiled way is skipped when numba is not installed.

Halving is also timed playing *points* of a class: ``all_functions(20)``
(N = 2²⁰ hypotheses × 20 points), every round's prediction and update timed
alone, on a fresh learner each repeat, beside one pass over that round's
advice (the class's column for the point, ``.sum()``). The worst round is the
figure (target ≤ 3× one pass); the class's columns (its matrix transposed,
made once per class and shared by every learner on it) are timed apart.

Run: ``python benchmarks/experts.py [--experts N] [--rounds T] [--repeats K]``.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Any, ClassVar

import numpy as np
from rich.console import Console
from rich.table import Table

from game import play
from game.theory import compiled, frozen_copy
from game.theory.concepts import all_functions
from learners.experts import ExponentialWeights, Halving, WeightedMajority
from learners.weight_kernels import available

_BLOCKS = 16


class Blocks:
    """Cycles through advice vectors drawn beforehand; outcomes given per round."""

    presents: ClassVar[str] = "advice"

    def __init__(self, advice: list[np.ndarray], outcomes: np.ndarray):
        self.advice, self.outcomes, self.t = advice, outcomes.tolist(), 0

    def instance(self, history) -> Any:
        if self.t == len(self.outcomes):
            return None
        self.t += 1
        return self.advice[(self.t - 1) % len(self.advice)]

    def label(self, x, p, history) -> int:
        return self.outcomes[self.t - 1]

    def certificate(self) -> None:
        return None


def games(n: int, rounds: int, rng: np.random.Generator) -> dict[str, Blocks]:
    """The three games of the module's docstring, as fresh adversaries each call."""
    random = [(2 * rng.integers(0, 2, n) - 1).astype(np.int8) for _ in range(_BLOCKS)]
    near = []
    for _ in range(_BLOCKS):
        a = np.full(n, random[0][0], dtype=np.int8)
        a[rng.random(n) < 1e-3] *= -1
        a[0] = random[0][0]
        near.append(a)
    random = list(frozen_copy(np.stack(random)))  # rows of immutable blocks, as the
    near = list(frozen_copy(np.stack(near)))  # expert streams hold their advice: by reference
    outcomes_random = 2 * rng.integers(0, 2, rounds) - 1

    def follow(blocks):
        return np.array([int(blocks[t % _BLOCKS][0]) for t in range(rounds)])

    specs = {
        "C_t collapses": (random, follow(random)),
        "C_t ≈ N": (near, follow(near)),
        "random outcomes": (random, outcomes_random),
    }
    return {name: (lambda a=a, y=y: Blocks(a, y)) for name, (a, y) in specs.items()}


def floor_pass(blocks: list[np.ndarray], rounds: int) -> float:
    """Seconds for ``rounds`` passes ``advice.sum()`` over the cycled advice vectors."""
    start = time.perf_counter()
    for t in range(rounds):
        blocks[t % len(blocks)].sum()
    return time.perf_counter() - start


def weights_pass(weights: np.ndarray, rounds: int) -> float:
    """Seconds for ``rounds`` passes ``weights.sum()`` over N float64 numbers."""
    start = time.perf_counter()
    for _ in range(rounds):
        weights.sum()
    return time.perf_counter() - start


def unbounded(cls):
    """``cls`` without ``mistake_bound``: the bound's pass over the game is not timed or run."""
    return type(cls.__name__, (cls,), {"mistake_bound": None})


def per_round(make_learner, make_adversary, rounds: int, loss: str) -> float:
    """Seconds per round of ``game.play`` (the engine's wall time, the referee included)."""
    tr = play(make_learner(), make_adversary(), rounds=rounds, loss=loss)
    return tr.wall_time / len(tr)


def ways(learner_name: str) -> list[str]:
    """How a learner is timed: Halving has one way; the weighted learners two, numba permitting."""
    if learner_name == "halving":
        return ["numpy"]
    return ["compiled", "numpy"] if available() else ["numpy"]


def halving_on_points(bits: int, repeats: int) -> tuple[float, float, float]:
    """Halving on the points of ``all_functions(bits)``: its worst round and the columns' cost.

    Returns (worst round / one pass, the round where it fell, columns / one pass),
    one pass being ``advice.sum()`` over a point's N advice, best of ``repeats``.
    """
    cls = all_functions(bits)
    start = time.perf_counter()
    columns = cls.columns  # once per class
    made = time.perf_counter() - start
    floor = min(
        min(_timed(lambda x=x: columns[x].sum()) for x in range(bits)) for _ in range(repeats)
    )
    best = [float("inf")] * bits
    for _ in range(repeats):
        learner = Halving(concept_class=cls)
        for x in range(bits):  # outcome +1 each round: C_t halves, N/2^t experts left
            best[x] = min(best[x], _timed(partial(_round, learner, x)))
    worst = max(range(bits), key=best.__getitem__)
    return best[worst] / floor, worst, made / floor


def _round(learner: Halving, x: int) -> None:
    learner.predict(x)
    learner.update(x, 1)


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experts", type=int, default=1 << 20)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n, rounds = args.experts, args.rounds
    adversaries = games(n, rounds, np.random.default_rng(0))
    ewa = unbounded(ExponentialWeights)
    learners = {
        "halving": (unbounded(Halving), "zero-one"),
        "exponential-weights": (lambda: ewa(eta=0.5, loss="absolute"), "absolute"),
        "weighted-majority": (unbounded(WeightedMajority), "zero-one"),
    }
    sample = adversaries["random outcomes"]().advice
    weights = np.random.default_rng(1).random(n)
    for make_learner, loss in learners.values():  # compile (or load) the pass before the clock
        per_round(make_learner, adversaries["random outcomes"], 3, loss)
    table = Table(
        title=f"N = {n:,} experts (int8 ±1 advice), {rounds:,} rounds, best of {args.repeats}; "
        "microseconds per round"
    )
    columns = ("game", "learner", "pass", "floor: advice.sum()", "learner", "× floor")
    for column in (*columns, "weights.sum()"):
        table.add_column(column, justify="left" if column in columns[:3] else "right")
    worst: dict[tuple[str, str], float] = {}
    for game_name, make_adversary in adversaries.items():
        for learner_name, (make_learner, loss) in learners.items():
            for way in ways(learner_name):
                floor, cost, heavy = [], [], []
                with compiled(way == "compiled"):
                    for _ in range(args.repeats):
                        floor.append(floor_pass(sample, rounds) / rounds)
                        cost.append(per_round(make_learner, make_adversary, rounds, loss))
                        heavy.append(weights_pass(weights, rounds) / rounds)
                f, c, h = min(floor), min(cost), min(heavy)
                key = (learner_name, way)
                worst[key] = max(worst.get(key, 0.0), c / f)
                table.add_row(
                    game_name,
                    learner_name,
                    way,
                    f"{f * 1e6:,.0f}",
                    f"{c * 1e6:,.0f}",
                    f"{c / f:.2f}",
                    f"{h * 1e6:,.0f}",
                )
    Console().print(table)
    for (learner_name, way), ratio in worst.items():
        verdict = "met" if ratio <= 3.0 else "not met"
        print(f"{learner_name} ({way}): at most {ratio:.2f}× the floor (target ≤ 3×: {verdict})")
    ratio, at, made = halving_on_points(20, max(args.repeats, 5))
    verdict = "met" if ratio <= 3.0 else "not met"
    print(
        f"halving on the points of all_functions(20): worst round (round {at + 1}) "
        f"{ratio:.2f}× one pass over its advice (target ≤ 3×: {verdict}); "
        f"the class's columns, once per class: {made:.0f}× one pass"
    )


if __name__ == "__main__":
    main()
