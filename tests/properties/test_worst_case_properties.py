"""Properties of the exact worst case: against the plain game tree, Ldim and the theorems."""

from __future__ import annotations

import copy
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import game
from adversaries import ForcingAdversary
from game.testing.strategies import finite_classes, structured_classes
from game.theory.concepts import (
    FiniteClass,
    bit_vectors,
    conjunctions,
    decision_lists,
    intervals,
    thresholds,
)
from game.theory.solve import worst_case
from learners import SOA, ConjunctionLearner, DecisionListLearner, Halving, Winnow

small_classes = st.one_of(finite_classes(max_hypotheses=16, max_points=6), structured_classes(2))


def plain_value(learner, cls: FiniteClass, rounds: int, points=None) -> int:
    """The game tree walked as it is defined: every point, every label left, a copy per move."""
    shown = list(range(cls.n_points)) if points is None else list(points)

    def walk(learner, alive: np.ndarray, t: int) -> int:
        if t == 0:
            return 0
        best = 0
        for x in range(cls.n_points):
            for y in (-1, 1):
                side = alive & (cls.matrix[:, x] == y)
                if not side.any():
                    continue
                after = copy.deepcopy(learner)
                p = after.predict(shown[x])
                after.update(shown[x], y)
                mistake = int((1 if p >= 0 else -1) != y)
                best = max(best, mistake + walk(after, side, t - 1))
        return best

    return walk(learner, np.ones(cls.n_hypotheses, dtype=bool), rounds)


class Memory:
    """Predicts the last label it saw (+1 at first)."""

    def __init__(self):
        self.last = 1

    def predict(self, x):
        return float(self.last)

    def update(self, x, y):
        changed = y != self.last
        self.last = y
        return changed


class KeyedMemory(Memory):
    def state_key(self):
        return self.last


@given(small_classes)
def test_soa_is_forced_exactly_ldim(cls):
    result = worst_case(SOA(cls), cls)
    assert result.value == result.ldim == cls.engine.ldim()


@settings(max_examples=15)
@given(st.one_of(st.integers(0, 20).map(thresholds), st.integers(0, 6).map(intervals)))
def test_soa_is_forced_exactly_ldim_on_thresholds_and_intervals(cls):
    result = worst_case(SOA(cls), cls)
    assert result.value == cls.engine.ldim()
    if cls.name.startswith("thresholds"):
        assert result.value == math.floor(math.log2(cls.n_hypotheses))


@given(small_classes)
def test_halving_between_ldim_and_log2(cls):
    result = worst_case(Halving(cls), cls)
    assert result.ldim <= result.value <= math.floor(math.log2(cls.n_hypotheses))
    assert sum(mistake for _, _, mistake in result.path) == result.value
    row = cls.matrix[result.witness]
    assert all(row[x] == y for x, y, _ in result.path)


@given(small_classes, st.sampled_from([Halving, SOA, KeyedMemory]))
def test_every_deterministic_learner_is_forced_at_least_ldim(cls, make):
    learner = make(cls) if make is not KeyedMemory else make()
    assert worst_case(learner, cls).value >= cls.engine.ldim()


@settings(max_examples=20)
@given(
    finite_classes(max_hypotheses=8, max_points=3),
    st.integers(0, 4),
    st.sampled_from(["halving", "soa", "memory", "keyed-memory"]),
)
def test_the_horizon_search_agrees_with_the_plain_game_tree(cls, rounds, which):
    make = {
        "halving": lambda: Halving(cls),
        "soa": lambda: SOA(cls),
        "memory": Memory,
        "keyed-memory": KeyedMemory,
    }[which]
    result = worst_case(make(), cls, rounds=rounds)
    assert result.value == plain_value(make(), cls, rounds)
    assert len(result.path) <= rounds


@settings(max_examples=10)
@given(st.integers(0, 3), st.sampled_from([ConjunctionLearner, DecisionListLearner, Winnow]))
def test_learners_of_bits_agree_with_the_plain_game_tree(rounds, make):
    cls = conjunctions(1) if make is not DecisionListLearner else decision_lists(1, 1)
    X = bit_vectors(1)
    assert worst_case(make(), cls, points=X, rounds=rounds).value == plain_value(
        make(), cls, rounds, points=X
    )


@given(small_classes, st.sampled_from([Halving, SOA]))
def test_the_value_is_the_horizon_value_at_the_length_of_its_path(cls, make):
    result = worst_case(make(cls), cls)
    assert worst_case(make(cls), cls, rounds=len(result.path)).value == result.value
    if result.path:
        assert worst_case(make(cls), cls, rounds=len(result.path) - 1).value <= result.value


@given(small_classes, st.sampled_from(["halving", "soa"]))
def test_the_forcing_adversary_forces_the_value_on_its_learner(cls, name):
    adversary = ForcingAdversary(cls, name)
    learner = Halving(cls) if name == "halving" else SOA(cls)
    s = game.play(learner, adversary, rounds=100).summary()
    assert s["mistakes"] == adversary.value
    assert s["certificate_verified"] is True
    assert s["lower_bound"] == adversary.value and s["forced"] is True


@given(small_classes, st.sampled_from(["halving", "soa"]))
def test_the_forcing_adversary_keeps_its_claim_on_any_learner(cls, name):
    adversary = ForcingAdversary(cls, name)
    other = SOA(cls) if name == "halving" else Halving(cls)
    tr = game.play(other, adversary, rounds=100)
    s = tr.summary()
    assert s["certificate_verified"] is True
    assert s["forced"] is True
    assert s["lower_bound"] >= 0


def test_a_learner_of_bits_agrees_with_the_plain_game_tree_at_its_value():
    cls, X = decision_lists(2, 1), bit_vectors(2)
    result = worst_case(DecisionListLearner(), cls, points=X)
    assert result.value == plain_value(DecisionListLearner(), cls, len(result.path), points=X)
