"""The static HTML report: every scenario of a folder played, named, tabled and drawn.

Example to paste::

    python -m game report scenarios --out report.html
"""

from __future__ import annotations

import base64
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from game import GameError, ParameterError
from game.viz.report import play_entry, render_report, write_report

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
PNG = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """Collects what the tests look at: headings, section ids, images, tags seen, tables."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[str] = []
        self.open: list[str] = []
        self.h2: list[str] = []
        self.sections: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self.svg = 0
        self._heading = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "h2":
            self._heading = True
            self.h2.append("")
        elif tag == "section":
            self.sections.append(a.get("id", ""))
        elif tag == "img":
            self.images.append(a.get("src", ""))
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "svg":
            self.svg += 1

    def handle_endtag(self, tag):
        if tag == "h2":
            self._heading = False

    def handle_data(self, data):
        if self._heading:
            self.h2[-1] += data


@pytest.fixture(scope="module")
def whole_folder() -> str:
    # every scenario, capped at 40 rounds, with the figure every game has: fast enough
    return render_report(SCENARIOS, rounds=40, dpi=30, figures=["mistakes"])


def test_the_report_names_every_scenario_of_the_folder(whole_folder):
    page = Page(whole_folder)
    names = sorted(p.stem for p in SCENARIOS.glob("*.toml"))
    assert len(names) >= 2
    assert page.h2 == names
    assert page.sections == [f"s-{n}" for n in names]
    assert sorted(page.links) == sorted(f"#s-{n}" for n in names)  # the index links each one
    assert "script" not in page.tags  # static: no JavaScript
    assert len(page.images) == len(names)  # one mistakes figure per game
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(PNG)


def test_every_scenario_of_the_folder_plays_without_error(whole_folder):
    assert 'class="error"' not in whole_folder
    assert whole_folder.count("<caption>summary</caption>") == len(list(SCENARIOS.glob("*.toml")))


def test_a_scenario_shows_every_figure_that_applies():
    page = render_report(SCENARIOS, only=["halving_lower_bound"], dpi=30)
    assert Page(page).h2 == ["halving_lower_bound"]
    assert [f"{n}</figcaption>" in page for n in ("mistakes", "regret", "potential")] == [True] * 3
    assert "every expectation holds" in page and "as stated" in page


def test_figures_can_be_inline_svg(tmp_path):
    out = write_report(
        SCENARIOS, tmp_path / "r" / "report.html", only=["soa_thresholds"], fmt="svg"
    )
    page = Page(out.read_text(encoding="utf-8"))
    assert page.svg >= 3 and page.images == []


def test_a_broken_scenario_is_reported_and_the_page_still_written(tmp_path):
    shutil.copy(SCENARIOS / "halving_lower_bound.toml", tmp_path)
    (tmp_path / "broken.toml").write_text(
        'rounds = 10\n[learner]\nname = "perceptorn"\n[adversary]\nname = "replay"\n',
        encoding="utf-8",
    )
    page = render_report(tmp_path, figures=[])
    assert Page(page).h2 == ["broken", "halving_lower_bound"]
    assert "did you mean &#x27;perceptron&#x27;" in page
    assert page.count('class="error"') == 1


def test_a_capped_game_says_so_and_skips_the_exact_expectations():
    entry = play_entry(SCENARIOS / "perceptron_separable.toml", rounds=30, figures=[])
    assert entry.capped == 30 and len(entry.transcript) == 30 and entry.failures == []
    entry = play_entry(SCENARIOS / "halving_lower_bound.toml", rounds=1000, figures=[])
    assert entry.capped is None and entry.failures == []  # the cap is above the game


def test_report_errors_are_clear(tmp_path):
    with pytest.raises(GameError, match="no scenario"):
        render_report(tmp_path)


@pytest.mark.parametrize(
    ("call", "parameter", "message"),
    [
        (
            lambda tmp: render_report(tmp / "missing"),
            "folder",
            "folder must be a folder of scenarios",
        ),
        (
            lambda tmp: render_report(5),
            "folder",
            "folder must be a path (str or os.PathLike), got 5",
        ),
        (
            lambda tmp: render_report(SCENARIOS, fmt="gif"),
            "fmt",
            "fmt must be one of 'png', 'svg', got 'gif'",
        ),
        (
            lambda tmp: render_report(SCENARIOS, figures=["bars"]),
            "figures",
            "(unknown figure 'bars')",
        ),
        (
            lambda tmp: render_report(SCENARIOS, figures="tree"),
            "figures",
            "figures must be figure names",
        ),
        (
            lambda tmp: render_report(SCENARIOS, rounds=-1),
            "rounds",
            "rounds must be an integer ≥ 0",
        ),
        (lambda tmp: render_report(SCENARIOS, dpi=0), "dpi", "dpi must be a number > 0, got 0"),
        (lambda tmp: play_entry(5), "path", "path must be a path (str or os.PathLike), got 5"),
        (
            lambda tmp: play_entry(SCENARIOS / "perceptron_separable.toml", rounds=True),
            "rounds",
            "got True",
        ),
        (lambda tmp: write_report(SCENARIOS, 5), "out", "out must be a path"),
    ],
    ids=[
        "missing",
        "not a path",
        "fmt",
        "figure",
        "figures text",
        "rounds",
        "dpi",
        "entry path",
        "entry rounds",
        "out",
    ],
)
def test_a_bad_argument_is_a_parameter_error_naming_it(tmp_path, call, parameter, message):
    with pytest.raises(ParameterError, match=re.escape(message)) as info:
        call(tmp_path)
    assert info.value.parameter == parameter
