"""The names of a transcript's figures and animations, known without drawing anything.

The command line offers them as choices before it loads a figure's code.

Examples
--------
>>> from game.viz import ANIMATION_FORMATS, ANIMATION_KINDS, FIGURE_KINDS
>>> FIGURE_KINDS
('mistakes', 'regret', 'potential', 'tree')
>>> ANIMATION_KINDS, sorted(ANIMATION_FORMATS)
(('perceptron', 'halving', 'tree', 'weights'), ['.gif', '.mp4'])
"""

__all__ = ["ANIMATION_FORMATS", "ANIMATION_KINDS", "FIGURE_KINDS"]

#: The figures of a transcript, by name (:func:`game.viz.plots.figure_for` draws each).
FIGURE_KINDS = ("mistakes", "regret", "potential", "tree")

#: The animations of a transcript, by name (:func:`game.viz.animations.animate` draws each).
ANIMATION_KINDS = ("perceptron", "halving", "tree", "weights")

#: An animation's file suffixes and the matplotlib writer of each.
ANIMATION_FORMATS = {".gif": "pillow", ".mp4": "ffmpeg"}
