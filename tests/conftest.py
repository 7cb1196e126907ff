"""Shared test settings: hypothesis profiles.

"ci" (the default) keeps the whole suite well under a minute on two cores; "thorough" is for
a long local run: ``HYPOTHESIS_PROFILE=thorough pytest tests``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=3000,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
