"""The learners of Boolean concepts: elimination, decision lists, Winnow."""

import numpy as np
import pytest

from adversaries import ConceptStream, Replay
from game import ProtocolError, play
from game.testing import check_learner, run_checks
from game.theory.concepts import Conjunction, Disjunction, Literal
from learners import ConjunctionLearner, DecisionListLearner, Winnow


def vec(text: str) -> np.ndarray:
    """A bit vector from a string such as "1001" (bit 1 first, as in the lecture)."""
    return np.array([c == "1" for c in text], dtype=bool)


# -- the conjunction learner ---------------------------------------------------


def test_conjunction_learner_replays_the_lecture_example():
    learner = ConjunctionLearner()
    x = vec("1001")
    assert learner.predict(x) == -1.0  # h has every literal: False everywhere
    assert str(learner.hypothesis) == "x1 ∧ ¬x1 ∧ x2 ∧ ¬x2 ∧ x3 ∧ ¬x3 ∧ x4 ∧ ¬x4"
    assert learner.update(x, 1) is True
    assert str(learner.hypothesis) == "x1 ∧ ¬x2 ∧ ¬x3 ∧ x4"
    assert learner.snapshot() == {"variables": 4.0, "literals": 4.0, "inconsistent": 0.0}
    assert learner.update(vec("1101"), 1) is True
    assert str(learner.hypothesis) == "x1 ∧ ¬x3 ∧ x4"
    assert learner.update(vec("1101"), 1) is False  # right: nothing to do


def test_a_false_positive_raises_the_flag_in_snapshot_and_transcript():
    X = np.array([vec("110"), vec("110"), vec("111"), vec("010")])
    y = [1, -1, 1, 1]  # round 2 contradicts round 1: no conjunction fits
    tr = play(ConjunctionLearner(), Replay(instances=X, labels=y), rounds=4, snapshots=True)
    assert tr.extras["inconsistent"].tolist() == [0.0, 1.0, 1.0, 1.0]
    assert tr.snapshot("inconsistent").tolist() == [0.0, 1.0, 1.0, 1.0]
    assert tr.mistakes.tolist() == [True, True, True, True]
    assert tr.updated.tolist() == [True, False, True, True]  # it keeps playing
    assert tr.snapshot("literals").tolist() == [3.0, 3.0, 2.0, 1.0]


def test_conjunction_learner_keeps_the_target_literals_on_a_stream():
    stream = ConceptStream("x2 ∧ ¬x5", variables=8, rng=np.random.default_rng(0))
    learner = ConjunctionLearner()
    tr = play(learner, stream, rounds=300)
    assert set(Conjunction(8, ["x2", "¬x5"]).literals) <= set(learner.hypothesis.literals)
    assert tr.within_bound and tr.bound.value == 9
    assert not learner.inconsistent


def test_conjunction_learner_reads_uint8_and_bool_alike():
    a, b = ConjunctionLearner(), ConjunctionLearner()
    for text, y in [("1011", 1), ("0011", -1), ("1010", 1)]:
        x = vec(text)
        assert a.predict(x) == b.predict(x.astype(np.uint8))
        assert a.update(x, y) == b.update(x.astype(np.uint8), y)
    assert a.hypothesis == b.hypothesis


class Ragged:
    """Presents a 3-bit vector, then a 4-bit one."""

    def __init__(self):
        self.rows = [vec("101"), vec("1010")]

    def instance(self, history):
        return self.rows[len(history)] if len(history) < 2 else None

    def label(self, x, p, history):
        return 1

    def certificate(self):
        return None


@pytest.mark.parametrize("learner", [ConjunctionLearner, DecisionListLearner, Winnow])
def test_learners_refuse_a_vector_of_another_length(learner):
    with pytest.raises(ProtocolError, match=r"round 2.*length 3"):
        play(learner(), Ragged(), rounds=2)


def test_conjunction_learner_has_no_bound_without_a_conjunction_certificate():
    tr = play(ConjunctionLearner(), ConceptStream("x1 ∨ x2", variables=3), rounds=20)
    assert tr.bound is None


def test_variables_is_checked_and_sets_the_initial_state():
    assert ConjunctionLearner(variables=3).snapshot()["literals"] == 6.0
    assert ConjunctionLearner().snapshot()["literals"] == 0.0
    with pytest.raises(ValueError, match="variables must be an integer between 1 and 65536, got 0"):
        ConjunctionLearner(variables=0)


# -- the decision-list learner -------------------------------------------------


def test_decision_list_learner_replays_the_lecture_example():
    # 003 §2.2: n = 2, target "if x1 then − elif ¬x2 then + else −"
    d = DecisionListLearner()
    assert d.predict(vec("01")) == 1.0 and d.update(vec("01"), -1)
    assert d.describe() == (
        "{x1 → +, x1 → −, ¬x1 → −, x2 → −, ¬x2 → +, ¬x2 → −, True → −} "
        "else {¬x1 → +, x2 → +, True → +}"
    )
    assert d.predict(vec("00")) == -1.0 and d.update(vec("00"), 1)
    assert d.describe() == (
        "{x1 → +, x1 → −, x2 → −, ¬x2 → +} "
        "else {¬x1 → +, ¬x1 → −, x2 → +, ¬x2 → −, True → +, True → −}"
    )
    assert d.snapshot()["levels"].tolist() == [4.0, 6.0, 0.0, 0.0]
    assert d.snapshot()["fallen"] == 6.0


def test_decision_list_tie_rule_is_the_first_firing_rule_in_the_fixed_order():
    d = DecisionListLearner(variables=3)
    rules = d.rules()
    assert len(rules) == 4 * 3 + 2
    assert [f"{lit or 'True'}:{b:+d}" for lit, b in rules[:4]] == [
        "x1:+1",
        "x1:-1",
        "¬x1:+1",
        "¬x1:-1",
    ]
    assert rules[-2:] == [(None, 1), (None, -1)]
    # every vector makes x1 → + or ¬x1 → + fire first: the first prediction is +
    for x in (vec("000"), vec("111"), vec("100")):
        assert DecisionListLearner().predict(x) == 1.0
    assert d.rule_index(Literal(1, True), -1) == 7
    assert d.level_of(None, -1) == 0


def test_decision_list_learner_updates_only_on_mistakes():
    d = DecisionListLearner()
    x = vec("10")
    assert d.predict(x) == 1.0
    assert d.update(x, 1) is False
    assert d.snapshot()["fallen"] == 0.0
    assert d.update(x, -1) is True
    assert d.snapshot()["fallen"] > 0


def test_decision_list_bound_uses_the_certificate_as_a_list():
    stream = ConceptStream("x1 ∧ ¬x2 ∧ x3", variables=5, rng=np.random.default_rng(2))
    tr = play(DecisionListLearner(), stream, rounds=200)
    assert tr.bound.value == (4 * 5 + 2) * (3 + 1)
    assert tr.within_bound


# -- Winnow --------------------------------------------------------------------


def test_winnow_doubles_on_false_negatives_and_zeroes_or_halves_on_false_positives():
    for variant, after in (
        ("elimination", [0.0, 0.0, 1.0, 1.0]),
        ("halving", [1.0, 1.0, 1.0, 1.0]),
    ):
        w = Winnow(variant)
        x = vec("1100")
        assert w.predict(x) == -1.0 and w.update(x, 1) is True  # 2 < 4: promote
        assert w.weights.tolist() == [2.0, 2.0, 1.0, 1.0]
        assert w.predict(x) == 1.0 and w.update(x, -1) is True  # 4 ≥ 4: demote
        assert w.weights.tolist() == after
        assert w.snapshot() == {
            "weight_sum": float(sum(after)),
            "promotions": 1.0,
            "demotions": 1.0,
        }


def test_winnow_threshold_is_n_and_ties_predict_positive():
    w = Winnow(variables=4)
    assert w.threshold == 4
    assert w.predict(vec("1111")) == 1.0
    assert w.predict(vec("1110")) == -1.0


def test_winnow_promotion_of_zero_weights_changes_nothing():
    w = Winnow()
    x = vec("10")
    w.predict(x)
    w.update(x, 1)  # w = [2, 1]
    w.predict(x)
    w.update(x, -1)  # eliminated: w = [0, 1]
    w.predict(x)
    assert w.update(x, 1) is False  # a mistake, but nothing to double
    assert w.snapshot()["promotions"] == 2.0


def test_winnow_bound_only_for_monotone_disjunctions():
    tr = play(Winnow(), ConceptStream("x1 ∨ x4", variables=16), rounds=100)
    assert tr.bound.value == 1 + 2 * 2 * (1 + 4)
    assert tr.within_bound
    tr = play(Winnow("halving"), ConceptStream("x1 ∨ x4", variables=16), rounds=100)
    assert tr.bound.value == 2 + 3 * 2 * (1 + 4)
    assert play(Winnow(), ConceptStream("x1 ∨ ¬x4", variables=16), rounds=10).bound is None
    assert play(Winnow(), ConceptStream("x1 ∧ x4", variables=16), rounds=10).bound is None
    assert isinstance(tr.certificate, Disjunction)


def test_winnow_variant_is_validated():
    with pytest.raises(ValueError, match="variant must be one of 'elimination', 'halving'"):
        Winnow("doubling")


# -- conformance ---------------------------------------------------------------


@pytest.mark.parametrize(
    "factory",
    [
        lambda rng: ConjunctionLearner(),
        lambda rng: DecisionListLearner(),
        lambda rng: Winnow(),
        lambda rng: Winnow("halving"),
    ],
    ids=["conjunction", "decision-list", "winnow", "winnow-halving"],
)
def test_learners_pass_the_conformance_checks(factory):
    failed = [r for r in run_checks(check_learner(factory)) if not r.passed]
    assert not failed, failed
