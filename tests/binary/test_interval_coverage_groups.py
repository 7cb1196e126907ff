"""Issue 43, the intervals besides the saving's: each group's cost per case under the recommended
rule must cover its truth (the cutoffs as shipped, on the population: `costlib.binary.simulation`'s
formula) about 95% of the time with about the ideal width, and per-group cutoffs must never be
recommended when the groups do not differ. Seeded and sized for CI; `benchmarks/honest.py
--groups-simulate` runs the designs larger (`benchmarks/README.md`, "Honest estimates").

The judging code is the benchmark's (`judge_groups`, `interval_figures`): one home for the
simulation of groups that differ in base rate.
"""

from __future__ import annotations

import numpy as np


def test_group_cost_intervals_cover_their_truth_at_about_the_ideal_width(honest_bench):
    """40 data sets of 2,000 rows, AUC 0.70, two unequal groups (70/30) whose base rates differ
    (0.15 and 0.45), prices 1:3: each group's interval covers the true cost of its shipped cutoff
    in 85% or more of the data sets, and its mean width is 0.8 to 1.5 times the ideal (3.92 x
    the standard deviation of that group's estimate's error). Here (400 resamples) 0.90 and 0.925
    coverage, 1.00 and 0.95 times the ideal; with 100 data sets and 1,000 resamples 0.95 in both
    groups, 1.20 and 1.02 times (`benchmarks/README.md`). The same intervals half as wide cover
    0.75 and 0.70 at 0.50 and 0.47 times the ideal; twice as wide, 2.0 and 1.9 times."""
    r = honest_bench.judge_groups(2000, 0.70, (0.15, 0.45), (0.7, 0.3), range(40), n_resamples=400)
    for i in range(2):
        fig = honest_bench.interval_figures(*zip(*(sets[i] for sets in r["group_cost"]), strict=True))
        assert fig["n"] == 40
        assert fig["coverage"] >= 0.85, (i, fig)
        assert 0.8 <= fig["width_over_ideal"] <= 1.5, (i, fig)
    assert np.mean(r["ship"]) == 1.0


def test_per_group_cutoffs_never_pay_when_the_groups_do_not_differ(honest_bench):
    """40 data sets whose groups share one base rate and one signal (so the single cutoff is the
    truly best one and per-group cutoffs can only cost more): no signal and AUC 0.70, 300 and
    2,000 rows, two to four unequal groups, prices 1:3. Per-group cutoffs are never recommended,
    and the extra saving's interval covers its (negative) truth."""
    designs = (
        (2000, 0.5, (0.25, 0.25), (0.7, 0.3)),
        (300, 0.5, (0.25, 0.25, 0.25), (0.5, 0.3, 0.2)),
        (2000, 0.70, (0.3, 0.3, 0.3, 0.3), (0.4, 0.3, 0.2, 0.1)),
        (300, 0.70, (0.3, 0.3), (0.7, 0.3)),
    )
    per_group = covered = judged = 0
    for k, (n, auc, rates, shares) in enumerate(designs):
        seeds = range(100 * k, 100 * k + 10)
        r = honest_bench.judge_groups(n, auc, rates, shares, seeds, n_resamples=200)
        per_group += sum(r["per_group"])
        covered += sum(lo <= truth <= hi for _, lo, hi, truth in r["gain"])
        judged += len(r["gain"])
    assert per_group == 0
    assert judged >= 35 and covered >= 0.9 * judged


def test_within_limit_saving_covers_its_truth_at_about_the_ideal_width(honest_bench):
    """40 data sets of 2,000 rows, AUC 0.96, base rate 0.3, prices 1:3, at most 20% of the cases
    flagged (the limit binds: the best cutoff flags about 30%), so the no-model choice is flagging
    20% at random: the saving's interval (the fold-aware standard error against that baseline,
    each row's expected cost) covers the true saving of the cutoff shipped in 85% or more and is
    0.8 to 1.5 times the ideal width. The bootstrap of the cross-fitted estimate it replaces was
    0.53 times the ideal and covered 71% (100 data sets, `benchmarks/README.md`)."""
    r = honest_bench.judge_capacity(2000, 0.96, 0.3, 0.2, range(40), n_resamples=200)
    est, low, high, truth, ships = zip(*r, strict=True)
    fig = honest_bench.interval_figures(est, low, high, truth)
    assert fig["n"] == 40
    assert fig["coverage"] >= 0.85, fig
    assert 0.8 <= fig["width_over_ideal"] <= 1.5, fig
    assert all(ships)
