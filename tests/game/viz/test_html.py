"""HTML tables of transcripts and sweeps (Jupyter's ``_repr_html_``)."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np

from adversaries import SeparableStream
from adversaries.halving import HalvingLowerBound
from game import play
from game.sweep import SweepResult
from game.viz._html import format_value, sweep_html, transcript_html
from learners import Perceptron
from learners.experts import Halving


class Tables(HTMLParser):
    """Every table of a page: its caption and its rows of cell texts."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: list[dict] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None
        self._caption = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "caption":
            self._caption = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1]["rows"][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "caption":
            self._caption = False

    def handle_data(self, data):
        if self._caption:
            self.tables[-1]["caption"] += data
        elif self._cell is not None:
            self._cell.append(data)


def test_transcript_html_puts_the_summary_first_then_the_rounds():
    tr = play(Perceptron(), SeparableStream(4, 0.1, 1.0, np.random.default_rng(0)), rounds=40)
    page = Tables(tr._repr_html_())
    assert tr._repr_html_() == transcript_html(tr)
    summary, rounds = page.tables
    assert summary["caption"] == "summary"
    rows = dict((r[0], r[1]) for r in summary["rows"])
    assert rows["mistakes"] == str(tr.observed("mistakes"))
    assert rows["bound"].startswith("updates ≤") and rows["bound"].endswith("holds")
    assert rows["digest"] == tr.digest
    assert rounds["caption"] == "rounds: the first and last 5 of 40"
    t_column = [r[0] for r in rounds["rows"][1:]]
    assert t_column == ["1", "2", "3", "4", "5", "…", "36", "37", "38", "39", "40"]
    assert "script" not in page.tags


def test_a_short_game_shows_every_round_and_the_forced_lower_bound():
    tr = play(Halving(), HalvingLowerBound(3), rounds=10)
    summary, rounds = Tables(transcript_html(tr)).tables
    rows = dict((r[0], r[1]) for r in summary["rows"])
    assert rows["lower bound"].startswith("mistakes ≥ 3 forced")
    assert rounds["caption"] == "rounds (3)" and len(rounds["rows"]) == 4


def test_values_are_escaped():
    tr = play(Halving(), HalvingLowerBound(2), rounds=10)
    tr.header["learner"] = {"name": "<b>mine</b>", "params": {}}
    text = transcript_html(tr)
    assert "<b>mine</b>" not in text and "&lt;b&gt;mine&lt;/b&gt;" in text


def test_sweep_html_summarises_each_point_against_the_bound_with_violating_seeds():
    rows = [
        {
            "point": p,
            "adversary.margin": m,
            "seed": s,
            "mistakes": 10 * p + s,
            "updates": 0,
            "loss": 0.0,
            "bound": 12.0,
            "bound_quantity": "mistakes",
            "within_bound": 10 * p + s <= 12,
            "status": "complete",
        }
        for p, m in enumerate([0.1, 0.2])
        for s in range(4)
    ]
    result = SweepResult(
        rows=rows,
        columns=list(rows[0]),
        grid_keys=["adversary.margin"],
        points=[{"adversary.margin": 0.1}, {"adversary.margin": 0.2}],
        requested=8,
    )
    summary, games = Tables(sweep_html(result, games=3)).tables
    assert summary["caption"] == "summary: 8 games of 8"
    header, first, second = summary["rows"]
    assert header[:2] == ["adversary.margin", "games"] and header[-2:] == [
        "violations",
        "violating seeds",
    ]
    assert first[0] == "0.1" and first[-2:] == ["0", "—"]
    assert second[0] == "0.2" and second[-2:] == ["1", "3"]  # seed 3 made 13 > 12 mistakes
    assert games["caption"] == "the first 3 of 8 games" and len(games["rows"]) == 4


def test_format_value():
    assert format_value(None) == "—"
    assert format_value(np.bool_(False)) == "no"
    assert format_value(np.float64(1 / 3), 3) == "0.333"
    assert format_value(np.arange(10)) == "[0, 1, 2, 3, … (10 entries)]"


def test_a_sweep_result_renders_itself_in_jupyter():
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from game import sweep

    scenario = Path(__file__).resolve().parents[3] / "scenarios" / "perceptron_separable.toml"
    with ThreadPoolExecutor(1) as threads:
        result = sweep(scenario, seeds=3, grid={"rounds": [50]}, executor=threads)
    page = Tables(result._repr_html_())
    assert result._repr_html_() == sweep_html(result)
    assert page.tables[0]["caption"] == "summary: 3 games of 3"
