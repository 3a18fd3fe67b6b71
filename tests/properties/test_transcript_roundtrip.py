"""Property: every game saved and loaded back is the same game (same digest, same summary).

Random games: dimension, margin, rounds, the Perceptron's conventions, the loss, snapshots
on or off; a learner with fractional predictions and extras; int point instances and bit
vectors replayed from arrays. Example to paste::

    import numpy as np
    from game import play, Transcript
    from learners import Perceptron
    from adversaries import SeparableStream
    tr = play(Perceptron(update="mistake"), SeparableStream(3, 0.05, rng=np.random.default_rng(1)),
              rounds=40, loss="squared", snapshots=True, out="runs/x.jsonl")
    assert Transcript.load("runs/x.jsonl") == tr
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from game import Transcript, play
from learners import Perceptron

LOSSES = st.sampled_from(["zero-one", "absolute", "squared"])


@attrs.define(eq=False)
class Soft:
    """Predicts tanh(w·x) (a fraction), logs |p| as an extra; plays vectors and points."""

    scale: float = 1.0
    w: dict = attrs.field(factory=dict)
    p: float = 0.0

    def _score(self, x) -> float:
        if isinstance(x, int):
            return self.w.get(x, 0.0)
        v = self.w.setdefault("v", np.zeros(np.shape(x)[0]))
        return float(v @ np.asarray(x, dtype=float))

    def predict(self, x) -> float:
        self.p = math.tanh(self.scale * self._score(x))
        return self.p

    def update(self, x, y) -> bool:
        if y * self.p >= 0.5:
            return False
        if isinstance(x, int):
            self.w[x] = self.w.get(x, 0.0) + y
        else:
            self.w["v"] = self.w["v"] + y * np.asarray(x, dtype=float)
        return True

    def extras(self) -> dict:
        return {"confidence": abs(self.p)}

    def snapshot(self) -> dict:
        return {"n": float(len(self.w))}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One folder for the whole module (hypothesis runs many examples per test call)."""
    return tmp_path_factory.mktemp("round-trip")


def round_trip(tr: Transcript, folder: Path, path: Path | None = None) -> Transcript:
    """Save (unless the game already streamed to ``path``) and load back; check equality."""
    if path is None:
        path = tr.save(folder / "saved.jsonl")
    back = Transcript.load(path)
    assert back == tr
    assert back.digest == tr.digest
    assert back.first_difference(tr) is None
    assert back.summary() == tr.summary()
    assert back.header == json.loads(json.dumps(tr.header))
    assert len(back) == len(tr)
    np.testing.assert_array_equal(back.predictions, tr.predictions)
    np.testing.assert_array_equal(back.labels, tr.labels)
    np.testing.assert_array_equal(back.updated, tr.updated)
    np.testing.assert_array_equal(back.mistakes, tr.mistakes)
    np.testing.assert_array_equal(back.losses, tr.losses)
    assert sorted(back.extras) == sorted(tr.extras)
    for key, column in tr.extras.items():
        np.testing.assert_array_equal(back.extras[key], column)
    if tr.snapshots and len(tr):
        for key in tr.snapshots:
            np.testing.assert_array_equal(
                np.asarray(back.snapshots[key], dtype=float), np.asarray(tr.snapshots[key])
            )
    for a, b in zip(back, tr, strict=True):
        assert a == b
    return back


perceptrons = st.builds(
    Perceptron,
    zero_label=st.sampled_from([1, -1]),
    update=st.sampled_from(["nonpositive", "mistake"]),
    normalize=st.booleans(),
)


@given(
    learner=perceptrons,
    dimension=st.integers(1, 8),
    margin=st.floats(0.01, 1.0),
    radius=st.floats(1.0, 5.0),
    rounds=st.integers(0, 100),
    loss=LOSSES,
    snapshots=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    stream_to_file=st.booleans(),
)
def test_perceptron_games_round_trip(
    folder, learner, dimension, margin, radius, rounds, loss, snapshots, seed, stream_to_file
):
    stream = SeparableStream(dimension, margin, radius, rng=np.random.default_rng(seed))
    out = folder / "streamed.jsonl" if stream_to_file else None
    tr = play(learner, stream, rounds=rounds, loss=loss, snapshots=snapshots, out=out)
    round_trip(tr, folder, out)
    if rounds:
        assert tr.certificate_verified is True and tr.within_bound is True


@given(
    dimension=st.integers(1, 5),
    rounds=st.integers(0, 50),
    loss=LOSSES,
    snapshots=st.booleans(),
    scale=st.floats(0.01, 10.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_fractional_predictions_and_extras_round_trip(
    folder, dimension, rounds, loss, snapshots, scale, seed
):
    stream = SeparableStream(dimension, 0.1, rng=np.random.default_rng(seed))
    tr = play(Soft(scale), stream, rounds=rounds, loss=loss, snapshots=snapshots)
    back = round_trip(tr, folder)
    if rounds:
        assert back.observed("confidence") == tr.observed("confidence")


@given(
    points=st.lists(st.integers(0, 2**40), max_size=60),
    data=st.data(),
    loss=LOSSES,
    snapshots=st.booleans(),
)
def test_int_point_games_round_trip(folder, points, data, loss, snapshots):
    labels = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=len(points),
                                max_size=len(points)))  # fmt: skip
    replay = Replay(instances=np.array(points, dtype=np.int64), labels=np.array(labels))
    tr = play(Soft(), replay, rounds=len(points) + 5, loss=loss, snapshots=snapshots)
    assert all(type(x) is int for x in tr.raw_instances)
    back = round_trip(tr, folder)
    assert all(isinstance(x, int) for x in back.raw_instances)


@given(
    bits=st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.lists(st.booleans(), min_size=n, max_size=n), max_size=60)
        )
    ),
    data=st.data(),
    learner=perceptrons,
    loss=LOSSES,
)
def test_bit_vector_games_round_trip(folder, bits, data, learner, loss):
    n, bits = bits
    labels = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=len(bits),
                                max_size=len(bits)))  # fmt: skip
    X = np.array(bits, dtype=bool).reshape(len(bits), n)
    tr = play(learner, Replay(instances=X, labels=np.array(labels)), rounds=100, loss=loss)
    back = round_trip(tr, folder)
    if len(back):
        assert back.instances.dtype == bool
        np.testing.assert_array_equal(back.instances, X)


@given(rounds=st.integers(1, 40), seed=st.integers(0, 1000), loss=LOSSES)
def test_replaying_a_loaded_transcript_gives_the_same_game(folder, rounds, seed, loss):
    stream = SeparableStream(3, 0.1, rng=np.random.default_rng(seed))
    tr = play(Perceptron(), stream, rounds=rounds, loss=loss)
    back = Transcript.load(tr.save(folder / "replayed.jsonl"))
    again = play(Perceptron(), Replay(transcript=back), rounds=rounds + 3, loss=loss)
    assert again.rounds_digest == tr.rounds_digest and again.certificate == tr.certificate
