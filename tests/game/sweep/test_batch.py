"""play_batch: lockstep games equal serial games; the batch declines what it cannot copy."""

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import CertificateError, GameError, play, play_batch
from game.errors import ProtocolError
from game.sweep._lockstep import (
    LockstepLearner,
    kernel_for,
    lockstep_supported,
    register_kernel,
    rounds_of,
)
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


@pytest.mark.parametrize(
    "convention",
    [
        {},
        {"zero_label": -1, "update": "mistake", "normalize": True},
        {"update": "mistake"},
        {"normalize": True},
    ],
)
def test_lockstep_games_equal_serial_games(convention):
    seeds = range(5)
    batch = play_batch(
        [Perceptron(**convention) for _ in seeds], [stream(s) for s in seeds], rounds=600
    )
    serial = [play(Perceptron(**convention), stream(s), rounds=600) for s in seeds]
    assert all(same(b, s) for b, s in zip(batch, serial, strict=True))
    assert batch[0] == serial[0]  # Transcript equality: digest, status, certificate, bounds


def test_learners_end_with_the_weights_their_serial_game_leaves():
    learners = [Perceptron() for _ in range(3)]
    play_batch(learners, [stream(s) for s in range(3)], rounds=300)
    for s, learner in enumerate(learners):
        alone = Perceptron()
        play(alone, stream(s), rounds=300)
        assert np.array_equal(learner.weights, alone.weights)


def test_the_streams_generators_end_where_their_serial_games_leave_them():
    streams = [stream(s) for s in range(2)]
    play_batch([Perceptron(), Perceptron()], streams, rounds=300)
    for s, st in enumerate(streams):
        alone = stream(s)
        play(Perceptron(), alone, rounds=300)
        assert st.rng.random() == alone.rng.random()


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
    learners = [Perceptron(), Perceptron(zero_label=-1), Perceptron(update="mistake")]
    batch = play_batch(learners, replays, rounds=2)
    for b, params in zip(batch, [{}, {"zero_label": -1}, {"update": "mistake"}], strict=True):
        assert same(b, play(Perceptron(**params), Replay(instances=X, labels=[1, 1, -1]), rounds=2))


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


def test_a_declined_batch_still_equals_serial_play():
    # instances the engine sees as strided rows (a Fortran-ordered array): declined, played serially
    X = np.asfortranarray(np.random.default_rng(1).standard_normal((30, 5)))
    labels = np.where(X[:, 0] >= 0, 1, -1)
    replays = [Replay(instances=X, labels=labels) for _ in range(2)]
    assert not lockstep_supported([Perceptron(), Perceptron()], replays, 30)
    games = play_batch([Perceptron(), Perceptron()], replays, rounds=30)
    assert same(games[0], play(Perceptron(), Replay(instances=X, labels=labels), rounds=30))


def test_bit_vectors_are_played_serially():
    bits = np.array([[True, False], [False, True]])
    replays = [Replay(instances=bits, labels=[1, -1]) for _ in range(2)]
    assert not lockstep_supported([Perceptron(), Perceptron()], replays, 5)
    assert [len(t) for t in play_batch([Perceptron(), Perceptron()], replays, rounds=5)] == [2, 2]


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
    with pytest.raises(GameError, match="Source or a LockstepLearner"):
        register_kernel(Perceptron, object())


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


def test_rounds_of_pads_short_games_with_zero_rows():
    Xs = [np.arange(6.0).reshape(3, 2), np.ones((1, 2))]
    rows = [x.copy() for _, x in rounds_of(Xs, 2, window=2)]
    assert [r.tolist() for r in rows] == [
        [[0.0, 1.0], [1.0, 1.0]],
        [[2.0, 3.0], [0.0, 0.0]],
        [[4.0, 5.0], [0.0, 0.0]],
    ]


def test_kernels_are_found_by_class():
    assert isinstance(kernel_for(Perceptron), LockstepLearner)
    assert kernel_for(int) is None


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

    register_kernel(Stubborn, LockstepLearner(accepts=lambda p, d, dtype: True, run=wrong))
    with pytest.raises(GameError, match=r"disagree with game\.play"):
        play_batch([Stubborn(), Stubborn()], [stream(0), stream(1)], rounds=20)


def test_a_faithful_kernel_is_checked_once_per_process():
    from game.sweep import _lockstep as batch

    def right(learners, Xs, y, lengths):
        return np.ones(y.shape), np.zeros(y.shape, dtype=bool)

    class Faithful(Stubborn):
        pass

    register_kernel(Faithful, LockstepLearner(accepts=lambda p, d, dtype: True, run=right))
    games = play_batch([Faithful(), Faithful()], [stream(0), stream(1)], rounds=20)
    assert [g.observed("mistakes") for g in games] == [
        play(Stubborn(), stream(s), rounds=20).observed("mistakes") for s in (0, 1)
    ]
    pair = (f"{Faithful.__module__}:{Faithful.__qualname__}", "adversaries.streams:SeparableStream")
    assert pair in batch._verified


def test_extras_keys_of_both_players_stop_each_lockstep_game_as_the_engine_does():
    from adversaries.noisy import NoisyStream

    class Counting(Stubborn):
        def extras(self):
            return {"corrupted": 0.0}  # NoisyStream's own column

    def run(learners, Xs, y, lengths):
        return np.ones(y.shape), np.zeros(y.shape, dtype=bool), {"corrupted": np.zeros(y.shape)}

    register_kernel(Counting, LockstepLearner(accepts=lambda p, d, dtype: True, run=run))

    def noisy(seed):
        return NoisyStream(4, margin=0.1, rate=0.2, rng=np.random.default_rng(seed))

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


def expert_stream(seed, experts=16, graded=False, horizon=300):
    from adversaries.experts import ExpertStream

    return ExpertStream(experts, 2, np.random.default_rng(seed), horizon=horizon, graded=graded)


def weighted(name, **params):
    from learners import experts

    return getattr(experts, name)(**params)


@pytest.mark.parametrize(
    ("name", "params", "graded", "loss"),
    [
        ("ExponentialWeights", {}, False, "absolute"),
        ("ExponentialWeights", {"eta": 4.0}, True, "absolute"),  # rebuilt every round
        ("ExponentialWeights", {"eta": 0.02, "loss": "squared"}, False, "squared"),  # folds
        ("ExponentialWeights", {"loss": "zero-one"}, True, "zero-one"),
        ("ExponentialWeights", {"loss_bound": 3.0}, True, "squared"),
        ("WeightedMajority", {}, False, "zero-one"),
        ("WeightedMajority", {"beta": 0.01}, True, "zero-one"),  # rebuilt every 43 updates
    ],
)
def test_weighted_learners_in_lockstep_equal_serial_games(name, params, graded, loss):
    learners = [weighted(name, **params) for _ in range(4)]
    streams = [expert_stream(s, graded=graded, horizon=200 + 100 * s) for s in range(4)]
    assert lockstep_supported(learners, streams, 500)
    batch = play_batch(learners, streams, rounds=500, loss=loss)
    for s, (game, learner) in enumerate(zip(batch, learners, strict=True)):
        alone = weighted(name, **params)
        serial = play(
            alone, expert_stream(s, graded=graded, horizon=200 + 100 * s), rounds=500, loss=loss
        )
        assert same(game, serial) and game.observed("loss") == serial.observed("loss")
        assert np.array_equal(learner.weights, alone.weights)
        assert np.array_equal(learner._weights.losses(), alone._weights.losses())


def test_weighted_learners_replaying_advice_equal_serial_games():
    from adversaries.experts import AdviceReplay

    advice = np.array([[1, 0, -1], [1, 1, -1], [0, 0, 0], [-1, 1, 1]])  # zeros: graded updates
    outcomes = [1, -1, 1, 1]
    for name in ("ExponentialWeights", "WeightedMajority"):
        batch = play_batch(
            [weighted(name) for _ in range(2)],
            [AdviceReplay(advice, outcomes), AdviceReplay(advice[:2], outcomes[:2])],
            rounds=10,
        )
        assert same(batch[0], play(weighted(name), AdviceReplay(advice, outcomes), rounds=10))
        assert same(
            batch[1], play(weighted(name), AdviceReplay(advice[:2], outcomes[:2]), rounds=10)
        )


def too_many_experts():  # above 1024 experts the learner's blocked arithmetic is not copied
    return [weighted("ExponentialWeights")], [expert_stream(0, experts=1025, horizon=5)]


def weights_already_moved():
    learner = weighted("WeightedMajority", experts=16)
    learner.update(np.ones(16, dtype=np.int8), -1)
    return [learner], [expert_stream(0)]


def another_number_of_experts():
    return [weighted("ExponentialWeights", experts=8)], [expert_stream(0)]


def a_tuned_rate_with_one_expert():  # the tuned η needs N ≥ 2
    return [weighted("ExponentialWeights", loss_bound=2.0)], [expert_stream(0, experts=1)]


@pytest.mark.parametrize(
    "case",
    [
        too_many_experts,
        weights_already_moved,
        another_number_of_experts,
        a_tuned_rate_with_one_expert,
    ],
)
def test_weighted_learners_decline_what_they_cannot_reproduce(case):
    learners, adversaries = case()
    assert not lockstep_supported(learners, adversaries, 50)
    serial_learners, serial_adversaries = case()
    games = play_batch(learners, adversaries, rounds=50, errors="return")
    for g, learner, adversary in zip(games, serial_learners, serial_adversaries, strict=True):
        try:
            expected = play(learner, adversary, rounds=50)
        except (GameError, ValueError) as exc:
            assert str(g) == str(exc)
        else:
            assert same(g, expected)


def test_weighted_learners_with_their_number_of_experts_given_play_in_lockstep():
    learners = [weighted("ExponentialWeights", experts=16) for _ in range(2)]
    streams = [expert_stream(s) for s in range(2)]
    assert lockstep_supported(learners, streams, 100)
    batch = play_batch(learners, streams, rounds=100)
    serial = play(weighted("ExponentialWeights", experts=16), expert_stream(1), rounds=100)
    assert same(batch[1], serial)
