"""Tournaments: every learner against every adversary whose instances it plays, over seeds.

:func:`tournament` pairs each learner with each adversary. A pair's game is
exactly a scenario: the scenario a user could write down with the pair's
``[learner]`` and ``[adversary]`` tables, the tournament's ``rounds`` and
``loss`` and, when the adversary plays over a finite class, its
``[concept_class]`` table (:meth:`TournamentResult.scenario` gives it). Game
``s`` of a pair is ``scenario.play(seed=s)`` of that scenario, so a row
depends only on its pair and seed, and the table is the same, value for value,
from a serial run, a process pool of any size or any other executor. The games
run through the sweep's machinery (chunks of seeds, lockstep batches where
both players declare a kernel, Ctrl-C keeping every finished game).

**Pairs that do not fit.** A learner declares the instance kinds it plays and
an adversary the kind it presents (:data:`game.protocol.INSTANCE_KINDS`); a
pair with no kind in common is marked ``"unfit"`` with the reason and never
played. A pair that fits but whose players cannot be built together (one
refuses its partner's parameters, e.g. a dimension the other does not have) is
marked ``"failed"`` with its one-line reason; the tournament goes on. A game
that ends with an error is a row of status ``"error"`` (as in a sweep); a pair
whose every game ends with an error (the players refuse each other in round 1,
e.g. the learner was given another dimension than the adversary's) is marked
``"failed"`` too, with the first game's reason, and keeps its rows.

**The shared class.** The ``concept_class`` table is handed only to pairs whose
adversary declares a concept-class field (the adversaries that play over a
finite class of concepts): a learner such as Halving, which reads a class when
one is given and experts otherwise, then plays experts against an expert
adversary and the class against a class adversary.

**Quantities.** Every row has the sweep's columns (:data:`game.sweep.ROW_COLUMNS`)
and two more: ``regret`` (the regret against the best expert after the last
round, on the game's loss: :meth:`game.Transcript.observed`) when the game is an
expert game (the instances both players agree on are advice), else None; and
``ratio``, what the learner's bound counts (mistakes, or updates for the
Perceptron's, or the loss for Exponential Weights') divided by the bound, when
the bound applies to the game (its assumptions hold: :attr:`game.Transcript.within_bound`
is not None) and is positive.
The per-pair summary (:meth:`TournamentResult.summary`) averages them over
the pair's games.

Examples
--------
>>> import game
>>> result = game.tournament(
...     ["perceptron", "halving"],
...     {"separable-stream": {"dimension": 2, "margin": 0.1}},
...     seeds=2, rounds=50, workers=1)
>>> [(p["learner"], p["adversary"], p["status"]) for p in result.pairs]
[('perceptron', 'separable-stream', 'played'), ('halving', 'separable-stream', 'unfit')]
>>> s = result.summary()[0]
>>> s["games"], s["ratio_max"] <= 1
(2, True)
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

import game.sweep._tasks as _tasks
from game.engine import check_progress
from game.errors import (
    GameError,
    ParameterError,
    ScenarioError,
    UnknownPlayerError,
    check_choice,
    check_instance,
    check_integer,
)
from game.players import kinds_clash, lookup, parameters
from game.scenario import MAX_ROUNDS, scenario_from_dict
from game.sweep._grid import Point, ResolvedScenario
from game.sweep._standings import QUANTITIES, TournamentResult
from game.sweep._sweep import (
    MAX_CHUNK,
    MAX_GAMES,
    _Progress,
    _run_here,
    _run_on,
    _workers_of,
    parse_seeds,
)
from game.sweep._tasks import ChunkResult, Task, game_row, lockstep_games
from game.theory import LOSSES

__all__ = ["QUANTITIES", "TournamentResult", "tournament"]

_ROLES = ("learner", "adversary")


@attrs.frozen
class PairTask:
    """One chunk of a tournament: a sweep's task and what the pair's rows add.

    Parameters
    ----------
    task : Task
        The pair's scenario (as a point whose parameters are the pair's names) and seeds.
    experts : bool
        The pair plays an expert game (its rows get the regret).
    """

    task: Task
    experts: bool = False


def _extra(transcript: Any, experts: bool) -> dict:
    """The regret and the bounded quantity ÷ bound of one finished game."""
    regret = ratio = None
    if experts:
        try:
            regret = transcript.observed("regret")
        except GameError:
            regret = None
    bound = transcript.bound
    applies = bound is not None and transcript.within_bound is not None
    if applies and bound.value > 0 and np.isfinite(bound.value):
        try:
            ratio = float(transcript.observed(bound.quantity)) / float(bound.value)
        except GameError:
            ratio = None
    return {"regret": regret, "ratio": ratio}


def _row(point: Point, seed: int, transcript: Any, experts: bool) -> dict:
    row = game_row(point, seed, transcript)
    row.pop("point", None)
    if isinstance(transcript, GameError):
        row.update(regret=None, ratio=None)
    else:
        row.update(_extra(transcript, experts))
    return row


def play_pair_chunk(job: PairTask) -> ChunkResult:
    """Play a tournament chunk and return its rows (a worker's function).

    As a sweep's chunk is played, with the rows' ``regret`` and
    ``ratio`` computed from each transcript before it is dropped.
    """
    task, experts = job.task, job.experts
    point = task.point
    rows: list[dict] = []
    try:
        if _tasks._stop:
            return ChunkResult(point.index, rows, interrupted=True)
        games = None
        if task.lockstep and len(task.seeds) > 1:
            games = lockstep_games(task)
        if games is not None:
            rows = [_row(point, s, g, experts) for s, g in zip(task.seeds, games, strict=True)]
            return ChunkResult(point.index, rows, interrupted=_tasks._stop, lockstep=len(rows))
        for seed in task.seeds:
            if _tasks._stop:
                return ChunkResult(point.index, rows, interrupted=True)
            try:
                transcript = point.scenario.play(seed=seed, snapshots=False, check=False)
            except GameError as exc:
                transcript = exc
            rows.append(_row(point, seed, transcript, experts))
    except KeyboardInterrupt:
        return ChunkResult(point.index, rows, interrupted=True)
    return ChunkResult(point.index, rows, interrupted=_tasks._stop)


# -- the players ---------------------------------------------------------------------
def _players(role: str, given: Any, source: str, prefix: str = "") -> list[tuple[str, dict]]:
    """``(name, table)`` for each player given: names, tables with a name, or name -> table."""
    plural = role + "s"
    expected = (
        f"a list of {role} names (or tables with a name), or a dict of name -> parameter table"
    )
    if isinstance(given, str) or not isinstance(given, Mapping | Sequence):
        raise ParameterError(plural, given, expected)
    if isinstance(given, Mapping):
        entries = []
        for name, table in given.items():
            if table is None:
                table = {}
            if not isinstance(table, Mapping):
                raise ParameterError(f"{plural}[{name!r}]", table, "a table of parameters")
            entries.append({"name": name, **table})
    else:
        entries = [{"name": e} if isinstance(e, str) else e for e in given]
    if not entries:
        raise ParameterError(plural, given, expected, "no player is given")
    out, seen = [], set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise ParameterError(f"{plural}[{i}]", entry, "a player's name or a table with a name")
        table = dict(entry)
        name = table.pop("name")
        if name in seen:
            raise ParameterError(plural, given, "distinct players", f"{name!r} is given twice")
        seen.add(name)
        try:
            cls = lookup(name, role)
        except UnknownPlayerError as exc:
            raise ScenarioError(f"{source}: {prefix}{plural}: {exc}") from None
        params = {p["name"]: p for p in parameters(cls)}
        for key in table:
            where = f"{source}: {role}.{name}.{key}"
            if key not in params:
                known = ", ".join(p for p, d in params.items() if d["supplied"] is None) or "none"
                raise ScenarioError(f"{where}: {name} has no parameter {key!r}; it has {known}")
            if params[key]["supplied"] in ("rng", "loss"):
                raise ScenarioError(f"{where}: is set by the tournament; remove it")
        out.append((name, table))
    return out


def _takes_class(cls: type) -> bool:
    return any(p["supplied"] == "concept_class" for p in parameters(cls))


def _kinds(value: Any) -> frozenset | None:
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, set | frozenset):
        return frozenset(value)
    return None


def _class_clash(learner: str, adversary: str) -> str | None:
    """Why two registered classes cannot play each other, judged on their declared kinds."""
    plays = _kinds(getattr(lookup(learner, "learner"), "plays", None))
    presents = _kinds(getattr(lookup(adversary, "adversary"), "presents", None))
    if plays is None or presents is None or plays & presents:
        return None
    return (
        f"learner {learner} plays {', '.join(sorted(plays))}; adversary {adversary} "
        f"presents {' or '.join(sorted(presents))}: they cannot play each other"
    )


def pair_spec(
    learner: tuple[str, dict],
    adversary: tuple[str, dict],
    *,
    rounds: int,
    loss: str,
    concept_class: dict | None,
) -> dict:
    """The scenario (as a TOML document's dict) of one pair's games."""
    (lname, ltable), (aname, atable) = learner, adversary
    spec: dict[str, Any] = {
        "description": f"{lname} against {aname}",
        "rounds": rounds,
        "loss": loss,
        "learner": {"name": lname, **ltable},
        "adversary": {"name": aname, **atable},
    }
    if concept_class is not None and _takes_class(lookup(aname, "adversary")):
        spec["concept_class"] = dict(concept_class)
    return spec


def _prepare(spec: dict, source: Path, seed: int) -> tuple[str, Any, bool]:
    """A pair's status (played, unfit, failed), its scenario or reason, and whether experts."""
    prefix = f"{source}: "
    lname, aname = spec["learner"]["name"], spec["adversary"]["name"]
    clash = _class_clash(lname, aname)
    if clash is not None:
        return "unfit", clash, False
    try:
        checked = scenario_from_dict(spec, source=source)
        scenario = ResolvedScenario(source=source, base=checked.base, spec=checked.spec)
        children = np.random.SeedSequence(seed).spawn(2)
        learner = scenario.build_player("learner", np.random.default_rng(children[0]))
        adversary = scenario.build_player("adversary", np.random.default_rng(children[1]))
        clash = kinds_clash(learner, adversary)
        if clash is not None:
            return "unfit", clash, False
        scenario.estimate()
    except GameError as exc:
        reason = str(exc).removeprefix(prefix).splitlines()[0] if str(exc) else type(exc).__name__
        return "failed", reason, False
    plays = _kinds(getattr(learner, "plays", None))
    presents = _kinds(getattr(adversary, "presents", None))
    common = (plays & presents) if plays is not None and presents is not None else presents
    return "played", scenario, common == frozenset({"advice"})


def _mark_failed(pairs: list[dict], rows: list[dict]) -> None:
    """A played pair whose every game ended with an error is failed, with the first reason."""
    by_pair: dict[tuple, list] = {}
    for row in rows:
        by_pair.setdefault((row["learner"], row["adversary"]), []).append(row)
    for entry in pairs:
        games = by_pair.get((entry["learner"], entry["adversary"]), [])
        if entry["status"] == "played" and games and all(r["status"] == "error" for r in games):
            entry["status"] = "failed"
            entry["reason"] = str(games[0]["reason"]).splitlines()[0]


def check_players(
    learners: Any, adversaries: Any, concept_class: Any, source: Path, prefix: str = ""
) -> dict:
    """Each role's ``(name, table)`` list, every name looked up and every key checked.

    The ``[concept_class]`` table is built once here (an error names
    ``concept_class.KEY``). Nothing is played and no player is built. ``prefix``
    goes before the lists' names in errors (``"tournament."`` for a file).
    """
    if concept_class is not None:
        check_instance("concept_class", concept_class, dict, "a [concept_class] table (a dict)")
        from game.scenario import Scenario

        Scenario(
            source=source, base=source.parent, spec={"concept_class": concept_class}
        ).concept_class()
    return {
        role: _players(role, given, str(source), prefix)
        for role, given in (("learner", learners), ("adversary", adversaries))
    }


def tournament(
    learners: Any,
    adversaries: Any,
    seeds: Any = 5,
    *,
    rounds: int = 200,
    loss: str = "zero-one",
    concept_class: dict | None = None,
    executor: cf.Executor | None = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    lockstep: bool = True,
    progress: bool | Callable[[int, int], Any] | None = False,
    source: str | os.PathLike = "<tournament>",
) -> TournamentResult:
    """Play every learner against every adversary whose instances it plays, over seeds.

    Parameters
    ----------
    learners, adversaries : list or dict
        Registry names (``["perceptron", "winnow"]``), tables with a ``name``
        (``[{"name": "winnow", "variant": "balanced"}]``) or a dict of name ->
        parameter table (``{"separable-stream": {"dimension": 2, "margin": 0.1}}``),
        each table as a scenario's ``[learner]`` or ``[adversary]`` table.
        Each name at most once.
    seeds : int, iterable of int, or str, default 5
        The seeds every pair plays (:func:`game.sweep.parse_seeds`): game s of
        a pair is ``result.scenario(L, A).play(seed=s)``.
    rounds : int, default 200
        The most rounds of each game.
    loss : str, default "zero-one"
        The games' loss (a key of :data:`game.theory.LOSSES`).
    concept_class : dict, optional
        A scenario's ``[concept_class]`` table (``{"builder": "thresholds",
        "n": 16}``), handed to the pairs whose adversary plays over a finite class.
    executor : concurrent.futures.Executor, optional
        Where the chunks run (default: a process pool of ``workers``).
    workers : int, optional
        Size of the default pool (default: every core); 1 plays in this process.
    chunk_size : int, optional
        Games per task (default: about four tasks per worker, at most 256).
    lockstep : bool, default True
        Play a chunk in lockstep when both players declare a kernel.
    progress : bool or callable, default False
        A progress bar of the games (True), nothing, or ``progress(done, total)``.
    source : str or path, default "<tournament>"
        Named in every error (the tournament file); data files are relative to its folder.

    Returns
    -------
    TournamentResult

    Raises
    ------
    ScenarioError
        An unknown player, a key a player does not have, a bad concept class
        (naming the source and the key), before any game is played.
    ParameterError
        A bad argument: seeds, rounds, loss, workers, chunk size, a flag, the
        players' lists.
    """
    check_instance("source", source, (str, os.PathLike), "a path or a name (str)")
    source = Path(source)
    seed_list = parse_seeds(seeds)
    rounds = check_integer("rounds", rounds, low=0, high=MAX_ROUNDS)
    loss = check_choice("loss", loss, tuple(LOSSES))
    check_choice("lockstep", lockstep, (False, True))
    progress = check_progress(progress)
    if workers is not None:
        workers = check_integer("workers", workers, low=1)
    if chunk_size is not None:
        chunk_size = check_integer("chunk_size", chunk_size, low=1)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ParameterError("executor", executor, "a concurrent.futures.Executor")
    players = check_players(learners, adversaries, concept_class, source)
    first = seed_list[0] if len(seed_list) else 0
    pairs, points, experts = [], [], []
    for lp in players["learner"]:
        for ap in players["adversary"]:
            spec = pair_spec(lp, ap, rounds=rounds, loss=loss, concept_class=concept_class)
            status, found, expert = _prepare(spec, source, first)
            entry = {"learner": lp[0], "adversary": ap[0], "status": status, "reason": None}
            if status == "played":
                point = Point(
                    index=len(points),
                    params={"learner": lp[0], "adversary": ap[0]},
                    scenario=found,
                )
                points.append(point)
                experts.append(expert)
            else:
                entry["reason"] = found
            entry["spec"] = spec
            pairs.append(entry)
    total = len(points) * len(seed_list)
    if total > MAX_GAMES:
        raise ParameterError(
            "seeds", seeds, f"at most {MAX_GAMES:,} games over {len(points)} pairs", f"{total:,}"
        )
    serial = executor is None and workers == 1
    n_workers = (
        1 if serial else (_workers_of(executor) if executor else workers or os.cpu_count() or 1)
    )
    per_pair = max(1, math.ceil(total / (4 * n_workers))) if total else 1
    size = chunk_size or max(1, min(MAX_CHUNK, per_pair, len(seed_list) or 1))
    jobs = []
    for point, expert in zip(points, experts, strict=True):
        for lo in range(0, len(seed_list), size):
            task = Task(point=point, seeds=tuple(seed_list[lo : lo + size]), lockstep=lockstep)
            jobs.append(PairTask(task=task, experts=expert))
    start = time.perf_counter()
    done: dict[int, ChunkResult] = {}
    bar = _Progress(total, progress)
    try:
        if serial or not jobs:
            interrupted = _run_here(jobs, done, bar, play=play_pair_chunk)
        else:
            interrupted = _run_on(executor, n_workers, jobs, done, bar, play=play_pair_chunk)
    finally:
        bar.stop()
    rows = [row for i in sorted(done) for row in done[i].rows]
    _mark_failed(pairs, rows)
    return TournamentResult(
        rows=rows,
        pairs=pairs,
        learners=[name for name, _ in players["learner"]],
        adversaries=[name for name, _ in players["adversary"]],
        seeds=list(seed_list),
        source=str(source),
        requested=total,
        interrupted=interrupted or any(r.interrupted for r in done.values()),
        lockstep=sum(r.lockstep for r in done.values()),
        elapsed=time.perf_counter() - start,
    )
