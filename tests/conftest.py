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
