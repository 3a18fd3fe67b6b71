"""The command line keeps what it wrote: signals, overwrites, inputs, a full disk, two writers.

These drive ``python -m game`` in subprocesses, as a user or a scheduler would:
SIGTERM, SIGHUP and SIGINT stop a long game between rounds with the footer
marked aborted and exit 128 + the signal; an existing file is replaced only with
``--force`` and a file the run reads never; ``--out /dev/full`` is one line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game import Transcript
from game.cli import main

ROOT = Path(__file__).resolve().parents[3]

LONG = """\
description = "a game long enough to be stopped"
rounds = 100000000
seed = 3

[learner]
name = "perceptron"

[adversary]
name = "separable-stream"
dimension = 4
margin = 0.05
"""

SMALL = LONG.replace("100000000", "200").replace("long enough to be stopped", "a small game")


def game(*args: object, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "game", *map(str, args)],
        cwd=kwargs.get("cwd", ROOT),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(proc: subprocess.Popen, timeout: float = 60) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def wait_for_rounds(folder: Path, name: str, proc: subprocess.Popen, lines: int = 300) -> None:
    """Wait until the game's temporary file holds ``lines`` lines."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        partial = next(iter(folder.glob(f"{name}.*.partial")), None)
        if partial is not None and partial.read_bytes().count(b"\n") > lines:
            return
        if proc.poll() is not None:
            pytest.fail(f"the game ended by itself: {proc.communicate()}")
        time.sleep(0.02)
    pytest.fail(f"the game wrote fewer than {lines} lines in 60 s")


@pytest.fixture
def long_scenario(tmp_path) -> Path:
    path = tmp_path / "long.toml"
    path.write_text(LONG, encoding="utf-8")
    return path


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("signum", "status"),
    [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)],
)
def test_a_signal_stops_the_game_keeping_every_round(tmp_path, long_scenario, signum, status):
    out = tmp_path / "long.jsonl"
    proc = game("run", long_scenario, "--out", out, "--quiet")
    try:
        wait_for_rounds(tmp_path, "long.jsonl", proc)
        proc.send_signal(signum)
        code, _, err = finished(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    name = signal.Signals(signum).name
    assert code == status
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith(f"interrupted by {name}; the transcript keeps the ")
    assert err.strip().endswith(f"complete rounds, marked aborted: {out}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.jsonl", "long.toml"]
    back = Transcript.load(out)  # a footer: no allow_incomplete needed
    assert back.status == "aborted" and back.reason == f"interrupted by {name}"
    assert len(back) >= 300 and f"keeps the {len(back)} complete rounds" in err
    lines = out.read_text(encoding="utf-8").splitlines()
    rounds = [json.loads(line) for line in lines[1:-1]]
    assert [r["t"] for r in rounds] == list(range(1, len(back) + 1))
    assert json.loads(lines[-1])["rounds"] == len(back)


def test_a_died_run_needs_allow_incomplete_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "died.jsonl"
    assert main(["run", str(ROOT / "scenarios" / "perceptron_separable.toml"),
                 "--out", str(path), "--rounds", "20", "--quiet"]) == 0  # fmt: skip
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # the footer lost
    capsys.readouterr()
    for command in (["replay", str(path)], ["plot", str(path), "--out", "f.png"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "pass --allow-incomplete to keep its 20 complete rounds" in err
        assert "allow_incomplete=True" not in err


def test_plot_allow_incomplete_draws_the_complete_rounds(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "died.jsonl"
    main(["run", str(ROOT / "scenarios" / "perceptron_separable.toml"), "--out", str(path),
          "--rounds", "20", "--quiet"])  # fmt: skip
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    figure = tmp_path / "f.png"
    assert main(["plot", str(path), "--out", str(figure), "--allow-incomplete"]) == 0
    assert figure.stat().st_size > 0


# -- overwrites ---------------------------------------------------------------------------


def test_run_refuses_an_existing_out_and_force_replaces_it(tmp_path, small, capsys):
    out = tmp_path / "t.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    assert main(["run", str(small), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: --out {out}: the file exists; pass --force to overwrite it\n"
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert main(["run", str(small), "--out", str(out), "--quiet", "--force"]) == 0
    assert len(Transcript.load(out)) == 200


def test_run_never_writes_over_its_own_scenario(tmp_path, small, capsys):
    before = small.read_bytes()
    assert main(["run", str(small), "--out", str(small), "--force", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --out {small}: is read by this run")
    assert "\n" not in err.rstrip("\n") and small.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.toml"]


def test_run_never_writes_over_the_transcript_its_scenario_replays(tmp_path, capsys):
    recorded = tmp_path / "t.jsonl"
    assert main(["run", str(ROOT / "scenarios" / "perceptron_separable.toml"),
                 "--out", str(recorded), "--rounds", "50", "--quiet"]) == 0  # fmt: skip
    replay = tmp_path / "r.toml"
    replay.write_text(
        'rounds = 50\n[learner]\nname = "perceptron"\n'
        '[adversary]\nname = "replay"\ntranscript = "t.jsonl"\n',
        encoding="utf-8",
    )
    before = recorded.read_bytes()
    capsys.readouterr()
    for force in ([], ["--force"]):
        argv = ["run", str(replay), "--out", str(recorded), "--rounds", "5", "--quiet", *force]
        assert main(argv) == 2
        assert "is read by this run" in capsys.readouterr().err
    assert recorded.read_bytes() == before


def test_run_plot_refuses_an_existing_figure(tmp_path, small, capsys):
    figure = tmp_path / "f.png"
    figure.write_bytes(b"not yours")
    argv = ["run", str(small), "--no-out", "--plot", str(figure), "--quiet"]
    assert main(argv) == 2
    assert f"--plot {figure}: the file exists" in capsys.readouterr().err
    assert figure.read_bytes() == b"not yours"


def test_plot_refuses_an_existing_figure_and_its_own_transcript(tmp_path, small, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["run", str(small), "--out", str(out), "--quiet"]) == 0
    before = out.read_bytes()
    figure = tmp_path / "f.png"
    figure.write_bytes(b"not yours")
    capsys.readouterr()
    assert main(["plot", str(out), "--out", str(figure)]) == 2
    assert "the file exists; pass --force" in capsys.readouterr().err
    assert main(["plot", str(out), "--out", str(out), "--force"]) == 2
    assert "is read by this run" in capsys.readouterr().err
    assert out.read_bytes() == before and figure.read_bytes() == b"not yours"


def test_report_refuses_an_existing_out_and_its_scenarios(tmp_path, small, capsys):
    page = tmp_path / "report.html"
    page.write_text("mine", encoding="utf-8")
    assert main(["report", str(tmp_path), "--out", str(page), "--quiet"]) == 2
    assert "the file exists; pass --force" in capsys.readouterr().err
    assert main(["report", str(tmp_path), "--out", str(small), "--force", "--quiet"]) == 2
    assert "is read by this run" in capsys.readouterr().err
    assert page.read_text(encoding="utf-8") == "mine" and small.read_text() == SMALL


def test_sweep_refuses_an_existing_out_before_any_game(tmp_path, small, capsys):
    out = tmp_path / "r.csv"
    out.write_text("mine", encoding="utf-8")
    assert main(["sweep", str(small), "--seeds", "0:2", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: --out {out}: the file exists; pass --force to overwrite it\n"
    assert captured.out == "" and out.read_text(encoding="utf-8") == "mine"
    assert main(["sweep", str(small), "--seeds", "0:2", "--out", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("seed,")


# -- a full disk, two writers ---------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_out_dev_full_is_one_line_exit_2(small):
    code, _, err = finished(game("run", small, "--out", "/dev/full", "--quiet"))
    assert code == 2 and "Traceback" not in err
    assert err == "error: /dev/full: the disk is full; nothing of the transcript was written\n"


def test_two_runs_writing_one_out_never_mix(tmp_path, long_scenario):
    """The first to end takes the name; the other says so and keeps its own file."""
    scenario = tmp_path / "mid.toml"
    scenario.write_text(LONG.replace("100000000", "20000"), encoding="utf-8")
    out = tmp_path / "t.jsonl"
    procs = [game("run", scenario, "--out", out, "--quiet", "--seed", s) for s in (1, 2)]
    results = [finished(proc) for proc in procs]
    assert sorted(code for code, _, _ in results) == [0, 2]
    written = [o for _, o, _ in results if f"transcript written to {out}" in o]
    assert len(written) == 1
    # the other saw the first's file: refused before its game, or at the rename
    (err,) = [e for code, _, e in results if code == 2]
    assert f"{out}: the file exists" in err and len(err.strip().splitlines()) == 1
    back = Transcript.load(out)  # whole: its digest matches its rounds
    assert len(back) == 20000 and back.status == "complete"
