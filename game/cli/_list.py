"""``python -m game list``: every registered player, its role, parameters and first doc line.

The names are those a scenario spells in its ``[learner]`` and ``[adversary]``
tables, so a name is never cut: on a terminal the other columns wrap around it,
and piped output prints every row whole on one line.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from game.players import lookup, names, parameters, role_of

__all__ = ["add_parser", "players_table", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``list`` command to an argparse subparsers object."""
    return subparsers.add_parser("list", help="every registered player with its parameters")


#: How ``list`` shows a parameter the scenario fills, by what it supplies.
_SUPPLIED = {
    "rng": "from the seed",
    "loss": "a scenario's loss",
    "concept_class": "or the [concept_class] table",
}


def players_table() -> Table:
    """A rich table of the registry: name, role, parameters (with defaults), what it is.

    Examples
    --------
    >>> table = players_table()
    >>> "perceptron" in table.columns[0].cells, table.columns[0].no_wrap
    (True, True)
    """
    table = Table(title="registered players")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("role")
    table.add_column("parameters", overflow="fold")
    table.add_column("what it is")
    for name in names():
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


def run(args: argparse.Namespace, console: Console) -> int:
    """Print the table of registered players."""
    console.print(players_table())
    return 0
