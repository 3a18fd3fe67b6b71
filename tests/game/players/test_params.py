"""game.players._params: validators whose messages name the parameter and the value."""

import math

import attrs
import numpy as np
import pytest

from game.errors import ParameterError
from game.players import (
    DATA_SUFFIXES,
    SUPPLIED,
    concept_class_field,
    data_field,
    generator,
    integer_at_least,
    is_data_field,
    loss_field,
    one_of,
    positive,
    real_in,
    rng_field,
    supplied,
)
from game.theory.concepts import FiniteClass, thresholds


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
    loss: str = loss_field("the toy's loss")
    concept_class: object = concept_class_field("the toy's class", required=False)
    cls: object = concept_class_field("a class under another name", required=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"margin": 0.0}, "margin must be a number > 0, got 0.0"),
        ({"margin": -1}, "margin must be a number > 0, got -1"),
        ({"margin": math.inf}, "margin must be a number > 0, got inf"),
        ({"margin": math.nan}, "margin must be a number > 0, got nan"),
        ({"margin": "1"}, "margin must be a number > 0, got '1'"),
        ({"margin": True}, "margin must be a number > 0, got True"),
        ({"share": 1.5}, "share must be a number in [0, 1], got 1.5"),
        ({"share": -0.1}, "share must be a number in [0, 1], got -0.1"),
        ({"step": 0}, "step must be a number in (0, 1], got 0"),
        ({"rate": 1}, "rate must be a number in [0, 1), got 1"),
        ({"count": 0}, "count must be an integer ≥ 1, got 0"),
        ({"count": 2.0}, "count must be an integer ≥ 1, got 2.0"),
        ({"count": False}, "count must be an integer ≥ 1, got False"),
        ({"count": np.bool_(True)}, "count must be an integer ≥ 1, got True"),
        ({"digit": 10}, "digit must be an integer between 0 and 9, got 10"),
        ({"sign": 0}, "sign must be one of 1, -1, got 0"),
        ({"sign": True}, "sign must be one of 1, -1, got True"),
        ({"flag": 1}, "flag must be one of False, True, got 1"),
        ({"flag": "yes"}, "flag must be one of False, True, got 'yes'"),
        ({"mode": "c"}, "mode must be one of 'a', 'b', got 'c'"),
        ({"rng": 0}, "rng must be a numpy.random.Generator, got 0"),
        ({"loss": "hinge"}, "loss must be one of 'zero-one', 'absolute', 'squared', got 'hinge'"),
        ({"cls": [[1, 0]]}, "cls must be a 2-D matrix of +1 or -1 entries"),
    ],
)
def test_messages_name_the_parameter_as_the_caller_writes_it_and_the_value(kwargs, message):
    with pytest.raises(ParameterError) as info:
        Toy(**kwargs)
    assert str(info.value).startswith(message)
    ((name, value),) = kwargs.items()
    assert info.value.parameter == name
    assert info.value.value is value


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
        {"count": np.uint8(5)},
        {"digit": 9},
        {"sign": -1},
        {"sign": np.int8(-1)},
        {"flag": True},
        {"flag": np.True_},
        {"mode": "b"},
        {"loss": "squared"},
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
    assert fields["rng"].metadata["doc"]
    assert is_data_field(fields["table"]) and fields["table"].metadata["doc"] == "a table"
    assert not is_data_field(fields["margin"])
    assert set(DATA_SUFFIXES) == {".npy", ".csv", ".jsonl"}


def test_the_fields_a_scenario_fills_are_declared_not_named():
    fields = attrs.fields_dict(Toy)
    assert {name: supplied(f) for name, f in fields.items() if supplied(f)} == {
        "rng": "rng",
        "loss": "loss",
        "concept_class": "concept_class",
        "cls": "concept_class",
    }
    assert set(SUPPLIED) == {"rng", "loss", "concept_class"}
    assert supplied(fields["margin"]) is None
    assert is_data_field(fields["concept_class"])  # a player's table may name a file


def test_a_loss_field_defaults_and_takes_every_loss():
    assert Toy().loss == "zero-one"
    assert [Toy(loss=name).loss for name in ("absolute", "squared")] == ["absolute", "squared"]

    @attrs.define
    class Graded:
        loss: str = loss_field(default="absolute")

    assert Graded().loss == "absolute"


def test_a_concept_class_field_coerces_to_one_finite_class():
    assert Toy().concept_class is None
    cls = thresholds(3)
    assert Toy(concept_class=cls).concept_class is cls
    made = Toy(concept_class=[[1, -1], [-1, 1]]).concept_class
    assert isinstance(made, FiniteClass) and made.n_hypotheses == 2

    @attrs.define
    class Needs:
        concept_class: object = concept_class_field("required")

    with pytest.raises(ParameterError, match="concept_class must be a finite class"):
        Needs(None)


def test_generator_accepts_only_generators():
    field = attrs.fields(Toy).rng
    generator(None, field, np.random.default_rng(1))
    with pytest.raises(ParameterError, match="rng") as info:
        generator(None, field, np.random.RandomState(1))
    assert info.value.parameter == "rng"


def test_numpy_scalars_are_stored_as_the_python_values_they_equal():
    toy = Toy(count=np.uint8(200), sign=np.int8(-1), flag=np.True_, margin=np.float32(0.5))
    assert (toy.count, toy.sign, toy.flag, toy.margin) == (200, -1, True, 0.5)
    assert [type(v) for v in (toy.count, toy.sign, toy.flag, toy.margin)] == [int, int, bool, float]
    assert toy.count * toy.count == 40_000  # no uint8 arithmetic
