"""The Figure every plotting function returns: matplotlib's, shown as PNG by Jupyter.

Importing this module imports matplotlib (the ``plot`` extra); :mod:`game.viz.plots`
imports it only when a figure is made. A Jupyter cell whose value is a
:class:`GameFigure` displays the figure through ``_repr_png_``, with or without
pyplot and its inline backend.

Examples
--------
>>> fig = GameFigure(figsize=(2, 1))
>>> _ = fig.subplots().plot([0, 1], [1, 0])
>>> fig._repr_png_()[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from matplotlib.figure import Figure

__all__ = ["GameFigure"]


class GameFigure(Figure):
    """A :class:`matplotlib.figure.Figure` that Jupyter displays as a PNG image."""

    def _repr_png_(self) -> bytes:
        from game.viz.plots._figure import figure_bytes

        return figure_bytes(self, "png", dpi=100)
