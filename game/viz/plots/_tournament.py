"""A tournament's heat map: learners × adversaries, one quantity per pair.

Each cell is the mean over the pair's games of the chosen quantity
(:meth:`game.sweep.TournamentResult.matrix`), written in the cell; a pair not
played is grey and says why in one word (``unfit``: no instance kind in
common; ``failed``: the players could not be built or play together), and a pair
played whose games have no such value (no experts for regret, no bound that
applies for the ratio) is light grey with a dash.

Examples
--------
>>> import game
>>> from game.viz.plots import plot_tournament
>>> r = game.tournament(["perceptron", "halving"],
...     {"separable-stream": {"dimension": 2, "margin": 0.2}}, seeds=2, rounds=30, workers=1)
>>> fig = plot_tournament(r)
>>> ax = fig.axes[0]
>>> [t.get_text() for t in ax.get_yticklabels()]
['perceptron', 'halving']
>>> sorted(t.get_text() for t in ax.texts)[-1]
'unfit'
"""

from __future__ import annotations

import math

import numpy as np

from game.errors import GameError, check_choice
from game.viz.plots._figure import TEXT_PT, caption, new_figure

__all__ = ["plot_tournament"]

_TITLES = {
    "mistakes": "mean mistakes per game",
    "regret": "mean regret per game (expert games)",
    "ratio": "mean of what the bound counts ÷ the bound",
}
_UNPLAYED = "#b0b0b0"
_EMPTY = "#ececec"


def _cell_text(value: float) -> str:
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}" if value else "0"  # 52, 11.6, 8.8, 0.124


def plot_tournament(result, quantity: str = "mistakes", *, title: str | None = None):
    """Draw a tournament as a heat map of ``quantity`` (learners down, adversaries across).

    Parameters
    ----------
    result : TournamentResult
        What :func:`game.tournament` returned.
    quantity : {"mistakes", "regret", "ratio"}, default "mistakes"
        The per-pair mean drawn (see :data:`game.sweep.QUANTITIES`). The ratio
        is drawn on a scale from 0 to at least 1, so a pair at its bound is
        the darkest colour of the usual range.
    title : str, optional
        The figure's title (default: the quantity and the games per pair).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    GameError
        When no pair was played, or without matplotlib.
    """
    check_choice("quantity", quantity, tuple(_TITLES))
    if not hasattr(result, "matrix") or not hasattr(result, "status_matrix"):
        raise GameError(f"plot_tournament draws a TournamentResult, got {type(result).__name__}")
    values = result.matrix(quantity)
    status = result.status_matrix()
    n_l, n_a = values.shape
    if n_l == 0 or n_a == 0 or not any(s == "played" for row in status for s in row):
        raise GameError("the tournament played no pair: there is nothing to draw")
    import matplotlib as mpl

    width = min(16.0, 3.2 + 0.75 * n_a)
    height = min(12.0, 1.6 + 0.38 * n_l)
    fig, (ax,) = new_figure(width=width, height=height)
    finite = values[np.isfinite(values)]
    low = 0.0 if finite.size == 0 else min(0.0, float(finite.min()))
    high = 1.0 if finite.size == 0 else float(finite.max())
    if quantity == "ratio":
        high = max(high, 1.0)
    if high <= low:
        high = low + 1.0
    cmap = mpl.colormaps["viridis"].with_extremes(bad=_EMPTY)
    norm = mpl.colors.Normalize(vmin=low, vmax=high)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto")
    for i in range(n_l):
        for j in range(n_a):
            value, state = values[i, j], status[i][j]
            if state != "played":
                ax.add_patch(
                    mpl.patches.Rectangle(
                        (j - 0.5, i - 0.5), 1, 1, facecolor=_UNPLAYED, edgecolor="white"
                    )
                )
                ax.text(j, i, state, ha="center", va="center", fontsize=TEXT_PT, color="#555555")
            elif math.isnan(value):
                ax.text(j, i, "—", ha="center", va="center", fontsize=TEXT_PT, color="#777777")
            else:
                shade = norm(value)
                ink = "white" if shade < 0.6 else "black"
                ax.text(
                    j, i, _cell_text(value), ha="center", va="center", fontsize=TEXT_PT, color=ink
                )
    ax.set_xticks(range(n_a), result.adversaries, rotation=40, ha="right", fontsize=TEXT_PT)
    ax.set_yticks(range(n_l), result.learners, fontsize=TEXT_PT)
    ax.set_xticks(np.arange(-0.5, n_a), minor=True)
    ax.set_yticks(np.arange(-0.5, n_l), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel("adversary")
    ax.set_ylabel("learner")
    seeds = len(result.seeds)
    ax.set_title(title or f"{_TITLES[quantity]} ({seeds} seed{'s' if seeds != 1 else ''} a pair)")
    bar = fig.colorbar(image, ax=ax, shrink=0.9)
    bar.ax.tick_params(labelsize=TEXT_PT)
    caption(
        ax,
        [
            "grey: not played (unfit: no instance kind in common; failed: the players "
            "could not be built or play together); —: played, no such value"
        ],
    )
    return fig
