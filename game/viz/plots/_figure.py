"""Figures without pyplot: a fresh :class:`matplotlib.figure.Figure`, saved or encoded.

Every plotting function of :mod:`game.viz.plots` draws on a ``Figure`` made here and
returns it; nothing touches pyplot's global state and nothing calls ``show()``,
so figures are safe in scripts, servers and tests alike. The figures are
``GameFigure`` objects (:mod:`game.viz.plots._display`), which a Jupyter cell
displays as a PNG image with or without pyplot.

matplotlib is the optional extra ``plot``; without it every function here
raises a :class:`~game.errors.GameError` that says how to install it. It is
imported inside functions only (with ``_display``, the module that wraps it),
so this module imports without it.

Examples
--------
>>> fig, (ax,) = new_figure()
>>> _ = ax.plot([1, 2, 3], [1, 4, 9])
>>> figure_bytes(fig)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import os
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from game.errors import GameError, ParameterError, check_choice, check_instance, check_positive

__all__ = [
    "FORMATS",
    "caption",
    "figure_bytes",
    "game_title",
    "new_figure",
    "require_matplotlib",
    "save_figure",
    "thin",
]

#: File suffixes :func:`save_figure` writes, with matplotlib's format names.
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

#: The most points a line keeps (see :func:`thin`).
MAX_POINTS = 4000


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, or a :class:`GameError` saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise GameError(
            "figures need matplotlib: pip install 'online-learning-games[plot]'"
        ) from None
    return matplotlib


def new_figure(
    rows: int = 1, cols: int = 1, *, width: float = 6.4, height: float = 3.6, sharex: bool = False
):
    """A new figure of ``rows × cols`` axes, with a constrained layout.

    Parameters
    ----------
    rows, cols : int
        The grid of axes.
    width : float
        Inches.
    height : float
        Inches per row.
    sharex : bool
        Share the x axis between rows.

    Returns
    -------
    (Figure, list of Axes)
        The axes in reading order.
    """
    require_matplotlib()
    from game.viz.plots._display import GameFigure  # imports matplotlib: the optional extra

    fig = GameFigure(figsize=(width, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharex=sharex)
    return fig, list(axes.ravel())


def save_figure(fig, path: str | os.PathLike, *, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (.png, .svg or .pdf, chosen by the suffix); its folder is made.

    Raises
    ------
    ParameterError
        For a path that is not one or has another suffix, a resolution that
        is not a number > 0.
    GameError
        When the file cannot be written.
    """
    check_instance("path", path, (str, os.PathLike), "a path (str or os.PathLike)")
    check_positive("dpi", dpi)
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ParameterError(
            "path", str(path), f"a file name ending in {', '.join(FORMATS)} (the figure's format)"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format=fmt, dpi=dpi)
    except OSError as exc:
        raise GameError(f"{path}: cannot write the figure: {exc.strerror or exc}") from None
    return path


def figure_bytes(fig, fmt: str = "png", *, dpi: int = 100) -> bytes:
    """``fig`` encoded as PNG (or SVG, PDF) bytes, for embedding.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    fmt : {"png", "svg", "pdf"}
        The encoding.
    dpi : int
        The resolution, > 0.

    Raises
    ------
    ParameterError
        For another format or a resolution that is not a number > 0.
    """
    fmt = check_choice("fmt", fmt, FORMATS.values())
    check_positive("dpi", dpi)
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()


def caption(ax, lines, *, width: int = 130) -> None:
    """Small print under ``ax``: each of ``lines`` wrapped at ``width`` characters."""
    text = "\n".join(textwrap.fill(line, width) for line in lines if line)
    if text:
        ax.annotate(
            text,
            xy=(0, 0),
            xycoords="axes fraction",
            xytext=(0, -34),
            textcoords="offset points",
            va="top",
            fontsize=6,
        )


def game_title(transcript) -> str:
    """``"learner vs adversary"`` from a transcript's header."""
    header = transcript.header
    learner = (header.get("learner") or {}).get("name", "learner")
    adversary = (header.get("adversary") or {}).get("name", "adversary")
    return f"{learner} vs {adversary}"


def thin(n: int, limit: int = MAX_POINTS) -> np.ndarray:
    """Indices into a column of ``n`` points keeping at most about ``limit``, first and last kept.

    Long games are drawn from evenly spaced rounds: a cumulative count changes
    little between two of them, and a figure of a million-round game stays light.

    Examples
    --------
    >>> thin(5).tolist()
    [0, 1, 2, 3, 4]
    >>> idx = thin(10**6, 100)
    >>> len(idx) <= 101, int(idx[0]), int(idx[-1])
    (True, 0, 999999)
    """
    if n <= limit:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, limit).round().astype(np.int64))
