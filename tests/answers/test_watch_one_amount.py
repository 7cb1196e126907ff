"""A first-time product manager on the Watch page's built-in year, read by weeks: the headline said "the shipped
cutoff has cost about $0.082 per case more ($824 a month ...)" and the paragraph under it "moving the cutoff to
each week's estimated share of positive cases is estimated to save about $0.085 per case ($850 a month ...)", two
near-equal savings of mostly the same weeks (15 of the 16 estimated weeks are in the headline's run). An answer
with an alert says one amount, the headline's; the estimated periods' saving is said only where no alert is."""

from __future__ import annotations

import re

import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs, watch_answer
from costlib.present.watch_words import alert_since

RESAMPLES = 200


@pytest.fixture(scope="module")
def weeks():
    policy, df = sample_inputs()
    options = {"name": "the built-in year", "columns": dict(SAMPLE_COLUMNS), "freq": "W", "unit": "$"}
    return watch_answer(policy, df, n_resamples=RESAMPLES, **options)


def test_an_alerts_answer_says_one_amount_by_weeks_too(weeks):
    verdict = weeks.verdict_for(None, 10_000)
    periods = weeks.report["periods"]
    since = alert_since(periods)
    estimated = [p for p in periods if not p["measured"]]
    assert since and estimated and any(p not in since for p in estimated)  # the case HEAD said a second amount for
    assert verdict.headline.startswith("Refit: since week of 2026-07-13 the shipped cutoff has cost about $0.0")
    said = " ".join(verdict.details)
    assert "estimated to save about" not in said and "estimated to cost about" not in said, said
    amounts = re.findall(r"\$0\.\d+ per case", " ".join((verdict.headline, *verdict.details)))
    assert len(amounts) == 2, amounts  # the run's amount and its first week's, both in the headline


def test_without_an_alert_the_estimated_periods_saving_is_still_said(weeks):
    from costlib.present.watch_words import watch_verdict

    report = dict(weeks.report)
    report["periods"] = [{**p, "alert": False} for p in weeks.report["periods"]]
    verdict = watch_verdict(report, unit="$", volume=10_000)
    assert verdict.headline.startswith("Keep the cutoff for now")
    assert any("estimated to save about $0.0" in d for d in verdict.details), verdict.details
