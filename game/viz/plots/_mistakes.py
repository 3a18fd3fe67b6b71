"""Cumulative mistakes against rounds, beside the learner's bound and the adversary's.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(5, 0.1, 1.0, np.random.default_rng(0)), rounds=300)
>>> fig = plot_mistakes(tr)
>>> ax = fig.axes[0]
>>> ax.get_xlabel(), [line.get_label().split(":")[0] for line in ax.get_lines()]
('round t', ['mistakes', 'updates', 'upper bound'])
"""

from __future__ import annotations

import math

import numpy as np

from game.viz.plots._figure import caption, finish, fit_height, game_title, new_figure, thin
from game.viz.plots._series import begin_series, mark, reference

__all__ = ["bound_label", "cumulative", "learner_name", "plot_mistakes"]

_COUNTS = ("mistakes", "updates")

#: A quantity's name in a legend, where its column's name is not a reader's word.
WORDS = {"mistake_probability": "expected mistakes"}


def cumulative(transcript, quantity: str) -> np.ndarray:
    """The running total of ``quantity`` after rounds 0, 1, …, T (T + 1 values, from 0).

    ``quantity`` is what :meth:`~game.transcript.Transcript.running` takes, as a
    :class:`~game.theory.bounds.Bound` names it: ``"mistakes"``, ``"updates"``,
    ``"loss"``, ``"expected mistakes"``, ``"regret"`` or an extras column.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries.replay import Replay
    >>> from learners import Perceptron
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> tr = play(Perceptron(), Replay(instances=X, labels=[-1, 1, 1]), rounds=3)
    >>> cumulative(tr, "mistakes").tolist()
    [0.0, 1.0, 1.0, 1.0]
    """
    return np.concatenate(([0.0], transcript.running(quantity)))


def learner_name(transcript) -> str:
    """The learner's name as the header records it (a game's default name in a legend)."""
    return str((transcript.header.get("learner") or {}).get("name", "learner"))


def bound_label(bound) -> str:
    """A legend entry for a bound: which side, the quantity and the value."""
    side = "upper bound" if bound.kind == "upper" else "lower bound"
    sign = "≤" if bound.kind == "upper" else "≥"
    return f"{side}: {WORDS.get(bound.quantity, bound.quantity)} {sign} {bound.value:.4g}"


def _bound_line(ax, series, bound, *, own_colour: str, linestyle: str) -> str | None:
    """Draw a bound as a horizontal line; an infinite one is named in the caption instead."""
    if not math.isfinite(bound.value):
        return series.entry(
            f"{bound.kind} bound on {bound.quantity}: {bound.value:g} "
            "(the theorem's hypothesis fails on this game)"
        )
    reference(
        ax,
        series,
        bound_label(bound),
        own_colour=own_colour,
        level=bound.value,
        linestyle=linestyle,
    )
    return None


def plot_mistakes(transcript, *, ax=None, label: str | None = None):
    """Cumulative mistakes against rounds, with the learner's bound and the adversary's.

    Draws, over rounds t = 0, 1, …, T:

    - the cumulative mistakes;
    - the cumulative updates, when the learner's bound counts updates (the
      Perceptron's), or when they differ from the mistakes somewhere and its
      bound, if it has one, counts mistakes (the Perceptron of lecture 16 also
      updates on a zero score);
    - the running total of the bound's quantity when that is neither
      (the loss of Exponential Weights, the expected mistakes of Randomized
      Weighted Majority);
    - the learner's upper bound on the whole game (``transcript.bound``) as a
      horizontal line, and the lower bound the adversary forces
      (``transcript.lower_bound``) as a dashed one, where there are such.

    The bounds' sources are in the caption under the axes. The axes leave room
    around the curves and the bounds, and the legend sits beside them.

    Parameters
    ----------
    transcript : Transcript
        Any game.
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure, over what they hold: each
        game in its own colour, a bound several games share drawn once (see
        :func:`compare` for several games at once).
    label : str, optional
        The game's name in the legend (default: the learner's, when the axes
        already hold a game).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from game import play
    >>> from game.viz.plots import new_figure
    >>> from learners.experts import Halving, WeightedMajority
    >>> from adversaries.halving import HalvingLowerBound
    >>> fig, (ax,) = new_figure()
    >>> for learner in (Halving(), WeightedMajority(beta=0.5)):
    ...     _ = plot_mistakes(play(learner, HalvingLowerBound(5), rounds=8), ax=ax,
    ...                       label=type(learner).__name__)
    >>> [line.get_label() for line in ax.get_lines()]  # doctest: +NORMALIZE_WHITESPACE
    ['Halving: mistakes', 'Halving: upper bound: mistakes ≤ 5',
     'lower bound: mistakes ≥ 5 (Halving, WeightedMajority)', 'WeightedMajority: mistakes',
     'WeightedMajority: upper bound: mistakes ≤ 12.05']
    """
    own = ax is None
    if own:
        fig, (ax,) = new_figure()
    else:
        fig = ax.figure
    series = begin_series(ax, label, learner_name(transcript))
    n = len(transcript)
    idx = thin(n + 1)
    rounds = idx
    mistakes = cumulative(transcript, "mistakes")
    mark(
        ax.plot(
            rounds,
            mistakes[idx],
            drawstyle="steps-post",
            color=series.colour_or("C0"),
            linewidth=series.width(1.6),
            marker="o",
            markersize=4,
            markevery=[len(idx) - 1],  # the last count, which a step ends on, not across
            label=series.entry("mistakes"),
        )[0]
    )
    updates = cumulative(transcript, "updates")
    bound, lower = transcript.bound, transcript.lower_bound
    same = np.array_equal(updates, mistakes)
    on_updates = bound is not None and bound.quantity == "updates"
    counted = bound is None or bound.quantity in _COUNTS
    if on_updates or (counted and not same):
        ax.plot(
            rounds,
            updates[idx],
            drawstyle="steps-post",
            color=series.colour_or("C1"),
            linestyle=(0, (4, 2)) if same or series.labelled else "-",
            linewidth=1.6,
            label=series.entry("updates (= mistakes on this game)" if same else "updates"),
        )
    extra = {b.quantity for b in (bound, lower) if b is not None} - set(_COUNTS)
    named: set[str] = set()
    for i, quantity in enumerate(sorted(extra)):
        name = (
            f"{quantity} ({transcript.loss_name})"
            if quantity == "loss"
            else WORDS.get(quantity, quantity)
        )
        if name in named:  # two columns of one quantity (a logged one and the referee's)
            continue
        named.add(name)
        ax.plot(
            rounds,
            cumulative(transcript, quantity)[idx],
            color=series.colour_or(f"C{4 + i}"),
            linestyle=":" if series.labelled else "-",
            linewidth=1.6,
            label=series.entry(name),
        )
    notes = []
    if bound is not None:
        notes.append(_bound_line(ax, series, bound, own_colour="C3", linestyle="-"))
        notes.append(series.entry(f"upper: {bound.theorem} — {bound.source}"))
    if lower is not None:
        notes.append(
            _bound_line(
                ax, series, lower, own_colour="C2", linestyle="-." if series.labelled else "--"
            )
        )
        notes.append(f"lower: {lower.theorem} — {lower.source}")
    ax.set_xlabel("round t")
    ax.set_ylabel("cumulative count")
    finish(ax, title=game_title(transcript))
    caption(ax, [note for note in notes if note])
    if own:
        fit_height(fig)
    return fig
