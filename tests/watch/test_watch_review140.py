"""Review 140 (first-time user on Watch): one volume a month, named in the headline; a month too small to
judge left off the chart and its cost "–"; a month where refitting would not have helped said so in plain
words; a date column with a few bad rows named at once; no "p 0.090" in the readings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.answers.watch import guess_columns
from costlib.core.errors import DataError
from costlib.present.watch_figures import PERIOD_SHIPPED, periods_figure
from costlib.present.watch_words import NO_HELP, SAVES, period_saving, scores_check, watch_table, watch_verdict
from costlib.watch.estimate import FAILS, HOLDS
from costlib.watch.periods import mostly_dates
from costlib.watch.report import watch_report
from tests.watch.test_watch_contract import _policy
from tests.watch.test_watch_hostile import _month


@pytest.fixture(scope="module")
def small_last_month():
    rng = np.random.default_rng(3)
    df = pd.concat([_month(rng, "2026-01", 400, 0.3), _month(rng, "2026-02", 4, 0.3)], ignore_index=True)
    return watch_report(_policy(), df, name="f", time="t", score="p", label="y", n_resamples=100)


def test_a_month_too_small_to_judge_is_a_gap_in_the_chart_and_a_dash_in_the_table(small_last_month):
    jan, feb = small_last_month["periods"]
    assert feb["too_few"] and feb["cost_per_case"] is not None  # its few cases' cost is known, and not judged
    (line,) = [t for t in periods_figure(small_last_month, unit="$").data if t.name == PERIOD_SHIPPED]
    assert line.y[0] == pytest.approx(jan["cost_per_case"]) and line.y[1] is None  # a gap, never a drop to $0
    table = watch_table(small_last_month, "$")
    assert table["cost per case"].tolist()[1] == "–"
    assert table[SAVES].tolist()[1] == "too few cases to judge: 4"


def test_a_month_where_refitting_costs_more_says_it_would_not_have_helped():
    def p(regret):
        return {"regret_per_case": regret, "regret_interval": (regret - 0.1, regret + 0.1)}

    assert period_saving(p(-0.171), "$") == "would not have helped ($0.171 more)"
    assert period_saving(p(0.0), "$") == NO_HELP
    assert period_saving(p(0.129), "$").startswith("saves $0.13 (")  # at its interval's decimals


def test_the_scores_check_says_a_chance_not_a_p_value():
    assert scores_check({"measured": False, "assumption": HOLDS, "assumption_p_value": 0.09}) == ("yes (by chance: 9%)")
    said = scores_check({"measured": False, "assumption": FAILS, "assumption_p_value": 0.0002})
    assert said == "no (by chance: below 0.1%): check the model" and "p " not in said


def test_the_headline_names_the_volume_its_amount_a_month_is_at():
    def period(name, regret, n=1000):
        return {"period": name, "n": n, "labelled": n, "measured": True, "alert": True, "too_few": False,
                "regret_per_case": regret, "regret_interval": (regret / 2, regret * 2), "no_model": None}  # fmt: skip

    report = {"freq": "M", "policy": {"cutoffs": {"everyone": 0.25}, "volume": 1500}, "periods": []}
    report["periods"] = [period("2026-07", 0.1), period("2026-08", 0.1)]
    page = watch_verdict(report, unit="$", volume=10000).headline
    assert "about $0.100 per case more ($1,000 a month at your 10,000 cases a month)" in page  # 0.1 x 10,000
    cli = watch_verdict(report, unit="$").headline  # no sidebar: the policy's cases a month, as its ship line
    assert "about $0.100 per case more ($150 a month at the policy's 1,500 cases a month)" in cli
    assert "2026-07: $0.10 per case more, 95% interval $0.05 to $0.20" in page  # per case, as the amount


def test_a_date_column_with_a_few_bad_rows_is_taken_and_refused_naming_the_row_at_once():
    dates = [f"2026-01-{d:02d}" for d in range(1, 31)]
    dates[10] = "yesterday"  # the file's row 12 (row 1: the header)
    df = pd.DataFrame({"label": [0, 1] * 15, "score": np.linspace(0.05, 0.95, 30), "date": dates})
    assert mostly_dates(df["date"]) and not mostly_dates(pd.Series(["north", "south", "2026-01-01"]))
    guess = guess_columns(df)
    assert guess["time"] == "date"
    with pytest.raises(DataError) as err:
        watch_report(_policy(), df, name="baddate.csv", time="date", score="score", label="label")
    assert str(err.value.message).startswith(
        'In "baddate.csv", column "date": row 12 holds \'yesterday\', which is not a date'
    )
    words = pd.DataFrame({"label": [0, 1] * 15, "score": np.linspace(0.05, 0.95, 30), "date": ["soon"] * 30})
    assert guess_columns(words)["time"] is None  # no dates at all: not taken, and the page asks for one


def test_the_scores_check_heading_says_what_its_percentage_means():
    """A first-time user read "yes (by chance: 9%)" with no way to tell whether 9% is good or bad: the
    heading's hover says it, with the level the check uses (`reference.SHIFT_LEVEL`)."""
    from costlib.answers.watch import WatchAnswer
    from costlib.present.watch_words import FITS
    from costlib.watch.reference import SHIFT_LEVEL

    said = WatchAnswer.readings_columns[FITS]["help"]
    assert f"below {SHIFT_LEVEL:.0%} reads no" in said and "how often chance alone" in said


def test_a_chance_just_below_the_level_never_reads_as_the_level():
    """A last read: p = 0.0097 read "no (by chance: 1.0%)" beside a heading that says 1% or more reads yes."""
    said = scores_check({"measured": False, "assumption": FAILS, "assumption_p_value": 0.0097})
    assert said == "no (by chance: 0.9%): check the model", said
