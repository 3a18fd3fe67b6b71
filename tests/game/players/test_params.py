"""game.players._params: validators whose messages name the parameter and the value."""

import math

import attrs
import numpy as np
import pytest

from game.players import (
    DATA_SUFFIXES,
    data_field,
    generator,
    integer_at_least,
    is_data_field,
    one_of,
    positive,
    real_in,
    rng_field,
)


@attrs.define
class Toy:
    margin: float = attrs.field(default=0.5, validator=positive)
    share: float = attrs.field(default=0.5, validator=real_in(0.0, 1.0))
    step: float = attrs.field(default=0.5, validator=real_in(0, 1, closed_low=False))
    rate: float = attrs.field(default=0.5, validator=real_in(0, 1, closed_high=False))
    count: int = attrs.field(default=1, validator=integer_at_least(1))
    digit: int = attrs.field(default=1, validator=integer_at_least(0, 9))
    sign: int = attrs.field(default=1, validator=one_of(1, -1))
    flag: bool = attrs.field(default=False, validator=one_of(False, True))
    rule: str = attrs.field(default="a", alias="mode", validator=one_of("a", "b"))
    rng: np.random.Generator = rng_field()
    table: object = data_field("a table", default=None)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"margin": 0.0}, ValueError, "margin must be > 0, got 0.0"),
        ({"margin": -1}, ValueError, "margin must be > 0, got -1"),
        ({"margin": math.inf}, ValueError, "margin must be > 0, got inf"),
        ({"margin": math.nan}, ValueError, "margin must be a number, got nan"),
        ({"margin": "1"}, TypeError, "margin must be a number, got '1'"),
        ({"margin": True}, TypeError, "margin must be a number, got True"),
        ({"share": 1.5}, ValueError, "share must be in [0.0, 1.0], got 1.5"),
        ({"share": -0.1}, ValueError, "share must be in [0.0, 1.0], got -0.1"),
        ({"step": 0}, ValueError, "step must be in (0, 1], got 0"),
        ({"rate": 1}, ValueError, "rate must be in [0, 1), got 1"),
        ({"count": 0}, ValueError, "count must be an integer ≥ 1, got 0"),
        ({"count": 2.0}, TypeError, "count must be an integer, got 2.0"),
        ({"count": False}, TypeError, "count must be an integer, got False"),
        ({"digit": 10}, ValueError, "digit must be an integer between 0 and 9, got 10"),
        ({"sign": 0}, ValueError, "sign must be one of 1, -1, got 0"),
        ({"sign": True}, ValueError, "sign must be one of 1, -1, got True"),
        ({"flag": 1}, ValueError, "flag must be one of False, True, got 1"),
        ({"flag": "yes"}, ValueError, "flag must be one of False, True, got 'yes'"),
        ({"mode": "c"}, ValueError, "mode must be one of 'a', 'b', got 'c'"),
        ({"rng": 0}, TypeError, "rng must be a numpy.random.Generator, got 0"),
    ],
)
def test_messages_name_the_parameter_as_the_caller_writes_it_and_the_value(kwargs, error, message):
    with pytest.raises(error) as info:
        Toy(**kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "kwargs",
    [
        {"margin": np.float64(0.1)},
        {"margin": np.int32(3)},
        {"share": 0.0},
        {"share": 1.0},
        {"step": 1.0},
        {"rate": 0.0},
        {"count": np.int64(5)},
        {"digit": 9},
        {"sign": -1},
        {"flag": True},
        {"mode": "b"},
    ],
    ids=repr,
)
def test_good_values_pass(kwargs):
    Toy(**kwargs)


def test_the_default_generator_is_seeded_and_fresh_per_instance():
    a, b = Toy(), Toy()
    assert a.rng is not b.rng
    assert a.rng.integers(0, 10**9) == b.rng.integers(0, 10**9)
    assert "rng" not in repr(a)


def test_field_metadata():
    fields = attrs.fields_dict(Toy)
    assert fields["rng"].metadata["rng"] is True and fields["rng"].metadata["doc"]
    assert is_data_field(fields["table"]) and fields["table"].metadata["doc"] == "a table"
    assert not is_data_field(fields["margin"])
    assert set(DATA_SUFFIXES) == {".npy", ".csv", ".jsonl"}


def test_generator_accepts_only_generators():
    field = attrs.fields(Toy).rng
    generator(None, field, np.random.default_rng(1))
    with pytest.raises(TypeError, match="rng"):
        generator(None, field, np.random.RandomState(1))
