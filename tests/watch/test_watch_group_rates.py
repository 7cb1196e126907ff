"""The Watch page's table of groups, for a fairness reviewer: each group's share flagged, false
positive and false negative rates and cost per case in every period judged, each with its 95%
interval from the period's own resampling, and the product's one mark for a group too small to
read (`binary.folds.own_cutoff`, `tables.small_group_note`). The table had the share flagged and
the cost alone, without intervals or a mark."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs, watch_answer
from costlib.binary import folds
from costlib.present.tables import small_group_note
from costlib.present.watch_tables import GROUPS_WHAT, watch_group_numbers, watch_group_table
from costlib.watch.alerts import judge_period
from costlib.watch.estimate import estimate_period
from costlib.watch.groups import READINGS

PRICES = {"a": (1.0, 4.0), "b": (1.0, 4.0)}
CUTS = {"a": 0.3, "b": 0.5}


def _rows(rng, n, prior=0.3, share_b=0.4):
    y = (rng.random(n) < prior).astype(int)
    s = 1 / (1 + np.exp(-(rng.normal(np.where(y == 1, 1.0, -1.0), 1.0) * 2 + math.log(0.3 / 0.7))))
    g = np.where(rng.random(n) < share_b, "b", "a").astype(object)
    return y, s, g


def _by_hand(y, s, g, group):
    """(flagged, false positive rate, false negative rate, cost per case) of one group, counted."""
    sel = g == group
    flag = s[sel] >= CUTS[group]
    pos, neg = y[sel] == 1, y[sel] == 0
    fp, fn = (flag & neg).sum(), (~flag & pos).sum()
    c_fp, c_fn = PRICES[group]
    return flag.mean(), fp / neg.sum(), fn / pos.sum(), (fp * c_fp + fn * c_fn) / sel.sum()


def test_a_measured_periods_groups_have_their_counted_rates_and_intervals_from_its_resampling():
    rng = np.random.default_rng(3)
    y, s, g = _rows(rng, 3000)
    j = judge_period(y, s, g, costs=PRICES, cutoffs=CUTS, n_resamples=400, seed=1)
    for group in ("a", "b"):
        r = j.groups[group]
        want = _by_hand(y, s, g, group)
        assert [r[k] for k in READINGS] == pytest.approx(want)
        assert r["cost_per_case"] == pytest.approx(j.by_group[group][2])  # one cost, two readings of it
        assert not r["small"]
        for k in READINGS:
            low, high = r[f"{k}_interval"]
            assert low < r[k] < high, (group, k)
        # about as wide as a share's 95% interval of its own count (binomial, normal approximation)
        negatives = ((g == group) & (y == 0)).sum()
        half = 1.96 * math.sqrt(want[1] * (1 - want[1]) / negatives)
        low, high = r["false_positive_rate_interval"]
        assert (high - low) / 2 == pytest.approx(half, rel=0.3)
    again = judge_period(y, s, g, costs=PRICES, cutoffs=CUTS, n_resamples=400, seed=1)
    assert again.groups == j.groups and (again.low, again.high) == (j.low, j.high)
    bare = judge_period(y, s, g, costs=PRICES, cutoffs=CUTS, n_resamples=0)
    assert all(math.isnan(x) for x in bare.groups["a"]["cost_per_case_interval"])


def test_a_group_too_small_to_read_is_marked_by_the_one_rule_costs_and_groups_reads(monkeypatch):
    rng = np.random.default_rng(4)
    y, s, g = _rows(rng, 1500, share_b=0.04)  # about 60 cases of b: fewer than 20 positives
    j = judge_period(y, s, g, costs=PRICES, cutoffs=CUTS, n_resamples=200)
    assert j.groups["b"]["small"] and not j.groups["a"]["small"]
    assert j.groups["b"]["positives"] < folds.MIN_CLASS_ROWS
    monkeypatch.setattr(folds, "MIN_CLASS_ROWS", 5)  # the rule's one home: moving it moves the mark
    assert not judge_period(y, s, g, costs=PRICES, cutoffs=CUTS, n_resamples=0).groups["b"]["small"]


def test_an_estimated_periods_groups_are_its_cost_split_with_the_outcomes_to_come_drawn():
    rng = np.random.default_rng(5)
    y, s, g = _rows(rng, 2000, prior=0.15)
    labels = np.where(rng.random(y.size) < 0.3, y, np.nan)  # 30% of the outcomes in
    e = estimate_period(s, g, labels, costs=PRICES, cutoffs=CUTS, train_prior=0.3, n_resamples=300)
    ls = e.label_shift
    for group in ("a", "b"):
        r = ls.groups[group]
        n, flagged, cost = ls.by_group[group]
        assert (r["flagged_share"], r["cost_per_case"]) == pytest.approx((flagged, cost))
        assert r["positives"] + r["negatives"] == pytest.approx(n)
        for k in READINGS:
            low, high = r[f"{k}_interval"]
            assert low <= r[k] <= high, (group, k)
    assert e.calibrated.groups == {}  # only the reading whose cost the period shows


def test_a_random_share_flags_that_share_of_every_group():
    rng = np.random.default_rng(6)
    y, s, g = _rows(rng, 1500)
    cuts = dict.fromkeys(CUTS, math.inf)
    j = judge_period(y, s, g, costs=PRICES, cutoffs=cuts, n_resamples=200, random_share=0.2)
    for group in ("a", "b"):
        r = j.groups[group]
        assert (r["flagged_share"], r["false_positive_rate"], r["false_negative_rate"]) == pytest.approx(
            (0.2, 0.2, 0.8)
        )
        assert r["cost_per_case"] == pytest.approx(j.by_group[group][2])


@pytest.fixture(scope="module")
def year():
    policy, df = sample_inputs()
    return watch_answer(policy, df, name="year", columns=SAMPLE_COLUMNS, freq="M", n_resamples=200, unit="$")


def test_the_table_shows_every_rate_with_its_interval_and_no_none_or_nan(year):
    t = year.groups
    assert list(t.columns) == [
        "period",
        "group",
        "cases",
        "flagged",
        "false positive rate",
        "false negative rate",
        "cost per case",
        "note",
    ]
    assert len(t) == 24  # twelve months of two regions
    for column in ("flagged", "false positive rate", "false negative rate", "cost per case"):
        assert t[column].str.fullmatch(r"\S+ \(\S+ to \S+\)").all(), column
    text = t.to_csv()
    assert "None" not in text and "nan" not in text.lower()
    assert small_group_note() in GROUPS_WHAT and str(folds.MIN_CLASS_ROWS) in GROUPS_WHAT
    numbers = watch_group_numbers(year.report)
    assert len(numbers) == 24 and {"false positive rate low", "cost per case high", "small", "how"} <= set(numbers)
    first = year.report["periods"][0]["groups"]["north"]
    assert numbers.iloc[0]["false negative rate"] == first["false_negative_rate"]


def test_a_rate_without_its_count_or_an_interval_reads_a_dash_or_bare_never_none():
    report = {
        "periods": [
            {
                "period": "2026-01",
                "measured": True,
                "labelled": 40,
                "n": 40,
                "groups": {
                    "a": {
                        "n": 30.0,
                        "flagged_share": 0.5,
                        "cost_per_case": 0.25,
                        "positives": 0.0,
                        "negatives": 30.0,
                        "false_positive_rate": 0.5,
                        "false_negative_rate": None,  # no positives
                        "flagged_share_interval": [None, None],
                        "false_positive_rate_interval": [None, None],
                        "false_negative_rate_interval": [None, None],
                        "cost_per_case_interval": [None, None],
                        "small": True,
                    },
                    "b": {"n": 10.0, "flagged_share": None, "cost_per_case": None},  # a report before the rates
                },
            }
        ]
    }
    t = watch_group_table(report, "$")
    assert t.loc[0, ["flagged", "false negative rate", "cost per case", "note"]].tolist() == [
        "50.0%",
        "–",
        "$0.250",
        small_group_note(),
    ]
    assert t.loc[1, ["flagged", "false positive rate", "cost per case", "note"]].tolist() == ["–", "–", "–", ""]
    assert "None" not in t.to_csv() and "nan" not in t.to_csv().lower()
    assert isinstance(watch_group_numbers(report), pd.DataFrame)
