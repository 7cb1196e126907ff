"""Fairness rules judged where they were not fitted (issue 41, item 1): the gap's interval
covers the rule's gap on new cases, the no-split path never judges a row by cutoffs fitted on
it, a rule is offered only when the interval's upper end is within the tolerance, and the
tighter fitting tolerance is chosen without the judged rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costlib.binary import fair_judged as FJ
from costlib.binary import fair_tightened as FT
from costlib.binary import honest as H
from costlib.binary.decision import sweep_model
from costlib.binary.fairness import fair_cutoffs, fairness_results
from costlib.binary.folds import FOLDS, make_folds
from costlib.core.prices import prices_for
from costlib.core.sweep import grouped_sweep

SHIFT = np.array([-1.0, -0.3, 0.3, 1.0])


def simulate(n: int, rng: np.random.Generator):
    """Four groups with different base rates; scores rounded to 0.001 (ties, as real scores)."""
    g = rng.integers(0, 4, n)
    x = rng.normal(size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(1.2 * x + SHIFT[g])))).astype(int)
    s = np.round(1 / (1 + np.exp(-(1.2 * x + SHIFT[g] + rng.normal(scale=0.3, size=n)))), 3)
    return y, s, np.array([f"g{i}" for i in g])


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_the_gap_interval_covers_the_gap_on_new_cases_with_a_split():
    """Out-of-sample coverage: over 30 simulated data sets (fitted on 60%, judged on 40%), the
    95% interval of the judged gap holds the fitted rule's gap on 200,000 new cases in at least
    26 (a true 95% misses more than 4 of 30 about 6% of the time; the point gap on the fitting
    rows, today's only answer, is below it in most)."""
    pop = grouped_sweep(*simulate(200_000, np.random.default_rng(99)))
    covered = upper = fit_below = 0
    reps = 30
    for r in range(reps):
        rng = np.random.default_rng(r)
        y, s, g = simulate(2000, rng)
        split = rng.random(y.size) < 0.6
        ms = sweep_model(y, s, g, fit=split, judge=~split)
        j = FJ.judge_rule(ms, prices_for(ms.groups, (1, 3)), "demographic parity", 0.05, n_resamples=100, seed=r)
        tp, fp = FJ.counts_at(pop, j.cutoffs)
        true = float(FJ.gap_of(tp, fp, pop.positives, pop.negatives, "demographic parity"))
        covered += j.gap_low <= true <= j.gap_high
        upper += true <= j.gap_high
        fit_tp, fit_fp = FJ.counts_at(ms.fit, j.cutoffs)
        fit_below += float(FJ.gap_of(fit_tp, fit_fp, ms.fit.positives, ms.fit.negatives, "demographic parity")) < true
    assert covered >= 26 and upper >= 28, (covered, upper)
    assert fit_below >= reps // 2  # the fitting rows' gap flatters the rule


def test_without_a_split_each_fold_is_judged_by_cutoffs_fitted_on_the_other_folds():
    rng = np.random.default_rng(5)
    y, s, g = simulate(1500, rng)
    ms = sweep_model(y, s, g)
    prices = prices_for(ms.groups, (1, 3))
    j = FJ.judge_rule(ms, prices, "equal opportunity", 0.05, n_resamples=0, seed=0)
    assert j.estimate == H.CROSS_FITTED
    # by hand: honest's folds for seed 0, each fitted without its rows and judged on them
    index = np.stack([ms.fit[grp].index_at(ms.fit_pooled.thresholds) for grp in ms.groups])
    folds = make_folds(ms.fit, ms.fit_pooled, index, seed=0)
    tp = np.zeros(len(ms.groups))
    for f in range(FOLDS):
        outside = FJ._outside(ms.fit, folds, f)
        fit = fair_cutoffs(outside, prices, criterion="equal opportunity", tolerance=0.05)
        cut = np.array([fit.thresholds[grp] for grp in ms.groups])
        tp += FJ.counts_at(FJ._inside(ms.fit, folds, f), cut)[0]
    np.testing.assert_array_equal(j.tp, tp)
    in_sample = FJ.counts_at(ms.fit, j.cutoffs)[0]
    assert not np.array_equal(j.tp, in_sample)  # not the rows the shipped cutoffs were fitted on


def test_fairness_results_without_a_split_report_cross_fitted_gaps_and_costs():
    rng = np.random.default_rng(6)
    y, s, g = simulate(1500, rng)
    ms = sweep_model(y, s, g)
    prices = prices_for(ms.groups, (1, 3))
    fr = fairness_results(ms, prices, criteria=["demographic parity"], tolerance=0.05, n_resamples=50)
    row = fr.summary.set_index("rule").loc["fair: demographic parity"]
    j = fr.judged["fair: demographic parity"]
    assert row["estimate"] == H.CROSS_FITTED
    assert row["spread_test"] == pytest.approx(j.gap)
    # the rule's cost is the cross-fitted one, not that of its cutoffs on the rows they were fitted on
    assert fr.results.overall.loc["fair: demographic parity", "cost_per_case"] == pytest.approx(j.cost(prices))
    assert row["spread_test"] != pytest.approx(row["spread_train"])


def test_a_rule_is_offered_only_when_the_upper_end_of_the_gap_is_within_the_tolerance():
    rng = np.random.default_rng(7)
    y, s, g = simulate(3000, rng)
    split = rng.random(y.size) < 0.6
    ms = sweep_model(y, s, g, fit=split, judge=~split)
    crit = ["demographic parity", "equal opportunity", "equal false positive rate"]
    fr = fairness_results(ms, prices_for(ms.groups, (1, 3)), criteria=crit, tolerance=0.05, n_resamples=100)
    s_ = fr.summary
    np.testing.assert_array_equal(s_["within_tolerance_on_test"], s_["spread_test_high"] <= 0.05 + 1e-12)
    missed = s_[~s_["within_tolerance_on_test"]]
    assert len(missed)  # at the stated tolerance, these rules miss it out of sample
    np.testing.assert_allclose(missed["may_miss_by"], missed["spread_test_high"] - 0.05)
    # and where one misses, a rule fitted tighter on the fitting rows alone is offered beside it
    tight = s_[s_["fit_tolerance"] < 0.05]
    assert len(tight) and set(tight["criterion"]) <= set(missed["criterion"])
    assert tight["within_tolerance_on_test"].any()


def test_the_tighter_tolerance_never_reads_the_judged_rows_outcomes():
    """Same fitting rows, judged rows of the same sizes with other outcomes and scores: the same
    fitting tolerance and the same cutoffs."""
    rng = np.random.default_rng(8)
    y, s, g = simulate(3000, rng)
    split = rng.random(y.size) < 0.6
    prices = None
    picked = []
    for k in range(2):
        yy, ss = y.copy(), s.copy()
        judged = np.flatnonzero(~split)
        if k:
            ss[judged] = np.round(np.random.default_rng(1).random(judged.size), 3)
        ms = sweep_model(yy, ss, g, fit=split, judge=~split)
        prices = prices or prices_for(ms.groups, (1, 3))
        h = FT.holding_rule(ms, prices, "demographic parity", 0.05, n_resamples=0)
        picked.append((h.fit_tolerance, tuple(h.cutoffs)))
    assert picked[0] == picked[1]


def test_the_table_says_by_how_much_a_rule_may_miss_and_which_tighter_rule_holds():
    import pandas as pd

    from costlib.present.tables import FAIR_NO_INTERVAL, within_cells

    summary = pd.DataFrame(
        {
            "rule": ["fair: demographic parity", "fair: demographic parity (fitted within 1%)", "fair: accuracy x"],
            "tolerance": [0.05, 0.05, 0.05],
            "feasible": [True, True, True],
            "spread_test": [0.04, 0.01, 0.03],
            "spread_test_high": [0.132, 0.045, np.nan],
            "within_tolerance_on_test": [False, True, False],
            "may_miss_by": [0.082, 0.0, np.nan],
            "fit_tolerance": [0.05, 0.01, 0.05],
        }
    )
    # the first: its point gap (4%) is within 5%, today's "yes"; its upper end (13.2%) is not
    # "no" says how large the gap may be (the interval's upper end, as the gap column's "to"), not the
    # points above 5%, which read as the gap itself (review57, item 10)
    assert within_cells(summary) == ["no: may reach 13.2%", "yes", FAIR_NO_INTERVAL]
    note = FJ.holding_note(summary)
    assert "fair: demographic parity may miss it" in note.replace(" and fair: accuracy x", "")
    assert "fair: demographic parity (fitted within 1%) stays within it" in note
    assert FJ.holding_note(summary.iloc[[1]]) == ""


def test_randomised_cutoffs_are_offered_where_they_meet_the_tolerance_for_less():
    """20,000 rows: demographic parity at 5% misses out of sample; fitted tighter (0.5%) it holds;
    randomised, fitted within 1.5% on the fitting rows alone, it holds for less."""
    rng = np.random.default_rng(100)
    y, s, g = simulate(20_000, rng)
    split = rng.random(y.size) < 0.6
    ms = sweep_model(y, s, g, fit=split, judge=~split)
    prices = prices_for(ms.groups, (1, 3))
    fr = fairness_results(ms, prices, criteria=["demographic parity"], tolerance=0.05, n_resamples=100)
    s_ = fr.summary.set_index("rule")
    rand = s_[s_["randomised"]]
    assert len(rand) == 1
    rule = rand.index[0]
    assert rule.startswith("fair: demographic parity (randomised")
    assert rand["within_tolerance_on_test"].iloc[0]
    others = s_[~s_["randomised"] & s_["within_tolerance_on_test"]]
    assert len(others) and (rand["cost_per_case_test"].iloc[0] < others["cost_per_case_test"]).all()
    # judged by its expected counts on the judged rows: each group's band flagged at its probability
    j = fr.judged[rule]
    high, low, p = j.cutoffs
    long = fr.fairness[fr.fairness["rule"] == rule].set_index("group")
    for i, grp in enumerate(ms.groups):
        sw = ms.judge[grp]
        flagged = (1 - p[i]) * sw.flagged[sw.index_at(high[i])] + p[i] * sw.flagged[sw.index_at(low[i])]
        assert long.loc[grp, "rate_test"] == pytest.approx(flagged / sw.total)
        assert long.loc[grp, "low"] == low[i] and long.loc[grp, "p"] == p[i]
    assert rule not in fr.results.overall.index  # no deterministic cutoffs: not a rule `recommend` judges


def test_the_gap_interval_covers_the_gap_on_new_cases_without_a_split():
    """Cross-fitted (no split), 20 data sets of 1,500 rows: the interval (refits judged on the
    rows their resample left out) holds the shipped rule's gap on 200,000 new cases in at least
    18 (at 95%, missing more than 2 of 20 happens about 8% of the time; in simulation it covered
    60 of 60)."""
    pop = grouped_sweep(*simulate(200_000, np.random.default_rng(98)))
    covered = 0
    for r in range(20):
        y, s, g = simulate(1500, np.random.default_rng(1000 + r))
        ms = sweep_model(y, s, g)
        j = FJ.judge_rule(ms, prices_for(ms.groups, (1, 3)), "equal opportunity", 0.05, n_resamples=100, seed=r)
        assert j.estimate == H.CROSS_FITTED
        tp, fp = FJ.counts_at(pop, j.cutoffs)
        true = float(FJ.gap_of(tp, fp, pop.positives, pop.negatives, "equal opportunity"))
        covered += j.gap_low <= true <= j.gap_high
    assert covered >= 18, covered
