"""Output that is not a terminal is never wrapped or cut; a terminal keeps its width.

The commands run in real processes with their output piped, ``COLUMNS=80``, on
scenarios copied under a folder whose absolute path is over 150 characters:
every name, parameter, title and path must come out whole, on one line.

Examples to paste::

    python -m game list | cat
    python -m game run scenarios/halving_lower_bound.toml --no-out | cat
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game import load_scenario
from game.players import _registry as reg
from game.testing import registered_checks
from game.theory.concepts import intervals

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"


@pytest.fixture
def deep(tmp_path) -> Path:
    """A folder whose absolute path is over 150 characters, holding two scenarios."""
    folder = tmp_path / ("a-checkout-" + "d" * 60) / ("nested-" + "e" * 60) / "scenarios"
    folder.mkdir(parents=True)
    assert len(str(folder.resolve())) > 150
    for name in ("halving_lower_bound.toml", "perceptron_separable.toml"):
        shutil.copy(SCENARIOS / name, folder / name)
    return folder


def piped(*argv, cwd: Path) -> list[str]:
    """``python -m game ARGV | cat`` at COLUMNS=80: the lines of standard output."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["COLUMNS"] = "80"
    done = subprocess.run(
        [sys.executable, "-m", "game", *map(str, argv)],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def cells(line: str) -> list[str]:
    """The cells of one row of a boxed table."""
    return [cell.strip() for cell in line.strip().strip("│").split("│")]


def test_list_prints_every_player_whole_on_one_line(deep):
    lines = piped("list", cwd=deep)
    rows = [cells(line) for line in lines if line.startswith("│")]
    assert [row[0] for row in rows] == reg.names()  # one line per player, every name whole
    for name, role, params, doc in rows:
        cls = reg.lookup(name)
        assert role == reg.role_of(cls)
        shown = params.split(", ")
        for p in reg.parameters(cls):
            text = (
                p["name"]
                if p["required"] or p["supplied"] == "rng"
                else f"{p['name']}={p['default']!r}"
            )
            if p["supplied"]:  # a parameter a scenario fills says so
                assert any(s.startswith(text + " (") for s in shown), (name, text)
            else:
                assert text in shown, (name, text)
        assert doc == (cls.__doc__ or "").strip().splitlines()[0]
    assert max(map(len, lines)) > 80


def test_run_prints_the_title_the_rows_and_the_transcript_path_whole(deep):
    scenario = deep / "halving_lower_bound.toml"
    out = deep / "runs" / "halving-lower-bound-with-a-long-name.jsonl"
    lines = piped("run", scenario, "--out", out, cwd=deep)
    loaded = load_scenario(scenario)
    assert lines[0].strip() == loaded.description
    rows = {cells(line)[0]: cells(line)[1] for line in lines if line.startswith("│")}
    assert rows["digest"] == loaded.expect["digest"]
    assert rows["lower bound"] == "mistakes ≥ 10  forced"
    assert f"transcript written to {out}" in lines
    assert lines[-1] == "every expectation holds"


def test_sweep_prints_its_title_caption_and_paths_whole(deep):
    scenario = deep / "perceptron_separable.toml"
    out = deep / "results-of-the-sweep.csv"
    lines = piped("sweep", scenario, "--seeds", "0:4", "--workers", "1", "--out", out, cwd=deep)
    assert f"{scenario}: 4 games" in lines
    assert f"results written to {out}" in lines
    caption = [line for line in lines if line.startswith("mean … max")]
    assert caption and caption[0].endswith("over: games over their bound")


def test_ldim_prints_the_tree_path_whole(deep):
    matrix = intervals(6).save(deep / "a-class-of-intervals.npy")
    tree = deep / "its-littlestone-tree.graphml"
    lines = piped("ldim", matrix, "--tree", tree, cwd=deep)
    assert lines[0].strip() == "a-class-of-intervals.npy"
    rows = {cells(line)[0]: cells(line)[1] for line in lines if line.startswith("│")}
    assert rows["tree"].endswith(f"nodes → {tree}")
    assert tree.is_file()


def test_selfcheck_prints_every_skipped_player_on_one_line(deep):
    (deep / "halving_lower_bound.toml").unlink()
    lines = piped("selfcheck", "--scenarios", deep, "--seconds", "0.2", cwd=deep)
    skipped = registered_checks(deep)[1]
    assert skipped  # one scenario cannot build every adversary
    for name, why in skipped.items():
        assert f"skipped {name}: {why}" in lines


def on_a_terminal(*argv, cwd: Path) -> list[str]:
    """``python -m game ARGV`` on an 80-column pseudo-terminal: the lines it shows."""
    import pty

    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(COLUMNS="80", NO_COLOR="1", TERM="dumb")
    with subprocess.Popen(
        [sys.executable, "-m", "game", *map(str, argv)],
        stdout=secondary, stderr=secondary, cwd=cwd, env=env,
    ) as process:  # fmt: skip
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the process closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=120) == 0
    os.close(primary)
    text = b"".join(chunks).decode()
    return [line for line in text.replace("\r\n", "\n").split("\n") if line]


terminal = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


@terminal
def test_a_terminal_keeps_its_width(deep):
    """On an 80-column terminal the summary is laid out in 80 columns, the digest folded."""
    scenario = deep / "halving_lower_bound.toml"
    lines = on_a_terminal("run", scenario, "--no-out", "--quiet", cwd=deep)
    assert max(len(line) for line in lines) == 80
    squeezed = "".join("".join(lines).split()).replace("│", "")
    assert load_scenario(scenario).expect["digest"] in squeezed
    assert sum("digest" in line for line in lines) == 1
    assert lines[-1] == "every expectation holds"


@terminal
def test_a_terminal_never_cuts_a_players_name(deep):
    lines = on_a_terminal("list", cwd=deep)
    assert max(len(line) for line in lines) <= 80
    first_cells = {cells(line)[0] for line in lines if line.startswith("│")}
    assert set(reg.names()) <= first_cells
