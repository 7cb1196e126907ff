"""Shared test settings: hypothesis profiles.

"ci" (the default) keeps the whole suite well under a minute on two cores; "thorough" is for
a long local run: ``HYPOTHESIS_PROFILE=thorough pytest tests``.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
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


def _benchmark(name: str):
    """`benchmarks/<name>.py` as a module."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def honest_bench():
    """`benchmarks/honest.py` as a module: the one home of the simulations (designs, truths,
    judging) that the coverage tests run at a size CI fits."""
    return _benchmark("honest")


@pytest.fixture(scope="session")
def training_honesty_bench():
    """`benchmarks/training_honesty.py` as a module: Train with costs' simulations (truths,
    judging, figures) that its coverage and verdict tests run at a size CI fits."""
    return _benchmark("training_honesty")
