"""The streaming mode: ``play(..., keep="disk")`` keeps the rounds on disk, not in memory.

The game played with its rounds on disk is the same game: the same rounds,
digest, certificate verdict and bounds as in memory, for every built-in
scenario and for random games; its file reads back equal; a game that fails
keeps its complete rounds; and the memory it allocates does not grow with the
rounds (traced with ``tracemalloc``, which counts numpy's allocations and not
the pages of the mapped column files).
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversaries import ExpertStream, Replay, SeparableStream
from game import Transcript, load_scenario, play
from game.errors import GameError, ParameterError, ProtocolError, ScenarioError
from game.players import Estimate, check_fits, choose_keep, estimate
from game.scenario import scenario_from_dict
from game.transcript import DiskColumn, DiskFile
from learners import Perceptron
from learners.experts import RandomizedWeightedMajority, WeightedMajority

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def separable(d: int, seed: int) -> SeparableStream:
    return SeparableStream(dimension=d, margin=0.1, radius=1.0, rng=np.random.default_rng(seed))


def same_game(a: Transcript, b: Transcript) -> None:
    """Two transcripts of one game: every column, the digest and every verdict."""
    assert a.digest == b.digest
    assert a.first_difference(b) is None
    assert a.summary() | {"wall_time": 0} == b.summary() | {"wall_time": 0}
    assert np.array_equal(np.asarray(a.instances), np.asarray(b.instances))
    for name in ("predictions", "labels", "updated"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert sorted(a.extras) == sorted(b.extras)
    for k in a.extras:
        assert np.array_equal(a.extras[k], b.extras[k]), k


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_plays_to_its_recorded_digest_with_its_rounds_on_disk(path):
    scenario = load_scenario(path)
    on_disk = scenario.play(keep="disk")  # raises on any failed expectation, the digest's too
    assert on_disk == scenario.play(keep="memory")


@settings(max_examples=15, deadline=None)
@given(
    d=st.integers(1, 12),
    rounds=st.integers(0, 300),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_stream_game_on_disk_is_the_game_in_memory(d, rounds, seed):
    a = play(Perceptron(), separable(d, seed), rounds=rounds, keep="memory")
    b = play(Perceptron(), separable(d, seed), rounds=rounds, keep="disk")
    same_game(a, b)


@settings(max_examples=10, deadline=None)
@given(experts=st.integers(1, 40), rounds=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
def test_an_expert_game_with_extras_on_disk_is_the_game_in_memory(experts, rounds, seed):
    def game(keep):
        rng = np.random.default_rng(seed)
        stream = ExpertStream(experts, 0, np.random.default_rng(seed + 1), horizon=rounds)
        return play(RandomizedWeightedMajority(rng=rng), stream, rounds=rounds, keep=keep)

    a, b = game("memory"), game("disk")
    assert sorted(a.extras) == ["drawn_label", "drawn_mistake", "mistake_probability"]
    same_game(a, b)


def test_a_replay_on_disk_copies_its_rows_and_is_the_same_game():
    X = np.random.default_rng(3).normal(size=(500, 4))
    w = np.array([1.0, -2.0, 0.5, 0.0])
    y = np.where(X @ w >= 0, 1, -1)

    def game(keep):
        return play(Perceptron(), Replay(instances=X, labels=y, separator=w), rounds=500, keep=keep)

    a, b = game("memory"), game("disk")
    same_game(a, b)
    assert b.certificate_verified is True and b.bound is not None and b.bound.applies


def test_an_adaptive_adversary_reads_the_same_history_on_disk():
    seen = {"memory": [], "disk": []}

    class Reader:
        """Labels by what the history holds: the previous prediction's sign and instance."""

        def __init__(self, keep):
            self.keep, self.inner = keep, separable(3, 5)

        def instance(self, history):
            if len(history):
                last = history.instances[-1]
                seen[self.keep].append(
                    (history.t, history.labels[-1], history.predictions[-1], float(last.sum()))
                )
                if history.t in (2, 1000, 69_999):  # the whole history: O(rounds) to read
                    seen[self.keep].append((history.mistakes, history.labels[-3:]))
            return self.inner.instance(history)

        def label(self, x, p, history):
            return 1 if (len(history) and history.predictions[-1] < 0) else -1

        def certificate(self):
            return None

    for keep in seen:
        play(Perceptron(), Reader(keep), rounds=70_000, keep=keep)
    assert len(seen["disk"]) == 69_999 + 3  # past the first mapping of 65,536 rows
    assert seen["disk"] == seen["memory"]
    assert isinstance(seen["disk"][0][1], int) and isinstance(seen["disk"][0][2], float)


def test_the_file_of_a_game_on_disk_reads_back_equal(tmp_path):
    out = tmp_path / "t.jsonl"
    tr = play(Perceptron(), separable(5, 1), rounds=400, out=out, keep="disk")
    assert Transcript.load(out) == tr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]  # no column file left


def test_a_game_on_disk_that_fails_keeps_its_complete_rounds(tmp_path):
    class Failing(Perceptron):
        def update(self, x, y):
            if self.rounds_seen == 30:
                raise RuntimeError("boom")
            self.rounds_seen += 1
            return super().update(x, y)

    learner = Failing()
    learner.rounds_seen = 0
    out = tmp_path / "t.jsonl"
    with pytest.raises(ProtocolError, match=r"round 31: update raised RuntimeError: boom"):
        play(learner, separable(3, 0), rounds=100, out=out, keep="disk")
    partial = Transcript.load(out)
    assert (len(partial), partial.status) == (30, "aborted")


def test_keep_is_memory_or_disk():
    with pytest.raises(ParameterError, match="keep"):
        play(Perceptron(), separable(2, 0), rounds=3, keep="none")


def test_a_folder_that_cannot_hold_the_columns_is_one_error(tmp_path):
    with pytest.raises(Exception, match="cannot keep the rounds on disk there"):
        DiskFile((3,), np.float64, tmp_path / "missing")


def test_a_column_on_disk_behaves_as_the_list_it_replaces():
    column, shadow = DiskColumn(np.int8), []
    for i in range(70_000):  # past the first mapping
        column.append(1 if i % 3 else -1)
        shadow.append(1 if i % 3 else -1)
    assert len(column) == len(shadow)
    assert column[5] == shadow[5] and type(column[5]) is int
    assert column[-1] == shadow[-1] and column[100:105] == shadow[100:105]
    assert list(column) == shadow
    del column[10:]
    del shadow[10:]
    assert list(column) == shadow and column.array(10).tolist() == shadow
    with pytest.raises(TypeError):
        del column[2]
    with pytest.raises(ValueError):
        column.array(10).flags.writeable = True


def traced_peak(rounds: int, keep: str) -> int:
    stream = separable(100, 0)
    tracemalloc.start()
    try:
        play(Perceptron(), stream, rounds=rounds, keep=keep)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_memory_a_game_on_disk_allocates_does_not_grow_with_its_rounds():
    # In memory the record costs about 935 B a round at d = 100 (800 B of instance);
    # on disk the columns are mapped files, which tracemalloc does not count.
    grown = {keep: traced_peak(40_000, keep) - traced_peak(10_000, keep) for keep in ("memory",
             "disk")}  # fmt: skip
    assert grown["memory"] > 30_000 * 800
    assert grown["disk"] < 30_000 * 40, grown


def test_a_scenario_keeps_its_rounds_on_disk_when_they_would_take_half_the_memory(monkeypatch):
    import shutil

    class Usage:
        free = 10**15  # the disk this test pretends to have: room for any game here

    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage)
    small = Estimate(bytes=10**9, key="rounds", what="rounds = 1", record=10**9, disk=10**9)
    assert choose_keep(small, available=4 * 10**9) == "memory"
    assert choose_keep(small, available=10**9) == "disk"
    long = estimate(Perceptron, {}, SeparableStream, {"dimension": 100}, rounds=10**8)
    assert choose_keep(long, available=24 * 2**30) == "disk"
    with pytest.raises(ScenarioError, match=r"rounds: rounds = 100,000,000 needs about 95 GB"):
        check_fits(long, available=24 * 2**30)
    assert check_fits(long, available=24 * 2**30, keep="disk", folder="/") is long


def test_a_game_on_disk_is_refused_when_the_disk_cannot_hold_its_rounds(monkeypatch, tmp_path):
    import shutil

    class Usage:
        free = 10**6

    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage)
    sc = scenario_from_dict(
        {
            "rounds": 10**6,
            "learner": {"name": "perceptron"},
            "adversary": {"name": "separable-stream", "dimension": 100, "margin": 0.1},
        }
    )
    with pytest.raises(ScenarioError, match=r"rounds: rounds = 1,000,000: its rounds need about "
                       r"810 MB of disk, 1.0 MB free in"):  # fmt: skip
        sc.play(keep="disk", out=tmp_path / "t.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_weighted_majority_on_disk_against_its_stream():
    def game(keep):
        stream = ExpertStream(64, 2, np.random.default_rng(9), horizon=300)
        return play(WeightedMajority(), stream, rounds=300, keep=keep)

    same_game(game("memory"), game("disk"))


def test_a_scenario_too_long_for_memory_is_played_with_its_rounds_on_disk(monkeypatch):
    import game.players._sizes as sizes
    import game.scenario as scenario_module

    class Usage:
        free = 10**12  # the disk this test pretends to have

    monkeypatch.setattr(sizes, "available_memory", lambda: 2 * 10**9)
    monkeypatch.setattr(sizes.shutil, "disk_usage", lambda folder: Usage)
    chosen = {}

    class Stop(Exception):
        pass

    def fake_play(learner, adversary, **options):
        chosen.update(options)
        raise Stop

    monkeypatch.setattr(scenario_module, "play", fake_play)
    sc = scenario_from_dict(
        {
            "rounds": 10**7,  # 3.1 GB of record at d = 20: more than 2 GB
            "learner": {"name": "perceptron"},
            "adversary": {"name": "separable-stream", "dimension": 20, "margin": 0.1},
        }
    )
    with pytest.raises(Stop):
        sc.play()
    assert chosen["keep"] == "disk"
    with pytest.raises(Stop):
        sc.play(rounds=1000)
    assert chosen["keep"] == "memory"
    with pytest.raises(ScenarioError, match=r"rounds = 10,000,000 needs about 3\.1 GB, 2\.0 GB"):
        sc.play(keep="memory")  # asked for: in memory it cannot fit


def test_instances_of_no_values_are_kept_on_disk_too():
    class Empty:
        def __init__(self):
            self.t = 0

        def instance(self, history):
            self.t += 1
            return None if self.t > 70_000 else np.zeros(0)

        def label(self, x, p, history):
            return 1

        def certificate(self):
            return None

    a = play(Perceptron(), Empty(), rounds=80_000, keep="memory")
    b = play(Perceptron(), Empty(), rounds=80_000, keep="disk")
    assert len(b) == 70_000
    same_game(a, b)


def test_a_full_disk_is_one_error_as_the_columns_grow_never_a_crash(monkeypatch, tmp_path):
    import errno
    import os

    taken = []

    def fallocate(fd, offset, size):  # the disk holds the first mappings, not their growth
        if taken:
            raise OSError(errno.ENOSPC, "No space left on device")
        taken.append(size)

    monkeypatch.setattr(os, "posix_fallocate", fallocate, raising=False)
    column = DiskColumn(np.float64, tmp_path)
    for i in range(65_536):
        column.append(float(i))
    with pytest.raises(GameError, match=r"cannot keep 131,072 rounds on disk there: No space left"):
        column.append(1.0)
    assert len(column) == 65_536 and column[-1] == 65_535.0
