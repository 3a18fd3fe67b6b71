"""Tracing a game: ``play(..., trace=)`` and ``python -m game run --trace``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from adversaries import SeparableStream
from game import GameError, ParameterError, Transcript, load_scenario, play
from game.cli import main
from game.transcript import Round
from learners import Perceptron

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


def stream(seed=0):
    return SeparableStream(dimension=3, margin=0.2, radius=1.0, rng=np.random.default_rng(seed))


def test_the_trace_sees_every_round_as_recorded():
    seen = []
    game = play(
        Perceptron(), stream(), rounds=30, snapshots=True, trace=lambda r, m: seen.append((r, m))
    )
    assert [r.t for r, _ in seen] == list(range(1, 31))
    assert all(isinstance(r, Round) for r, _ in seen)
    for r, m in seen:
        assert r == game[r.t - 1]  # instance, prediction, label, mistake, loss, snapshot
        assert m == int(game.mistakes[: r.t].sum())
    assert seen[-1][0].snapshot.keys() == {"norm2", "w"}


def test_the_trace_changes_nothing_of_the_game():
    plain = play(Perceptron(), stream(), rounds=50)
    traced = play(Perceptron(), stream(), rounds=50, trace=lambda r, m: None)
    assert traced.digest == plain.digest


def test_a_bad_trace_is_refused_before_the_game():
    with pytest.raises(ParameterError, match="trace must be None or a callable"):
        play(Perceptron(), stream(), rounds=5, trace="print")


def test_a_trace_that_raises_stops_the_game_keeping_the_rounds_before(tmp_path):
    def stop(r, m):
        if r.t == 4:
            raise RuntimeError("enough")

    out = tmp_path / "g.jsonl"
    with pytest.raises(
        GameError, match="the trace callback raised RuntimeError at round 4: enough"
    ):
        play(Perceptron(), stream(), rounds=10, out=out, trace=stop)
    kept = Transcript.load(out, allow_incomplete=True)
    assert len(kept) == 3 and kept.status == "aborted"


def test_scenario_play_passes_the_trace_on():
    rounds = []
    load_scenario("halving_lower_bound").play(trace=lambda r, m: rounds.append(m))
    assert rounds == list(range(1, 11))


LINE = re.compile(r"^\s*(\d+)  (.+?)  ([+-][\d.]+)  ([+-]1)  ([✗✓])  mistakes (\d+)(.*)$")


def test_run_trace_prints_one_line_per_round(capsys):
    assert main(["run", "halving-lower-bound", "--trace", "--no-out"]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = [LINE.match(line) for line in out[:10]]
    assert all(lines), out[:10]
    assert [int(m[1]) for m in lines] == list(range(1, 11))
    assert [int(m[6]) for m in lines] == list(range(1, 11))  # a mistake every round
    assert all(m[5] == "✗" for m in lines)
    assert lines[0][2] == "-+-+-+-+-+-+-+-+-+-+-+-+… (N=1024)"
    assert [m[7].strip() for m in lines[:2]] == ["consistent=512", "consistent=256"]
    assert "every expectation holds" in out[-1]


def test_run_trace_turns_snapshots_on_and_shows_vectors(capsys, tmp_path):
    out = tmp_path / "p.jsonl"
    args = ["run", "perceptron-separable", "--trace", "--rounds", "5", "--out", str(out)]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()[:5]
    for t, line in enumerate(lines, start=1):
        m = LINE.match(line)
        assert m and int(m[1]) == t
        assert re.fullmatch(r"\[[-\d.e, ]+, …\] \(d=20\)", m[2])
        assert "norm2=" in m[7] and "w=[" in m[7]
    header = json.loads(out.read_text().splitlines()[0])
    assert header["snapshots"] is True


def test_run_trace_as_a_person_runs_it(tmp_path):
    env = {**os.environ, "COLUMNS": "120"}
    done = subprocess.run(
        [sys.executable, "-m", "game", "run", "soa-thresholds", "--trace", "--no-out"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar
    first = done.stdout.splitlines()[:6]
    assert [line.split()[:2] for line in first] == [[str(t), "point"] for t in range(1, 7)]
    assert first[-1].endswith("version_space=1 ldim=0")
