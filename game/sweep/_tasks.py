"""What a sweep's worker does: play one chunk of games and return their summaries.

A :class:`Task` is a chunk: one grid point of a scenario and a run of seeds.
:func:`play_chunk` plays them (in lockstep with :func:`game.sweep.play_batch`
where both players' classes declare a lockstep kernel, else one by one) and
returns one row per game, never the transcripts themselves (those are written
to a folder when asked). Game ``seed`` of a point is exactly
``Scenario.play(seed=seed)`` of the scenario with the point's parameters, so
a row depends only on its scenario, point and seed: not on the chunk, the
worker or the executor.

Examples
--------
>>> from game.scenario import load_scenario
>>> from game.sweep import grid_points
>>> from game.sweep._tasks import Task, play_chunk
>>> sc = load_scenario("scenarios/perceptron_separable.toml")
>>> point = grid_points(sc, None, first_seed=0)[0]
>>> done = play_chunk(Task(point=point, seeds=(0, 1)))
>>> [(row["seed"], row["mistakes"], row["within_bound"]) for row in done.rows]
[(0, 25, True), (1, 19, True)]
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import attrs

from game.errors import GameError
from game.sweep._grid import Point
from game.sweep._lockstep import lockstep_supported, play_batch

__all__ = [
    "ROW_COLUMNS",
    "ChunkResult",
    "Task",
    "game_row",
    "install_stop_handler",
    "lockstep_games",
    "play_chunk",
    "reset_stop",
]

#: The columns of a game's row, after the grid's parameters and the seed.
ROW_COLUMNS = (
    "rounds",
    "mistakes",
    "updates",
    "loss",
    "bound",
    "bound_quantity",
    "within_bound",
    "lower_bound",
    "forced",
    "certificate_verified",
    "status",
    "reason",
    "wall_time",
)

_stop = False


def _request_stop(signum, frame) -> None:
    global _stop
    _stop = True


def install_stop_handler() -> None:
    """Make SIGINT ask this worker to stop after its current game (a pool's initializer).

    The chunk in hand returns the games it finished, so an interrupted sweep
    keeps every finished game; the signal never raises inside a worker.
    """
    global _stop
    _stop = False
    signal.signal(signal.SIGINT, _request_stop)


def reset_stop() -> None:
    """Forget a stop request (after an in-process sweep restores the SIGINT handler)."""
    global _stop
    _stop = False


@attrs.frozen
class Task:
    """One chunk of a sweep: a grid point and the seeds to play there.

    Parameters
    ----------
    point : Point
        The scenario at one grid point (see :func:`game.sweep.grid_points`).
    seeds : tuple of int
        The games to play, in order.
    lockstep : bool, default True
        Play in lockstep when both players' classes declare a lockstep kernel.
    transcripts : str, optional
        Write each game's transcript into this folder.
    digests : bool, default False
        Add each game's transcript digest to its row.
    """

    point: Point
    seeds: tuple
    lockstep: bool = True
    transcripts: str | None = None
    digests: bool = False


@attrs.frozen
class ChunkResult:
    """The rows of a chunk's finished games; ``interrupted`` when it stopped early."""

    point: int
    rows: list
    interrupted: bool = False
    lockstep: int = 0


def game_row(point: Point, seed: int, transcript: Any, digests: bool = False) -> dict:
    """A game's row: the seed, the point's parameters and the transcript's totals.

    ``transcript`` may be a :class:`GameError` (the game ended with it): its
    row has status ``"error"``, the message as ``reason`` and no totals.
    """
    row: dict[str, Any] = {"point": point.index, **point.params, "seed": seed}
    if isinstance(transcript, GameError):
        row.update(dict.fromkeys(ROW_COLUMNS))
        row["status"], row["reason"] = "error", str(transcript)
        if digests:
            row["digest"] = None
        return row
    bound, lower = transcript.bound, transcript.lower_bound
    row.update(
        rounds=len(transcript),
        mistakes=transcript.observed("mistakes"),
        updates=transcript.observed("updates"),
        loss=transcript.observed("loss"),
        bound=None if bound is None else bound.value,
        bound_quantity=None if bound is None else bound.quantity,
        within_bound=transcript.within_bound,
        lower_bound=None if lower is None else lower.value,
        forced=None if lower is None else lower.verdict(transcript.observed(lower.quantity)),
        certificate_verified=transcript.certificate_verified,
        status=transcript.status,
        reason=transcript.reason,
        wall_time=transcript.wall_time,
    )
    if digests:
        row["digest"] = transcript.digest
    return row


def _path(task: Task, seed: int) -> Path | None:
    if task.transcripts is None:
        return None
    name = (
        f"seed-{seed}.jsonl" if task.point.alone else f"point-{task.point.index}-seed-{seed}.jsonl"
    )
    return Path(task.transcripts) / name


def lockstep_games(task: Task) -> list | None:
    """The chunk's games played in lockstep, or None when its players have no kernel.

    A game that fails is its :class:`GameError` in the list (``errors="return"``).
    """
    point, scenario = task.point, task.point.scenario
    try:
        first = scenario.build(task.seeds[0])
        if not lockstep_supported([first[0]], [first[1]], point.rounds):
            return None  # decided on one game: the others have the same players
        players = [first] + [scenario.build(seed) for seed in task.seeds[1:]]
    except GameError:
        return None  # the engine's path records the error in the game's row
    learners, adversaries = [p[0] for p in players], [p[1] for p in players]
    if not lockstep_supported(learners, adversaries, point.rounds):
        return None
    return play_batch(
        learners,
        adversaries,
        rounds=point.rounds,
        loss=point.loss,
        meta=[point.meta(seed) for seed in task.seeds],
        errors="return",
    )


def _lockstep(task: Task) -> ChunkResult | None:
    if task.point.spec.get("snapshots", False) and task.transcripts is not None:
        return None  # transcripts with snapshots come from the engine
    games = lockstep_games(task)
    if games is None:
        return None
    rows = []
    for seed, game in zip(task.seeds, games, strict=True):
        path = _path(task, seed)
        if path is not None and not isinstance(game, GameError):
            game.save(path)
        rows.append(game_row(task.point, seed, game, task.digests))
    return ChunkResult(task.point.index, rows, interrupted=_stop, lockstep=len(rows))


def play_chunk(task: Task) -> ChunkResult:
    """Play a chunk's games and return their rows (see the module's docstring).

    A KeyboardInterrupt (or, in a worker set up by
    :func:`install_stop_handler`, a SIGINT) ends the chunk after the game in
    hand; the result keeps every finished game and is marked interrupted.
    """
    point, scenario = task.point, task.point.scenario
    rows: list[dict] = []
    try:
        if _stop:
            return ChunkResult(point.index, rows, interrupted=True)
        if task.lockstep and len(task.seeds) > 1:
            done = _lockstep(task)
            if done is not None:
                return done
        for seed in task.seeds:
            if _stop:
                return ChunkResult(point.index, rows, interrupted=True)
            try:
                transcript = scenario.play(
                    seed=seed,
                    out=_path(task, seed),
                    snapshots=None if task.transcripts is not None else False,
                    check=False,
                )
            except GameError as exc:
                transcript = exc
            rows.append(game_row(point, seed, transcript, task.digests))
    except KeyboardInterrupt:
        return ChunkResult(point.index, rows, interrupted=True)
    return ChunkResult(point.index, rows, interrupted=_stop)
