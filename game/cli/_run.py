"""``python -m game run``: play a scenario, print its summary, write its transcript.

::

    python -m game run SCENARIO [--out FILE | --no-out] [--force] [--seed N] [--rounds N]
        [--snapshots] [--plot FILE] [--plot-kind KIND] [--quiet | --progress]
        [--keep memory|disk] [--trace]

SCENARIO is a ``.toml`` file or a built-in scenario's name
(``python -m game run perceptron-separable``, from any folder). The summary is
:func:`game.viz.summary_entries` drawn as a rich table; the transcript goes to
``runs/NAME.jsonl`` (NAME: the scenario file's stem) unless told otherwise. An
existing transcript (or ``--plot`` figure) is replaced only with ``--force``,
and a file the game reads (the scenario, its data) never: the command refuses
before the game starts. The transcript is written to a temporary file beside
it and renamed when the game ends; an interrupted or failed game keeps its
complete rounds, marked aborted (see :func:`game.play`). A scenario's
``[expect]`` table is checked after the game (exactly only without ``--seed``
or ``--rounds``): a failure exits with 1 after the summary is printed.

A game whose rounds would take more than half the available memory keeps
them on disk as it plays (``keep="disk"`` of :func:`game.play`, beside the
transcript), so its memory stays what the players hold; ``--keep`` chooses.

``--trace`` prints one line per round as the game runs, before the summary
(``trace_line``)::

    t  instance                        p      y   ✗/✓  mistakes  snapshot k=v …

the round, the instance in short (``summarize``), the prediction, the
label, ✗ for a mistake (✓ otherwise), the mistakes so far and the learner's
snapshot, its numbers to 4 significant digits and its vectors shown as
instances are. It logs the snapshots when the learner has them and shows no
progress bar.
"""

from __future__ import annotations

import argparse
import math
import numbers
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.cli._output import check_out, rounds_bar, scenario_inputs
from game.engine import KEEP
from game.errors import ExpectationError
from game.scenario import load_scenario
from game.transcript import Transcript
from game.viz import FIGURE_KINDS, SummaryRow, format_value, summary_entries

__all__ = ["TraceLines", "add_parser", "run", "summarize", "summary_table", "trace_line"]

_RUNS = Path("runs")


#: How many entries of a vector a line shows before "…".
SHOWN = 4
#: How many bits or signs a line shows before "…".
SHOWN_BITS = 24


def _number(v: float, digits: int = 4) -> str:
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return str(int(v))
    v = float(v)
    if math.isfinite(v) and v == int(v) and abs(v) < 1e6:
        return str(int(v))
    return f"{v:.{digits}g}"


def _vector(a: np.ndarray, size: str = "d") -> str:
    a = np.ravel(a)
    head = ", ".join(_number(v, 3) for v in a[:SHOWN])
    more = ", …" if a.size > SHOWN else ""
    return f"[{head}{more}] ({size}={a.size})"


def summarize(x: Any, kind: str | None = None) -> str:
    """A short view of an instance, as the trace shows it; ``kind`` as the adversary presents.

    A real vector by its first entries and its length (``[0.12, -0.5, …] (d=100)``),
    a point of a finite class by its index (``point 17``), a bit vector by its
    bits (``bits 0110… (n=40)``), advice of ±1 as signs (``+-+… (N=64)``) and
    graded advice as a vector.

    Examples
    --------
    >>> import numpy as np
    >>> from game.transcript import Round
    >>> r = Round(3, np.array([0.125, -0.5, 2.0]), 1.0, -1, True, 1.0, True, {}, {"norm2": 2.0})
    >>> print(trace_line(r, 2, kind="vector", width=3).plain)
      3  [0.125, -0.5, 2] (d=3)  +1  -1  ✗  mistakes 2  norm2=2
    >>> summarize(np.array([1, -1, 1, 1], dtype=np.int8), "advice")
    '+-++ (N=4)'
    >>> summarize(7, "point"), summarize(np.array([1, 0, 1], dtype=bool), "bits")
    ('point 7', 'bits 101 (n=3)')
    """
    if (isinstance(x, numbers.Integral) and not isinstance(x, bool)) or kind == "point":
        return f"point {int(x)}" if np.ndim(x) == 0 else _vector(np.asarray(x))
    a = np.asarray(x)
    if a.ndim != 1:
        return f"array of shape {a.shape}"
    if kind == "bits" or a.dtype == np.bool_:
        bits = "".join("1" if b else "0" for b in a[:SHOWN_BITS])
        return f"bits {bits}{'…' if a.size > SHOWN_BITS else ''} (n={a.size})"
    if kind == "advice" and a.size and np.all((a == 1) | (a == -1)):
        signs = "".join("+" if v > 0 else "-" for v in a[:SHOWN_BITS])
        return f"{signs}{'…' if a.size > SHOWN_BITS else ''} (N={a.size})"
    return _vector(a, "N" if kind == "advice" else "d")


def _value(v: Any) -> str:
    if np.ndim(v) > 0:
        return _vector(np.asarray(v))
    try:
        return _number(v)
    except (TypeError, ValueError):
        return str(v)


def _prediction(p: float) -> str:
    return f"{p:+.0f}" if p in (1.0, -1.0) else f"{p:+.3f}"


def trace_line(rnd: Any, mistakes: int, *, kind: str | None = None, width: int = 1) -> Text:
    """Round ``rnd`` (a :class:`~game.transcript.Round`) as one styled line of the trace.

    ``mistakes`` is the mistakes so far, ``kind`` the kind of instance, ``width``
    the digits the round's number is padded to.
    """
    line = Text()
    line.append(f"{rnd.t:>{width}}", style="bold")
    line.append(f"  {summarize(rnd.instance, kind)}  ")
    line.append(f"{_prediction(rnd.prediction)}  {rnd.label:+d}  ")
    line.append("✗" if rnd.mistake else "✓", style="red" if rnd.mistake else "green")
    line.append(f"  mistakes {mistakes}")
    if rnd.snapshot:
        shown = " ".join(f"{k}={_value(v)}" for k, v in rnd.snapshot.items())
        line.append(f"  {shown}", style="dim")
    return line


class TraceLines:
    """The trace callback of ``run --trace``: :func:`trace_line` of each round, on ``console``.

    Examples
    --------
    >>> import io
    >>> from rich.console import Console
    >>> from game import load_scenario
    >>> shown = io.StringIO()
    >>> lines = TraceLines(Console(file=shown, width=200), kind="advice", rounds=10)
    >>> _ = load_scenario("halving_lower_bound").play(rounds=3, check=False, trace=lines)
    >>> print(shown.getvalue().rstrip())
     1  -+-+-+-+-+-+-+-+-+-+-+-+… (N=1024)  +1  -1  ✗  mistakes 1  consistent=512
     2  --++--++--++--++--++--++… (N=1024)  +1  -1  ✗  mistakes 2  consistent=256
     3  ----++++----++++----++++… (N=1024)  +1  -1  ✗  mistakes 3  consistent=128
    """

    def __init__(self, console: Any, *, kind: str | None = None, rounds: int = 1) -> None:
        self.console = console
        self.kind = kind
        self.width = len(str(max(int(rounds), 1)))

    def __call__(self, rnd: Any, mistakes: int) -> None:
        self.console.print(trace_line(rnd, mistakes, kind=self.kind, width=self.width))


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``run`` command to an argparse subparsers object."""
    p = subparsers.add_parser("run", help="play a scenario and print its summary")
    p.add_argument("scenario", help="a scenario .toml file or a built-in scenario's name")
    p.add_argument("--out", type=Path, help="transcript file (default runs/NAME.jsonl)")
    p.add_argument("--no-out", action="store_true", help="write no transcript")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing --out or --plot file (never a file the game reads)",
    )
    p.add_argument("--seed", type=int, help="override the scenario's seed")
    p.add_argument("--rounds", type=int, help="override the scenario's rounds")
    p.add_argument("--snapshots", action="store_true", help="log the learner's snapshots")
    p.add_argument("--plot", type=Path, metavar="FILE", help="write a figure (.png, .svg, .pdf)")
    p.add_argument(
        "--plot-kind",
        default="mistakes",
        choices=FIGURE_KINDS,
        help="the figure (default mistakes)",
    )
    p.add_argument(
        "--keep",
        choices=KEEP,
        help="keep the rounds in memory or on disk while the game runs (default: on disk "
        "when they would take over half the available memory)",
    )
    p.add_argument(
        "--trace",
        action="store_true",
        help="print every round as it is played (turns on snapshots; no progress bar)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--progress", action="store_true", help="a progress bar even when not on a terminal"
    )
    return p


def _cell(row: SummaryRow) -> Text:
    text = Text() if row.value is None else Text(format_value(row.value))
    if row.verdict is not None:
        style = "" if row.ok is None else ("green" if row.ok else "red")
        text.append("  " if text else "").append(row.verdict, style=style)
    if not text:
        text.append("—")
    if row.note is not None:
        text.append("\n").append(row.note, style="dim")
    return text


def summary_table(transcript: Transcript, title: str | None = None) -> Table:
    """A rich table of a game's summary (:func:`~game.viz.summary_entries`).

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> from learners.experts import Halving
    >>> game = play(Halving(), HalvingLowerBound(experts=8), rounds=10)
    >>> table = summary_table(game, title="Halving against the balanced adversary")
    >>> for label, cell in zip(table.columns[0].cells, table.columns[1].cells):
    ...     print(f"{label:>20}  {cell}")  # doctest: +ELLIPSIS
                 learner  halving
               adversary  halving-lower-bound
                  rounds  3
                mistakes  3
                 updates  3
         loss (zero-one)  3
                   bound  mistakes ≤ 3  holds
                 theorem  mistakes ≤ log₂ N = log₂ 8 when a perfect expert exists
    Abernethy lecture 16 (seed 004), Theorem 16.1
             lower bound  mistakes ≥ 3  forced
    Abernethy lecture 16 (seed 004), §16.1.2, ...
             certificate  expert 0 of 8 (realizable)
    certificate verified  yes
                  status  complete
               wall time  ... s
                  digest  sha256:...
    """
    shown = None if title is None else Text(title, style="table.title")
    table = Table(title=shown, show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")  # a digest is never cut short
    for row in summary_entries(transcript):
        table.add_row(row.label, _cell(row))
    return table


def _trace(scenario, args: argparse.Namespace, console: Console) -> tuple[TraceLines, bool]:
    """The trace's printer, and whether the learner logs snapshots (then they are turned on)."""
    learner, _ = scenario.player_spec("learner")
    adversary, _ = scenario.player_spec("adversary")
    kind = getattr(adversary, "presents", None)
    rounds = args.rounds if args.rounds is not None else scenario.spec.get("rounds", 1)
    lines = TraceLines(console, kind=kind if isinstance(kind, str) else None, rounds=rounds)
    return lines, callable(getattr(learner, "snapshot", None))


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the scenario, print its summary and check its expectations; the exit status."""
    scenario = load_scenario(args.scenario)
    stem = scenario.source.stem
    out = None if args.no_out else (args.out or _RUNS / f"{stem}.jsonl")
    inputs = scenario_inputs(scenario)
    check_out(out, force=args.force, inputs=inputs)
    check_out(args.plot, force=args.force, inputs=[*inputs, *([out] if out else [])], flag="--plot")
    snapshots = args.snapshots or (args.plot is not None and args.plot_kind == "potential") or None
    trace = None
    if args.trace:
        trace, logs = _trace(scenario, args, console)
        snapshots = snapshots or logs or None
    bar = rounds_bar(argparse.Namespace(quiet=True) if args.trace else args, stem)
    try:
        transcript = scenario.play(
            seed=args.seed,
            rounds=args.rounds,
            out=out,
            overwrite=args.force,
            snapshots=snapshots,
            check=False,
            progress=bar if bar.enabled else None,
            keep=args.keep,
            trace=trace,
        )
    finally:
        bar.close()
    exact = args.seed is None and args.rounds is None
    failures = scenario.check(transcript, exact=exact)
    title = scenario.description or str(args.scenario)
    console.print(summary_table(transcript, title=title))
    if out is not None:
        console.print(f"transcript written to {out}", markup=False)
    if args.plot is not None:
        from game.viz.plots import figure_for, save_figure

        written = save_figure(figure_for(transcript, args.plot_kind), args.plot)
        console.print(f"figure written to {written}", markup=False)
    if failures:
        raise ExpectationError(f"{args.scenario}: " + "; ".join(failures))
    if scenario.expect:
        console.print("[green]every expectation holds[/]")
    return 0
