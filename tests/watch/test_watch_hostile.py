"""Issue 45 (hostile input, round four) on Watch: months of one class of outcome, months too
small to judge, dates read by one rule, and a bound on the number of periods."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.answers.watch import guess_columns
from costlib.core.errors import DataError
from costlib.present.watch_words import SAVES, watch_table, watch_verdict
from costlib.watch.alerts import judge_period
from costlib.watch.periods import MAX_PERIODS, as_periods, read_dates
from costlib.watch.report import MIN_PERIOD_CASES, watch_report
from tests.watch.test_watch_contract import _policy


def _month(rng, month: str, n: int, prior: float) -> pd.DataFrame:
    y = (rng.random(n) < prior).astype(int)
    x = rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
    p = 1 / (1 + np.exp(-(2 * x + np.log(0.3 / 0.7))))
    return pd.DataFrame({"t": f"{month}-15", "p": p.round(4), "y": y})


# ---------------------------------------------------------------------------------------
# 1. A month whose outcomes are all of one class


def test_a_month_of_negatives_only_alerts_when_the_cutoff_costs_more_than_flagging_nobody():
    rng = np.random.default_rng(0)
    normal = _month(rng, "2026-01", 1000, 0.3)
    negatives = pd.DataFrame({"t": "2026-02-10", "p": rng.random(1000).round(4), "y": 0})
    report = watch_report(
        _policy(), pd.concat([normal, negatives]), name="f", time="t", score="p", label="y", n_resamples=300
    )
    jan, feb = report["periods"]
    flagged = float((negatives["p"] >= 0.25).mean())  # every flag is a false alarm at $1: flagging nobody costs $0
    assert feb["cost_per_case"] == pytest.approx(flagged) and feb["flagged_share"] == pytest.approx(flagged)
    assert feb["no_model"] == "flag nobody" and feb["best_threshold"] == {"everyone": None}
    assert feb["regret_per_case"] == pytest.approx(flagged)  # shipped minus $0
    low, high = feb["regret_interval"]
    assert 0 < low < flagged < high and feb["alert"]
    assert jan["no_model"] is None  # a month of both classes is judged against its refit, as before
    verdict = watch_verdict(report, unit="$")
    assert not verdict.headline.startswith("Keep") and verdict.kind == "error"
    assert "2026-02: every outcome is negative" in verdict.headline and "flagging nobody" in verdict.headline


def test_a_month_of_positives_only_is_judged_against_flagging_everyone_and_the_right_choice_does_not_alert():
    rng = np.random.default_rng(1)
    scores = rng.random(500).round(4)
    y = np.ones(500, dtype=int)
    j = judge_period(y, scores, np.full(500, "a", dtype=object), costs={"a": (1, 3)}, cutoffs={"a": 0.25})
    missed = float((scores < 0.25).mean())  # each positive not flagged costs $3; flagging everyone costs $0
    assert j.no_model == "flag everyone" and j.best == {"a": -np.inf}
    assert j.regret == pytest.approx(3 * missed) and j.low > 0 and j.alert
    fine = judge_period(y, scores, np.full(500, "a", dtype=object), costs={"a": (1, 3)}, cutoffs={"a": -np.inf})
    assert fine.no_model == "flag everyone" and fine.regret == 0 and not fine.alert
    one_positive = np.zeros(500, dtype=int)
    one_positive[0] = 1  # two classes, but no fold of the cross-fit has both: no honest refit
    nearly = judge_period(
        one_positive, scores, np.full(500, "a", dtype=object), costs={"a": (1, 3)}, cutoffs={"a": 0.25}
    )
    assert nearly.no_model == "flag nobody" and nearly.alert


# ---------------------------------------------------------------------------------------
# 2. A month too small to judge


def test_a_one_case_month_says_it_has_too_few_cases_and_claims_nothing():
    rng = np.random.default_rng(2)
    months = [_month(rng, "2026-01", 1000, 0.3), _month(rng, "2026-02", 1, 0.3)]
    report = watch_report(_policy(), pd.concat(months), name="f", time="t", score="p", label="y", n_resamples=200)
    jan, feb = report["periods"]
    assert not jan["too_few"] and feb["too_few"] and MIN_PERIOD_CASES == 20
    assert feb["regret_per_case"] is None and feb["regret_interval"] == [None, None] and not feb["alert"]
    assert feb["best_threshold"] == {}
    assert watch_table(report, "$")[SAVES].tolist()[1] == "too few cases to judge: 1"
    assert watch_verdict(report, unit="$").headline.endswith("2026-02: too few cases to judge: 1.")


def test_the_latest_month_too_small_to_judge_is_not_within_the_noise_again():
    def period(name, alert, n=1000, too_few=False):
        iv = [None, None] if too_few else [0.01, 0.05] if alert else [-0.01, 0.02]
        reg = None if too_few else 0.03
        return {"period": name, "n": n, "labelled": n, "alert": alert, "measured": True, "too_few": too_few,
                "regret_per_case": reg, "regret_interval": iv}  # fmt: skip

    report = {"freq": "M", "policy": {"cutoffs": {"everyone": 0.25}}, "periods": [period("2026-01", True)]}
    report["periods"].append(period("2026-02", False, n=1, too_few=True))
    headline = watch_verdict(report, unit="$").headline
    assert "within the noise again" not in headline and headline.startswith("Refit: since 2026-01")
    assert headline.endswith("2026-02: too few cases to judge: 1.")
    only = {**report, "periods": [period("2026-01", False, n=3, too_few=True)]}
    verdict = watch_verdict(only, unit="$")
    assert not verdict.headline.startswith("Keep") and "too few cases to judge: 3" in verdict.headline


# ---------------------------------------------------------------------------------------
# 3. Dates by one rule


def test_day_first_dates_are_read_day_first_when_a_day_above_12_proves_it():
    t = ["13/01/2026", "05/02/2026", "01/03/2026 09:30"]  # 13 can only be a day: every date is day first
    assert as_periods(t, "M", 3).astype(str).tolist() == ["2026-01", "2026-02", "2026-03"]
    assert as_periods(["01/13/2026", "02/05/2026"], "M", 2).astype(str).tolist() == ["2026-01", "2026-02"]


@pytest.mark.parametrize(
    "cells, words",
    [
        (["03/04/2026", "05/06/2026"], "row 2 holds '03/04/2026', and no date has a day or a month above 12"),
        (["13/04/2026", "04/13/2026"], "row 2 holds '13/04/2026' (day first) but other rows put the month first"),
        (["2026-01-02", "2026-13-45"], "row 3 holds '2026-13-45', which is not a date"),
        (["2026-01-02", "yesterday"], "row 3 holds 'yesterday', which is not a date"),
    ],
)
def test_dates_that_cannot_be_read_by_the_one_rule_get_one_sentence_of_ours(cells, words):
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"t": cells, "p": rng.random(len(cells)), "y": [0, 1][: len(cells)]})
    with pytest.raises(DataError) as err:
        watch_report(_policy(), df, name="f.csv", time="t", score="p", label="y", n_resamples=0)
    message = str(err.value)
    assert message.startswith('In "f.csv", column "t": ') and words in message, message
    assert "YYYY-MM-DD" in message and "\n" not in message and "format" not in message  # not pandas' advice


def test_one_row_with_another_utc_offset_moves_no_case_to_another_month():
    # 00:30 on 1 April at +01:00 is 23:30 on 31 March in UTC: every stamp with an offset is read in UTC,
    # whether or not one row (the clocks went forward) has another offset
    same = ["2026-04-01T00:30:00+01:00"] * 199
    alone = as_periods(same, "M", 199).astype(str)
    mixed = as_periods([*same, "2026-04-01T01:30:00+02:00"], "M", 200).astype(str)
    assert set(alone) == {"2026-03"} and set(mixed) == {"2026-03"}
    aware = pd.Series(pd.to_datetime(same)).dt.tz_convert("Europe/Paris").to_numpy()  # timestamps, not text
    assert set(as_periods(aware, "M", 199).astype(str)) == {"2026-03"}
    assert read_dates(["2026-03-31 23:30"]).astype(str).tolist() == ["2026-03-31 23:30:00"]  # no offset: as it is
    zoned = pd.DataFrame({"t": pd.Series(pd.to_datetime(same)).dt.tz_convert("Europe/Paris"), "p": 0.5, "y": 0})
    report = watch_report(_policy(), zoned, name="f", time="t", score="p", label="y", n_resamples=0)
    assert [p["period"] for p in report["periods"]] == ["2026-03"]  # a zoned column (Parquet): in UTC too


def test_the_date_column_is_guessed_with_mixed_offsets_and_day_first_dates():
    df = pd.DataFrame(
        {"decided": ["2026-03-28T10:00:00+01:00", "2026-03-30T10:00:00+02:00"], "p": [0.1, 0.7], "y": [0, 1]}
    )
    assert guess_columns(df)["time"] == "decided"
    ambiguous = pd.DataFrame({"decided": ["03/04/2026", "05/06/2026"], "p": [0.1, 0.7], "y": [0, 1]})
    assert guess_columns(ambiguous)["time"] == "decided"  # chosen, so that Watch says why it refuses it


# ---------------------------------------------------------------------------------------
# 4. A bound on the number of periods


def test_more_periods_than_the_bound_are_refused_before_any_is_judged():
    days = pd.date_range("2026-01-01", periods=MAX_PERIODS + 1, freq="D").strftime("%Y-%m-%d")
    df = pd.DataFrame({"t": np.repeat(days, 2), "p": 0.5, "y": np.tile([0, 1], days.size)})
    with pytest.raises(DataError) as err:
        watch_report(_policy(), df, name="f.csv", time="t", score="p", label="y", freq="D")
    assert str(err.value) == (
        f'In "f.csv", column "t", the dates span {MAX_PERIODS + 1} days with cases, and Watch judges at most '
        f"{MAX_PERIODS} periods at once: choose a coarser period (weeks or months instead of days) or give a "
        "shorter span of dates."
    )
    report = watch_report(_policy(), df, name="f.csv", time="t", score="p", label="y", freq="W", n_resamples=0)
    assert len(report["periods"]) == 18  # the same dates in weeks
