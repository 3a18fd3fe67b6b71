"""What people see: the HTML views of a transcript, a scenario and a sweep (Jupyter's
``_repr_html_``), figures (:mod:`game.viz.plots`) and the static report of a
folder of scenarios (:mod:`game.viz.report`).

The subpackages are not imported here: a transcript shows itself in Jupyter
through this package without loading the figures (matplotlib) or the report
(which plays scenarios, and so sits above the engine and the transcript).

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from game.viz import transcript_html
>>> from learners import Perceptron
>>> from adversaries import Replay
>>> tr = play(Perceptron(), Replay(instances=np.eye(2), labels=[1, -1]), rounds=2)
>>> transcript_html(tr).startswith("<div")
True
"""

from game.viz._figure_kinds import ANIMATION_FORMATS, ANIMATION_KINDS, FIGURE_KINDS
from game.viz._html import (
    SummaryRow,
    format_value,
    scenario_html,
    summary_entries,
    sweep_html,
    transcript_html,
)

__all__ = [
    "ANIMATION_FORMATS",
    "ANIMATION_KINDS",
    "FIGURE_KINDS",
    "SummaryRow",
    "format_value",
    "scenario_html",
    "summary_entries",
    "sweep_html",
    "transcript_html",
]
