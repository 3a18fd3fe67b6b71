"""A sweep's distribution of mistakes per grid point, against the bound.

Examples
--------
>>> from game.sweep import SweepResult
>>> rows = [{"point": p, "adversary.margin": m, "seed": s, "mistakes": 10 * p + s,
...          "updates": 10 * p + s, "bound": 40.0 / (p + 1), "bound_quantity": "updates",
...          "within_bound": 10 * p + s <= 40.0 / (p + 1), "status": "complete"}
...         for p, m in enumerate([0.1, 0.2]) for s in range(5)]
>>> result = SweepResult(rows=rows, columns=list(rows[0]),
...                      points=[{"adversary.margin": 0.1}, {"adversary.margin": 0.2}],
...                      grid_keys=["adversary.margin"])
>>> fig = plot_sweep(result)
>>> ax = fig.axes[0]
>>> ax.get_ylabel(), [t.get_text() for t in ax.get_xticklabels()]
('updates per game', ['margin=0.1', 'margin=0.2'])
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.errors import GameError, check_choice
from game.viz.plots._figure import caption, finish, fit_height, new_figure
from game.viz.plots._series import begin_series, check_label, mark, reference

__all__ = ["plot_sweep", "point_label"]

_COLUMNS = ("mistakes", "updates", "loss")
#: Violations named by their seed in the legend, at most.
_NAMED = 5
#: How far a second sweep's boxes sit to the right of the first's.
_STEP = 0.35


def point_label(params: dict) -> str:
    """A grid point's tick label: ``key=value`` per parameter, the key without its table.

    Examples
    --------
    >>> point_label({"adversary.margin": 0.1, "learner.eta": 2})
    'margin=0.1\\neta=2'
    """
    if not params:
        return "all seeds"
    return "\n".join(
        f"{key.rsplit('.', 1)[-1]}={value:g}"
        if isinstance(value, float)
        else f"{key.rsplit('.', 1)[-1]}={value}"
        for key, value in params.items()
    )


def _quantity(result, quantity: str | None) -> str:
    if quantity is not None:
        return check_choice("quantity", quantity, _COLUMNS)
    named = {row.get("bound_quantity") for row in result.rows if row.get("bound_quantity")}
    if len(named) == 1 and (only := named.pop()) in _COLUMNS:
        return only
    return "mistakes"


def plot_sweep(
    result,
    *,
    quantity: str | None = None,
    kind: str = "box",
    log: bool = False,
    ax=None,
    label: str | None = None,
):
    """The distribution of mistakes (or the bound's quantity) per grid point, against the bound.

    One box (or violin) per grid point over the games that finished; the bound,
    evaluated on each game, is drawn by its median per point, joined across
    points (a dotted line marks its smallest value when it varies); every game
    over its own bound is a cross, the first few named by their seed so
    they can be replayed with ``python -m game run SCENARIO --seed SEED``.

    Parameters
    ----------
    result : SweepResult
        What :func:`game.sweep` returned.
    quantity : {"mistakes", "updates", "loss"}, optional
        What to draw (default: what the bound counts, when that is a column,
        else mistakes).
    kind : {"box", "violin"}
        How to draw the distributions.
    log : bool, default False
        A logarithmic y axis (for a bound far above the games' counts).
    ax : matplotlib Axes, optional
        Draw into these axes, over what they hold: a second sweep of the same
        grid puts its boxes beside the first's, in its own colour.
    label : str, optional
        The sweep's name in the legend.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ParameterError
        For an unknown quantity or kind, a ``log`` that is not a bool, a label
        that is not a string.
    GameError
        For a result without a finished game.
    """
    kind = check_choice("kind", kind, ("box", "violin"))
    log = check_choice("log", log, (False, True))
    check_label(label)
    rows = [row for row in result.rows if row.get("status") != "error"]
    if not rows:
        raise GameError("the sweep has no finished game to draw")
    column = _quantity(result, quantity)
    by_point: dict[int, list[dict]] = {}
    for row in rows:
        by_point.setdefault(int(row.get("point", 0) or 0), []).append(row)
    points = sorted(by_point)
    positions = np.arange(1, len(points) + 1, dtype=np.float64)
    values = [np.array([float(r.get(column) or 0.0) for r in by_point[p]]) for p in points]
    params = [result.points[p] if p < len(result.points) else {} for p in points]
    name = Path(result.scenario).name if result.scenario else "sweep"
    own = ax is None
    if own:
        fig, (ax,) = new_figure(width=max(8.0, 1.1 * len(points) + 4.0))
    else:
        fig = ax.figure
    series = begin_series(ax, label, name)
    width = 0.3 if series.labelled else 0.5
    at = positions + _STEP * series.index
    colour = series.colour_or("C0")
    if kind == "box":
        parts = ax.boxplot(
            values,
            positions=at,
            widths=width,
            showmeans=True,
            manage_ticks=False,
            boxprops={"color": colour},
            whiskerprops={"color": colour},
            capprops={"color": colour},
            meanprops={"markerfacecolor": colour, "markeredgecolor": colour},
        )
        main = parts["boxes"][0]
    else:
        parts = ax.violinplot(values, positions=at, widths=width + 0.2, showmedians=True)
        for body in parts["bodies"]:
            body.set_facecolor(colour)
        main = parts["cmedians"]
        main.set_color(colour)
    mark(main)
    if series.labelled:
        main.set_label(series.name)
    same_quantity = all(r.get("bound_quantity") in (None, column) for r in rows)
    medians, lows = [], []
    for p in points:
        bounds = [float(r["bound"]) for r in by_point[p] if r.get("bound") is not None]
        finite = [b for b in bounds if np.isfinite(b)]
        medians.append(float(np.median(finite)) if finite else np.nan)
        lows.append(float(np.min(finite)) if finite else np.nan)
    if same_quantity and not np.all(np.isnan(medians)):
        reference(
            ax,
            series,
            "bound (median)",
            own_colour="C3",
            x=positions,
            y=medians,
            marker="_",
            markersize=24,
        )
        if not np.allclose(medians, lows, equal_nan=True):
            reference(
                ax, series, "bound (smallest)", own_colour="C3", x=positions, y=lows, linestyle=":"
            )
    bad = [
        (i, r) for i, p in enumerate(points) for r in by_point[p] if r.get("within_bound") is False
    ]
    if bad:
        seeds = ", ".join(str(r.get("seed")) for _, r in bad[:_NAMED])
        more = f" and {len(bad) - _NAMED} more" if len(bad) > _NAMED else ""
        ax.plot(
            [at[i] for i, _ in bad],
            [float(r.get(column) or 0.0) for _, r in bad],
            "x",
            color=series.colour_or("red"),
            label=series.entry(f"over its bound: seed {seeds}{more}"),
        )
    middle = positions + _STEP * series.index / 2  # the middle of the sweeps drawn so far
    ax.set_xticks(middle, [point_label(p) for p in params])
    ax.set_ylabel(f"{column} per game")
    if log:
        ax.set_yscale("symlog", linthresh=1.0)
    games = sum(len(v) for v in values)
    finish(ax, title=f"{name}: {games} games", rounds=False)
    notes = []
    if not same_quantity:
        quantities = sorted({str(r.get("bound_quantity")) for r in rows if r.get("bound")})
        notes.append(
            series.entry(f"The bound counts {', '.join(quantities)}, not {column}: not drawn.")
        )
    notes.append(
        "Boxes: quartiles, whiskers to 1.5 IQR, triangle the mean."
        if kind == "box"
        else "Violins: the distribution over seeds, bar the median."
    )
    caption(ax, notes)
    if own:
        fit_height(fig)
    return fig
