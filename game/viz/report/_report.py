"""A static HTML page that plays every scenario of a folder: a gallery of the theorems.

``python -m game report scenarios/ --out report.html`` plays each ``*.toml`` of
the folder (in name order), and writes one self-contained page: an index of
the games (mistakes beside the bound, the verdict), then per scenario its
description, its summary table, its ``[expect]`` checks and its figures,
embedded as base64 PNG (or inline SVG). No server, no JavaScript, no file
beside the page.

Every scenario is played with snapshots when its learner logs them, so the
proof's potential can be drawn; snapshots do not change a game's digest. The
figures drawn are those that apply (:func:`game.viz.plots.figures_for`): the
mistakes against the bounds (every game), the regret (games of expert advice,
finite classes included), the potential (learners whose class declares a proof
:func:`game.viz.plots.plot_potential` draws) and the tree an adversary walked
(adversaries that hold a Littlestone tree). A scenario that fails to load or to
play is reported with its error; the page is still written.

Examples
--------
>>> page = render_report("scenarios", rounds=50, only=["perceptron_separable"])
>>> page.startswith("<!DOCTYPE html>"), "perceptron_separable" in page, "<script" in page
(True, True, False)
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Callable, Iterable
from html import escape
from pathlib import Path
from typing import Any

import attrs

from game.errors import (
    GameError,
    ParameterError,
    check_choice,
    check_instance,
    check_integer,
    check_positive,
)
from game.scenario import load_scenario
from game.transcript import versions
from game.viz._figure_kinds import FIGURE_KINDS
from game.viz._html import STYLE, format_value, summary_rows, table
from game.viz.plots import figure_bytes, figure_for, figures_for, require_matplotlib

__all__ = ["FIGURES", "ScenarioEntry", "play_entry", "render_report", "write_report"]

#: The figures a report may draw, in order: every figure of a transcript.
FIGURES = FIGURE_KINDS

_PAGE_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72em; margin: 1.5em auto; padding: 0 1em;
  color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-top: 1px solid #ddd;
  padding-top: 0.8em; }
.olg figure { display: inline-block; margin: 0.3em 0.8em 0.3em 0; vertical-align: top; }
.olg figure img, .olg figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
.olg figcaption { font-size: 0.85em; color: #555; }
.olg .error { color: #c62828; white-space: pre-wrap; }
"""


@attrs.define
class ScenarioEntry:
    """One scenario of a report: its game, or the error that stopped it.

    Attributes
    ----------
    path : Path
        The scenario file.
    description : str
        Its description.
    transcript : Transcript or None
        The game played.
    failures : list of str
        The ``[expect]`` entries the game fails.
    figures : dict
        Figure name -> encoded image (bytes: PNG; str: SVG text).
    skipped : dict
        Figure name -> why it was not drawn (for the figures that apply but failed).
    error : str or None
        Why the scenario could not be played.
    capped : int or None
        The rounds cap applied, when it shortened the game.
    """

    path: Path
    description: str = ""
    transcript: Any = None
    failures: list = attrs.field(factory=list)
    figures: dict = attrs.field(factory=dict)
    skipped: dict = attrs.field(factory=dict)
    error: str | None = None
    capped: int | None = None

    @property
    def name(self) -> str:
        """The scenario's name: its file name without ``.toml``."""
        return self.path.stem


_PATH = "a path (str or os.PathLike)"


def _options(rounds: Any, fmt: Any, dpi: Any, figures: Any) -> tuple[str, tuple[str, ...]]:
    """A report's options, checked: the format and the figures (as a tuple)."""
    if rounds is not None:
        check_integer("rounds", rounds, low=0)
    fmt = check_choice("fmt", fmt, ("png", "svg"))
    check_positive("dpi", dpi)
    expected = "figure names, some of " + ", ".join(FIGURES)
    if isinstance(figures, str) or not isinstance(figures, Iterable):
        raise ParameterError("figures", figures, expected)
    figures = tuple(figures)
    unknown = [f for f in figures if f not in FIGURES]
    if unknown:
        raise ParameterError("figures", list(figures), expected, f"unknown figure {unknown[0]!r}")
    return fmt, figures


def play_entry(
    path: str | os.PathLike,
    *,
    rounds: int | None = None,
    fmt: str = "png",
    dpi: int = 80,
    figures: Iterable[str] = FIGURES,
    progress: bool | Callable | None = None,
) -> ScenarioEntry:
    """Play one scenario for a report and draw its figures.

    Parameters
    ----------
    path : path-like
        The scenario file.
    rounds : int, optional
        Play at most this many rounds (the scenario's own limit when lower).
    fmt : {"png", "svg"}
        How figures are encoded.
    dpi : int
        PNG resolution.
    figures : iterable of str
        The figures to draw where they apply (default: all of :data:`~game.viz.FIGURE_KINDS`).
    progress : bool or callable, optional
        The progress display while each game runs, as :func:`game.play` takes it
        (True: the default bar; a callable ``progress(done, rounds)``, with a
        ``step`` method to show the steps of the game's end).

    Raises
    ------
    ParameterError
        For a bad option (a scenario that fails to load or play is the entry's
        ``error`` instead).
    """
    check_instance("path", path, (str, os.PathLike), _PATH)
    fmt, figures = _options(rounds, fmt, dpi, figures)
    entry = ScenarioEntry(path=Path(path))
    try:
        scenario = load_scenario(path)
        entry.description = scenario.description
        learner_cls, _ = scenario.player_spec("learner")
        cap = rounds if rounds is not None and rounds < scenario.rounds else None
        entry.capped = cap
        transcript = scenario.play(
            rounds=cap,
            snapshots=True if callable(getattr(learner_cls, "snapshot", None)) else None,
            check=False,
            progress=progress,
        )
        entry.transcript = transcript
        entry.failures = scenario.check(transcript, exact=cap is None)
    except GameError as exc:
        entry.error = str(exc)
        return entry
    wanted = set(figures)
    for name in (f for f in figures_for(transcript) if f in wanted):
        try:
            fig = figure_for(transcript, name)
        except GameError as exc:
            entry.skipped[name] = str(exc)
            continue
        data = figure_bytes(fig, fmt, dpi=dpi)
        entry.figures[name] = data if fmt == "png" else data.decode("utf-8")
    return entry


def _anchor(name: str) -> str:
    return "s-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def _figure_html(name: str, data: bytes | str, entry: ScenarioEntry) -> str:
    alt = f"{name} figure of {entry.name}"
    if isinstance(data, bytes):
        image = (
            f'<img alt="{escape(alt)}" src="data:image/png;base64,'
            f'{base64.b64encode(data).decode("ascii")}">'
        )
    else:
        image = re.sub(r"^.*?(<svg)", r"\1", data, count=1, flags=re.S)  # drop the XML prolog
    return f"<figure>{image}<figcaption>{escape(name)}</figcaption></figure>"


def _verdict(entry: ScenarioEntry) -> str:
    if entry.error is not None:
        return '<span class="bad">error</span>'
    s = entry.transcript.summary()
    bad = entry.failures or s["within_bound"] is False or s["forced"] is False
    return '<span class="bad">fails</span>' if bad else '<span class="ok">as stated</span>'


def _index(entries: list[ScenarioEntry]) -> str:
    header = ["scenario", "learner", "adversary", "rounds", "mistakes", "bound", "verdict"]
    parts = ["<table><caption>scenarios</caption><tr>"]
    parts.append("".join(f"<th>{h}</th>" for h in header) + "</tr>")
    for e in entries:
        link = f'<a href="#{_anchor(e.name)}">{escape(e.name)}</a>'
        if e.transcript is None:
            cells = ["—"] * 5
        else:
            s = e.transcript.summary()
            bound = (
                "—"
                if s["bound"] is None
                else f"{s['bound_quantity']} ≤ {format_value(s['bound'], 4)}"
            )
            cells = [s["learner"], s["adversary"], s["rounds"], s["mistakes"], bound]
        row = [link, *(escape(format_value(c)) for c in cells), _verdict(e)]
        parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    parts.append("</table>")
    return "".join(parts)


def _section(entry: ScenarioEntry) -> str:
    parts = [f'<section id="{_anchor(entry.name)}">', f"<h2>{escape(entry.name)}</h2>"]
    if entry.description:
        parts.append(f"<p>{escape(entry.description)}</p>")
    parts.append(f'<p class="dim">{escape(str(entry.path))}</p>')
    if entry.error is not None:
        parts.append(f'<p class="error">{escape(entry.error)}</p></section>')
        return "".join(parts)
    if entry.capped is not None:
        parts.append(
            f'<p class="dim">played for at most {entry.capped} rounds (a cap on the '
            "report); the expectations of one exact game are not checked</p>"
        )
    parts.append(table(summary_rows(entry.transcript), caption="summary"))
    if entry.failures:
        items = "".join(f"<li>{escape(f)}</li>" for f in entry.failures)
        parts.append(f'<p class="bad">expectations failed:</p><ul>{items}</ul>')
    else:
        parts.append('<p><span class="ok">every expectation holds</span></p>')
    for name, data in entry.figures.items():
        parts.append(_figure_html(name, data, entry))
    for name, why in entry.skipped.items():
        parts.append(f'<p class="dim">{escape(name)} figure not drawn: {escape(why)}</p>')
    parts.append("</section>")
    return "".join(parts)


def _scenario_files(folder: Path, only: Iterable[str] | None) -> list[Path]:
    if not folder.is_dir():
        raise ParameterError("folder", str(folder), "a folder of scenarios")
    files = sorted(folder.glob("*.toml"))
    if only is not None:
        wanted = set(only)
        files = [f for f in files if f.stem in wanted or f.name in wanted]
    if not files:
        raise GameError(f"{folder}: no scenario (.toml) files found")
    return files


def render_report(
    folder: str | os.PathLike,
    *,
    rounds: int | None = None,
    fmt: str = "png",
    dpi: int = 80,
    figures: Iterable[str] = FIGURES,
    only: Iterable[str] | None = None,
    on_scenario: Callable | None = None,
    progress: bool | Callable | None = None,
) -> str:
    """Play every scenario of ``folder`` and return the report's HTML.

    Parameters
    ----------
    folder : path-like
        A folder of ``.toml`` scenarios (not searched recursively).
    rounds : int, optional
        Play each game for at most this many rounds (a quick preview); the
        expectations tied to one exact game are then skipped where it applies.
    fmt : {"png", "svg"}
        Figures as base64 PNG images or inline SVG.
    dpi : int
        PNG resolution.
    figures : iterable of str
        The figures to draw where they apply (default: all of :data:`~game.viz.FIGURE_KINDS`).
    only : iterable of str, optional
        Only the scenarios with these names (file names, with or without ``.toml``).
    on_scenario : callable, optional
        ``on_scenario(name, index, count)`` before each scenario is played.
    progress : callable, optional
        Passed to each game (see :func:`game.play`).

    Raises
    ------
    ParameterError
        For a folder that is not one, ``fmt`` neither png nor svg, an unknown
        figure, a bad ``rounds`` or ``dpi``.
    GameError
        When the folder has no scenario.
    """
    check_instance("folder", folder, (str, os.PathLike), _PATH)
    fmt, figures = _options(rounds, fmt, dpi, figures)
    require_matplotlib()
    folder = Path(folder)
    files = _scenario_files(folder, only)
    entries = []
    for i, path in enumerate(files):
        if on_scenario is not None:
            on_scenario(path.stem, i, len(files))
        entries.append(
            play_entry(path, rounds=rounds, fmt=fmt, dpi=dpi, figures=figures, progress=progress)
        )
    v = versions()
    title = f"{folder.name or folder}/: every scenario played, a gallery of the theorems"
    head = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}{_PAGE_STYLE}</style></head>"
    )
    capped = f"; every game capped at {rounds} rounds" if rounds is not None else ""
    intro = (
        f"<h1>{escape(title)}</h1><p>{len(entries)} games, each played from its scenario "
        f"file and checked against its bounds and its <code>[expect]</code> table{capped}. "
        f"online-learning-games {escape(v.get('online-learning-games', '?'))}, "
        f"Python {escape(v['python'])}, numpy {escape(v['numpy'])}.</p>"
    )
    body = "".join(_section(e) for e in entries)
    return f'{head}<body class="olg">{intro}{_index(entries)}{body}</body></html>\n'


def write_report(folder: str | os.PathLike, out: str | os.PathLike, **options) -> Path:
    """Write :func:`render_report` of ``folder`` to ``out`` (its folder is made) and return it."""
    check_instance("out", out, (str, os.PathLike), _PATH)
    page = render_report(folder, **options)
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise GameError(f"{out}: cannot write the report: {exc.strerror or exc}") from None
    return out
