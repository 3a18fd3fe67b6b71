"""The command line's progress: ``run --progress`` shows the game's rounds, then its end."""

import re

import game.engine as engine
from game.cli import main


def test_run_with_progress_shows_each_step_of_the_games_end(monkeypatch, capsys):
    monkeypatch.setattr(engine, "BAR_DELAY", 0.0)
    assert main(["run", "perceptron-separable", "--no-out", "--progress", "--rounds", "300"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0].startswith("perceptron_separable") and "300/300 rounds" in lines[0]
    marks = [re.match(r"([✓✗]) (.+?) +\d+\.\d s", line).groups() for line in lines[1:]]
    assert marks == [
        ("✓", "checking the instances"),
        ("✓", "verifying the certificate"),
        ("✓", "computing the bounds"),
        ("✓", "computing the digest"),
    ]
    assert "sha256:" in captured.out  # the summary, printed after the display ended


def test_run_quiet_shows_nothing_even_when_progress_is_due(monkeypatch, capsys):
    monkeypatch.setattr(engine, "BAR_DELAY", 0.0)
    assert main(["run", "perceptron-separable", "--no-out", "--quiet", "--rounds", "300"]) == 0
    assert capsys.readouterr().err == ""
