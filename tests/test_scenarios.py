"""Every built-in scenario plays to its recorded ``[expect]`` table, digest included.

A scenario is the project's promise of one exact game: the same scenario and
seed give the same transcript on every machine. So each one is played whole
here and its expectations (mistakes, updates, the bound, the certificate and
the digest recorded when it was made) are checked.
"""

from pathlib import Path

import pytest

from game import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))


def test_the_scenarios_are_found():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_each_scenario_plays_to_its_recorded_digest(path):
    scenario = load_scenario(path)
    assert scenario.expect.get("digest"), f"{path.name} records no digest"
    transcript = scenario.play()  # raises ExpectationError on any failed expectation
    assert transcript.digest == scenario.expect["digest"]
