"""game.theory.bounds: the Bound value, the Block–Novikoff theorem, every theorem's arguments."""

import json
import math

import numpy as np
import pytest

from game.errors import ParameterError
from game.theory import bounds
from game.theory.bounds import Bound, block_novikoff


def test_an_upper_bound_holds_up_to_its_value():
    b = Bound(4.0, "t", "s")
    assert b.kind == "upper" and b.quantity == "mistakes"
    assert b.holds(0) and b.holds(3) and b.holds(4)
    assert b.holds(4.0 + 1e-12)  # rounding slack
    assert not b.holds(4.001)
    assert not b.holds(5)


def test_a_lower_bound_holds_from_its_value():
    b = Bound(10.0, "t", "s", kind="lower")
    assert b.holds(10) and b.holds(11) and b.holds(10.0 - 1e-12)
    assert not b.holds(9.99)
    assert not b.holds(0)


def test_the_slack_is_relative():
    big = Bound(1e12, "t", "s")
    assert big.holds(1e12 + 100)  # within 1e-9 relative
    assert not big.holds(1e12 + 1e4)


def test_infinite_bounds():
    assert Bound(math.inf, "t", "s").holds(1e308)
    assert Bound(-math.inf, "t", "s", kind="lower").holds(-1e308)
    assert not Bound(math.inf, "t", "s", kind="lower").holds(1e308)


@pytest.mark.parametrize("value", [3.5, 0.0, math.inf, -math.inf, 7])
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_to_dict_and_back(value, kind):
    b = Bound(value, "updates ≤ (R/γ)²", "seed 001", quantity="updates", kind=kind)
    data = b.to_dict()
    text = json.dumps(data, allow_nan=False)  # inf is written as a string, not Infinity
    back = Bound.from_dict(json.loads(text))
    assert back == b
    assert back.value == float(value) and isinstance(back.value, float)
    assert back.quantity == "updates" and back.kind == kind


def test_to_dict_writes_infinity_as_a_string():
    assert Bound(math.inf, "t", "s").to_dict()["value"] == "inf"
    assert Bound(-math.inf, "t", "s").to_dict()["value"] == "-inf"


def test_from_dict_defaults_quantity_and_kind():
    b = Bound.from_dict({"value": 2, "theorem": "t", "source": "s"})
    assert b == Bound(2.0, "t", "s", quantity="mistakes", kind="upper")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"value": math.nan},
        {"value": "many"},
        {"value": True},
        {"kind": "sideways"},
        {"theorem": 3},
        {"source": None},
        {"quantity": 1},
    ],
    ids=repr,
)
def test_bad_fields_are_refused_naming_the_field(kwargs):
    fields = {"value": 1.0, "theorem": "t", "source": "s"} | kwargs
    with pytest.raises(ParameterError) as info:
        Bound(**fields)
    assert info.value.parameter == next(iter(kwargs))


def test_str_shows_quantity_direction_value_and_source():
    assert str(Bound(16.0, "thm", "src", quantity="updates")) == "updates ≤ 16  (thm; src)"
    assert str(Bound(3.0, "thm", "src", kind="lower")) == "mistakes ≥ 3  (thm; src)"


@pytest.mark.parametrize(
    ("radius", "margin", "value"),
    [(1.0, 0.25, 16.0), (2.0, 0.5, 16.0), (3.0, 1.0, 9.0), (1.0, 1.0, 1.0), (5.0, 2.0, 6.25)],
)
def test_block_novikoff_is_r_over_gamma_squared(radius, margin, value):
    b = block_novikoff(radius, margin)
    assert b.value == pytest.approx(value, rel=1e-15)
    assert b.quantity == "updates" and b.kind == "upper"


@pytest.mark.parametrize("margin", [0.0, -0.5, -math.inf])
def test_block_novikoff_without_a_positive_margin_is_infinite(margin):
    b = block_novikoff(1.0, margin)
    assert b.value == math.inf
    assert b.holds(10**9)


def test_block_novikoff_names_its_sources_and_quantities():
    b = block_novikoff(2.0, 0.1)
    for seed in ("001", "003", "004"):
        assert seed in b.source
    assert "Theorem" in b.source
    assert "R = 2" in b.theorem and "γ = 0.1" in b.theorem


# -- every theorem checks its arguments, naming the caller's parameter ------------------------

NAN = math.nan

#: (call, the parameter refused): each a value the theorem's hypotheses exclude.
REFUSED = [
    ("block_novikoff(True, 1)", lambda: bounds.block_novikoff(True, 1), "radius"),
    ("block_novikoff(-1, 1)", lambda: bounds.block_novikoff(-1, 1), "radius"),
    ("block_novikoff('a', 1)", lambda: bounds.block_novikoff("a", 1), "radius"),
    ("block_novikoff(nan, 1)", lambda: bounds.block_novikoff(NAN, 1), "radius"),
    ("block_novikoff(1, nan)", lambda: bounds.block_novikoff(1, NAN), "margin"),
    ("block_novikoff(1, inf)", lambda: bounds.block_novikoff(1, math.inf), "margin"),
    ("block_novikoff(1, True)", lambda: bounds.block_novikoff(1, True), "margin"),
    ("total_distance([1], True)", lambda: bounds.total_distance([1], True), "gamma"),
    ("total_distance([1], 0)", lambda: bounds.total_distance([1], 0), "gamma"),
    ("total_distance([nan], 1)", lambda: bounds.total_distance([NAN], 1), "margins"),
    ("total_distance('ab', 1)", lambda: bounds.total_distance("ab", 1), "margins"),
    ("balcan_nonseparable([nan], 1)", lambda: bounds.balcan_nonseparable([NAN], 1), "margins"),
    ("balcan_nonseparable([True])", lambda: bounds.balcan_nonseparable([True, False]), "margins"),
    ("balcan_nonseparable(['a'])", lambda: bounds.balcan_nonseparable(["a"]), "margins"),
    ("balcan_nonseparable(None)", lambda: bounds.balcan_nonseparable(None), "margins"),
    ("balcan_nonseparable([1], -1)", lambda: bounds.balcan_nonseparable([1], -1), "gamma"),
    ("perceptron_hinge([nan], 1)", lambda: bounds.perceptron_hinge([NAN], 1.0), "update_margins"),
    ("perceptron_hinge([1], nan)", lambda: bounds.perceptron_hinge([1.0], NAN), "radius"),
    ("perceptron_hinge([1], -1)", lambda: bounds.perceptron_hinge([1.0], -1), "radius"),
    (
        "perceptron_hinge(margins=[inf])",
        lambda: bounds.perceptron_hinge([1.0], 1.0, margins=[math.inf]),
        "margins",
    ),
    ("perceptron_hinge(scale=-1)", lambda: bounds.perceptron_hinge([1.0], 1, scale=-1), "scale"),
    ("margin_perceptron(0)", lambda: bounds.margin_perceptron(0), "gamma"),
    ("batch_perceptron(nan, 1)", lambda: bounds.batch_perceptron(NAN, 1.0), "radius"),
    ("batch_perceptron(1, -1)", lambda: bounds.batch_perceptron(1.0, -1), "b"),
    ("batch_perceptron(1, nan)", lambda: bounds.batch_perceptron(1.0, NAN), "b"),
    ("ogd_regret(0, ...)", lambda: bounds.ogd_regret(0, [0.5], 1.0), "eta"),
    ("ogd_regret(margins nan)", lambda: bounds.ogd_regret(1, [NAN], 1.0), "update_margins"),
    ("ogd_regret(norms -1)", lambda: bounds.ogd_regret(1, [0.5], -1.0), "gradient_norms2"),
    ("ogd_regret(norms nan)", lambda: bounds.ogd_regret(1, [0.5], NAN), "gradient_norms2"),
    ("ogd_regret(quantity=1)", lambda: bounds.ogd_regret(1, [0.5], 1, quantity=1), "quantity"),
    ("halving(0)", lambda: bounds.halving(0), "experts"),
    ("halving(4, perfect=5)", lambda: bounds.halving(4, perfect=5), "perfect"),
    ("halving(4, perfect=True)", lambda: bounds.halving(4, perfect=True), "perfect"),
    (
        "randomized_weighted_majority(oblivious=1)",
        lambda: bounds.randomized_weighted_majority(8, 1, 0.5, oblivious=1),
        "oblivious",
    ),
    (
        "exponential_weights(loss=hinge)",
        lambda: bounds.exponential_weights(8, 1, 1.0, loss="hinge"),
        "loss",
    ),
    (
        "exponential_weights(experts_loss=hinge)",
        lambda: bounds.exponential_weights(8, 1, 1.0, loss="absolute", experts_loss="hinge"),
        "experts_loss",
    ),
    ("halving_lower_bound(-1)", lambda: bounds.halving_lower_bound(-1), "n"),
    (
        "constant_experts_lower_bound(1.5)",
        lambda: bounds.constant_experts_lower_bound(1.5),
        "rounds",
    ),
    (
        "weighted_majority(8, True, .5)",
        lambda: bounds.weighted_majority(8, True, 0.5),
        "best_mistakes",
    ),
    ("weighted_majority(8, -1, .5)", lambda: bounds.weighted_majority(8, -1, 0.5), "best_mistakes"),
    (
        "weighted_majority(8, 1.5, .5)",
        lambda: bounds.weighted_majority(8, 1.5, 0.5),
        "best_mistakes",
    ),
    ("weighted_majority(8, 1, 1)", lambda: bounds.weighted_majority(8, 1, 1), "beta"),
    (
        "randomized_weighted_majority(8, True, .5)",
        lambda: bounds.randomized_weighted_majority(8, True, 0.5),
        "best_mistakes",
    ),
    (
        "randomized_weighted_majority(True, 1, .5)",
        lambda: bounds.randomized_weighted_majority(True, 1, 0.5),
        "experts",
    ),
    ("exponential_weights(8, -1, 1)", lambda: bounds.exponential_weights(8, -1, 1), "best_loss"),
    ("exponential_weights(8, nan, 1)", lambda: bounds.exponential_weights(8, NAN, 1), "best_loss"),
    ("exponential_weights(8, 1, nan)", lambda: bounds.exponential_weights(8, 1, NAN), "eta"),
    ("exponential_weights(0, 1, 1)", lambda: bounds.exponential_weights(0, 1, 1), "experts"),
    (
        "exponential_weights_tuned(8, nan)",
        lambda: bounds.exponential_weights_tuned(8, NAN),
        "best_loss",
    ),
    (
        "exponential_weights_tuned(8, -1)",
        lambda: bounds.exponential_weights_tuned(8, -1),
        "best_loss",
    ),
    (
        "exponential_weights_tuned(8, 1, nan)",
        lambda: bounds.exponential_weights_tuned(8, 1, NAN),
        "loss_bound",
    ),
    (
        "exponential_weights_tuned(1.5, 1)",
        lambda: bounds.exponential_weights_tuned(1.5, 1),
        "experts",
    ),
    (
        "potential_slack(mismatched)",
        lambda: bounds.potential_slack([0.0, 0.0, 0.0], [0.5], 1.0),
        "potentials",
    ),
    (
        "potential_slack(2-D)",
        lambda: bounds.potential_slack([[0.0, 0.0]], [0.5], 1.0),
        "potentials",
    ),
    ("potential_slack(nan loss)", lambda: bounds.potential_slack([0.0, 0.0], [NAN], 1.0), "losses"),
    ("potential_slack(eta 0)", lambda: bounds.potential_slack([0.0, 0.0], [0.5], 0), "eta"),
    ("potential_slack(text)", lambda: bounds.potential_slack("ab", [0.5], 1.0), "potentials"),
    ("conjunction_bound(-1)", lambda: bounds.conjunction_bound(-1), "variables"),
    ("conjunction_lower_bound(True)", lambda: bounds.conjunction_lower_bound(True), "variables"),
    ("decision_list_bound(2, -1)", lambda: bounds.decision_list_bound(2, -1), "length"),
    ("winnow_bound(3, 5)", lambda: bounds.winnow_bound(3, 5), "relevant"),
    ("winnow_bound(0, 0)", lambda: bounds.winnow_bound(0, 0), "variables"),
    ("winnow_bound(variant)", lambda: bounds.winnow_bound(3, 1, "doubling"), "variant"),
    ("soa_bound(-3)", lambda: bounds.soa_bound(-3), "ldim"),
    ("soa_bound(2.5)", lambda: bounds.soa_bound(2.5), "ldim"),
    ("soa_bound(nan)", lambda: bounds.soa_bound(NAN), "ldim"),
    ("ldim_lower_bound(-1)", lambda: bounds.ldim_lower_bound(-1), "ldim"),
    ("shattered_tree_lower_bound(-1)", lambda: bounds.shattered_tree_lower_bound(-1), "depth"),
    ("halfspace_tree_lower_bound(True)", lambda: bounds.halfspace_tree_lower_bound(True), "rounds"),
    ("expected_tree_lower_bound(-1)", lambda: bounds.expected_tree_lower_bound(-1), "depth"),
    ("expected_tree_lower_bound(1.5)", lambda: bounds.expected_tree_lower_bound(1.5), "depth"),
    ("forced_lower_bound(-1, name)", lambda: bounds.forced_lower_bound(-1, "halving"), "value"),
    ("forced_lower_bound(2, 3)", lambda: bounds.forced_lower_bound(2, 3), "learner"),
    ("deviation_lower_bound(-1, …)", lambda: bounds.deviation_lower_bound(-1, 2, 1, "x"), "forced"),
    (
        "deviation_lower_bound(1, -2, …)",
        lambda: bounds.deviation_lower_bound(1, -2, 1, "x"),
        "ldim",
    ),
    ("minimax_regret_bound(2, -1, .5)", lambda: bounds.minimax_regret_bound(2, -1, 0.5), "horizon"),
    ("minimax_regret_bound(nan)", lambda: bounds.minimax_regret_bound(2, 4, NAN), "value"),
    (
        "minimax_regret_bound(kind)",
        lambda: bounds.minimax_regret_bound(2, 4, 0.5, kind="both"),
        "kind",
    ),
    (
        "forced_regret_lower_bound(name)",
        lambda: bounds.forced_regret_lower_bound(1.0, 3, 2, 4),
        "learner",
    ),
    (
        "forced_regret_lower_bound(experts)",
        lambda: bounds.forced_regret_lower_bound(1.0, "wm", 0, 4),
        "experts",
    ),
]


@pytest.mark.parametrize(
    ("call", "parameter"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_a_theorem_refuses_a_bad_argument_naming_its_parameter(call, parameter):
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter, str(info.value)
    assert str(info.value).startswith(f"{parameter} must be ")


def test_every_theorem_function_is_in_the_table_of_refusals():
    functions = {n for n in bounds.__all__ if callable(getattr(bounds, n)) and n[0].islower()}
    tried = {name.split("(")[0] for name, _, _ in REFUSED}
    assert functions <= tried, sorted(functions - tried)


@pytest.mark.parametrize(
    ("call", "value"),
    [
        (lambda: bounds.block_novikoff(np.float32(2.0), np.int64(1)), 4.0),
        (lambda: bounds.block_novikoff(math.inf, 0.5), math.inf),  # R overflowed: no bound
        (lambda: bounds.block_novikoff(0.0, 0.5), 0.0),
        (lambda: bounds.batch_perceptron(math.inf, math.inf), math.inf),
        (lambda: bounds.batch_perceptron(math.inf, 0.0), 0.0),  # no example, no iteration
        (lambda: bounds.soa_bound(np.int8(3)), 3.0),
        (lambda: bounds.ldim_lower_bound(0), 0.0),
        (lambda: bounds.shattered_tree_lower_bound(np.uint16(2)), 2.0),
        (lambda: bounds.winnow_bound(3, 3), 1 + 6 * (1 + math.log2(3))),
        (lambda: bounds.weighted_majority(2, np.int64(0), 0.5), 1 / math.log2(4 / 3)),
        (lambda: bounds.exponential_weights(2, 0, 1.0), math.log(2) / -math.expm1(-1.0)),
        (lambda: bounds.exponential_weights_tuned(4, 0.0), math.log(4)),
        (lambda: bounds.exponential_weights_tuned(4, 2.0, 1.0), math.inf),  # L* > L̃
        (lambda: bounds.total_distance(np.array([0.5, 0.1]), 0.3), 0.2),
        (lambda: bounds.balcan_nonseparable([], 1.0), 1.0),
        (lambda: bounds.perceptron_hinge([], 0.0), 0.0),  # no update, R = 0
        (lambda: bounds.perceptron_hinge([1.0], math.inf), math.inf),  # a norm beyond the floats
    ],
)
def test_valid_edge_values_keep_their_bound(call, value):
    got = call()
    got = got if isinstance(got, float) else got.value
    assert got == pytest.approx(value, rel=1e-12)


def test_potential_slack_takes_numpy_and_lists_alike():
    phi = [-math.log(2), -math.log(1 + math.exp(-1.0))]
    out = bounds.potential_slack(np.array(phi), [np.float32(0.5)], np.int64(1))
    assert out.shape == (1,) and out[0] >= 0


# -- the hypotheses of the expert theorems -----------------------------------------------


def test_halving_is_applicable_only_with_a_perfect_expert():
    assert bounds.halving(8).hypotheses == ()  # a formula: nothing checked
    with_one = bounds.halving(8, perfect=1)
    assert with_one.applies and with_one.verdict(3) is True and with_one.verdict(4) is False
    none = bounds.halving(8, perfect=0)
    assert not none.applies and none.verdict(0) is None and none.value == 3.0
    assert "not applicable: realizable fails" in str(none)


def test_randomized_weighted_majority_needs_an_adversary_blind_to_the_coin():
    shown = bounds.randomized_weighted_majority(2, 5, 0.5, oblivious=True)
    assert shown.applies and shown.hypotheses[0].name == "oblivious adversary"
    seen = bounds.randomized_weighted_majority(2, 5, 0.5, oblivious=False)
    assert not seen.applies and seen.verdict(0.0) is None
    assert seen.value == shown.value == bounds.randomized_weighted_majority(2, 5, 0.5).value


@pytest.mark.parametrize(
    ("keywords", "failing"),
    [
        ({"loss": "absolute"}, None),
        ({"loss": "squared", "experts_loss": "squared", "advice": (-1, 1)}, None),
        ({"loss": "zero-one"}, "loss convex"),
        ({"loss": "absolute", "advice": (-1.0, 2.0)}, "losses in [0, 1]"),
        ({"loss": "absolute", "advice": (math.nan, math.nan)}, "losses in [0, 1]"),
        ({"loss": "absolute", "experts_loss": "squared"}, "experts graded by the game's loss"),
    ],
)
def test_exponential_weights_hypotheses(keywords, failing):
    for bound in (
        bounds.exponential_weights(4, 1.0, 0.5, **keywords),
        bounds.exponential_weights_tuned(4, 1.0, **keywords),
    ):
        assert bound.applies == (failing is None)
        if failing is not None:
            assert bound.reason.startswith(f"{failing} fails: ")


def test_the_tuned_corollary_needs_the_best_loss_within_its_tuning():
    within = bounds.exponential_weights_tuned(4, 1.0, 2.0, loss="absolute")
    beyond = bounds.exponential_weights_tuned(4, 3.0, 2.0, loss="absolute")
    assert within.applies and math.isfinite(within.value)
    assert beyond.value == math.inf and beyond.reason.startswith("L* ≤ L̃ fails: ")
