"""Boolean concepts: readable forms, evaluation, regions, certificates, random draws."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import play
from game.errors import ParameterError
from game.testing.strategies import boolean_concepts, conjunctions, decision_lists, disjunctions
from game.theory import certificate_from_dict, first_disagreement
from game.theory.concepts import (
    Conjunction,
    DecisionList,
    Disjunction,
    Literal,
    MonotoneConjunction,
    parse_concept,
    parse_literal,
    random_concept,
)
from game.theory.concepts._boolean import bits
from game.transcript import Transcript


def cube(n: int) -> np.ndarray:
    """All 2ⁿ bit vectors, one per row."""
    return np.array(list(itertools.product([False, True], repeat=n)), dtype=bool).reshape(-1, n)


def brute(concept, x) -> bool:
    """The concept's definition, one vector at a time, with no numpy tricks."""
    value = [bool(b) for b in x]
    lit = lambda literal: value[literal.variable] != literal.negated  # noqa: E731
    if isinstance(concept, Conjunction):
        return all(lit(a) for a in concept.literals)
    if isinstance(concept, Disjunction):
        return any(lit(a) for a in concept.literals)
    for a, label in concept.rules:
        if lit(a):
            return label == 1
    return concept.default == 1


# -- readable forms ------------------------------------------------------------


def test_readable_forms_use_the_lecture_notation():
    assert str(Conjunction(4, ["¬x3", "x1"])) == "x1 ∧ ¬x3"
    assert str(MonotoneConjunction(5, ["x4", "x1"])) == "x1 ∧ x4"
    assert str(Disjunction(6, ["x5", "x2"])) == "x2 ∨ x5"
    dl = DecisionList(3, [("x2", 1), ("¬x1", -1)], default=1)
    assert str(dl) == "if x2 then + elif ¬x1 then − else +"
    assert str(Conjunction(3, [])) == "True"
    assert str(Disjunction(3, [])) == "False"
    assert str(DecisionList(3, [], default=-1)) == "always −"
    assert Conjunction(4, ["x1"]).describe() == "x1 over 4 variables"


def test_literals_are_numbered_from_one_in_readable_form():
    assert str(Literal(0)) == "x1"
    assert parse_literal("¬x3") == Literal(2, negated=True)
    for text in ("~x3", "!x3", "not x3", "-x3"):
        assert parse_literal(text) == Literal(2, negated=True)
    with pytest.raises(ValueError, match="numbered from 1"):
        parse_literal("x0")
    with pytest.raises(ValueError, match="text must be a literal such as"):
        parse_literal("y2")


def test_parse_reads_ascii_spellings():
    assert parse_concept("x1 & ~x3", 4) == Conjunction(4, ["x1", "¬x3"])
    assert parse_concept("x1 and not x3", 4) == Conjunction(4, ["x1", "¬x3"])
    assert parse_concept("x2 | x4") == Disjunction(4, ["x2", "x4"])
    assert parse_concept("if x1 then + elif ~x2 then - else +", 2) == DecisionList(
        2, [("x1", 1), ("¬x2", -1)], 1
    )
    assert parse_concept("True", 3) == Conjunction(3, [])
    assert parse_concept("False", 3) == Disjunction(3, [])
    with pytest.raises(ValueError, match="else"):
        parse_concept("if x1 then + elif x2 then -")
    with pytest.raises(ValueError, match="within the 2 variables"):
        parse_concept("x1 ∧ x3", 2)


@given(boolean_concepts(max_variables=6))
def test_readable_form_reads_back_to_the_same_function(concept):
    back = parse_concept(str(concept), concept.variables)
    assert str(back) == str(concept)
    X = cube(concept.variables)
    assert np.array_equal(back.labels(X), concept.labels(X))


# -- evaluation ----------------------------------------------------------------


@given(boolean_concepts(max_variables=6))
def test_vectorised_evaluation_matches_the_definition(concept):
    X = cube(concept.variables)
    expected = np.array([brute(concept, x) for x in X])
    assert np.array_equal(concept.truth(X), expected)
    assert np.array_equal(concept.labels(X), np.where(expected, 1, -1))
    assert concept.labels(X).dtype == np.int8
    assert np.array_equal(concept.truth(X.astype(np.uint8)), expected)
    for x, e in zip(X[:8], expected[:8], strict=False):
        assert concept.evaluate(x) == e
        assert concept(x) == (1 if e else -1)


@given(boolean_concepts(max_variables=6))
def test_decision_list_form_is_equivalent(concept):
    X = cube(concept.variables)
    assert np.array_equal(concept.as_decision_list().labels(X), concept.labels(X))


def test_conjunction_of_all_literals_is_false_everywhere():
    c = Conjunction(3, ["x1", "¬x1", "x2", "¬x2", "x3", "¬x3"])
    assert not c.truth(cube(3)).any()
    assert not c.has_label(1) and c.has_label(-1)


def test_bits_refuses_non_bits_and_wrong_lengths():
    with pytest.raises(ValueError, match="only 0 and 1"):
        bits(np.array([0, 2]))
    with pytest.raises(ValueError, match="length 3"):
        Conjunction(3, ["x1"]).labels(np.zeros((2, 4), dtype=bool))
    assert np.array_equal(bits(np.array([0.0, 1.0])), [False, True])


@pytest.mark.parametrize(
    ("make", "parameter", "message"),
    [
        (lambda: Conjunction(0, []), "variables", "variables must be an integer ≥ 1"),
        (lambda: Conjunction(np.int64(2), [True]), "text", "must be a literal"),
        (lambda: Disjunction(3, ["x4"]), "literals", "within the 3 variables"),
        (lambda: MonotoneConjunction(3, ["¬x2"]), "literals", "positive"),
        (lambda: DecisionList(3, [("x1", 0)], 1), "label", "label must be one of 1, -1"),
        (lambda: DecisionList(3, [("x1", 1)], True), "default", "default must be one of"),
        (lambda: DecisionList(3, ["x1"], 1), "rules", "pair"),
        (lambda: Literal(True), "variable", "variable must be an integer ≥ 0"),
    ],
)
def test_constructors_name_the_problem(make, parameter, message):
    with pytest.raises(ParameterError, match=message) as info:
        make()
    assert info.value.parameter == parameter


def test_numpy_integers_are_integers():
    assert Conjunction(np.int64(3), ["x1"]).variables == 3
    assert Literal(np.int8(2)) == Literal(2)


def test_conjunction_literals_are_a_set():
    assert Conjunction(3, ["x2", "x1", "x2"]) == Conjunction(3, ["x1", "x2"])
    assert Conjunction(3, ["x1"]) != MonotoneConjunction(3, ["x1"])
    assert len({Conjunction(3, ["x1"]), Conjunction(3, ["x1"])}) == 1


# -- regions -------------------------------------------------------------------


@given(boolean_concepts(max_variables=6))
def test_regions_partition_the_cube_with_the_concept_labels(concept):
    X = cube(concept.variables)
    labels = concept.labels(X)
    covered = np.zeros(len(X), dtype=int)
    for region in concept.regions():
        inside = np.all(X[:, region.variables] == region.values, axis=1)
        assert inside.any(), "every region is non-empty"
        assert np.all(labels[inside] == region.label)
        covered += inside
    assert np.all(covered == 1)


def test_region_weight_is_its_probability():
    region = Conjunction(5, ["x1", "¬x2"]).regions()[-1]
    assert region.label == 1
    assert np.isclose(np.exp(region.log_weight(0.2)), 0.2 * 0.8)


# -- certificates --------------------------------------------------------------


@given(boolean_concepts(max_variables=8), st.booleans())
def test_certificates_round_trip_through_json(concept, realizable):
    concept = type(concept).from_params(concept.params(), realizable)
    data = json.loads(json.dumps(concept.to_dict()))
    back = certificate_from_dict(data)
    assert back == concept and type(back) is type(concept)
    assert back.realizable == realizable


def test_first_disagreement_uses_the_concept_labels():
    c = Conjunction(3, ["x1"])
    X = np.array([[1, 0, 0], [0, 1, 1]], dtype=np.uint8)
    assert first_disagreement(c, X, [1, -1]) is None
    assert first_disagreement(c, X, [1, 1]) == 1


def test_transcripts_save_and_load_boolean_certificates(tmp_path):
    from adversaries import ConceptStream
    from learners import DecisionListLearner

    stream = ConceptStream("if x2 then + elif ¬x1 then − else +", variables=4)
    tr = play(DecisionListLearner(), stream, rounds=30, out=tmp_path / "dl.jsonl")
    back = Transcript.load(tmp_path / "dl.jsonl")
    assert back == tr
    assert isinstance(back.certificate, DecisionList)
    assert str(back.certificate) == "if x2 then + elif ¬x1 then − else +"
    assert back.instances.dtype == bool


# -- random draws --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["conjunction", "monotone-conjunction", "disjunction"])
def test_random_concepts_have_the_size_asked_on_distinct_variables(kind):
    rng = np.random.default_rng(3)
    for size in range(0, 7):
        c = random_concept(kind, 6, size, rng)
        assert c.size == size and c.variables == 6
        assert len({lit.variable for lit in c.literals}) == size
        if kind != "conjunction":
            assert c.monotone


def test_random_decision_lists_are_never_constant():
    rng = np.random.default_rng(4)
    for length in range(1, 6):
        d = DecisionList.random(5, length, rng)
        assert d.length == length
        assert d.default == -d.rules[-1][1]
        assert d.has_label(1) and d.has_label(-1)


def test_random_draws_are_reproducible_and_checked():
    a = random_concept("decision-list", 9, 4, np.random.default_rng(7))
    b = random_concept("decision-list", 9, 4, np.random.default_rng(7))
    assert a == b
    with pytest.raises(ValueError, match="at most the 3 variables"):
        Conjunction.random(3, 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match="kind must be one of"):
        random_concept("parity", 3, 1, np.random.default_rng(0))


@given(
    conjunctions(max_variables=5), disjunctions(max_variables=5), decision_lists(max_variables=5)
)
def test_size_is_literals_or_rules(c, d, dl):
    assert c.size == len(c.literals)
    assert d.size == len(d.literals)
    assert dl.size == dl.length == len(dl.rules)
