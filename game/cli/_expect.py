"""``python -m game expect``: the ``[expect]`` table that pins a scenario's game down.

::

    python -m game expect SCENARIO   # paste what it prints into the scenario

SCENARIO is a ``.toml`` file or a built-in scenario's name.

Plays the scenario and prints its counts, verdicts and digest as TOML text, to
paste into the scenario so that every later ``run`` and ``replay`` checks them.
"""

from __future__ import annotations

import argparse

from rich.console import Console

from game.scenario import load_scenario
from game.transcript import Transcript

__all__ = ["add_parser", "expect_table", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``expect`` command to an argparse subparsers object."""
    p = subparsers.add_parser("expect", help="print the [expect] table of a scenario's game")
    p.add_argument("scenario", help="a scenario .toml file or a built-in scenario's name")
    return p


def expect_table(transcript: Transcript) -> str:
    """The ``[expect]`` table that pins a game down, as TOML text to paste into its scenario.

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> from learners.experts import Halving
    >>> game = play(Halving(), HalvingLowerBound(experts=8), rounds=10)
    >>> print(expect_table(game))  # doctest: +ELLIPSIS
    [expect]
    mistakes = 3
    updates = 3
    within_bound = true
    certificate_verified = true
    forced = true
    digest = "sha256:..."
    """
    s = transcript.summary()
    lines = ["[expect]", f"mistakes = {s['mistakes']}", f"updates = {s['updates']}"]
    if s["within_bound"] is not None:
        lines.append(f"within_bound = {'true' if s['within_bound'] else 'false'}")
    if s["certificate_verified"] is not None:
        lines.append(f"certificate_verified = {'true' if s['certificate_verified'] else 'false'}")
    if s["forced"] is not None:
        lines.append(f"forced = {'true' if s['forced'] else 'false'}")
    lines.append(f'digest = "{s["digest"]}"')
    return "\n".join(lines)


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the scenario and print its ``[expect]`` table as plain text (no rich layout)."""
    scenario = load_scenario(args.scenario)
    print(expect_table(scenario.play(check=False)))
    return 0
