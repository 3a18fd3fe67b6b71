"""HTML tables of transcripts and sweeps: what Jupyter shows, and what the report embeds.

:func:`transcript_html` is ``Transcript._repr_html_``: the summary first (counts
beside the bound, certificate, digest), then the first and last rounds.
:func:`sweep_html` renders a :class:`~game.sweep.SweepResult`: the
summary per grid point first, then its first games. Plain tables, no
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

from html import escape
from typing import Any

import numpy as np

__all__ = ["STYLE", "format_value", "summary_rows", "sweep_html", "table", "transcript_html"]

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
    """
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


def summary_rows(transcript) -> list[tuple[str, Any]]:
    """The summary of a game as (label, value) rows: counts beside the bound, certificate, digest.

    A value is plain data or escaped markup (the verdicts).
    """
    s = transcript.summary()
    rows: list[tuple[str, Any]] = [
        ("learner", s["learner"]),
        ("adversary", s["adversary"]),
        ("rounds", s["rounds"]),
        ("mistakes", s["mistakes"]),
        ("updates", s["updates"]),
        (f"loss ({s['loss_name']})", s["loss"]),
    ]
    if s["bound"] is not None:
        verdict = _verdict(s["within_bound"], "holds", "violated")
        rows.append(
            (
                "bound",
                _Markup(
                    f"{escape(s['bound_quantity'])} ≤ {escape(format_value(s['bound']))} {verdict}"
                ),
            )
        )
        rows.append(
            (
                "theorem",
                _Markup(
                    f"{escape(s['theorem'])}<br><span class='dim'>{escape(s['source'])}</span>"
                ),
            )
        )
    else:
        rows.append(("bound", None))
    if s["lower_bound"] is not None:
        lower = transcript.lower_bound
        verdict = _verdict(s["forced"], "forced", "not forced")
        rows.append(
            (
                "lower bound",
                _Markup(
                    f"{escape(lower.quantity)} ≥ {escape(format_value(s['lower_bound']))} "
                    f"{verdict}<br><span class='dim'>{escape(lower.source)}</span>"
                ),
            )
        )
    if s["certificate"] is not None:
        kind = "realizable" if s["certificate_realizable"] else "comparator"
        rows.append(("certificate", f"{s['certificate']} ({kind})"))
    rows.append(
        ("certificate verified", _verdict(s["certificate_verified"], "yes", "no"))
        if s["certificate_verified"] is not None
        else ("certificate verified", None)
    )
    status = s["status"] + (f": {s['reason']}" if s.get("reason") else "")
    rows.append(("status", status))
    rows.append(("wall time", f"{s['wall_time']:.3f} s"))
    rows.append(("digest", _Markup(f"<code>{escape(s['digest'])}</code>")))
    return rows


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
        Rounds shown at each end (all of them when the game has at most twice as many).
    """
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


def sweep_html(result, *, games: int = 10) -> str:
    """A sweep as HTML: per grid point the quantiles of mistakes against the bound, then games.

    Parameters
    ----------
    result : SweepResult
        What :func:`game.sweep` returned.
    games : int, default 10
        How many of its per-game rows to show after the summary.

    Examples
    --------
    >>> from game.sweep._result import SweepResult
    >>> rows = [{"seed": s, "mistakes": s, "updates": s, "bound": 3.0,
    ...          "bound_quantity": "mistakes", "within_bound": s <= 3, "status": "complete"}
    ...         for s in range(5)]
    >>> text = sweep_html(SweepResult(rows=rows, columns=list(rows[0]), requested=5))
    >>> "violating seeds" in text and "4" in text
    True
    """
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
    if len(result):
        columns = [c for c in result.columns if c not in ("point", "reason")]
        first = [[row.get(c) for c in columns] for row in result.rows[:games]]
        more = f"the first {games} of {len(result)} games" if len(result) > games else "games"
        body += table(first, columns, more)
    return f'<div class="olg"><style>{STYLE}</style>{body}</div>'
