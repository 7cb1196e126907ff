"""Every surface gives the answers it gave when the goldens were recorded (see golden_harness).

A failure names the case and the first place it differs. When an output is meant to change,
record again (``python tests/golden_harness.py --record CASE-PREFIX``) and say why in the commit.
"""

from __future__ import annotations

import golden_harness as gh
import pytest


@pytest.mark.parametrize("case", gh.all_cases())
def test_surface_matches_its_golden(case, tmp_path):
    assert gh.path_for(case).exists(), f"no golden for {case}: record it"
    new = gh.run_case(case, tmp_path)
    stored = gh.load(case)
    difference = gh.first_difference(new, stored)
    assert difference is None, f"{case} differs from its golden at {difference}"


def test_the_comparison_sees_a_changed_number():
    stored = gh.load("cli:compas_split_group")
    changed = gh.load("cli:compas_split_group")
    changed["json"]["stdout"]["saving_per_case"] += 1e-6
    assert gh.first_difference(stored, stored) is None
    assert "saving_per_case" in gh.first_difference(changed, stored)


def test_floats_compare_to_twelve_digits_and_times_are_masked():
    assert gh.digest([0.1 + 0.2]) == gh.digest([0.3])
    assert gh.digest([0.3001]) != gh.digest([0.3])
    assert gh.text("created 2026-12-01T10:45:08+00:00") == "created <time>"
