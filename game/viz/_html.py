"""HTML tables of transcripts and sweeps: what Jupyter shows, and what the report embeds.

:func:`transcript_html` is ``Transcript._repr_html_``: the summary first (counts
beside the bound, certificate, digest), then the first and last rounds. The
summary's rows come from :func:`summary_entries`, which the command line's
table (``python -m game run``) renders too, so both show the same rows.
:func:`sweep_html` renders a :class:`~game.sweep.SweepResult`: its figure
when one is given, the summary per grid point, then its first games.
:func:`scenario_html` renders a :class:`~game.scenario.Scenario` before it is
played: its players, their parameters and its expectations. Plain tables, no
JavaScript; every value is escaped.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(3, 0.2, 1.0, np.random.default_rng(0)), rounds=50)
>>> text = transcript_html(tr)
>>> text.startswith("<div"), "mistakes" in text, text.index("summary") < text.index("rounds")
(True, True, True)
"""

from __future__ import annotations

import base64
from html import escape
from typing import Any

import attrs
import numpy as np

from game.errors import check_integer

__all__ = [
    "STYLE",
    "SummaryRow",
    "format_value",
    "scenario_html",
    "summary_entries",
    "summary_rows",
    "sweep_html",
    "table",
    "transcript_html",
]

#: The CSS the tables use (class names prefixed ``olg-``).
STYLE = """
.olg table { border-collapse: collapse; margin: 0.4em 0 1em 0; font-size: 0.9em; }
.olg caption { text-align: left; font-weight: bold; padding: 0.2em 0; }
.olg th, .olg td { border: 1px solid #ccc; padding: 0.15em 0.6em; text-align: left;
  vertical-align: top; }
.olg th { background: #f3f3f3; }
.olg td.num { text-align: right; font-variant-numeric: tabular-nums; }
.olg .ok { color: #1a7f37; font-weight: bold; }
.olg .bad { color: #c62828; font-weight: bold; }
.olg .dim { color: #666; font-size: 0.9em; }
.olg code { font-size: 0.85em; word-break: break-all; }
"""


def format_value(value: Any, digits: int = 6) -> str:
    """A value as short text: None as —, booleans as yes/no, floats to ``digits`` digits.

    Examples
    --------
    >>> format_value(None), format_value(True), format_value(2 / 3), format_value([1, 2])
    ('—', 'yes', '0.666667', '[1, 2]')
    >>> format_value(2 / 3, digits=0)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: digits must be an integer ≥ 1, got 0
    """
    digits = check_integer("digits", digits, low=1)
    if value is None:
        return "—"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        return f"{float(value):.{digits}g}"
    if isinstance(value, np.ndarray):
        return _vector(value)
    return str(value)


def _vector(x: Any, shown: int = 4) -> str:
    array = np.asarray(x)
    if array.ndim == 0:
        return format_value(array.item())
    flat = array.ravel()
    head = ", ".join(format_value(v.item(), 3) for v in flat[:shown])
    more = f", … ({flat.size} entries)" if flat.size > shown else ""
    return f"[{head}{more}]"


def _cell(value: Any, *, tag: str = "td", css: str | None = None) -> str:
    text = value if isinstance(value, _Markup) else escape(format_value(value))
    number = isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool
    )
    classes = " ".join(c for c in (css, "num" if number else None) if c)
    attr = f' class="{classes}"' if classes else ""
    return f"<{tag}{attr}>{text}</{tag}>"


class _Markup(str):
    """Text already escaped (a verdict with its CSS class, a code span)."""


def _verdict(ok: bool | None, yes: str, no: str) -> _Markup:
    if ok is None:
        return _Markup("—")
    css, word = ("ok", yes) if ok else ("bad", no)
    return _Markup(f'<span class="{css}">{escape(word)}</span>')


def table(rows, header=None, caption: str | None = None) -> str:
    """An HTML table of ``rows`` (sequences of cells), with an optional header and caption."""
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{escape(caption)}</caption>")
    if header:
        parts.append("<tr>" + "".join(_cell(h, tag="th") for h in header) + "</tr>")
    for row in rows:
        parts.append("<tr>" + "".join(_cell(c) for c in row) + "</tr>")
    parts.append("</table>")
    return "".join(parts)


@attrs.frozen
class SummaryRow:
    """One row of a game's summary, as every view shows it (the command line's table, HTML).

    Attributes
    ----------
    label : str
        What the row shows: "mistakes", "bound", "digest", ...
    value : object
        Plain data (a count, a float, text), or None for nothing to show (drawn as —).
    verdict : str or None
        A word judging the value: "holds" or "violated", "forced", "yes" or "no".
    ok : bool or None
        Whether the verdict is good news (drawn green) or bad (red).
    note : str or None
        A second, dimmer line: where the theorem comes from.
    code : bool
        The value is an identifier shown whole and verbatim (the digest).

    Examples
    --------
    >>> SummaryRow("bound", "mistakes ≤ 10", verdict="holds", ok=True).text
    'mistakes ≤ 10 holds'
    >>> SummaryRow("certificate verified").text
    '—'
    """

    label: str
    value: Any = None
    verdict: str | None = None
    ok: bool | None = None
    note: str | None = None
    code: bool = False

    @property
    def text(self) -> str:
        """The value and its verdict as one line of plain text (— when it has neither)."""
        parts = [] if self.value is None else [format_value(self.value)]
        if self.verdict is not None:
            parts.append(self.verdict)
        return " ".join(parts) or "—"


def _judged(label: str, value: Any, ok: bool | None, yes: str, no: str, note=None) -> SummaryRow:
    verdict = None if ok is None else (yes if ok else no)
    return SummaryRow(label, value, verdict, None if ok is None else bool(ok), note)


def _not_applicable(label: str, value: Any, reason: str, note=None) -> SummaryRow:
    """A bound whose theorem does not apply to the game: no verdict, the failing hypothesis."""
    return SummaryRow(label, value, f"not applicable ({reason})", None, note)


def summary_entries(transcript) -> list[SummaryRow]:
    """The summary of a game, row by row: the one source of every view of it.

    Counts beside the bound (with the theorem and its source), the lower bound
    the adversary forces (with its source), the certificate, status, time and
    digest. The command line's table (``python -m game run``) and the HTML
    (``summary_rows``) both render these rows.

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> from learners.experts import Halving
    >>> rows = summary_entries(play(Halving(), HalvingLowerBound(experts=8), rounds=10))
    >>> [(r.label, r.text) for r in rows][3:7]
    [('mistakes', '3'), ('updates', '3'), ('loss (zero-one)', '3'), ('bound', 'mistakes ≤ 3 holds')]
    >>> rows[8].label, rows[8].text
    ('lower bound', 'mistakes ≥ 3 forced')
    """
    s = transcript.summary()
    rows = [
        SummaryRow("learner", s["learner"]),
        SummaryRow("adversary", s["adversary"]),
        SummaryRow("rounds", s["rounds"]),
        SummaryRow("mistakes", s["mistakes"]),
        SummaryRow("updates", s["updates"]),
        SummaryRow(f"loss ({s['loss_name']})", s["loss"]),
    ]
    if s["bound"] is not None:
        claim = f"{s['bound_quantity']} ≤ {format_value(s['bound'])}"
        if s["bound_not_applicable"]:
            rows.append(_not_applicable("bound", claim, s["bound_not_applicable"]))
        else:
            rows.append(_judged("bound", claim, s["within_bound"], "holds", "violated"))
        rows.append(SummaryRow("theorem", s["theorem"], note=s["source"]))
    else:
        rows.append(SummaryRow("bound"))
    if s["lower_bound"] is not None:
        lower = transcript.lower_bound
        claim = f"{lower.quantity} ≥ {format_value(s['lower_bound'])}"
        if s["lower_bound_not_applicable"]:
            why = s["lower_bound_not_applicable"]
            rows.append(_not_applicable("lower bound", claim, why, note=lower.source))
        else:
            rows.append(
                _judged(
                    "lower bound", claim, s["forced"], "forced", "not forced", note=lower.source
                )
            )
    if s["certificate"] is not None:
        kind = "realizable" if s["certificate_realizable"] else "comparator"
        rows.append(SummaryRow("certificate", f"{s['certificate']} ({kind})"))
    rows.append(_judged("certificate verified", None, s["certificate_verified"], "yes", "no"))
    if s.get("unchecked"):
        claimed = ", ".join(s["unchecked"]) + " (as the file claims)"
        rows.append(SummaryRow("not recomputed", claimed))
    status = s["status"] + (f": {s['reason']}" if s.get("reason") else "")
    rows.append(SummaryRow("status", status))
    rows.append(SummaryRow("wall time", f"{s['wall_time']:.3f} s"))
    rows.append(SummaryRow("digest", s["digest"], code=True))
    return rows


def _html_value(row: SummaryRow) -> Any:
    """A summary row's value as a cell: plain data as it is, or escaped markup."""
    if row.verdict is None and row.note is None and not row.code:
        return row.value
    parts = [] if row.value is None else [escape(format_value(row.value))]
    if row.code:
        parts = [f"<code>{part}</code>" for part in parts]
    if row.verdict is not None:
        css = "" if row.ok is None else (' class="ok"' if row.ok else ' class="bad"')
        parts.append(f"<span{css}>{escape(row.verdict)}</span>")
    html = " ".join(parts) or "—"
    if row.note is not None:
        html += f"<br><span class='dim'>{escape(row.note)}</span>"
    return _Markup(html)


def summary_rows(transcript) -> list[tuple[str, Any]]:
    """The summary of a game as HTML (label, value) rows, rendered from :func:`summary_entries`.

    A value is plain data or escaped markup (the verdicts, the theorem's source, the digest).
    """
    return [(row.label, _html_value(row)) for row in summary_entries(transcript)]


def _rounds_table(transcript, shown: int) -> str:
    n = len(transcript)
    extras = sorted(transcript.extras)
    header = ["t", "instance", "prediction", "label", "mistake", "loss", "updated", *extras]
    picks = list(range(n)) if n <= 2 * shown else [*range(shown), None, *range(n - shown, n)]
    rows = []
    for i in picks:
        if i is None:
            rows.append([_Markup("…")] * len(header))
            continue
        r = transcript[i]
        rows.append(
            [
                r.t,
                _vector(r.instance),
                r.prediction,
                f"{r.label:+d}",
                r.mistake,
                r.loss,
                r.updated,
                *(r.extras.get(k) for k in extras),
            ]
        )
    caption = f"rounds ({n})" if n <= 2 * shown else f"rounds: the first and last {shown} of {n}"
    return table(rows, header, caption)


def transcript_html(transcript, *, rounds: int = 5) -> str:
    """A transcript as HTML: its summary table, then its first and last ``rounds`` rounds.

    Parameters
    ----------
    transcript : Transcript
        Any game.
    rounds : int, default 5
        Rounds shown at each end, ≥ 0 (all of them when the game has at most
        twice as many).
    """
    rounds = check_integer("rounds", rounds, low=0)
    summary = table(summary_rows(transcript), caption="summary")
    body = summary + (_rounds_table(transcript, rounds) if len(transcript) else "")
    return f'<div class="olg"><style>{STYLE}</style>{body}</div>'


def _summary_header(entries: list[dict], keys: list[str]) -> list[str]:
    quantiles = [k for k in entries[0] if k.startswith("mistakes_q")] if entries else []
    return [
        *keys,
        "games",
        "errors",
        "mistakes mean",
        *(q.replace("mistakes_q", "q") for q in quantiles),
        "max",
        "bound counts",
        "bound min",
        "bound median",
        "violations",
        "violating seeds",
    ]


def sweep_html(result, *, games: int = 10, figure: bytes | None = None) -> str:
    """A sweep as HTML: per grid point the quantiles of mistakes against the bound, then games.

    Parameters
    ----------
    result : SweepResult
        What :func:`game.sweep` returned.
    games : int, default 10
        How many of its per-game rows to show after the summary (≥ 0).
    figure : bytes, optional
        A PNG image shown first (the sweep's figure: ``SweepResult._repr_png_``).

    Examples
    --------
    >>> from game.sweep import SweepResult
    >>> rows = [{"seed": s, "mistakes": s, "updates": s, "bound": 3.0,
    ...          "bound_quantity": "mistakes", "within_bound": s <= 3, "status": "complete"}
    ...         for s in range(5)]
    >>> text = sweep_html(SweepResult(rows=rows, columns=list(rows[0]), requested=5))
    >>> "violating seeds" in text and "4" in text
    True
    """
    games = check_integer("games", games, low=0)
    entries = result.summary()
    keys = list(result.grid_keys)
    rows = []
    for e in entries:
        quantiles = [e[k] for k in e if k.startswith("mistakes_q")]
        seeds = e.get("violation_seeds") or []
        shown = ", ".join(map(str, seeds[:20])) + (" …" if len(seeds) > 20 else "")
        rows.append(
            [
                *(e.get(k) for k in keys),
                e["games"],
                e["errors"],
                e["mistakes_mean"],
                *quantiles,
                e["mistakes_max"],
                e.get("bound_quantity"),
                e.get("bound_min"),
                e.get("bound_median"),
                _verdict(e["violations"] == 0, "0", str(e["violations"])),
                shown or None,
            ]
        )
    state = " (interrupted)" if getattr(result, "interrupted", False) else ""
    caption = f"summary: {len(result)} games of {getattr(result, 'requested', len(result))}{state}"
    body = table(rows, _summary_header(entries, keys), caption)
    if figure:
        encoded = base64.b64encode(figure).decode("ascii")
        image = f'<img alt="the sweep\'s figure" src="data:image/png;base64,{encoded}">'
        body = f"<div>{image}</div>" + body
    if len(result):
        columns = [c for c in result.columns if c not in ("point", "reason")]
        first = [[row.get(c) for c in columns] for row in result.rows[:games]]
        more = f"the first {games} of {len(result)} games" if len(result) > games else "games"
        body += table(first, columns, more)
    return f'<div class="olg"><style>{STYLE}</style>{body}</div>'


def _params(table: dict) -> str:
    """A player's table as ``name (key = value, …)``."""
    rest = ", ".join(f"{k} = {format_value(v)}" for k, v in table.items() if k != "name")
    name = str(table.get("name", "?"))
    return f"{name} ({rest})" if rest else name


def scenario_html(scenario) -> str:
    """A scenario as HTML, before it is played: its game, its players and its expectations.

    Parameters
    ----------
    scenario : Scenario
        What :func:`game.load_scenario` returned.

    Examples
    --------
    >>> from game import load_scenario
    >>> text = scenario_html(load_scenario("scenarios/soa_thresholds.toml"))
    >>> "soa" in text, "optimal-adversary" in text, "thresholds (n = 100)" in text
    (True, True, True)
    """
    spec = scenario.spec
    rows: list[tuple[str, Any]] = [
        ("file", str(scenario.source)),
        ("rounds", spec.get("rounds")),
        ("seed", spec.get("seed", 0)),
        ("loss", spec.get("loss", "zero-one")),
        ("learner", _params(spec.get("learner", {}))),
        ("adversary", _params(spec.get("adversary", {}))),
    ]
    if "concept_class" in spec:
        shared = dict(spec["concept_class"])
        shared.setdefault("name", shared.pop("builder", "?"))
        rows.append(("concept class", _params(shared)))
    body = table(rows, caption=spec.get("description") or "scenario")
    expect = spec.get("expect") or {}
    if expect:
        body += table(list(expect.items()), caption="expected on every run and replay")
    return f'<div class="olg"><style>{STYLE}</style>{body}</div>'
