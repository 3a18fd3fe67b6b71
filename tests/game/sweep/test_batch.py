"""play_batch: lockstep games equal serial games; the batch declines what it cannot copy."""

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import CertificateError, GameError, play, play_batch
from game.errors import ProtocolError
from game.players import LockstepLearner
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


def test_a_certificate_that_disagrees_gives_the_engines_error():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])

    def replay():
        return Replay(instances=X, labels=[1, 1], separator=[1.0, -1.0])  # wrong on round 2

    with pytest.raises(CertificateError) as serial:
        play(Perceptron(), replay(), rounds=5)
    with pytest.raises(CertificateError) as batch:
        play_batch([Perceptron(), Perceptron()], [replay(), replay()], rounds=5)
    assert str(batch.value) == str(serial.value)
    games = play_batch(
        [Perceptron(), Perceptron()], [replay(), replay()], rounds=5, errors="return"
    )
    assert [str(g) for g in games] == [str(serial.value)] * 2


def one_stream_in_two_games():
    st = stream(0)  # serial play would continue the stream in the second game
    return [Perceptron(), Perceptron()], [st, st]


def a_stream_already_started():
    st = stream(0)
    st.instance(None)
    return [Perceptron()], [st]


def a_learner_of_another_dimension():
    return [Perceptron(dimension=3)], [stream(0)]


@pytest.mark.parametrize(
    "case", [one_stream_in_two_games, a_stream_already_started, a_learner_of_another_dimension]
)
def test_the_batch_declines_what_it_cannot_reproduce(case):
    learners, adversaries = case()
    assert not lockstep_supported(learners, adversaries, 50)
    serial_learners, serial_adversaries = case()
    games = play_batch(learners, adversaries, rounds=50, errors="return")
    for g, learner, adversary in zip(games, serial_learners, serial_adversaries, strict=True):
        try:
            expected = play(learner, adversary, rounds=50)
        except GameError as exc:
            assert str(g) == str(exc)
        else:
            assert same(g, expected)


def test_lockstep_false_plays_with_the_engine():
    games = play_batch([Perceptron()], [stream(4)], rounds=100, lockstep=False)
    assert same(games[0], play(Perceptron(), stream(4), rounds=100))


def test_bad_arguments_are_game_errors():
    with pytest.raises(GameError, match="one adversary per learner"):
        play_batch([Perceptron()], [], rounds=3)
    with pytest.raises(GameError, match="rounds"):
        play_batch([Perceptron()], [stream(0)], rounds=-1)
    with pytest.raises(GameError, match="loss"):
        play_batch([Perceptron()], [stream(0)], rounds=3, loss="hinge")
    with pytest.raises(GameError, match="errors"):
        play_batch([Perceptron()], [stream(0)], rounds=3, errors="ignore")
    with pytest.raises(GameError, match="one dict per game"):
        play_batch([Perceptron()], [stream(0)], rounds=3, meta=[{}, {}])


def test_a_kernel_that_is_not_one_is_a_game_error():
    class Odd(Stubborn):
        lockstep = object()

    with pytest.raises(GameError, match=r"Odd\.lockstep must be a game\.players\.Source"):
        play_batch([Odd()], [stream(0)], rounds=3)


def test_meta_lands_in_each_header():
    games = play_batch(
        [Perceptron(), Perceptron()],
        [stream(0), stream(1)],
        rounds=10,
        meta=[{"seed": 0}, {"seed": 1}],
    )
    assert [g.header["seed"] for g in games] == [0, 1]
    assert games[0].header["learner"]["name"] == "perceptron"


def test_an_empty_batch():
    assert play_batch([], [], rounds=10) == []


def plays_plus(learners, Xs, y, lengths):
    """What Stubborn does, K games at once."""
    return np.ones(y.shape), np.zeros(y.shape, dtype=bool)


def anything(learner, d, dtype):
    return True


class Stubborn:
    """A learner that always predicts +1 and never updates."""

    deterministic = True

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


def test_a_kernel_that_drifts_from_its_player_is_caught_on_the_first_game():
    def wrong(learners, Xs, y, lengths):  # predicts -1: not what Stubborn does
        return np.full(y.shape, -1.0), np.zeros(y.shape, dtype=bool)

    class Drifting(Stubborn):
        lockstep = LockstepLearner(accepts=anything, run=wrong)

    with pytest.raises(GameError, match=r"disagree with game\.play"):
        play_batch([Drifting(), Drifting()], [stream(0), stream(1)], rounds=20)


def test_a_faithful_kernel_is_checked_once_per_process():
    from game.sweep import _lockstep as batch

    class Faithful(Stubborn):
        lockstep = LockstepLearner(accepts=anything, run=plays_plus)

    assert lockstep_supported([Faithful()], [stream(0)], 20)
    games = play_batch([Faithful(), Faithful()], [stream(0), stream(1)], rounds=20)
    assert [g.observed("mistakes") for g in games] == [
        play(Stubborn(), stream(s), rounds=20).observed("mistakes") for s in (0, 1)
    ]
    pair = (f"{Faithful.__module__}:{Faithful.__qualname__}", "adversaries.streams:SeparableStream")
    assert pair in batch._verified


def test_extras_keys_of_both_players_stop_each_lockstep_game_as_the_engine_does():
    from adversaries.noisy import NoisyStream

    def noisy(seed):
        return NoisyStream(4, margin=0.1, rate=0.2, rng=np.random.default_rng(seed))

    def run(learners, Xs, y, lengths):
        return np.ones(y.shape), np.zeros(y.shape, dtype=bool), {"corrupted": np.zeros(y.shape)}

    class Counting(Stubborn):
        lockstep = LockstepLearner(accepts=anything, run=run)

        def extras(self):
            return {"corrupted": 0.0}  # NoisyStream's own column

    assert lockstep_supported([Counting()], [noisy(0)], 5)
    games = play_batch([Counting(), Counting()], [noisy(0), noisy(1)], rounds=5, errors="return")
    with pytest.raises(ProtocolError) as serial:
        play(Counting(), noisy(1), rounds=5)
    assert [type(g) for g in games] == [ProtocolError, ProtocolError]
    assert str(games[1]) == str(serial.value)
    assert "round 1: extras() key(s) ['corrupted'] are also the learner's" in str(games[1])


def test_a_batch_whose_first_game_has_no_round():
    X = np.array([[0.5, -1.0]])
    replays = [Replay(instances=X[:0], labels=[]), Replay(instances=X, labels=[1])]
    games = play_batch([Perceptron(), Perceptron()], replays, rounds=3)
    assert [len(g) for g in games] == [0, 1]
    assert same(games[1], play(Perceptron(), Replay(instances=X, labels=[1]), rounds=3))
