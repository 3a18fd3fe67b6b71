"""The static report of a folder of scenarios: one HTML page, no server, no JavaScript.

:func:`write_report` plays every scenario of a folder (:func:`play_entry`
each) and writes an index of the games with their verdicts, then each game's
summary, its ``[expect]`` checks and its figures (``python -m game report``).
"""

from game.viz.report._report import ScenarioEntry, play_entry, render_report, write_report

__all__ = ["ScenarioEntry", "play_entry", "render_report", "write_report"]
