"""The command line: ``python -m game run | replay | list | expect | sweep | plot | report``.

Bad input (a malformed scenario, a corrupt transcript, an unknown player)
prints one line on standard error and exits with status 2; a game whose
``[expect]`` fails, or a replay that differs from its record, exits with 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from game.cli._ldim import add_ldim_parser, run_ldim
from game.cli._sweep import add_parser as _add_sweep_parser
from game.cli._sweep import run as _sweep
from game.errors import CertificateError, ExpectationError, GameError, ReplayMismatch
from game.players._registry import lookup, names, parameters, role_of
from game.scenario import load_scenario, scenario_from_dict
from game.transcript._transcript import Transcript

__all__ = ["expect_table", "main", "summary_table"]

_RUNS = Path("runs")
#: The figures ``plot --kind`` and ``run --plot-kind`` draw (game.viz.plots.KINDS).
_FIGURES = ("mistakes", "regret", "potential", "tree")


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def summary_table(transcript: Transcript, title: str | None = None) -> Table:
    """A rich table of :meth:`Transcript.summary`: counts beside the bound."""
    s = transcript.summary()
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")  # a digest is never cut short
    table.add_row("learner", _fmt(s["learner"]))
    table.add_row("adversary", _fmt(s["adversary"]))
    table.add_row("rounds", _fmt(s["rounds"]))
    table.add_row("mistakes", _fmt(s["mistakes"]))
    table.add_row("updates", _fmt(s["updates"]))
    table.add_row(f"loss ({s['loss_name']})", _fmt(s["loss"]))
    if s["bound"] is not None:
        verdict = "[green]holds[/]" if s["within_bound"] else "[red]violated[/]"
        table.add_row("bound", f"{s['bound_quantity']} ≤ {_fmt(s['bound'])}  {verdict}")
        table.add_row("theorem", f"{s['theorem']}\n[dim]{s['source']}[/]")
    else:
        table.add_row("bound", "—")
    if s["lower_bound"] is not None:
        verdict = "[green]forced[/]" if s["forced"] else "[red]not forced[/]"
        table.add_row("lower bound", f"mistakes ≥ {_fmt(s['lower_bound'])}  {verdict}")
    if s["certificate"] is not None:
        kind = "realizable" if s["certificate_realizable"] else "comparator"
        table.add_row("certificate", f"{s['certificate']} ({kind})")
    table.add_row("certificate verified", _fmt(s["certificate_verified"]))
    table.add_row("status", s["status"] + (f": {s['reason']}" if s.get("reason") else ""))
    table.add_row("wall time", f"{s['wall_time']:.3f} s")
    table.add_row("digest", s["digest"])
    return table


class RoundsBar:
    """A rich progress bar of a game's rounds with rounds per second, on standard error.

    Used as the ``progress`` callback of :func:`game.play`. It appears only once
    the game has run for about a second, and only when ``enabled``.
    """

    def __init__(self, label: str, enabled: bool, delay: float = 1.0):
        self.label, self.enabled, self.delay = label, enabled, delay
        self.start = time.perf_counter()
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if self.bar is None:
            if elapsed < self.delay:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("rounds, {task.fields[rate]:,.0f} rounds/s"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, rate=0.0)
        self.bar.update(self.task, completed=done, rate=done / max(elapsed, 1e-9))

    def close(self) -> None:
        """Stop the bar (it stays on screen with its last count, as the total)."""
        if self.bar is not None:
            done = self.bar.tasks[0].completed
            self.bar.update(self.task, total=done, completed=done)
            self.bar.stop()
            self.bar = None


def _rounds_bar(args, label: str) -> RoundsBar:
    """The bar ``--progress`` asks for and ``--quiet`` turns off; by default on a terminal."""
    quiet = getattr(args, "quiet", False)
    wanted = getattr(args, "progress", False) or Console(stderr=True).is_terminal
    return RoundsBar(label, enabled=wanted and not quiet)


def _run(args, console: Console) -> int:
    scenario = load_scenario(args.scenario)
    out = None if args.no_out else (args.out or _RUNS / f"{Path(args.scenario).stem}.jsonl")
    snapshots = args.snapshots or (args.plot is not None and args.plot_kind == "potential") or None
    bar = _rounds_bar(args, Path(args.scenario).stem)
    try:
        transcript = scenario.play(
            seed=args.seed,
            rounds=args.rounds,
            out=out,
            snapshots=snapshots,
            check=False,
            progress=bar if bar.enabled else None,
        )
    finally:
        bar.close()
    exact = args.seed is None and args.rounds is None
    failures = scenario.check(transcript, exact=exact)
    title = scenario.description or str(args.scenario)
    console.print(summary_table(transcript, title=title))
    if out is not None:
        console.print(f"transcript written to {out}")
    if args.plot is not None:
        from game.viz.plots import figure_for, save_figure

        console.print(
            f"figure written to {save_figure(figure_for(transcript, args.plot_kind), args.plot)}"
        )
    if failures:
        raise ExpectationError(f"{args.scenario}: " + "; ".join(failures))
    if scenario.expect:
        console.print("[green]every expectation holds[/]")
    return 0


def _replay_transcript(path: Path, console: Console) -> int:
    recorded = Transcript.load(path)
    scenario_meta = recorded.header.get("scenario")
    try:
        if isinstance(scenario_meta, dict) and isinstance(scenario_meta.get("spec"), dict):
            origin = Path(str(scenario_meta.get("path", path)))
            scenario = scenario_from_dict(scenario_meta["spec"], source=origin)
            replayed = scenario.play(check=False)
        else:
            replayed = _replay_learner(recorded, path)
    except CertificateError as exc:
        if recorded.certificate_verified is not True:
            raise
        # the record says the certificate held: its labels were changed since
        raise ReplayMismatch(f"{path}: the replay differs: {exc}") from None
    first = recorded.first_difference(replayed)
    if first is not None:
        raise ReplayMismatch(
            f"{path}: the replay differs first at round {first}: "
            + _describe(recorded, replayed, first)
        )
    console.print(f"[green]identical[/]: {len(recorded)} rounds, digest {recorded.digest}")
    return 0


def _replay_learner(recorded: Transcript, path: Path) -> Transcript:
    """Re-play the recorded learner against the recorded sequence."""
    from adversaries.replay import Replay
    from game.engine import play

    learner_meta = recorded.header.get("learner", {})
    cls = lookup(str(learner_meta.get("name")), "learner")
    params = dict(learner_meta.get("params", {}))
    if any(v == "Generator" for v in params.values()):
        raise GameError(f"{path}: the learner is randomised and the header has no scenario seed")
    try:
        learner = cls(**params)
    except Exception as exc:
        raise GameError(f"{path}: cannot rebuild the learner from its header: {exc}") from None
    return play(learner, Replay(transcript=recorded), rounds=len(recorded), loss=recorded.loss_name)


def _describe(a: Transcript, b: Transcript, t: int) -> str:
    def side(tr: Transcript) -> str:
        if t > len(tr):
            return "no such round"
        r = tr[t - 1]
        return f"p = {r.prediction:g}, y = {r.label:+d}, updated = {r.updated}"

    return f"recorded {side(a)}; replayed {side(b)}"


def _replay(args, console: Console) -> int:
    path = Path(args.target)
    if path.suffix == ".toml":
        scenario = load_scenario(path)
        transcript = scenario.play(check=False)
        failures = scenario.check(transcript)
        if failures:
            raise ReplayMismatch(f"{path}: " + "; ".join(failures))
        console.print(
            f"[green]as recorded[/]: {len(transcript)} rounds, digest {transcript.digest}"
        )
        return 0
    return _replay_transcript(path, console)


def expect_table(transcript: Transcript) -> str:
    """The ``[expect]`` table that pins a game down, as TOML text to paste into its scenario."""
    s = transcript.summary()
    lines = ["[expect]", f"mistakes = {s['mistakes']}", f"updates = {s['updates']}"]
    if s["within_bound"] is not None:
        lines.append(f"within_bound = {'true' if s['within_bound'] else 'false'}")
    if s["certificate_verified"] is not None:
        lines.append(f"certificate_verified = {'true' if s['certificate_verified'] else 'false'}")
    lines.append(f'digest = "{s["digest"]}"')
    return "\n".join(lines)


def _expect(args, console: Console) -> int:
    scenario = load_scenario(args.scenario)
    print(expect_table(scenario.play(check=False)))
    return 0


def _selfcheck(args, console: Console) -> int:
    from game.testing._selfcheck import selfcheck

    report = selfcheck(args.scenarios, seconds=args.seconds, seed=args.seed)
    table = Table(title="selfcheck", show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    table.add_row("players checked", str(report.players))
    table.add_row("checks run", str(report.checks_run))
    table.add_row("checks passed", str(report.checks_run - report.checks_failed))
    table.add_row("malformed scenarios tried", str(report.scenarios_tried))
    table.add_row("  refused with the right ScenarioError", str(report.scenarios_refused))
    table.add_row("damaged transcripts tried", str(report.transcripts_tried))
    table.add_row("  answered rightly", str(report.transcripts_right))
    console.print(table)
    for name, why in report.skipped.items():
        console.print(f"skipped {name}: {why}")
    for message in report.failures + report.fuzz_failures[:20]:
        console.print(f"[red]FAIL[/] {message}", markup=True, highlight=False)
    return 0 if report.ok else 1


def _list(args, console: Console) -> int:
    table = Table(title="registered players")
    table.add_column("name", style="bold")
    table.add_column("role")
    table.add_column("parameters")
    table.add_column("what it is")
    for name in names():
        cls = lookup(name)
        params = []
        for p in parameters(cls):
            if p["name"] == "rng":
                continue
            params.append(p["name"] if p["required"] else f"{p['name']}={p['default']!r}")
        doc = (cls.__doc__ or "").strip().splitlines()
        table.add_row(name, role_of(cls), ", ".join(params), doc[0] if doc else "")
    console.print(table)
    return 0


def _plot(args, console: Console) -> int:
    from game.viz.plots import figure_for, save_figure

    path = Path(args.transcript)
    transcript = Transcript.load(path, allow_incomplete=True)
    out = args.out or path.with_name(f"{path.stem}-{args.kind}.png")
    console.print(f"figure written to {save_figure(figure_for(transcript, args.kind), out)}")
    return 0


def _report(args, console: Console) -> int:
    from game.viz._report import write_report

    quiet = args.quiet or not Console(stderr=True).is_terminal
    bars: list[RoundsBar] = []

    def announce(name: str, index: int, count: int) -> None:
        if bars:
            bars.pop().close()
        if not quiet:
            Console(stderr=True).print(f"[{index + 1}/{count}] {name}", highlight=False)
            bars.append(RoundsBar(name, enabled=True))

    figures = [f.strip() for f in args.figures.split(",") if f.strip()]
    try:
        out = write_report(
            args.folder,
            args.out,
            rounds=args.rounds,
            fmt=args.format,
            figures=figures,
            on_scenario=announce,
            progress=None if quiet else (lambda done, total: bars[-1](done, total)),
        )
    finally:
        for bar in bars:
            bar.close()
    console.print(f"report written to {out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m game", description="Adversary-versus-learner games of online learning."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play a scenario and print its summary")
    run.add_argument("scenario", help="a scenario .toml file")
    run.add_argument("--out", type=Path, help="transcript file (default runs/NAME.jsonl)")
    run.add_argument("--no-out", action="store_true", help="write no transcript")
    run.add_argument("--seed", type=int, help="override the scenario's seed")
    run.add_argument("--rounds", type=int, help="override the scenario's rounds")
    run.add_argument("--snapshots", action="store_true", help="log the learner's snapshots")
    run.add_argument("--plot", type=Path, metavar="FILE", help="write a figure (.png, .svg, .pdf)")
    run.add_argument(
        "--plot-kind", default="mistakes", choices=_FIGURES, help="the figure (default mistakes)"
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument(
        "--progress", action="store_true", help="a progress bar even when not on a terminal"
    )
    replay = sub.add_parser("replay", help="re-play a scenario or transcript, fail on a difference")
    replay.add_argument("target", help="a scenario .toml or a transcript .jsonl")
    sub.add_parser("list", help="every registered player with its parameters")
    check = sub.add_parser("selfcheck", help="conformance checks of every player and a fuzz pass")
    check.add_argument(
        "--scenarios", default="scenarios", help="scenario folder (default scenarios)"
    )
    check.add_argument("--seconds", type=float, default=3.0, help="fuzz pass duration")
    check.add_argument("--seed", type=int, default=0, help="fuzzer seed")
    expect = sub.add_parser("expect", help="print the [expect] table of a scenario's game")
    expect.add_argument("scenario", help="a scenario .toml file")
    _add_sweep_parser(sub)
    add_ldim_parser(sub)
    plot = sub.add_parser("plot", help="draw a transcript: mistakes, regret, potential or tree")
    plot.add_argument("transcript", help="a transcript .jsonl")
    plot.add_argument("--kind", default="mistakes", choices=_FIGURES, help="default mistakes")
    plot.add_argument("--out", type=Path, help="figure file (default TRANSCRIPT-KIND.png)")
    report = sub.add_parser("report", help="play every scenario of a folder into one HTML page")
    report.add_argument("folder", help="a folder of scenario .toml files")
    report.add_argument("--out", type=Path, default=Path("report.html"), help="the HTML file")
    report.add_argument("--rounds", type=int, help="play each game for at most N rounds")
    report.add_argument("--format", default="png", choices=("png", "svg"), help="figures as")
    report.add_argument(
        "--figures",
        default=",".join(_FIGURES),
        help="comma-separated figures to draw where they apply (default all)",
    )
    report.add_argument("--quiet", action="store_true", help="no progress (scenario names, bars)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    console = Console()
    handlers = {
        "run": _run,
        "replay": _replay,
        "list": _list,
        "expect": _expect,
        "selfcheck": _selfcheck,
        "sweep": _sweep,
        "ldim": run_ldim,
        "plot": _plot,
        "report": _report,
    }
    try:
        return handlers[args.command](args, console)
    except (ExpectationError, ReplayMismatch) as exc:
        print(f"failed: {exc}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
