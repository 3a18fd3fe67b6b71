"""The command line: ``python -m game run | replay | list | expect``.

Bad input (a malformed scenario, a corrupt transcript, an unknown player)
prints one line on standard error and exits with status 2; a game whose
``[expect]`` fails, or a replay that differs from its record, exits with 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from game.errors import ExpectationError, GameError, ReplayMismatch
from game.registry import lookup, names, parameters, role_of
from game.scenario import load_scenario, scenario_from_dict
from game.transcript import Transcript

__all__ = ["expect_table", "main", "summary_table"]

_RUNS = Path("runs")


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
    table.add_column("")
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


def _run(args, console: Console) -> int:
    scenario = load_scenario(args.scenario)
    out = None if args.no_out else (args.out or _RUNS / f"{Path(args.scenario).stem}.jsonl")
    transcript = scenario.play(
        seed=args.seed, rounds=args.rounds, out=out, snapshots=args.snapshots or None, check=False
    )
    exact = args.seed is None and args.rounds is None
    failures = scenario.check(transcript, exact=exact)
    title = scenario.description or str(args.scenario)
    console.print(summary_table(transcript, title=title))
    if out is not None:
        console.print(f"transcript written to {out}")
    if failures:
        raise ExpectationError(f"{args.scenario}: " + "; ".join(failures))
    if scenario.expect:
        console.print("[green]every expectation holds[/]")
    return 0


def _replay_transcript(path: Path, console: Console) -> int:
    recorded = Transcript.load(path)
    scenario_meta = recorded.header.get("scenario")
    if isinstance(scenario_meta, dict) and isinstance(scenario_meta.get("spec"), dict):
        origin = Path(str(scenario_meta.get("path", path)))
        scenario = scenario_from_dict(scenario_meta["spec"], source=origin)
        replayed = scenario.play(check=False)
    else:
        replayed = _replay_learner(recorded, path)
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
    replay = sub.add_parser("replay", help="re-play a scenario or transcript, fail on a difference")
    replay.add_argument("target", help="a scenario .toml or a transcript .jsonl")
    sub.add_parser("list", help="every registered player with its parameters")
    expect = sub.add_parser("expect", help="print the [expect] table of a scenario's game")
    expect.add_argument("scenario", help="a scenario .toml file")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    console = Console()
    handlers = {"run": _run, "replay": _replay, "list": _list, "expect": _expect}
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
