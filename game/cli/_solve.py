"""``python -m game solve``: exact values of small games, checked by playing them.

::

    python -m game solve worst-case halving intervals 16       # a learner, then a class
    python -m game solve worst-case conjunction-learner conjunctions 3
    python -m game solve worst-case halving intervals 8 --plot tree.png --tree tree.graphml
    python -m game solve regret --experts 2 --horizon 12 --learner exponential-weights \\
        --param eta=1.0 --plot regret.png

``worst-case`` builds the learner by its registry name (``--param KEY=VALUE``
for its parameters, each read as a TOML value) with the class, solves its
worst case (:func:`game.theory.solve.worst_case`: a learner of bits is shown
the class's points as the bit vectors of ``bit_vectors(n)``), then plays the
forcing adversary (``forcing-adversary``) against a fresh copy of the learner
through the referee and prints the referee's verdict beside the value: the
mistakes, the certificate checked and the lower bound forced. ``--rounds T``
solves games of at most T rounds (needed for a learner that can be made to err
without end, which is otherwise reported as such).

``regret`` prints the exact minimax regret of binary prediction with
``--experts`` experts for every horizon up to ``--horizon``
(:func:`game.theory.solve.minimax_regret`), and with ``--learner`` that
learner's exact worst-case regret at each horizon
(:func:`game.theory.solve.worst_case_regret`; the game's loss is absolute) and
its ratio to the minimax value.

A search that cannot finish within ``--max-states`` states is refused with its
estimate (exit 2), as is any bad argument.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.cli._ldim import load_class_argument
from game.cli._output import check_out
from game.cli._sweep import parse_value
from game.errors import GameError
from game.players import build_by_name

__all__ = ["add_parser", "parse_params", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``solve`` command (``worst-case``, ``regret``) to an argparse subparsers object."""
    p = subparsers.add_parser(
        "solve", help="exact values of small games: a learner's worst case, minimax regret"
    )
    kinds = p.add_subparsers(dest="problem", metavar="PROBLEM", required=True)
    w = kinds.add_parser(
        "worst-case", help="the most mistakes an adversary can force on a learner over a class"
    )
    w.add_argument("learner", metavar="LEARNER", help="a registered learner's name")
    w.add_argument("cls", metavar="CLASS", help="a class builder or a .npy/.csv file")
    w.add_argument("args", metavar="ARG", nargs="*", help="the builder's integer arguments")
    w.add_argument("--rounds", type=int, metavar="T", help="solve games of at most T rounds")
    r = kinds.add_parser(
        "regret", help="minimax regret with expert advice, and a learner's worst case"
    )
    r.add_argument("--experts", type=int, default=2, help="N, the experts (default 2)")
    r.add_argument("--horizon", type=int, default=12, help="the largest T (default 12)")
    r.add_argument("--learner", metavar="LEARNER", help="a registered learner of advice")
    for sub in (w, r):
        sub.add_argument(
            "--param",
            action="append",
            metavar="KEY=VALUE",
            help="a parameter of the learner (a TOML value); repeatable",
        )
        sub.add_argument("--max-states", type=int, help="the most states a search may take")
        sub.add_argument(
            "--plot", type=Path, metavar="FILE", help="write a figure (.png, .svg, .pdf)"
        )
        sub.add_argument("--force", action="store_true", help="replace existing output files")
    w.add_argument("--tree", type=Path, help="write the forcing strategy (.graphml or .dot)")
    return p


def parse_params(items: list[str] | None) -> dict[str, Any]:
    """``KEY=VALUE`` strings as a learner's parameters, each value read as TOML.

    Examples
    --------
    >>> parse_params(["eta=0.5", "loss=absolute"])
    {'eta': 0.5, 'loss': 'absolute'}
    >>> parse_params(["eta"])
    Traceback (most recent call last):
    ...
    game.errors.GameError: --param 'eta': expected KEY=VALUE
    """
    params: dict[str, Any] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise GameError(f"--param {item!r}: expected KEY=VALUE")
        params[key.strip()] = parse_value(value.strip())
    return params


def _limit(args: argparse.Namespace, default: int) -> int:
    if args.max_states is None:
        return default
    if args.max_states < 1:
        raise GameError(f"--max-states must be at least 1, got {args.max_states}")
    return args.max_states


def _learner(name: str, params: dict, supplies: dict) -> Any:
    try:
        return build_by_name(name, "learner", params, supplies=supplies)
    except GameError as exc:
        raise GameError(f"learner {name}: {exc}") from None


def _outputs(args: argparse.Namespace) -> None:
    for flag in ("plot", "tree"):
        path = getattr(args, flag, None)
        if path is not None:
            check_out(path, force=args.force, inputs=[], flag=f"--{flag}")
    if getattr(args, "tree", None) is not None and args.tree.suffix not in (".graphml", ".dot"):
        raise GameError(f"{args.tree}: trees are written as .graphml or .dot")


def _worst_case(args: argparse.Namespace, console: Console) -> int:
    import game
    from game.players import lookup
    from game.theory.concepts import bit_vectors
    from game.theory.solve import DEFAULT_MAX_STATES, worst_case

    _outputs(args)
    cls = load_class_argument(args.cls, list(args.args))
    params = parse_params(args.param)
    supplies = {"concept_class": cls, "loss": "zero-one"}
    learner = _learner(args.learner, params, supplies)
    plays = getattr(learner, "plays", frozenset({"point"}))
    points = None
    if "point" not in plays and "bits" in plays:
        n = cls.n_points.bit_length() - 1
        if cls.n_points != 1 << n:
            raise GameError(
                f"{args.cls}: a learner of bits needs a class over the 2ⁿ bit vectors; "
                f"this one has {cls.n_points} points"
            )
        points = bit_vectors(n)
    elif "point" not in plays:
        raise GameError(
            f"learner {args.learner} plays {', '.join(sorted(plays))}, not points or bits"
        )
    if args.rounds is not None and args.rounds < 0:
        raise GameError(f"--rounds must be at least 0, got {args.rounds}")
    start = time.perf_counter()
    result = worst_case(
        learner,
        cls,
        points=points,
        rounds=args.rounds,
        max_states=_limit(args, DEFAULT_MAX_STATES),
    )
    elapsed = time.perf_counter() - start
    table = Table(
        title=Text(
            f"worst case of {args.learner} over {cls.name or args.cls}", style="table.title"
        ),
        show_header=False,
        title_justify="left",
    )
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")
    value = "without end (a cycle of mistakes)" if result.unbounded else str(result.value)
    table.add_row("mistakes forced", value)
    table.add_row("Ldim", str(result.ldim))
    bound = getattr(learner, "mistake_bound", None)
    table.add_row("hypotheses, points", f"{cls.n_hypotheses:,}, {cls.n_points:,}")
    if args.rounds is not None:
        table.add_row("horizon", f"{args.rounds} rounds")
    table.add_row("search", f"{result.states:,} states, {elapsed:.3f} s")
    walk = " ".join(
        f"{x}{'+' if y > 0 else '−'}{'✗' if mistake else ''}" for x, y, mistake in result.path[:40]
    )
    more = f" … ({len(result.path) - 40} more)" if len(result.path) > 40 else ""
    table.add_row("the walk", Text(f"{walk}{more}  (point, label, ✗ = mistake)"))
    table.add_row("witness", f"hypothesis {result.witness} {result.witness_name!r}")
    if not result.unbounded:
        forcing = lookup("forcing-adversary", "adversary")
        adversary = forcing.solve(
            _learner(args.learner, params, supplies), cls, points, args.rounds
        )
        rounds = max(len(result.path), 1)
        transcript = game.play(_learner(args.learner, params, supplies), adversary, rounds=rounds)
        s = transcript.summary()
        verdict = (
            f"{s['mistakes']} mistakes in {len(transcript)} rounds; certificate "
            f"{'verified' if s['certificate_verified'] else 'NOT verified'}; lower bound "
            f"{'forced' if s['forced'] else 'not forced'}"
        )
        table.add_row("played by the referee", verdict)
        if s["bound"] is not None:
            table.add_row("the learner's bound", f"{s['bound_quantity']} ≤ {s['bound']:g}")
    elif callable(bound):
        table.add_row("the learner's bound", "none holds: it can be made to err without end")
    console.print(table)
    if args.tree is not None:
        from game.theory.littlestone import write_tree

        try:
            write_tree(result.tree, args.tree)
        except OSError as exc:
            raise GameError(f"{args.tree}: cannot write the tree: {exc}") from None
        console.print(f"the strategy → {args.tree}")
    if args.plot is not None:
        from game.viz.plots import draw_worst_case, save_figure

        console.print(f"figure → {save_figure(draw_worst_case(result), args.plot)}")
    return 0


def _regret(args: argparse.Namespace, console: Console) -> int:
    from game.theory.solve import max_regret_horizon, minimax_regret, worst_case_regret

    _outputs(args)
    if args.experts < 1:
        raise GameError(f"--experts must be at least 1, got {args.experts}")
    if args.horizon < 1:
        raise GameError(f"--horizon must be at least 1, got {args.horizon}")
    if args.experts <= 4 and args.horizon > max_regret_horizon(args.experts):
        raise GameError(
            f"--horizon {args.horizon}: with {args.experts} experts the exact solution is "
            f"offered up to T = {max_regret_horizon(args.experts)}"
        )
    params = parse_params(args.param)
    supplies = {"loss": "absolute", "rng": np.random.default_rng(0)}
    if args.learner is None and params:
        raise GameError("--param needs --learner")
    limit = _limit(args, 100_000)
    table = Table(
        title=Text(
            f"binary prediction with {args.experts} experts (absolute loss)", style="table.title"
        ),
        title_justify="left",
    )
    table.add_column("T", justify="right")
    table.add_column("minimax regret", justify="right")
    table.add_column("", justify="right")
    if args.learner is not None:
        table.add_column(f"{args.learner}: worst case", justify="right")
        table.add_column("ratio", justify="right")
    start = time.perf_counter()
    for t in range(1, args.horizon + 1):
        value = minimax_regret(args.experts, t)
        row = [str(t), str(value), f"{float(value):.4f}"]
        if args.learner is not None:
            learner = _learner(args.learner, params, supplies)
            worst = worst_case_regret(learner, args.experts, t, max_states=limit).value
            ratio = "—" if value == 0 else f"{float(worst / value):.3f}"
            row += [f"{float(worst):.4f}", ratio]
        table.add_row(*row)
    console.print(table)
    console.print(f"solved in {time.perf_counter() - start:.3f} s")
    if args.plot is not None:
        from game.viz.plots import plot_minimax_regret, save_figure

        learners = {}
        if args.learner is not None:
            learners[args.learner] = lambda t: _learner(args.learner, params, supplies)
        fig = plot_minimax_regret(args.experts, args.horizon, learners, max_states=limit)
        console.print(f"figure → {save_figure(fig, args.plot)}")
    return 0


def run(args: argparse.Namespace, console: Console) -> int:
    """Solve the problem asked and print its table; write the figure and tree when asked."""
    if args.problem == "worst-case":
        return _worst_case(args, console)
    return _regret(args, console)
