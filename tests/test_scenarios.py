"""Every built-in scenario plays to its recorded ``[expect]`` table, digest included.

A scenario is the project's promise of one exact game: the same scenario and
seed give the same transcript on every machine. So each one is played whole
here and its expectations (mistakes, updates, the bound, the certificate and
the digest recorded when it was made) are checked.
"""

from pathlib import Path

import pytest

from game import Transcript, load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))


def test_the_scenarios_are_found():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_each_scenario_plays_to_its_recorded_digest(path):
    scenario = load_scenario(path)
    assert scenario.expect.get("digest"), f"{path.name} records no digest"
    transcript = scenario.play()  # raises ExpectationError on any failed expectation
    assert transcript.digest == scenario.expect["digest"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_each_scenario_s_transcript_file_loads_with_its_verdicts(path, tmp_path):
    """A game's file reads back (its totals and bound recomputed) to the game's own verdicts."""
    scenario = load_scenario(path)
    played = scenario.play(rounds=min(scenario.rounds, 300), out=tmp_path / "t.jsonl", check=False)
    loaded = Transcript.load(tmp_path / "t.jsonl")
    assert loaded.digest == played.digest
    assert loaded.summary()["mistakes"] == played.summary()["mistakes"]
    assert (loaded.bound is None) == (played.bound is None)
    if played.bound is not None:
        assert loaded.bound.value == played.bound.value
        assert loaded.bound.applies == played.bound.applies
