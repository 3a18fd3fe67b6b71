"""Lockstep equals serial, game by game: play_batch against game.play on random batches.

Each game of a batch has its own Perceptron convention and its own stream or
sequence; the lockstep transcript must have the serial one's digest (so the
same instances, predictions, labels and updates), summary, certificate,
bound, and leave the learner with the same weights.
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from adversaries.noisy import NoisyStream
from game import GameError, play, play_batch
from game.sweep import lockstep_supported
from learners import Perceptron

conventions = st.fixed_dictionaries(
    {
        "zero_label": st.sampled_from([1, -1]),
        "update": st.sampled_from(["nonpositive", "mistake"]),
        "normalize": st.booleans(),
    }
)


def outcome(game):
    """What must agree: the summary (wall time aside) or the error's message."""
    if isinstance(game, GameError):
        return ("error", str(game))
    summary = game.summary()
    summary.pop("wall_time")
    return summary


def state(learner):
    """What the learner ends with: the Perceptron's weights, Halving's consistent experts,
    the weighted learners' normalised weights and cumulative losses."""
    if isinstance(learner, Perceptron):
        return learner.weights
    if hasattr(learner, "consistent"):
        return learner.consistent
    weights = learner._weights
    if weights is None:
        return np.zeros(0)
    return np.concatenate([learner.weights, weights.losses(), [weights.least]])


def check(make_learners, make_adversaries, rounds):
    learners, adversaries = make_learners(), make_adversaries()
    assert lockstep_supported(learners, adversaries, rounds)
    batch = play_batch(learners, adversaries, rounds=rounds, errors="return")
    for k, (learner, adversary) in enumerate(zip(make_learners(), make_adversaries(), strict=True)):
        try:
            serial = play(learner, adversary, rounds=rounds)
        except GameError as exc:
            serial = exc
        assert outcome(batch[k]) == outcome(serial), f"game {k}"
        assert np.array_equal(state(learners[k]), state(learner)), f"game {k}"


@given(
    d=st.integers(1, 20),
    margin=st.floats(0.01, 1.0),
    spread=st.floats(1.0, 4.0),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4, unique=True),
    rounds=st.integers(0, 300),
    data=st.data(),
)
def test_perceptrons_against_separable_streams(d, margin, spread, seeds, rounds, data):
    params = [data.draw(conventions) for _ in seeds]

    def learners():
        return [Perceptron(**p) for p in params]

    def streams():
        return [
            SeparableStream(d, margin, margin * spread, np.random.default_rng(s)) for s in seeds
        ]

    check(learners, streams, rounds)


@given(
    d=st.integers(1, 12),
    rate=st.floats(0.0, 1.0),
    noise=st.sampled_from(["flip", "margin"]),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4, unique=True),
    rounds=st.integers(0, 300),
    data=st.data(),
)
def test_perceptrons_against_noisy_streams(d, rate, noise, seeds, rounds, data):
    params = [data.draw(conventions) for _ in seeds]

    def learners():
        return [Perceptron(**p) for p in params]

    def streams():
        return [
            NoisyStream(d, 0.1, rate=rate, noise=noise, rng=np.random.default_rng(s)) for s in seeds
        ]

    check(learners, streams, rounds)


# values whose sums cancel: scores of exactly zero, and near-zero scores whose
# sign depends on the order of the additions
grid_values = st.sampled_from([-1.0, -0.5, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.5, 1.0, 1e-300])


@given(
    d=st.integers(1, 6),
    lengths=st.lists(st.integers(0, 40), min_size=1, max_size=5),
    rounds=st.integers(0, 50),
    with_separator=st.booleans(),
    data=st.data(),
)
def test_perceptrons_replaying_cancelling_sequences(d, lengths, rounds, with_separator, data):
    games = []
    for n in lengths:
        X = np.array(
            data.draw(
                st.lists(st.lists(grid_values, min_size=d, max_size=d), min_size=n, max_size=n)
            )
        ).reshape(n, d)
        y = data.draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
        separator = (
            data.draw(st.lists(grid_values, min_size=d, max_size=d)) if with_separator else None
        )
        if separator is not None and not any(separator):
            separator = None
        games.append((X, y, separator, data.draw(conventions)))

    def learners():
        return [Perceptron(**p) for *_, p in games]

    def replays():
        return [Replay(instances=X, labels=y, separator=u) for X, y, u, _ in games]

    check(learners, replays, rounds)


@given(
    experts=st.integers(1, 40),
    best_mistakes=st.integers(0, 3),
    graded=st.booleans(),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4, unique=True),
    horizons=st.data(),
    rounds=st.integers(0, 120),
)
def test_halving_against_expert_streams(experts, best_mistakes, graded, seeds, horizons, rounds):
    from adversaries.experts import ExpertStream
    from learners.experts import Halving

    low = best_mistakes + 1 if experts >= 2 else best_mistakes
    lengths = [horizons.draw(st.integers(low, 100)) for _ in seeds]

    def streams():
        return [
            ExpertStream(experts, best_mistakes, np.random.default_rng(s), horizon=h, graded=graded)
            for s, h in zip(seeds, lengths, strict=True)
        ]

    check(lambda: [Halving() for _ in seeds], streams, rounds)
    if graded:  # float advice: the Perceptron plays it too
        check(lambda: [Perceptron() for _ in seeds], streams, rounds)


@given(
    advice=st.lists(
        st.lists(st.sampled_from([-1, 0, 1]), min_size=5, max_size=5), min_size=0, max_size=30
    ),
    data=st.data(),
)
def test_halving_replaying_advice_with_zeros(advice, data):
    from adversaries.experts import AdviceReplay
    from learners.experts import Halving

    outcomes = data.draw(
        st.lists(st.sampled_from([1, -1]), min_size=len(advice), max_size=len(advice))
    )
    matrix = np.array(advice, dtype=np.int64).reshape(len(advice), 5)
    if not len(advice):
        matrix = matrix.reshape(0, 5)

    def replays():
        return [
            AdviceReplay(matrix, outcomes),
            AdviceReplay(matrix[: len(advice) // 2], outcomes[: len(advice) // 2]),
        ]

    if len(advice):
        check(lambda: [Halving(), Halving()], replays, 40)


def weighted_learners(data, n, count):
    """Makers of Weighted Majority or of Exponential Weights (one class a batch), each drawn."""
    from learners.experts import ExponentialWeights, WeightedMajority

    if data.draw(st.booleans()):
        betas = [data.draw(st.floats(0.01, 0.99)) for _ in range(count)]
        return [lambda b=b: WeightedMajority(beta=b) for b in betas]
    makers = []
    for _ in range(count):
        loss = data.draw(st.sampled_from(["absolute", "squared", "zero-one"]))
        if n >= 2 and data.draw(st.booleans()):  # η tuned by Corollary 16.4
            bound = data.draw(st.floats(0.5, 50.0))
            makers.append(
                lambda loss=loss, bound=bound: ExponentialWeights(loss=loss, loss_bound=bound)
            )
        else:
            eta = data.draw(st.floats(0.01, 40.0))
            makers.append(lambda loss=loss, eta=eta: ExponentialWeights(eta=eta, loss=loss))
    return makers


@given(
    experts=st.integers(1, 70),
    best_mistakes=st.integers(0, 3),
    graded=st.booleans(),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4, unique=True),
    horizons=st.data(),
    rounds=st.integers(0, 400),
    loss=st.sampled_from(["absolute", "squared", "zero-one"]),
    data=st.data(),
)
def test_weighted_learners_against_expert_streams(
    experts, best_mistakes, graded, seeds, horizons, rounds, loss, data
):
    """Long games (the least count rising, tables growing) with large and small η, ±1 or graded."""
    from adversaries.experts import ExpertStream

    low = best_mistakes + 1 if experts >= 2 else best_mistakes
    lengths = [horizons.draw(st.integers(low, 400)) for _ in seeds]
    makers = weighted_learners(data, experts, len(seeds))

    def streams():
        return [
            ExpertStream(experts, best_mistakes, np.random.default_rng(s), horizon=h, graded=graded)
            for s, h in zip(seeds, lengths, strict=True)
        ]

    learners = [make() for make in makers]
    # without a round N is unknown (taken as 1) and a tuned η, which needs N ≥ 2, declines
    assert lockstep_supported(learners, streams(), rounds) or rounds == 0
    batch = play_batch(learners, streams(), rounds=rounds, loss=loss, errors="return")
    for k, (make, adversary) in enumerate(zip(makers, streams(), strict=True)):
        alone = make()
        try:
            serial = play(alone, adversary, rounds=rounds, loss=loss)
        except GameError as exc:
            serial = exc
        assert outcome(batch[k]) == outcome(serial), f"game {k}"
        assert np.array_equal(state(learners[k]), state(alone)), f"game {k}"


@given(
    advice=st.lists(
        st.lists(st.sampled_from([-1, 0, 1]), min_size=4, max_size=4), min_size=0, max_size=40
    ),
    graded=st.booleans(),
    data=st.data(),
)
def test_weighted_learners_replaying_advice_with_zeros(advice, graded, data):
    """Integer advice with zeros mixes zero-one and graded updates within one game."""
    from adversaries.experts import AdviceReplay

    outcomes = data.draw(
        st.lists(st.sampled_from([1, -1]), min_size=len(advice), max_size=len(advice))
    )
    matrix = np.array(advice, dtype=np.float64 if graded else np.int64).reshape(len(advice), 4)
    if graded:
        matrix *= data.draw(st.sampled_from([0.25, 0.5, 1.0]))
    makers = weighted_learners(data, 4, 3)

    def replays():
        half = len(advice) // 2
        return [
            AdviceReplay(matrix, outcomes),
            AdviceReplay(matrix[:half], outcomes[:half]),
            AdviceReplay(matrix[half:], outcomes[half:]),
        ]

    if len(advice):
        check(lambda: [make() for make in makers], replays, 40)
