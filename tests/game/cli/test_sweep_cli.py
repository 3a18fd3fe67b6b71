"""python -m game sweep: the table, the files, the exit status, and Ctrl-C."""

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import game
from game.cli import main
from game.cli._sweep import parse_grid

ROOT = Path(__file__).resolve().parents[3]
SEPARABLE = ROOT / "scenarios" / "perceptron_separable.toml"


def test_a_sweep_prints_one_row_per_grid_point(tmp_path, capsys):
    out = tmp_path / "r.csv"
    grid = ["--grid", "adversary.margin=0.1,0.3", "--grid", "rounds=200"]
    status = main(
        ["sweep", str(SEPARABLE), "--seeds", "0:6", *grid, "--workers", "1", "--out", str(out)]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert "12 games" in printed and "q90" in printed and "on updates" in printed
    assert "0.3" in printed and f"results written to {out}" in printed
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and rows[0]["adversary.margin"] == "0.1" and rows[0]["rounds"] == "200"


def test_grid_values_are_read_as_toml():
    assert parse_grid(["learner.normalize=true,false", "rounds=10", "x=a b"]) == {
        "learner.normalize": [True, False],
        "rounds": [10],
        "x": ["a b"],
    }


@pytest.mark.parametrize(
    "args, message",
    [
        (["--grid", "adversary.margn=0.1"], "grid point adversary.margn = 0.1"),
        (["--grid", "adversary.margin"], "expected KEY=VALUE"),
        (["--seeds", "9:x"], "not a seed or a range"),
        (["--out", "r.txt"], ".csv or .parquet"),
        (["--workers", "0"], "workers must be an integer ≥ 1"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, message, capsys):
    assert main(["sweep", str(SEPARABLE), "--seeds", "0:2", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


class Boastful:
    """A Perceptron that claims a bound of 2 updates."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self):
        from learners import Perceptron

        self.inner = Perceptron()

    def predict(self, x):
        return self.inner.predict(x)

    def update(self, x, y):
        return self.inner.update(x, y)

    def mistake_bound(self, transcript):
        return game.Bound(2.0, "updates ≤ 2", "nowhere", quantity="updates")


def test_games_over_the_bound_are_listed_with_a_replay_command_and_status_1(
    tmp_path, capsys, register
):
    register("boastful-perceptron-cli", Boastful)
    text = SEPARABLE.read_text().replace('name = "perceptron"', 'name = "boastful-perceptron-cli"')
    scenario = tmp_path / "boast.toml"
    scenario.write_text(text.split("[expect]")[0])
    assert main(["sweep", str(scenario), "--seeds", "0:3", "--workers", "1"]) == 1
    printed = capsys.readouterr().out
    assert "over the bound: seed 0: updates = 25 > 2" in printed
    assert f"replay: python -m game run {scenario} --seed 0" in printed


def complete_seeds(folder: Path) -> set[int]:
    """Seeds whose transcript file ends with a footer of a complete game."""
    seeds = set()
    for path in folder.glob("seed-*.jsonl"):
        lines = path.read_text().splitlines()
        if lines:
            try:
                last = json.loads(lines[-1])
            except json.JSONDecodeError:
                continue
            if last.get("type") == "footer" and last.get("status") == "complete":
                seeds.add(int(path.stem.removeprefix("seed-")))
    return seeds


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_every_finished_game(tmp_path, workers):
    folder, out = tmp_path / "transcripts", tmp_path / "r.csv"
    command = [sys.executable, "-m", "game", "sweep", str(SEPARABLE), "--seeds", "0:3000"]
    command += ["--workers", workers, "--chunk-size", "3", "--no-lockstep"]
    command += ["--transcripts", str(folder), "--out", str(out)]
    sweep = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while not folder.exists() or len(complete_seeds(folder)) < 6:
            assert sweep.poll() is None, sweep.communicate()
            assert time.monotonic() < deadline, "no game finished"
            time.sleep(0.05)
        sweep.send_signal(signal.SIGINT)
        stdout, stderr = sweep.communicate(timeout=120)
    finally:
        if sweep.poll() is None:
            sweep.kill()
    assert sweep.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stdout and "finished and kept" in stdout
    with open(out, newline="") as f:
        kept = {int(row["seed"]) for row in csv.DictReader(f)}
    assert len(kept) >= 6 and len(kept) < 3000
    assert kept == complete_seeds(folder)  # every finished game, and only those


def test_a_violation_at_a_grid_point_is_replayed_by_a_one_seed_sweep(tmp_path, capsys, register):
    register("boastful-perceptron-cli", Boastful)
    text = SEPARABLE.read_text().replace('name = "perceptron"', 'name = "boastful-perceptron-cli"')
    scenario = tmp_path / "boast.toml"
    scenario.write_text(text.split("[expect]")[0])
    grid = ["--grid", "rounds=300", "--grid", "adversary.margin=0.05"]
    assert main(["sweep", str(scenario), "--seeds", "4", *grid, "--workers", "1"]) == 1
    printed = capsys.readouterr().out
    hint = printed.split("replay: ")[1].split("\n")[0]
    assert hint.endswith("--transcripts runs/replay")
    assert "--seeds 4 --grid rounds=300 --grid adversary.margin=0.05" in hint
    # the hint's sweep plays the same game: its transcript's updates are those reported
    args = [*hint.split()[3:-2], "--workers", "1", "--transcripts", str(tmp_path / "replay")]
    assert main(args) == 1
    kept = game.Transcript.load(tmp_path / "replay" / "point-0-seed-4.jsonl")
    assert f"updates = {kept.observed('updates')} > 2" in printed


def test_a_piped_sweep_shows_progress_only_when_asked():
    def stderr(*extra):
        command = [sys.executable, "-m", "game", "sweep", str(SEPARABLE), "--seeds", "0:3"]
        done = subprocess.run(
            [*command, "--workers", "1", "--grid", "rounds=50", *extra],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        return done.stderr

    assert stderr() == ""
    assert "games" in stderr("--progress")
    assert stderr("--quiet") == ""
