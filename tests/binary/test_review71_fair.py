"""Review 71, items 4 and 5: the fairness note names what fails, and a rule that flags everyone
(or nobody) has rates known exactly, said so in the disparities' caption."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.binary import fair_judged as FJ
from costlib.binary.disparity import disparities
from costlib.binary.disparity_counts import all_or_none, own_intervals
from costlib.present.disparity_table import disparity_caption


def test_the_note_names_the_criterion_that_fails_not_every_rule():
    # equal accuracy misses at 5% and its tighter fit misses too; equal opportunity holds ("yes")
    summary = pd.DataFrame(
        {
            "rule": ["fair: equal opportunity", "fair: equal accuracy", "fair: equal accuracy (fitted within 1.5%)"],
            "criterion": ["equal opportunity", "equal accuracy", "equal accuracy"],
            "tolerance": [0.05] * 3,
            "feasible": [True] * 3,
            "within_tolerance_on_test": [True, False, False],
            "fit_tolerance": [0.05, 0.05, 0.015],
            FJ.TRIVIALLY_EQUAL_COLUMN: ["everyone", "", ""],
        }
    )
    note = FJ.holding_note(summary)
    assert "none of these rules" not in note
    assert note.endswith("no rule for equal accuracy can be promised to meet it; the rules marked “yes” can.")


def test_a_rule_that_flags_everyone_has_exact_rates_from_its_own_counts():
    # 831 positives and 757 negatives, all flagged: 100% flagged, caught and false alarms, exactly
    tp, fp, fn, n = np.array([831, 411]), np.array([757, 641]), np.array([0, 0]), np.array([1588, 1052])
    assert all_or_none(tp, fp, n)
    own = own_intervals(tp, fp, fn, n, c_fp=[1.0, 1.0], c_fn=[10.0, 10.0])
    for metric in ("flagged rate", "true positive rate", "false positive rate"):
        assert own[metric][0].tolist() == [1.0, 1.0] == own[metric][1].tolist(), metric
    assert own["false negative rate"][1].tolist() == [0.0, 0.0]
    lo, hi = own["cost per case"]  # the cost still rides on the share of positives new cases bring
    assert (hi > lo).all()
    # a model that flags most but not all keeps its counts' interval
    assert not all_or_none([831, 400], [757, 641], [1588, 1052])


def test_the_caption_says_when_the_rule_judged_flags_everyone():
    d = disparities(["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100], c_fp=1, c_fn=10, rule="best single cutoff")
    assert disparity_caption(d).startswith("“best single cutoff” flags everyone here, as the choice without a model")
    nobody = disparities(["A", "B"], [0, 0], [0, 0], [50, 20], [100, 100], c_fp=1, c_fn=10, rule="cutoff 0.5")
    assert disparity_caption(nobody).startswith("“cutoff 0.5” flags nobody here")
    d2 = disparities(["A", "B"], [40, 20], [10, 30], [10, 0], [100, 100], c_fp=1, c_fn=10)
    assert "without a model" not in disparity_caption(d2)
    for r in d.table.to_dict("records"):  # no difference's interval beyond what exact rates allow
        if r["metric"] != "cost per case" and np.isfinite(r["difference_low"]):
            assert r["difference_low"] == r["difference_high"] == 0.0


def test_the_caption_names_the_prices_too_when_they_differ_by_group():
    d = disparities(["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100], c_fp=[1, 2], c_fn=10, rule="flag everyone")
    assert "only because their shares of positives and their prices do." in disparity_caption(d)
