"""What people see: figures (:mod:`game.viz.plots`), the HTML of a transcript
or a sweep, and the static report of a folder of scenarios.
"""

from game.viz._html import sweep_html, transcript_html
from game.viz._report import ScenarioEntry, play_entry, render_report, write_report

__all__ = [
    "ScenarioEntry",
    "play_entry",
    "render_report",
    "sweep_html",
    "transcript_html",
    "write_report",
]
