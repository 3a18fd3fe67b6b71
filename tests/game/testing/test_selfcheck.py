"""python -m game selfcheck: conformance over the registry and a seeded fuzz pass, counted."""

import math
import re
from pathlib import Path

import pytest

from game.cli import main
from game.errors import ParameterError
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


@pytest.mark.parametrize(
    ("kwargs", "parameter", "message"),
    [
        ({"seed": -1}, "seed", "seed must be an integer ≥ 0, got -1"),
        ({"seed": True}, "seed", "seed must be an integer ≥ 0, got True"),
        ({"seed": 1.5}, "seed", "seed must be an integer ≥ 0, got 1.5"),
        ({"seconds": math.nan}, "seconds", "seconds must be a number in [0, 86400], got nan"),
        ({"seconds": -5}, "seconds", "seconds must be a number in [0, 86400], got -5"),
        ({"seconds": math.inf}, "seconds", "seconds must be a number in [0, 86400], got inf"),
        ({"seconds": 1e9}, "seconds", "seconds must be a number in [0, 86400], got 1000000000.0"),
        ({"seconds": "3"}, "seconds", "seconds must be a number in [0, 86400], got '3'"),
        ({"folder": "no/such/folder"}, "folder", "folder must be a folder of scenarios, got"),
        ({"folder": 5}, "folder", "folder must be a path (str or os.PathLike), got 5"),
    ],
)
def test_selfcheck_refuses_a_bad_argument_before_any_check(kwargs, parameter, message):
    arguments = {"folder": SCENARIOS, "seconds": 0.0, "seed": 0} | kwargs
    folder = arguments.pop("folder")
    with pytest.raises(ParameterError, match="^" + re.escape(message)) as info:
        selfcheck(folder, **arguments)
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--seed", "-1", "error: --seed must be an integer ≥ 0, got -1"),
        ("--seconds", "nan", "error: --seconds must be a number in [0, 86400], got nan"),
        ("--seconds", "-5", "error: --seconds must be a number in [0, 86400], got -5.0"),
        ("--seconds", "1e300", "error: --seconds must be a number in [0, 86400], got 1e+300"),
        ("--scenarios", "no/such/folder", "error: --scenarios must be a folder of scenarios"),
    ],
)
def test_a_bad_option_is_one_line_and_status_2(capsys, option, value, says):
    arguments = ["selfcheck", "--scenarios", str(SCENARIOS), "--seconds", "0", option, value]
    assert main(arguments) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(says) and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err and "players checked" not in captured.out
