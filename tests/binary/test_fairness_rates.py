"""Per-group rates with intervals: against the rows, and the gap's interval checked for coverage."""

from __future__ import annotations

import numpy as np

from costlib.binary import decision as D
from costlib.binary import fairness as F
from costlib.core import rules as R
from costlib.present.tables import group_rates_table, small_group_note


def _data(rng, n=1500):
    g = rng.choice(["a", "b", "tiny"], n, p=[0.6, 0.395, 0.005])
    y = rng.random(n) < np.where(g == "a", 0.3, 0.5)
    s = np.clip(0.4 * y + rng.random(n) * 0.6, 0, 1).round(2)
    return y.astype(int), s, g


def test_group_rates_are_the_rows_rates_and_small_groups_are_marked():
    rng = np.random.default_rng(0)
    y, s, g = _data(rng)
    fit = rng.random(y.size) < 0.5
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    rec = D.recommend(ms, (1, 2), n_resamples=500)
    by_group, gaps = F.group_rates(ms, rec.results, rec.rule)
    for row in by_group.to_dict("records"):
        sel = (g == row["group"]) & ~fit
        flagged = s[sel] >= rec.cutoffs[row["group"]]
        assert row["flagged rate"] == flagged.mean()
        assert row["true positive rate"] == flagged[y[sel] == 1].mean()
        assert row["false positive rate"] == flagged[y[sel] == 0].mean()
        for rate in F.GROUP_RATES:
            assert row[f"{rate} low"] <= row[rate] <= row[f"{rate} high"]
        assert row["small"] == (row["group"] == "tiny")
    flagged = by_group["flagged rate"]
    assert gaps.set_index("rate").loc["flagged rate", "gap"] == flagged.max() - flagged.min()
    view = group_rates_table(by_group, gaps, 20)
    assert view["note"].iloc[list(by_group["group"]).index("tiny")] == small_group_note()
    assert view["group"].iloc[-1] == "largest gap between groups" and " to " in view["flagged rate"].iloc[-1]


def test_the_gap_interval_covers_the_true_gap():
    """Two groups with known flagged rates at a fixed cutoff: the 95% interval of the gap covers it."""
    covered, runs = 0, 40
    for seed in range(runs):
        rng = np.random.default_rng(seed)
        n = 800
        g = rng.choice(["a", "b"], n)
        s = rng.random(n) * np.where(g == "a", 1.0, 0.8)  # P(s >= 0.5): 0.5 in a, 0.375 in b
        y = (rng.random(n) < 0.5).astype(int)
        ms = D.sweep_model(y, s, g)
        cut = {R.NOBODY: np.full(2, np.inf), R.EVERYONE: np.full(2, -np.inf), "fixed": np.full(2, 0.5)}
        res = D.evaluate_rules(ms, D.prices_for(ms.groups, (1, 1)), cut, n_resamples=1000, seed=seed)
        _, gaps = F.group_rates(ms, res, "fixed")
        row = gaps.set_index("rate").loc["flagged rate"]
        covered += row["low"] <= 0.125 <= row["high"]
    assert covered >= 0.875 * runs, covered
