"""``python -m game ldim``: the Littlestone dimension of a finite class, and its tree.

::

    python -m game ldim intervals 64                 # a builder and its arguments
    python -m game ldim data/cls.npy --tree t.graphml # a ±1 matrix file; write the tree
    python -m game ldim conjunctions 4 --vc          # the VC dimension too

The class is a builder of :mod:`game.theory.concepts` followed by its integer
arguments, or a ``.npy`` / ``.csv`` file holding a ±1 matrix (hypotheses ×
points). ``--tree FILE`` writes a shattered tree of depth Ldim as GraphML
(``.graphml``) or Graphviz DOT (``.dot``).

Before the search the memory it needs is estimated from the class's size
(:func:`game.players.ldim_estimate`, about 10 bytes per hypothesis × point):
a class whose search cannot fit the machine's available memory is refused
up front with the estimate (exit 2), and a class of more than 10⁸ cells is
announced on stderr with its estimate, since its search can take minutes.
The search itself shows no progress: its depth-first questions have no
known total.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.errors import GameError, ParameterError
from game.players import LDIM_LONG_CELLS, available_memory, format_bytes, ldim_estimate
from game.theory.concepts import BUILDERS, FiniteClass, build_class

__all__ = ["add_parser", "check_search_size", "load_class_argument", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``ldim`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "ldim", help="the Littlestone dimension of a finite class (a builder or a .npy/.csv file)"
    )
    p.add_argument("cls", metavar="CLASS", help=f"a .npy/.csv file or one of {', '.join(BUILDERS)}")
    p.add_argument("args", metavar="ARG", nargs="*", help="the builder's integer arguments")
    p.add_argument("--tree", type=Path, help="write a shattered tree (.graphml or .dot)")
    p.add_argument("--vc", action="store_true", help="also compute the VC dimension")
    return p


def load_class_argument(name: str, args: list[str]) -> FiniteClass:
    """The class named on the command line: a builder with integer arguments, or a file.

    Raises
    ------
    GameError
        With one line saying what is wrong.

    Examples
    --------
    >>> load_class_argument("thresholds", ["7"])
    FiniteClass('thresholds(7)': 8 hypotheses × 7 points)
    >>> load_class_argument("threshold", ["7"])
    Traceback (most recent call last):
    ...
    game.errors.GameError: unknown class builder 'threshold'; expected a .npy or .csv file or ...
    """
    if name in BUILDERS:
        params = list(inspect.signature(BUILDERS[name]).parameters)
        if len(args) != len(params):
            raise GameError(f"{name} takes {len(params)} argument(s): {', '.join(params)}")
        try:
            values = [int(a) for a in args]
        except ValueError:
            raise GameError(f"{name}: arguments must be integers, got {' '.join(args)}") from None
        try:
            return build_class(name, *values)
        except GameError as exc:
            raise GameError(f"{name}: {exc}") from None
    path = Path(name)
    if path.suffix in (".npy", ".csv"):
        if args:
            raise GameError(f"{name}: a class file takes no arguments, got {' '.join(args)}")
        try:
            return FiniteClass.load(path)
        except ParameterError as exc:  # where in the file and what was expected, not its content
            raise GameError(f"{name}: {exc.note or exc.expected}") from None
    raise GameError(
        f"unknown class builder {name!r}; expected a .npy or .csv file or one of "
        f"{', '.join(BUILDERS)}"
    )


def check_search_size(name: str, cls: FiniteClass, available: int | None = None) -> str | None:
    """Refuse a class whose Ldim search cannot fit in memory; a note when it will be long.

    Parameters
    ----------
    name : str
        The class as named on the command line.
    cls : FiniteClass
        The class.
    available : int, optional
        Bytes available (default: :func:`game.players.available_memory`).

    Returns
    -------
    str or None
        A line announcing a long search (over 10⁸ cells), else None.

    Raises
    ------
    GameError
        Naming the class, its size and the estimate, when it cannot fit.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> check_search_size("thresholds", thresholds(7)) is None
    True
    >>> check_search_size("thresholds", thresholds(8192), available=10**8)
    Traceback (most recent call last):
    ...
    game.errors.GameError: thresholds: a class of 8,193 hypotheses × 8,192 points needs about ...
    """
    found = ldim_estimate(cls.n_hypotheses, cls.n_points)
    if available is None:
        available = available_memory()
    if available is not None and found.bytes > available:
        raise GameError(
            f"{name}: {found.describe()} for its Littlestone-dimension search, "
            f"{format_bytes(available)} available"
        )
    if cls.n_hypotheses * cls.n_points > LDIM_LONG_CELLS:
        return f"{name}: {found.describe()}; the search may take minutes"
    return None


def run(args: argparse.Namespace, console: Console) -> int:
    """Compute and print the dimension; write the tree when asked."""
    from game.theory.littlestone import littlestone_tree, vcdim, write_tree

    cls = load_class_argument(args.cls, list(args.args))
    if args.tree is not None and args.tree.suffix not in (".graphml", ".dot", ".gv"):
        raise GameError(f"{args.tree}: trees are written as .graphml or .dot")
    note = check_search_size(args.cls, cls)
    if note is not None:
        print(note, file=sys.stderr)
    start = time.perf_counter()
    d = cls.engine.ldim()
    elapsed = time.perf_counter() - start
    title = Text(cls.name or args.cls, style="table.title")
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")  # a path is never cut short
    table.add_row("hypotheses", f"{cls.n_hypotheses:,}")
    table.add_row("points", f"{cls.n_points:,}")
    table.add_row("Littlestone dimension", str(d))
    table.add_row("time", f"{elapsed:.3f} s")
    stats = cls.engine.stats
    table.add_row(
        "search",
        f"{stats['questions']:,} questions, {stats['states']:,} restrictions, "
        f"{stats['memo']:,} memo entries",
    )
    if args.vc:
        start = time.perf_counter()
        v = vcdim(cls)
        table.add_row("VC dimension", f"{v}  ({time.perf_counter() - start:.3f} s)")
    if args.tree is not None:
        tree = littlestone_tree(cls)
        try:
            write_tree(tree, args.tree)
        except OSError as exc:
            raise GameError(f"{args.tree}: cannot write the tree: {exc}") from None
        row = f"depth {d}, {tree.number_of_nodes():,} nodes → {args.tree}"
        table.add_row("tree", Text(row))
    console.print(table)
    return 0
