"""Shared test setup: hypothesis profiles.

``quick`` is the default; ``ci`` (chosen when the environment has CI=true, or
with HYPOTHESIS_PROFILE=ci) tries more examples. Both keep the whole run well
under ten minutes on two cores.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "quick", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
_default = "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "quick"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default))


def pytest_terminal_summary(terminalreporter):
    """Say how many conformance checks ran (tests/test_conformance.py)."""
    import sys

    module = sys.modules.get("test_conformance") or sys.modules.get("tests.test_conformance")
    if module is not None:
        terminalreporter.write_line(
            f"conformance: {len(module.RUN)} checks run and passed over "
            f"{len({c.player for c in module.CHECKS})} players; "
            f"{len(module.SKIPPED)} players skipped with a reason"
        )
