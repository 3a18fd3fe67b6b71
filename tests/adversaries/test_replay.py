"""adversaries.replay.Replay: recorded examples, in order, then the end of the game."""

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import HalfspaceCertificate, ParameterError, Transcript, play
from learners import Perceptron

X = [[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [-3.0, -1.0]]
Y = [1, -1, 1, -1]


def test_arrays_are_played_in_order_and_the_game_ends_after_the_last():
    tr = play(Perceptron(), Replay(instances=X, labels=Y), rounds=100)
    assert len(tr) == 4
    assert np.asarray(tr.instances).tolist() == X
    assert tr.labels.tolist() == Y
    # handed no separator, the data's best-margin separator is the certificate
    assert "best-margin separator" in tr.certificate.describe() and tr.certificate_verified


def test_a_shorter_game_stops_at_its_limit():
    tr = play(Perceptron(), Replay(instances=X, labels=Y), rounds=2)
    assert tr.labels.tolist() == Y[:2]


def test_instance_returns_none_once_every_example_was_played():
    r = Replay(instances=X, labels=Y)
    assert len(r) == 4
    for x, y in zip(X, Y, strict=True):
        got = r.instance(None)
        assert np.asarray(got).tolist() == x
        label = r.label(got, 1.0, None)
        assert type(label) is int and label == y
    assert r.instance(None) is None
    assert r.instance(None) is None


def test_a_separator_is_a_verified_certificate():
    tr = play(Perceptron(), Replay(instances=X, labels=Y, separator=[1.0, -1.0]), rounds=10)
    assert tr.certificate == HalfspaceCertificate([1.0, -1.0])
    assert tr.certificate.realizable and tr.certificate_verified is True


def test_numpy_and_float_inputs():
    tr = play(
        Perceptron(),
        Replay(instances=np.array(X, dtype=np.float32), labels=np.array([1.0, -1.0, 1.0, -1.0])),
        rounds=10,
    )
    assert tr.labels.tolist() == Y
    assert np.asarray(tr.instances).tolist() == X


def test_replaying_a_transcript_carries_the_certificate_over(tmp_path):
    s = SeparableStream(3, 0.2, rng=np.random.default_rng(9))
    original = play(Perceptron(), s, rounds=120, out=tmp_path / "original.jsonl")
    for source in (original, Transcript.load(tmp_path / "original.jsonl")):
        again = play(Perceptron(), Replay(transcript=source), rounds=1000)
        assert len(again) == 120
        assert again.certificate == original.certificate
        assert again.certificate_verified is True
        assert again.rounds_digest == original.rounds_digest  # the same rounds,
        assert again.digest != original.digest  # by other players: another game
        assert again.first_difference(original) is None


def test_replaying_to_another_learner_keeps_the_examples():
    original = play(Perceptron(), Replay(instances=X, labels=Y, separator=[1, -1]), rounds=10)
    other = play(
        Perceptron(zero_label=-1, update="mistake"), Replay(transcript=original), rounds=10
    )
    assert other.labels.tolist() == Y
    assert np.array_equal(np.asarray(other.instances), np.asarray(original.instances))
    assert other.certificate_verified is True


def test_presents():
    assert Replay(instances=X, labels=Y).presents == "vector"
    assert Replay(instances=[[True, False], [False, True]], labels=[1, -1]).presents == "bits"
    assert Replay(instances=[3, 0, 2], labels=[1, 1, -1]).presents == "point"


def test_point_instances_are_python_ints():
    r = Replay(instances=np.array([3, 0, 2]), labels=[1, 1, -1])
    assert [type(r.instance(None)) for _ in range(3)] == [int, int, int]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"instances": X, "labels": Y[:3]}, "labels must be a vector of 4 entries, got [1, -1, 1]"),
        ({"instances": X, "labels": [*Y, 1]}, "labels must be a vector of 4 entries"),
        ({"instances": X, "labels": [Y]}, "labels must be a vector of 4 entries, got [[1, -1, 1,"),
        ({"instances": X, "labels": [1, 0, 1, -1]}, "labels must be a vector of -1 and 1"),
        ({"instances": X, "labels": [1, 2, 1, -1]}, "labels must be a vector of -1 and 1"),
        ({"instances": X, "labels": [1, -1, 1.5, -1]}, "labels must be a vector of -1 and 1"),
        ({"instances": X, "labels": ["1", "-1", "1", "-1"]}, "labels must be a vector of -1 and"),
        ({"instances": X}, "labels must be given, got None (give either transcript or instances"),
        ({"labels": Y}, "instances must be given, got None"),
        ({}, "instances must be given, got None"),
        ({"instances": [[[1.0]]], "labels": [1]}, "instances must be a vector or a matrix"),
        ({"instances": [["a", "b"]], "labels": [1]}, "instances must be a vector or a matrix"),
    ],
)
def test_bad_arrays_are_a_clear_parameter_error(kwargs, message):
    with pytest.raises(ParameterError) as info:
        Replay(**kwargs)
    assert str(info.value).startswith(message), str(info.value)
    assert info.value.parameter == message.split(" ", 1)[0]


def test_ragged_instances_are_a_clear_parameter_error():
    with pytest.raises(ParameterError, match=r"^instances must") as info:
        Replay(instances=[[1.0, 0.0], [1.0]], labels=[1, 1])
    assert info.value.parameter == "instances"


def test_a_transcript_and_arrays_together_are_refused():
    tr = play(Perceptron(), Replay(instances=X, labels=Y), rounds=4)
    with pytest.raises(ValueError, match="either transcript or instances and labels, not both"):
        Replay(transcript=tr, instances=X, labels=Y)
    with pytest.raises(ValueError, match="not both"):
        Replay(transcript=tr, labels=Y)


def test_a_transcript_must_be_a_transcript():
    with pytest.raises(ParameterError, match="transcript must be a Transcript") as info:
        Replay(transcript="runs/demo.jsonl")
    assert info.value.parameter == "transcript"


@pytest.mark.parametrize("separator", [[0.0, 0.0], [1.0, "x"], [[1.0, 0.0]]])
def test_a_bad_separator_is_named(separator):
    with pytest.raises(ParameterError, match=r"^separator must be a ") as info:
        Replay(instances=X, labels=Y, separator=separator)
    assert info.value.parameter == "separator"
