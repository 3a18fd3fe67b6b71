"""An expert game's losses over rounds: the learner's, the best expert's, and the bound.

The bound is evaluated after every round t on the rounds played so far, with
the best expert's loss so far in place of the whole game's (:func:`bound_curve`),
so the figure shows the theorem holding at every prefix of the game, not only at
its end:

=============================  ===========================  ==============================
learner                        quantity                     bound after round t
=============================  ===========================  ==============================
``halving``                    mistakes                     log₂ N
``weighted-majority``          mistakes                     (log₂ N + m_t·log₂(1/β)) / log₂(2/(1+β))
``randomized-weighted-…``      expected mistakes            (m_t·ln(1/β) + ln N) / (1 − β)
``exponential-weights``        loss (convex, in [0, 1])     (η·L*_t + ln N) / (1 − e^(−η))
=============================  ===========================  ==============================

m_t and L*_t are the best expert's mistakes and loss after round t. For any
other learner the bound of the whole game (``transcript.bound``) is drawn flat.

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

import math

import numpy as np

from game.errors import GameError
from game.viz.plots._figure import caption, game_title, new_figure, thin
from game.viz.plots._kinds import (
    concept_matrix,
    expert_count,
    instance_kind,
    is_expert_game,
    player_name,
    player_params,
)
from game.viz.plots._mistakes import cumulative

__all__ = ["BoundCurve", "bound_curve", "plot_regret", "require_expert_game"]

#: Bounds are evaluated at most at this many distinct values of their argument.
_EVALUATIONS = 2000


class BoundCurve:
    """A bound after every round t = 0, 1, …, T.

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


def _per_value(fn, args: np.ndarray) -> np.ndarray:
    """``fn(a).value`` for every entry of ``args``, evaluated once per distinct value."""
    uniq, inverse = np.unique(args, return_inverse=True)
    if uniq.size <= _EVALUATIONS:
        return np.array([fn(a).value for a in uniq], dtype=np.float64)[inverse]
    sample = uniq[thin(uniq.size, _EVALUATIONS)]
    return np.interp(args, sample, [fn(a).value for a in sample])


def _best_so_far(transcript, loss: str, matrix) -> np.ndarray:
    from game.theory._regret import best_expert_losses

    best = best_expert_losses(transcript, loss=loss, matrix=matrix)
    return np.concatenate(([0.0], best))


def bound_curve(transcript, *, matrix=None) -> BoundCurve | None:
    """The learner's bound after every round of an expert game (see the module's table).

    Parameters
    ----------
    transcript : Transcript
        An expert game.
    matrix : array_like, optional
        A finite class's ±1 matrix when the instances are its points.

    Returns
    -------
    BoundCurve or None
        None when the learner has no bound on this game.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners.experts import WeightedMajority
    >>> from adversaries.experts import ExpertStream
    >>> stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=40)
    >>> tr = play(WeightedMajority(beta=0.5), stream, rounds=40)
    >>> curve = bound_curve(tr)
    >>> curve.quantity, len(curve.values), bool(np.isclose(curve.values[-1], tr.bound.value))
    ('mistakes', 41, True)
    """
    from game.theory.bounds import (
        exponential_weights,
        halving,
        randomized_weighted_majority,
        weighted_majority,
    )

    name = player_name(transcript, "learner")
    params = player_params(transcript, "learner")
    n_rounds = len(transcript)
    if n_rounds and name in (
        "halving",
        "weighted-majority",
        "randomized-weighted-majority",
        "exponential-weights",
    ):
        n = expert_count(transcript, matrix)
        if name == "halving":
            b = halving(n)
            return BoundCurve(np.full(n_rounds + 1, b.value), "mistakes", "bound", b.source)
        if name in ("weighted-majority", "randomized-weighted-majority"):
            beta = float(params.get("beta", 0.5))
            m = _best_so_far(transcript, "zero-one", matrix)
            if name == "weighted-majority":
                values = _per_value(lambda a: weighted_majority(n, int(a), beta), m)
                quantity, source = "mistakes", weighted_majority(n, 0, beta).source
            else:
                values = _per_value(lambda a: randomized_weighted_majority(n, int(a), beta), m)
                quantity = "mistake_probability"
                source = randomized_weighted_majority(n, 0, beta).source
            return BoundCurve(values, quantity, "bound after round t", source)
        loss = params.get("loss", transcript.loss_name)
        if loss != "zero-one" and loss == transcript.loss_name:
            eta = float(params.get("eta", 1.0))
            if params.get("loss_bound") is not None:
                from learners.experts import tuned_eta

                eta = tuned_eta(n, float(params["loss_bound"]))
            best = _best_so_far(transcript, loss, matrix)
            values = _per_value(lambda a: exponential_weights(n, float(a), eta), best)
            source = exponential_weights(n, 0.0, eta).source
            return BoundCurve(values, "loss", "bound after round t", source)
        return None
    b = transcript.bound
    if b is None or b.quantity == "updates":
        return None
    return BoundCurve(
        np.full(n_rounds + 1, b.value), b.quantity, "bound on the whole game", b.source
    )


def plot_regret(transcript, *, matrix=None):
    """An expert game: the learner's cumulative loss, the best expert's, and the bound, by round.

    Two panels over rounds t = 0, 1, …, T. Above: the learner's cumulative
    loss, the best expert's min_i L_i^t, and the learner's bound after round t
    (:func:`bound_curve`). Below: the regret (learner minus best expert) and
    the regret the bound allows (bound minus best expert).

    The quantity is the bound's: mistakes for Halving and Weighted Majority
    (the experts then counted in mistakes too), the expected mistakes for
    Randomized Weighted Majority, the game's loss for Exponential Weights and
    for a learner without a bound.

    Parameters
    ----------
    transcript : Transcript
        A game of prediction with expert advice.
    matrix : array_like, optional
        A finite class's ±1 matrix when the instances are points of the class
        (Halving or SOA over a concept class): its rows are the experts. By
        default the class of the scenario recorded in the header.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    GameError
        When the transcript is not an expert game.
    """
    require_expert_game(transcript, "the regret figure", matrix)
    if len(transcript) and matrix is None and np.ndim(transcript.raw_instances[0]) == 0:
        matrix = concept_matrix(transcript)  # points of the scenario's finite class
    if len(transcript) and matrix is None:
        expert_count(transcript)  # points without a matrix: a clear error
    curve = bound_curve(transcript, matrix=matrix)
    if curve is None:
        quantity, expert_loss = "loss", transcript.loss_name
    else:
        quantity = curve.quantity
        expert_loss = transcript.loss_name if quantity == "loss" else "zero-one"
    mine = cumulative(transcript, quantity)
    best = _best_so_far(transcript, expert_loss, matrix)
    idx = thin(len(mine))
    words = {
        "mistakes": "mistakes",
        "mistake_probability": "expected mistakes",
        "loss": f"loss ({transcript.loss_name})",
    }
    word = words.get(quantity, quantity)
    fig, (top, bottom) = new_figure(2, 1, height=2.8, sharex=True)
    top.plot(idx, mine[idx], color="C0", label="learner")
    top.plot(idx, best[idx], color="C2", label="best expert")
    if curve is not None and np.isfinite(curve.values).any():
        top.plot(idx, curve.values[idx], color="C3", label=curve.label)
    top.set_ylabel(f"cumulative {word}")
    top.set_ylim(bottom=0)
    top.set_title(game_title(transcript))
    top.legend(loc="upper left", fontsize=8)
    regret = mine - best
    bottom.plot(idx, regret[idx], color="C0", label="regret")
    if curve is not None and np.isfinite(curve.values).any():
        bottom.plot(idx, (curve.values - best)[idx], color="C3", label="regret the bound allows")
    bottom.set_ylabel(f"regret in {word}")
    bottom.set_xlabel("round t")
    bottom.set_xlim(0, max(len(transcript), 1))
    bottom.legend(loc="upper left", fontsize=8)
    if curve is not None:
        caption(bottom, [curve.source])
    if curve is not None and not math.isfinite(curve.values[-1]):
        top.text(0.5, 0.9, "the bound is infinite on this game", transform=top.transAxes)
    return fig
