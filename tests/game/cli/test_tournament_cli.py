"""python -m game tournament: the table, the files, the exit status and bad input."""

import csv
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main

ROOT = Path(__file__).resolve().parents[3]

TOURNAMENT = """\
description = "two learners, two streams"

[tournament]
learners = ["perceptron", "winnow"]
adversaries = ["separable-stream", "concept-stream"]
seeds = 2
rounds = 40

[adversary.separable-stream]
dimension = 2
margin = 0.2

[adversary.concept-stream]
variables = 6
"""


@pytest.fixture
def file(tmp_path) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT)
    return path


def test_a_tournament_prints_its_pairs_and_writes_its_files(file, tmp_path, capsys):
    out, plot = tmp_path / "r.csv", tmp_path / "heat.png"
    argv = ["tournament", str(file), "--workers", "1", "--quiet"]
    status = main([*argv, "--out", str(out), "--plot", str(plot), "--quantity", "ratio"])
    printed = capsys.readouterr().out
    assert status == 0
    assert "2 learners × 2 adversaries, 3 pairs played, 6 games" in printed
    assert "unfit: 1 pairs not played" in printed and "winnow × separable-stream" in printed
    assert f"results written to {out}" in printed and f"heat map written to {plot}" in printed
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 7 and rows[-1]["status"] == "unfit"
    width, height = struct.unpack(">II", plot.read_bytes()[16:24])
    assert width > 400 and height > 200
    assert main([*argv, "--out", str(out)]) == 2  # the file exists: not overwritten
    assert "--out" in capsys.readouterr().err and len(rows) == 7
    assert main([*argv, "--out", str(out), "--force", "--seeds", "0:1"]) == 0
    with open(out, newline="") as f:
        assert len(list(csv.DictReader(f))) == 4


def test_a_failed_pair_is_reported_and_exits_with_1(file, capsys):
    file.write_text(TOURNAMENT.replace("margin = 0.2", "margin = -0.2"))
    status = main(["tournament", str(file), "--workers", "1", "--quiet"])
    printed = capsys.readouterr().out
    assert status == 1
    assert "failed: perceptron × separable-stream: adversary.margin: margin must be" in printed
    assert "perceptron   concept-stream" in printed.replace("  ", "  ")  # still played


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seeds", "0:0"], "--seeds must be"),
        (["--out", "{tmp}/r.txt"], "--out must be a .csv or .parquet file"),
        (["--plot", "{tmp}/h.gif"], "--plot must be a .png, .svg, .pdf file"),
        (["--workers", "0"], "--workers must be an integer ≥ 1, got 0"),
        (["--out", "{file}"], "--out must be a .csv or .parquet file"),
    ],
)
def test_bad_options_get_one_line_and_exit_2(file, tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)).replace("{file}", str(file)) for a in args]
    status = main(["tournament", str(file), "--quiet", *args])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_files_get_one_line_naming_the_file_and_key(tmp_path, capsys):
    cases = {
        "[tournament]\nlearners = ['perceptron']\n": "tournament.adversaries: missing",
        TOURNAMENT.replace("rounds = 40", "rounds = -4"): "tournament.rounds: expected",
        TOURNAMENT
        + "[adversary.noisy-stream]\nmargin = 1\n": "adversary.noisy-stream: a parameter",
        TOURNAMENT.replace('"winnow"', '"winow"'): "tournament.learners: unknown learner 'winow'",
        "[tournament\n": "not valid TOML",
    }
    for i, (text, message) in enumerate(cases.items()):
        path = tmp_path / f"t{i}.toml"
        path.write_text(text)
        assert main(["tournament", str(path), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert f"{path}: " in err and message in err and err.count("\n") == 1
    assert main(["tournament", str(ROOT / "scenarios" / "soa_thresholds.toml")]) == 2
    assert "a scenario, not a tournament" in capsys.readouterr().err
    assert main(["tournament", "builtn"]) == 2
    assert "did you mean 'builtin'" in capsys.readouterr().err


def test_the_command_line_runs_as_a_person_types_it(file, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "game", "tournament", str(file), "--workers", "2", "--seeds", "0:2"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "perceptron" in done.stdout and "bound ratio" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "game", "tournament", str(file), "--quantity", "wins"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "invalid choice: 'wins'" in bad.stderr
