"""Without a split the shipped cutoff is fitted on the rows it is judged on: its disparities are
then read, as its costs are, by cross-fitting (each row judged by a cutoff fitted without it), so
a reviewer defends them out of sample (issue 41)."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.binary.disparity import rule_disparities, shipped_disparities
from costlib.core import rules as R


@pytest.fixture(scope="module")
def no_split():
    rng = np.random.default_rng(11)
    n = 3000
    g = rng.choice(["a", "b"], n, p=[0.6, 0.4])
    y = rng.random(n) < np.where(g == "a", 0.3, 0.45)
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.18), 0, 1), 3)
    ms = D.sweep_model(y, s, g)
    return ms, D.recommend(ms, (1.0, 3.0), n_resamples=200)


def test_a_fitted_rule_is_read_by_cross_fitting_without_a_split(no_split):
    ms, rec = no_split
    assert rec.results.estimate == H.CROSS_FITTED
    for rule in (R.SINGLE, R.COST_OPTIMAL):
        d = rule_disparities(ms, rec.results, rule, rec.prices)
        rows = rec.results.by_group[rec.results.by_group["rule"] == rule].set_index("group")
        got = d.table[d.table["metric"] == "false positive rate"].set_index("group")["value"]
        negatives = {g: float(ms.judge[g].negatives) for g in ms.groups}
        for g in ms.groups:  # the cross-fitted false positives, not those of the cutoff on the rows it was fitted on
            assert got[g] == pytest.approx(rows.loc[g, "fp"] / negatives[g])


def test_a_fixed_rule_and_a_split_read_the_judged_sweep_as_before(no_split):
    ms, rec = no_split
    d = rule_disparities(ms, rec.results, R.THRESHOLD_05, rec.prices)
    got = d.table[d.table["metric"] == "flagged rate"].set_index("group")["value"]
    for g in ms.groups:
        sw = ms.judge[g]
        assert got[g] == pytest.approx(sw.flagged[sw.index_at(0.5)] / sw.total)
    assert shipped_disparities(ms, rec) is not None
