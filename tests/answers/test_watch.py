"""The Watch page's answer object: one call gives the periods judged and said as the page showed
them, the refit is made on request once per unit and cases a month, and a new unit rewords the
answer without resampling the periods again."""

from __future__ import annotations

import pandas as pd
import pytest
from counting_memo import Store

from costlib.answers.watch import (
    SAMPLE_COLUMNS,
    WatchAnswer,
    policy_unit,
    refit_inputs,
    sample_files,
    sample_inputs,
    sample_note,
    watch_answer,
)
from costlib.present.watch_figures import REFIT_TITLE, refit_figure
from costlib.present.watch_labels import SAMPLE_FILES_WHAT, SAMPLE_NOTE
from costlib.present.watch_tables import watch_group_table
from costlib.present.watch_words import watch_readings_table, watch_table, watch_verdict
from costlib.watch import sample
from costlib.watch.report import watch_report

RESAMPLES = 200


@pytest.fixture(scope="module")
def year():
    return sample_inputs()


def _answer(year, **kw) -> WatchAnswer:
    policy, df = year
    options = {"name": "the built-in year", "columns": dict(SAMPLE_COLUMNS), "freq": "M", "unit": "$"} | kw
    return watch_answer(policy, df, n_resamples=RESAMPLES, **options)


def test_the_answer_is_what_the_page_said_with_the_functions_one_by_one(year):
    policy, df = year
    answer = _answer(year)
    report = watch_report(policy, df, name="the built-in year", n_resamples=RESAMPLES, **SAMPLE_COLUMNS)
    assert answer.verdict.headline == watch_verdict(report, unit="$").headline
    assert answer.verdict.headline.startswith("Refit: since 2026-07")
    pd.testing.assert_frame_equal(answer.table, watch_table(report, "$"))
    pd.testing.assert_frame_equal(answer.readings, watch_readings_table(report, "$"))
    assert (answer.groups is None) == (watch_group_table(report, "$") is None)
    assert answer.refit_offered  # months alert and months have their outcomes


def test_the_refit_is_made_on_request_once_per_unit_and_volume(year):
    policy, df = year
    store = Store()
    answer = _answer(year, remember=store)
    assert store.made == ["watch_report"]  # nothing of the refit until asked
    refit = answer.refit(1000.0)
    assert answer.refit(1000.0) is refit and store.made == ["watch_report", "watch_refit"]
    answer.refit(None)
    assert store.made == ["watch_report", "watch_refit", "watch_refit"]
    want = refit_inputs(
        policy, df, name="the built-in year", columns=dict(SAMPLE_COLUMNS), report=answer.report, volume=1000.0,
        unit="$", n_resamples=RESAMPLES,
    )  # fmt: skip
    assert refit.span == want.span == "2026-07 to 2026-09" and refit.sentence == want.sentence
    fig = answer.refit_figure(refit)
    drawn = refit_figure(want.curves, want.shipped, want.judged, unit=policy_unit(policy, "$"))
    assert [t.name for t in fig.data] == [t.name for t in drawn.data]
    assert fig.layout.title.text == REFIT_TITLE  # its words' expander names it, not "A chart"
    assert refit.dataset(b"k").fingerprint == refit.dataset(b"k").fingerprint != refit.dataset(b"j").fingerprint


def test_a_new_unit_rewords_without_resampling_the_periods(year):
    policy, df = year
    unpriced = {**policy, "unit": ""}  # amounts are said in the page's unit only when the policy has none
    store = Store()
    first = _answer((unpriced, df), remember=store)
    again = _answer((unpriced, df), unit="EUR", remember=store)
    assert store.made == ["watch_report"]
    assert again.report is first.report
    assert "EUR" in again.verdict.headline and "EUR" not in first.verdict.headline


def test_the_built_in_year_is_said_with_its_files(year):
    files = sample_files()
    assert (files.cases_name, files.policy_name) == (sample.CASES_FILE, sample.POLICY_FILE)
    assert files.what == SAMPLE_FILES_WHAT.format(
        cases=sample.CASES_FILE, policy=sample.POLICY_FILE, command=files.command
    )
    assert sample_note() == SAMPLE_NOTE.format(title=sample.TITLE)
