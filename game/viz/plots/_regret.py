"""An expert game's losses over rounds: the learner's, the best expert's, and the bound.

The bound drawn is the learner's own curve: a learner class may define
``bound_curve(transcript)`` (a classmethod or a staticmethod; see
:mod:`game.protocol`), its theorem evaluated after every round t = 0, 1, …, T
on the rounds played so far, T + 1 values. The figure finds the class through
the registry by the name in the transcript's header and asks it; the class reads
the parameters it needs from the header. So the figure shows the theorem
holding at every prefix of the game, not only at its end. The built-in curves:

=============================  ===========================  ==============================
learner                        quantity                     bound after round t
=============================  ===========================  ==============================
Halving                        mistakes                     log₂ N
Weighted Majority              mistakes                     (log₂ N + m_t·log₂(1/β)) / log₂(2/(1+β))
Randomized Weighted Majority   expected mistakes            (m_t·ln(1/β) + ln N) / (1 − β)
Exponential Weights            loss (convex, in [0, 1])     (η·L*_t + ln N) / (1 − e^(−η))
=============================  ===========================  ==============================

m_t and L*_t are the best expert's mistakes and loss after round t. The curve
counts what the learner's whole-game bound (``transcript.bound``, the same
theorem) counts, and is labelled "bound" when it does not move with t, "bound
after round t" when it does. A learner without a curve (or whose curve is None
on this game) gets its whole-game bound drawn flat, labelled "bound on the
whole game".

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners.experts import Halving
>>> from adversaries.halving import HalvingLowerBound
>>> tr = play(Halving(), HalvingLowerBound(6), rounds=10)
>>> fig = plot_regret(tr)
>>> [ax.get_ylabel() for ax in fig.axes]
['cumulative mistakes', 'regret in mistakes']
>>> [line.get_label() for line in fig.axes[0].get_lines()]
['learner', 'best expert', 'bound']
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from game.errors import GameError, ParameterError
from game.theory import best_expert_losses
from game.viz.plots._figure import caption, finish, fit_height, game_title, new_figure, thin
from game.viz.plots._kinds import (
    concept_matrix,
    expert_count,
    instance_kind,
    is_expert_game,
    player_class,
    player_name,
)
from game.viz.plots._mistakes import cumulative, learner_name
from game.viz.plots._series import begin_series, check_label, mark, reference, ylabel_of

__all__ = [
    "BoundCurve",
    "best_so_far",
    "bound_curve_of",
    "plot_regret",
    "regret_axes",
    "require_expert_game",
]


class BoundCurve:
    """A bound after every round t = 0, 1, …, T, as the regret figure draws it.

    Attributes
    ----------
    values : numpy.ndarray
        T + 1 values.
    quantity : str
        What it bounds: ``"mistakes"``, ``"loss"`` or an extras column.
    label : str
        Its legend entry.
    source : str
        The theorem's source.
    """

    def __init__(self, values, quantity: str, label: str, source: str):
        self.values = np.asarray(values, dtype=np.float64)
        self.quantity = quantity
        self.label = label
        self.source = source


def require_expert_game(transcript, what: str, matrix=None) -> None:
    """Raise a :class:`GameError` saying why, unless the transcript is an expert game."""
    if matrix is not None or is_expert_game(transcript):
        return
    kind = instance_kind(transcript)
    played = f"{kind} instances" if kind else "instances that are not advice vectors"
    raise GameError(
        f"{what} needs a game of prediction with expert advice (the instances are the "
        f"experts' advice vectors); this transcript is {game_title(transcript)}, played on "
        f"{played}. Try the mistakes figure instead."
    )


def best_so_far(transcript, loss: str, matrix=None) -> np.ndarray:
    """The best expert's cumulative ``loss`` after rounds t = 0, 1, …, T (T + 1 values, from 0)."""
    best = best_expert_losses(transcript, loss=loss, matrix=matrix)
    return np.concatenate(([0.0], best))


def _learner_curve(transcript) -> np.ndarray | None:
    """The recorded learner class's ``bound_curve(transcript)``, checked; None without one."""
    cls = player_class(transcript, "learner")
    if cls is None or getattr(cls, "bound_curve", None) is None:
        return None
    if not isinstance(inspect.getattr_static(cls, "bound_curve"), classmethod | staticmethod):
        raise GameError(
            f"the learner {player_name(transcript, 'learner')!r}: bound_curve must be a "
            "classmethod or a staticmethod, since a figure asks the class with the "
            "transcript alone (the parameters are in its header)"
        )
    values = cls.bound_curve(transcript)
    if values is None:
        return None
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (len(transcript) + 1,):
        raise GameError(
            f"the learner {player_name(transcript, 'learner')!r}: bound_curve returned shape "
            f"{values.shape}; expected ({len(transcript) + 1},), the bound after each round "
            f"t = 0, 1, …, {len(transcript)}"
        )
    return values


def bound_curve_of(transcript) -> BoundCurve | None:
    """The bound the regret figure draws: the learner's curve, else its whole-game bound.

    See the module's text.

    Parameters
    ----------
    transcript : Transcript
        Any game.

    Returns
    -------
    BoundCurve or None
        None when the learner has no bound on this game (or one on updates, or
        one whose theorem does not apply to it).

    Raises
    ------
    GameError
        When the learner's ``bound_curve`` is not a classmethod or a staticmethod,
        or returns other than T + 1 values.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners.experts import WeightedMajority
    >>> from adversaries.experts import ExpertStream
    >>> stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=40)
    >>> tr = play(WeightedMajority(beta=0.5), stream, rounds=40)
    >>> curve = bound_curve_of(tr)
    >>> curve.quantity, curve.label, len(curve.values)
    ('mistakes', 'bound after round t', 41)
    """
    whole = transcript.bound
    values = _learner_curve(transcript)
    if values is not None:
        moves = bool(np.any(values != values[0]))
        return BoundCurve(
            values,
            whole.quantity if whole is not None else "mistakes",
            "bound after round t" if moves else "bound",
            whole.source if whole is not None else "",
        )
    if whole is None or whole.quantity == "updates" or not whole.applies:
        return None
    return BoundCurve(
        np.full(len(transcript) + 1, whole.value),
        whole.quantity,
        "bound on the whole game",
        whole.source,
    )


def regret_axes(ax, what: str = "the regret figure"):
    """The axes a regret figure draws on: a new figure's two, the two given, or one.

    Returns
    -------
    (Figure, Axes or None, Axes)
        The figure, the axes of the losses (None when one axes was given) and
        the axes of the regret.
    """
    if ax is None:
        fig, (top, bottom) = new_figure(2, 1, height=2.8, sharex=True)
        return fig, top, bottom
    if isinstance(ax, list | tuple):
        if len(ax) != 2:
            raise ParameterError(
                "ax", ax, f"an Axes, or two Axes (the losses above, the regret below) for {what}"
            )
        top, bottom = ax
        return bottom.figure, top, bottom
    return ax.figure, None, ax


def plot_regret(transcript, *, matrix=None, ax=None, label: str | None = None):
    """An expert game: the learner's cumulative loss, the best expert's, and the bound, by round.

    Two panels over rounds t = 0, 1, …, T. Above: the learner's cumulative
    loss, the best expert's min_i L_i^t, and the learner's bound after round t
    (``bound_curve_of``: the learner's ``bound_curve``). Below: the regret
    (learner minus best expert) and the regret the bound allows (bound minus
    best expert).

    The quantity is the bound's: mistakes for Halving and Weighted Majority
    (the experts then counted in mistakes too), the expected mistakes for
    Randomized Weighted Majority, the game's loss for Exponential Weights and
    for a learner without a bound. A bound on the regret itself (the minimax
    forecaster's) is drawn in the game's loss, as the best expert's plus the
    bound.

    Parameters
    ----------
    transcript : Transcript
        A game of prediction with expert advice.
    matrix : array_like, optional
        A finite class's ±1 matrix when the instances are points of the class
        (Halving or SOA over a concept class): its rows are the experts. By
        default the class of the scenario recorded in the header.
    ax : matplotlib Axes or a pair of them, optional
        Two axes (the losses above, the regret below) or one (the regret
        panel alone), drawn over: each game in its own colour, a curve several
        games share (the best expert of one stream, one bound) drawn once.
    label : str, optional
        The game's name in the legend (default: the learner's, when the axes
        already hold a game).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    GameError
        When the transcript is not an expert game.
    ParameterError
        For ``ax`` a sequence of other than two axes, a label that is not a string.
    """
    require_expert_game(transcript, "the regret figure", matrix)
    check_label(label)
    if len(transcript) and matrix is None and np.ndim(transcript.raw_instances[0]) == 0:
        matrix = concept_matrix(transcript)  # points of the scenario's finite class
    if len(transcript) and matrix is None:
        expert_count(transcript)  # points without a matrix: a clear error
    curve = bound_curve_of(transcript)
    if curve is None:
        quantity, expert_loss = "loss", transcript.loss_name
    else:
        quantity = curve.quantity
        expert_loss = transcript.loss_name if quantity == "loss" else "zero-one"
    if quantity == "regret":  # a bound on the regret itself: drawn as loss, over the best expert
        quantity, expert_loss = "loss", transcript.loss_name
    mine = cumulative(transcript, quantity)
    best = best_so_far(transcript, expert_loss, matrix)
    if curve is not None and curve.quantity == "regret":
        curve = BoundCurve(best + curve.values, "loss", "best expert + the bound", curve.source)
    idx = thin(len(mine))
    words = {
        "mistakes": "mistakes",
        "mistake_probability": "expected mistakes",
        "loss": f"loss ({transcript.loss_name})",
    }
    word = words.get(quantity, quantity)
    fig, top, bottom = regret_axes(ax)
    series = begin_series(top if top is not None else bottom, label, learner_name(transcript))
    drawn = curve is not None and np.isfinite(curve.values).any()
    notes = [curve.source] if curve is not None else []
    if curve is not None and not math.isfinite(curve.values[-1]):
        notes.append(series.entry("the bound is infinite on this game"))
    if top is not None:
        mark(
            top.plot(
                idx,
                mine[idx],
                color=series.colour_or("C0"),
                linewidth=series.width(1.5),
                label=series.entry("learner"),
            )[0]
        )
        reference(top, series, "best expert", own_colour="C2", x=idx, y=best[idx], linestyle=":")
        if drawn:
            reference(top, series, curve.label, own_colour="C3", x=idx, y=curve.values[idx])
        ylabel_of(top, "cumulative {}", word)
        finish(top, title=game_title(transcript))
    line = bottom.plot(
        idx,
        (mine - best)[idx],
        color=series.colour_or("C0"),
        linewidth=series.width(1.5),
        label=series.entry("regret"),
    )[0]
    if top is None:
        mark(line)
    if drawn:
        allowed = (curve.values - best)[idx]
        reference(bottom, series, "regret the bound allows", own_colour="C3", x=idx, y=allowed)
    ylabel_of(bottom, "regret in {}", word)
    bottom.set_xlabel("round t")
    finish(bottom, title=game_title(transcript) if top is None else None)
    caption(bottom, notes)
    if ax is None:
        fit_height(fig)
    return fig
