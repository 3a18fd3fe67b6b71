"""Transcript in memory: rounds, columns, totals for each loss, summary and bound.

Examples to paste::

    import numpy as np
    from game import play
    from learners import Perceptron
    from adversaries import Replay
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, -1], separator=[1, -1]), rounds=9)
    tr[0].t, tr[-1].t, tr.cumulative_mistakes()
"""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import GameError, Round, Transcript, play
from game.theory.bounds import Bound
from learners import Perceptron

# Predictions with every sign case, including exact zeros (sign(0) = +1, also for -0.0).
P = np.array([1.0, -1.0, 0.0, 0.5, -0.25, -0.0, 0.75])
Y = np.array([1, 1, -1, -1, -1, 1, 1], dtype=np.int8)
MISTAKES = [False, True, True, True, False, False, False]
ABSOLUTE = [0.0, 1.0, 0.5, 0.75, 0.375, 0.5, 0.125]
SQUARED = [0.0, 1.0, 0.25, 0.5625, 0.140625, 0.25, 0.015625]


@attrs.define(eq=False)
class Scripted:
    """A learner that plays a fixed list of predictions and reports fixed updates."""

    predictions: list
    updates: list
    i: int = 0

    def predict(self, x) -> float:
        return float(self.predictions[self.i])

    def update(self, x, y) -> bool:
        self.i += 1
        return bool(self.updates[self.i - 1])

    def extras(self) -> dict:
        return {"step": float(self.i), "p2": float(self.predictions[self.i - 1]) ** 2}


def scripted_game(loss: str = "zero-one") -> Transcript:
    X = np.arange(len(P) * 2, dtype=float).reshape(len(P), 2) / 10.0
    updates = [True, False, True, False, False, True, False]
    learner = Scripted(list(P), updates)
    return play(learner, Replay(instances=X, labels=Y), rounds=100, loss=loss)


def perceptron_game(rounds: int = 60, seed: int = 0, **kwargs) -> Transcript:
    stream = SeparableStream(3, 0.2, rng=np.random.default_rng(seed))
    return play(Perceptron(), stream, rounds=rounds, **kwargs)


# -- length, indexing, iteration ----------------------------------------------------------


def test_len_counts_rounds_played_not_the_limit():
    tr = scripted_game()
    assert len(tr) == len(P)
    assert len(perceptron_game(rounds=17)) == 17
    assert len(perceptron_game(rounds=0)) == 0


def test_indexing_is_zero_based_with_t_from_one():
    tr = scripted_game()
    for i in range(len(tr)):
        r = tr[i]
        assert isinstance(r, Round)
        assert r.t == i + 1
        assert r.prediction == P[i]
        assert r.label == Y[i]
        assert r.mistake == MISTAKES[i]
    assert type(tr[0].t) is int and type(tr[0].label) is int
    assert type(tr[0].prediction) is float and type(tr[0].updated) is bool
    np.testing.assert_array_equal(tr[3].instance, [0.6, 0.7])


def test_numpy_integer_index_gives_python_int_t():
    tr = scripted_game()
    r = tr[np.int64(2)]
    assert r.t == 3 and type(r.t) is int


def test_negative_indices_count_from_the_end():
    tr = scripted_game()
    assert tr[-1].t == len(tr)
    assert tr[-len(tr)].t == 1
    assert tr[-2] == tr[len(tr) - 2]


@pytest.mark.parametrize("index", [7, 100, -8, -100])
def test_out_of_range_index_raises_index_error(index):
    tr = scripted_game()
    with pytest.raises(IndexError, match="out of range"):
        tr[index]


def test_index_into_an_empty_transcript_raises():
    tr = perceptron_game(rounds=0)
    with pytest.raises(IndexError):
        tr[0]
    assert tr[:] == [] and list(tr) == []


@pytest.mark.parametrize(
    "key", [slice(1, 3), slice(None, None, -1), slice(-3, None), slice(0, 100, 2), slice(5, 2)]
)
def test_slices_give_the_rounds_a_list_would(key):
    tr = scripted_game()
    expected = list(range(1, len(tr) + 1))[key]
    assert [r.t for r in tr[key]] == expected


def test_iteration_yields_every_round_in_order():
    tr = scripted_game()
    rounds = list(tr)
    assert [r.t for r in rounds] == list(range(1, len(P) + 1))
    assert rounds == [tr[i] for i in range(len(tr))]
    assert [r.updated for r in rounds] == tr.updated.tolist()
    assert [r.extras["step"] for r in rounds] == list(range(1, len(P) + 1))


# -- columns and totals -------------------------------------------------------------------


def test_columns_are_numpy_arrays_not_objects_per_round():
    tr = perceptron_game(rounds=50, snapshots=True)
    assert isinstance(tr.predictions, np.ndarray) and tr.predictions.dtype == np.float64
    assert isinstance(tr.labels, np.ndarray) and tr.labels.dtype == np.int8
    assert isinstance(tr.updated, np.ndarray) and tr.updated.dtype == bool
    assert tr.instances.shape == (50, 3) and tr.instances.dtype == np.float64
    for column in (tr.mistakes, tr.losses, tr.cumulative_mistakes(), tr.cumulative_updates()):
        assert isinstance(column, np.ndarray) and column.shape == (50,)
    assert tr.snapshot("norm2").shape == (50,)
    stored = [getattr(tr, f.name) for f in attrs.fields(Transcript)]
    flat = [v for s in stored if isinstance(s, list | tuple | dict) for v in s]
    assert not any(isinstance(v, Round) for v in flat)


def test_extras_are_float_columns():
    tr = scripted_game()
    assert set(tr.extras) == {"step", "p2"}
    assert tr.extras["step"].dtype == np.float64
    np.testing.assert_array_equal(tr.extras["step"], np.arange(1, len(P) + 1))
    np.testing.assert_array_equal(tr.extras["p2"], P**2)
    assert tr.observed("p2") == pytest.approx(float(np.sum(P**2)))


@pytest.mark.parametrize(
    "loss, expected", [("zero-one", MISTAKES), ("absolute", ABSOLUTE), ("squared", SQUARED)]
)
def test_mistakes_and_losses_for_each_loss(loss, expected):
    tr = scripted_game(loss)
    assert tr.loss_name == loss
    # mistakes do not depend on the loss: sign(p) != y with sign(0) = +1
    assert tr.mistakes.tolist() == MISTAKES
    np.testing.assert_allclose(tr.losses, np.asarray(expected, dtype=float), rtol=0, atol=0)
    assert [r.loss for r in tr] == pytest.approx(list(map(float, expected)), abs=0)
    assert [r.mistake for r in tr] == MISTAKES
    assert tr.observed("loss") == pytest.approx(sum(map(float, expected)))
    assert tr.observed("mistakes") == sum(MISTAKES) == 3
    assert tr.summary()["loss"] == pytest.approx(sum(map(float, expected)))
    assert tr.summary()["loss_name"] == loss


def test_cumulative_counts_and_updates_apart_from_mistakes():
    tr = scripted_game()
    assert tr.cumulative_mistakes().tolist() == [0, 1, 2, 3, 3, 3, 3]
    assert tr.updates.tolist() == [True, False, True, False, False, True, False]
    assert tr.cumulative_updates().tolist() == [1, 1, 2, 2, 2, 3, 3]
    assert tr.observed("updates") == 3
    assert type(tr.observed("mistakes")) is int and type(tr.observed("updates")) is int


def test_perceptron_updates_on_a_zero_score_round_predicted_right():
    # 004's rule: w = 0 on round 1, y·w·x = 0 ≤ 0, prediction +1 = y: an update, no mistake.
    tr = play(Perceptron(), Replay(instances=[[1.0, 0.0]], labels=[1]), rounds=5)
    assert tr.mistakes.tolist() == [False] and tr.updated.tolist() == [True]


def test_observed_unknown_quantity_raises():
    with pytest.raises(GameError, match="no quantity 'surprise'"):
        scripted_game().observed("surprise")


def test_snapshot_without_snapshots_raises():
    tr = perceptron_game(rounds=5)
    with pytest.raises(GameError, match="snapshots=True"):
        tr.snapshot("norm2")
    with pytest.raises(GameError, match="no snapshot 'nope'"):
        perceptron_game(rounds=5, snapshots=True).snapshot("nope")


def test_snapshots_are_taken_after_the_update():
    tr = perceptron_game(rounds=40, snapshots=True)
    w = np.zeros(3)
    for r in tr:
        if r.updated:
            w = w + r.label * r.instance
        np.testing.assert_allclose(r.snapshot["w"], w)
    assert tr.initial_snapshot["norm2"] == 0.0
    norm2 = tr.snapshot("norm2")
    assert norm2[-1] == pytest.approx(float(w @ w))


# -- summary and bound --------------------------------------------------------------------


def test_summary_keys_and_values():
    tr = perceptron_game(rounds=300)
    s = tr.summary()
    required = {
        "learner", "adversary", "rounds", "mistakes", "updates", "loss", "loss_name", "bound",
        "bound_quantity", "theorem", "source", "within_bound", "lower_bound", "forced",
        "certificate", "certificate_realizable", "certificate_verified", "status", "wall_time",
        "digest",
    }  # fmt: skip
    assert required <= set(s)
    assert s["learner"] == "perceptron" and s["adversary"] == "separable-stream"
    assert s["rounds"] == 300
    assert s["mistakes"] == int(tr.mistakes.sum()) and s["updates"] == int(tr.updated.sum())
    assert s["loss"] == s["mistakes"] and s["loss_name"] == "zero-one"
    assert s["bound"] == tr.bound.value and s["bound_quantity"] == "updates"
    assert "Block" in s["source"] and s["theorem"] == tr.bound.theorem
    assert s["within_bound"] is True and s["updates"] <= s["bound"]
    assert s["lower_bound"] is None and s["forced"] is None
    assert s["certificate_realizable"] is True and s["certificate_verified"] is True
    assert s["certificate"].startswith("sign(w·x)")
    assert s["status"] == "complete" and "reason" not in s
    assert s["wall_time"] > 0
    assert s["digest"] == tr.digest and s["digest"].startswith("sha256:")


def test_summary_without_bound_or_certificate():
    tr = scripted_game()
    s = tr.summary()
    assert s["bound"] is None and s["within_bound"] is None and s["theorem"] is None
    assert s["certificate"] is None and s["certificate_verified"] is None
    assert tr.within_bound is None


@pytest.mark.parametrize(
    "loss, value, quantity, expected",
    [("zero-one", 3.0, "mistakes", True), ("zero-one", 2.999, "mistakes", False),
     ("zero-one", 3.0, "updates", True), ("zero-one", 2.0, "updates", False),
     ("zero-one", math.inf, "mistakes", True), ("zero-one", 0.0, "updates", False),
     ("absolute", 3.25, "loss", True), ("absolute", 3.2, "loss", False),
     ("squared", 2.22, "loss", True), ("squared", 2.2, "loss", False),
     ("zero-one", 28.0, "step", True), ("zero-one", 27.5, "step", False)],
)  # fmt: skip
def test_within_bound_compares_the_bounds_quantity(loss, value, quantity, expected):
    # the scripted game: 3 mistakes, 3 updates, absolute loss 3.25, squared loss 2.21875,
    # and its extras column "step" sums to 1 + 2 + ... + 7 = 28
    tr = attrs.evolve(scripted_game(loss), bound=Bound(value, "t", "s", quantity=quantity))
    assert tr.within_bound is expected
    assert tr.summary()["within_bound"] is expected


def test_lower_bound_forced_in_summary():
    tr = attrs.evolve(scripted_game(), lower_bound=Bound(3, "t", "s", kind="lower"))
    assert tr.summary()["forced"] is True and tr.summary()["lower_bound"] == 3.0
    tr = attrs.evolve(scripted_game(), lower_bound=Bound(4, "t", "s", kind="lower"))
    assert tr.summary()["forced"] is False


def test_equality_is_by_digest_and_record():
    a, b = perceptron_game(seed=1), perceptron_game(seed=1)
    assert a == b and a is not b
    assert a != perceptron_game(seed=2)
    assert a != attrs.evolve(b, status="aborted")
    assert a.__eq__(42) is NotImplemented
