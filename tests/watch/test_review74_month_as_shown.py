"""Review 74: Watch on the built-in year said "cost about $0.086 per case more ($858 a month at your 10,000
cases a month)": the month was of $0.0858, not of the $0.086 the sentence shows, and a reader who multiplies
finds it wrong (the house rule, `amounts.month_figure`). `watch_labels.month_at` reads the amount as shown."""

from __future__ import annotations

import re

import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs
from costlib.present.watch_labels import month_at
from costlib.present.watch_words import watch_verdict
from costlib.watch.report import watch_report


@pytest.fixture(scope="module")
def report():
    policy, df = sample_inputs()
    return watch_report(policy, df, name="the built-in year", n_resamples=100, **SAMPLE_COLUMNS)


@pytest.mark.parametrize("volume", [10_000, 12_345])
def test_the_headlines_month_is_its_amount_per_case_as_shown(report, volume):
    headline = watch_verdict(report, unit="$", volume=volume).headline
    per_case, month = re.search(r"about \$([0-9.]+) per case more \(\$([0-9,]+) a month at your", headline).groups()
    assert int(month.replace(",", "")) == round(float(per_case) * volume), headline


def test_month_at_reads_the_amount_as_money_shows_it():
    assert month_at(0.0858, [], "month", "$", 10_000) == " ($860 a month at your 10,000 cases a month)"
    assert month_at(0.0858, [{"n": 1000}], "week", "$") == " ($86.00 a week in the file's 1,000 cases a week)"
