"""Issue 43: the honest verdict on simulated data with a known truth (`costlib.binary.simulation`),
seeded and sized for CI; `benchmarks/honest.py --simulate` runs the full grid.

No signal must still never ship (nor per-group cutoffs); a model that pays must ship as often
as the plain cross-fitted Wald interval ships it; the saving's interval must be about the
cross-fitted estimate (the mean of ten deals into folds, with its fold-aware standard error) and
cover its truth 93 to 97% of the time at 2,000 rows."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from costlib.binary.simulation import Design, judge_design, summarize

PRICES = ((1.0, 1.0), (1.0, 3.0), (1.0, 10.0))
SHARES = ((0.7, 0.3), (0.5, 0.3, 0.2), (0.4, 0.3, 0.15, 0.1, 0.05), (0.55, 0.25, 0.12, 0.08))
RATES = (
    0.5,
    0.25,
    0.1,
    0.3,
    1 / 11,
)  # 0.5 at 1:1, 0.25 at 1:3 and 1/11 at 1:10: flagging anyone costs what the baseline does


def test_no_signal_never_ships_and_never_gets_per_group_cutoffs():
    """40 data sets without signal across rows (300 and 2,000), base rates (the hardest among
    them), 2 to 5 unequal groups and prices 1:1, 1:3, 1:10: at most one ship, no per-group cutoffs."""
    designs = itertools.cycle(
        Design(n, 0.5, rate, c_fp, c_fn, shares)
        for n, (c_fp, c_fn), rate, shares in zip(
            itertools.cycle((300, 2000)),
            itertools.cycle(PRICES),
            itertools.cycle(RATES),
            itertools.cycle(SHARES),
        )
    )
    rows = [judge_design(next(designs), [seed], wald=False)[0] for seed in range(40)]
    ships = sum(r["ship"] for r in rows)
    assert ships <= 1, ships
    assert not any(r["per_group"] for r in rows)


def test_the_saving_interval_is_about_the_cross_fitted_saving():
    """The interval is about the estimate: the estimate sits in its middle. Out-of-bag refits
    see about 63% of the rows, so an interval of their savings sat below the estimate (issue
    43's example: 0.23 in [-0.021, 0.324])."""
    for design in (Design(300, 0.7, 0.3, 1.0, 3.0), Design(2000, 0.7, 0.3, 1.0, 1.0)):
        for r in judge_design(design, range(6), n_resamples=500, wald=False):
            width = r["high"] - r["low"]
            assert abs((r["low"] + r["high"]) / 2 - r["saving"]) <= 0.1 * width, r


@pytest.mark.parametrize(
    ("design", "slack"),
    [
        (Design(300, 0.96, 0.3, 1.0, 10.0), 0),
        (Design(2000, 0.7, 0.3, 1.0, 1.0), 0),
        (Design(300, 0.7, 0.3, 1.0, 3.0), 1),
    ],
)
def test_a_model_that_pays_ships_as_often_as_the_wald_interval_ships_it(design, slack):
    """40 data sets a design (a subset of the benchmark's grid sized for CI). AUC 0.96 at 1:10
    with 300 rows and AUC 0.70 at 1:1 with 2,000 rows (true best saving 0.020 a case): the
    honest verdict ships at least as often as the plain 5-fold cross-fitted Wald interval
    (issue 43's target; 27 of 40 each here, where the bootstrap of the cross-fitted estimate
    shipped 49 of 100 in the benchmark against Wald's 63). AUC 0.70 at 1:3 with 300 rows
    (issue 43's example, true best saving 0.144): within one data set of it (23 against 24 here;
    55 against 56 of 100 in the benchmark, where an interval of the ideal width about our
    estimate ships 53). Not met (`benchmarks/README.md`): AUC 0.70 at 1:1 and 1:10 with 300 rows
    and at 1:10 with 2,000, true savings of 0.010 to 0.020 a case, where Wald ships one to five
    data sets in 100 more while covering 92 to 95%."""
    rows = judge_design(design, range(40))
    ships, wald = sum(r["ship"] for r in rows), sum(r["wald_ship"] for r in rows)
    assert ships >= wald - slack, (design, ships, wald)


def test_the_saving_interval_covers_the_truth_at_about_its_width():
    """n = 2,000, AUC 0.70, 1:3 (true best saving 0.144 a case), 60 data sets: the interval
    covers the shipped cutoff's true saving 93 to 97% of the time with a width at most 1.2
    times the ideal (3.92 x the SD of the estimate's error across the data sets): issue 43's
    target. Measured here: 56 of 60 (93.3%) at 1.0 times the ideal; the bootstrap of the
    cross-fitted estimate covered 98.3% at 1.11 times (above the target's 97%)."""
    s = summarize(judge_design(Design(2000, 0.7, 0.3, 1.0, 3.0), range(60), n_resamples=500, wald=False))
    assert 0.93 <= s["coverage"] <= 0.97, s
    assert np.isfinite(s["width_over_ideal"]) and s["width_over_ideal"] <= 1.2, s


@pytest.mark.parametrize(
    ("design", "seed"),
    [
        (Design(2000, 0.5, 0.1, 1.0, 1.0, (0.4, 0.3, 0.15, 0.1, 0.05)), 87),
        (Design(20_000, 0.5, 0.5, 1.0, 3.0, (0.5, 0.3, 0.2)), 0),
    ],
)
def test_an_interval_the_cells_cannot_move_still_spans_the_rows_noise(design, seed):
    """No signal: some folds' cutoffs flag a handful of rows and the cross-fitted saving is a
    few rows' luck (0.0005 and 0.00005 a case); the bootstrap's refits pick among cell edges and
    never flag so few, so its interval collapsed onto the estimate and the model shipped (at
    20,000 rows 5 of 160 data sets in the benchmark). The saving's interval is the fold-aware
    one (the estimate +- 1.96 `row_se`), which no cell bounds."""
    from costlib.binary import decision as D
    from costlib.binary import honest as H

    y, s, g = design.draw(seed)
    rec = D.recommend(D.sweep_model(y, s, g, probabilities=False), (1.0, design.c_fn), n_resamples=1000, seed=seed)
    se = rec.results.row_se[rec.rule]
    assert se > 0 and rec.saving > 0
    assert rec.saving_low <= rec.saving - H.Z95 * se and rec.saving_high >= rec.saving + H.Z95 * se
    assert not rec.ship_model
