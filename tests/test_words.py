"""Sentences whose numbers must agree with themselves: signs of intervals, noise in the calibration verdict."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from costlib import words
from costlib.calibration import ece_by_chance, expected_calibration_error

MINUS = "\u2212"


def test_a_cheaper_rule_is_cheaper_by_a_positive_amount_with_a_positive_interval():
    rec = SimpleNamespace(cheaper_by_chance=[("best single cutoff", -0.086, -0.116, -0.054)], judged_on="test")
    (aside,) = words._asides(rec, "$")
    assert "$0.086 per case cheaper" in aside
    assert "how much cheaper $0.054 to $0.116" in aside  # not "-$0.116 to -$0.054" beside "$0.086 cheaper"
    assert MINUS not in aside and "-$" not in aside
    assert "within the noise" not in aside  # the interval excludes zero


def test_an_interval_that_includes_zero_is_called_noise():
    rec = SimpleNamespace(cheaper_by_chance=[("best cutoff per group", -0.01, -0.03, 0.02)], judged_on="test")
    (aside,) = words._asides(rec, "$")
    assert f"{MINUS}$0.020 to $0.030" in aside and "within the noise" in aside


def test_a_calibrated_model_is_rarely_called_miscalibrated():
    rng = np.random.default_rng(0)
    warned = plain_rule = 0
    runs = 200
    for _ in range(runs):
        p = rng.random(300)
        y = (rng.random(300) < p).astype(int)
        ece = expected_calibration_error(y, p, n_bins=10)
        chance = ece_by_chance(p, n_bins=10)
        v = words.calibration_verdict("m", 1.0, "validation", ece, ece, ece_chance=chance)
        warned += v.kind == "warning"
        plain_rule += ece > 0.05  # what the verdict used to say: most calibrated samples of 300 rows
    assert warned / runs < 0.1
    assert plain_rule / runs > 0.5


def test_a_miscalibrated_model_is_still_called_so():
    rng = np.random.default_rng(1)
    p = rng.random(2000)
    y = (rng.random(2000) < np.clip(p - 0.15, 0, 1)).astype(int)  # too high everywhere
    ece, chance = expected_calibration_error(y, p), ece_by_chance(p)
    v = words.calibration_verdict("m", 1.0, "validation", ece, ece, ece_chance=chance)
    assert ece > chance and v.kind == "warning" and "not calibrated" in v.headline
    assert f"up to {chance:.3f} by chance" in v.headline
