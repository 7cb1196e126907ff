"""The disparity sentence of the headline and the disparities table (issue 41, items 3 and 4):
worded once (`words.disparity_sentence`), for each metric, and only when a disparity fails."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from costlib.binary import decision as D
from costlib.binary.disparity import disparities
from costlib.core import rules as R
from costlib.present import words
from costlib.present.disparity_table import disparity_caption, disparity_table


def _two(tp, fp, fn, n, **kw):
    return disparities(["ref", "<b>x</b>"], tp, fp, fn, n, c_fp=1.0, c_fn=2.0, **kw)


def test_flagged_rate_sentence_names_the_group_the_ratio_and_the_rule():
    # ref: 1,000 cases, 100 flagged (tp 50, fp 50), 100 positives (fn 50); x: 500 cases, 200 flagged (tp 100,
    # fp 100), fn 0. flagged rate: 0.4 / 0.1 = 4.0 (fails); FNR: 0 / 0.5 = 0 (fails, farther from 1 on a log scale:
    # infinite), on enough cases not to be chance (0 of 100 against 50 of 100)
    d = _two([50, 100], [50, 100], [50, 0], [1000, 500])
    assert d.reference == "ref" and d.fails
    row = d.largest
    assert row["metric"] == "false negative rate" and row["ratio"] == 0
    s = words.disparity_sentence(d)
    # one rate at 0: said as what happens, not as "0.00 times" (review 56)
    assert s.startswith(
        "But under the model's rule, in group “<b>x</b>”, no case that turns out positive is missed, while in group "
        "“ref” some are, which a common fairness rule of thumb does not allow (0.0% against 50.0%"
    ), s
    assert "the four-fifths rule fails" in s and "times" not in s
    flagged = d.table.query("metric == 'flagged rate'").set_index("group")
    assert flagged.loc["<b>x</b>", "ratio"] == pytest.approx(4.0)
    table = disparity_table(d).set_index(["metric", "group"])
    assert table.loc[("false negative rate", "<b>x</b>"), "difference"] == "\u221250.0%"  # a minus: no formula


def test_cost_sentence_is_in_money_and_another_threshold_is_named_by_its_range():
    # both groups: tp 10, fp 10, fn 10 of 100 except x's fp 13: cost (13 + 20)/100 against (10 + 20)/100 = 1.1;
    # flagged 23/20 = 1.15, FPR 13/80 against 10/80 = 1.3 (the largest), FNR equal: with tau 0.9, range 0.9 to 1.11
    d = _two([10, 10], [10, 13], [10, 10], [100, 100], threshold=0.9)
    assert d.largest["metric"] == "false positive rate"
    s = words.disparity_sentence(d, "$")
    assert "wrongly flagged at 1.30 times" in s and "the disparity range 0.9 to 1.11 fails" in s
    d = _two([10, 10], [10, 10], [10, 14], [100, 100])  # FNR 14/24 against 10/20; cost 38 against 30 per 100
    cost = d.table.query("metric == 'cost per case'").set_index("group").loc["<b>x</b>"]
    assert cost["ratio"] == pytest.approx(0.38 / 0.30)
    assert cost["passes"] is False  # 1.267 > 1.25
    only_cost = d.table[(d.table["passes"] == False) & (d.table["metric"] == "cost per case")]  # noqa: E712
    assert len(only_cost) == 1


def test_no_sentence_when_nothing_fails_and_undefined_rates_are_said():
    d = _two([5, 5], [5, 5], [5, 5], [100, 100])
    assert not d.fails and words.disparity_sentence(d) == ""
    d = _two([5, 0], [5, 5], [5, 0], [100, 50])  # x has no positives: no false negative rate
    fnr = d.table.query("metric == 'false negative rate'").set_index("group").loc["<b>x</b>"]
    assert fnr["passes"] is None and "no positives" in fnr["undefined"] and math.isnan(fnr["ratio"])
    table = disparity_table(d)
    cell = table[(table["metric"] == "false negative rate") & (table["group"] == "<b>x</b>")]["result"].iloc[0]
    assert cell == "the group has no positives on the judged rows"
    assert "nan" not in table.to_string().lower()
    assert "“ref”" in disparity_caption(d) and "four-fifths" in disparity_caption(d)


def test_the_verdict_adds_the_sentence_unless_the_model_is_not_to_decide():
    df = pd.DataFrame({"y": [0, 1] * 40, "s": [0.2, 0.9] * 40, "g": ["a"] * 40 + ["b"] * 40})
    ms = D.sweep_model(df["y"], df["s"], df["g"], name="s")
    rec = D.recommend(ms, (1, 1), n_resamples=50)  # the scores separate the classes: it ships
    assert rec.verdict == R.SHIP
    failing = _two([5, 10], [5, 10], [5, 0], [100, 50])
    plain = words.recommendation_verdict(rec)
    with_it = words.recommendation_verdict(rec, disparities=failing)
    assert with_it.headline == plain.headline + " " + words.disparity_sentence(failing)
    assert with_it.details == plain.details
    # the same verdict, words and all, but a ship whose rule fails a fairness rule of thumb is not
    # shown in the all-clear green (a first-time reader took green for "safe to ship")
    assert plain.kind == "success" and with_it.kind == "warning"
    flat = D.sweep_model(df["y"], [0.5] * len(df), df["g"], name="s")  # no signal: nothing to decide with
    useless = D.recommend(flat, (1, 1), n_resamples=0)
    assert useless.verdict == R.DO_NOT
    assert words.recommendation_verdict(useless, disparities=failing) == words.recommendation_verdict(useless)


def test_a_group_never_flagged_is_said_so_either_way_round():
    """'group “B” is flagged at 0.00 times the rate of group “A”' and 'flagged at infinitely many
    times the rate' (review 56, a review limit on COMPAS) read as what happens."""
    never = _two([5, 0], [5, 0], [5, 10], [100, 100])  # x flags nobody: flagged rate 0 against 10%
    s = words.disparity_sentence(never)
    assert "group “<b>x</b>” is never flagged, while group “ref” is" in s and "times" not in s
    d = disparities(["ref", "x"], [0, 5], [0, 5], [10, 5], [100, 100], c_fp=1.0, c_fn=2.0)  # the reference never
    row = d.largest
    assert row is not None and not math.isfinite(row["ratio"])
    s = words.disparity_sentence(d)
    assert "never flagged" in s and "infinitely" not in s, s
    assert "group “ref” is never flagged, while group “x” is, which a common fairness rule of thumb does not" in s
    assert "(0.0% against 10.0%" in s, s  # the values in that order
