"""Instance costs without a train/test split: the cutoff picked as the cheapest on the rows is
judged by cutoffs picked without each row (`instance.recommend_nec`, `binary.row_crossfit`), so
noise is not shipped and a model that pays is.

Before, the saving was read on the rows that picked the cutoff, with a bootstrap that held the
cutoff fixed: on scores with no signal it shipped 3 to 6 of 40 data sets of 300 rows and 1 to 5
of 40 of 2,000 (base rate 0.45 to 0.5, lognormal costs)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from costlib.core import ship as S
from costlib.instance import recommend_nec


def _data(n, rate, mu, sigma, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rate
    scores = rng.standard_normal(n) + mu * y
    size = rng.lognormal(0.0, sigma, n)
    return scores, np.where(y, size, -size)


def test_scores_without_signal_are_never_shipped():
    ships = []
    for seed in range(40):
        n = (300, 2000)[seed % 2]
        scores, delta = _data(n, 0.5, 0.0, 1.5, seed)
        rec = recommend_nec({"m": scores}, delta, n_resamples=200, seed=seed)
        assert rec.estimate == "cross-fitted"
        ships.append(rec.status == S.SAVES)
    assert sum(ships) <= 1, ships


def test_a_model_that_pays_ships_and_its_interval_covers_the_truth():
    """Binormal scores (positives shifted by 1), base rate 0.3, costs independent of the label:
    a cutoff t truly costs 0.3 Phi(t - 1) + 0.7 (1 - Phi(t)) in NEC. 40 data sets of 2,000 rows."""
    ships = covered = 0
    for seed in range(40):
        scores, delta = _data(2000, 0.3, 1.0, 1.0, 100 + seed)
        rec = recommend_nec({"m": scores}, delta, n_resamples=200, seed=seed)
        t = rec.threshold
        truth = 0.3 - (0.3 * norm.cdf(t - 1.0) + 0.7 * norm.sf(t))  # against flagging nobody
        assert rec.baseline == "flag nobody"
        ships += rec.status == S.SAVES
        covered += rec.saving_low <= truth <= rec.saving_high
    assert ships >= 30 and covered >= 35, (ships, covered)


def test_the_cross_fitted_nec_is_the_weighted_mean_of_its_rows_and_a_split_is_judged_on_test():
    scores, delta = _data(500, 0.4, 1.0, 1.0, 7)
    rec = recommend_nec({"m": scores}, delta, n_resamples=200)
    assert rec.estimate == "cross-fitted" and rec.judged_on == "all"
    assert rec.nec == pytest.approx(rec.baseline_nec - rec.saving)
    assert rec.saving_low < rec.saving < rec.saving_high
    split = np.arange(500) < 350
    test = recommend_nec({"m": scores}, delta, fit=split, judge=~split, n_resamples=200)
    assert test.estimate == "test" and test.judged_on == "test"
    d, t = delta[~split], test.threshold
    wrong = (scores[~split] >= t) != (d > 0)
    assert test.nec == pytest.approx(np.abs(d) @ wrong / np.abs(d).sum())


@settings(max_examples=60)
@given(st.integers(0, 100_000))
def test_a_folds_pick_from_one_sort_is_the_pick_of_its_rows_sorted_anew(seed):
    """The cross-fit counts each fold's sweep off one sort of the rows (`row_crossfit.SubsetSweeps`);
    the model and cutoff it picks decide every row as `decision.recommend` on the fold's rows
    swept anew (`sweep_model`) does: ties, rounded scores, zero prices and two models."""
    from costlib.binary import decision as D
    from costlib.binary.model_sweeps import SINGLE_GROUP, sweep_model
    from costlib.instance import _nec_pick

    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    models = {"a": np.round(rng.standard_normal(n) + y, int(rng.integers(0, 3))), "b": rng.random(n)}
    size = rng.lognormal(0.0, 1.0, n) * (rng.random(n) > 0.05)
    delta = np.where(y, size, -size)
    fit = rng.random(n) < 0.8
    sweeps = {m: sweep_model(delta[fit] > 0, s[fit], sample_weight=size[fit], name=m) for m, s in models.items()}
    rec = D.recommend(sweeps, (1.0, 1.0), n_resamples=0)
    want = models[rec.model] >= rec.cutoffs[SINGLE_GROUP]
    np.testing.assert_array_equal(_nec_pick(models, delta)(fit)(np.ones(n, dtype=bool)), want)


def test_the_chart_marks_no_cutoff_where_the_pick_uses_none_and_says_the_answer_is_cross_fitted():
    """Review 60, items 2 and 5: on noise the pick flags nobody (cutoff +inf) and the chart drew
    "recommended: inf" as a slanted line across an axis stretched to 4; without a split the chart's
    curves read the rows that chose the cutoff while the answer above them is cross-fitted."""
    from costlib.answers.instance import instance_figure
    from costlib.present.labels import INSTANCE_ROWS

    _, delta = _data(2000, 0.3, 0.0, 1.0, 5)
    scores = np.full(delta.size, 0.5)  # a constant score: the cheapest is to flag nobody
    rec = recommend_nec({"m": scores}, delta, n_resamples=200)
    assert not np.isfinite(rec.threshold) and rec.estimate == "cross-fitted"
    curves = pd.DataFrame({"threshold": [0.1, 0.5], "NEC": [0.7, 0.3], "model": "m"})
    fig = instance_figure(SimpleNamespace(rec=rec, curves=curves))
    assert not [a for a in fig.layout.annotations if "recommended" in str(a.text)]
    assert not [s for s in fig.layout.shapes if s.type == "line" and s.x0 is not None and not np.isfinite(s.x0)]
    assert INSTANCE_ROWS["cross-fitted"] in fig.layout.title.text
    assert recommend_nec({"m": scores}, delta, n_resamples=0).estimate == "same rows"
