"""``python -m game sweep``: a scenario over many seeds, summarised against its bound.

::

    python -m game sweep SCENARIO --seeds 0:10000 [--grid KEY=V1,V2 ...]
        [--workers N | --scheduler ADDRESS] [--out results.csv|.parquet]
        [--transcripts DIR] [--chunk-size N] [--no-lockstep] [--digests]

SCENARIO is a ``.toml`` file or a built-in scenario's name.

Prints one table row per grid point (mistakes' mean, quantiles and max beside
the bound, and the games over it), then every violation with its seed and how
to replay it. A progress bar runs on standard error. Ctrl-C stops the sweep,
keeps (and writes to ``--out``) every finished game and exits with 130; a
sweep with a game over its bound or ended by an error exits with 1.

Every option is checked before the first game: bad seeds (a zero step, an
empty range, more than :data:`game.sweep.MAX_GAMES`), an ``--out`` that is not
a ``.csv`` or ``.parquet`` file in a folder that can be written in, a
``--scheduler`` that is not an address, a bad ``--workers`` or
``--chunk-size`` each end in one line naming the option, with exit 2.

Examples
--------
>>> from game.cli._sweep import parse_grid
>>> parse_grid(["adversary.margin=0.05,0.1", "learner.update=mistake,nonpositive"])
{'adversary.margin': [0.05, 0.1], 'learner.update': ['mistake', 'nonpositive']}
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.cli._output import check_out, progress_wanted
from game.errors import GameError, ParameterError
from game.sweep import SweepResult, parse_seeds, sweep

__all__ = ["add_parser", "check_results_out", "parse_grid", "parse_value", "run", "sweep_table"]

#: sweep's parameters by the options that give them.
_OPTIONS = {
    "seeds": "--seeds",
    "workers": "--workers",
    "chunk_size": "--chunk-size",
    "transcripts": "--transcripts",
}


def parse_value(text: str) -> Any:
    """A grid value written on the command line: a TOML value, else the text itself."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_grid(items: list[str] | None) -> dict[str, list]:
    """``KEY=V1,V2,…`` strings as a grid; each value read as TOML (bare words as text)."""
    grid: dict[str, list] = {}
    for item in items or []:
        key, eq, values = item.partition("=")
        if not eq or not key.strip() or not values.strip():
            raise GameError(f"--grid {item!r}: expected KEY=VALUE[,VALUE…]")
        grid[key.strip()] = [parse_value(v.strip()) for v in values.split(",")]
    return grid


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``sweep`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "sweep", help="play a scenario over many seeds (and a parameter grid)"
    )
    p.add_argument("scenario", help="a scenario .toml file or a built-in scenario's name")
    p.add_argument(
        "--seeds",
        default="0:100",
        help="seeds: A:B (B excluded), A:B:STEP or a comma list (default 0:100)",
    )
    p.add_argument(
        "--grid",
        action="append",
        metavar="KEY=V1,V2",
        help="a grid key (rounds, loss, learner.P, adversary.P) and its values; repeatable",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, help="processes of the local pool (default: cores)")
    where.add_argument("--scheduler", help="address of a Dask scheduler (needs dask.distributed)")
    p.add_argument("--out", type=Path, help="write every game's row to a .csv or .parquet file")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument("--transcripts", type=Path, help="keep every game's transcript in this folder")
    p.add_argument("--chunk-size", type=int, help="games per task")
    p.add_argument("--no-lockstep", action="store_true", help="never play games in lockstep")
    p.add_argument("--digests", action="store_true", help="add each transcript's digest to its row")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress bar")
    shown.add_argument(
        "--progress", action="store_true", help="a progress bar even when not on a terminal"
    )
    return p


def _fmt(value: Any, digits: int = 4) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return str(value)


def _seeds(seeds: list) -> str:
    shown = ", ".join(str(s) for s in seeds[:5])
    return shown + (f", … ({len(seeds)})" if len(seeds) > 5 else "")


def sweep_table(result: SweepResult, title: str | None = None) -> Table:
    """A rich table of :meth:`SweepResult.summary`: one row per grid point.

    Mistakes per game (mean, quantiles, max) beside the bound (its smallest and
    median value over the games, and what it counts), and the games over it.
    """
    summary = result.summary()
    quantities = sorted({s["bound_quantity"] for s in summary if s["bound_quantity"]})
    caption = "mean … max: mistakes per game; bound: its smallest – median value over the games"
    if quantities:
        caption += f" (on {', '.join(quantities)})"
    caption += "; over: games over their bound"
    table = Table(
        title=None if title is None else Text(title, style="table.title"),
        title_justify="left",
        caption=caption,
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for key in result.grid_keys:
        width = max(len(part) + 1 for part in key.split("."))
        table.add_column(key.replace(".", ".\n"), overflow="fold", min_width=width)
    table.add_column("games", justify="right", no_wrap=True)
    for name in ("mean", "q50", "q90", "q99", "max"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("bound", justify="right", no_wrap=True)
    table.add_column("over", overflow="fold")
    errors = any(s["errors"] for s in summary)
    if errors:
        table.add_column("errors")
    for s in summary:
        cells: list[Any] = [Text(_fmt(s.get(k))) for k in result.grid_keys]
        cells.append(str(s["games"]))
        for name in ("mean", "q50", "q90", "q99", "max"):
            cells.append(_fmt(s.get(f"mistakes_{name}")))
        if s["bound_min"] is None:
            cells.append("—")
        else:
            cells.append(f"{_fmt(s['bound_min'], 3)} – {_fmt(s['bound_median'], 3)}")
        bad = s["violation_seeds"]
        cells.append(f"[red]{len(bad)}: seeds {_seeds(bad)}[/]" if bad else "[green]0[/]")
        if errors:
            e = s["error_seeds"]
            cells.append(f"[red]{len(e)}: seeds {_seeds(e)}[/]" if e else "0")
        table.add_row(*cells)
    return table


def _address_problem(address: str) -> str | None:
    """Why ``address`` cannot be a scheduler's address, judged by its form alone; None if it can.

    An address is ``[PROTOCOL://]HOST[:PORT]`` (``tcp://10.0.0.1:8786``,
    ``localhost:8786``): not empty, no white space, a protocol of letters.
    """
    if not address.strip():
        return "it is empty"
    if any(c.isspace() for c in address):
        return "it holds white space"
    scheme, sep, rest = address.partition("://")
    if sep and (not scheme.isalpha() or not rest):
        return "expected PROTOCOL://HOST[:PORT]"
    return None


def _executor(args):
    if args.scheduler is None:
        return None, None
    problem = _address_problem(args.scheduler)  # judged before dask.distributed is needed
    if problem is not None:
        raise GameError(
            f"--scheduler must be a scheduler's address (tcp://HOST:PORT), "
            f"got {args.scheduler!r} ({problem})"
        )
    try:
        from distributed import Client
    except ImportError:
        raise GameError(
            "--scheduler needs dask.distributed: pip install 'online-learning-games[distributed]'"
        ) from None
    try:
        client = Client(args.scheduler, timeout=30)
    except (OSError, TimeoutError) as exc:
        raise GameError(f"--scheduler {args.scheduler!r}: cannot connect: {exc}") from None
    except (ValueError, TypeError) as exc:  # distributed's word for an address it cannot parse
        raise GameError(
            f"--scheduler must be a scheduler's address (tcp://HOST:PORT), "
            f"got {args.scheduler!r} ({exc})"
        ) from None
    return client, client.get_executor()


def check_results_out(out: Path | None) -> None:
    """Refuse an ``--out`` the results could not be written to, before any game is played.

    The suffix must be ``.csv`` or ``.parquet`` (the latter with pyarrow), the
    path not a folder, and its nearest existing folder one that can be written
    in (missing folders are made when the results are written).

    Examples
    --------
    >>> check_results_out(Path("results.txt"))
    Traceback (most recent call last):
    ...
    game.errors.GameError: --out must be a .csv or .parquet file, got 'results.txt'
    """
    if out is None:
        return
    if out.suffix not in (".csv", ".parquet"):
        raise GameError(f"--out must be a .csv or .parquet file, got {str(out)!r}")
    if out.is_dir():
        raise GameError(f"--out must be a .csv or .parquet file, got {str(out)!r}, a folder")
    folder = out.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise GameError(f"--out {str(out)!r}: {folder} is not a folder")
    try:  # a file made and removed at once: the one test every file system answers truly
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise GameError(
            f"--out {str(out)!r}: the folder {folder} cannot be written in ({exc.strerror})"
        ) from None
    if out.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise GameError(
                "--out *.parquet needs pyarrow: pip install 'online-learning-games[parquet]'"
            ) from None


def _toml(value: Any) -> str:
    """A grid value as ``--grid`` reads it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and parse_value(value) != value:
        return shlex.quote(f'"{value}"')
    return shlex.quote(str(value))


def _replay_hint(args, result: SweepResult, row: dict) -> str:
    if not result.grid_keys:
        return f"python -m game run {args.scenario} --seed {row['seed']}"
    grid = " ".join(f"--grid {k}={_toml(row[k])}" for k in result.grid_keys)
    return (
        f"python -m game sweep {args.scenario} --seeds {row['seed']} {grid} "
        f"--transcripts runs/replay"
    )


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the sweep and print its table and its violations; the exit status."""
    check_results_out(args.out)
    check_out(args.out, force=args.force, inputs=[args.scenario])
    try:
        seeds = parse_seeds(args.seeds)
    except ParameterError as exc:
        raise exc.renamed("--seeds") from None
    client, executor = _executor(args)
    try:
        result = sweep(
            args.scenario,
            seeds=seeds,
            grid=parse_grid(args.grid),
            executor=executor,
            workers=args.workers,
            chunk_size=args.chunk_size,
            lockstep=not args.no_lockstep,
            transcripts=args.transcripts,
            digests=args.digests,
            progress=progress_wanted(args),
        )
    except ParameterError as exc:  # named as the command line spells it
        raise exc.renamed(_OPTIONS.get(exc.parameter, exc.parameter)) from None
    finally:
        if client is not None:
            client.close()
    if args.out is not None:
        result.save(args.out, overwrite=args.force)
    console.print(sweep_table(result, title=f"{args.scenario}: {len(result)} games"))
    for row in result.violations()[:20]:
        params = ", ".join(f"{k} = {row[k]!r}" for k in result.grid_keys)
        quantity = row["bound_quantity"]
        line = (
            f": seed {row['seed']}{' (' + params + ')' if params else ''}: "
            f"{quantity} = {_fmt(row.get(quantity), 6)} > {_fmt(row['bound'], 6)}; "
            f"replay: {_replay_hint(args, result, row)}"
        )
        console.print(Text.assemble(("over the bound", "red"), line), soft_wrap=True)
    for row in result.errors()[:20]:
        line = f": seed {row['seed']}: {row['reason']}"
        console.print(Text.assemble(("error", "red"), line), soft_wrap=True)
    if args.out is not None:
        console.print(
            f"results written to {args.out}", markup=False, highlight=False, soft_wrap=True
        )
    if result.interrupted:
        console.print(
            f"[yellow]interrupted[/]: {len(result)} of {result.requested} games finished and kept"
        )
        return 130
    return 1 if result.violations() or result.errors() else 0
