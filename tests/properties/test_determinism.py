"""Determinism: the same scenario and seed give the same digest, in any process.

Example to paste::

    PYTHONHASHSEED=1 python -m game run scenarios/perceptron_separable.toml --no-out
    PYTHONHASHSEED=2 python -m game run scenarios/perceptron_separable.toml --no-out
    # the same digest twice
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import Transcript, load_scenario

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = [ROOT / "scenarios" / "perceptron_separable.toml",
             ROOT / "scenarios" / "replay_perceptron_balcan.toml"]  # fmt: skip

DIGESTS = """
import json, sys
from game import load_scenario
out = {}
for path in sys.argv[1:]:
    sc = load_scenario(path)
    out[path] = [sc.play(check=False).digest, sc.play(seed=7, rounds=300, check=False).digest]
print(json.dumps(out))
"""


def digests_in_a_new_process(paths: list[Path], hashseed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    done = subprocess.run(
        [sys.executable, "-c", DIGESTS, *map(str, paths)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def digests_here() -> dict:
    out = {}
    for path in COMMITTED:
        sc = load_scenario(path)
        out[str(path)] = [sc.play(check=False).digest, sc.play(seed=7, rounds=300).digest]
    return out


def test_same_digest_in_two_processes_with_different_hash_seeds(digests_here):
    first = digests_in_a_new_process(COMMITTED, "0")
    second = digests_in_a_new_process(COMMITTED, "4242")
    assert first == second == digests_here


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.stem)
def test_committed_scenarios_match_their_expect_digest(path):
    sc = load_scenario(path)
    assert "digest" in sc.expect and "mistakes" in sc.expect
    tr = sc.play()  # raises ExpectationError on any failed expectation
    assert tr.digest == sc.expect["digest"]
    assert sc.check(tr) == []


def test_different_seeds_give_different_digests():
    sc = load_scenario(COMMITTED[0])
    digests = {sc.play(seed=seed, rounds=200).digest for seed in range(6)}
    assert len(digests) == 6


@given(seed=st.integers(0, 2**63 - 1), rounds=st.integers(1, 60))
def test_same_seed_same_game_in_one_process(seed, rounds):
    sc = load_scenario(COMMITTED[0])
    a = sc.play(seed=seed, rounds=rounds)
    b = sc.play(seed=seed, rounds=rounds)
    assert a.digest == b.digest and a == b
    np.testing.assert_array_equal(a.instances, b.instances)


def test_streamed_file_is_byte_identical_but_for_time(tmp_path):
    sc = load_scenario(COMMITTED[0])
    sc.play(out=tmp_path / "a.jsonl")
    sc.play(out=tmp_path / "b.jsonl")
    a = (tmp_path / "a.jsonl").read_text().splitlines()
    b = (tmp_path / "b.jsonl").read_text().splitlines()
    assert a[:-1] == b[:-1]  # header and every round line
    fa, fb = json.loads(a[-1]), json.loads(b[-1])
    fa.pop("wall_time"), fb.pop("wall_time")
    assert fa == fb
    assert Transcript.load(tmp_path / "a.jsonl") == Transcript.load(tmp_path / "b.jsonl")
