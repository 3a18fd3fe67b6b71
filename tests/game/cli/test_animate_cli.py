"""``python -m game animate``: the file read back, and bad input as one line with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main

pytest.importorskip("matplotlib")
Image = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parents[3]
HALVING = ROOT / "scenarios" / "halving_lower_bound.toml"
CONJUNCTION = ROOT / "scenarios" / "conjunction_lower_bound.toml"


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def halving(tmp_path):
    assert main(["run", str(HALVING), "--out", "h.jsonl", "--quiet"]) == 0
    return tmp_path / "h.jsonl"


def test_animate_writes_a_gif_beside_the_transcript(halving, capsys):
    capsys.readouterr()
    assert main(["animate", str(halving), "--max-frames", "3", "--dpi", "30"]) == 0
    gif = halving.with_name("h-halving.gif")
    assert capsys.readouterr().out.strip() == f"animation written to {gif}"
    with Image.open(gif) as image:
        assert image.n_frames == 3
        assert image.size == (round(9.6 * 30), round(3.6 * 30))


def test_animate_refuses_what_it_should(halving, tmp_path, capsys):
    taken = tmp_path / "taken.gif"
    taken.write_bytes(b"keep me")
    cases = [
        (["--out", str(taken)], "taken.gif: the file exists; pass --force to overwrite it"),
        (["--out", "a.png"], "--out a.png: expected a .gif or .mp4 file"),
        (["--out", str(halving)], "expected a .gif or .mp4 file"),
        (["--kind", "tree"], "the tree animation needs a game against an adversary that walks"),
        (["--max-frames", "1"], "max_frames must be"),
        (["--fps", "0"], "fps must be"),
    ]
    for extra, expected in cases:
        capsys.readouterr()
        assert main(["animate", str(halving), *extra]) == 2, extra
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("error: ") and expected in err, (extra, err)
        assert "Traceback" not in err
    assert taken.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "taken.gif"]


def test_a_game_no_animation_fits_is_one_line(tmp_path, capsys):
    assert main(["run", str(CONJUNCTION), "--out", "c.jsonl", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["animate", "c.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: c.jsonl: no animation fits this game of conjunction-learner")
    assert len(err.strip().splitlines()) == 1


def test_a_missing_transcript(capsys):
    assert main(["animate", "nowhere.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nowhere.jsonl" in err
