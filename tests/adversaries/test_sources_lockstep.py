"""The oblivious adversaries' lockstep sources: each game drawn ahead is the game played."""

import numpy as np
import pytest

from adversaries import AdviceReplay, ExpertStream, NoisyStream, Replay, SeparableStream
from game import play, play_batch
from game.players import kernel_for
from game.sweep import lockstep_supported
from learners import Perceptron


def stream(seed, d=6, margin=0.1):
    return SeparableStream(d, margin, rng=np.random.default_rng(seed))


def same(a, b):
    return (
        a.digest == b.digest
        and a.bound == b.bound
        and a.certificate == b.certificate
        and a.certificate_verified == b.certificate_verified
        and a.summary()["within_bound"] == b.summary()["within_bound"]
    )


def test_the_streams_generators_end_where_their_serial_games_leave_them():
    streams = [stream(s) for s in range(2)]
    play_batch([Perceptron(), Perceptron()], streams, rounds=300)
    for s, st in enumerate(streams):
        alone = stream(s)
        play(Perceptron(), alone, rounds=300)
        assert st.rng.random() == alone.rng.random()


@pytest.mark.parametrize(
    "make",
    [
        lambda: stream(0),
        lambda: NoisyStream(5, 0.1, rate=0.3, rng=np.random.default_rng(0)),
        lambda: ExpertStream(9, 1, np.random.default_rng(0), horizon=20),
        lambda: AdviceReplay([[1, -1], [-1, 1], [1, 1]], [1, 1, -1]),
        lambda: Replay(instances=np.eye(3), labels=[1, -1, 1]),
    ],
)
def test_a_source_draws_the_instances_and_labels_the_game_presents(make):
    source, adversary = kernel_for(type(make())), make()
    n, d, dtype = source.plan(adversary, 300)
    X, y, *extras = source.examples(adversary, n)
    game = make()
    for t in range(n):
        x = game.instance(None)
        assert x.dtype == dtype and x.shape == (d,)
        assert np.array_equal(x, X[t]) and game.label(x, 1.0, None) == y[t]
        for column in extras:
            assert game.extras() == {name: values[t] for name, values in column.items()}
    assert n == 300 or game.instance(None) is None  # the replays end with their rows


def a_stream_already_started():
    st = stream(0)
    st.instance(None)
    return st


def advice_already_started():
    st = ExpertStream(4, 0, np.random.default_rng(0), horizon=10)
    st.instance(None)
    return st


@pytest.mark.parametrize("make", [a_stream_already_started, advice_already_started])
def test_a_game_under_way_is_not_drawn_ahead(make):
    adversary = make()
    assert kernel_for(type(adversary)).plan(adversary, 10) is None


def test_games_of_different_lengths_in_one_batch():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 4))
    labels = np.where(X @ np.array([1.0, -2.0, 0.5, 0.0]) >= 0, 1, -1)
    replays = [Replay(instances=X[:n], labels=labels[:n]) for n in (40, 7, 0, 23)]
    again = [Replay(instances=X[:n], labels=labels[:n]) for n in (40, 7, 0, 23)]
    assert lockstep_supported([Perceptron() for _ in replays], replays, 100)
    batch = play_batch([Perceptron() for _ in replays], replays, rounds=100)
    for b, r in zip(batch, again, strict=True):
        assert same(b, play(Perceptron(), r, rounds=100))
    assert [len(b) for b in batch] == [40, 7, 0, 23]


def test_replays_of_one_sequence_share_it_and_still_equal_serial_games():
    X = np.array([[1.0, 0.5], [-0.2, 1.0], [0.3, -0.7]])
    replays = [Replay(instances=X, labels=[1, 1, -1]) for _ in range(3)]
    source = kernel_for(Replay)
    assert len({source.key(r, 2) for r in replays}) == 1
    learners = [Perceptron(), Perceptron(zero_label=-1), Perceptron(update="mistake")]
    batch = play_batch(learners, replays, rounds=2)
    for b, params in zip(batch, [{}, {"zero_label": -1}, {"update": "mistake"}], strict=True):
        assert same(b, play(Perceptron(**params), Replay(instances=X, labels=[1, 1, -1]), rounds=2))


def test_a_fortran_ordered_replay_plays_in_lockstep_as_serial_play():
    # the replay keeps its rows in immutable C-ordered memory, so strided input plays in lockstep
    X = np.asfortranarray(np.random.default_rng(1).standard_normal((30, 5)))
    labels = np.where(X[:, 0] >= 0, 1, -1)
    replays = [Replay(instances=X, labels=labels) for _ in range(2)]
    assert lockstep_supported([Perceptron(), Perceptron()], replays, 30)
    games = play_batch([Perceptron(), Perceptron()], replays, rounds=30)
    assert same(games[0], play(Perceptron(), Replay(instances=X, labels=labels), rounds=30))


def test_bit_vectors_are_played_serially():
    bits = np.array([[True, False], [False, True]])
    replays = [Replay(instances=bits, labels=[1, -1]) for _ in range(2)]
    assert not lockstep_supported([Perceptron(), Perceptron()], replays, 5)
    assert [len(t) for t in play_batch([Perceptron(), Perceptron()], replays, rounds=5)] == [2, 2]
