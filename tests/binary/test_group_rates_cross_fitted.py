"""Without a split, the rates per group of the recommended rule are read where its costs and its
disparities are: cross-fitted (`fairness.group_rates` through `disparity.rule_counts`), so that the
rules table, the rates per group and the disparities say the same flagged share of each group."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from costlib.binary import decision as D
from costlib.binary.disparity import shipped_disparities
from costlib.binary.fairness import group_rates

SAMPLE = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"


def _flagged(table, rule):
    rows = table[table["rule"] == rule].set_index("group")
    return rows["flagged_rate"]


def test_rates_per_group_are_the_costs_and_the_disparities_rates():
    """By sex without a split, a false negative dearer for women: the one cutoff fitted on all rows
    flags everybody, but each row is judged by a cutoff fitted without it, and those flag fewer
    than all (the rules table says so). The rates per group say the same as the rules table and the
    disparities, not the 100% of the cutoff fitted on all rows; with a split, both are the cutoff's
    own rates on the test rows."""
    df = pd.read_csv(SAMPLE)
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["sex"], name="p_recid")
    rec = D.recommend(ms, {"Male": (1.0, 3.0), "Female": (1.0, 7.5)}, n_resamples=200)
    by_group, _ = group_rates(ms, rec.results, rec.rule)
    rates = by_group.set_index("group")["flagged rate"]
    costs = _flagged(rec.results.by_group, rec.rule)
    assert (rates < 1.0).any()  # not the cutoff fitted on all rows, which flags everybody
    np.testing.assert_allclose(rates[costs.index], costs, rtol=1e-12)
    d = shipped_disparities(ms, rec)
    shown = d.table[d.table["metric"] == "flagged rate"].set_index("group")["value"]
    np.testing.assert_allclose(rates[shown.index], shown, rtol=1e-12)
    lo, hi = by_group.set_index("group")["flagged rate low"], by_group.set_index("group")["flagged rate high"]
    assert ((lo <= rates + 1e-12) & (rates <= hi + 1e-12)).all()  # the interval is about the estimate


def test_with_a_split_the_rates_are_the_cutoffs_own_on_the_test_rows():
    df = pd.read_csv(SAMPLE)
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge, name="p_recid")
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=200)
    by_group, _ = group_rates(ms, rec.results, rec.rule)
    for g, rate in zip(by_group["group"], by_group["flagged rate"], strict=True):
        sw = ms.judge[g]
        j = sw.index_at(float(rec.results.cutoffs[rec.rule][g]))
        assert rate == float((sw.tp[j] + sw.fp[j]) / sw.total)
