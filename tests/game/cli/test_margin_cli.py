"""``python -m game margin``: the best margin of a data file, and the Perceptrons' bounds.

Examples to paste::

    python -m game margin data.csv
    python -m game margin X.npy --labels y.npy --normalize
    python -m game margin scenarios/data/separable_stream.jsonl
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game import Transcript
from game.cli import main
from game.theory.solve import best_margin

ROOT = Path(__file__).resolve().parents[3]
STREAM = ROOT / "scenarios" / "data" / "separable_stream.jsonl"


def margin(*args, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "game", "margin", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env=env,
    )


def row(out: str, name: str) -> str:
    """The value column of the table row ``name``."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if cells and cells[0] == name:
            return cells[1]
    raise AssertionError(f"no row {name!r} in\n{out}")


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    u = np.array([1.0, -2.0, 0.5, 0.0, 1.0])
    X = X[np.abs(X @ u) > 0.5]
    y = np.where(X @ u > 0, 1, -1)
    return X, y


def test_a_csv_with_labels_in_its_last_column(tmp_path, data):
    X, y = data
    path = tmp_path / "data.csv"
    np.savetxt(path, np.column_stack([X, y]), delimiter=",")
    done = margin(path)
    assert done.returncode == 0, done.stderr
    expected = best_margin(np.loadtxt(path, delimiter=",")[:, :-1], y)
    low, high = numbers(row(done.stdout, "γ*"))[:2]
    assert math.isclose(low, expected.margin_low, rel_tol=1e-9)
    assert math.isclose(high, expected.margin_high, rel_tol=1e-9) and low <= high
    assert row(done.stdout, "separable") == "yes, through the origin"
    r = numbers(row(done.stdout, "R = max ‖x‖"))[0]
    assert math.isclose(r, expected.radius, rel_tol=1e-5)
    novikoff = numbers(row(done.stdout, "Block–Novikoff (R/γ)²"))[0]
    assert math.isclose(novikoff, (expected.radius / expected.margin_low) ** 2, rel_tol=1e-5)
    batch = numbers(row(done.stdout, "Theorem 9.1 (RB)²"))[0]
    assert math.isclose(batch, (expected.radius * expected.b_high) ** 2, rel_tol=1e-5)
    assert "in dimension 5" in row(done.stdout, "separator u")
    assert f"{len(y):,} × 5" in row(done.stdout, "examples")


def test_npy_with_a_labels_file_and_normalize(tmp_path, data):
    X, y = data
    np.save(tmp_path / "X.npy", X)
    np.savetxt(tmp_path / "y.csv", y, delimiter=",")
    done = margin("X.npy", "--labels", "y.csv", "--normalize", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    unit = X / np.linalg.norm(X, axis=1)[:, None]
    expected = best_margin(unit, y)
    low = numbers(row(done.stdout, "γ*"))[0]
    assert math.isclose(low, expected.margin_low, rel_tol=1e-9)
    assert numbers(row(done.stdout, "R = max ‖x‖"))[0] == pytest.approx(1.0)
    assert "rows scaled to unit length" in row(done.stdout, "examples")


def test_a_transcript(tmp_path):
    done = margin(STREAM)
    assert done.returncode == 0, done.stderr
    tr = Transcript.load(STREAM)
    expected = best_margin(tr.instances, tr.labels)
    assert math.isclose(numbers(row(done.stdout, "γ*"))[0], expected.margin_low, rel_tol=1e-9)
    assert "the transcript's rounds" in row(done.stdout, "examples")
    # the transcript's own certificate (the stream's direction) has a smaller margin
    assert tr.certificate.margin(tr.instances, tr.labels) <= expected.margin_high


def test_data_that_do_not_separate(tmp_path):
    path = tmp_path / "xor.csv"
    path.write_text("1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    done = margin(path)
    assert done.returncode == 0, done.stderr
    assert "0 is in the convex hull" in row(done.stdout, "separable")
    assert row(done.stdout, "bounds").startswith("none")


def test_help_says_where_the_labels_are():
    done = subprocess.run(
        [sys.executable, "-m", "game", "margin", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0
    assert "last column" in done.stdout and "--labels" in done.stdout


BAD = [
    ({}, ["missing.csv"], "missing.csv: no such file"),
    ({"d.txt": "1,2,1\n"}, ["d.txt"], "d.txt: a .txt file; expected a .npy or .csv"),
    ({"d.csv": "1,2,1\n3,4,0\n"}, ["d.csv"], "d.csv, last column: labels must be -1 or 1; "),
    ({"d.csv": "1\n-1\n"}, ["d.csv"], "d.csv: one column"),
    ({"d.csv": "1,2,1\n3,nan,1\n"}, ["d.csv"], "d.csv: row 2, column 2: not finite"),
    ({"d.csv": "1,2,1\n3,x,1\n"}, ["d.csv"], "d.csv: row 2, column 2: not a number"),
    ({"d.csv": "1,2,1\n3,1\n"}, ["d.csv"], "d.csv: "),
    ({"d.csv": ""}, ["d.csv"], "d.csv: "),
    (
        {"d.csv": "1,2\n3,4\n", "y.csv": "1\n"},
        ["d.csv", "--labels", "y.csv"],
        "y.csv: expected one label per row of d.csv (2)",
    ),
    (
        {"d.csv": "1,2\n3,4\n", "y.csv": "1\n2\n"},
        ["d.csv", "--labels", "y.csv"],
        "y.csv: labels must be -1 or 1; row 2 is neither",
    ),
    (
        {"d.csv": "1,2\n3,4\n", "y.txt": "1\n1\n"},
        ["d.csv", "--labels", "y.txt"],
        "y.txt: a .txt file; expected a .npy or .csv vector",
    ),
    ({"t.jsonl": "not json\n"}, ["t.jsonl"], "t.jsonl"),
]


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text)


@pytest.mark.parametrize("case", [0, 2, 11])
def test_bad_files_from_the_command_line(tmp_path, case):
    files, args, message = BAD[case]
    write(tmp_path, files)
    done = margin(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("files", "args", "message"), BAD)
def test_bad_input_is_one_line_naming_the_file_and_status_2(
    tmp_path, monkeypatch, capsys, files, args, message
):
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    assert main(["margin", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1, captured.err
    assert message in captured.err and not captured.out


def test_a_transcript_takes_no_labels_file(tmp_path):
    (tmp_path / "y.csv").write_text("1\n")
    done = margin(STREAM, "--labels", tmp_path / "y.csv")
    assert done.returncode == 2 and "a transcript holds its labels" in done.stderr
