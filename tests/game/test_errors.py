"""game.errors: ParameterError and the one vocabulary of checks every entry point uses.

Examples to paste::

    from game.errors import check_integer
    check_integer("n", numpy.int64(3), low=0)   # 3
    check_integer("n", True, low=0)             # ParameterError: n must be an integer ≥ 0, got True
"""

from __future__ import annotations

import math
import pickle
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import adversaries
import learners
from game import GameError, ParameterError, Transcript, load_scenario, play, play_batch, sweep
from game.errors import (
    check_choice,
    check_generator,
    check_instance,
    check_integer,
    check_positive,
    check_real,
)
from game.sweep import SweepResult, parse_seeds
from game.theory import ExpertCertificate, expert_losses
from game.theory.bounds import (
    conjunction_bound,
    constant_experts_lower_bound,
    decision_list_bound,
    exponential_weights,
    exponential_weights_tuned,
    halfspace_tree_lower_bound,
    halving,
    halving_lower_bound,
    ldim_lower_bound,
    randomized_weighted_majority,
    shattered_tree_lower_bound,
    soa_bound,
    weighted_majority,
    winnow_bound,
)
from game.theory.concepts import (
    Conjunction,
    Literal,
    all_functions,
    bit_vectors,
    build_class,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    parities,
    point_index,
    singletons,
    thresholds,
)
from game.theory.littlestone import halfspace_tree
from game.viz import format_value, sweep_html, transcript_html
from learners.experts import tuned_eta

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"

# -- ParameterError ------------------------------------------------------------------------


def test_a_parameter_error_is_a_game_error_and_a_value_error():
    error = ParameterError("margin", -1.0, "a number > 0")
    assert isinstance(error, GameError) and isinstance(error, ValueError)
    assert (error.parameter, error.value, error.expected, error.note) == (
        "margin",
        -1.0,
        "a number > 0",
        "",
    )
    assert str(error) == "margin must be a number > 0, got -1.0"


def test_a_note_says_why_in_parentheses():
    error = ParameterError("loss_bound", 0, "a number > 0", "with a perfect expert use Halving")
    assert (
        str(error) == "loss_bound must be a number > 0, got 0 (with a perfect expert use Halving)"
    )


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (np.int64(5), "5"),
        (np.float32(0.5), "0.5"),
        (np.arange(3), "[0, 1, 2]"),
        (np.zeros((10, 10)), "an array of shape (10, 10)"),
        ("x" * 200, "'" + "x" * 78 + "…"),
        ({"a": [1, 2]}, "{'a': [1, 2]}"),
        (object(), "a object"),
    ],
    ids=["np.int64", "np.float32", "small array", "big array", "long", "dict", "object"],
)
def test_the_value_is_shown_on_one_short_line(value, shown):
    message = str(ParameterError("p", value, "fine"))
    assert message == f"p must be fine, got {shown}"
    assert "\n" not in message and len(message) < 120


def test_a_parameter_error_pickles_with_its_fields():
    error = ParameterError("n", 10**6, "an integer ≤ 512", "a note")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is ParameterError and str(back) == str(error)
    fields = (back.parameter, back.value, back.expected, back.note)
    assert fields == ("n", 10**6, "an integer ≤ 512", "a note")


def test_renamed_keeps_the_refusal_under_the_callers_name():
    error = ParameterError("matrix", [[1, 0]], "a ±1 matrix").renamed("cls")
    assert (error.parameter, error.value, str(error)) == (
        "cls",
        [[1, 0]],
        "cls must be a ±1 matrix, got [[1, 0]]",
    )


# -- the checks ----------------------------------------------------------------------------

INTEGERS = [3, np.int8(3), np.int64(3), np.uint64(3), np.intc(3)]
NOT_INTEGERS = [True, False, np.bool_(True), 3.0, np.float64(3.0), "3", None, [3], Fraction(3)]


@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_check_integer_accepts_every_integral_and_returns_an_int(value):
    out = check_integer("n", value, low=0, high=9)
    assert out == 3 and type(out) is int


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_check_integer_refuses_bools_and_non_integers(value):
    with pytest.raises(ParameterError) as info:
        check_integer("n", value, low=0)
    assert info.value.parameter == "n" and info.value.value is value


@pytest.mark.parametrize(
    ("kwargs", "value", "message"),
    [
        ({}, 2.5, "n must be an integer, got 2.5"),
        ({"low": 1}, 0, "n must be an integer ≥ 1, got 0"),
        ({"high": 9}, 10, "n must be an integer ≤ 9, got 10"),
        ({"low": 0, "high": 9}, -1, "n must be an integer between 0 and 9, got -1"),
    ],
)
def test_check_integer_messages(kwargs, value, message):
    with pytest.raises(ParameterError, match=f"^{message}$"):
        check_integer("n", value, **kwargs)
    assert check_integer("n", 9 if "high" in kwargs else 1, **kwargs) in (1, 9)


@pytest.mark.parametrize(
    ("kwargs", "good", "bad", "message"),
    [
        ({}, -1e300, math.inf, "x must be a finite number, got inf"),
        ({"finite": False}, math.inf, math.nan, "x must be a number, got nan"),
        ({"low": 0}, 0, -0.5, "x must be a number ≥ 0, got -0.5"),
        ({"low": 0, "closed_low": False}, 1e-300, 0.0, "x must be a number > 0, got 0.0"),
        ({"high": 1, "closed_high": False}, 0.5, 1, "x must be a number < 1, got 1"),
        ({"low": 0, "high": 1}, np.float32(1.0), 1.5, "x must be a number in [0, 1], got 1.5"),
        ({"low": 0.5, "high": 2, "closed_low": False}, 2, 0.5, "x must be a number in (0.5, 2]"),
        ({"low": 0, "high": 1}, Fraction(1, 2), True, "x must be a number in [0, 1], got True"),
        ({"low": 0, "high": 1}, 0.25, "0.5", "x must be a number in [0, 1], got '0.5'"),
    ],
)
def test_check_real(kwargs, good, bad, message):
    out = check_real("x", good, **kwargs)
    assert out == float(good) and type(out) is float
    with pytest.raises(ParameterError, match="^" + re.escape(message)) as info:
        check_real("x", bad, **kwargs)
    assert info.value.parameter == "x"


@pytest.mark.parametrize("kwargs", [{}, {"finite": False}, {"low": 0}], ids=repr)
@pytest.mark.parametrize(
    "huge", [10**400, -(10**400), Fraction(10**400, 3)], ids=["+", "-", "frac"]
)
def test_a_number_beyond_the_floats_is_refused_not_overflowed(kwargs, huge):
    with pytest.raises(ParameterError, match=r"\(too large for a float\)$") as info:
        check_real("x", huge, **kwargs)
    assert info.value.parameter == "x" and info.value.value == huge


@pytest.mark.parametrize(
    ("make", "parameter"),
    [
        (lambda v: learners.ExponentialWeights(eta=v), "eta"),
        (lambda v: _stream(margin=v), "margin"),
        (lambda v: learners.WeightedMajority(beta=v), "beta"),
    ],
    ids=["ExponentialWeights(eta)", "SeparableStream(margin)", "WeightedMajority(beta)"],
)
def test_players_refuse_a_huge_integer_naming_the_parameter(make, parameter):
    with pytest.raises(ParameterError) as info:
        make(10**400)
    assert info.value.parameter == parameter


def test_a_real_field_stores_a_fraction_or_numpy_number_as_a_float_and_keeps_python_numbers():
    assert type(learners.ExponentialWeights(eta=Fraction(1, 2)).eta) is float
    assert learners.ExponentialWeights(eta=Fraction(1, 2)).eta == 0.5
    assert type(learners.ExponentialWeights(eta=np.float32(0.5)).eta) is float
    assert type(learners.ExponentialWeights(eta=2).eta) is int  # a Python number as given
    assert type(learners.ExponentialWeights(eta=0.25).eta) is float
    assert type(learners.Perceptron(dimension=np.int16(3)).dimension) is int


def test_check_positive():
    assert check_positive("eta", np.int64(2)) == 2.0
    for bad in (0, -1, math.inf, math.nan, True, "1"):
        with pytest.raises(ParameterError, match=r"^eta must be a number > 0, got "):
            check_positive("eta", bad)


def test_check_choice_returns_the_choice_and_keeps_bools_apart():
    assert check_choice("sign", np.int64(-1), (1, -1)) == -1
    assert type(check_choice("sign", np.int64(-1), (1, -1))) is int
    assert check_choice("flag", np.True_, (False, True)) is True
    assert check_choice("rule", np.str_("a"), ("a", "b")) == "a"
    for value, choices in (
        (True, (1, -1)),
        (1, (False, True)),
        (0, (1, -1)),
        (np.array([1]), (1, -1)),
        (None, ("a",)),
    ):
        with pytest.raises(ParameterError, match="must be one of") as info:
            check_choice("p", value, choices)
        assert info.value.value is value


def test_check_generator_and_check_instance():
    rng = np.random.default_rng(0)
    assert check_generator("rng", rng) is rng
    for bad in (0, np.random.RandomState(0), None):
        with pytest.raises(ParameterError, match=r"^rng must be a numpy\.random\.Generator"):
            check_generator("rng", bad)
    assert check_instance("t", "x", str, "a string") == "x"
    with pytest.raises(ParameterError, match=r"^t must be a string, got 3$"):
        check_instance("t", 3, str, "a string")


# -- every public entry point that takes an integer ----------------------------------------


def _scenario():
    return load_scenario(SCENARIOS / "perceptron_separable.toml")


def _stream(**kwargs):
    return adversaries.SeparableStream(**({"dimension": 2, "margin": 0.1} | kwargs))


def _experts(**kwargs):
    rng = np.random.default_rng(0)
    return adversaries.ExpertStream(**({"experts": 4, "best_mistakes": 1, "rng": rng} | kwargs))


#: (entry point, parameter, a good value): each takes the value as the named integer.
ENTRY_POINTS = [
    ("Scenario.play(seed)", lambda v: _scenario().play(seed=v, rounds=3, check=False), "seed", 3),
    ("Scenario.play(rounds)", lambda v: _scenario().play(rounds=v, check=False), "rounds", 3),
    ("Scenario.build(seed)", lambda v: _scenario().build(v), "seed", 3),
    ("parse_seeds(seeds)", parse_seeds, "seeds", 3),
    ("parse_seeds([seed])", lambda v: parse_seeds([v]), "seed", 3),
    ("thresholds", thresholds, "n", 3),
    ("intervals", intervals, "n", 3),
    ("singletons", singletons, "n", 3),
    ("all_functions", all_functions, "m", 3),
    ("parities", parities, "n", 3),
    ("conjunctions", conjunctions, "n", 3),
    ("monotone_conjunctions", monotone_conjunctions, "n", 3),
    ("decision_lists(n)", lambda v: decision_lists(v, 1), "n", 3),
    ("decision_lists(length)", lambda v: decision_lists(2, v), "length", 3),
    ("build_class", lambda v: build_class("intervals", n=v), "n", 3),
    ("bit_vectors", bit_vectors, "n", 3),
    ("halfspace_tree(depth)", halfspace_tree, "depth", 3),
    ("halfspace_tree(dimension)", lambda v: halfspace_tree(1, v), "dimension", 3),
    ("Literal", Literal, "variable", 3),
    ("Conjunction", lambda v: Conjunction(v, []), "variables", 3),
    ("ExpertCertificate", ExpertCertificate, "expert", 3),
    ("halving", halving, "experts", 3),
    ("halving_lower_bound", halving_lower_bound, "n", 3),
    ("constant_experts_lower_bound", constant_experts_lower_bound, "rounds", 3),
    ("weighted_majority", lambda v: weighted_majority(v, 0, 0.5), "experts", 3),
    ("conjunction_bound", conjunction_bound, "variables", 3),
    ("decision_list_bound", lambda v: decision_list_bound(v, 1), "variables", 3),
    ("winnow_bound", lambda v: winnow_bound(4, v), "relevant", 3),
    (
        "weighted_majority(best_mistakes)",
        lambda v: weighted_majority(4, v, 0.5),
        "best_mistakes",
        3,
    ),
    (
        "randomized_weighted_majority(experts)",
        lambda v: randomized_weighted_majority(v, 0, 0.5),
        "experts",
        3,
    ),
    (
        "randomized_weighted_majority(best_mistakes)",
        lambda v: randomized_weighted_majority(4, v, 0.5),
        "best_mistakes",
        3,
    ),
    ("exponential_weights", lambda v: exponential_weights(v, 0.0, 1.0), "experts", 3),
    ("exponential_weights_tuned", lambda v: exponential_weights_tuned(v, 1.0), "experts", 3),
    ("soa_bound", soa_bound, "ldim", 3),
    ("ldim_lower_bound", ldim_lower_bound, "ldim", 3),
    ("shattered_tree_lower_bound", shattered_tree_lower_bound, "depth", 3),
    ("halfspace_tree_lower_bound", halfspace_tree_lower_bound, "rounds", 3),
    ("point_index", lambda v: point_index(v, 4), "x", 3),
    ("LdimEngine.at_least(k)", lambda v: intervals(3).engine.at_least(None, v), "k", 3),
    (
        "ExponentialWeights.learning_rate_for",
        lambda v: learners.ExponentialWeights().learning_rate_for(v),
        "n",
        3,
    ),
    (
        "BatchPerceptron.fit(max_iterations)",
        lambda v: learners.BatchPerceptron().fit(
            [[1.0, 0.0], [0.0, 1.0]], [1, 1], max_iterations=v
        ),
        "max_iterations",
        3,
    ),
    ("transcript_html(rounds)", lambda v: transcript_html(_expert_game(), rounds=v), "rounds", 3),
    (
        "sweep_html(games)",
        lambda v: sweep_html(SweepResult(rows=[], columns=[]), games=v),
        "games",
        3,
    ),
    ("format_value(digits)", lambda v: format_value(0.5, digits=v), "digits", 3),
    ("tuned_eta", lambda v: tuned_eta(v, 1.0), "experts", 3),
    ("expert_losses(t)", lambda v: expert_losses(_expert_game(), v), "t", 3),
    ("Perceptron", lambda v: learners.Perceptron(dimension=v), "dimension", 3),
    ("MarginPerceptron", lambda v: learners.MarginPerceptron(dimension=v), "dimension", 3),
    (
        "OnlineGradientDescent",
        lambda v: learners.OnlineGradientDescent(dimension=v),
        "dimension",
        3,
    ),
    ("BatchPerceptron", lambda v: learners.BatchPerceptron(dimension=v), "dimension", 3),
    ("ConjunctionLearner", lambda v: learners.ConjunctionLearner(variables=v), "variables", 3),
    ("DecisionListLearner", lambda v: learners.DecisionListLearner(variables=v), "variables", 3),
    ("Winnow", lambda v: learners.Winnow(variables=v), "variables", 3),
    ("Halving", lambda v: learners.Halving(experts=v), "experts", 3),
    ("WeightedMajority", lambda v: learners.WeightedMajority(experts=v), "experts", 3),
    ("ExponentialWeights", lambda v: learners.ExponentialWeights(experts=v), "experts", 3),
    ("SeparableStream", lambda v: _stream(dimension=v), "dimension", 3),
    ("NoisyStream", lambda v: adversaries.NoisyStream(v, 0.1), "dimension", 3),
    ("OrthogonalAdversary", adversaries.OrthogonalAdversary, "dimension", 3),
    ("ConjunctionLowerBound", adversaries.ConjunctionLowerBound, "variables", 3),
    ("ConceptStream(variables)", lambda v: adversaries.ConceptStream(variables=v), "variables", 3),
    ("ConceptStream(size)", lambda v: adversaries.ConceptStream(size=v), "size", 3),
    ("HalvingLowerBound(n)", adversaries.HalvingLowerBound, "n", 3),
    (
        "HalvingLowerBound(experts)",
        lambda v: adversaries.HalvingLowerBound(experts=v),
        "experts",
        8,
    ),
    ("ExpertStream(experts)", lambda v: _experts(experts=v), "experts", 3),
    ("ExpertStream(best_mistakes)", lambda v: _experts(best_mistakes=v), "best_mistakes", 3),
    ("ExpertStream(horizon)", lambda v: _experts(horizon=v), "horizon", 3),
    ("ExpertStream(best)", lambda v: _experts(best=v), "best", 3),
    ("TwoConstantExperts", adversaries.TwoConstantExperts, "horizon", 3),
    ("HalfspaceTreeAdversary", adversaries.HalfspaceTreeAdversary, "dimension", 3),
]


def _expert_game():
    from game import play

    return play(learners.Halving(), _experts(horizon=5), rounds=5)


@pytest.mark.parametrize(
    ("make", "parameter", "good"), [e[1:] for e in ENTRY_POINTS], ids=[e[0] for e in ENTRY_POINTS]
)
def test_numpy_integers_are_accepted_and_bools_refused_everywhere(make, parameter, good):
    make(good)
    for kind in (np.int64, np.int32, np.uint8):
        make(kind(good))
    for bad in (True, np.bool_(True), float(good)):
        with pytest.raises(ParameterError) as info:
            make(bad)
        assert info.value.parameter == parameter, str(info.value)
        assert str(info.value).startswith(f"{parameter} must be "), str(info.value)


# -- every public entry point that takes a bool, a path or a dict of header entries --------


def _replay():
    return adversaries.Replay(instances=np.eye(2), labels=[1, -1])


def _saved(tmp_path) -> Path:
    path = tmp_path / "game.jsonl"
    play(learners.Perceptron(), _replay(), rounds=2, out=path)
    return path


#: (entry point, parameter, call): each takes the parameter as a bool (bool or numpy.bool_).
FLAGS = [
    (
        "play",
        "snapshots",
        lambda v, tmp: play(learners.Perceptron(), _replay(), rounds=2, snapshots=v),
    ),
    (
        "Scenario.play",
        "snapshots",
        lambda v, tmp: _scenario().play(rounds=2, snapshots=v, check=False),
    ),
    ("Scenario.play", "check", lambda v, tmp: _scenario().play(rounds=2, check=v)),
    (
        "play_batch",
        "lockstep",
        lambda v, tmp: play_batch([learners.Perceptron()], [_replay()], rounds=2, lockstep=v),
    ),
    ("sweep", "lockstep", lambda v, tmp: sweep(_scenario(), 1, workers=1, lockstep=v)),
    ("sweep", "digests", lambda v, tmp: sweep(_scenario(), 1, workers=1, digests=v)),
    (
        "Transcript.load",
        "allow_incomplete",
        lambda v, tmp: Transcript.load(_saved(tmp), allow_incomplete=v),
    ),
]


@pytest.mark.parametrize(
    ("parameter", "make"), [f[1:] for f in FLAGS], ids=[f"{f[0]}({f[1]})" for f in FLAGS]
)
def test_a_flag_is_a_bool_or_a_numpy_bool_and_nothing_else(tmp_path, parameter, make):
    for good in (True, False, np.bool_(True)):
        make(good, tmp_path)
    for bad in ("yes", "no", 1, 0, np.int64(1), [True]):
        with pytest.raises(ParameterError) as info:
            make(bad, tmp_path)
        assert info.value.parameter == parameter, str(info.value)
        assert str(info.value).startswith(f"{parameter} must be one of False, True, got ")


#: (entry point, parameter, call): each takes the parameter as a path (str or os.PathLike);
#: those after the first two take None too (no file).
PATHS = [
    ("load_scenario", "path", lambda v: load_scenario(v)),
    ("Transcript.load", "path", lambda v: Transcript.load(v)),
    ("sweep", "scenario", lambda v: sweep(v, 1, workers=1)),
    ("sweep", "transcripts", lambda v: sweep(_scenario(), 1, workers=1, transcripts=v)),
    ("play", "out", lambda v: play(learners.Perceptron(), _replay(), rounds=2, out=v)),
    ("Scenario.play", "out", lambda v: _scenario().play(rounds=2, out=v, check=False)),
]
NOT_PATHS = [5, b"scenario.toml", ["a.toml"]]
CASES = [(name, parameter, call, bad) for name, parameter, call in PATHS for bad in NOT_PATHS]
CASES += [(*PATHS[i], None) for i in (0, 1, 2)]


@pytest.mark.parametrize(
    ("parameter", "make", "bad"),
    [c[1:] for c in CASES],
    ids=[f"{c[0]}({c[1]}={c[3]!r})" for c in CASES],
)
def test_a_path_is_a_str_or_a_path_like_and_nothing_else(parameter, make, bad):
    with pytest.raises(ParameterError, match=r"must be .*a path") as info:
        make(bad)
    assert info.value.parameter == parameter, str(info.value)


def test_the_paths_that_pass_are_read_and_written(tmp_path):
    path = _saved(tmp_path)
    assert len(Transcript.load(str(path))) == len(Transcript.load(path)) == 2
    assert load_scenario(str(SCENARIOS / "perceptron_separable.toml")).rounds > 0
    assert len(sweep(SCENARIOS / "perceptron_separable.toml", 1, workers=1)) == 1


@pytest.mark.parametrize(
    ("make", "parameter"),
    [
        (lambda: play(learners.Perceptron(), _replay(), rounds=2, meta=5), "meta"),
        (lambda: play(learners.Perceptron(), _replay(), rounds=2, meta=[("a", 1)]), "meta"),
        (lambda: play(learners.Perceptron(), _replay(), rounds=2, progress=5), "progress"),
        (lambda: play_batch([learners.Perceptron()], [_replay()], rounds=2, meta=5), "meta"),
        (lambda: play_batch([learners.Perceptron()], [_replay()], rounds=2, meta="a"), "meta"),
        (lambda: play_batch([learners.Perceptron()], [_replay()], rounds=2, meta=[5]), "meta"),
        (lambda: play_batch([learners.Perceptron()], [_replay()], rounds=2, meta=[{}, {}]), "meta"),
        (lambda: play_batch([learners.Perceptron()], [], rounds=2), "adversaries"),
    ],
    ids=[
        "play meta=5",
        "play meta=list",
        "play progress=5",
        "batch meta=5",
        "batch meta=text",
        "batch meta=[5]",
        "batch meta two for one",
        "batch no adversary",
    ],
)
def test_header_entries_are_a_dict_or_one_dict_per_game(make, parameter):
    with pytest.raises(ParameterError) as info:
        make()
    assert info.value.parameter == parameter, str(info.value)
    assert isinstance(info.value, GameError)


def test_header_entries_that_pass_reach_the_header():
    (game,) = play_batch([learners.Perceptron()], [_replay()], rounds=2, meta=iter([{"note": "x"}]))
    assert game.header["note"] == "x"
    assert (
        play(learners.Perceptron(), _replay(), rounds=2, meta={"note": "y"}).header["note"] == "y"
    )
