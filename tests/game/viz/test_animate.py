"""Animations of games: read back from the file (frames, size, pixels) for every kind.

Small games, low dpi and few frames keep each test quick.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from game import GameError, ParameterError, load_scenario, play
from game.viz import ANIMATION_KINDS
from game.viz.animations import animate, animations_for, frame_rounds
from game.viz.animations._halving import HalvingScene
from game.viz.animations._perceptron import weights_after
from game.viz.animations._weights import WeightsScene
from learners import Perceptron

pytest.importorskip("matplotlib")
Image = pytest.importorskip("PIL.Image")

DPI = 30


def frames(path: Path) -> list[np.ndarray]:
    """Every frame of a GIF, as RGB arrays."""
    out = []
    with Image.open(path) as image:
        for i in range(image.n_frames):
            image.seek(i)
            out.append(np.asarray(image.convert("RGB"), dtype=np.int16))
    return out


def check_file(path: Path, count: int, size: tuple[int, int]) -> list[np.ndarray]:
    """The GIF has ``count`` frames of ``size`` pixels, and its first and last differ."""
    with Image.open(path) as image:
        assert image.n_frames == count
        assert image.size == size
    shown = frames(path)
    assert np.abs(shown[0] - shown[-1]).sum() > 0
    return shown


@pytest.fixture(scope="module")
def perceptron_2d():
    stream = SeparableStream(dimension=2, margin=0.1, radius=1.0, rng=np.random.default_rng(3))
    return play(Perceptron(), stream, rounds=40, snapshots=True)


def test_the_perceptron_line_turns(tmp_path, perceptron_2d):
    out = animate(perceptron_2d, tmp_path / "p.gif", dpi=DPI, max_frames=4)
    assert out == tmp_path / "p.gif"
    assert animations_for(perceptron_2d) == ["perceptron"]
    check_file(out, 4, (round(6.4 * DPI), round(5.0 * DPI)))
    assert not list(tmp_path.glob(".*partial*"))  # the temporary file is gone


def test_the_line_replayed_from_the_updates_is_the_snapshots(perceptron_2d):
    logged, source = weights_after(perceptron_2d)
    assert "snapshots" in source
    bare = perceptron_2d.copy()
    bare.snapshots, bare.initial_snapshot = None, None
    replayed, source = weights_after(bare)
    assert "updates" in source
    np.testing.assert_allclose(replayed, logged)
    assert (np.abs(logged[-1]) > 0).any()  # the line turned away from w = 0


def test_halving_experts_shrink(tmp_path):
    game = load_scenario("halving_lower_bound").play(check=False)
    out = animate(game, tmp_path / "h.gif", kind="halving", dpi=DPI, max_frames=3)
    check_file(out, 3, (round(9.6 * DPI), round(3.6 * DPI)))
    scene = HalvingScene(game)
    assert scene.alive[0] == 1024
    logged = np.asarray(game.snapshots["consistent"])
    np.testing.assert_array_equal(scene.alive[1:], logged)  # the learner's |C_t|, recomputed


def test_the_walk_down_a_tree(tmp_path):
    game = load_scenario("tree_halving").play(check=False)
    assert "tree" in animations_for(game)
    out = animate(game, tmp_path / "t.gif", kind="tree", dpi=DPI, max_frames=3)
    with Image.open(out) as image:
        assert image.n_frames == 3
    check_file(out, 3, Image.open(out).size)


@pytest.mark.parametrize(
    ("scenario", "checked"),
    [
        ("weighted_majority_replay", "log2_weight"),
        ("regret_forcing_exponential_weights", "potential"),
    ],
)
def test_weights_recomputed_agree_with_the_learner(tmp_path, scenario, checked):
    game = load_scenario(scenario).play(snapshots=True, check=False)
    assert checked in game.snapshots
    scene = WeightsScene(game)
    assert scene.checked is True
    np.testing.assert_allclose(scene.share.sum(axis=1), 1.0)
    out = animate(game, tmp_path / "w.gif", kind="weights", dpi=DPI, max_frames=3)
    check_file(out, 3, (round(8.0 * DPI), round(3.8 * DPI)))


def test_a_wrong_potential_is_noticed():
    game = load_scenario("weighted_majority_replay").play(snapshots=True, check=False)
    game.snapshots["log2_weight"] = list(np.asarray(game.snapshots["log2_weight"]) + 1.0)
    assert WeightsScene(game).checked is False


def test_without_out_the_animation_is_returned(perceptron_2d):
    from matplotlib.animation import FuncAnimation

    anim = animate(perceptron_2d, dpi=DPI, max_frames=3)
    assert isinstance(anim, FuncAnimation)
    anim._draw_was_started = True  # never shown: no warning about it


def test_a_game_no_animation_fits():
    game = play(Perceptron(), Replay(instances=np.eye(3), labels=[1, -1, 1]), rounds=3)
    assert animations_for(game) == []
    with pytest.raises(GameError, match="no animation fits this game; expected one of"):
        animate(game)
    with pytest.raises(GameError, match=r"the perceptron animation needs .* dimension 2"):
        animate(game, kind="perceptron")


def test_a_kind_that_does_not_fit_names_what_fits(perceptron_2d):
    with pytest.raises(
        GameError, match=r"the halving animation needs .*; this one has: perceptron"
    ):
        animate(perceptron_2d, kind="halving")


def test_bad_arguments(tmp_path, perceptron_2d):
    with pytest.raises(ParameterError, match="kind must be one of"):
        animate(perceptron_2d, kind="movie")
    with pytest.raises(ParameterError, match=r"out must be a \.gif or \.mp4 file"):
        animate(perceptron_2d, tmp_path / "a.png")
    with pytest.raises(ParameterError, match="fps"):
        animate(perceptron_2d, tmp_path / "a.gif", fps=0)
    with pytest.raises(ParameterError, match="max_frames"):
        animate(perceptron_2d, tmp_path / "a.gif", max_frames=1)
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(shutil.which("ffmpeg") is not None, reason="ffmpeg is installed")
def test_mp4_without_ffmpeg_says_so(tmp_path, perceptron_2d):
    with pytest.raises(ParameterError, match=r"out must be a \.gif file.*MP4 needs ffmpeg"):
        animate(perceptron_2d, tmp_path / "a.mp4")


@given(st.integers(0, 5000), st.integers(2, 200))
def test_frames_sample_the_rounds(rounds, most):
    shown = frame_rounds(rounds, most)
    assert shown[0] == 0 and shown[-1] == rounds
    assert len(shown) <= most
    assert shown == sorted(set(shown))
    if rounds + 1 <= most:
        assert len(shown) == rounds + 1


def test_every_kind_is_named():
    assert ANIMATION_KINDS == ("perceptron", "halving", "tree", "weights")
