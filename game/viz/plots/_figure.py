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

Every figure is laid out here, in one place, for a lecture's back row:

- :func:`leave_room` sets every axes' limits with a margin on each side of
  everything drawn (data, bound lines), so a bound and the last point of a
  game lie strictly inside the frame, never on its edge;
- :func:`place_legend` puts the legend outside the axes, to their right, so it
  covers nothing;
- :func:`caption` writes the theorems' sources under the figure;
- no text is smaller than :data:`TEXT_PT` points.

:func:`finish` does all of it at the end of every plotting function.

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
import weakref
from pathlib import Path
from typing import Any

import numpy as np

from game.errors import GameError, ParameterError, check_choice, check_instance, check_positive

__all__ = [
    "FORMATS",
    "PAD",
    "TEXT_PT",
    "caption",
    "figure_bytes",
    "finish",
    "fit_height",
    "game_title",
    "leave_room",
    "new_figure",
    "place_legend",
    "require_matplotlib",
    "save_figure",
    "thin",
    "title_once",
]

#: File suffixes :func:`save_figure` writes, with matplotlib's format names.
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

#: The most points a line keeps (see :func:`thin`).
MAX_POINTS = 4000

#: The smallest text of a figure, in points: ticks, legends, captions, labels.
TEXT_PT = 9.0

#: The room :func:`leave_room` leaves on each side of what is drawn, as a
#: fraction of its span.
PAD = 0.05

#: Legend entries are wrapped at this many characters (the legend sits beside the axes).
LEGEND_CHARS = 34


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
    rows: int = 1, cols: int = 1, *, width: float = 8.0, height: float = 3.6, sharex: bool = False
):
    """A new figure of ``rows × cols`` axes, with a constrained layout.

    Parameters
    ----------
    rows, cols : int
        The grid of axes.
    width : float
        Inches (the legend sits to the right of the axes, inside this width).
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
    _ROWS[fig] = (rows, height)
    return fig, list(axes.ravel())


#: The rows of a figure made by :func:`new_figure`, and the height of each.
_ROWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: The height of one line of text, in inches.
_LINE = TEXT_PT * 1.3 / 72


def _legend_lines(ax) -> int:
    legend = ax.get_legend()
    if legend is None:
        return 0
    return sum(text.get_text().count("\n") + 1 for text in legend.get_texts())


def fit_height(fig) -> None:
    """Make a figure of :func:`new_figure` tall enough for its legends and its caption.

    Each row keeps its height unless the legend beside it needs more; the
    caption's lines are added below. Figures made elsewhere are left as they are.
    """
    if fig not in _ROWS:
        return
    rows, height = _ROWS[fig]
    per_row = dict.fromkeys(range(rows), height)
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        row = spec.rowspan.start if spec is not None else 0
        need = _legend_lines(ax) * _LINE + 0.9  # the entries, and the axis labels beside them
        per_row[row] = max(per_row.get(row, height), need)
    label = fig.get_supxlabel()
    lines = label.count("\n") + 1 if label else 0
    fig.set_figheight(sum(per_row.values()) + lines * _LINE)


def save_figure(fig, path: str | os.PathLike, *, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (.png, .svg or .pdf, chosen by the suffix); its folder is made.

    Raises
    ------
    ParameterError
        For a path that is not one or has another suffix, a resolution that
        is not a number > 0.
    GameError
        When the file cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> fig, (ax,) = new_figure()
    >>> _ = ax.plot([0, 1], [0, 1])
    >>> folder = Path(tempfile.mkdtemp())
    >>> [save_figure(fig, folder / f"line.{s}").stat().st_size > 0 for s in ("png", "svg", "pdf")]
    [True, True, True]
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


#: The caption's lines per figure, in the order they were first given.
_CAPTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def caption(ax, lines) -> None:
    """Small print under the figure of ``ax``: its lines, each once, wrapped to the figure's width.

    A figure has one caption; figures drawn into the same figure add their
    lines to it (a line already there is not repeated).
    """
    fig = ax.figure
    kept = _CAPTIONS.setdefault(fig, [])
    kept.extend(line for line in lines if line and line not in kept)
    if not kept:
        return
    width = max(40, int(fig.get_figwidth() * 72 / (TEXT_PT * 0.55)))
    text = "\n".join(textwrap.fill(line, width) for line in kept)
    fig.supxlabel(text, x=0.01, ha="left", multialignment="left", fontsize=TEXT_PT)


def game_title(transcript) -> str:
    """``"learner vs adversary"`` from a transcript's header."""
    header = transcript.header
    learner = (header.get("learner") or {}).get("name", "learner")
    adversary = (header.get("adversary") or {}).get("name", "adversary")
    return f"{learner} vs {adversary}"


def title_once(ax, title: str) -> None:
    """Title ``ax``, unless it has a title already (a figure drawn over holds its own)."""
    if not ax.get_title():
        ax.set_title(title)


def _finite(values, positive: bool) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64).ravel()
    keep = np.isfinite(values)
    if positive:
        keep &= values > 0
    return values[keep]


def _extent(ax) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Every coordinate drawn on ``ax`` in data units: (xs, ys).

    Lines count in the directions they are in data units (a bound drawn with
    ``axhline`` in y only); collections and patches by their data limits.
    """
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        in_x, in_y = line.get_transform().contains_branch_seperately(ax.transData)
        x, y = line.get_data()
        if in_x:
            xs.append(np.asarray(x, dtype=np.float64))
        if in_y:
            ys.append(np.asarray(y, dtype=np.float64))
    for artist in (*ax.collections, *ax.patches):
        if not artist.get_visible():
            continue
        if hasattr(artist, "get_datalim"):
            box = artist.get_datalim(ax.transData)
        else:
            box = artist.get_extents().transformed(ax.transData.inverted())
        if np.all(np.isfinite(box.get_points())) and box.width >= 0 and box.height >= 0:
            xs.append(np.asarray(box.intervalx, dtype=np.float64))
            ys.append(np.asarray(box.intervaly, dtype=np.float64))
    return xs, ys


def _limits(axis, values: list[np.ndarray], pad: float) -> tuple[float, float] | None:
    """The limits of one axis: what is drawn, plus ``pad`` of its span on each side.

    The margin is taken in the axis' own scale (a log axis gets a factor), so
    it looks the same on every scale.
    """
    scale = axis.get_scale()
    found = _finite(np.concatenate(values) if values else [], positive=scale == "log")
    if found.size == 0:
        return None
    forward = axis.get_transform()
    lo, hi = forward.transform(np.array([found.min(), found.max()]))
    span = hi - lo
    if span <= 0:
        span = abs(lo) if lo else 1.0
    lo, hi = lo - pad * span, hi + pad * span
    low, high = forward.inverted().transform(np.array([lo, hi]))
    return float(low), float(high)


def leave_room(ax, *, pad: float = PAD) -> None:
    """Fit the limits of ``ax`` to everything drawn on it, with ``pad`` of room on each side.

    Every line (a bound drawn across the axes too), collection and patch is
    inside the limits, none on the frame: the last point of a game and a bound
    level with it are both seen. Shared axes are fitted to what every axes
    sharing them holds.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> _ = ax.step([0, 10], [0, 20], where="post")
    >>> _ = ax.axhline(21)
    >>> leave_room(ax)
    >>> [round(float(v), 2) for v in (*ax.get_xlim(), *ax.get_ylim())]
    [-0.5, 10.5, -1.05, 22.05]
    """
    for axis, which in ((ax.xaxis, 0), (ax.yaxis, 1)):
        group = ax.get_shared_x_axes() if which == 0 else ax.get_shared_y_axes()
        values: list[np.ndarray] = []
        for member in group.get_siblings(ax):
            values.extend(_extent(member)[which])
        limits = _limits(axis, values, pad)
        if limits is not None:
            (ax.set_xlim if which == 0 else ax.set_ylim)(*limits)


def place_legend(ax) -> None:
    """The legend of ``ax`` beside it on the right, outside the frame, so it covers nothing.

    Entries are wrapped at :data:`LEGEND_CHARS` characters, in :data:`TEXT_PT`
    points; artists whose labels start with ``_`` are left out, as matplotlib
    does. Called again after more is drawn, it replaces the legend.
    """
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        return
    ax.legend(
        handles,
        [textwrap.fill(label, LEGEND_CHARS) for label in labels],
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        fontsize=TEXT_PT,
        frameon=False,
    )


def finish(ax, *, title: str | None = None, rounds: bool = True, legend: bool = True) -> None:
    """Lay out ``ax`` as every figure is: room around the data, the legend outside, a title.

    Parameters
    ----------
    ax : matplotlib Axes
        Axes drawn on.
    title : str, optional
        Set when the axes has no title yet (see :func:`title_once`).
    rounds : bool, default True
        The x axis counts rounds: integer ticks.
    legend : bool, default True
        Place the legend (see :func:`place_legend`).
    """
    leave_room(ax)
    if rounds:
        from matplotlib.ticker import MaxNLocator  # the optional extra

        ax.xaxis.set_major_locator(
            MaxNLocator(nbins="auto", integer=True, steps=[1, 2, 2.5, 5, 10])
        )
    ax.tick_params(labelsize=max(TEXT_PT, _tick_size(ax)))
    if legend:
        place_legend(ax)
    if title:
        title_once(ax, title)


def _tick_size(ax) -> float:
    labels = ax.get_xticklabels() + ax.get_yticklabels()
    return min((label.get_fontsize() for label in labels), default=TEXT_PT)


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
