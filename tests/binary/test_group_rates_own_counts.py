"""The rates per group (`fairness.group_rates`: the Costs page's "Rates per group", the report's
and its download) hold each group's rates at least as wide as its own counts allow, as the
disparities' do (`disparity_counts.own_intervals`, `held`): a group of 8 cases with no false
positive among its 5 negatives resampled to none every time, and the table read "0.0%" and
"100.0%" without an interval beside a fairness reviewer's "a guess"; none of 5 allows up to 52.2%."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.binary.disparity import rule_counts
from costlib.binary.disparity_counts import share_bounds
from costlib.binary.fairness import GROUP_RATES, group_rates
from costlib.present.tables import group_rates_numbers, group_rates_table


def _sweeps(split: bool):
    """1,500 cases in two groups and "tiny", 8 cases (3 positives scored 0.9, 5 negatives 0.05)."""
    rng = np.random.default_rng(1)
    g = np.concatenate([np.repeat("a", 900), np.repeat("b", 600), np.repeat("tiny", 8)])
    y = rng.random(g.size) < 0.3
    y[g == "tiny"] = np.arange(8) < 3
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1), 3)
    s[g == "tiny"] = np.where(y[g == "tiny"], 0.9, 0.05)
    rows = {}
    if split:
        fit = np.random.default_rng(5).random(g.size) < 0.5
        rows = {"fit": fit, "judge": ~fit}
    return D.sweep_model(y, s, g, name="score", **rows)


@pytest.mark.parametrize("split", [False, True])
def test_each_groups_rates_hold_its_own_exact_interval(split):
    ms = _sweeps(split)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = D.recommend(ms, (1.0, 3.0), n_resamples=200)
    by_group, gaps = group_rates(ms, rec.results, rec.rule)
    *made, _ = rule_counts(ms, rec.results, rec.rule)  # the counts the rates are of: cross-fitted without a split
    tp, fp, fn, n = (np.asarray(x, dtype=np.float64) for x in made)
    counts = {
        "flagged rate": (tp + fp, n),
        "true positive rate": (tp, tp + fn),
        "false positive rate": (fp, n - tp - fn),
    }
    for rate in GROUP_RATES:
        lo, hi = share_bounds(*counts[rate])
        assert (by_group[f"{rate} low"] <= lo + 1e-12).all() and (by_group[f"{rate} high"] >= hi - 1e-12).all(), rate
        assert (by_group[f"{rate} low"] <= by_group[rate]).all() and (by_group[rate] <= by_group[f"{rate} high"]).all()
    shown = group_rates_table(by_group, gaps, 20).set_index("group")
    tiny = shown.loc["tiny"]
    assert tiny["note"] == "a guess"
    for rate in GROUP_RATES:  # was "0.0%" and "100.0%": certain, on 8 cases
        assert " to " in tiny[rate], (rate, tiny[rate])
    assert tiny["false positive rate"] == ("0.0% (0.0% to 60.2%)" if split else "0.0% (0.0% to 52.2%)")
    numbers = group_rates_numbers(by_group, gaps).set_index("group")  # the download: the same bounds
    assert (
        numbers.loc["tiny", "false positive rate high"]
        == by_group.set_index("group").loc["tiny", "false positive rate high"]
    )


@pytest.mark.parametrize("split", [False, True])
def test_the_largest_gap_holds_what_the_groups_intervals_allow(split):
    """A last read: beside "tiny"'s "0.0% (0.0% to 60.2%)" the same table's largest gap read "19.4% (15.4%
    to 24.0%)": a gap of at least 15% resting on none of 4 negatives. The gap now reaches at least from the
    highest low less the lowest high to the highest high less the lowest low."""
    ms = _sweeps(split)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = D.recommend(ms, (1.0, 3.0), n_resamples=200)
    by_group, gaps = group_rates(ms, rec.results, rec.rule)
    for row in gaps.itertuples():
        lo, hi = by_group[f"{row.rate} low"], by_group[f"{row.rate} high"]
        assert row.low <= max(0.0, lo.max() - hi.min()) + 1e-12, (row.rate, row.low)
        assert row.high >= hi.max() - lo.min() - 1e-12, (row.rate, row.high)
        assert row.low <= row.gap <= row.high
