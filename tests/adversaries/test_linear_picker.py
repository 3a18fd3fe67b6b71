"""The misclassified picker: the Batch Perceptron's loop as an adversary."""

import numpy as np
import pytest

from adversaries import MisclassifiedPicker, Replay, SeparableStream
from adversaries.picker import misclassified, pick_index
from game import HalfspaceCertificate, ParameterError, Transcript, play
from game.testing import RandomLearner
from learners import Perceptron

X3 = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, 0.5]])
Y3 = np.array([1, 1, -1])


@pytest.mark.parametrize(
    ("rule", "previous", "expected"),
    [("first", 5, 1), ("cyclic", -1, 1), ("cyclic", 1, 4), ("cyclic", 4, 6), ("cyclic", 6, 1)],
)
def test_pick_index(rule, previous, expected):
    assert pick_index(np.array([1, 4, 6]), rule, previous, np.random.default_rng(0)) == expected


def test_random_rule_draws_uniformly_among_the_misclassified():
    rng = np.random.default_rng(0)
    picks = [pick_index(np.array([2, 5, 9]), "random", -1, rng) for _ in range(300)]
    assert set(picks) == {2, 5, 9}


def test_first_rule_game_step_by_step():
    picker = MisclassifiedPicker(instances=X3, labels=Y3)
    tr = play(Perceptron(), picker, rounds=100)
    # each round presents the smallest index with y⟨w, x⟩ ≤ 0 for the batch w so far
    w = np.zeros(2)
    for t, x in enumerate(tr.raw_instances):
        bad = misclassified(X3, Y3, w)
        i = int(bad[0])
        np.testing.assert_array_equal(x, X3[i])
        assert tr.labels[t] == Y3[i]
        w = w + Y3[i] * X3[i]
    assert misclassified(X3, Y3, w).size == 0
    assert tr.updated.all()


@pytest.mark.parametrize("rule", ["first", "cyclic", "random"])
def test_the_game_ends_when_every_example_is_classified_correctly(rule):
    stream = SeparableStream(4, 0.05, 1.0, np.random.default_rng(3))
    X, y = stream.examples(80)
    picker = MisclassifiedPicker(instances=X, labels=y, rule=rule, rng=np.random.default_rng(1))
    learner = Perceptron()
    tr = play(learner, picker, rounds=10**6)
    assert picker.remaining().size == 0
    assert np.all(y * (X @ learner.weights) > 0)
    # its certificate is its own final w: feasible, so Theorem 9.1 holds with it
    assert tr.certificate_verified and isinstance(tr.certificate, HalfspaceCertificate)


def test_the_picker_ignores_the_learners_predictions():
    a = play(Perceptron(), MisclassifiedPicker(instances=X3, labels=Y3), rounds=100)
    b = play(
        RandomLearner(np.random.default_rng(0)),
        MisclassifiedPicker(instances=X3, labels=Y3),
        rounds=100,
    )
    np.testing.assert_array_equal(np.asarray(a.instances), np.asarray(b.instances))


def test_certificate_preference_separator_then_transcript_then_final_w():
    picker = MisclassifiedPicker(instances=X3, labels=Y3, separator=[1.0, 0.5])
    assert picker.certificate().weights.tolist() == [1.0, 0.5]
    source = play(Perceptron(), Replay(instances=X3, labels=Y3, separator=[2.0, 1.0]), rounds=3)
    from_transcript = MisclassifiedPicker(transcript=source)
    assert from_transcript.certificate() == source.certificate
    fresh = MisclassifiedPicker(instances=X3, labels=Y3)
    assert fresh.certificate() is None  # w = 0 separates nothing yet


def test_no_certificate_when_cut_short_before_separating():
    stream = SeparableStream(4, 0.01, 1.0, np.random.default_rng(3))
    X, y = stream.examples(200)
    tr = play(Perceptron(), MisclassifiedPicker(instances=X, labels=y), rounds=2)
    assert len(tr) == 2 and tr.certificate is None


@pytest.mark.parametrize(
    ("kwargs", "parameter", "message"),
    [
        ({"instances": X3, "labels": [1, 1]}, "labels", "labels must be a vector of 3"),
        ({"instances": X3, "labels": [1, 0, 1]}, "labels", "labels must be a vector of -1 and 1"),
        ({"instances": X3}, "labels", "give either transcript or instances and labels"),
        ({"instances": [[np.nan, 1.0]], "labels": [1]}, "instances", "finite matrix"),
        ({"instances": X3, "labels": Y3, "rule": "last"}, "rule", "rule must be one of"),
        ({"transcript": "runs/x.jsonl"}, "transcript", "transcript must be a Transcript"),
    ],
)
def test_parameters_are_validated(kwargs, parameter, message):
    with pytest.raises(ParameterError, match=message) as info:
        MisclassifiedPicker(**kwargs)
    assert info.value.parameter == parameter


def test_transcript_and_arrays_are_exclusive():
    source = play(Perceptron(), Replay(instances=X3, labels=Y3), rounds=3)
    assert isinstance(source, Transcript)
    with pytest.raises(ValueError, match="not both"):
        MisclassifiedPicker(transcript=source, instances=X3, labels=Y3)


def test_a_bad_separator_is_named():
    with pytest.raises(ParameterError, match=r"^separator must be a non-zero vector") as info:
        MisclassifiedPicker(instances=X3, labels=Y3, separator=[0.0, 0.0])
    assert info.value.parameter == "separator"
