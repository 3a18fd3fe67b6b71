"""The animation of a game: frames sampled from its rounds, written as GIF or MP4.

Every kind of animation is a *scene* (one per private module of this package):
it draws its figure once, then shows the game after k rounds for each frame.
:func:`animate` picks the scene, samples the rounds (:func:`frame_rounds`),
runs :class:`matplotlib.animation.FuncAnimation` over them and writes the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from game.errors import (
    GameError,
    ParameterError,
    check_choice,
    check_instance,
    check_integer,
    check_real,
)
from game.viz._figure_kinds import ANIMATION_FORMATS, ANIMATION_KINDS
from game.viz.animations._halving import HalvingScene
from game.viz.animations._kinds import NEEDS, animations_for, check_fits
from game.viz.animations._perceptron import PerceptronScene
from game.viz.animations._tree import TreeScene
from game.viz.animations._weights import WeightsScene
from game.viz.plots import require_matplotlib

__all__ = ["animate", "frame_rounds"]


def frame_rounds(rounds: int, max_frames: int = 60) -> list[int]:
    """The rounds shown, one per frame: 0 (before round 1) to ``rounds``, at most ``max_frames``.

    A game of fewer than ``max_frames`` rounds shows every round; a longer one
    shows rounds evenly spaced from 0 to its last (always both).

    Examples
    --------
    >>> frame_rounds(3)
    [0, 1, 2, 3]
    >>> frame_rounds(1000, max_frames=5)
    [0, 250, 500, 750, 1000]
    """
    rounds = check_integer("rounds", rounds, low=0)
    max_frames = check_integer("max_frames", max_frames, low=2)
    if rounds + 1 <= max_frames:
        return list(range(rounds + 1))
    return sorted({int(v) for v in np.rint(np.linspace(0, rounds, max_frames))})


#: The scene of each kind of animation.
SCENES = {
    "perceptron": PerceptronScene,
    "halving": HalvingScene,
    "tree": TreeScene,
    "weights": WeightsScene,
}


def _check_out(out: Any) -> tuple[Path, str] | None:
    if out is None:
        return None
    check_instance("out", out, (str, os.PathLike), "a path (str or os.PathLike)")
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in ANIMATION_FORMATS:
        raise ParameterError("out", os.fspath(out), "a .gif or .mp4 file")
    from matplotlib import animation

    writer = ANIMATION_FORMATS[suffix]
    if not animation.writers.is_available(writer):
        if writer == "ffmpeg":
            raise ParameterError(
                "out", os.fspath(out), "a .gif file", "MP4 needs ffmpeg, which is not installed"
            )
        raise ParameterError("out", os.fspath(out), "a .mp4 file", "GIF needs Pillow")
    if path.is_dir():
        raise ParameterError("out", os.fspath(out), "a file, not a folder")
    return path, writer


def animate(
    transcript,
    out: str | os.PathLike | None = None,
    *,
    kind: str | None = None,
    fps: float = 4,
    dpi: int = 80,
    max_frames: int = 60,
):
    """An animation of a game: the game after each sampled round, one frame each.

    The kinds (:data:`ANIMATION_KINDS`; :func:`animations_for` says which fit):

    - ``"perceptron"``: 2-D instances, the points so far coloured by label,
      mistakes ringed, the current separating line w·x = 0 turning (w from the
      learner's snapshots when they were logged, else rebuilt from the
      recorded updates by the Perceptron's rule w += y·x), and the target u of
      the certificate, dashed, when it names a halfspace;
    - ``"halving"``: the experts (or the class's hypotheses) as a grid, alive
      or eliminated, beside ``|C_t|`` against the bound N·2^(−mistakes) on a
      log₂ scale;
    - ``"tree"``: the Littlestone tree the adversary walked, the path so far
      highlighted frame by frame (drawn as the ``tree`` figure);
    - ``"weights"``: the experts' normalised weights as bars, recomputed from
      the recorded advice and labels with the learner's recorded parameters
      (β, or η) so the referee's record, not the learner, decides them;
      checked against the learner's logged potential when snapshots were logged.

    Parameters
    ----------
    transcript : Transcript
        The game.
    out : path-like, optional
        Write the animation here: ``.gif`` (Pillow) or ``.mp4`` (ffmpeg, only
        when it is installed). The file is written beside ``out`` under a
        temporary name and renamed when complete, replacing an existing file.
        None writes nothing.
    kind : str, optional
        One of :data:`ANIMATION_KINDS`; default the first that fits.
    fps : float, default 4
        Frames per second.
    dpi : int, default 80
        Dots per inch; the frame's size in pixels is the figure's size in
        inches times ``dpi``.
    max_frames : int, default 60
        The most frames: a longer game is shown at evenly spaced rounds
        (:func:`frame_rounds`), always from before round 1 to its last round.

    Returns
    -------
    pathlib.Path or matplotlib.animation.FuncAnimation
        With ``out``, the file written (each frame drawn once, straight into
        the writer). Without, the animation, to show (``anim.to_jshtml()``
        in Jupyter) or save (``anim.save(...)``): keep a reference to it
        until then, as matplotlib asks.

    Raises
    ------
    GameError
        For a transcript no animation fits, or one ``kind`` does not fit,
        saying what it needs.
    ParameterError
        For a bad ``kind``, ``fps``, ``dpi``, ``max_frames`` or ``out`` (not
        ``.gif`` or ``.mp4``; ``.mp4`` without ffmpeg).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> from game import load_scenario
    >>> from game.viz.animations import animate
    >>> game = load_scenario("halving_lower_bound").play()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     gif = pathlib.Path(folder) / "halving.gif"
    ...     written = animate(game, gif, dpi=40)
    ...     with Image.open(written) as image:
    ...         print(image.n_frames, image.size)
    11 (384, 144)
    """
    if kind is None:  # the game and the arguments are judged first, with or without matplotlib
        fitting = animations_for(transcript)
        if not fitting:
            raise GameError(
                "no animation fits this game; expected one of: "
                + "; ".join(f"{k}: {need}" for k, need in NEEDS.items())
            )
        kind = fitting[0]
    kind = check_choice("kind", kind, ANIMATION_KINDS)
    fps = _check_fps(fps)
    dpi = check_integer("dpi", dpi, low=10, high=600)
    max_frames = check_integer("max_frames", max_frames, low=2)
    check_fits(transcript, kind)
    require_matplotlib()
    target = _check_out(out)
    from matplotlib import animation
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    rounds = frame_rounds(len(transcript), max_frames)
    scene = SCENES[kind](transcript)
    fig = scene.figure()
    fig.set_dpi(dpi)
    FigureCanvasAgg(fig)
    scene.draw(rounds[-1])  # the layout is settled on the fullest frame, then kept
    fig.canvas.draw()
    fig.set_layout_engine("none")

    if target is not None:
        _write(scene, rounds, *target, fps=fps, dpi=dpi)
        return target[0]

    def update(i: int):
        scene.draw(rounds[i])
        return []

    return animation.FuncAnimation(
        fig, update, frames=len(rounds), interval=1000.0 / fps, blit=False, repeat=True
    )


def _check_fps(fps: Any) -> float:
    return check_real("fps", fps, low=0.1, high=100.0)


def _write(scene: Any, rounds: list[int], path: Path, writer: str, *, fps: float, dpi: int) -> None:
    """Write the frames to ``path`` through a temporary file beside it, renamed when complete.

    Each frame is drawn once, straight into the writer (``Animation.save``
    would draw it twice).
    """
    from matplotlib import animation

    make = animation.PillowWriter if writer == "pillow" else animation.FFMpegWriter
    partial = path.with_name(f".{path.stem}.partial{path.suffix}")
    movie = make(fps=fps)
    try:
        with movie.saving(scene.fig, partial, dpi):
            for k in rounds:
                scene.draw(k)
                movie.grab_frame()
        os.replace(partial, path)
    except OSError as exc:
        raise GameError(f"{path}: cannot write the animation: {exc.strerror or exc}") from None
    finally:
        if partial.exists():
            partial.unlink()
