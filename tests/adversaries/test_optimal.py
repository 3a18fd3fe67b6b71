"""The optimal adversary of a finite class."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import game
from adversaries import OptimalAdversary
from game.players import learners_for, lookup
from game.theory.concepts import (
    FiniteClass,
    all_functions,
    conjunctions,
    intervals,
    monotone_conjunctions,
    singletons,
    thresholds,
)
from game.theory.littlestone import ldim
from learners import SOA


@pytest.mark.parametrize(
    "cls",
    [thresholds(20), intervals(16), singletons(7), all_functions(5), conjunctions(3)],
)
def test_forces_exactly_ldim_on_soa(cls):
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=200)
    s = tr.summary()
    assert s["mistakes"] == len(tr) == ldim(cls)
    assert s["certificate_verified"] and s["forced"] and s["within_bound"]
    assert tr.extras["ldim"].tolist() == list(range(ldim(cls) - 1, -1, -1))


@pytest.mark.parametrize("cls", [thresholds(20), intervals(12), monotone_conjunctions(4)])
def test_forces_at_least_ldim_on_every_deterministic_point_learner(cls):
    for name in learners_for("point", deterministic=True):
        tr = game.play(lookup(name)(concept_class=cls), OptimalAdversary(cls), rounds=500)
        s = tr.summary()
        assert s["mistakes"] >= ldim(cls), name
        assert s["mistakes"] == len(tr), name  # every round is a mistake
        assert s["certificate_verified"], name


def test_monotone_conjunctions_generalise_the_conjunction_adversary():
    # seed 003: n mistakes on monotone conjunctions over n bits
    cls = monotone_conjunctions(5)
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=100)
    assert tr.summary()["mistakes"] == 5


def test_a_prediction_of_zero_counts_as_plus_one():
    class Undecided:
        deterministic = True

        def predict(self, x):
            return 0.0

        def update(self, x, y):
            return False

    cls = thresholds(7)
    tr = game.play(Undecided(), OptimalAdversary(cls), rounds=50)
    assert set(tr.labels.tolist()) == {-1}
    assert tr.summary()["mistakes"] == len(tr) == 3


def test_one_hypothesis_ends_the_game_at_once():
    tr = game.play(SOA([[1, -1]]), OptimalAdversary([[1, -1]]), rounds=5)
    assert len(tr) == 0 and tr.certificate.index == 0


def test_the_empty_class_has_no_certificate():
    adversary = OptimalAdversary(FiniteClass(np.zeros((0, 2))))
    assert adversary.instance(None) is None and adversary.certificate() is None


def test_rounds_cut_short():
    cls = intervals(32)
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=3)
    assert len(tr) == 3 and tr.certificate_verified
    assert not tr.summary()["forced"]


def test_shares_the_class_engine_and_pickles_mid_game():
    cls = intervals(20)
    adversary = OptimalAdversary(cls)
    x = adversary.instance(None)
    adversary.label(x, 1.0, None)
    clone = pickle.loads(pickle.dumps(adversary))
    assert clone.instance(None) == adversary.instance(None)
    assert SOA(cls).concept_class.engine is adversary.concept_class.engine


def test_a_saved_transcript_reloads_its_certificate_and_re_verifies(tmp_path):
    from game.theory import first_disagreement

    cls = intervals(10)
    path = tmp_path / "game.jsonl"
    tr = game.play(SOA(cls), OptimalAdversary(cls), rounds=50, out=path)
    back = game.Transcript.load(path)
    assert back.certificate == tr.certificate
    assert first_disagreement(back.certificate, back.instances, back.labels) is None
