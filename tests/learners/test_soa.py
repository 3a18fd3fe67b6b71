"""The Standard Optimal Algorithm over finite classes."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import game
from adversaries import OptimalAdversary, Replay
from game import ParameterError
from game.theory import compiled
from game.theory.concepts import FiniteClass, intervals, singletons, thresholds
from game.theory.littlestone import ldim
from learners import SOA


def test_predicts_the_side_of_larger_ldim():
    cls = intervals(8)
    soa = SOA(cls)
    for x in range(8):
        plus = cls.matrix[:, x] > 0
        expected = 1.0 if ldim(cls.subclass(plus)) >= ldim(cls.subclass(~plus)) else -1.0
        assert soa.predict(x) == expected


def test_ties_go_to_plus_one():
    # two hypotheses that differ on point 0: both sides have Ldim 0
    soa = SOA([[1, 1], [-1, 1]])
    assert soa.predict(0) == 1.0


def test_singletons_are_learnt_with_one_mistake():
    cls = singletons(6)
    soa = SOA(cls)
    # SOA predicts −1 everywhere (Ldim of {x = i} is 0, of the rest 0 or more)
    mistakes = 0
    for x in range(6):
        y = 1 if x == 4 else -1
        mistakes += soa.predict(x) != y
        soa.update(x, y)
    assert mistakes <= 1


def test_update_reports_changes_and_keeps_the_version_space():
    soa = SOA(thresholds(4))
    assert soa.update(2, 1) is True
    assert soa.version_space.tolist() == [0, 1, 2]
    assert soa.update(3, 1) is False  # every remaining threshold says + at 3
    assert soa.snapshot() == {"version_space": 3, "ldim": 1}


def test_a_label_no_hypothesis_gives_keeps_the_version_space_and_drops_the_bound():
    soa = SOA(thresholds(4))
    soa.update(2, -1)
    kept = soa.version_space.tolist()
    assert soa.update(3, -1) is True and soa.update(0, 1) is False
    assert soa.version_space.size <= len(kept)
    tr = game.play(SOA(thresholds(3)), Replay(instances=[2, 0], labels=[-1, 1]), rounds=2)
    assert tr.bound is None


def test_mistake_bound_is_the_class_ldim():
    cls = intervals(10)
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=50)
    assert tr.bound.value == ldim(cls)
    assert "Lemma 21.7" in tr.bound.source


def test_no_bound_over_the_empty_class():
    # Lemma 21.7 is about a class with a hypothesis; Ldim(∅) = −1 is no mistake bound
    empty = FiniteClass(np.zeros((0, 3)))
    tr = game.play(SOA(empty), Replay(instances=np.zeros(0, dtype=np.int64), labels=[]), rounds=0)
    assert len(tr) == 0 and tr.bound is None


def test_bad_points_are_protocol_errors():
    with pytest.raises(game.ProtocolError, match="point"):
        game.play(SOA(thresholds(3)), Replay(instances=[5], labels=[1]), rounds=1)
    with pytest.raises(ValueError, match="integer index"):
        SOA(thresholds(3)).predict(1.5)


def test_concept_class_is_required_and_checked():
    with pytest.raises(TypeError):
        SOA()  # attrs: a required argument is missing
    for bad in (None, [[1, 0]], "thresholds"):
        with pytest.raises(ParameterError) as info:
            SOA(bad)
        assert info.value.parameter == "concept_class"


def test_accepts_numpy_points_and_pickles_mid_game():
    cls = intervals(12)
    soa = SOA(cls)
    soa.predict(np.int64(5))
    soa.update(np.int64(5), 1)
    clone = pickle.loads(pickle.dumps(soa))
    for x in (2, 7, 9):
        assert clone.predict(x) == soa.predict(x)
    assert clone.snapshot() == soa.snapshot()


def test_is_registered_as_a_deterministic_point_learner():
    from game.players import learners_for

    assert "soa" in learners_for("point", deterministic=True)


def test_a_game_costs_far_less_than_fresh_dimensions_every_round():
    # the memo's states are counted on the numpy search (the compiled one keeps no memo)
    with compiled(False):
        fresh = intervals(48)
        fresh.engine.ldim()
        one_call = fresh.engine.stats["states"]  # restrictions reduced by one fresh ldim
        cls = intervals(48)
        tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=100)
        game_states = cls.engine.stats["states"]
    assert len(tr) == ldim(cls)
    # two fresh ldim calls per round would reduce about 2 · rounds · one_call restrictions
    assert game_states < 0.25 * 2 * len(tr) * one_call
