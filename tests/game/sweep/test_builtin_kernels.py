"""Every built-in pair of a kernel-carrying learner and source plays in lockstep.

A kernel reads its player's state where the player keeps it; should a field
it relies on be renamed, or its declaration dropped, the pair falls back to
serial play (or fails) and this test says which pair.
"""

import itertools

import numpy as np
import pytest

from adversaries import AdviceReplay, ExpertStream, NoisyStream, Replay, SeparableStream
from game import play, play_batch
from game.players import BUILTIN, LockstepLearner, Source, kernel_for, lookup
from game.sweep import lockstep_supported
from learners import ExponentialWeights, Halving, Perceptron, WeightedMajority


def rng(seed):
    return np.random.default_rng(seed)


def replay(seed):
    X = rng(seed).standard_normal((40, 5))
    return Replay(instances=X, labels=np.where(X[:, 0] >= 0, 1, -1))


def advice(seed, graded):
    signs = np.where(rng(seed).random((30, 12)) < 0.5, -1, 1)
    return AdviceReplay(signs * 0.5 if graded else signs, signs[:, 0])


#: Fresh players of every built-in class with a kernel: learners, and sources by variant.
LEARNERS = {
    Perceptron: Perceptron,
    Halving: Halving,
    WeightedMajority: lambda: WeightedMajority(beta=0.3),
    ExponentialWeights: lambda: ExponentialWeights(eta=0.7),
}
SOURCES = {
    SeparableStream: {"": lambda s: SeparableStream(5, 0.1, rng=rng(s))},
    NoisyStream: {"": lambda s: NoisyStream(5, 0.1, rate=0.2, rng=rng(s))},
    Replay: {"vectors": replay},
    ExpertStream: {
        "int8 advice": lambda s: ExpertStream(12, 1, rng(s), horizon=60),
        "graded advice": lambda s: ExpertStream(12, 1, rng(s), horizon=60, graded=True),
    },
    AdviceReplay: {
        "integer advice": lambda s: advice(s, graded=False),
        "graded advice": lambda s: advice(s, graded=True),
    },
}
#: Pairs played serially by design, with the reason.
FLOAT64_ONLY = "the kernel repeats the Perceptron's float64 arithmetic only"
DECLINED = {
    (Perceptron, "int8 advice"): FLOAT64_ONLY,
    (Perceptron, "integer advice"): FLOAT64_ONLY,
}


def builtin_kernels():
    classes = [lookup(name) for name in BUILTIN]
    return [cls for cls in classes if kernel_for(cls) is not None]


def test_every_builtin_class_with_a_kernel_is_tried_here():
    carrying = builtin_kernels()
    assert {c for c in carrying if isinstance(kernel_for(c), LockstepLearner)} == set(LEARNERS)
    assert {c for c in carrying if isinstance(kernel_for(c), Source)} == set(SOURCES)


#: Every learner with every source variant of a kind it plays.
PAIRS = [
    pytest.param(learner, source, variant, id=f"{learner.__name__}-{source.__name__}-{variant}")
    for learner, source in itertools.product(LEARNERS, SOURCES)
    for variant, make in SOURCES[source].items()
    if make(0).presents in learner.plays
]


def test_every_learner_meets_a_source():
    assert {p.values[0] for p in PAIRS} == set(LEARNERS)
    assert {p.values[1] for p in PAIRS} == set(SOURCES)


@pytest.mark.parametrize(("learner_cls", "source_cls", "variant"), PAIRS)
def test_fresh_builtin_players_play_in_lockstep(learner_cls, source_cls, variant):
    make_learner, make_source = LEARNERS[learner_cls], SOURCES[source_cls][variant]
    learners, sources = [make_learner() for _ in range(3)], [make_source(s) for s in range(3)]
    supported = lockstep_supported(learners, sources, 50)
    assert supported == ((learner_cls, variant) not in DECLINED)
    batch = play_batch(learners, sources, rounds=50)
    for s, game in enumerate(batch):
        assert game.digest == play(make_learner(), make_source(s), rounds=50).digest
