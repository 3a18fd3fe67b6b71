"""game.theory._losses: zero-one, absolute and squared, all in [0, 1]."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.errors import GameError
from game.theory import LOSSES, absolute, get_loss, predicted_label, squared, zero_one


def test_the_registered_losses():
    assert LOSSES == {"zero-one": zero_one, "absolute": absolute, "squared": squared}
    for name, fn in LOSSES.items():
        assert get_loss(name) is fn


@pytest.mark.parametrize(
    ("p", "y", "expected"),
    [
        (1.0, 1, 0.0),
        (1.0, -1, 1.0),
        (-1.0, -1, 0.0),
        (-1.0, 1, 1.0),
        (0.0, 1, 0.0),  # sign(0) = +1
        (0.0, -1, 1.0),
        (-0.0, -1, 1.0),
        (-1e-300, 1, 1.0),
        (0.3, -1, 1.0),
    ],
)
def test_zero_one(p, y, expected):
    assert zero_one(p, y) == expected
    assert type(zero_one(p, y)) is float


@pytest.mark.parametrize(
    ("p", "y", "absolute_loss", "squared_loss"),
    [(1.0, 1, 0.0, 0.0), (-1.0, 1, 1.0, 1.0), (0.0, -1, 0.5, 0.25), (0.5, -1, 0.75, 0.5625)],
)
def test_absolute_and_squared(p, y, absolute_loss, squared_loss):
    assert absolute(p, y) == absolute_loss
    assert squared(p, y) == squared_loss
    assert type(absolute(p, y)) is float and type(squared(p, y)) is float


def test_losses_work_on_arrays_elementwise():
    p = np.array([1.0, 0.0, -0.5, -1.0])
    y = np.array([1, -1, 1, -1], dtype=np.int8)
    assert zero_one(p, y).tolist() == [0.0, 1.0, 1.0, 0.0]
    assert absolute(p, y).tolist() == [0.0, 0.5, 0.75, 0.0]
    assert squared(p, y).tolist() == [0.0, 0.25, 0.5625, 0.0]


@given(st.floats(-1.0, 1.0), st.sampled_from([-1, 1]))
def test_every_loss_is_in_the_unit_interval(p, y):
    for fn in LOSSES.values():
        assert 0.0 <= fn(p, y) <= 1.0


@given(st.sampled_from([-1.0, 1.0]), st.sampled_from([-1, 1]))
def test_on_deterministic_predictions_all_losses_agree(p, y):
    assert zero_one(p, y) == absolute(p, y) == squared(p, y)


def test_predicted_label():
    assert predicted_label(0.0) == 1 and predicted_label(-0.0) == 1
    assert predicted_label(-0.25) == -1 and predicted_label(0.25) == 1
    labels = predicted_label(np.array([0.0, -1.0, 0.5]))
    assert labels.tolist() == [1, -1, 1] and labels.dtype == np.int8


@pytest.mark.parametrize("name", ["hinge", "Zero-One", None, ["absolute"]], ids=repr)
def test_an_unknown_loss_names_the_choices(name):
    with pytest.raises(GameError) as info:
        get_loss(name)
    msg = str(info.value)
    assert repr(name) in msg
    for known in LOSSES:
        assert repr(known) in msg


@given(
    p=st.floats(min_value=-1.0, max_value=1.0, allow_subnormal=True),
    y=st.sampled_from([1, -1]),
    name=st.sampled_from(sorted(LOSSES)),
)
def test_one_round_s_loss_is_the_arrays_to_the_bit(p, y, name):
    """A round's loss (Python float and int) is the float64 arithmetic on arrays, exactly."""
    loss = LOSSES[name]
    one = loss(p, y)
    assert type(one) is float
    assert np.array_equal(np.float64(one), loss(np.array([p, p]), np.array([y, y]))[0])
