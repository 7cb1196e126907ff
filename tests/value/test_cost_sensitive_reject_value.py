"""The formula acceptance rules at separate prices count a case handed over at its worth r
(`reject_value`), as the fitted per-outcome rule beside them on the Value page does.

Found on the Value page at false positive $1, false negative $10 on COMPAS with a case handed over
worth $0.50: the table's fitted rule counted each hand-over at $0.50, while "by class thresholds"
and "by expected value" counted it at 0 (and chose as if it were worth 0), so the three rows of a
model could not be compared. Now "by expected value" answers a case only when the better answer's
expected worth beats r, and "by class thresholds" is the paper's rule with r folded into its
thresholds: (k_fp + r) / (k_tp + k_fp) and (k_fn + r) / (1 + k_fn). At r = 0 nothing changes.

The references are computed here from first principles in exact arithmetic (fractions): per row,
the expected worth of each action from p, the action taken, and that action's worth given y.
"""

from __future__ import annotations

import io
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from costlib.answers.value_sections import acceptance_table, outcome_sweeps
from costlib.core.validation import DegenerateWarning
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.value_words import FITTED_RULE
from costlib.value.cost_sensitive import (
    ACCEPTANCE_WORDS,
    acceptance_rules_table,
    class_thresholds,
    cost_sensitive_actions,
    cost_sensitive_value,
)
from costlib.value.per_outcome import outcome_table

EIGHTHS = st.integers(0, 8).map(lambda i: i / 8)  # exact in floats, so ties are ties
QUARTERS = st.integers(-8, 8).map(lambda i: i / 4)  # r from -2 to 2


@st.composite
def priced_rows(draw):
    n = draw(st.integers(1, 25))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    p = draw(st.lists(EIGHTHS, min_size=n, max_size=n))
    k_tp, k_fp, k_fn = (draw(st.integers(0, 4)) for _ in range(3))
    return y, p, {"k_tp": k_tp, "k_fp": k_fp, "k_fn": k_fn}


def _expected(p: Fraction, k_tp, k_fp, k_fn) -> dict:
    """Expected worth of answering positive (1) and negative (0) a case of probability p."""
    return {1: p * k_tp - (1 - p) * k_fp, 0: (1 - p) - p * k_fn}


def _worth(action: int, y: int, r: Fraction, k_tp, k_fp, k_fn) -> Fraction:
    """What the action is worth on a case of class y: handed over (-1) r, else the outcome's price."""
    if action == -1:
        return r
    if action == 1:
        return Fraction(k_tp) if y else Fraction(-k_fp)
    return Fraction(-k_fn) if y else Fraction(1)


def _expected_value_rule(p: Fraction, r: Fraction, k_tp, k_fp, k_fn) -> int:
    """The action of larger expected worth among the better answer and handing over; a tie with
    handing over hands over, a tie between the two answers answers negative."""
    ev = _expected(p, k_tp, k_fp, k_fn)
    answer = 1 if ev[1] > ev[0] else 0
    return answer if ev[answer] > r else -1


def _class_threshold_rule(p: Fraction, r: Fraction, k_tp, k_fp, k_fn) -> int:
    """The paper's rule with r folded in: answer as p >= 1/2 says, when that answer's expected worth
    is at least r (at the threshold itself the answer is accepted, as p >= tau_pos)."""
    answer = 1 if p >= Fraction(1, 2) else 0
    return answer if _expected(p, k_tp, k_fp, k_fn)[answer] >= r else -1


def _brute(rule, y, p, r, prices) -> tuple[Fraction, Fraction]:
    """(value per case, share handed over) of `rule`, row by row in exact arithmetic."""
    r = Fraction(r)
    actions = [rule(Fraction(pi), r, **prices) for pi in p]
    total = sum(_worth(a, yi, r, **prices) for a, yi in zip(actions, y, strict=True))
    return total / len(y), Fraction(actions.count(-1), len(y))


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        return fn(*args, **kwargs)


@given(priced_rows(), QUARTERS)
def test_the_expected_value_rule_takes_per_row_the_action_worth_more_among_answer_and_hand_over(data, r):
    y, p, prices = data
    got = _quiet(cost_sensitive_value, y, p, **prices, rule="bayes", reject_value=r)
    value, handed = _brute(_expected_value_rule, y, p, r, prices)
    assert got.value == pytest.approx(float(value), rel=1e-12, abs=1e-15)
    assert got.reject_rate == pytest.approx(float(handed), rel=1e-12, abs=1e-15)


@given(priced_rows(), QUARTERS)
def test_the_class_thresholds_are_the_papers_with_the_hand_over_worth_folded_in(data, r):
    y, p, prices = data
    assume(prices["k_tp"] + prices["k_fp"] > 0)  # tau_pos = (k_fp + r) / (k_tp + k_fp) must exist
    got = cost_sensitive_value(y, p, **prices, rule="paper", reject_value=r)
    value, handed = _brute(_class_threshold_rule, y, p, r, prices)
    assert got.value == pytest.approx(float(value), rel=1e-12, abs=1e-15)
    assert got.reject_rate == pytest.approx(float(handed), rel=1e-12, abs=1e-15)
    # the thresholds are the break-even points: an answer there is expected to be worth just r
    tau_pos, tau_neg = class_thresholds(**prices, reject_value=r)
    assert (got.tau_pos, got.tau_neg) == (tau_pos, tau_neg)
    ev_pos = _expected(Fraction(tau_pos), **prices)[1]
    ev_neg = _expected(1 - Fraction(tau_neg), **prices)[0]
    assert float(ev_pos) == pytest.approx(r, abs=1e-12) and float(ev_neg) == pytest.approx(r, abs=1e-12)


@given(priced_rows(), QUARTERS)
def test_the_expected_value_rule_is_never_worth_less_in_expectation_at_any_hand_over_worth(data, r):
    """On calibrated scores (y drawn from p) the expected-value rule's expected worth is at least the
    class thresholds' (the spec's claim, now at any r)."""
    _, p, prices = data
    assume(prices["k_tp"] + prices["k_fp"] > 0)
    rf = Fraction(r)

    def expected_total(rule):
        actions = cost_sensitive_actions(p, **prices, rule=rule, reject_value=r)
        return sum(rf if a == -1 else _expected(Fraction(pi), **prices)[a] for a, pi in zip(actions, p, strict=True))

    assert expected_total("bayes") >= expected_total("paper")


@given(priced_rows())
def test_at_a_hand_over_worth_0_the_rules_are_the_papers_as_before(data):
    """r = 0 (and the default) is the rule as it was: class thresholds k_fp / (k_tp + k_fp) and
    k_fn / (1 + k_fn), an answer by expected value only when it is worth more than 0, a case handed
    over worth 0 (computed here from those definitions)."""
    y, p, prices = data
    k_tp, k_fp, k_fn = prices["k_tp"], prices["k_fp"], prices["k_fn"]

    def before_paper(pi):
        if pi >= Fraction(1, 2):
            return 1 if k_tp + k_fp > 0 and pi >= Fraction(k_fp, k_tp + k_fp) else -1
        return 0 if 1 - pi >= Fraction(k_fn, 1 + k_fn) else -1

    def before_bayes(pi):
        ev_pos, ev_neg = pi * k_tp - (1 - pi) * k_fp, (1 - pi) - pi * k_fn
        if ev_neg > 0 and ev_neg >= ev_pos:
            return 0
        return 1 if ev_pos > 0 and ev_pos > ev_neg else -1

    for rule, before in (("paper", before_paper), ("bayes", before_bayes)):
        actions = [before(Fraction(pi)) for pi in p]
        value = sum(_worth(a, yi, Fraction(0), **prices) for a, yi in zip(actions, y, strict=True)) / len(y)
        handed = Fraction(actions.count(-1), len(y))
        for kw in ({}, {"reject_value": 0.0}):
            got = _quiet(cost_sensitive_value, y, p, **prices, rule=rule, **kw)
            assert got.value == pytest.approx(float(value), rel=1e-12, abs=1e-15), (rule, kw)
            assert got.reject_rate == pytest.approx(float(handed), rel=1e-12, abs=1e-15), (rule, kw)
    if k_tp + k_fp > 0:
        assert class_thresholds(**prices, reject_value=0.0) == (k_fp / (k_tp + k_fp), k_fn / (1 + k_fn))


def test_a_worked_example_with_a_hand_over_worth_half_a_right_negative():
    """y = [0, 0, 1, 1, 0, 1], p = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], k_tp = 2, k_fp = 1, k_fn = 3,
    r = 0.5. Class thresholds: tau_pos = (1 + 0.5)/3 = 0.5, tau_neg = (3 + 0.5)/4 = 0.875. Rows:
    0.1 negative, 1 - p = 0.9 >= 0.875, right: +1; 0.4 and 0.35 negative, 0.6 and 0.65 < 0.875:
    handed over, +0.5 each; 0.8, 0.65, 0.9 positive (>= 0.5): +2, -1, +2. V = 5/6, 2 of 6 handed
    over. (Counting the hand-overs at 0 gave 4/6.) By expected value (3p - 1 positive, 1 - 4p
    negative): 0.1 negative 0.6 > 0.5: +1; 0.4 best 0.2, 0.35 best 0.05, both < 0.5: +0.5 each;
    0.8 (1.4), 0.65 (0.95), 0.9 (1.7) positive: +2, -1, +2. V = 5/6 (at r = 0 the 0.4 and 0.35 were
    answered positive, -1 and +2: also 5/6, but now two cases are handed over)."""
    y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    paper = cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, reject_value=0.5)
    assert (paper.tau_pos, paper.tau_neg) == (0.5, 0.875)
    assert paper.value == pytest.approx(5 / 6) and paper.reject_rate == pytest.approx(2 / 6)
    bayes = cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, rule="bayes", reject_value=0.5)
    assert bayes.value == pytest.approx(5 / 6) and bayes.reject_rate == pytest.approx(2 / 6)
    assert cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, rule="bayes").reject_rate == pytest.approx(0)


def test_a_hand_over_worth_that_is_not_a_number_is_refused():
    with pytest.raises(ValueError, match="reject_value"):
        cost_sensitive_value([0, 1], [0.2, 0.9], k_tp=1, k_fp=1, k_fn=1, reject_value=float("nan"))


@pytest.fixture(scope="module")
def compas():
    s = SAMPLES["compas"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("compas"))), s.mapping, name=s.filename, fingerprint="c")


def test_on_compas_at_1_and_10_every_row_of_the_table_counts_a_hand_over_at_its_worth(compas):
    """The page's table at false positive $1, false negative $10, a right answer worth $2 and a case
    handed over worth $1 (r = 0.5 right answers): each formula row is its rule's worth on the judged
    rows with every hand-over counted at r, row by row; the fitted row is `outcome_table`'s at r."""
    prices, r, worth = {"k_tp": 1.0, "k_fp": 1.0, "k_fn": 10.0}, 0.5, 2.0
    judge, fit = compas.purpose_rows("judge"), compas.purpose_rows("fit")
    sorted_once = outcome_sweeps(compas, split=not np.array_equal(judge, fit))
    table = acceptance_table(compas, sorted_once, **prices, worth=worth, reject_value=r)
    y = compas.y[judge].astype(int).tolist()
    rules = {ACCEPTANCE_WORDS["paper"]: _class_threshold_rule, ACCEPTANCE_WORDS["bayes"]: _expected_value_rule}
    for model, scores in compas.scores.items():
        rows = table[table["model"] == model].set_index("acceptance rule")
        assert list(rows.index) == [FITTED_RULE, *rules]
        p = [Fraction(float(s)) for s in scores[judge]]
        for words, rule in rules.items():
            value, handed = _brute(rule, y, p, r, prices)
            assert 0 < handed < 1  # the worth of a hand-over matters on this table
            assert rows.loc[words, "value per case"] == pytest.approx(float(value) * worth, rel=1e-9)
            assert rows.loc[words, "handed over"] == pytest.approx(float(handed), rel=1e-12)
        split = not np.array_equal(judge, fit)
        fitted = outcome_table(
            compas.y[judge],
            {model: scores[judge]},
            y_fit=compas.y[fit] if split else None,
            fit_scores={model: scores[fit]} if split else None,
            **prices,
            reject_value=r,
        ).iloc[0]
        assert rows.loc[FITTED_RULE, "value per case"] == pytest.approx(fitted["value per case"] * worth)
    # the formula rows are `acceptance_rules_table`'s at r, and at r = 0 they are the default's
    scores = {m: s[judge] for m, s in compas.scores.items()}
    at_r = acceptance_rules_table(compas.y[judge], scores, **prices, reject_value=r)
    pd.testing.assert_frame_equal(
        table[table["acceptance rule"] != FITTED_RULE].reset_index(drop=True),
        at_r.assign(**{"value per case": at_r["value per case"] * worth}),
    )
    pd.testing.assert_frame_equal(
        acceptance_rules_table(compas.y[judge], scores, **prices, reject_value=0.0),
        acceptance_rules_table(compas.y[judge], scores, **prices),
    )
