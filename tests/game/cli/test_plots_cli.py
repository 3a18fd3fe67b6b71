"""The command line's figures, report and progress bar; the engine's progress callback.

Examples to paste::

    python -m game run scenarios/halving_lower_bound.toml --plot halving.png
    python -m game plot runs/halving_lower_bound.jsonl --kind potential --out potential.svg
    python -m game report scenarios --out report.html
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from adversaries import SeparableStream
from game import GameError, Transcript, play
from game.cli import main
from game.cli._output import rounds_bar
from learners import Perceptron

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"
HALVING = SCENARIOS / "halving_lower_bound.toml"
PERCEPTRON = SCENARIOS / "perceptron_separable.toml"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    """A wide terminal for rich; runs/ lands in a fresh folder."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


# -- run --plot and plot ----------------------------------------------------------------------
def test_run_writes_the_figure_it_is_asked_for(tmp_path, capsys):
    assert main(["run", str(HALVING), "--plot", "h.png"]) == 0
    assert (tmp_path / "h.png").read_bytes().startswith(PNG)
    assert (
        main(["run", str(HALVING), "--no-out", "--plot", "p.svg", "--plot-kind", "potential"]) == 0
    )
    assert b"<svg" in (tmp_path / "p.svg").read_bytes()
    out = capsys.readouterr().out
    assert "figure written to h.png" in out and "figure written to p.svg" in out


@pytest.mark.parametrize("kind", ["mistakes", "regret", "potential"])
def test_plot_draws_a_transcript(tmp_path, kind):
    assert main(["run", str(HALVING), "--snapshots", "--out", "h.jsonl"]) == 0
    assert main(["plot", "h.jsonl", "--kind", kind, "--out", f"{kind}.png"]) == 0
    assert (tmp_path / f"{kind}.png").read_bytes().startswith(PNG)


def test_plot_names_its_file_after_the_transcript(tmp_path):
    assert main(["run", str(HALVING)]) == 0
    assert main(["plot", "runs/halving_lower_bound.jsonl"]) == 0
    assert (tmp_path / "runs" / "halving_lower_bound-mistakes.png").stat().st_size > 1000


def test_a_figure_of_the_wrong_kind_is_one_line_and_exit_2(capsys):
    assert main(["run", str(PERCEPTRON), "--rounds", "200", "--out", "p.jsonl"]) == 0
    capsys.readouterr()
    assert main(["plot", "p.jsonl", "--kind", "regret"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the regret figure needs a game of prediction with expert advice")
    assert err.count("\n") == 1
    assert main(["plot", "p.jsonl", "--kind", "potential"]) == 2
    assert "snapshots=True" in capsys.readouterr().err
    assert main(["plot", "p.jsonl", "--out", "p.gif"]) == 2
    assert main(["plot", "missing.jsonl"]) == 2


# -- report -----------------------------------------------------------------------------------
def test_report_command_writes_the_page(tmp_path, capsys):
    folder = tmp_path / "some"
    folder.mkdir()
    for name in ("halving_lower_bound.toml", "soa_thresholds.toml"):
        (folder / name).write_text((SCENARIOS / name).read_text(encoding="utf-8"), "utf-8")
    assert main(["report", str(folder), "--out", "r/report.html", "--figures", "mistakes"]) == 0
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "halving_lower_bound</h2>" in page and "soa_thresholds</h2>" in page
    assert page.count("data:image/png;base64,") == 2
    assert "report written to r" in capsys.readouterr().out
    assert main(["report", str(tmp_path / "nowhere")]) == 2


def test_python_m_game_report_in_a_subprocess(tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "h.toml").write_text(HALVING.read_text(encoding="utf-8"), "utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "report",
            str(folder),
            "--out",
            "out.html",
            "--format",
            "svg",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "<svg" in (tmp_path / "out.html").read_text(encoding="utf-8")
    assert "rounds/s" not in done.stderr  # not a terminal: no progress bar


# -- progress -----------------------------------------------------------------------------------
def test_play_reports_progress_and_ends_with_the_rounds_played(monkeypatch):
    import game.engine as engine

    monkeypatch.setattr(engine, "_PROGRESS_PERIOD", 0.0)  # report at every look at the clock
    calls = []
    stream = SeparableStream(3, 0.1, 1.0, np.random.default_rng(0))
    tr = play(Perceptron(), stream, rounds=1000, progress=lambda d, n: calls.append((d, n)))
    done = [d for d, _ in calls]
    assert calls[-1] == (1000, 1000) and {n for _, n in calls} == {1000}
    assert done == sorted(done) and len(calls) == 1000 // engine._PROGRESS_STRIDE + 1
    plain = play(Perceptron(), SeparableStream(3, 0.1, 1.0, np.random.default_rng(0)), rounds=1000)
    assert tr == plain  # the callback changes nothing in the game


def test_a_progress_callback_that_raises_stops_the_game_and_keeps_the_file(tmp_path):
    def boom(done, total):
        raise RuntimeError("no terminal")

    stream = SeparableStream(3, 0.1, 1.0, np.random.default_rng(0))
    with pytest.raises(GameError, match="progress callback raised RuntimeError"):
        play(Perceptron(), stream, rounds=50, progress=boom, out=tmp_path / "t.jsonl")
    assert len(Transcript.load(tmp_path / "t.jsonl")) == 50  # the game itself was complete


def test_the_bar_appears_only_when_asked_and_not_quiet():
    def args(**kw):
        return argparse.Namespace(quiet=kw.get("quiet", False), progress=kw.get("progress", False))

    assert not rounds_bar(args(), "x").enabled  # tests: standard error is not a terminal
    assert rounds_bar(args(progress=True), "x").enabled
    assert not rounds_bar(args(progress=True, quiet=True), "x").enabled


def test_run_quiet_and_not_a_terminal_print_no_bar(capsys):
    assert main(["run", str(PERCEPTRON), "--no-out", "--quiet"]) == 0
    assert main(["run", str(PERCEPTRON), "--no-out"]) == 0
    assert "rounds/s" not in capsys.readouterr().err
