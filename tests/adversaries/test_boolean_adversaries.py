"""The conjunction adversary and the concept streams."""

import numpy as np
import pytest

from adversaries import ConceptStream, ConjunctionLowerBound
from game import ParameterError, play
from game.players import learners_for, lookup
from game.scenario import load_scenario
from game.testing import RandomLearner, check_adversary, run_checks
from game.theory.concepts import (
    Conjunction,
    DecisionList,
    Disjunction,
    MonotoneConjunction,
    parse_concept,
)
from learners import ConjunctionLearner

# -- the conjunction adversary -------------------------------------------------


def test_instances_are_all_ones_but_bit_i():
    adversary = ConjunctionLowerBound(4)
    tr = play(ConjunctionLearner(), adversary, rounds=10)
    assert tr.instances.dtype == bool
    assert np.array_equal(tr.instances, ~np.eye(4, dtype=bool))
    assert len(tr) == 4  # the game ends after n rounds


def test_forces_exactly_n_mistakes_on_the_elimination_learner():
    for n in (1, 2, 7, 20):
        tr = play(ConjunctionLearner(), ConjunctionLowerBound(n), rounds=100)
        s = tr.summary()
        assert s["mistakes"] == n
        assert s["certificate_verified"] and s["forced"] and s["within_bound"]
        assert s["lower_bound"] == n and s["bound"] == n + 1


class Constant:
    """Always predicts ``value``."""

    deterministic = True

    def __init__(self, value):
        self.value = value

    def predict(self, x):
        return self.value

    def update(self, x, y):
        return False


def test_target_holds_x_i_exactly_when_the_learner_said_true():
    tr = play(Constant(1.0), ConjunctionLowerBound(5), rounds=5)
    assert tr.certificate == MonotoneConjunction(5, ["x1", "x2", "x3", "x4", "x5"])
    assert tr.labels.tolist() == [-1] * 5
    tr = play(Constant(-1.0), ConjunctionLowerBound(5), rounds=5)
    assert tr.certificate == MonotoneConjunction(5, [])
    assert tr.labels.tolist() == [1] * 5
    tr = play(Constant(0.0), ConjunctionLowerBound(3), rounds=5)  # sign(0) = +1: True
    assert str(tr.certificate) == "x1 ∧ x2 ∧ x3"


@pytest.mark.parametrize("name", learners_for("bits", deterministic=True))
def test_every_deterministic_bit_learner_suffers_at_least_n(name):
    for n in (1, 5, 16):
        tr = play(lookup(name)(), ConjunctionLowerBound(n), rounds=10 * n)
        assert tr.certificate_verified
        assert int(tr.mistakes.sum()) >= n
        assert tr.summary()["forced"]


def test_perceptron_is_among_the_learners_checked():
    assert {"perceptron", "conjunction-learner", "decision-list-learner", "winnow"} <= set(
        learners_for("bits", deterministic=True)
    )


def test_a_random_learner_gets_a_verified_certificate_too():
    tr = play(RandomLearner(np.random.default_rng(0)), ConjunctionLowerBound(30), rounds=30)
    assert tr.certificate_verified and int(tr.mistakes.sum()) == 30


def test_variables_is_validated():
    with pytest.raises(ValueError, match="variables must be an integer between 1 and 16384, got 0"):
        ConjunctionLowerBound(0)


# -- concept streams -----------------------------------------------------------


def test_stream_reads_a_readable_target():
    s = ConceptStream("x1 ∧ ¬x3", variables=6)
    assert s.target == Conjunction(6, ["x1", "¬x3"])
    assert s.certificate() is s.target
    X, y = s.examples(500)
    assert np.array_equal(s.target.labels(X), y)


def test_stream_accepts_a_concept_object_and_checks_its_size():
    target = Disjunction(5, ["x2"])
    assert ConceptStream(target).target is target
    with pytest.raises(ParameterError, match="variables must be the concept's 5, got 6"):
        ConceptStream(target, variables=6)
    with pytest.raises(ParameterError, match="concept must be") as info:
        ConceptStream(3)
    assert info.value.parameter == "concept"
    with pytest.raises(ParameterError, match="concept must be a decision list") as info:
        ConceptStream("if x1 then +")
    assert info.value.parameter == "concept"


@pytest.mark.parametrize(
    ("kind", "cls"),
    [
        ("conjunction", Conjunction),
        ("monotone-conjunction", MonotoneConjunction),
        ("disjunction", Disjunction),
        ("decision-list", DecisionList),
    ],
)
def test_stream_draws_a_random_target_of_each_kind(kind, cls):
    s = ConceptStream(kind=kind, variables=12, size=4, rng=np.random.default_rng(1))
    assert type(s.target) is cls and s.target.size == 4 and s.target.variables == 12
    tr = play(ConjunctionLearner(), s, rounds=50)
    assert tr.certificate_verified


def test_bias_sets_the_share_of_positives_even_for_long_conjunctions():
    s = ConceptStream(
        kind="conjunction", variables=40, size=12, bias=0.3, rng=np.random.default_rng(2)
    )
    X, y = s.examples(4000)
    assert 0.27 < np.mean(y > 0) < 0.33
    assert np.array_equal(s.target.labels(X), y)
    # without bias a positive of 12 literals is one draw in 4096
    s = ConceptStream(
        kind="conjunction", variables=40, size=12, bias=None, rng=np.random.default_rng(2)
    )
    assert np.mean(s.examples(4000)[1] > 0) < 0.01


def test_conditioned_draws_keep_the_free_bits_at_the_density():
    s = ConceptStream("x1 ∧ x2", variables=30, bias=1.0, density=0.2, rng=np.random.default_rng(3))
    X, y = s.examples(3000)
    assert np.all(y == 1) and np.all(X[:, :2])
    assert 0.18 < X[:, 2:].mean() < 0.22


def test_bias_none_is_spelled_as_a_string_in_scenario_files(tmp_path):
    path = tmp_path / "uniform.toml"
    path.write_text(
        'rounds = 50\n[learner]\nname = "winnow"\n'
        '[adversary]\nname = "concept-stream"\nkind = "disjunction"\nbias = "none"\n',
        encoding="utf-8",
    )
    _learner, stream = load_scenario(path).build()
    assert stream.bias is None
    assert ConceptStream(bias="None").bias is None


def test_density_draws_sparse_vectors():
    s = ConceptStream(kind="disjunction", variables=200, size=2, bias=None, density=0.05)
    X, _ = s.examples(1000)
    assert 0.04 < X.mean() < 0.06


def test_bias_refuses_a_label_the_target_never_gives():
    with pytest.raises(ValueError, match="bias must be 0 or None"):
        ConceptStream("x1 ∧ ¬x1", variables=2)
    with pytest.raises(ValueError, match="bias must be 1 or None"):
        ConceptStream("True", variables=2)
    assert ConceptStream("True", variables=2, bias=1.0).examples(3)[1].tolist() == [1, 1, 1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": 11}, "size must be at most the 10 variables"),
        ({"size": True}, "size must be an integer ≥ 0"),
        ({"density": 1.0}, "density must be a number in"),
        ({"kind": "parity"}, "kind must be one of"),
        ({"bias": 1.5}, "bias must be a number in"),
        ({"variables": 0}, "variables must be an integer between 1 and 65536"),
    ],
)
def test_parameters_are_validated(kwargs, message):
    with pytest.raises(ParameterError, match=message) as info:
        ConceptStream(**kwargs)
    assert info.value.parameter == next(iter(kwargs))


def test_examples_are_what_a_game_sees():
    def make():
        return ConceptStream(
            kind="decision-list", variables=9, size=3, rng=np.random.default_rng(4)
        )

    X, y = make().examples(600)
    tr = play(ConjunctionLearner(), make(), rounds=600)
    assert np.array_equal(tr.instances, X) and np.array_equal(tr.labels, y)


def test_stream_is_oblivious():
    a = play(
        RandomLearner(np.random.default_rng(0)),
        ConceptStream(rng=np.random.default_rng(5)),
        rounds=300,
    )
    b = play(ConjunctionLearner(), ConceptStream(rng=np.random.default_rng(5)), rounds=300)
    assert np.array_equal(a.instances, b.instances) and np.array_equal(a.labels, b.labels)


def test_scenario_tables_name_the_target_by_its_readable_form(tmp_path):
    path = tmp_path / "given.toml"
    path.write_text(
        "rounds = 200\n"
        '[learner]\nname = "decision-list-learner"\n'
        '[adversary]\nname = "concept-stream"\n'
        'concept = "if x2 then + elif ¬x1 then − else +"\nvariables = 4\n',
        encoding="utf-8",
    )
    tr = load_scenario(path).play()
    assert tr.certificate == parse_concept("if x2 then + elif ¬x1 then − else +", 4)
    assert tr.header["adversary"]["params"]["concept"] == "if x2 then + elif ¬x1 then − else +"
    assert tr.within_bound


# -- conformance ---------------------------------------------------------------


@pytest.mark.parametrize(
    "factory",
    [
        lambda rng: ConjunctionLowerBound(12),
        lambda rng: ConceptStream(rng=rng),
        lambda rng: ConceptStream(kind="decision-list", variables=6, size=3, rng=rng),
        lambda rng: ConceptStream("x1 ∨ x3", variables=8, bias=None, density=0.3, rng=rng),
    ],
    ids=["lower-bound", "stream", "stream-decision-list", "stream-disjunction"],
)
def test_adversaries_pass_the_conformance_checks(factory):
    failed = [r for r in run_checks(check_adversary(factory)) if not r.passed]
    assert not failed, failed
