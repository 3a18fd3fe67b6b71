"""game.theory.bounds: the Bound value and the Block–Novikoff theorem."""

import json
import math

import pytest

from game.errors import ParameterError
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
