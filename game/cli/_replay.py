"""``python -m game replay``: re-play a scenario or a transcript and fail on any difference.

::

    python -m game replay SCENARIO.toml      # the game against the scenario's [expect]
    python -m game replay NAME               # a built-in scenario (replay-perceptron-balcan)
    python -m game replay TRANSCRIPT.jsonl   # the recorded game, round by round

A target with the suffix ``.toml``, or with no suffix and no file of that
name, is a scenario (a name with no such built-in scenario is refused with the
closest names); anything else is a transcript.

A transcript is re-played from the scenario its header records, or else with
the recorded learner (rebuilt from its registry name and parameters, never
from a module path) against the recorded sequence. A difference exits with 1
naming the first round that differs; rounds that replay as recorded must
also give the recorded verdicts (status, certificate and its verification,
bound and lower bound), else it exits with 1 naming the first that differs.

A transcript of a run that did not finish (its footer marks it aborted, or
it has none) is said so first, on a line of its own, ``the transcript is of
an aborted run (reason: …), N rounds recorded; replaying those N rounds``,
and only those N rounds are re-played (never the rest of the scenario): they
and the game-defining header, but for the round limit, must be as recorded.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console

from game.errors import CertificateError, GameError, ReplayMismatch
from game.human import replaying
from game.players import lookup, parameters
from game.scenario import load_scenario, scenario_from_dict
from game.transcript import GAME_FIELDS, Transcript, canonical_text, game_fields

__all__ = ["add_parser", "replay_transcript", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``replay`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "replay", help="re-play a scenario or transcript, fail on a difference"
    )
    p.add_argument(
        "target", help="a scenario .toml, a built-in scenario's name or a transcript .jsonl"
    )
    p.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="accept a transcript without its footer (a run that died), its complete rounds",
    )
    return p


def _unfinished(recorded: Transcript) -> str | None:
    """What a record of a run that did not finish says first, or None for a complete run."""
    if recorded.status == "complete":
        return None
    n = len(recorded)
    rounds = f"{n:,} round{'' if n == 1 else 's'} recorded"
    if recorded.status == "aborted":
        what = f"an aborted run (reason: {recorded.reason or 'none given'})"
    else:
        what = "an incomplete run (no footer: the run stopped before it wrote one)"
    return f"the transcript is of {what}, {rounds}; replaying those {n:,} rounds"


def replay_transcript(path: Path, console: Console, *, allow_incomplete: bool = False) -> int:
    """Re-play the game a transcript records; 0 when it replays as recorded.

    A record of a run that did not finish (aborted, or with no footer when
    ``allow_incomplete``) is said so first, and only its recorded rounds are
    re-played, never the rest of the scenario; its rounds and its
    game-defining header (but for its round limit) must replay as recorded.

    Raises
    ------
    ReplayMismatch
        Naming the first round, verdict or header entry that differs.
    """
    recorded = Transcript.load(path, allow_incomplete=allow_incomplete)
    unfinished = _unfinished(recorded)
    if unfinished is not None:
        console.print(unfinished, markup=False, highlight=False, soft_wrap=True)
    scenario_meta = recorded.header.get("scenario")
    replayed_from_spec = isinstance(scenario_meta, dict) and isinstance(
        scenario_meta.get("spec"), dict
    )
    try:
        if replayed_from_spec:
            origin = Path(str(scenario_meta.get("path", path)))
            # data files are read from the transcript's own folder, never where its header says
            limit = None if unfinished is None else len(recorded)
            with replaying(recorded):  # a person's game: the recorded moves as a script
                scenario = scenario_from_dict(
                    scenario_meta["spec"], source=origin, base=path.parent
                )
                replayed = scenario.play(check=False, rounds=limit)
        else:
            replayed = _replay_learner(recorded, path)
    except CertificateError as exc:
        if unfinished is None and recorded.certificate_verified is not True:
            raise
        if unfinished is not None and str(exc) == recorded.reason:
            replayed = None  # the run ended as recorded: on this same refusal
        else:
            # the record says the certificate held: its labels were changed since
            raise ReplayMismatch(f"{path}: the replay differs: {exc}") from None
    if replayed is None:
        console.print(
            f"[green]identical[/]: {len(recorded)} rounds, ended as recorded: {recorded.reason}",
            highlight=False,
        )
        return 0
    first = recorded.first_difference(replayed)
    if first is not None:
        raise ReplayMismatch(
            f"{path}: the replay differs first at round {first}: "
            + _describe(recorded, replayed, first)
        )
    if unfinished is None:
        verdict = _verdict_difference(recorded, replayed)
        if verdict is not None:
            raise ReplayMismatch(f"{path}: the rounds replay as recorded, but {verdict}")
    header = _header_difference(
        recorded, replayed, whole=replayed_from_spec, limit=unfinished is None
    )
    if header is not None:
        raise ReplayMismatch(f"{path}: the rounds replay as recorded, but {header}")
    if unfinished is None:
        console.print(f"[green]identical[/]: {len(recorded)} rounds, digest {recorded.digest}")
    else:
        console.print(
            f"[green]identical[/]: the {len(recorded)} recorded rounds replay as recorded "
            f"(the run itself did not finish: {recorded.status})",
            highlight=False,
        )
    return 0


def _replay_learner(recorded: Transcript, path: Path) -> Transcript:
    """Re-play the recorded learner against the recorded sequence."""
    from adversaries.replay import Replay
    from game.engine import play

    learner_meta = recorded.header.get("learner", {})
    cls = lookup(str(learner_meta.get("name")), "learner")
    params = dict(learner_meta.get("params", {}))
    drawn = [p["name"] for p in parameters(cls) if p["supplied"] == "rng"]
    if drawn:  # its generator is not in the header: only a scenario's seed rebuilds it
        raise GameError(f"{path}: the learner is randomised and the header has no scenario seed")
    try:
        learner = cls(**params)
    except Exception as exc:
        raise GameError(f"{path}: cannot rebuild the learner from its header: {exc}") from None
    return play(learner, Replay(transcript=recorded), rounds=len(recorded), loss=recorded.loss_name)


def _verdict_difference(recorded: Transcript, replayed: Transcript) -> str | None:
    """What the replay concludes differently from the file, beyond its rounds (None: nothing).

    The status, the certificate, its verification and both bounds (value,
    quantity, kind and whether the theorem applies) are compared.
    """
    checks = (
        ("the status", recorded.status, replayed.status),
        ("the certificate", recorded.certificate, replayed.certificate),
        ("its verification", recorded.certificate_verified, replayed.certificate_verified),
        ("the bound", _bound_text(recorded.bound), _bound_text(replayed.bound)),
        ("the lower bound", _bound_text(recorded.lower_bound), _bound_text(replayed.lower_bound)),
    )
    for what, a, b in checks:
        if a != b:
            return f"{what} differs: recorded {_shown(a)}; replayed {_shown(b)}"
    return None


def _header_difference(
    recorded: Transcript, replayed: Transcript, *, whole: bool, limit: bool = True
) -> str | None:
    """The first game-defining header entry the replay gives differently (None: none).

    A replay from the scenario's spec rebuilds both players, so every entry
    of :data:`game.transcript.GAME_FIELDS` is compared; a replay of the learner
    against the recorded sequence compares the learner and the loss only.
    Without ``limit`` (the replay of a run that did not finish, played for its
    recorded rounds only) the round limit, in the header and in the
    scenario, is not compared.
    """
    keys = GAME_FIELDS if whole else ("learner", "loss")
    a, b = game_fields(recorded.header), game_fields(replayed.header)
    if not limit:
        a, b = _without_limit(a), _without_limit(b)
    for key in keys:
        where = _first_difference(a.get(key), b.get(key), key)
        if where is not None:
            path, x, y = where
            return f"the header's {path} differs: recorded {_brief(x)}; replayed {_brief(y)}"
    return None


def _without_limit(fields: dict) -> dict:
    """Game-defining header fields without the round limit (the header's, the scenario's)."""
    fields = {k: v for k, v in fields.items() if k != "rounds"}
    if isinstance(fields.get("scenario"), dict):
        fields["scenario"] = {k: v for k, v in fields["scenario"].items() if k != "rounds"}
    return fields


def _first_difference(a, b, path: str) -> tuple[str, object, object] | None:
    """The dotted path of the first entry where two JSON values differ, with both values."""
    if canonical_text(a) == canonical_text(b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            found = _first_difference(a.get(key), b.get(key), f"{path}.{key}")
            if found is not None:
                return found
    return path, a, b


def _brief(value) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "…"


def _bound_text(bound) -> str | None:
    if bound is None:
        return None
    sign = "≤" if bound.kind == "upper" else "≥"
    text = f"{bound.quantity} {sign} {bound.value:.9g}"
    return text if bound.applies else f"{text} (not applicable: {bound.reason})"


def _shown(value) -> str:
    if value is None:
        return "none"
    describe = getattr(value, "describe", None)
    return describe() if callable(describe) else str(value)


def _describe(a: Transcript, b: Transcript, t: int) -> str:
    def side(tr: Transcript) -> str:
        if t > len(tr):
            return "no such round"
        r = tr[t - 1]
        return f"p = {r.prediction:g}, y = {r.label:+d}, updated = {r.updated}"

    return f"recorded {side(a)}; replayed {side(b)}"


def run(args: argparse.Namespace, console: Console) -> int:
    """Re-play the target; 0 when it is as recorded (a difference raises ReplayMismatch)."""
    path = Path(args.target)
    if path.suffix == ".toml" or (not path.suffix and not path.exists()):
        scenario = load_scenario(args.target)
        transcript = scenario.play(check=False)
        failures = scenario.check(transcript)
        if failures:
            raise ReplayMismatch(f"{args.target}: " + "; ".join(failures))
        console.print(
            f"[green]as recorded[/]: {len(transcript)} rounds, digest {transcript.digest}"
        )
        return 0
    return replay_transcript(path, console, allow_incomplete=args.allow_incomplete)
