"""The formula threshold at one price k counts a case handed over at its worth r: an answer is
worth more than handing its case over when p * 1 - (1 - p) * k >= r, so from (k + r)/(k + 1).
k/(k + 1) (the spec's tau*, `value_threshold`) is that at r = 0; drawn on the Value chart and used
in the answer at k with r > 0 it accepted answers worth less than the hand-over they replaced."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.value.against_k import formula_threshold, value_against_k, value_table
from costlib.value.contract import value_score, value_sweep, value_threshold
from costlib.value.recommendation import recommend_value

QUARTERS = st.integers(0, 80).map(lambda i: Fraction(i, 4))
R = st.integers(-8, 8).map(lambda i: Fraction(i, 4))
P = st.integers(0, 256).map(lambda i: Fraction(i, 256))


@given(QUARTERS, R, P)
def test_an_answer_is_accepted_exactly_when_it_is_worth_its_hand_over(k, r, p):
    assume(p * (1 + k) != k + r)  # off the break-even itself, where a float may land either side
    worth_more = p * 1 - (1 - p) * k >= r
    assert (float(p) >= formula_threshold(float(k), float(r))) == worth_more


@given(QUARTERS)
def test_without_a_worth_of_the_hand_over_it_is_the_specs_tau_star(k):
    assert formula_threshold(float(k)) == value_threshold(float(k)) == float(k) / (float(k) + 1.0)


def _rows(n=2000, seed=4):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    return (rng.uniform(size=n) < p).astype(int), p


@pytest.mark.parametrize("r", [0.0, 0.5, -0.5])
def test_the_k_charts_formula_line_and_the_table_read_the_worth_at_that_threshold(r):
    y, p = _rows()
    ks = np.array([0.5, 2.0, 5.0])
    frame = value_against_k(y, p, ks, reject_value=r)
    star = frame[frame["rule"] == "tau*"].reset_index(drop=True)
    for i, k in enumerate(ks):
        tau = formula_threshold(k, r)
        assert star.loc[i, "tau"] == pytest.approx(tau)
        assert star.loc[i, "value"] == pytest.approx(value_score(y, p, k=k, tau=tau, reject_value=r).value)
    row = value_table({"m": value_sweep(y, p)}, k=2.0, reject_value=r).iloc[0]
    tau = formula_threshold(2.0, r)
    assert row["value at tau*"] == pytest.approx(value_score(y, p, k=2.0, tau=tau, reject_value=r).value)


def test_on_calibrated_scores_the_formula_threshold_is_where_the_worth_peaks():
    """On many calibrated rows the worth against the threshold peaks at (k + r)/(k + 1), not at
    k/(k + 1): at k = 2 and r = 0.5, 0.833 and not 0.667."""
    y, p = _rows(n=400_000, seed=1)
    k, r = 2.0, 0.5
    grid = np.linspace(0.5, 0.99, 50)
    worth = [value_score(y, p, k=k, tau=t, reject_value=r).value for t in grid]
    assert grid[int(np.argmax(worth))] == pytest.approx(formula_threshold(k, r), abs=0.02)
    assert (
        value_score(y, p, k=k, tau=formula_threshold(k, r), reject_value=r).value
        > value_score(y, p, k=k, tau=value_threshold(k), reject_value=r).value
    )


def test_the_answer_at_k_compares_the_formula_threshold_that_counts_the_hand_over():
    y, p = _rows()
    sweep = value_sweep(y, p)
    rec = recommend_value({"m": sweep}, k=2.0, reject_value=0.5, n_resamples=0)
    tau = formula_threshold(2.0, 0.5)
    assert rec.formula_value == pytest.approx(value_score(y, p, k=2.0, tau=tau, reject_value=0.5).value)


def test_the_value_chart_draws_the_threshold_from_prices_with_the_worth_of_a_hand_over():
    s = SAMPLES["screening"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")
    answer = value_answer(ds, {"": (2.0, 2.0)}, names=[""], worth=1.0, reject_worth=0.5, unit="$")
    assert answer.k == 2.0 and not answer.apart
    notes = [a.text for a in answer.tau_figure(answer.rec.model).layout.annotations]
    assert "threshold from prices alone: 0.8333" in notes, notes


def test_the_k_chart_and_its_caption_write_the_formula_with_the_worth_of_a_hand_over():
    s = SAMPLES["screening"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")
    # in words whatever a case handed over is worth: "k/(k+1)" and "(k+0.5)/(k+1)" read as notation (review 71)
    for reject_worth, formula in ((0.0, "from prices alone"), (0.5, "from prices alone")):
        answer = value_answer(ds, {"": (2.0, 2.0)}, names=[""], worth=1.0, reject_worth=reject_worth, unit="$")
        names = [t.name for t in answer.k_figure().data if "formula" in (t.name or "")]
        assert names and all(n.endswith(f"(formula threshold {formula})") for n in names), names
        assert f"at the formula threshold {formula}, which" in answer.k_caption
