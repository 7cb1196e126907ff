"""Review 57's Watch findings: the groups' table counts what its sentence says (item 5), the
periods offered are the ones a watch can judge (item 17), and "since" names the first alert of
the drift by one rule for months, weeks and days (item 1)."""

from __future__ import annotations

import pytest

from costlib import answers
from costlib.answers.watch import shipped_policy
from costlib.present.watch_periods import period_choice
from costlib.present.watch_tables import GROUPS_WHAT, how_measured
from costlib.present.watch_words import cases_judged, watch_verdict
from costlib.watch.periods import MAX_PERIODS, period_counts
from costlib.watch.report import watch_report
from costlib.watch.sample import watch_year


@pytest.fixture(scope="module")
def months():
    return watch_report(shipped_policy(), watch_year(), name="year", n_resamples=50, **answers.SAMPLE_COLUMNS)


def test_the_groups_count_the_cases_the_sentence_says(months):
    partly = [p for p in months["periods"] if 0 < p["labelled"] < p["n"]]
    assert partly, "the sample has a month with only some outcomes in"
    for p in months["periods"]:
        counted = sum(x["n"] for x in p["groups"].values())
        assert counted == cases_judged(p)  # all the cases where the cost is estimated, else those with outcomes
    p = partly[0]
    assert sum(x["n"] for x in p["groups"].values()) == p["n"] and how_measured(p) == "63% measured"
    assert "those with outcomes, where there are any" not in GROUPS_WHAT  # item 5: that was not what it counted
    assert 'counts all its cases where the rest is estimated from the scores ("63% measured" above)' in GROUPS_WHAT


def test_only_the_periods_a_watch_can_judge_are_offered_and_the_others_are_named_once():
    counts = period_counts(watch_year()["decided"])
    assert counts["D"] > MAX_PERIODS >= counts["W"]
    offered, why = period_choice(counts)
    assert offered == ["M", "W"]
    assert why == (
        f"Not offered for these cases: days (the dates span {counts['D']} days with cases, and Watch judges at "
        f"most {MAX_PERIODS} periods at once)."
    )
    assert period_choice({"M": 3, "W": 12, "D": 80}) == (["M", "W", "D"], "")
    assert period_choice({}) == (["M", "W", "D"], "")  # dates that cannot be read: the watch says why
    assert period_counts(["2026-01-01", "not a date"]) == {}


def _period(name, regret, alert, measured=True, n=300):
    iv = [regret / 2, regret * 2] if alert else [-0.05, regret + 0.05]
    return {"period": name, "n": n, "labelled": n * measured, "alert": alert, "measured": measured,
            "regret_per_case": regret, "regret_interval": iv, "base_rate": 0.1}  # fmt: skip


def test_a_week_within_the_noise_that_still_costs_more_does_not_hide_the_measured_alert_before_it():
    weeks = [
        _period("2026-06-22/2026-06-28", -0.02, False),  # costs no more than its own best: no drift yet
        _period("2026-06-29/2026-07-05", 0.08, False),
        _period("2026-07-13/2026-07-19", 0.1, True),  # the first alert, measured
        _period("2026-07-20/2026-07-26", 0.09, False),  # costs more, within the noise of a week's cases
        _period("2026-07-27/2026-08-02", 0.1, True),
        _period("2026-08-03/2026-08-09", 0.1, True, measured=False),
        _period("2026-08-10/2026-08-16", 0.08, False, measured=False, n=50),  # a short last week
    ]
    report = {"freq": "W", "policy": {"cutoffs": {"everyone": 0.25}, "base_rate": 0.3}, "periods": weeks}
    head = watch_verdict(report, unit="$").headline
    assert head.startswith(
        "Refit: since week of 2026-07-13 the shipped cutoff has cost about $0.098 per case more ($29.40 a week in "
        "the file's 300 cases a week)"
    )  # (0.1 + 0.09 + 0.1 + 0.1) x 300 / 4
    assert "2 of the 3 weeks after it alert too, and the others cost more within the noise" in head
    assert "the latest week (week of 2026-08-10) is within the noise again" in head
    assert "measured on outcomes to week of 2026-07-27, estimated from the scores from week of 2026-08-03" in head
    months = {**report, "freq": "M", "periods": [_period("2026-06", -0.01, False), _period("2026-07", 0.1, True)]}
    assert watch_verdict(months, unit="$").headline.startswith("Refit: since 2026-07")


def test_the_readings_period_column_is_wide_enough_for_a_weeks_name():
    from costlib.present.watch_tables import period_label
    from costlib.present.watch_words import READINGS_NARROW

    longest = period_label("2026-12-28/2027-01-03")  # "week of 2026-12-28": cut at 75 px on the weekly page
    assert READINGS_NARROW["period"]["width"] >= 7 * len(longest)  # about 7 px a character at the table's size


def test_the_refit_on_weeks_names_its_weeks_as_people_read_them():
    """Review 57: "outcomes of 2026-08-31/2026-09-06 to 2026-09-14/2026-09-20" (pandas' names)."""
    from costlib.answers.watch import refit_inputs

    year = watch_year()
    weeks = watch_report(shipped_policy(), year, name="year", freq="W", n_resamples=0, **answers.SAMPLE_COLUMNS)
    refit = refit_inputs(shipped_policy(), year, name="year", columns=answers.SAMPLE_COLUMNS, report=weeks)
    assert refit.span.startswith("week of 20") and " to week of 20" in refit.span, refit.span
    assert "/" not in refit.span and "/" not in refit.sentence.split(" of year")[0]
