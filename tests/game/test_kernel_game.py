"""A single game through its players' kernels (K = 1): the transcript the round loop gives.

``play`` sends a game there only when both classes declare kernels, the
learner's runs compiled, and nothing asks for the loop (a file, snapshots,
progress, a trace, rounds on disk, ``lockstep=False``). These tests use a
learner whose kernel says it is compiled, so they run with or without numba;
the compiled kernels of the built-in players are checked game by game in
``tests/properties``.
"""

from __future__ import annotations

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import ParameterError, play
from game.players import LockstepLearner


def _accepts(learner, d, dtype):
    return True


def _run(learners, Xs, y, lengths):
    for learner in learners:
        learner.kernel_calls += 1
    return np.ones(y.shape), np.zeros(y.shape, dtype=bool)


class AlwaysPlus:
    """Predicts +1, never updates; its kernel says it is compiled."""

    deterministic = True
    lockstep = LockstepLearner(accepts=_accepts, run=_run, compiled=lambda values: True)

    def __init__(self):
        self.kernel_calls = 0

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


class NotCompiled(AlwaysPlus):
    lockstep = LockstepLearner(accepts=_accepts, run=_run, compiled=lambda values: False)


def stream(seed: int = 0) -> SeparableStream:
    return SeparableStream(4, 0.1, rng=np.random.default_rng(seed))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_kernel_game_is_the_loops_game(seed):
    learner = AlwaysPlus()
    fast = play(learner, stream(seed), rounds=300)
    slow = play(AlwaysPlus(), stream(seed), rounds=300, lockstep=False)
    assert learner.kernel_calls == 1
    assert fast.digest == slow.digest
    assert fast.summary()["mistakes"] == slow.summary()["mistakes"] > 0
    assert fast.bound == slow.bound and fast.certificate_verified is True
    np.testing.assert_array_equal(fast.instances, slow.instances)


def test_a_replay_plays_through_the_kernels_to_its_end():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    game = Replay(instances=X, labels=[1, -1, -1], separator=[1.0, -1.0])
    learner = AlwaysPlus()
    fast = play(learner, game, rounds=10)
    slow = play(AlwaysPlus(), Replay(instances=X, labels=[1, -1, -1], separator=[1.0, -1.0]),
                rounds=10, lockstep=False)  # fmt: skip
    assert learner.kernel_calls == 1 and len(fast) == 3 and fast.digest == slow.digest


@pytest.mark.parametrize(
    "options",
    [
        {"lockstep": False},
        {"snapshots": False, "trace": lambda r, m: None},
        {"progress": lambda done, total: None},
        {"keep": "disk"},
    ],
)
def test_what_asks_for_the_loop_gets_the_loop(options):
    learner = AlwaysPlus()
    play(learner, stream(), rounds=50, **options)
    assert learner.kernel_calls == 0


def test_a_file_gets_the_loop(tmp_path):
    learner = AlwaysPlus()
    play(learner, stream(), rounds=50, out=tmp_path / "g.jsonl")
    assert learner.kernel_calls == 0 and (tmp_path / "g.jsonl").exists()


def test_a_kernel_that_does_not_run_compiled_leaves_the_game_to_the_loop():
    learner = NotCompiled()
    play(learner, stream(), rounds=50)
    assert learner.kernel_calls == 0


def test_lockstep_must_be_a_bool():
    with pytest.raises(ParameterError, match="lockstep"):
        play(AlwaysPlus(), stream(), rounds=5, lockstep="yes")
