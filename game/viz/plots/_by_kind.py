"""One transcript, one figure, by name: what ``python -m game plot --kind`` draws.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(4, 0.1, 1.0, np.random.default_rng(0)), rounds=100)
>>> len(figure_for(tr, "mistakes").axes)
1
>>> figure_for(tr, "regret")
Traceback (most recent call last):
...
game.errors.GameError: the regret figure needs a game of prediction with expert advice ...
"""

from __future__ import annotations

import numpy as np

from game.errors import GameError, check_choice
from game.viz._figure_kinds import FIGURE_KINDS
from game.viz.plots._kinds import concept_matrix, is_expert_game, walked_tree
from game.viz.plots._mistakes import plot_mistakes
from game.viz.plots._potential import plot_potential, potential_kind
from game.viz.plots._regret import plot_regret
from game.viz.plots._tree import draw_tree

__all__ = ["figure_for", "figures_for"]


def figures_for(transcript) -> list[str]:
    """The figures that apply to a transcript, as the players declare it.

    ``"mistakes"`` for every game; ``"regret"`` for a game of expert advice
    (the adversary presents advice, the learner plays only advice and points, or
    the certificate names an expert); ``"potential"`` when the learner's class
    declares a proof drawn here and the snapshots it reads were logged;
    ``"tree"`` when the adversary rebuilt from the recorded scenario holds a
    Littlestone tree.

    Examples
    --------
    >>> from game import load_scenario
    >>> figures_for(load_scenario("scenarios/tree_halving.toml").play(snapshots=True))
    ['mistakes', 'regret', 'potential', 'tree']
    """
    names = ["mistakes"]
    if is_expert_game(transcript):
        names.append("regret")
    if transcript.snapshots and potential_kind(transcript) is not None:
        names.append("potential")
    if walked_tree(transcript) is not None:
        names.append("tree")
    return names


def figure_for(transcript, kind: str, *, ax=None, label: str | None = None):
    """The ``kind`` figure of a transcript (one of :data:`~game.viz.FIGURE_KINDS`).

    ``"tree"`` draws the Littlestone tree the game's adversary walked, rebuilt
    from the scenario recorded in the transcript's header.

    Parameters
    ----------
    transcript : Transcript
        The game.
    kind : str
        One of :data:`~game.viz.FIGURE_KINDS`.
    ax : matplotlib Axes (or a pair, for the figures of two panels), optional
        Draw into these axes, over what they hold (see the figure's function).
    label : str, optional
        The game's name in the legend.

    Raises
    ------
    ParameterError
        For an unknown kind (a :class:`GameError` too).
    GameError
        For a transcript the figure does not apply to.
    """
    kind = check_choice("kind", kind, FIGURE_KINDS)
    if kind == "mistakes":
        return plot_mistakes(transcript, ax=ax, label=label)
    if kind == "regret":
        return plot_regret(transcript, ax=ax, label=label)
    if kind == "potential":
        return plot_potential(transcript, ax=ax, label=label)
    tree = walked_tree(transcript)
    if tree is None:
        raise GameError(
            "the tree figure needs a game against an adversary that walks a Littlestone "
            "tree, played from a scenario (its header records how to rebuild the tree)"
        )
    matrix = None
    if len(transcript) and np.ndim(transcript.raw_instances[0]) == 1:
        matrix = concept_matrix(transcript)  # a walk of points shown as advice
    return draw_tree(tree, transcript=transcript, ax=ax, label=label, matrix=matrix)
