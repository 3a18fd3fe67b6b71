"""Figures of games, proofs, sweeps and trees (the optional extra ``plot``: matplotlib).

Every function returns a :class:`matplotlib.figure.Figure` and never calls
``show()``; write one with :func:`save_figure` (PNG, SVG or PDF by the suffix),
or from the command line with ``python -m game plot TRANSCRIPT --kind KIND``.
Every figure leaves room around its curves and bounds (none sits on the
frame), puts its legend beside the axes and writes no text under 9 points.

Every function takes ``ax=`` (draw into these axes, over what they hold) and
``label=`` (the game's name in the legend): games drawn over one another each
take their own colour, and a bound they share is drawn once.
:func:`compare` draws several games at once.

- :func:`plot_mistakes`: cumulative mistakes against the bounds (any game);
- :func:`plot_regret`: losses and regret against the bound (expert games);
- :func:`plot_potential`: the proof's potential against its inequality (snapshots);
- :func:`plot_sweep`: a sweep's mistakes per grid point against the bound;
- :func:`plot_tournament`: a tournament's heat map, learners × adversaries;
- :func:`draw_tree`: a Littlestone tree with the path an adversary walked
  (:func:`walked_tree` rebuilds the tree of a game played from a scenario);
- :func:`draw_worst_case`: a learner's worst case as :func:`game.theory.solve.worst_case`
  solved it, drawn as a tree walk;
- :func:`plot_minimax_regret`: the experts game's exact minimax regret against T,
  beside learners' exact worst-case regret;
- :func:`compare`: several games' figure of one kind in one axes.

:func:`figure_for` draws one of :data:`game.viz.FIGURE_KINDS` by name, and :func:`figures_for`
says which apply to a transcript. The figures ask the players what they
declare, never their names: the learner class's ``bound_curve`` (the regret
figure's bound after every round) and ``proof`` (the potential argument its
snapshots follow), the players' ``plays`` and ``presents``.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from game.viz.plots import plot_mistakes
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(5, 0.1, 1.0, np.random.default_rng(0)), rounds=300)
>>> len(plot_mistakes(tr).axes)
1
>>> other = play(Perceptron(), SeparableStream(5, 0.3, 1.0, np.random.default_rng(0)), rounds=300)
>>> fig = compare([tr, other], labels=["margin 0.1", "margin 0.3"])
>>> [line.get_label() for line in fig.axes[0].get_lines()][::3]
['margin 0.1: mistakes', 'margin 0.3: mistakes']
"""

from game.viz.plots._by_kind import figure_for, figures_for
from game.viz.plots._compare import compare
from game.viz.plots._figure import figure_bytes, new_figure, require_matplotlib, save_figure
from game.viz.plots._kinds import walked_tree
from game.viz.plots._mistakes import plot_mistakes
from game.viz.plots._potential import plot_potential, potential_kind
from game.viz.plots._regret import plot_regret
from game.viz.plots._solve import draw_worst_case, plot_minimax_regret
from game.viz.plots._sweep import plot_sweep
from game.viz.plots._tournament import plot_tournament
from game.viz.plots._tree import draw_tree

__all__ = [
    "compare",
    "draw_tree",
    "draw_worst_case",
    "figure_bytes",
    "figure_for",
    "figures_for",
    "new_figure",
    "plot_minimax_regret",
    "plot_mistakes",
    "plot_potential",
    "plot_regret",
    "plot_sweep",
    "plot_tournament",
    "potential_kind",
    "require_matplotlib",
    "save_figure",
    "walked_tree",
]
