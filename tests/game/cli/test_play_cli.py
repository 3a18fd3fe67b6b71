"""``python -m game play``, driven at a real terminal (pexpect) through whole games.

A person plays the learner against the balanced adversary (and sees the
lower bound forced), plays the adversary against Halving over the thresholds
(bad moves re-asked, the labels kept realizable, the certificate verified and
the bound reported), and stops a game with Ctrl-C (the transcript kept,
marked aborted, exit status 130); each transcript replays to the same digest.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game import Transcript
from game.cli import main

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "160", "LINES": "50", "TERM": "dumb"}
PROMPT = "your prediction"


def spawn(folder: Path, *args: str):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "game", *args],
        cwd=str(folder),
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 160),
    )
    return child


def ended(child) -> tuple[str, int]:
    """Everything the program printed after the last expect, and its exit status."""
    rest = child.read()  # up to the end of its output
    child.close()
    return rest, child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus


def replayed(folder: Path, out: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "game", "replay", out],
        cwd=folder, env=ENV, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_person_plays_the_learner_and_the_lower_bound_is_forced(tmp_path):
    child = spawn(tmp_path, "play", "halving-lower-bound", "--as", "learner", "--out", "me.jsonl")
    child.expect("round 1")
    child.expect("experts consistent so far: 1024 of 1024")
    child.expect(PROMPT)
    child.sendline("maybe")
    child.expect("a prediction is \\+ or - \\(or \\+1, -1\\), got 'maybe'")
    for t in range(10):
        if t:
            child.expect(PROMPT)
        child.sendline("+" if t % 2 else "-")
        child.expect("a mistake")
    child.expect("the adversary claimed mistakes ≥ 10 and forced 10: the lower bound was forced")
    rest, status = ended(child)
    assert status == 0
    digest = Transcript.load(tmp_path / "me.jsonl").digest
    assert "transcript: me.jsonl" in rest
    assert f"identical: 10 rounds, digest {digest}" in replayed(tmp_path, "me.jsonl")


def test_a_person_plays_the_adversary_and_sees_the_certificate_checked(tmp_path):
    child = spawn(tmp_path, "play", "halving-class-thresholds", "--as", "adversary")
    child.expect("version space: 9 of 9 hypotheses")
    child.expect_exact("instance (a point 0–7; empty or q ends the game): ")
    child.sendline("eight")
    child.expect("a point is an index, got 'eight'")
    child.sendline("4")
    child.expect("the learner predicts")
    child.sendline("+")
    child.expect("version space: 5 of 9")
    child.sendline("5")
    child.expect_exact("label (+ or -): ")
    child.sendline("-")
    child.expect("no hypothesis left labels point 5 with −1: the game must stay realizable")
    child.sendline("+")
    child.expect("round 3")
    child.sendline("2")
    child.expect_exact("label (+ or -): ")
    child.sendline("-")
    child.expect("round 4")
    child.sendline("")
    child.expect("verified by the referee; the learner's bound mistakes ≤ 3.16993 held")
    _, status = ended(child)
    assert status == 0
    out = tmp_path / "runs" / "halving_class_thresholds-as-adversary.jsonl"
    recorded = Transcript.load(out)
    assert recorded.raw_instances == [4, 5, 2] and recorded.certificate_verified is True
    said = replayed(tmp_path, str(out))
    assert f"identical: 3 rounds, digest {recorded.digest}" in said


def test_ctrl_c_keeps_the_transcript_and_it_replays(tmp_path):
    child = spawn(tmp_path, "play", "halving-lower-bound", "--as", "learner", "--out", "cut.jsonl")
    for _ in range(2):
        child.expect(PROMPT)
        child.sendline("+")
    child.expect(PROMPT)
    child.sendintr()
    rest, status = ended(child)
    assert status == 130
    assert re.search(r"keeps the 2 complete rounds, marked aborted", rest.replace("\r\n", " "))
    kept = Transcript.load(tmp_path / "cut.jsonl")
    assert kept.status == "aborted" and len(kept) == 2
    assert "identical: the 2 recorded rounds replay as recorded" in replayed(tmp_path, "cut.jsonl")


def test_bad_arguments_are_one_line(tmp_path, capsys):
    assert main(["play", "halving-lower-bound", "--as", "adversary", "--size", "0",
                 "--out", str(tmp_path / "x.jsonl")]) == 2  # fmt: skip
    assert "--size" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["play", "halving-lower-bound", "--as", "referee"])
    assert exc.value.code == 2
