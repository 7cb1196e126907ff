"""The best acceptance threshold when people can take at most so many of the handed-over cases
(`optimal_value_within`, the sweep-level `best_index_within`, `value_capacity_curve` and the
price of capacity `value_of_capacity`), against slow brute-force references written from the
spec ("Decisions under capacity"): every candidate threshold, +inf (hand everything over)
first, the best whose reject rate is within the cap, ties to the larger tau.

Prices are integers and probabilities multiples of 1/8, so n * V is an integer at every tau and
the tie rule is tested exactly.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from costlib import DegenerateWarning
from costlib.core.validation import MSG_SHARE
from costlib.value import sweep_value, value_sweep
from costlib.value.contract import optimal_value
from costlib.value.within import (
    best_index_within,
    optimal_value_within,
    value_capacity_curve,
    value_of_capacity,
)

INF = math.inf
EIGHTHS = st.integers(0, 8).map(lambda i: i / 8)


@st.composite
def value_data(draw, *, n_min=1, n_max=20):
    """Binary (P(class 1), labels 0/1) or 3-class rows (multiples of 1/8), with many ties."""
    n = draw(st.integers(n_min, n_max))
    if draw(st.booleans()):
        y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        return y, draw(st.lists(EIGHTHS, min_size=n, max_size=n))
    rows = []
    for _ in range(n):
        picks = draw(st.lists(st.integers(0, 2), min_size=8, max_size=8))
        rows.append([picks.count(j) / 8 for j in range(3)])
    return draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), rows


@st.composite
def capped(draw):
    """(y, p, cap, most): a cap as a share and the most cases it lets people take, either an exact
    count over n (the boundary, where c / n * n can fall below c in floating point) or any share."""
    y, p = draw(value_data())
    n = len(y)
    if draw(st.booleans()):
        c = draw(st.integers(0, n))
        return y, p, c / n, c
    cap = draw(st.floats(0, 1))
    return y, p, cap, math.floor(cap * n + 1e-9)


def prediction(p):
    """(predicted class, confidence) of one case: binary p is P(class 1); argmax, lowest index on ties."""
    if isinstance(p, list):
        best = max(range(len(p)), key=lambda j: (p[j], -j))
        return best, p[best]
    return (1 if p >= 0.5 else 0), max(p, 1 - p)


def ref_candidates(y, p, k, reject_value):
    """[(tau, n * value, rejected)] for tau = +inf (hand everything over), then every distinct
    confidence in descending order: a plain loop over every case for every candidate."""
    taus = [INF] + sorted({prediction(pi)[1] for pi in p}, reverse=True)
    out = []
    for t in taus:
        total, rejected = 0, 0
        for yi, pi in zip(y, p, strict=True):
            pred, conf = prediction(pi)
            if conf >= t:
                total += 1 if pred == yi else -k
            else:
                total += reject_value
                rejected += 1
        out.append((t, total, rejected))
    return out


def ref_best_within(y, p, k, reject_value, most):
    """(tau, n * value) of the best candidate handing over at most `most` cases; ties to the larger tau."""
    best = None
    for t, total, rejected in ref_candidates(y, p, k, reject_value):  # descending tau: a tie keeps the first
        if rejected <= most and (best is None or total > best[1]):
            best = (t, total)
    return best


PRICES = (st.integers(0, 5), st.sampled_from([0, 0, -1, 1, 2]))


@given(capped(), *PRICES)
def test_optimal_value_within_is_the_best_threshold_within_the_cap(data, k, reject_value):
    y, p, cap, most = data
    tau, value = optimal_value_within(y, p, k=k, max_reject=cap, reject_value=reject_value)
    ref_tau, ref_total = ref_best_within(y, p, k, reject_value, most)
    assert tau == ref_tau
    assert value == pytest.approx(ref_total / len(y), rel=1e-12, abs=1e-15)
    # the answer keeps the cap: it hands over at most `most` cases
    rejected = sum(prediction(pi)[1] < tau for pi in p)
    assert rejected <= most


@given(value_data(), *PRICES)
def test_a_cap_of_one_is_optimal_value_exactly(data, k, reject_value):
    y, p = data
    assert optimal_value_within(y, p, k=k, max_reject=1, reject_value=reject_value) == optimal_value(
        y, p, k=k, reject_value=reject_value
    )


@given(value_data(), *PRICES, st.lists(st.floats(0, 1), min_size=2, max_size=8))
def test_the_best_value_within_a_cap_never_falls_as_the_cap_grows(data, k, reject_value, caps):
    y, p = data
    values = [optimal_value_within(y, p, k=k, max_reject=c, reject_value=reject_value)[1] for c in sorted(caps)]
    assert all(b >= a for a, b in zip(values, values[1:], strict=False)), values


@given(value_data(), *PRICES)
def test_the_capacity_curve_is_the_best_within_every_distinct_reject_count(data, k, reject_value):
    y, p = data
    n = len(y)
    sweep = value_sweep(y, p)
    curve = value_capacity_curve(sweep, k=k, reject_value=reject_value)
    assert list(curve.columns) == ["reject_share", "tau", "value"]
    counts = sorted({rejected for _, _, rejected in ref_candidates(y, p, k, reject_value)})
    assert_array_equal(curve["reject_share"] * n, np.array(counts, dtype=float))
    for most, tau, value in zip(counts, curve["tau"], curve["value"], strict=True):
        ref_tau, ref_total = ref_best_within(y, p, k, reject_value, most)
        assert tau == ref_tau
        assert value == pytest.approx(ref_total / n, rel=1e-12, abs=1e-15)
    assert (np.diff(curve["value"]) >= 0).all()
    # the sweep-level helper the page uses agrees, read off the same cached sweep
    values = sweep_value(sweep, k, reject_value)
    for share, tau in zip(curve["reject_share"], curve["tau"], strict=True):
        assert sweep.thresholds[best_index_within(sweep, values, share)] == tau


@given(capped(), *PRICES)
def test_the_price_of_capacity_is_the_slope_of_the_hull_at_the_cap(data, k, reject_value):
    y, p, cap, most = data
    curve = value_capacity_curve(value_sweep(y, p), k=k, reject_value=reject_value)
    # the best n * value within every distinct reject count (the running maximum, by brute force)
    counts = sorted({rejected for _, _, rejected in ref_candidates(y, p, k, reject_value)})
    best = [ref_best_within(y, p, k, reject_value, c)[1] for c in counts]
    here = max(i for i, c in enumerate(counts) if c <= most)
    if here == len(counts) - 1:
        want = Fraction(0)
    else:
        # the least concave majorant's slope on the step (here, here + 1), by the min-max formula of
        # antitonic regression: min over starts a <= here of max over ends e > here of the chord's slope
        # (in n * value per case handed over: the n's cancel)
        want = min(
            max(Fraction(best[e] - best[a], counts[e] - counts[a]) for e in range(here + 1, len(counts)))
            for a in range(here + 1)
        )
    assert value_of_capacity(curve, cap) == pytest.approx(float(max(want, 0)), rel=1e-9, abs=1e-12)


@given(value_data(), *PRICES, st.lists(st.floats(0, 1), min_size=2, max_size=8))
def test_the_price_of_capacity_never_rises_as_the_cap_grows(data, k, reject_value, caps):
    y, p = data
    curve = value_capacity_curve(value_sweep(y, p), k=k, reject_value=reject_value)
    prices = [value_of_capacity(curve, c) for c in sorted(caps)]
    assert all(b <= a + 1e-9 for a, b in zip(prices, prices[1:], strict=False)), prices
    assert all(x >= 0 for x in prices)


def test_worked_example_a_cap_moves_the_threshold_down():
    # confidences 0.9, 0.6, 0.65, 0.8, 0.65, 0.9; right, right, wrong, right, wrong, right; k = 2.
    # tau 0.8 accepts 3 right answers and hands over 3: (3 - 0) / 6 = 0.5, the best;
    # tau 0.65 accepts 3 right and 2 wrong, hands over 1: (3 - 2 * 2) / 6 = -1/6;
    # tau 0.6 answers all: (4 - 2 * 2) / 6 = 0. Within 2 hand-overs the best is 0.6.
    y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    assert optimal_value_within(y, p, k=2, max_reject=1) == (0.8, 0.5)
    assert optimal_value_within(y, p, k=2, max_reject=3 / 6) == (0.8, 0.5)
    assert optimal_value_within(y, p, k=2, max_reject=2 / 6) == (0.6, 0.0)
    assert optimal_value_within(y, p, k=2, max_reject=0) == (0.6, 0.0)
    # the hull runs from handing over 0 (value 0) to 3 of 6 (value 0.5): 0.5 per case over a share
    # of 1/2, so 0.5 / (3 / 6) = 1.0 for each case of the share; beyond 3 nothing gains
    curve = value_capacity_curve(value_sweep(y, p), k=2)
    assert value_of_capacity(curve, 2 / 6) == pytest.approx(1.0)
    assert value_of_capacity(curve, 0) == pytest.approx(1.0)
    assert value_of_capacity(curve, 0.5) == 0.0


@pytest.mark.parametrize(("n", "rejected"), [(22, 15), (1000, 400)])
def test_a_cap_of_exactly_the_count_over_n_lets_that_many_through(n, rejected):
    # the `rejected` least confident cases are wrong answers (k = 2: hand them over), the others right:
    # the best hands over exactly `rejected`, which is within rejected / n even when
    # rejected / n * n < rejected in floating point (15 / 22 * 22 is 14.999999999999998)
    y = [1] * (n - rejected) + [0] * rejected
    p = [0.9] * (n - rejected) + [0.6] * rejected
    assert optimal_value_within(y, p, k=2, max_reject=rejected / n) == (0.9, (n - rejected) / n)
    assert optimal_value_within(y, p, k=2, max_reject=(rejected - 1) / n)[0] == 0.6


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, math.inf, "a lot", None])
def test_max_reject_must_be_a_share(bad):
    with pytest.raises(ValueError, match=r"max_reject must be a share of the cases in \[0, 1\]: got") as err:
        optimal_value_within([0, 1], [0.2, 0.9], k=1, max_reject=bad)
    assert str(err.value) == MSG_SHARE.format(name="max_reject", value=bad)
    with pytest.raises(ValueError, match="max_reject"):
        value_of_capacity(value_capacity_curve(value_sweep([0, 1], [0.2, 0.9]), k=1), bad)


def test_no_cases_is_nan_with_a_warning():
    with pytest.warns(DegenerateWarning):
        tau, value = optimal_value_within([], [], k=1, max_reject=0.5)
    assert math.isnan(tau) and math.isnan(value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        curve = value_capacity_curve(value_sweep([], []), k=1)
    assert math.isnan(value_of_capacity(curve, 0.5))


def test_lists_arrays_and_series_alike():
    import pandas as pd

    y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    want = optimal_value_within(y, p, k=2, max_reject=0.4)
    assert optimal_value_within(np.array(y), np.array(p), k=2, max_reject=0.4) == want
    assert optimal_value_within(pd.Series(y), pd.Series(p), k=2, max_reject=np.float64(0.4)) == want


def _screening():
    import pandas as pd

    df = pd.read_csv(Path(__file__).resolve().parents[2] / "costlib" / "samples" / "screening_two_models.csv")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    models = ("score_calibrated", "score_overconfident")
    judge = {m: value_sweep(te["label"], te[m]) for m in models}
    fit = {m: value_sweep(tr["label"], tr[m]) for m in models}
    return tr, judge, fit


@pytest.mark.parametrize("cap", [0.0, 0.04, 0.1, 0.5])
def test_recommend_value_within_a_cap_fits_the_threshold_within_it_on_the_train_rows(cap):
    from costlib.value import ANSWER_ALL, HAND_AT_RANDOM, recommend_value

    tr, judge, fit = _screening()
    rec = recommend_value(judge, k=2, fit_sweeps=fit, max_reject=cap, n_resamples=50)
    fitted = {m: optimal_value_within(tr["label"], tr[m], k=2, max_reject=cap) for m in judge}
    assert rec.model == max(fitted, key=lambda m: fitted[m][1])
    assert rec.tau == fitted[rec.model][0]
    assert rec.capacity.fit_reject_rate <= cap + 1e-12
    # people cannot take every case: the no-model choice is answering all, or handing a share up
    # to the cap over at random when a hand-over is worth more than an answer
    answer_all = sweep_value(judge[rec.model], 2, 0.0)[-1]
    assert rec.baseline == (ANSWER_ALL if answer_all >= 0 or cap == 0 else HAND_AT_RANDOM)
    free = recommend_value(judge, k=2, fit_sweeps=fit, n_resamples=0)
    assert rec.capacity.unlimited.tau == free.tau and rec.capacity.unlimited.model == free.model
    assert rec.capacity.binding == (rec.capacity.unlimited_fit_reject_rate > cap)
    assert rec.capacity.price >= 0


def test_recommend_value_with_a_cap_of_one_is_the_answer_without_a_cap():
    from costlib.value import recommend_value

    _, judge, fit = _screening()
    free = recommend_value(judge, k=2, fit_sweeps=fit, n_resamples=50)
    assert free.capacity is None
    one = recommend_value(judge, k=2, fit_sweeps=fit, n_resamples=50, max_reject=1)
    for field in ("model", "tau", "value", "reject_rate", "baseline", "baseline_value", "gain", "status"):
        assert getattr(one, field) == getattr(free, field), field
    assert one.gain_low == free.gain_low and one.gain_high == free.gain_high
    assert not one.capacity.binding and one.capacity.price == 0.0


def test_under_a_hand_over_cap_a_model_without_signal_is_not_sold_as_a_gain():
    """A wrong answer costs three right ones, so handing a case over (worth 0) beats answering it
    blind, but people can take only 30% of the cases: handing 30% over at random gains against
    answering everything, and a model without signal does no better than that, so it must not ship."""
    from costlib.binary import decision as D
    from costlib.value import HAND_AT_RANDOM, recommend_value

    ships = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        n = 3000
        y, p = rng.integers(0, 2, n), rng.random(n)
        fit = rng.random(n) < 0.5
        rec = recommend_value(
            {"m": value_sweep(y[~fit], p[~fit])},
            k=3,
            fit_sweeps={"m": value_sweep(y[fit], p[fit])},
            max_reject=0.3,
            n_resamples=200,
            seed=seed,
        )
        assert rec.baseline == HAND_AT_RANDOM
        answer_all = sweep_value(value_sweep(y[~fit], p[~fit]), 3, 0.0)[-1]
        assert rec.value > answer_all, "against answering everything the model would look like a gain"
        ships += rec.status == D.SAVES
    assert ships <= 1, ships
