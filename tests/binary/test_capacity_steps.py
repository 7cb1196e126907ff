"""What more review capacity is worth is the change of the answer the page gives (issue 44, item 1):
the answer made again at the limit + 1 and + 100 cases a month, ties in blocks included (a block
of tied scores is flagged whole or not at all), held against a brute-force recomputation of the
answer from the rows, and the COMPAS example of the issue."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from costlib.binary import decision as D
from costlib.binary.capacity import cap_limit, limit_facts, price_of_capacity
from costlib.present.amounts import money
from costlib.present.capacity_words import NO_CHEAPER, price_sentence

COMPAS = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"
BLOCKS = st.sampled_from([0.1, 0.2, 0.2, 0.5, 0.5, 0.5, 0.7, 0.9, 0.9])  # few scores: tied blocks


def _brute_answer(fit, judge, c_fp: float, c_fn: float, share: float) -> float:
    """Cost per case on the judged rows of the cheapest cutoff on the fitting rows that flags at
    most `share` of them: every distinct score and "flag nobody" tried one by one (a block of tied
    scores is flagged whole, as `score >= t` flags it)."""
    (yf, sf), (yj, sj) = fit, judge
    best_t, best_cost = math.inf, float(c_fn * yf.sum())
    for t in sorted(set(sf.tolist()), reverse=True):  # larger thresholds first: ties stay with them
        flag = sf >= t
        if flag.sum() > cap_limit(share, len(sf)):
            continue
        cost = float(c_fp * (flag & (yf == 0)).sum() + c_fn * (~flag & (yf == 1)).sum())
        if cost < best_cost - 1e-9:
            best_t, best_cost = t, cost
    flag = sj >= best_t
    return float(c_fp * (flag & (yj == 0)).sum() + c_fn * (~flag & (yj == 1)).sum()) / len(sj)


@st.composite
def _samples(draw):
    n = draw(st.integers(12, 40))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(BLOCKS, min_size=n, max_size=n)))
    split = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    for part in (split, ~split):  # both classes on both parts
        if len(set(y[part].tolist())) < 2:
            return None
    volume = draw(st.integers(n, 3 * n))
    cap = draw(st.integers(0, volume - 1))
    # prices an irrational way apart: no two cutoffs cost exactly the same on the fitting rows
    c_fn = draw(st.integers(1, 12)) + math.sqrt(2) / 7
    return y, s, split, volume, cap, c_fn


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_samples())
def test_marginal_figures_are_the_change_of_the_answer_at_the_limit_plus_1_and_plus_100(sample):
    assume(sample is not None)
    y, s, split, volume, cap, c_fn = sample
    ms = D.sweep_model(y, s, fit=split, judge=~split, name="m")
    models = {"m": ms}
    share = cap / volume
    rec = D.recommend(models, (1.0, c_fn), n_resamples=0, capacity=share)
    free = D.recommend(models, (1.0, c_fn), n_resamples=0)
    fit, judge = (y[split], s[split]), (y[~split], s[~split])
    here = _brute_answer(fit, judge, 1.0, c_fn, share)
    np.testing.assert_allclose(rec.cost, here, rtol=1e-9, atol=1e-12)  # the answer the page gives
    limit = limit_facts(models, rec, free)
    for extra in (1, 100):
        there = _brute_answer(fit, judge, 1.0, c_fn, min(cap + extra, volume) / volume)
        np.testing.assert_allclose(limit.more_saves(extra / volume, change=True), here - there, rtol=1e-9, atol=1e-12)
        # what is said saved: never less than nothing (a refit dearer on the judged rows is luck)
        np.testing.assert_allclose(limit.more_saves(extra / volume), max(0.0, here - there), rtol=1e-9, atol=1e-12)
    price = price_of_capacity(ms, rec.prices, share)
    sentence = price_sentence(price, limit, volume=volume, unit="$")
    assert " more on the judged rows" not in sentence and " cost about" not in sentence, sentence
    if limit.binding and share < price.enough * (1 - 1e-12):
        saved = (here - _brute_answer(fit, judge, 1.0, c_fn, min(cap + 100, volume) / volume)) * volume
        if saved >= 0.005:
            assert f"100 more save about {money(saved, '$')}" in sentence, sentence
        elif saved <= -0.005:
            assert "100 more show no measurable saving" in sentence and NO_CHEAPER in sentence, sentence


def test_compas_limit_400_more_capacity_is_the_change_of_the_answer():
    """The issue's example: COMPAS, a false positive $25 and a false negative $60, 10,000 cases
    a month, 400 reviewed. The model's best within 400 is to flag nobody (its top block is about
    467 a month); at 401 nothing changes; at 500 the answer flags the top block and its cost per
    case drops from about $27.31 to $25.13 on the test rows: about $21,700 a month, not the
    hull's $45.24 and $4,205.88."""
    df = pd.read_csv(COMPAS)
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge, name="p_recid")
    models = {"p_recid": ms}
    rec = D.recommend(models, (25.0, 60.0), n_resamples=200, capacity=0.04)
    free = D.recommend(models, (25.0, 60.0), n_resamples=200)
    at_401 = D.recommend(models, (25.0, 60.0), n_resamples=200, capacity=0.0401)
    at_500 = D.recommend(models, (25.0, 60.0), n_resamples=200, capacity=0.05)
    assert at_401.cost == rec.cost and at_500.cost < rec.cost - 2
    limit = limit_facts(models, rec, free)
    sentence = price_sentence(price_of_capacity(ms, rec.prices, 0.04), limit, volume=10_000, unit="$")
    assert "One more case a month that your team reviews leaves the model's answer as it is" in sentence
    assert f"100 more save about {money((rec.cost - at_500.cost) * 10_000, '$')} a month" in sentence
    assert "$45.24" not in sentence and "$4,205.88" not in sentence


def _drawn_at(trace, x: float) -> float:
    """The cost a line of the figure shows at `x`, read as the browser draws it (its shape)."""
    xs, ys = np.asarray(trace.x, dtype=float), np.asarray(trace.y, dtype=float)
    if (trace.line.shape or "linear") == "hv":  # held from the last point at or left of x
        return float(ys[np.searchsorted(xs, x, side="right") - 1])
    return float(np.interp(x, xs, ys))


def test_the_cases_flagged_chart_shows_the_answer_at_the_limit():
    """COMPAS at $25 / $60, 400 cases a month of 10,000: the answer flags nobody (the top block is
    bigger than the limit), so at 400 cases flagged the line of one cutoff for everybody shows
    what flagging nobody costs, not a point between blocks that no cutoff reaches (which drew it
    below both no-model lines)."""
    from costlib.present import figures

    df = pd.read_csv(COMPAS)
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge, name="p_recid")
    rec = D.recommend(ms, (25.0, 60.0), n_resamples=200, capacity=0.04)
    free = D.recommend(ms, (25.0, 60.0), n_resamples=200)
    curves = D.cost_curves(ms, rec.prices, max_points=figures.MAX_POINTS)
    fig = figures.cost_curve_figure(curves, figures.markers_frame(rec, ms, free), unit="$", per_month=10_000, cap=0.04)
    everyone = fig.data[0]
    assert everyone.name == "everyone, one cutoff"
    np.testing.assert_allclose(_drawn_at(everyone, 400), rec.cost, rtol=1e-9)
    assert _drawn_at(everyone, 400) >= rec.baseline_cost  # not below the no-model line the answer keeps
