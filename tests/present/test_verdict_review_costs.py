"""A review of the Costs & groups answer (the page, and ``costlib audit``, which prints the same
words): a disparity resting on a handful of cases, the four-fifths rule named before it is
said, the review limit in the answer's first sentence, the asides against what the verdict says
to do, and why the model is not to decide when it saves exactly nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import costlib
from costlib.binary import decision as D
from costlib.binary.disparity import disparities, few_cases
from costlib.binary.model_sweeps import sweep_model
from costlib.core import rules as R
from costlib.present import words
from costlib.present.disparity_table import disparity_table

COMPAS = Path(costlib.__file__).parent / "samples" / "compas.csv"


def _few_missed():
    # the review's dup_col.csv, cross-fitted: 1.7 of 1,527 positives missed in A, 1.2 of 1,480 in B (0.73 times)
    return disparities(["A", "B"], [1525.3, 1478.8], [850, 850], [1.7, 1.2], [3064, 2936], c_fp=1.0, c_fn=3.0)


def test_a_failure_of_a_handful_of_cases_could_be_chance_and_its_rates_read_apart():
    d = _few_missed()
    row = d.largest
    assert row["metric"] == "false negative rate" and row["passes"] is False
    assert d.could_be_chance(row) and d.record("r")["largest_failing"]["could_be_chance"] is True
    s = words.disparity_sentence(d)
    assert "0.73 times" in s and "could be chance" in s, s
    assert "(0.08% against 0.11%;" in s, s  # never "0.1% against 0.1%" beside "fails"
    table = disparity_table(d).set_index(["metric", "group"])
    assert table.loc[("false negative rate", "B"), "result"] == "fails (could be chance)"  # as the headline says
    # hundreds of cases: a failure as far from the range is clear
    many = disparities(["A", "B"], [1100, 1200], [850, 850], [400, 200], [3064, 2936], c_fp=1.0, c_fn=3.0)
    fnr = many.table.query("metric == 'false negative rate' and group == 'B'").iloc[0].to_dict()
    assert fnr["passes"] is False and not many.could_be_chance(fnr)
    assert few_cases(1, 1000, 3, 1100) and not few_cases(0, 500, 40, 500)


def test_the_four_fifths_rule_is_said_in_words_before_it_is_named():
    s = words.disparity_sentence(_few_missed())
    plain = s.index("below the four-fifths (80%) that a common fairness rule of thumb asks for")
    assert plain < s.index("the four-fifths rule fails"), s
    up = disparities(["A", "B"], [400, 400], [100, 300], [100, 100], [1000, 1000], c_fp=1.0, c_fn=1.0)
    s = words.disparity_sentence(up)
    assert "more than a common fairness rule of thumb allows, which asks the lower to be at least four-fifths" in s


def _sweeps(seed=3, n=3000):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.clip(0.3 + 0.35 * (y - 0.3) + rng.normal(0, 0.2, n), 0.001, 0.999)
    g = np.where(rng.random(n) < 0.5, "a", "b")
    return sweep_model(pd.Series(y.astype(int)), pd.Series(s), pd.Series(g), name="s")


def test_the_review_limit_is_in_the_answers_first_sentence():
    ms = _sweeps()
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=100, capacity=0.1)
    assert rec.capacity is not None
    head = words.recommendation_verdict(rec).headline
    assert "within your review limit of 10.0% of the cases" in head.split(". ")[0], head
    head = words.recommendation_verdict(rec, volume=2000).headline
    assert "within your review limit of 200 cases a month" in head.split(". ")[0], head
    free = D.recommend(ms, (1.0, 3.0), n_resamples=100)
    assert "review limit" not in words.recommendation_verdict(free).headline


def test_no_model_verdicts_name_why_and_asides_compare_against_flagging_everyone():
    df = pd.read_csv(COMPAS)
    train, test = df["split"].eq("train").to_numpy(), df["split"].eq("test").to_numpy()
    ms = sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=train, judge=test, name="p_recid")
    prices = {g: (1.0, 6.0 if g == "Caucasian" else 3.0) for g in ms.groups}
    rec = D.recommend(ms, prices, n_resamples=200)
    assert rec.verdict == R.DO_NOT and not rec.ship_model and rec.shipped_rule == R.EVERYONE
    verdict = words.recommendation_verdict(rec, unit="$")
    # saving exactly 0: the headline says why the model is not to decide
    assert "flags everybody, which needs no model: letting it decide saves nothing" in verdict.headline
    *rules, closing = verdict.asides  # review 72: the closing sentence once, after the rules, not in each
    for aside in rules:
        assert "than flagging everyone" in aside and "to keep flagging everyone" not in aside
        assert "the cutoff fitted on" not in aside
    assert rules and "to keep flagging everyone, which needs no model" in closing
