"""The linear learners' and adversaries' scenarios play as recorded."""

from pathlib import Path

import pytest

from game.scenario import load_scenario
from game.theory import margin_perceptron_claims

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
PREFIXES = ("perceptron_", "ogd_", "margin_", "batch_", "orthogonal_", "noisy_")
LINEAR = sorted(p for p in SCENARIOS.glob("*.toml") if p.name.startswith(PREFIXES))


def test_every_linear_player_has_a_scenario():
    text = "\n".join(p.read_text(encoding="utf-8") for p in LINEAR)
    for name in (
        "perceptron",
        "online-gradient-descent",
        "margin-perceptron",
        "batch-perceptron",
        "orthogonal-adversary",
        "misclassified-picker",
        "noisy-stream",
    ):
        assert f'name = "{name}"' in text, name


@pytest.mark.parametrize("path", LINEAR, ids=lambda p: p.stem)
def test_scenario_plays_as_recorded(path):
    scenario = load_scenario(path)
    assert {"digest", "within_bound"} <= set(scenario.expect), "record its [expect] table"
    transcript = scenario.play()  # raises ExpectationError on any difference
    assert transcript.within_bound is True


@pytest.mark.parametrize("stem", ["orthogonal_perceptron", "orthogonal_margin_perceptron"])
def test_worst_case_scenarios_pin_their_exact_mistakes(stem):
    scenario = load_scenario(SCENARIOS / f"{stem}.toml")
    expect = scenario.expect
    assert expect["mistakes"] == expect["min_mistakes"]
    transcript = scenario.play()
    assert transcript.summary()["forced"] is True


def test_snapshot_scenario_checks_the_proof():
    transcript = load_scenario(SCENARIOS / "perceptron_cs229_snapshots.toml").play()
    proof = transcript.proof_claims()
    assert proof.holds and len(proof.rounds) == transcript.observed("updates") > 0


def test_margin_scenario_replays_with_its_proof():
    transcript = load_scenario(SCENARIOS / "margin_perceptron_separable.toml").play(snapshots=True)
    assert margin_perceptron_claims(transcript).holds
