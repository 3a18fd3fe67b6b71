"""Sweeps: one scenario over many seeds and a parameter grid, on any executor.

:func:`sweep` plays the scenario once per seed and grid point and returns a
:class:`~game.sweep.SweepResult`, a table with one row per game.

**Seeds.** Game ``s`` is exactly the game ``Scenario.play(seed=s)`` plays (the
game ``python -m game run SCENARIO --seed s`` plays): its learner's and its
adversary's generators are the two children ``SeedSequence(s).spawn(2)``. So
every game has its own seed, a row depends on nothing but its scenario, grid
point and seed, and the table is the same, value for value, from a serial
run, a process pool of any size or a Dask cluster. A violation is replayed
from its seed alone. ``seeds=n`` sweeps the seeds 0, …, n − 1; at every grid
point the same seeds are played, so the points are compared on common random
numbers.

**Chunks.** Games are sent to the executor in chunks (by default about four
per worker, at most 256 games each), and workers return one summary row per
game, never transcripts, unless ``transcripts`` names a folder to write them
to. Within a chunk the games run in lockstep (:func:`game.sweep.play_batch`)
when both players' classes declare a lockstep kernel; the rows are identical
either way.

**Interrupting.** Ctrl-C stops the sweep cleanly: no new chunk starts, every
worker of the default pool finishes the game in hand, and the result keeps
every finished game (``result.interrupted`` is then True).

Examples
--------
>>> import game
>>> result = game.sweep("scenarios/perceptron_separable.toml", seeds=4,
...                     grid={"adversary.margin": [0.1, 0.2]}, workers=1)
>>> len(result), result.violations()
(8, [])
>>> [(s["adversary.margin"], s["games"], s["mistakes_max"] <= s["bound_min"])
...  for s in result.summary()]
[(0.1, 4, True), (0.2, 4, True)]
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import math
import numbers
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from game.engine import check_progress
from game.errors import GameError, ParameterError, check_choice, check_instance, check_integer
from game.scenario import Scenario, load_scenario
from game.sweep._grid import grid_points
from game.sweep._result import SweepResult
from game.sweep._tasks import (
    ROW_COLUMNS,
    ChunkResult,
    Task,
    install_stop_handler,
    play_chunk,
    reset_stop,
)

__all__ = ["MAX_GAMES", "SweepResult", "parse_seeds", "sweep"]

#: The largest chunk the default chunking makes.
MAX_CHUNK = 256
#: The most games one sweep plays (seeds times grid points): its table keeps every row.
MAX_GAMES = 10_000_000
#: About what one game's row of the table takes in memory, in bytes.
ROW_BYTES = 1_700
#: Seconds to wait, after Ctrl-C, for the chunks in hand to return their finished games.
GRACE = 30.0


def _text_part(seeds: str, part: str) -> range:
    """One comma-separated part of a seeds text: a seed or a range, as a range."""
    expected = "seeds and ranges A:B[:STEP] separated by commas"
    try:
        ends = [int(v) for v in part.split(":")]
    except ValueError:
        ends = []
    if len(ends) == 1:
        if ends[0] < 0:
            raise ParameterError("seeds", seeds, expected, f"seed {ends[0]} is negative")
        ends = [ends[0], ends[0] + 1]
    if len(ends) not in (2, 3):
        raise ParameterError(
            "seeds", seeds, expected, f"{part!r} is not a seed or a range A:B[:STEP] of seeds"
        )
    start, stop, step = (*ends, 1)[:3]
    if step <= 0:
        raise ParameterError(
            "seeds", seeds, expected, f"the step of {part!r} is {step}; it must be positive"
        )
    if start < 0:
        raise ParameterError("seeds", seeds, expected, f"{part!r} starts below 0")
    if stop <= start:
        raise ParameterError(
            "seeds", seeds, expected, f"{part!r} holds no seed: A:B needs A < B (B excluded)"
        )
    return range(start, stop, step)


def _capped(seeds: Any, count: int) -> None:
    """Refuse more seeds than a sweep holds (``MAX_GAMES``), before any is listed."""
    if count > MAX_GAMES:
        raise ParameterError(
            "seeds",
            seeds,
            f"at most {MAX_GAMES:,} seeds",
            f"{count:,} seeds; a sweep keeps a row of about {ROW_BYTES:,} bytes per game",
        )


def parse_seeds(seeds: Any) -> Sequence[int]:
    """The seeds to sweep: ``n`` (0, …, n − 1), an iterable of ints, or text like ``"0:100"``.

    Text is a comma-separated list of seeds and ranges ``A:B`` (B excluded)
    or ``A:B:STEP``, each holding at least one seed, with a positive step.
    Seeds are non-negative integers without repeats, at most
    ``MAX_GAMES`` of them. A count, one range of text or a ``range`` stays
    a ``range`` (nothing is listed: ``"0:10000000"`` costs no memory); the
    size is checked before any list is built.

    Examples
    --------
    >>> parse_seeds(3), parse_seeds("5,10:13"), parse_seeds(range(0, 6, 2))
    (range(0, 3), [5, 10, 11, 12], range(0, 6, 2))
    >>> parse_seeds("4:x")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: seeds must be seeds and ranges A:B[:STEP] separated by commas, ...
    >>> parse_seeds("0:1:0")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: seeds must be ... (the step of '0:1:0' is 0; it must be positive)

    Raises
    ------
    ParameterError
        Naming ``seeds`` (or ``seed``, for one seed of an iterable) and the value.
    """
    if isinstance(seeds, str):
        parts = [_text_part(seeds, part.strip()) for part in seeds.split(",")]
        _capped(seeds, sum(len(r) for r in parts))
        if len(parts) == 1:
            return parts[0]
        values: Iterable = [s for r in parts for s in r]
    elif isinstance(seeds, numbers.Number | np.bool_):  # a count: an integer, not a bool
        count = check_integer("seeds", seeds, low=0)
        _capped(seeds, count)
        return range(count)
    elif isinstance(seeds, range) and seeds.step > 0 and seeds.start >= 0:
        _capped(seeds, len(seeds))
        return seeds
    else:
        try:
            size = len(seeds)
        except TypeError:
            size = None
        if size is not None:
            _capped(seeds, size)
        try:
            values = list(itertools.islice(seeds, MAX_GAMES + 1))
        except TypeError:
            raise ParameterError(
                "seeds", seeds, "a number of seeds, an iterable of seeds or text"
            ) from None
        _capped(seeds, len(values))
    result = [check_integer("seed", s, low=0) for s in values]
    if len(set(result)) != len(result):
        seen: set[int] = set()
        dup = next(s for s in result if s in seen or seen.add(s))
        raise ParameterError("seeds", seeds, "distinct seeds", f"seed {dup} is given twice")
    return result


def _workers_of(executor: Any) -> int:
    """How many tasks an executor runs at once, as far as it tells."""
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    if client is not None:
        with contextlib.suppress(Exception):
            return max(1, sum(client.nthreads().values()))
    return os.cpu_count() or 1


def _chunks(points: list, seeds: Sequence[int], size: int, **options) -> list[Task]:
    tasks = []
    for point in points:
        for lo in range(0, len(seeds), size):
            tasks.append(Task(point=point, seeds=tuple(seeds[lo : lo + size]), **options))
    return tasks


class _Progress:
    """The sweep's progress: a rich bar of games on standard error, a callback, or nothing."""

    def __init__(self, total: int, progress: Any):
        self.bar = None
        self.total, self.done = total, 0
        self.callback = progress if callable(progress) else None
        if progress is not True:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.bar.add_task("sweep", total=total)
        self.violations = 0
        self.started = False

    def start(self) -> None:
        """Show the bar (its refresh thread starts here: after the pool's processes)."""
        if self.bar is not None and not self.started:
            self.bar.start()
            self.started = True

    def advance(self, rows: list[dict]) -> None:
        self.done += len(rows)
        if self.callback is not None:
            try:
                self.callback(self.done, self.total)
            except Exception as exc:
                raise GameError(
                    f"the progress callback raised {type(exc).__name__} after {self.done} "
                    f"games: {exc}"
                ) from exc
        if self.bar is None:
            return
        self.violations += sum(1 for r in rows if r.get("within_bound") is False)
        note = f"sweep · [red]{self.violations} over the bound[/]" if self.violations else "sweep"
        self.bar.update(self.task, advance=len(rows), description=note)

    def stop(self) -> None:
        if self.bar is not None and self.started:
            self.bar.stop()


def sweep(
    scenario: Scenario | str | os.PathLike,
    seeds: Any,
    grid: dict | None = None,
    executor: cf.Executor | None = None,
    *,
    workers: int | None = None,
    chunk_size: int | None = None,
    lockstep: bool = True,
    transcripts: str | os.PathLike | None = None,
    digests: bool = False,
    progress: bool | Callable[[int, int], Any] | None = False,
) -> SweepResult:
    """Play a scenario once per seed and grid point; return one row per game.

    Parameters
    ----------
    scenario : Scenario or path
        The scenario (a ``.toml`` path is loaded).
    seeds : int, iterable of int, or str
        The games' seeds (see :func:`parse_seeds`): game s is
        ``scenario.play(seed=s)``.
    grid : dict, optional
        Parameter grid, key -> list of values, e.g. ``{"adversary.margin":
        [0.05, 0.1]}`` (see :mod:`game.sweep`). Every point is validated
        before any game is played.
    executor : concurrent.futures.Executor, optional
        Where the chunks run: any executor, e.g. a Dask cluster's
        ``distributed.Client(address).get_executor()``. By default a process
        pool of ``workers`` processes, made and shut down here.
    workers : int, optional
        Size of the default pool (default: every core); 1 plays in this
        process. Ignored when ``executor`` is given.
    chunk_size : int, optional
        Games per task (default: about four tasks per worker, at most 256).
    lockstep : bool, default True
        Play a chunk in lockstep when both players' classes declare a lockstep
        kernel.
    transcripts : path, optional
        A folder to write every game's transcript to (``seed-S.jsonl``, or
        ``point-P-seed-S.jsonl`` with a grid).
    digests : bool, default False
        Add each game's transcript digest to its row.
    progress : bool or callable, default False
        True shows a progress bar of the games (rich, on standard error);
        False or None nothing; a callable is called as ``progress(done,
        total)`` with the games finished each time a chunk's rows come back
        (an exception it raises stops the sweep as a :class:`GameError`).

    Returns
    -------
    SweepResult

    Raises
    ------
    ScenarioError
        A bad scenario, grid key or grid value, or a game too large for the
        machine's available memory (:meth:`Scenario.estimate`), before any
        game is played.
    ParameterError
        A bad argument: seeds, workers, chunk size, a flag that is not a bool,
        ``progress`` not a bool, None or a callable, a scenario or folder that
        is not a path.
    """
    if not isinstance(scenario, Scenario):
        check_instance(
            "scenario", scenario, (str, os.PathLike), "a Scenario or a path (str or os.PathLike)"
        )
        scenario = load_scenario(scenario)
    seed_list = parse_seeds(seeds)
    if grid is not None:
        check_instance("grid", grid, dict, "a dict of parameter keys to lists of values")
    for name, flag in (("lockstep", lockstep), ("digests", digests)):
        check_choice(name, flag, (False, True))
    progress = check_progress(progress)
    points = grid_points(scenario, grid, first_seed=seed_list[0] if seed_list else None)
    if len(points) * len(seed_list) > MAX_GAMES:
        raise ParameterError(
            "seeds",
            seeds,
            f"at most {MAX_GAMES:,} games over the grid's {len(points):,} points",
            f"{len(points) * len(seed_list):,} games",
        )
    for point in points:  # each point's game refused up front when it cannot fit in memory
        point.scenario.estimate()
    if workers is not None:
        workers = check_integer("workers", workers, low=1)
    if chunk_size is not None:
        chunk_size = check_integer("chunk_size", chunk_size, low=1)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ParameterError("executor", executor, "a concurrent.futures.Executor")
    if transcripts is not None:
        check_instance(
            "transcripts", transcripts, (str, os.PathLike), "a path (str or os.PathLike)"
        )
        transcripts = Path(transcripts)
        try:
            transcripts.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GameError(f"{transcripts}: cannot make the folder: {exc.strerror}") from None
    serial = executor is None and workers == 1
    n_workers = (
        1 if serial else (_workers_of(executor) if executor else workers or os.cpu_count() or 1)
    )
    total = len(points) * len(seed_list)
    size = chunk_size or max(1, min(MAX_CHUNK, math.ceil(len(seed_list) / (4 * n_workers))))
    tasks = _chunks(
        points,
        seed_list,
        size,
        lockstep=lockstep,
        transcripts=None if transcripts is None else str(transcripts),
        digests=digests,
    )
    grid_keys = list(points[0].params)
    columns = (["point"] if grid else []) + grid_keys + ["seed", *ROW_COLUMNS]
    columns += ["digest"] if digests else []
    start = time.perf_counter()
    done: dict[int, ChunkResult] = {}
    bar = _Progress(total, progress)
    try:
        if serial:
            interrupted = _run_here(tasks, done, bar)
        else:
            interrupted = _run_on(executor, n_workers, tasks, done, bar)
    finally:
        bar.stop()
    rows = [row for i in sorted(done) for row in done[i].rows]
    if not grid:
        for row in rows:
            row.pop("point", None)
    return SweepResult(
        rows=rows,
        columns=columns,
        points=[p.params for p in points],
        grid_keys=grid_keys,
        scenario=str(scenario.source),
        requested=total,
        interrupted=interrupted or any(r.interrupted for r in done.values()),
        lockstep=sum(r.lockstep for r in done.values()),
        elapsed=time.perf_counter() - start,
    )


def _run_here(tasks: list, done: dict, bar: _Progress, play: Callable = play_chunk) -> bool:
    """Play the chunks in this process; True when interrupted.

    In the main thread, SIGINT only asks for a stop (as in a pool's workers):
    the game in hand finishes and its row is kept, so no game whose transcript
    is complete can miss its row. Elsewhere a KeyboardInterrupt ends the chunk.
    """
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main else None
    if main:
        install_stop_handler()
    try:
        bar.start()
        for i, task in enumerate(tasks):
            try:
                result = play(task)
            except KeyboardInterrupt:
                return True
            done[i] = result
            bar.advance(result.rows)
            if result.interrupted:
                return True
        return False
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
            reset_stop()


def _run_on(
    executor, n_workers: int, tasks: list, done: dict, bar: _Progress, play: Callable = play_chunk
) -> bool:
    """Play the chunks on an executor (a process pool made here by default).

    ``play`` plays one task in a worker (a module-level function, so it pickles).
    """
    own = executor is None
    if own:
        executor = cf.ProcessPoolExecutor(max_workers=n_workers, initializer=install_stop_handler)
    futures: dict[cf.Future, int] = {}
    interrupted = False

    def collect(future: cf.Future) -> None:
        result = future.result()
        done[futures[future]] = result
        bar.advance(result.rows)

    try:
        for i, task in enumerate(tasks):
            futures[executor.submit(play, task)] = i
        bar.start()
        for future in cf.as_completed(futures):
            collect(future)
    except KeyboardInterrupt:
        interrupted = True
        for future in futures:
            future.cancel()
        processes = list((getattr(executor, "_processes", None) or {}).values()) if own else []
        for process in processes:  # finish the game in hand, then hand back the chunk
            with contextlib.suppress(OSError):
                os.kill(process.pid, signal.SIGINT)
        running = [f for f in futures if not f.cancelled() and futures[f] not in done]
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C abandons them
            cf.wait(running, timeout=GRACE if own else 0)
        for future in running:
            if future.done() and not future.cancelled() and future.exception() is None:
                collect(future)
        if any(not f.done() for f in running):
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    return interrupted
