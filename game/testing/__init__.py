"""Conformance checks for any player (each a public ``check_*`` function), the
fuzzer of malformed inputs, and ``selfcheck``. Hypothesis strategies live in
:mod:`game.testing.strategies` (the ``testing`` extra).
"""

from game.testing._checks import (
    Check,
    CheckFailure,
    CheckResult,
    RandomLearner,
    check_adversary,
    check_learner,
    registered_checks,
    run_checks,
)
from game.testing._fuzz import (
    check_scenario_refused,
    check_transcript_refused,
    damaged_transcript,
    malformed_scenario,
)
from game.testing._selfcheck import SelfcheckReport, selfcheck

__all__ = [
    "Check",
    "CheckFailure",
    "CheckResult",
    "RandomLearner",
    "SelfcheckReport",
    "check_adversary",
    "check_learner",
    "check_scenario_refused",
    "check_transcript_refused",
    "damaged_transcript",
    "malformed_scenario",
    "registered_checks",
    "run_checks",
    "selfcheck",
]
