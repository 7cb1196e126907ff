"""Watching a shipped policy, the contract functions: `cost_by_period` against a brute-force loop
over periods and cutoffs, and the label-free estimates (`estimate_prior`, `expected_cost_unlabelled`)
on simulated label shift, where the truth is known."""

from __future__ import annotations

import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import DataError, DegenerateWarning
from costlib.watch import streams
from costlib.watch.periods import cost_by_period
from costlib.watch.shift import estimate_prior, expected_cost_unlabelled, move_to_prior

DAYS = pd.date_range("2026-01-01", "2026-04-30", freq="D")


def _brute(y, s, t, c_fp, c_fn, cutoff, freq):
    """Per period: (period, n, shipped cost, best cutoff, best cost), in Fractions; ties to the larger cutoff."""
    out = []
    periods = pd.PeriodIndex(pd.to_datetime(t), freq=freq)
    for period in sorted(set(periods)):
        rows = [i for i in range(len(y)) if periods[i] == period]
        n = len(rows)

        def cost(cut, rows=rows, n=n):
            fp = sum(1 for i in rows if s[i] >= cut and y[i] == 0)
            fn = sum(1 for i in rows if s[i] < cut and y[i] == 1)
            return Fraction(fp * c_fp + fn * c_fn, n)

        candidates = [math.inf, *sorted({s[i] for i in rows}, reverse=True)]
        best_t, best = None, None
        for cut in candidates:
            c = cost(cut)
            if best is None or c < best:
                best_t, best = cut, c
        one_class = len({y[i] for i in rows}) < 2
        out.append((str(period), n, cost(cutoff), math.nan if one_class else best_t, None if one_class else best))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.integers(0, len(DAYS) - 1)),
        min_size=1,
        max_size=40,
    ),
    st.integers(0, 5),
    st.integers(0, 5),
    st.sampled_from([0.3, 0.5, 0.75, math.inf]),
    st.sampled_from(["M", "W", "D"]),
)
def test_cost_by_period_is_the_shipped_cost_and_each_periods_best(rows, c_fp, c_fn, cutoff, freq):
    y = [r[0] for r in rows]
    s = [r[1] for r in rows]
    t = [DAYS[r[2]] for r in rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        got = cost_by_period(y, s, t, c_fp=c_fp, c_fn=c_fn, cutoff=cutoff, freq=freq)
    want = _brute(y, s, t, c_fp, c_fn, cutoff, freq)
    assert got["period"].tolist() == [w[0] for w in want]
    assert got["n"].tolist() == [w[1] for w in want]
    for row, (_, _, shipped, best_t, best) in zip(got.itertuples(), want, strict=True):
        assert row.cost_per_case == pytest.approx(float(shipped), abs=1e-12)
        if best is None:
            assert math.isnan(row.best_cost_per_case)
            continue
        assert row.best_threshold == best_t
        assert row.best_cost_per_case == pytest.approx(float(best), abs=1e-12)
        assert row.regret_per_case >= 0
        assert row.regret_per_case == pytest.approx(float(shipped - best), abs=1e-12)


def test_per_group_cutoffs_have_a_regret_against_each_groups_best():
    rng = np.random.default_rng(2)
    n = 2000
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.6 + 0.4 * y, 2)
    g = rng.choice(["a", "b"], n)
    t = rng.choice(DAYS, n)
    out = cost_by_period(y, s, t, c_fp=1, c_fn=2, cutoff={"a": 0.5, "b": 0.3}, groups=g)
    assert (out["regret_per_case"] >= 0).all()
    assert set(out["best_threshold"].iloc[0]) == {"a", "b"}
    with pytest.raises(ValueError, match="groups"):
        cost_by_period(y, s, t, c_fp=1, c_fn=2, cutoff={"a": 0.5, "b": 0.3})


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"times": ["not a date"] * 3}, r"times\[0\] holds .not a date., which is not a date"),
        ({"times": ["2026-01-01", None, "2026-01-02"]}, r"times\[1\] has no date"),
        ({"freq": "Q"}, "freq must be one of"),
        ({"times": ["2026-01-01"] * 2}, "times has 2 entries"),
        ({"times": [20260101, 20260102, 20260201]}, "not numbers"),
    ],
)
def test_bad_times_are_refused_with_a_sentence(kwargs, words):
    args = {"times": ["2026-01-01", "2026-01-02", "2026-02-01"], "freq": "M", **kwargs}
    with pytest.raises(ValueError, match=words):
        cost_by_period([0, 1, 1], [0.1, 0.9, 0.5], args["times"], c_fp=1, c_fn=1, cutoff=0.5, freq=args["freq"])


# ---------------------------------------------------------------------------------------
# Label shift: the class-conditional scores stay, the base rate moves


def _shifted(prior: float, n: int, train_prior: float, seed: int):
    """Cases with base rate `prior`, scored by a model calibrated at `train_prior`."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prior).astype(int)
    x = rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
    p = 1 / (1 + np.exp(-(2 * x + math.log(train_prior / (1 - train_prior)))))  # the Bayes posterior at train_prior
    return y, p


@pytest.mark.parametrize("prior", [0.05, 0.2, 0.3, 0.6])
def test_the_em_finds_a_shifted_base_rate(prior):
    y, p = _shifted(prior, 40_000, 0.3, seed=1)
    got = estimate_prior(p, train_prior=0.3)
    assert got == pytest.approx(y.mean(), abs=0.01)
    if abs(prior - 0.3) > 0.1:
        assert abs(p.mean() - y.mean()) > 2 * abs(got - y.mean())  # the plain mean of p is pulled back


@pytest.mark.parametrize("prior", [0.1, 0.3, 0.55])
def test_the_label_free_cost_is_within_a_few_percent_of_the_measured_one(prior):
    y, p = _shifted(prior, 40_000, 0.3, seed=4)
    cutoff, c_fp, c_fn = 0.25, 1.0, 3.0
    flagged = p >= cutoff
    measured = float(np.mean(np.where(flagged, (y == 0) * c_fp, (y == 1) * c_fn)))
    moved = expected_cost_unlabelled(
        p, cutoff=cutoff, c_fp=c_fp, c_fn=c_fn, prior=estimate_prior(p, train_prior=0.3), train_prior=0.3
    )
    assert moved == pytest.approx(measured, rel=0.04)
    if prior != 0.3:
        unmoved = expected_cost_unlabelled(p, cutoff=cutoff, c_fp=c_fp, c_fn=c_fn)
        assert abs(unmoved - measured) > abs(moved - measured)  # moving to the new base rate is what helps


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30),
    st.floats(0.05, 0.95),
)
def test_the_base_rate_is_the_ems_fixed_point(p, train_prior):
    p = np.array(p)
    got = estimate_prior(p, train_prior=train_prior)
    assert 0.0 <= got <= 1.0
    if 0 < got < 1:  # a fixed point: moving to it and taking the mean gives it back
        assert float(np.mean(move_to_prior(p, got, train_prior))) == (pytest.approx(got, abs=1e-9))
    if np.all(p == p[0]) and abs(p[0] - train_prior) < 1e-12:
        return  # flat: any base rate is a fixed point; the model's is kept
    assert got == pytest.approx(streams.paper_em(p, train_prior)[0], abs=2e-5)  # where the EM's own steps end


def test_a_weak_model_settles_where_the_em_does_in_few_passes():
    """Scores with little signal: the EM's steps crawl (thousands of passes); the bisection lands on the same point."""
    rng = np.random.default_rng(3)
    y = rng.random(5_000) < 0.3
    z = rng.normal(0.1 * y, 1.0)
    p = 1 / (1 + np.exp(-(0.1 * z - 0.005)))  # calibrated at 0.5, almost no signal
    assert estimate_prior(p, train_prior=0.5) == pytest.approx(streams.paper_em(p, 0.5)[0], abs=1e-6)


def test_label_free_arguments_are_checked():
    with pytest.raises(ValueError, match="give both"):
        expected_cost_unlabelled([0.2], cutoff=0.5, c_fp=1, c_fn=1, prior=0.3)
    with pytest.raises(ValueError, match="train_prior must be a base rate"):
        estimate_prior([0.2], train_prior=1.0)
    with pytest.raises(ValueError, match="y_prob"):
        estimate_prior([1.2], train_prior=0.5)
    with pytest.warns(DegenerateWarning):
        assert math.isnan(estimate_prior([], train_prior=0.5))


def test_alerts_fire_beyond_the_noise_only():
    """Stable months (the shipped cutoff is the population's best) alert in at most 1 of 20; months
    whose base rate fell from 0.3 to 0.05 alert in every one of them."""
    from costlib.watch.alerts import judge_period

    def month(seed, prior):
        y, p = _shifted(prior, 1500, 0.3, seed)
        return y, np.round(p, 3), np.full(y.size, "all")

    stable = [
        judge_period(*month(m, 0.3), costs={"all": (1, 3)}, cutoffs={"all": 0.25}, n_resamples=300, seed=m)
        for m in range(20)
    ]
    assert sum(j.alert for j in stable) <= 1
    assert all(j.regret < j.shipped for j in stable)  # honest: the regret is not the period's own flattering best
    shifted = [
        judge_period(*month(100 + m, 0.05), costs={"all": (1, 3)}, cutoffs={"all": 0.25}, n_resamples=300, seed=m)
        for m in range(8)
    ]
    assert all(j.alert for j in shifted)
    assert all(j.low > 0 and j.best["all"] > 0.25 for j in shifted)  # fewer positives: the best cutoff rises


def _policy(cut=0.25, base_rate=0.3):
    return {
        "thresholds": {"everyone": cut},
        "prices": {"everyone": (1.0, 3.0)},
        "rule": "best single cutoff",
        "unit": "$",
        "volume": 1000,
        "base_rate": base_rate,
    }


def test_a_month_whose_outcomes_are_of_one_class_is_measured_and_a_flag_everyone_policy_writes_json():
    import json

    from costlib.watch.report import watch_report

    df = pd.DataFrame({"t": ["2026-01-03"] * 5, "p": [0.1, 0.2, 0.3, 0.6, 0.9], "y": [0, 0, 0, 0, 0]})
    report = watch_report(_policy(cut=-math.inf), df, name="f", time="t", score="p", label="y", n_resamples=50)
    (row,) = report["periods"]
    assert row["measured"] and row["cost_per_case"] == 1.0 and row["base_rate"] == 0.0  # every case a false alarm
    assert row["regret_per_case"] is None and not row["alert"]
    assert json.loads(json.dumps(report, allow_nan=False))["policy"]["cutoffs"] == {"everyone": "-inf"}


def test_since_is_where_the_latest_run_of_alerts_starts():
    from costlib.present.watch_words import watch_verdict

    def period(name, alert, measured=True, regret=0.03):
        iv = [0.01, 0.05] if alert else [-0.01, 0.02]
        row = {"period": name, "n": 1000, "labelled": 1000 * measured, "alert": alert, "measured": measured}
        row["regret_per_case"] = regret
        return {**row, "regret_interval": iv}

    report = {
        "freq": "M",
        "policy": {"cutoffs": {"everyone": 0.25}},
        "periods": [
            period("2026-01", True),
            period("2026-02", False, regret=-0.005),  # costs no more than its own best: the drift ends
            period("2026-03", True),
            period("2026-04", True),
        ],
    }
    assert watch_verdict(report, unit="$").headline.startswith("Refit: since 2026-03")
    report["periods"].append(period("2026-05", False))
    assert "the latest month with outcomes (2026-05) is within the noise again" in watch_verdict(report).headline
    quiet = {**report, "periods": [period("2026-01", False), period("2026-02", False, measured=False)]}
    verdict = watch_verdict(quiet, unit="$")
    assert verdict.headline.startswith("Keep the cutoff for now") and verdict.kind == "warning"
    assert any(
        "estimated to save about $0.030 per case ($30.00 a month in the file's 1,000 cases" in d
        for d in verdict.details
    )
    mine = watch_verdict(quiet, unit="$", volume=10000)  # the page: the sidebar's cases a month, named
    assert any("($300 a month at your 10,000 cases a month)" in d for d in mine.details)
    dearer = {**report, "periods": [period("2026-01", False), period("2026-02", False, measured=False, regret=-0.04)]}
    said = " ".join(watch_verdict(dearer, unit="$").details)  # moving the cutoff would cost more: never "save −$40"
    assert "estimated to cost about $0.040 per case more ($40.00 a month" in said and "save about −" not in said
    late = {**report, "periods": [period("2026-01", False), period("2026-02", True, measured=False)]}
    verdict = watch_verdict(late, unit="$")  # an alert on the estimate alone: says what it rests on
    assert verdict.headline.startswith("Refit if the share of positive cases moved: since 2026-02")
    assert verdict.kind == "error"
    assert verdict.headline.endswith("No outcomes confirm it yet.")


def test_the_amounts_are_what_the_files_own_cases_cost_and_weeks_are_said_as_weeks():
    from costlib.present.watch_words import watch_verdict

    def period(name, n, regret, alert=True, measured=True):
        iv = [regret / 2, regret * 2] if alert else [-0.01, 0.02]
        row = {"period": name, "n": n, "labelled": n * measured, "alert": alert, "measured": measured}
        return {**row, "regret_per_case": regret, "regret_interval": iv}

    report = {"freq": "M", "policy": {"cutoffs": {"everyone": 0.25}}, "data": {"label": "y"}}
    report["periods"] = [period("2026-06", 500, 0.0, False), period("2026-07", 1000, 0.1), period("2026-08", 400, 0.2)]
    head = watch_verdict(report, unit="$").headline
    # per case first: (0.1 x 1,000 + 0.2 x 400) / 1,400 = $0.129; a month at the file's own 700 cases: $90.00
    assert "has cost about $0.129 per case more ($90.30 a month in the file's 700 cases a month)" in head
    assert "2026-07: $0.10 per case more, 95% interval $0.05 to $0.20" in head  # per case, as the amount
    assert "the month after it alerts too" in head
    weeks = {**report, "freq": "W"}
    weeks["periods"] = [
        period("2026-07-13/2026-07-19", 200, 0.1),
        period("2026-07-20/2026-07-26", 10, 0.1, False, False),
    ]
    verdict = watch_verdict(weeks, unit="$")
    assert verdict.headline.startswith(
        "Refit: since week of 2026-07-13 the shipped cutoff has cost about $0.100 per case more ($20.00 a week in"
    )
    assert "month" not in " ".join((verdict.headline, *verdict.details))
    blind = {**report, "data": {"label": None}, "periods": [period("2026-07", 1000, 0.1, False, False)]}
    verdict = watch_verdict(blind, unit="$")  # no outcome column: judged on the scores, and said so
    assert verdict.kind == "warning"
    assert verdict.headline.startswith("Keep the cutoff for now: the scores of the months without outcomes")


def test_a_policy_base_rate_of_zero_or_one_is_refused():
    import json as _json

    from costlib.answers.audit import build_audit
    from costlib.binary import decision as D
    from costlib.core.errors import DataError
    from costlib.present.policy import load_policy, policy_json

    audit = build_audit(D.sweep_model([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8]), (1, 1), n_resamples=0)
    text = _json.loads(policy_json(audit))
    text["base_rate"] = 0.0
    with pytest.raises(DataError, match="strictly between 0 and 1"):
        load_policy(_json.dumps(text))


def test_months_without_outcomes_refit_the_rule_the_policy_ships():
    """One cutoff for everybody is refitted as one cutoff (at each group's prices); on one group
    it is the formula cutoff on the moved probabilities, which is the best there."""
    from costlib.watch.report import watch_report

    y, p = _shifted(0.1, 4000, 0.3, seed=9)
    g = np.where(np.arange(p.size) % 2 == 0, "a", "b")
    df = pd.DataFrame({"t": "2026-03-10", "p": np.round(p, 4), "g": g})
    policy = {**_policy(), "thresholds": {"a": 0.25, "b": 0.25}, "prices": {"a": (1.0, 3.0), "b": (1.0, 6.0)}}
    (row,) = watch_report(policy, df, name="f", time="t", score="p", group="g", n_resamples=0)["periods"]
    assert not row["measured"] and len(set(row["best_threshold"].values())) == 1
    one = {**_policy(), "prices": {"everyone": (1.0, 3.0)}}
    (single,) = watch_report(one, df.drop(columns="g"), name="f", time="t", score="p", n_resamples=0)["periods"]
    prior = estimate_prior(np.round(p, 4), train_prior=0.3)
    best = single["best_threshold"]["everyone"]
    at_best = expected_cost_unlabelled(np.round(p, 4), cutoff=best, c_fp=1, c_fn=3, prior=prior, train_prior=0.3)
    for other in (0.2, 0.3, 0.5, 0.7):  # no cutoff does better on the moved probabilities
        assert (
            at_best
            <= expected_cost_unlabelled(np.round(p, 4), cutoff=other, c_fp=1, c_fn=3, prior=prior, train_prior=0.3)
            + 1e-12
        )
    assert single["regret_per_case"] == pytest.approx(single["cost_per_case"] - at_best, abs=1e-9)


def _grouped_month(seed: int, n: int = 600):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    p = np.round(np.clip(rng.normal(0.25 + 0.4 * y, 0.2), 0, 1), 3)
    g = np.where(rng.random(n) < 0.4, "north", "south")
    return pd.DataFrame({"t": "2026-05-14", "p": p, "y": y, "g": g})


def test_each_groups_cases_flagged_share_and_cost_are_counted_row_by_row():
    from costlib.watch.report import watch_report

    df = _grouped_month(21)
    policy = {
        **_policy(),
        "thresholds": {"north": 0.4, "south": 0.5},
        "prices": {"north": (1.0, 3.0), "south": (2.0, 5.0)},
    }
    (row,) = watch_report(policy, df, name="f", time="t", score="p", label="y", group="g", n_resamples=0)["periods"]
    total = 0.0
    for name, sub in df.groupby("g"):
        flag = sub["p"] >= policy["thresholds"][name]
        c_fp, c_fn = policy["prices"][name]
        spent = float(((flag & (sub["y"] == 0)) * c_fp + (~flag & (sub["y"] == 1)) * c_fn).sum())
        total += spent
        got = row["groups"][name]
        assert got["n"] == len(sub)
        assert got["flagged_share"] == pytest.approx(flag.mean(), abs=1e-12)
        assert got["cost_per_case"] == pytest.approx(spent / len(sub), abs=1e-12)
    assert row["cost_per_case"] == pytest.approx(total / len(df), abs=1e-12)
    flagged = np.mean(df["p"] >= df["g"].map(policy["thresholds"]))
    assert row["flagged_share"] == pytest.approx(flagged, abs=1e-12)


def test_a_policy_with_a_review_limit_is_refitted_within_it_and_a_random_share_costs_its_expectation():
    from costlib.watch.report import watch_report

    df = _grouped_month(5, 800)
    capped = {**_policy(cut=0.45), "capacity": {"max_flagged": 0.1, "cases_per_month": None}}
    (free,) = watch_report(_policy(cut=0.45), df, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    (row,) = watch_report(capped, df, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    best = row["best_threshold"]["everyone"]
    assert np.mean(df["p"] >= best) <= 0.1 + 1e-9  # the period's own best fits the review limit
    assert np.mean(df["p"] >= free["best_threshold"]["everyone"]) > 0.1  # without the limit it would not
    r = 0.1
    at_random = {**capped, "thresholds": {"everyone": math.inf}, "random_share": r, "rule": "flag at random"}
    (rand,) = watch_report(at_random, df, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    pos, neg = int(df["y"].sum()), int((df["y"] == 0).sum())
    expected = ((1 - r) * pos * 3.0 + r * (pos * 0.0 + neg * 1.0)) / len(df)  # nobody flagged, or a random r of all
    assert rand["cost_per_case"] == pytest.approx(expected, abs=1e-12)
    assert rand["flagged_share"] == pytest.approx(r)
    with_draws = watch_report(at_random, df, name="f", time="t", score="p", label="y", n_resamples=200)["periods"][0]
    low, high = with_draws["regret_interval"]
    assert low <= with_draws["regret_per_case"] <= high


def test_outcomes_in_words_are_read_with_the_policys_positive_value_and_partly_labelled_months_combine_them():
    from costlib.core.errors import DataError
    from costlib.watch.report import watch_report

    df = _grouped_month(8, 300)
    words = df.assign(y=np.where(df["y"] == 1, "Default", "repaid").astype(object))
    words.loc[::3, "y"] = None  # a third of the outcomes not in yet
    policy = {**_policy(), "data": {"positive": "default"}}
    (row,) = watch_report(policy, words, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    known = df.iloc[[i for i in range(len(df)) if i % 3]]
    later = df.iloc[::3]
    flag = known["p"] >= 0.25
    spent = ((flag & (known["y"] == 0)) * 1.0 + (~flag & (known["y"] == 1)) * 3.0).sum()
    # the rest estimated: the EM's base rate with the known outcomes as probabilities 0 and 1, the
    # scores of the others moved to it, and their expected cost
    prior = estimate_prior(np.concatenate((later["p"], known["y"])), train_prior=0.3)
    moved = move_to_prior(later["p"].to_numpy(), prior, 0.3)
    expected = np.where(later["p"] >= 0.25, (1 - moved) * 1.0, moved * 3.0).sum()
    assert not row["measured"] and row["alert_basis"] == "estimated"
    assert row["labelled"] == len(known) and row["n"] == len(df)
    assert row["base_rate"] == pytest.approx((known["y"].sum() + moved.sum()) / len(df), abs=1e-9)
    assert row["cost_per_case"] == pytest.approx((spent + expected) / len(df), abs=1e-9)
    with pytest.raises(DataError, match="two outcomes"):
        odd = words.assign(y=words["y"].where(words.index != 1, "maybe"))  # a third kind of outcome
        watch_report(policy, odd, name="f", time="t", score="p", label="y", n_resamples=0)


def test_labels_are_read_as_the_loader_reads_them():
    from costlib.watch.report import labels_of

    def read(values, positive=None):
        return labels_of(pd.Series(values, dtype=object), "f", "y", positive=positive).tolist()

    nan = [math.nan]
    assert str(read(["1", "0", "NA", "null", " "])) == str([1.0, 0.0, *nan * 3])  # the Data page's missing tokens
    assert read([-1, 1], positive="1") == [0.0, 1.0]
    assert str(read([0.0, 1.0, math.nan], positive="0")) == str([1.0, 0.0, *nan])  # a float column with gaps
    assert read([" Default", "repaid"], positive="default") == [1.0, 0.0]
    assert read(["repaid"], positive="default") == [0.0]  # no defaults yet
    with pytest.raises(DataError, match="must hold 0 or 1"):
        read(["maybe"])


def test_a_case_without_a_group_is_in_the_missing_group_as_the_audit_reads_it():
    """A blank group cell is the group "(missing)" on every path (`loading.cells.group_codes`), as
    the audit that wrote the policy read it, so the case is watched, not refused."""
    from costlib.watch.report import watch_report

    df = _grouped_month(4, 20)
    df.loc[7, "g"] = None
    report = watch_report(_policy(), df, name="f", time="t", score="p", label="y", group="g", n_resamples=0)
    assert sum(p["n"] for p in report["periods"]) == len(df)


def test_the_policys_score_scale_and_review_limit_in_cases_a_month_are_read():
    from costlib.watch.report import watch_report

    df = _grouped_month(6, 400)
    logit = np.log(df["p"].clip(1e-6, 1 - 1e-6) / (1 - df["p"].clip(1e-6, 1 - 1e-6)))
    as_logit = df.assign(p=logit)
    on_logit = {**_policy(cut=0.4), "data": {"scale": "logit"}}
    (a,) = watch_report(on_logit, as_logit, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    (b,) = watch_report(
        _policy(cut=0.4),
        df.assign(p=df["p"].clip(1e-6, 1 - 1e-6)),
        name="f",
        time="t",
        score="p",
        label="y",
        n_resamples=0,
    )["periods"]
    assert a["cost_per_case"] == pytest.approx(b["cost_per_case"], abs=1e-12)  # the log-odds read as probabilities
    raw = {**_policy(cut=0.4), "data": {"scale": "raw"}}
    with pytest.raises(DataError, match="raw scores, not probabilities"):
        watch_report(raw, df.drop(columns="y"), name="f", time="t", score="p", n_resamples=0)
    two = pd.concat([df, df.iloc[:200].assign(t="2026-06-10")], ignore_index=True)  # 400 cases, then 200
    limited = {**_policy(cut=0.4), "capacity": {"max_flagged": 0.1, "cases_per_month": 40}}
    may, june = watch_report(limited, two, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    assert may["capacity"] == pytest.approx(0.1) and june["capacity"] == pytest.approx(0.2)  # 40 of 400, 40 of 200
    assert np.mean(two["p"][:400] >= may["best_threshold"]["everyone"]) <= 0.1 + 1e-9


def test_a_policy_for_everyone_needs_no_group_column_and_equal_cutoffs_alone_do_not_make_one():
    """One cutoff for cases without groups only from a policy for everyone (`PolicyCutoffs.one_cutoff`):
    a pooled cutoff every group has; equal cutoffs without one say nothing of a group never seen."""
    from costlib.watch.report import MSG_PRICES_PER_GROUP, watch_report

    df = _grouped_month(2, 200)
    same = {**_policy(cut=-math.inf), "thresholds": {"a": -math.inf, "b": -math.inf}, "pooled_cutoff": -math.inf}
    same["prices"] = {"a": (1.0, 3.0), "b": (1.0, 3.0)}
    (row,) = watch_report(same, df, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    assert row["flagged_share"] == 1.0 and row["cost_per_case"] == pytest.approx(float((df["y"] == 0).mean()))
    unpooled = {k: v for k, v in same.items() if k != "pooled_cutoff"}
    with pytest.raises(DataError, match="give each case's group"):
        watch_report(unpooled, df, name="f", time="t", score="p", label="y", n_resamples=0)
    differ = {**same, "prices": {"a": (1.0, 3.0), "b": (2.0, 3.0)}}
    with pytest.raises(DataError, match=re.escape(MSG_PRICES_PER_GROUP.format(groups='"a", "b"'))):
        watch_report(differ, df, name="f", time="t", score="p", label="y", n_resamples=0)


def test_a_policy_fitted_where_the_scores_were_not_calibrated_says_so_before_its_estimates():
    from costlib.answers.audit import build_audit
    from costlib.binary import decision as D
    from costlib.present.policy import load_policy, policy_json
    from costlib.present.watch_words import watch_verdict
    from costlib.watch.report import watch_report

    y, p = _shifted(0.3, 4000, 0.3, seed=32)  # (Hosmer-Lemeshow p = 0.82 here)
    cases = pd.DataFrame({"t": "2026-03-10", "p": np.round(_shifted(0.3, 1500, 0.3, seed=33)[1], 4)})
    for scores, calibrated in ((p, True), (p**2, False)):  # squared: every score too low, most of all the middle
        audit = build_audit(D.sweep_model(y, np.round(scores, 4)), (1, 3), n_resamples=0)
        policy = load_policy(policy_json(audit))
        report = watch_report(
            policy,
            cases.assign(p=cases["p"] ** (1 if calibrated else 2)),
            name="f",
            time="t",
            score="p",
            n_resamples=50,
        )
        assert report["reference"]["calibrated"] is calibrated
        said = " ".join(watch_verdict(report, unit="$").details)
        assert ("On the 4,000 rows the policy was fitted on, the scores did not match" in said) is not calibrated
