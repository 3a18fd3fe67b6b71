"""Each broken player the conformance checks once missed now fails the check that names its fault.

The players are defined at module level so that they can be pickled: each test
asserts that the check for its fault fails, with one line naming the player,
the round and the value.
"""

import random

import numpy as np
import pytest

from adversaries import SeparableStream
from game.testing import (
    CheckFailure,
    check_adversary,
    check_adversary_history,
    check_adversary_instances,
    check_adversary_no_mutation,
    check_learner,
    check_learner_bound,
    check_learner_deterministic,
    check_learner_predictions,
    check_learner_snapshot,
    check_learner_update_state,
    run_checks,
)
from game.testing._games import MAX_ROUNDS, MIN_ROUNDS, game_length
from game.theory.bounds import Bound
from learners import Perceptron


def failure(check, *args) -> str:
    """The message of the CheckFailure ``check(*args)`` raises, checked to be one line."""
    with pytest.raises(CheckFailure) as info:
        check(*args)
    message = str(info.value)
    assert "\n" not in message, message
    return message


# -- learners ----------------------------------------------------------------------------------


class LateLiar:
    """Claims to be deterministic; predicts at random from round 62 and NaN from round 96."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self, rng):
        self.rng = rng
        self.t = 0

    def predict(self, x):
        self.t += 1
        if self.t >= 96:
            return float("nan")
        if self.t >= 62:
            return 1.0 if self.rng.random() < 0.5 else -1.0
        return 1.0

    def update(self, x, y):
        return False


class GlobalCoin(LateLiar):
    """Claims to be deterministic; from round 62 flips the standard library's global coin."""

    def predict(self, x):
        self.t += 1
        if self.t >= 62:
            return 1.0 if random.random() < 0.5 else -1.0
        return 1.0


class LateNaN(LateLiar):
    """Predicts +1 and, from round 400, NaN: only a long game reaches it."""

    def predict(self, x):
        self.t += 1
        return float("nan") if self.t >= 400 else 1.0


class Boaster:
    """``update`` always says True, though nothing changes; claims "mistakes ≤ 0"."""

    deterministic = True
    plays = frozenset({"vector"})

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return True

    def mistake_bound(self, transcript):
        return Bound(0, "mistakes ≤ 0", "nowhere")


class QuietPerceptron(Perceptron):
    """A Perceptron whose ``update`` always says False (its snapshot shows it learns)."""

    def update(self, x, y):
        super().update(x, y)
        return False


class Parrot:
    """Predicts the last label it was shown; says its update changes nothing. No snapshot."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self):
        self.last = 1.0

    def predict(self, x):
        return self.last

    def update(self, x, y):
        self.last = float(y)
        return False


class Counter(Perceptron):
    """A Perceptron that counts its rounds: its state changes every round, yet says False
    when w does not change. Its predictions and snapshot tell the truth: it passes."""

    def __attrs_post_init__(self):
        super().__attrs_post_init__()
        self.rounds = 0

    def update(self, x, y):
        self.rounds += 1
        return super().update(x, y)


class SnapshotNaN(Perceptron):
    """A Perceptron whose snapshot holds NaN from round 5 on."""

    def update(self, x, y):
        self.seen = getattr(self, "seen", 0) + 1
        return super().update(x, y)

    def snapshot(self):
        bad = float("nan") if getattr(self, "seen", 0) >= 5 else 0.0
        return super().snapshot() | {"bad": bad}


class SnapshotObject(SnapshotNaN):
    """A Perceptron whose snapshot holds an ``object()`` from round 5 on."""

    def snapshot(self):
        bad = object() if getattr(self, "seen", 0) >= 5 else 0.0
        return Perceptron.snapshot(self) | {"bad": bad}


def test_a_learner_that_turns_random_at_round_62_fails_the_determinism_check():
    message = failure(check_learner_deterministic, lambda rng: LateLiar(rng), "vector")
    assert message.startswith("LateLiar: deterministic: round ")
    assert int(message.split("round ")[1].split(":")[0]) >= 62
    assert "deterministic = True" in message


def test_a_learner_that_flips_a_global_coin_fails_the_determinism_check():
    message = failure(check_learner_deterministic, lambda rng: GlobalCoin(rng), "vector")
    assert "deterministic = True" in message
    assert int(message.split("round ")[1].split(":")[0]) >= 62


def test_a_learner_that_returns_nan_at_round_96_fails_the_predictions_check():
    message = failure(check_learner_predictions, lambda rng: LateLiar(rng), "vector")
    assert "round 96: predict returned nan" in message
    assert message.startswith("LateLiar: predictions: ")


def test_the_late_liar_no_longer_passes_the_suite():
    results = run_checks(check_learner(lambda rng: LateLiar(rng)))
    failed = {r.check.name for r in results if not r.passed}
    assert {"predictions[vector]", "deterministic[vector]"} <= failed


def test_games_are_long_and_their_length_is_drawn_from_the_seed():
    lengths = [game_length(seed) for seed in range(30)]
    assert all(MIN_ROUNDS <= n <= MAX_ROUNDS for n in lengths)
    assert MIN_ROUNDS > 96 and len(set(lengths)) > 10
    assert lengths == [game_length(seed) for seed in range(30)]


def test_a_fault_at_round_400_is_reached_by_some_check():
    failed = [r for r in run_checks(check_learner(lambda rng: LateNaN(rng))) if not r.passed]
    assert failed and all("round 400: predict returned nan" in r.message for r in failed)
    assert all(game_length(seed) < 400 for seed in (1, 2))  # predictions' games end sooner


def test_an_update_that_always_says_true_fails_the_update_state_check():
    message = failure(check_learner_update_state, lambda rng: Boaster(), "vector")
    assert message == (
        "Boaster: update_state: round 1: update returned True, yet the learner's state did "
        "not change (its pickled state is the same byte for byte)"
    )


def test_a_bound_of_no_mistakes_that_a_learner_breaks_fails_the_bound_check():
    message = failure(check_learner_bound, lambda rng: Boaster(), "vector")
    assert message.startswith("Boaster: bound: round ")
    assert "mistakes reached 1, above its bound 0 (mistakes ≤ 0), on a game where" in message


def test_the_boaster_no_longer_passes_the_suite():
    results = run_checks(check_learner(lambda rng: Boaster()))
    failed = {r.check.name for r in results if not r.passed}
    assert {"update_state[vector]", "bound[vector]"} <= failed


def test_an_update_that_says_false_while_the_snapshot_changes_fails():
    message = failure(check_learner_update_state, lambda rng: QuietPerceptron(), "vector")
    assert "update returned False, yet its snapshot changed: norm2 was 0.0" in message
    assert message.startswith("QuietPerceptron: update_state: round 1: ")


def test_an_update_that_says_false_while_predictions_change_fails():
    message = failure(check_learner_update_state, lambda rng: Parrot(), "vector")
    assert "update returned False, yet the learner changed: on its instance it predicted" in message


def test_a_state_change_that_changes_no_prediction_does_not_count_against_false():
    check_learner_update_state(lambda rng: Counter(), "vector")


@pytest.mark.parametrize(
    ("learner", "shown"), [(SnapshotNaN, "nan"), (SnapshotObject, "<object object at")]
)
def test_a_snapshot_with_nan_or_an_object_fails_naming_round_and_value(learner, shown):
    message = failure(check_learner_snapshot, lambda rng: learner(), "vector")
    prefix = f"{learner.__name__}: snapshot: round 5: snapshot()['bad'] is {shown}"
    assert message.startswith(prefix), message
    assert "expected a real number or an array of real numbers" in message


# -- adversaries -------------------------------------------------------------------------------


class Reuser(SeparableStream):
    """Hands back one buffer every round, rewritten."""

    def instance(self, history):
        x = super().instance(history)
        if getattr(self, "buffer", None) is None:
            self.buffer = np.array(x, copy=True)
        self.buffer[:] = x
        return self.buffer


class ViewReuser(Reuser):
    """Rewrites one buffer every round, and hands out a new view of it."""

    def instance(self, history):
        return super().instance(history)[:]


class Scribbler(SeparableStream):
    """Writes to round 3's instance when labelling round 7."""

    def instance(self, history):
        x = np.array(super().instance(history), copy=True)
        if len(history) == 2:
            self.third = x
        return x

    def label(self, x, p, history):
        if len(history) == 6:
            self.third[0] += 1.0
        return super().label(x, p, history)


class Flipper(SeparableStream):
    """Reaches around the read-only history to flip round 1's label, on round 5."""

    def label(self, x, p, history):
        if len(history) == 4:
            column = history._labels._column  # the fault under test
            column[0] = -column[0]
        return super().label(x, p, history)


class OpenFlipper(SeparableStream):
    """Writes round 1's label through the history on round 5 (which the history refuses)."""

    def label(self, x, p, history):
        if len(history) == 4:
            history.labels[0] = -history.labels[0]
        return super().label(x, p, history)


class BadInstance(SeparableStream):
    """Presents ``value`` in round 11."""

    value = None

    def instance(self, history):
        x = super().instance(history)
        return self.value if len(history) == 10 else x


class ComplexInstance(BadInstance):
    value = np.array([1 + 2j, 0.0, 0.0])


class StrInstance(BadInstance):
    value = "hello"


class DictInstance(BadInstance):
    value = {"x": 1.0}  # noqa: RUF012 - the fault under test


def stream(cls):
    return lambda rng: cls(3, 0.2, rng=rng)


def test_an_adversary_that_hands_back_a_rewritten_buffer_fails():
    message = failure(check_adversary_no_mutation, stream(Reuser))
    assert message.startswith(
        "Reuser: no_mutation: round 2: instance() handed back the object it returned in round 1, "
        "rewritten: array(["
    )


def test_an_adversary_that_rewrites_a_buffer_behind_new_views_fails():
    message = failure(check_adversary_no_mutation, stream(ViewReuser))
    assert (
        "round 1's instance changed after it was returned, during round 2's instance()" in message
    )
    assert "a buffer reused" in message


def test_an_adversary_that_writes_to_an_instance_it_returned_fails():
    message = failure(check_adversary_no_mutation, stream(Scribbler))
    assert "Scribbler: no_mutation: round 3's instance changed after it was returned" in message


def test_the_buffer_reuser_no_longer_passes_the_suite():
    failed = {r.check.name for r in run_checks(check_adversary(stream(Reuser))) if not r.passed}
    assert "no_mutation" in failed


def test_an_adversary_that_flips_a_label_in_the_history_fails():
    message = failure(check_adversary_history, stream(Flipper))
    assert message == (
        "Flipper: history: round 5: during label(), round 1's label in the history turned "
        "from 1 to -1; the record of a round played never changes"
    )


def test_an_adversary_that_writes_through_the_history_fails_naming_the_attempt():
    message = failure(check_adversary_history, stream(OpenFlipper))
    assert message.startswith("OpenFlipper: history: round 5: label raised TypeError")
    assert "read-only" in message


@pytest.mark.parametrize(
    ("cls", "says"),
    [
        (ComplexInstance, "array([1.+2.j, 0.+0.j, 0.+0.j]): it holds complex128 values"),
        (StrInstance, "'hello': it is a str"),
        (DictInstance, "{'x': 1.0}: it is a dict"),
    ],
)
def test_an_instance_of_the_wrong_kind_fails_naming_round_and_value(cls, says):
    message = failure(check_adversary_instances, stream(cls))
    assert message == (
        f"{cls.__name__}: instances: round 11: instance() returned {says}; "
        "expected a real vector (numpy float array)"
    )


def test_good_players_pass_the_new_checks():
    check_adversary_instances(stream(SeparableStream))
    check_adversary_no_mutation(stream(SeparableStream))
    check_adversary_history(stream(SeparableStream))
    for check in (check_learner_update_state, check_learner_snapshot, check_learner_bound):
        check(lambda rng: Perceptron(), "vector")
