"""The names of a transcript's figures, known without drawing anything.

The command line offers them as choices before it loads a figure's code.

Examples
--------
>>> from game.viz import FIGURE_KINDS
>>> FIGURE_KINDS
('mistakes', 'regret', 'potential', 'tree')
"""

__all__ = ["FIGURE_KINDS"]

#: The figures of a transcript, by name (:func:`game.viz.plots.figure_for` draws each).
FIGURE_KINDS = ("mistakes", "regret", "potential", "tree")
