"""python -m game selfcheck: conformance over the registry and a seeded fuzz pass, counted."""

from pathlib import Path

from game.cli import main
from game.testing import selfcheck

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"


def test_selfcheck_counts_checks_and_fuzzed_inputs():
    report = selfcheck(SCENARIOS, seconds=0.5, seed=1)
    assert report.players >= 3
    assert report.checks_run > 0 and report.checks_failed == 0, report.failures
    assert report.scenarios_tried > 0 and report.transcripts_tried > 0
    assert report.fuzz_wrong == 0, report.fuzz_failures
    assert report.ok


def test_selfcheck_command_prints_the_counts(capsys):
    status = main(["selfcheck", "--scenarios", str(SCENARIOS), "--seconds", "0.3"])
    out = capsys.readouterr().out
    assert status == 0, out
    for line in ("players checked", "checks run", "malformed scenarios tried"):
        assert line in out
