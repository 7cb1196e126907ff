"""A rule whose shipped cutoffs flag nobody, judged without a split, is read on cross-fitted counts:
each fold's cutoff, fitted on the other folds, may flag a few cases. Those counts are drawn, not
decided, so its rates keep their intervals and it is not recorded as the choice without a model
(`disparity._no_model_rule`): before, "1.1% (1.1% to 1.1%)" beside `no_model: true`."""

from __future__ import annotations

import warnings

import numpy as np

from costlib.binary import decision as D
from costlib.binary.disparity import rule_counts, rule_disparities
from costlib.core import rules as R


def _no_signal(seed: int):
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.2).astype(int)
    s = np.round(rng.random(300), 2)
    g = np.where(rng.random(300) < 0.5, "A", "B")
    ms = D.sweep_model(y, s, g, name="s")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ms, D.recommend(ms, (1.0, 1.0), n_resamples=20)


def _rates(d):
    return d.table[d.table["metric"] == "flagged rate"]


def test_cross_fitted_counts_of_a_flag_nobody_cutoff_keep_their_intervals():
    ms, rec = _no_signal(1)
    assert all(np.isinf(t) for t in dict(rec.results.cutoffs[R.SINGLE]).values())  # ships: flag nobody
    tp, fp, _, _, _ = rule_counts(ms, rec.results, R.SINGLE)
    assert np.add(tp, fp).max() > 0  # but its folds' cutoffs flagged a few
    d = rule_disparities(ms, rec.results, R.SINGLE, rec.prices)
    rates = _rates(d)
    assert not d.no_model and d.record(R.SINGLE)["no_model"] is False
    a = rates[rates["group"] == "A"].iloc[0]
    assert a["value"] > 0 and a["value_low"] < a["value"] < a["value_high"]  # drawn: an interval of width


def test_counts_that_flag_nobody_by_the_cutoffs_are_exact():
    ms, rec = _no_signal(0)
    tp, fp, _, _, _ = rule_counts(ms, rec.results, R.SINGLE)
    assert np.add(tp, fp).max() == 0 and all(np.isinf(t) for t in dict(rec.results.cutoffs[R.SINGLE]).values())
    d = rule_disparities(ms, rec.results, R.SINGLE, rec.prices)
    assert d.no_model and (_rates(d)["value_high"] == 0).all()


def test_a_group_without_judged_rows_does_not_keep_a_no_model_rule_from_being_one():
    """A last read: a group whose judged sweep is empty has no counts (NaN), which equal nothing, so
    a flag-nobody rule lost its exact rates and its caption, though `all_or_none` ignores such a group."""
    from types import SimpleNamespace as NS

    from costlib.binary.disparity import _no_model_rule

    ms = NS(
        groups=["A", "B"],
        fit={"A": NS(lowest_score=0.1), "B": NS(lowest_score=0.2)},
        judge={"A": NS(lowest_score=0.1), "B": NS(lowest_score=None)},
    )
    nobody = NS(cutoffs={"r": {"A": np.inf, "B": np.inf}})
    assert _no_model_rule(ms, nobody, "r", [0.0, np.nan], [40.0, np.nan])
    assert not _no_model_rule(ms, nobody, "r", [2.0, np.nan], [40.0, np.nan])  # the folds flagged a few
