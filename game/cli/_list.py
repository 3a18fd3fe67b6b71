"""``python -m game list``: every registered player, or every built-in scenario.

::

    python -m game list               # name, role, parameters and first doc line of each player
    python -m game list --scenarios   # name, learner, adversary, rounds, description

The players' names are those a scenario spells in its ``[learner]`` and
``[adversary]`` tables, and the scenarios' names those ``run``, ``replay``,
``expect`` and ``sweep`` take, so a name is never cut: on a terminal the other
columns wrap around it, and piped output prints every row whole on one line.
An installed player entry point that cannot be loaded is named on standard
error in one line, the other players listed, and ``list`` exits with 2.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from game.players import broken_entry_points, lookup, names, parameters, role_of
from game.scenario import builtin_scenarios, load_scenario

__all__ = ["add_parser", "players_table", "run", "scenarios_table"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``list`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "list", help="every registered player with its parameters (or the built-in scenarios)"
    )
    p.add_argument(
        "--scenarios",
        action="store_true",
        help="list the built-in scenarios instead: the names run, replay and sweep take",
    )
    return p


#: How ``list`` shows a parameter the scenario fills, by what it supplies.
_SUPPLIED = {
    "rng": "from the seed",
    "loss": "a scenario's loss",
    "concept_class": "or the [concept_class] table",
}


def players_table(broken: dict[str, str] | None = None) -> Table:
    """A rich table of the registry: name, role, parameters (with defaults), what it is.

    Parameters
    ----------
    broken : dict, optional
        Filled with the installed entry points that cannot be loaded (name ->
        why, in one line); they are left out of the table.

    Examples
    --------
    >>> table = players_table()
    >>> "perceptron" in table.columns[0].cells, table.columns[0].no_wrap
    (True, True)
    """
    failed = broken_entry_points()
    if broken is not None:
        broken.update(failed)
    table = Table(title="registered players")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("role")
    table.add_column("parameters", overflow="fold")
    table.add_column("what it is")
    for name in names():
        if name in failed:
            continue
        cls = lookup(name)
        params = []
        for p in parameters(cls):
            shown = p["name"]
            if not p["required"] and p["supplied"] != "rng":
                shown += f"={p['default']!r}"
            if p["supplied"]:  # declared: a scenario fills it
                shown += f" ({_SUPPLIED[p['supplied']]})"
            params.append(escape(shown))
        doc = (cls.__doc__ or "").strip().splitlines()
        table.add_row(name, role_of(cls), ", ".join(params), doc[0] if doc else "")
    return table


def scenarios_table() -> Table:
    """A rich table of the built-in scenarios: name, learner, adversary, rounds, description.

    The name is the one ``python -m game run NAME`` takes
    (:func:`game.builtin_scenarios`); rounds is the scenario's upper limit.

    Examples
    --------
    >>> rows = zip(*(column.cells for column in scenarios_table().columns))
    >>> [row[:4] for row in rows if row[0] == "perceptron-separable"]
    [('perceptron-separable', 'perceptron', 'separable-stream', '2,000')]
    """
    table = Table(title="built-in scenarios")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("learner")
    table.add_column("adversary")
    table.add_column("rounds", justify="right")
    table.add_column("description")
    for name, path in builtin_scenarios().items():
        scenario = load_scenario(path)
        spec = scenario.spec
        table.add_row(
            name,
            spec["learner"]["name"],
            spec["adversary"]["name"],
            f"{scenario.rounds:,}",
            escape(scenario.description),
        )
    return table


def run(args: argparse.Namespace, console: Console) -> int:
    """Print the table of registered players, or of the built-in scenarios.

    An installed player entry point that cannot be loaded leaves the others
    listed: each such one gets a line ``error: the player entry point …`` on
    standard error, and the exit status is 2.
    """
    if args.scenarios:
        console.print(scenarios_table())
        return 0
    broken: dict[str, str] = {}
    console.print(players_table(broken))
    for why in broken.values():
        print(f"error: {why}", file=sys.stderr)
    return 2 if broken else 0
