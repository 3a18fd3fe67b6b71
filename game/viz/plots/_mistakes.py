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

from game.errors import GameError
from game.viz.plots._figure import caption, game_title, new_figure, thin

__all__ = ["bound_label", "cumulative", "plot_mistakes"]

_COUNTS = ("mistakes", "updates")


def cumulative(transcript, quantity: str) -> np.ndarray:
    """The running total of ``quantity`` after rounds 0, 1, …, T (T + 1 values, from 0).

    ``quantity`` is ``"mistakes"``, ``"updates"``, ``"loss"`` or an extras column,
    as a :class:`~game.theory.bounds.Bound` names it.

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
    if quantity == "mistakes":
        steps = transcript.mistakes
    elif quantity == "updates":
        steps = transcript.updated
    elif quantity == "loss":
        steps = transcript.losses
    elif quantity in transcript.extras:
        steps = transcript.extras[quantity]
    else:
        raise GameError(f"the transcript has no quantity {quantity!r}")
    return np.concatenate(([0.0], np.cumsum(np.asarray(steps, dtype=np.float64))))


def bound_label(bound) -> str:
    """A legend entry for a bound: which side, the quantity and the value."""
    side = "upper bound" if bound.kind == "upper" else "lower bound"
    sign = "≤" if bound.kind == "upper" else "≥"
    return f"{side}: {bound.quantity} {sign} {bound.value:.4g}"


def _hline(ax, bound, **style) -> bool:
    """Draw a bound as a horizontal line (or say in a note that it is infinite)."""
    if not math.isfinite(bound.value):
        ax.text(
            0.01,
            0.97,
            f"{bound.kind} bound on {bound.quantity}: {bound.value:g} "
            "(the theorem's hypothesis fails on this game)",
            transform=ax.transAxes,
            va="top",
            fontsize=8,
        )
        return False
    ax.axhline(bound.value, label=bound_label(bound), **style)
    return True


def plot_mistakes(transcript, *, ax=None):
    """Cumulative mistakes against rounds, with the learner's bound and the adversary's.

    Draws, over rounds t = 0, 1, …, T:

    - the cumulative mistakes;
    - the cumulative updates, when they differ from the mistakes somewhere
      (the Perceptron of lecture 16 also updates on a zero score) and the
      learner's bound, if it has one, counts mistakes or updates;
    - the running total of the bound's quantity when that is neither
      (the loss of Exponential Weights, the expected mistakes of Randomized
      Weighted Majority);
    - the learner's upper bound on the whole game (``transcript.bound``) as a
      horizontal line, and the lower bound the adversary forces
      (``transcript.lower_bound``) as a dashed one, where there are such.

    The bounds' sources are in the caption under the axes.

    Parameters
    ----------
    transcript : Transcript
        Any game.
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if ax is None:
        fig, (ax,) = new_figure()
    else:
        fig = ax.figure
    n = len(transcript)
    idx = thin(n + 1)
    rounds = idx
    mistakes = cumulative(transcript, "mistakes")
    ax.plot(rounds, mistakes[idx], drawstyle="steps-post", color="C0", label="mistakes")
    updates = cumulative(transcript, "updates")
    bound, lower = transcript.bound, transcript.lower_bound
    counted = bound is None or bound.quantity in _COUNTS
    if counted and not np.array_equal(updates, mistakes):
        ax.plot(rounds, updates[idx], drawstyle="steps-post", color="C1", label="updates")
    extra = {b.quantity for b in (bound, lower) if b is not None} - set(_COUNTS)
    for i, quantity in enumerate(sorted(extra)):
        name = f"{quantity} ({transcript.loss_name})" if quantity == "loss" else quantity
        ax.plot(rounds, cumulative(transcript, quantity)[idx], color=f"C{4 + i}", label=name)
    notes = []
    if bound is not None:
        _hline(ax, bound, color="C3", linestyle="-", linewidth=1.2)
        notes.append(f"upper: {bound.theorem} — {bound.source}")
    if lower is not None:
        _hline(ax, lower, color="C2", linestyle="--", linewidth=1.2)
        notes.append(f"lower: {lower.theorem} — {lower.source}")
    ax.set_xlabel("round t")
    ax.set_ylabel("cumulative count")
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(bottom=0)
    ax.set_title(game_title(transcript))
    ax.legend(loc="center right", fontsize=8)
    caption(ax, notes)
    return fig
