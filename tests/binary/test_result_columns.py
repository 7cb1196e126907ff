"""Issue 39: a price move reads a judged table's columns as the arrays it was made of
(`judged_rules.result_columns`) instead of reading every column back out of its frames; those
arrays must be the frames' columns exactly, and a table whose frames were replaced is read off
its new frames."""

from __future__ import annotations

import dataclasses

import numpy as np

from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.binary.judged_rules import evaluate_rules, judge_fitted, model_rule_cutoffs, result_columns


def judged_model():
    rng = np.random.default_rng(7)
    n = 3000
    y = rng.integers(0, 2, n)
    s = np.round(1 / (1 + np.exp(-(1.3 * (2 * y - 1) + rng.normal(0, 1.0, n)))), 3)
    g = rng.choice(np.array(["north", "south", "west"]), n)
    return D.sweep_model(y, s, g)


def assert_columns_are_the_frames(res):
    by_group, overall = result_columns(res)
    assert list(by_group) == list(res.by_group.columns)
    assert list(overall) == list(res.overall.columns)
    for c in res.by_group.columns:
        np.testing.assert_array_equal(np.asarray(by_group[c]), res.by_group[c].to_numpy(), err_msg=c)
    for c in res.overall.columns:
        np.testing.assert_array_equal(np.asarray(overall[c]), res.overall[c].to_numpy(), err_msg=c)


def test_the_columns_kept_are_the_frames_columns():
    ms = judged_model()
    p = D.prices_for(ms.groups, (1.0, 3.0))
    cutoffs = model_rule_cutoffs(ms, p)
    res = evaluate_rules(ms, p, cutoffs, n_resamples=50, base=list(cutoffs))
    assert_columns_are_the_frames(res)
    judged = judge_fitted(res, p, H.judge(ms, p, n_resamples=50))
    assert judged.estimate == H.CROSS_FITTED
    assert_columns_are_the_frames(judged)
    assert_columns_are_the_frames(D.recommend(ms, (1.0, 3.0), n_resamples=50).results)


def test_replaced_frames_are_read_again():
    ms = judged_model()
    res = D.recommend(ms, (1.0, 3.0), n_resamples=50).results
    replaced = dataclasses.replace(res, by_group=res.by_group.assign(fp=-1.0))
    assert (result_columns(replaced)[0]["fp"] == -1.0).all()
    assert_columns_are_the_frames(replaced)
