"""The Figure every plotting function returns: matplotlib's, shown as PNG by Jupyter.

Importing this module imports matplotlib (the ``plot`` extra): it is the one
module of :mod:`game.viz` that imports it at module level, and
:func:`game.viz.plots.new_figure` imports it only when a figure is made. It
imports nothing of :mod:`game`, so it closes no cycle. A
Jupyter cell whose value is a :class:`GameFigure` displays the figure through
``_repr_png_``, with or without pyplot and its inline backend.

Examples
--------
>>> fig = GameFigure(figsize=(2, 1))
>>> _ = fig.subplots().plot([0, 1], [1, 0])
>>> fig._repr_png_()[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure

__all__ = ["GameFigure"]


class GameFigure(Figure):
    """A :class:`matplotlib.figure.Figure` that Jupyter displays as a PNG image."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100)
        return buffer.getvalue()
