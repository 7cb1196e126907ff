"""Whether the disparities are those of the choice without a model (a rule that flags every case of
every group, or none, by its cutoffs) rides on the result itself (`Disparities.no_model`, set where
`disparity._no_model_rule` decides it), not on the widths of its flagged rates' intervals: the
caption (`disparity_table.no_model_words`) and the JSON record read it, on weighted rows too, where
there are no intervals to read and a real cutoff that flags every judged case was named the choice
without a model by its rates alone."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.binary.disparity import Disparities, column_disparities, disparities, rule_disparities
from costlib.core import rules as R
from costlib.present.disparity_table import disparity_caption, no_model_words

ALL_FLAGGED = (["A", "B"], [50, 20], [50, 80], [0, 0], [100, 100])  # groups, tp, fp, fn, n: every case flagged
NAMED = "flags everyone here, as the choice without a model does"


def _flagged_rate(d):
    return d.table[d.table["metric"] == "flagged rate"]


def test_a_real_cutoff_whose_flagged_rates_read_exact_is_not_the_choice_without_a_model():
    decided = disparities(*ALL_FLAGGED, c_fp=1, c_fn=10, rule="cutoff 0.1", decided=True)
    rates = _flagged_rate(decided)
    assert (rates["value_low"] == 1.0).all() and (rates["value_high"] == 1.0).all()  # exact, zero width
    # the same table, from a rule that did not decide it by its cutoffs (no `no_model`)
    real = Disparities(decided.rule, decided.reference, decided.chosen, decided.threshold, decided.table)
    assert no_model_words(real) == "" and "without a model" not in disparity_caption(real)
    assert real.record("cutoff 0.1")["no_model"] is False


def test_the_choice_without_a_model_is_named_whatever_its_intervals():
    drawn = disparities(*ALL_FLAGGED, c_fp=1, c_fn=10, rule=R.SINGLE)  # its counts' intervals, not exact
    rates = _flagged_rate(drawn)
    assert (rates["value_low"] < 1.0).all() and not drawn.no_model
    assert no_model_words(drawn) == ""
    named = dataclasses.replace(drawn, no_model=True)
    assert disparity_caption(named).startswith(f"“best single cutoff” {NAMED}")
    assert named.record("best single cutoff")["no_model"] is True
    nobody = dataclasses.replace(
        disparities(["A", "B"], [0, 0], [0, 0], [50, 20], [100, 100], c_fp=1, c_fn=10, rule=R.SINGLE), no_model=True
    )
    assert "flags nobody here" in no_model_words(nobody)


def test_decided_sets_no_model_and_exact_rates_together():
    d = disparities(*ALL_FLAGGED, c_fp=1, c_fn=10, rule=R.EVERYONE, decided=True)
    assert d.no_model and NAMED in no_model_words(d)
    assert not disparities(*ALL_FLAGGED, c_fp=1, c_fn=10).no_model


def _weighted_sweeps():
    """Weighted rows whose judged cases all score 0.5 or more, while the fitting rows go lower:
    "cutoff 0.5" flags every judged case, a real cutoff, not the choice without a model."""
    rng = np.random.default_rng(3)
    n = 600
    g = rng.choice(np.array(["a", "b"]), size=n, p=[0.6, 0.4])
    y = (rng.random(n) < 0.35).astype(int)
    fit = np.arange(n) < n // 2
    s = np.where(fit, rng.random(n), 0.5 + 0.5 * rng.random(n))
    s = np.round(np.clip(s + 0.1 * y, 0, 1), 3)
    w = rng.integers(1, 5, n).astype(float)
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit, sample_weight=w, name="s")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = D.recommend(ms, (1.0, 3.0), n_resamples=20)
    return ms, rec


@pytest.fixture(scope="module")
def weighted():
    return _weighted_sweeps()


def test_on_weighted_rows_a_real_cutoff_flagging_every_judged_case_is_not_named(weighted):
    ms, rec = weighted
    d = rule_disparities(ms, rec.results, R.THRESHOLD_05, rec.prices)
    assert d.weighted and (_flagged_rate(d)["value"] == 1.0).all()  # every judged case flagged
    assert no_model_words(d) == "" and "without a model" not in disparity_caption(d)  # named by its rates alone
    assert not d.no_model


def test_on_weighted_rows_flagging_everyone_is_named(weighted):
    ms, rec = weighted
    d = rule_disparities(ms, rec.results, R.EVERYONE, rec.prices)
    assert d.weighted and d.no_model and NAMED in disparity_caption(d)
    assert d.record(R.rule_words(R.EVERYONE))["no_model"] is True


def test_each_group_column_alone_carries_the_decision():
    rng = np.random.default_rng(5)
    n = 800
    sex, age = rng.choice(np.array(["F", "M"]), n), rng.choice(np.array(["young", "old"]), n)
    g = np.char.add(np.char.add(sex, " × "), age)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(np.clip(0.35 + 0.3 * y + 0.15 * rng.standard_normal(n), 0, 1), 3)
    ms = D.sweep_model(y, s, g, name="s")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = D.recommend(ms, (1.0, 3.0), n_resamples=20)
    parts = {k: tuple(k.split(" × ")) for k in ms.groups}
    everyone = column_disparities(ms, rec.results, R.EVERYONE, rec.prices, parts, ("sex", "age"))
    assert [c for c, _ in everyone] == ["sex", "age"] and all(d.no_model for _, d in everyone)
    model = column_disparities(ms, rec.results, R.SINGLE, rec.prices, parts, ("sex", "age"))
    assert not any(d.no_model for _, d in model)
