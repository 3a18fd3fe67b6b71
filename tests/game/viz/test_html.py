"""HTML tables of transcripts and sweeps (Jupyter's ``_repr_html_``)."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from adversaries.halving import HalvingLowerBound
from game import Bound, ParameterError, play
from game.cli._run import summary_table
from game.sweep import SweepResult
from game.viz._html import format_value, summary_entries, summary_rows, sweep_html, transcript_html
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
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

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


class Boastful:
    """A Perceptron that claims a bound of 2 updates."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self):
        self.inner = Perceptron()

    def predict(self, x):
        return self.inner.predict(x)

    def update(self, x, y):
        return self.inner.update(x, y)

    def mistake_bound(self, transcript):
        return Bound(2.0, "updates ≤ 2", "nowhere", quantity="updates")


def games() -> dict:
    """Games whose summaries differ in every optional row."""
    stream = SeparableStream(4, 0.1, 1.0, np.random.default_rng(0))
    points = Replay(instances=np.array([[1.0, 0.0], [0.0, 1.0]]), labels=[1, -1])
    boast = SeparableStream(20, 0.05, 1.0, np.random.default_rng(1))
    return {
        "bound and certificate": play(Perceptron(), stream, rounds=40),
        "lower bound": play(Halving(), HalvingLowerBound(3), rounds=10),
        "no bound": play(Perceptron(), points, rounds=5),
        "violated": play(Boastful(), boast, rounds=200),
    }


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", list(games()))
def test_the_command_line_and_html_show_the_same_rows(name):
    tr = games()[name]
    table = summary_table(tr)
    on_the_command_line = [
        (label, words(cell.plain))
        for label, cell in zip(table.columns[0].cells, table.columns[1].cells, strict=True)
    ]
    (summary, *_) = Tables(transcript_html(tr)).tables
    in_html = [(label, words(text)) for label, text in summary["rows"]]
    assert on_the_command_line == in_html
    assert [label for label, _ in in_html] == [row.label for row in summary_entries(tr)]


def test_the_lower_bound_cites_its_source_in_both_views():
    tr = games()["lower bound"]
    rows = dict(summary_rows(tr))
    cells = dict(zip(*(column.cells for column in summary_table(tr).columns), strict=True))
    source = tr.lower_bound.source
    assert source in rows["lower bound"] and source in cells["lower bound"].plain
    assert cells["lower bound"].plain.startswith(f"{tr.lower_bound.quantity} ≥ 3")


def test_verdicts_are_coloured_alike():
    tr = games()["violated"]
    assert tr.within_bound is False
    rows = dict(summary_rows(tr))
    assert '<span class="bad">violated</span>' in rows["bound"]
    assert '<span class="ok">yes</span>' in rows["certificate verified"]
    cells = dict(zip(*(column.cells for column in summary_table(tr).columns), strict=True))
    bound = cells["bound"]
    assert [str(span.style) for span in bound.spans] == ["red"]
    assert bound.plain[bound.spans[0].start : bound.spans[0].end] == "violated"
    verified = cells["certificate verified"]
    assert verified.plain == "yes" and [str(span.style) for span in verified.spans] == ["green"]


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


def _small_game():
    return play(Perceptron(), Replay(instances=np.eye(2), labels=[1, -1]), rounds=2)


def _empty_sweep():
    return SweepResult(rows=[], columns=["seed"], requested=0)


@pytest.mark.parametrize(
    ("call", "parameter", "message"),
    [
        (lambda: transcript_html(_small_game(), rounds=-1), "rounds", "an integer ≥ 0, got -1"),
        (lambda: transcript_html(_small_game(), rounds=True), "rounds", "an integer ≥ 0, got True"),
        (lambda: transcript_html(_small_game(), rounds=2.5), "rounds", "an integer ≥ 0, got 2.5"),
        (lambda: sweep_html(_empty_sweep(), games=True), "games", "an integer ≥ 0, got True"),
        (lambda: sweep_html(_empty_sweep(), games=-3), "games", "an integer ≥ 0, got -3"),
        (lambda: format_value(1.5, digits=True), "digits", "an integer ≥ 1, got True"),
        (lambda: format_value(1.5, digits=0), "digits", "an integer ≥ 1, got 0"),
    ],
    ids=[
        "rounds -1",
        "rounds True",
        "rounds 2.5",
        "games True",
        "games -3",
        "digits True",
        "digits 0",
    ],
)
def test_a_bad_count_is_a_parameter_error_naming_it(call, parameter, message):
    with pytest.raises(ParameterError, match=f"^{parameter} must be {message}$") as info:
        call()
    assert info.value.parameter == parameter


def test_counts_accept_numpy_integers():
    assert "rounds (2)" in transcript_html(_small_game(), rounds=np.int64(1))
    assert format_value(2 / 3, digits=np.int8(2)) == "0.67"
    assert "summary: 0 games of 0" in sweep_html(_empty_sweep(), games=np.uint8(0))


def test_a_sweep_result_renders_itself_in_jupyter():
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from game import sweep

    scenario = Path(__file__).resolve().parents[3] / "scenarios" / "perceptron_separable.toml"
    with ThreadPoolExecutor(1) as threads:
        result = sweep(scenario, seeds=3, grid={"rounds": [50]}, executor=threads)
    html = result._repr_html_()
    page = Tables(html)
    figure = result._repr_png_()
    assert figure.startswith(b"\x89PNG")
    assert html == sweep_html(result, figure=figure)
    assert html.index('<img alt="the sweep') < html.index("<table>")
    assert page.tables[0]["caption"] == "summary: 3 games of 3"
