"""Replay refuses data it cannot play honestly: NaN or infinite instances, labels other than ±1."""

import numpy as np
import pytest

from adversaries import Replay
from game.errors import ParameterError


@pytest.mark.parametrize(
    "instances, note",
    [
        ([[1.0, 2.0], [np.nan, 1.0]], "row 2, column 1 is not finite"),
        ([[1.0, np.inf], [0.0, 1.0]], "row 1, column 2 is not finite"),
        ([1.0, -np.inf], "row 2 is not finite"),
        (np.array([[1.0, float("1e400")], [0.0, 1.0]]), "row 1, column 2 is not finite"),
    ],
)
def test_non_finite_instances_are_refused_naming_row_and_column(instances, note):
    with pytest.raises(ParameterError) as info:
        Replay(instances=instances, labels=[1, -1])
    assert info.value.parameter == "instances"
    assert str(info.value).startswith("instances must be finite numbers, got ")
    assert info.value.note == note


@pytest.mark.parametrize(
    "labels, row",
    [([1, np.nan], 2), ([np.inf, 1], 1), ([1, 0], 2), ([2, 1], 1), ([True, False], 2)],
)
def test_labels_other_than_plus_minus_one_name_their_row(labels, row):
    with pytest.raises(ParameterError) as info:
        Replay(instances=[[1.0], [2.0]], labels=labels)
    assert info.value.parameter == "labels"
    assert info.value.note == f"row {row} is neither"


def test_finite_data_still_plays():
    replay = Replay(instances=[[1.0, 0.5], [-1.0, 2.0]], labels=[1, -1])
    assert len(replay) == 2 and replay.instance(None).tolist() == [1.0, 0.5]
