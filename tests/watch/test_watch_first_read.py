"""Watch as a first-time reader meets it (review 56, items 12, 15 and 16): whose "a month" the
monthly amounts are, a period whose own best would cost more said as such (never "saves −$"),
the command line cut only between its arguments, no brackets inside brackets, and the refit
chart's axis in the unit."""

from __future__ import annotations

import re
import shlex
from types import SimpleNamespace

import numpy as np
import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_files, sample_inputs, ship_choice, what_to_ship
from costlib.cli.watch import _print_text
from costlib.core.prices import prices_for
from costlib.present.amounts import a_month, beside_interval, money, month_money, percent
from costlib.present.labels import VOLUME_LABEL
from costlib.present.watch_labels import policy_settings_words, refit_what, shell_lines
from costlib.present.watch_tables import how_measured
from costlib.present.watch_words import (
    CHOICE_KEEP,
    CHOICE_REFIT,
    NO_HELP,
    SAVES,
    as_saving,
    refit_saving,
    saving_said,
    ship_words,
    watch_table,
)
from costlib.watch.report import watch_report


def _period(name, regret, low, high, *, labelled=1000):
    """A measured period of a watch report, as `watch_report` writes it, with what the table reads."""
    return {
        "period": name, "n": 1000, "labelled": labelled, "measured": True, "alert": False, "too_few": False,
        "cost_per_case": 0.25, "flagged_share": 0.4, "capacity": None, "base_rate": 0.3,
        "best_threshold": {"everyone": 0.3}, "regret_per_case": regret, "regret_interval": [low, high],
    }  # fmt: skip


@pytest.fixture(scope="module")
def year():
    """The built-in year, its policy and its report (fewer resamples than the page: the words are read,
    not the intervals' widths)."""
    policy, df = sample_inputs()
    report = watch_report(policy, df, name="the built-in year", n_resamples=100, **SAMPLE_COLUMNS)
    report["policy"]["file"] = "watch_year_policy.json"  # as `costlib watch` names it
    return policy, df, report


# ---------------------------------------------------------------------------------------
# Item 15: a period whose own best would cost more than the shipped cutoff


def test_a_negative_saving_is_said_as_a_cost_more_with_the_interval_turned():
    # own best cross-fitted costs 0.0054 more: the saving's interval (-0.05, 0.0092) is the cost's (-0.0092, 0.05)
    assert as_saving(-0.0054, -0.05, 0.0092) == (False, 0.0054, -0.0092, 0.05)
    assert as_saving(0.0058, -0.045, 0.016) == (True, 0.0058, -0.045, 0.016)
    table = watch_table(
        {"periods": [_period("2026-01", 0.0058, -0.045, 0.016), _period("2026-02", -0.0054, -0.05, 0.0092)]}, "$"
    )
    # a period where refitting costs more is said in plain words: it would not have helped (review 140)
    # at the decimals the interval's width warrants (`amounts.beside_interval`'s `by_width`)
    assert table[SAVES].tolist() == ["saves $0.006 (−$0.045 to $0.016)", f"{NO_HELP} ($0.0054 more)"]
    assert saving_said(-0.0054, -0.05, 0.0092, "$", line=True) == (
        "would cost $0.005 more per case (95% interval −$0.009 to $0.050)"
    )
    assert saving_said(None, None, None, "$") == "–" and saving_said(0.1, None, None, "$", line=True) == (
        "would save $0.100 per case"
    )


def test_the_periods_table_and_the_command_line_never_say_saves_minus(year, capsys):
    policy, _, report = year
    negative = [p for p in report["periods"] if p["regret_per_case"] is not None and p["regret_per_case"] < 0]
    assert negative  # the built-in year's stable months: their own best, cross-fitted, costs a little more
    cells = dict(zip(watch_table(report, "$")["period"], watch_table(report, "$")[SAVES], strict=True))
    _print_text(report, policy)
    out = capsys.readouterr().out
    for p in negative:
        low, high = p["regret_interval"]
        amount = money(-p["regret_per_case"], "$")
        d = beside_interval(-p["regret_per_case"], -high, -low)
        ends = (money(-high, "$", digits=d), money(-low, "$", digits=d))  # at the amount's decimals
        assert cells[p["period"]] == f"{NO_HELP} ({amount} more)"
        line = next(x for x in out.splitlines() if x.strip().startswith(p["period"] + ":"))
        said = money(-p["regret_per_case"], "$", digits=d)  # beside its interval: at the interval's decimals
        assert f"its own best cutoff would cost {said} more per case (95% interval {ends[0]} to " in line
    assert "save −" not in out and not any(c.startswith("−") for c in cells.values())


def test_a_refit_that_costs_more_turns_its_interval_too():
    judged = SimpleNamespace(regret=-0.0054, low=-0.05, high=0.0092, no_model=None)
    # $0.005 as shown x 1,500 = $7.50 a month, to the dollar (a step of $0.001 a case is $1.50): $8 (`month_figure`)
    said = refit_saving(judged, unit="$", volume=1500)
    # at the decimals the interval's width warrants (`amounts.beside_interval`'s `by_width`)
    assert said.startswith("Refitting on them costs $0.005 per case ($8 a month) more than keeping the shipped")
    assert "(95% interval of how much more −$0.009 to $0.050 per case)" in said
    refit = SimpleNamespace(judged=judged, frame=range(3000), span="2026-07 to 2026-09")
    choice = SimpleNamespace(
        kind=CHOICE_KEEP, alternative=CHOICE_REFIT, alternative_cutoffs={"everyone": 0.6}, refit=refit
    )
    (line,) = ship_words(choice, unit="$", volume=1500)
    assert "−$" not in line.split("(95%")[0] and "costs $0.005 per case ($8 a month) more than keeping" in line


# ---------------------------------------------------------------------------------------
# Item 12: whose "a month"


def test_what_to_ship_says_a_month_at_the_sidebars_volume_as_the_headline_does(year):
    # review 140: one volume per page, the person's own (the sidebar's), named in the headline; the command
    # line, without a sidebar, says once that its month is the policy's
    policy, df, report = year
    from costlib.answers.watch import refit_inputs

    refit = refit_inputs(
        policy, df, name="the built-in year", columns=SAMPLE_COLUMNS, report=report, volume=10000, n_resamples=100
    )
    month = policy["volume"]
    assert month != 10000
    page = what_to_ship(report, policy, refit, unit="$", volume=10000)
    assert ship_choice(report, refit).kind == CHOICE_REFIT
    j = refit.judged  # a month as the saving per case reads beside its interval (`amounts.a_month`, `month_figure`)
    d = beside_interval(j.regret, j.low, j.high)
    assert a_month(j.regret, 10000, "$", digits=d, beside=(j.low, j.high)) in page[0]
    assert month_money(j.regret * 10000, "$") != month_money(round(j.regret, d) * 10000, "$")  # the case moves
    said = f"A month here is {month:,} cases, the policy's cases a month"
    assert not any(said in line or "not your" in line for line in page)  # one volume: nothing to set apart
    cli = what_to_ship(report, policy, refit, unit="$")  # the command line has no sidebar: the policy's month
    assert said in cli[0] and "not your" not in cli[0]
    assert a_month(j.regret, month, "$", digits=d, beside=(j.low, j.high)) in cli[0]
    own = what_to_ship(report, {**policy, "volume": None}, refit, unit="$", volume=10000)  # a month is yours
    assert (
        "A month here" not in " ".join(own)
        and a_month(j.regret, 10000, "$", digits=d, beside=(j.low, j.high)) in own[0]
    )


def test_a_volume_of_zero_says_no_amount_a_month_as_what_to_ship_does(year):
    """Review of 140: the sidebar allows 0 cases a month, and the headline said '$0 a month at your 0 cases a
    month' where what to ship says no month. `month_at` is built on `amounts.a_month`: nothing at 0."""
    from costlib.present.watch_labels import month_at
    from costlib.present.watch_words import watch_verdict

    _, _, report = year
    at_zero = watch_verdict(report, unit="$", volume=0)
    assert "a month" not in at_zero.headline and "()" not in at_zero.headline, at_zero.headline
    assert " per case more than each month's own best cutoff" in at_zero.headline, at_zero.headline
    assert not any("0 cases a month" in d for d in at_zero.details)
    assert month_at(0.086, [], "month", "$", 0) == "" and month_at(0.086, [], "month", "$", -5) == ""
    at_yours = watch_verdict(report, unit="$", volume=10_000).headline
    assert " per case more ($8" in at_yours and " a month at your 10,000 cases a month) than" in at_yours


def test_the_refit_button_says_before_the_click_which_settings_take_the_place_of_yours():
    policy = {"volume": 1500, "unit_given": True}
    said = refit_what(policy, 10000)
    assert "at the policy's prices, unit, review limit and 1,500 cases a month (in place of yours)" in said
    assert f"the sidebar's {VOLUME_LABEL} becomes 1,500, from your 10,000" in said
    assert "becomes" not in refit_what(policy, 1500)  # the same volume: no change to say
    assert policy_settings_words({"unit_given": False}) == "the policy's prices and review limit (in place of yours)"


def test_settings_the_same_as_yours_are_not_said_to_take_their_place():
    """Review 72: "at the policy's prices, … (in place of yours)" stood right before "This button changes
    none of your settings: the policy's are the same as yours."."""
    policy = {"volume": 1500, "unit_given": True}
    said = refit_what(policy, 1500, listed=True, same=True)
    assert "in place of yours" not in said
    assert "at the policy's prices, unit, review limit and 1,500 cases a month: there" in said
    assert "(in place of yours)" in refit_what(policy, 10000, listed=True)


# ---------------------------------------------------------------------------------------
# Item 16: the command, the brackets, the axis


def test_the_command_is_cut_only_between_its_arguments_and_reads_the_same_to_a_shell():
    files = sample_files()
    shown = files.shell
    lines = shown.splitlines()
    assert len(lines) > 1 and all(len(line) <= 76 for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1])
    assert shlex.split(shown.replace(" \\\n", " ")) == shlex.split(files.command)
    for line in lines:  # each flag beside its value, never cut inside ("--" / "allow-unsigned")
        words = line.rstrip(" \\").split()
        assert not words[-1].startswith("--") or words[-1] == "--allow-unsigned" or line is lines[-1]
    assert "--resamples 500" in shown and "--allow-unsigned" in lines[-1]
    assert shell_lines("a --b c --d", width=6) == "a \\\n  --b c \\\n  --d"


def test_a_period_part_measured_says_its_share_without_brackets_in_brackets(year, capsys):
    policy, _, report = year
    part = [p for p in report["periods"] if not p["measured"] and p["labelled"]]
    assert part  # 2026-09: outcomes in for part of its cases
    share = percent(part[0]["labelled"] / part[0]["n"], 0)
    assert how_measured(part[0]) == f"{share} measured"  # short enough for the periods table at 1400 px
    _print_text(report, policy)
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith(part[0]["period"] + ":"))
    assert f"({share} measured)" in line
    assert not re.search(r"\([^()]*\(", line)  # no bracket opened inside another


def test_the_refit_chart_says_its_unit_on_the_y_axis():
    from costlib.binary import decision as D
    from costlib.present.watch_figures import refit_figure
    from costlib.watch.alerts import judge_period

    rng = np.random.default_rng(0)
    y = (rng.random(500) < 0.3).astype(int)
    s = 1 / (1 + np.exp(-rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)))
    g = np.full(500, "everyone", dtype=object)
    costs = {"everyone": (1.0, 3.0)}
    judged = judge_period(y, s, g, costs=costs, cutoffs={"everyone": 0.3}, n_resamples=0)
    ms = D.sweep_model(y, s, g, probabilities=False)
    curves = D.cost_curves(ms, prices_for(ms.groups, costs), max_points=100)
    for unit, axis in (("$", "cost per case ($)"), ("", "cost per case"), ("<b>€</b>", "cost per case (&lt;b&gt;€")):
        fig = refit_figure(curves, {"everyone": 0.3}, judged, unit=unit)
        assert fig.layout.yaxis.title.text.startswith(axis)  # the unit is user text: its tags reach the chart as text
