"""The command line: run, replay, list, expect; exit statuses and one-line errors.

Examples to paste::

    python -m game run scenarios/perceptron_separable.toml --no-out
    python -m game replay scenarios/replay_perceptron_balcan.toml
    python -m game expect scenarios/perceptron_separable.toml
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import attrs
import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import Transcript, load_scenario, play
from game.cli import main
from game.players import _registry as reg
from learners import Perceptron

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"
SEPARABLE = SCENARIOS / "perceptron_separable.toml"
BALCAN = SCENARIOS / "replay_perceptron_balcan.toml"

SMALL = """\
description = "a small game for the command line tests"
rounds = 300
seed = 1

[learner]
name = "perceptron"

[adversary]
name = "separable-stream"
dimension = 4
margin = 0.1
"""


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch, tmp_path):
    """Rich lays out for 200 columns; the working folder is a fresh one (runs/ lands there)."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(err: str, start: str = "error: ") -> str:
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(start), err
    assert "Traceback" not in err
    return lines[0]


def flip_prediction(path: Path, out: Path, i: int) -> Path:
    """Re-save a transcript with prediction i negated: a consistent file (digest, totals and
    verdicts recomputed) that only a replay can tell from the game played."""
    tr = Transcript.load(path)
    predictions = tr.predictions.copy()
    predictions[i] = -predictions[i]
    tampered = attrs.evolve(tr, predictions=predictions)
    tampered.save(out)
    assert Transcript.load(out).digest != tr.digest
    return out


def flip_label(path: Path, out: Path, i: int) -> Path:
    """Re-save a transcript with label i flipped and its digest recomputed."""
    tr = Transcript.load(path)
    labels = tr.labels.copy()
    labels[i] = -labels[i]
    attrs.evolve(tr, labels=labels).save(out)
    return out


# -- run ----------------------------------------------------------------------------------


def test_run_prints_the_summary_and_writes_the_transcript(capsys, small, tmp_path):
    status, out, err = run(capsys, "run", small, "--out", tmp_path / "t.jsonl")
    assert status == 0 and err == ""
    expected = load_scenario(small).play()
    for label in ("learner", "perceptron", "adversary", "separable-stream", "rounds", "300",
                  "mistakes", "updates", "bound", "holds", "certificate verified", "digest",
                  expected.digest, "a small game for the command line tests"):  # fmt: skip
        assert label in out, label
    assert f"transcript written to {tmp_path / 't.jsonl'}" in out
    assert Transcript.load(tmp_path / "t.jsonl") == expected


def test_run_writes_to_runs_by_default(capsys, small, tmp_path):
    status, _out, _ = run(capsys, "run", small)
    assert status == 0
    assert Transcript.load(tmp_path / "runs" / "small.jsonl") == load_scenario(small).play()


def test_run_no_out_writes_nothing(capsys, small, tmp_path):
    status, out, _ = run(capsys, "run", small, "--no-out")
    assert status == 0 and "transcript written" not in out
    assert not (tmp_path / "runs").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.toml"]


def test_run_seed_and_rounds(capsys, small, tmp_path):
    status, out, _ = run(capsys, "run", small, "--seed", 8, "--rounds", 40, "--out", "o.jsonl")
    assert status == 0
    tr = Transcript.load(tmp_path / "o.jsonl")
    assert len(tr) == 40 and tr.header["seed"] == 8
    assert tr == load_scenario(small).play(seed=8, rounds=40)
    assert tr.digest in out


def test_run_snapshots(capsys, small, tmp_path):
    assert run(capsys, "run", small, "--snapshots", "--rounds", 9, "--out", "s.jsonl")[0] == 0
    assert Transcript.load(tmp_path / "s.jsonl").snapshot("norm2").shape == (9,)


def test_run_committed_scenario_says_every_expectation_holds(capsys):
    status, out, _ = run(capsys, "run", SEPARABLE, "--no-out")
    assert status == 0 and "every expectation holds" in out


def test_captured_output_shows_the_digest_whole_on_its_row_at_80_columns(
    capsys, small, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "80")  # not a terminal: COLUMNS does not narrow it
    status, out, _ = run(capsys, "run", small, "--no-out")
    assert status == 0
    digest = load_scenario(small).play().digest
    (row,) = [line for line in out.splitlines() if "│ digest" in line]
    assert row.split("│")[2].strip() == digest


# -- bad input: one line, status 2 --------------------------------------------------------


@pytest.mark.parametrize(
    "text, needle",
    [
        ("rounds = = 1\n", "not valid TOML"),
        (SMALL.replace('"perceptron"', '"perceptorn"'), "did you mean 'perceptron'"),
        (SMALL.replace("margin = 0.1", "margin = -1"), "adversary.margin"),
        (SMALL.replace("rounds = 300", 'rounds = "300"'), "rounds"),
        (SMALL.replace('"perceptron"', '"os:system"'), "learner.name"),
    ],
)
def test_bad_scenario_prints_one_line_and_exits_2(capsys, tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    for command in ("run", "replay", "expect"):
        status, _out, err = run(capsys, command, path)
        assert status == 2, (command, err)
        line = assert_one_line_error(err)
        assert str(path) in line and needle in line


def test_missing_scenario_exits_2(capsys, tmp_path):
    status, _, err = run(capsys, "run", tmp_path / "nowhere.toml")
    assert status == 2 and "no such scenario file" in assert_one_line_error(err)


@pytest.mark.parametrize("args", [["--seed", "-1"], ["--rounds", "-3"]])
def test_bad_overrides_exit_2(capsys, small, args):
    status, _, err = run(capsys, "run", small, "--no-out", *args)
    assert status == 2
    assert_one_line_error(err)


def test_unwritable_out_exits_2(capsys, small, tmp_path):
    (tmp_path / "a-folder").mkdir()
    status, _, err = run(capsys, "run", small, "--out", tmp_path / "a-folder")
    assert status == 2 and "is a folder" in assert_one_line_error(err)


def test_corrupt_transcript_replay_exits_2(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header"}\n', encoding="utf-8")
    status, _, err = run(capsys, "replay", path)
    assert status == 2 and str(path) in assert_one_line_error(err)


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["run"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["fly"])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# -- expectations: status 1 ---------------------------------------------------------------


def test_a_failing_expectation_exits_1(capsys, tmp_path):
    path = tmp_path / "wrong.toml"
    path.write_text(SMALL + "\n[expect]\nmistakes = 9999\n", encoding="utf-8")
    status, out, err = run(capsys, "run", path, "--no-out")
    assert status == 1
    line = assert_one_line_error(err, "failed: ")
    assert "expected 9999 mistakes, got" in line
    assert "mistakes" in out  # the summary is printed first
    assert run(capsys, "run", path, "--no-out", "--seed", 2)[0] == 0  # exact checks skipped


# -- replay -------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", [SEPARABLE, BALCAN])
def test_replay_of_a_committed_scenario_exits_0(capsys, scenario):
    status, out, err = run(capsys, "replay", scenario)
    assert status == 0 and err == ""
    assert load_scenario(scenario).expect["digest"] in out


def test_replay_of_a_scenario_whose_digest_changed_exits_1(capsys, tmp_path):
    path = tmp_path / "changed.toml"
    path.write_text(SMALL + '\n[expect]\ndigest = "sha256:' + "0" * 64 + '"\n', encoding="utf-8")
    status, _, err = run(capsys, "replay", path)
    assert status == 1 and "expected digest" in assert_one_line_error(err, "failed: ")


def test_replay_of_a_run_transcript_exits_0(capsys, small, tmp_path):
    assert run(capsys, "run", small, "--seed", 4, "--out", "r.jsonl")[0] == 0
    status, out, err = run(capsys, "replay", tmp_path / "r.jsonl")
    assert status == 0 and err == "" and "identical" in out


def test_replay_of_a_tampered_transcript_names_the_first_differing_round(capsys, small, tmp_path):
    assert run(capsys, "run", small, "--out", "r.jsonl")[0] == 0
    tampered = flip_prediction(tmp_path / "r.jsonl", tmp_path / "tampered.jsonl", 122)
    status, _, err = run(capsys, "replay", tampered)
    assert status == 1
    line = assert_one_line_error(err, "failed: ")
    assert str(tampered) in line and "differs first at round 123" in line


def test_a_flipped_label_is_refused_on_reading_naming_the_certificate(capsys, small, tmp_path):
    assert run(capsys, "run", small, "--out", "r.jsonl")[0] == 0
    tampered = flip_label(tmp_path / "r.jsonl", tmp_path / "tampered.jsonl", 122)
    status, _, err = run(capsys, "replay", tampered)
    assert status == 2
    line = assert_one_line_error(err)
    assert str(tampered) in line and "certificate_verified = True" in line


def test_replay_fails_on_a_verdict_the_file_claims_and_the_game_does_not_give(capsys, tmp_path):
    # a lower bound cannot be recomputed from the rounds alone (the adversary's state made it):
    # a file that claims more, with a consistent digest, reads, and its replay says what differs
    path = tmp_path / "h.jsonl"
    assert run(capsys, "run", SCENARIOS / "halving_lower_bound.toml", "--out", path)[0] == 0
    tr = Transcript.load(path)
    tr.lower_bound = attrs.evolve(tr.lower_bound, value=tr.lower_bound.value + 5)
    tr.save(path)
    assert Transcript.load(path).lower_bound.value == tr.lower_bound.value
    status, _, err = run(capsys, "replay", path)
    assert status == 1
    line = assert_one_line_error(err, "failed: ")
    assert "the rounds replay as recorded, but the lower bound differs" in line
    assert f"mistakes ≥ {tr.lower_bound.value:g}" in line


def test_replay_fails_on_a_forged_game_header_naming_the_entry(capsys, small, tmp_path):
    # a parameter the file's rounds cannot contradict, with a recomputed digest: the replay,
    # which rebuilds both players from the scenario, names the entry
    path = tmp_path / "r.jsonl"
    assert run(capsys, "run", small, "--out", path)[0] == 0
    tr = Transcript.load(path)
    tr.header["adversary"]["params"]["radius"] = 0.5
    tr.save(path)
    status, _, err = run(capsys, "replay", path)
    assert status == 1
    line = assert_one_line_error(err, "failed: ")
    assert "the header's adversary.params.radius differs: recorded 0.5; replayed 1.0" in line


def test_a_learner_that_cannot_play_the_instances_is_refused_naming_both(capsys, tmp_path):
    path = tmp_path / "clash.toml"
    path.write_text(
        'rounds = 5\nseed = 0\n[learner]\nname = "halving"\n'
        '[adversary]\nname = "separable-stream"\ndimension = 3\nmargin = 0.1\n'
    )
    status, _, err = run(capsys, "run", path, "--out", tmp_path / "t.jsonl")
    assert status == 2
    line = assert_one_line_error(err)
    assert str(path) in line and "learner.name" in line
    assert "learner halving plays advice, point; adversary separable-stream presents vector" in line
    assert not (tmp_path / "t.jsonl").exists()


def test_replay_of_a_transcript_without_a_scenario(capsys, tmp_path):
    stream = SeparableStream(3, 0.2, rng=np.random.default_rng(5))
    play(Perceptron(zero_label=-1, update="mistake"), stream, rounds=150, out=tmp_path / "p.jsonl")
    status, out, err = run(capsys, "replay", tmp_path / "p.jsonl")
    assert status == 0 and "identical: 150 rounds" in out
    tampered = flip_prediction(tmp_path / "p.jsonl", tmp_path / "t.jsonl", 40)
    status, _, err = run(capsys, "replay", tampered)
    assert status == 1
    line = assert_one_line_error(err, "failed: ")
    assert str(tampered) in line and "differs first at round 41" in line


def test_replay_never_imports_a_learner_named_by_module_path(capsys, tmp_path):
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1]), rounds=5)
    tr.header["learner"] = {"name": "os:system", "params": {"command": "echo pwned"}}
    path = tr.save(tmp_path / "evil.jsonl")
    status, out, err = run(capsys, "replay", path)
    assert status == 2 and "os:system" in assert_one_line_error(err)
    assert "pwned" not in out


# -- list and expect ----------------------------------------------------------------------


def test_list_shows_every_registered_player_with_parameters(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    for name in reg.names():
        assert name in out, name
        for p in reg.parameters(reg.lookup(name)):
            if p["name"] != "rng":
                assert p["name"] in out, (name, p["name"])
    assert "learner" in out and "adversary" in out
    assert "update='nonpositive'" in out and "The online Perceptron" in out


def test_list_shows_a_player_registered_at_run_time(capsys, monkeypatch):
    @attrs.define
    class Plus:
        """Always +1."""

        strength: float = attrs.field(default=2.5)

        def predict(self, x):
            return 1.0

        def update(self, x, y):
            return False

    monkeypatch.setitem(reg._registered, "test-plus", Plus)
    out = run(capsys, "list")[1]
    assert "test-plus" in out and "strength=2.5" in out and "Always +1." in out


@pytest.mark.parametrize("scenario", [SEPARABLE, BALCAN])
def test_expect_prints_a_toml_table_that_matches_the_committed_one(capsys, scenario):
    status, out, _ = run(capsys, "expect", scenario)
    assert status == 0
    table = tomllib.loads(out)["expect"]
    committed = load_scenario(scenario).expect
    assert {k: committed[k] for k in table} == table
    assert {"mistakes", "updates", "within_bound", "certificate_verified", "digest"} <= set(table)


def test_expect_output_pasted_into_a_scenario_holds(capsys, small, tmp_path):
    table = run(capsys, "expect", small)[1]
    pinned = tmp_path / "pinned.toml"
    pinned.write_text(SMALL + "\n" + table, encoding="utf-8")
    assert run(capsys, "replay", pinned)[0] == 0
    assert run(capsys, "run", pinned, "--no-out")[0] == 0


# -- a real process -----------------------------------------------------------------------


def test_python_m_game_in_a_real_process(tmp_path):
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "game", "run", str(SEPARABLE), "--out", str(tmp_path / "a.jsonl")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "every expectation holds" in done.stdout
    assert load_scenario(SEPARABLE).expect["digest"] in done.stdout
    assert Transcript.load(tmp_path / "a.jsonl").digest == load_scenario(SEPARABLE).expect["digest"]
    bad = subprocess.run(
        [sys.executable, "-m", "game", "run", str(tmp_path / "nowhere.toml")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
