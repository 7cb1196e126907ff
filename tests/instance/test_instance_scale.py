"""Instance costs at any scale of the per-case prices: the saving's interval squared the prices, so
from about 1e154 (a total that still fits in a float, which loading accepts) it overflowed and read
NaN, and the verdict fell to "not distinguishable" with an interval of "n/a".

The saving is read in NEC (a share of the total price of the mistakes), which does not depend on
the prices' scale; in the prices' own unit (a typical case's price times it) it is scaled by the
factor, its interval too, and the verdict is the same."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import answers
from costlib.core.dataset import ColumnMapping
from costlib.instance import nec_interval, recommend_nec
from costlib.loading.preparing import prepare


def _data(n: int, seed: int, signal: float = 1.0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    scores = rng.standard_normal(n) + signal * y
    size = rng.lognormal(0.0, 1.0, n)
    return scores, np.where(y, size, -size)


def _answer(rec) -> tuple:
    return rec.model, rec.threshold, rec.baseline, rec.saving, rec.saving_low, rec.saving_high, rec.status


def _in_prices(rec, delta) -> np.ndarray:
    """The saving and its interval per case in the prices' own unit: at a typical case's price."""
    typical = float(np.mean(np.abs(delta)))
    return np.array([rec.saving, rec.saving_low, rec.saving_high]) * typical


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(40, 300),
    signal=st.sampled_from([0.0, 0.5, 1.5]),
    exponent=st.integers(-900, 900),
    split=st.booleans(),
)
def test_prices_times_a_power_of_two_give_the_same_answer_to_the_last_digit(seed, n, signal, exponent, split):
    scores, delta = _data(n, seed, signal)
    if np.sum(np.abs(delta)) * 2.0**exponent >= np.finfo(np.float64).max / 4:
        exponent -= 20  # the total must fit in a float, as loading asks (the lognormal's tail)
    kwargs = {}
    if split:
        fit = np.random.default_rng(seed).random(n) < 0.5
        kwargs = {"fit": fit, "judge": ~fit}
    plain = recommend_nec({"m": scores}, delta, n_resamples=100, seed=seed, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow, no 0 / 0 on the way
        scaled = recommend_nec({"m": scores}, np.ldexp(delta, exponent), n_resamples=100, seed=seed, **kwargs)
    assert _answer(scaled) == _answer(plain)  # dividing by a power of two is exact: the very same numbers
    if np.isfinite(plain.saving_low):
        np.testing.assert_array_equal(
            _in_prices(scaled, np.ldexp(delta, exponent)), np.ldexp(_in_prices(plain, delta), exponent)
        )


@pytest.mark.parametrize("factor", [1e154, 1e200, 1e300, 1e-154, 1e-300])
@pytest.mark.parametrize("split", [False, True])
def test_prices_near_1e154_keep_a_finite_interval_and_the_verdict(factor, split):
    """At 1e154 the cross-fitted interval was NaN (the variance squared 1e154); below 1e-154 its
    squares vanished, 0 / 0. Any factor: the same saving and interval, to rounding."""
    scores, delta = _data(400, 3)
    kwargs = {}
    if split:
        fit = np.arange(400) < 200
        kwargs = {"fit": fit, "judge": ~fit}
    plain = recommend_nec({"m": scores}, delta, n_resamples=200, **kwargs)
    scaled = recommend_nec({"m": scores}, delta * factor, n_resamples=200, **kwargs)
    got = np.array([scaled.saving, scaled.saving_low, scaled.saving_high])
    assert np.isfinite(got).all(), got
    np.testing.assert_allclose(got, [plain.saving, plain.saving_low, plain.saving_high], rtol=1e-9)
    np.testing.assert_allclose(_in_prices(scaled, delta * factor), _in_prices(plain, delta) * factor, rtol=1e-9)
    assert (scaled.status, scaled.model, scaled.threshold) == (plain.status, plain.model, plain.threshold)


def test_the_interval_of_the_weighted_error_is_finite_at_any_scale():
    scores, delta = _data(300, 8)
    pred = (scores > 0.5).astype(int)
    plain = nec_interval(pred, delta, n_resamples=200)
    for factor in (1e154, 1e300, 1e-300):
        iv = nec_interval(pred, delta * factor, n_resamples=200)
        np.testing.assert_allclose([iv.estimate, iv.low, iv.high], [plain.estimate, plain.low, plain.high], rtol=1e-9)


def _page_answer(delta_column: np.ndarray, scores: np.ndarray):
    frame = pd.DataFrame({"score": scores, "price": delta_column})
    data = io.BytesIO()
    frame.to_csv(data, index=False)  # as a file would bring them, written out and read back
    table = pd.read_csv(io.BytesIO(data.getvalue()))
    mapping = ColumnMapping(scores=("score",), delta="price")
    return answers.instance_answer(prepare(table, mapping, name="prices.csv", fingerprint=str(delta_column[0])))


def test_the_page_says_the_same_verdict_and_interval_with_prices_near_1e154():
    """The Instance costs page's answer: the same sentence, the interval in money, never "n/a"."""
    scores, delta = _data(600, 5, 1.2)
    scores = 1.0 / (1.0 + np.exp(-scores))
    plain = _page_answer(delta, scores)
    scaled = _page_answer(delta * 1e154, scores)
    assert np.isfinite([scaled.rec.saving_low, scaled.rec.saving_high]).all()
    a, b = plain.verdict(2.0, "$", 1000), scaled.verdict(2.0, "$", 1000)
    assert (b.kind, b.headline) == (a.kind, a.headline)
    assert "n/a" not in b.headline and "95% interval of the saving $" in b.headline, b.headline
    assert scaled.typical == pytest.approx(plain.typical * 1e154)
