"""Every conformance check of game.testing on every registered player.

Adversaries (and learners that play points) are built as the first scenario in
scenarios/ that names them builds them; a player no scenario names is skipped
with that reason. The number of checks run is printed at the end of the run.
"""

from pathlib import Path

import pytest

from game.players import BUILTIN, lookup, role_of
from game.testing import parametrize_with_checks, registered_checks

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
CHECKS, SKIPPED = registered_checks(SCENARIOS)
RUN: list[str] = []


@parametrize_with_checks(CHECKS)
def test_conformance(check):
    check()
    RUN.append(check.id)


@pytest.mark.parametrize("name", sorted(SKIPPED) or ["(none)"])
def test_skipped_players_name_their_reason(name):
    if name == "(none)":
        return
    pytest.skip(f"{name}: {SKIPPED[name]}")


def test_every_registered_player_is_checked_or_skipped_with_a_reason():
    checked = {c.player for c in CHECKS}
    for name in BUILTIN:
        assert name in checked or SKIPPED.get(name), name


def test_every_registered_player_appears_in_a_scenario():
    used = set()
    for path in SCENARIOS.glob("*.toml"):
        text = path.read_text()
        used |= {line.split('"')[1] for line in text.splitlines() if line.startswith("name = ")}
    missing = [n for n in BUILTIN if n not in used and role_of(lookup(n)) == "adversary"]
    assert not missing, f"adversaries no scenario plays: {missing}"
