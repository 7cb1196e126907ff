"""Review 71, items 4 and 5: the fairness note names what fails, and a rule that flags everyone
(or nobody) has rates known exactly, said so in the disparities' caption."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.binary import fair_judged as FJ
from costlib.binary.disparity import disparities
from costlib.binary.disparity_counts import own_intervals
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
    own = own_intervals(tp, fp, fn, n, c_fp=[1.0, 1.0], c_fn=[10.0, 10.0], decided=True)  # by the rule's cutoffs
    for metric in ("flagged rate", "true positive rate", "false positive rate"):
        assert own[metric][0].tolist() == [1.0, 1.0] == own[metric][1].tolist(), metric
    assert own["false negative rate"][1].tolist() == [0.0, 0.0]
    lo, hi = own["cost per case"]  # the cost still rides on the share of positives new cases bring
    assert (hi > lo).all()
    # the same counts from a real cutoff (not decided by the rule) keep their counts' interval
    drawn = own_intervals(tp, fp, fn, n)
    assert (drawn["flagged rate"][0] < 1.0).all() and (drawn["false negative rate"][1] > 0.0).all()


def test_the_caption_says_when_the_rule_judged_flags_everyone():
    d = disparities(
        ["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100], c_fp=1, c_fn=10, rule="best single cutoff", decided=True
    )
    assert disparity_caption(d).startswith("“best single cutoff” flags everyone here, as the choice without a model")
    nobody = disparities(
        ["A", "B"], [0, 0], [0, 0], [50, 20], [100, 100], c_fp=1, c_fn=10, rule="cutoff 0.5", decided=True
    )
    assert disparity_caption(nobody).startswith("“cutoff 0.5” flags nobody here")
    # a real cutoff that happens to flag every judged case is not the choice without a model (a last read)
    real = disparities(["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100], c_fp=1, c_fn=10, rule="cutoff 0.1")
    assert "without a model" not in disparity_caption(real)
    d2 = disparities(["A", "B"], [40, 20], [10, 30], [10, 0], [100, 100], c_fp=1, c_fn=10)
    assert "without a model" not in disparity_caption(d2)
    for r in d.table.to_dict("records"):  # no difference's interval beyond what exact rates allow
        if r["metric"] != "cost per case" and np.isfinite(r["difference_low"]):
            assert r["difference_low"] == r["difference_high"] == 0.0


def test_the_caption_names_the_prices_too_when_they_differ_by_group():
    d = disparities(
        ["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100], c_fp=[1, 2], c_fn=10, rule="flag everyone", decided=True
    )
    assert "only because their shares of positives and their prices do." in disparity_caption(d)


def test_flag_everyone_reads_exact_through_the_costs_pages_callers_decided_by_its_cutoffs():
    import warnings

    from costlib.binary import decision as D
    from costlib.binary.disparity import rule_disparities
    from costlib.binary.fairness import group_rates
    from costlib.core import rules as R

    rng = np.random.default_rng(1)
    g = np.repeat(["a", "b"], [300, 200])
    y = rng.random(g.size) < 0.3
    ms = D.sweep_model(y, np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1), 3), g, name="score")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = D.recommend(ms, (1.0, 3.0), n_resamples=100)
    t = rule_disparities(ms, rec.results, R.EVERYONE, rec.prices).table.set_index(["metric", "group"])
    assert t.loc[("flagged rate", "a"), "value_low"] == 1.0 == t.loc[("flagged rate", "a"), "value_high"]
    assert t.loc[("false negative rate", "b"), "value_high"] == 0.0
    by_group, _ = group_rates(ms, rec.results, R.EVERYONE)
    assert (by_group["flagged rate low"] == 1.0).all()
    best = rule_disparities(ms, rec.results, rec.rule, rec.prices).table  # a model's rule: its counts' intervals
    assert (
        best.loc[best["metric"] == "flagged rate", "value_high"]
        > best.loc[best["metric"] == "flagged rate", "value_low"]
    ).all()
