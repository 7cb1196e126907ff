"""Train with costs at any scale of the per-case prices: the held-out R^2 of the prices (and its
interval over seeds) summed squares of them, so from about 1e154 (a total that still fits in a
float, which loading accepts) every seed read NaN. Scaled by a factor, every way's weighted error
and error rate and their intervals stay as they were, the price error is scaled by the factor,
and R^2 stays."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costlib.training.compare import compare_training, cost_predictability
from costlib.training.summary import predictability_interval, training_summary
from costlib.training.synthetic import synthetic_costs

SAME = ["nec", "nec_low", "nec_high", "error_rate", "error_rate_low", "error_rate_high", "nec_change"]


@pytest.fixture(scope="module")
def data():
    return synthetic_costs(500, predictable=True, random_state=2)


@pytest.fixture(scope="module")
def plain(data):
    X, delta = data
    results = compare_training(X, delta, seeds=3)
    return training_summary(results).set_index("method"), cost_predictability(X, delta, seeds=3)["r2"]


@pytest.mark.parametrize("exponent", [520, 990, -1000])
def test_prices_times_a_power_of_two_give_the_same_comparison_to_the_last_digit(data, plain, exponent):
    X, delta = data
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow, no 0 / 0 on the way
        results = compare_training(X, np.ldexp(delta, exponent), seeds=3)
        r2 = cost_predictability(X, np.ldexp(delta, exponent), seeds=3)["r2"]
    summary, (want, want_r2) = training_summary(results).set_index("method"), plain
    np.testing.assert_array_equal(summary[SAME].to_numpy(), want[SAME].to_numpy())
    np.testing.assert_array_equal(summary["delta_mae"].to_numpy(), np.ldexp(want["delta_mae"].to_numpy(), exponent))
    np.testing.assert_array_equal(r2.to_numpy(), want_r2.to_numpy())


@pytest.mark.parametrize("factor", [1e154, 1e300, 1e-300])
def test_prices_near_1e154_keep_the_predictability_and_its_interval(data, plain, factor):
    X, delta = data
    r2 = cost_predictability(X, delta * factor, seeds=3)["r2"]
    got, want = predictability_interval(r2), predictability_interval(plain[1])
    assert np.isfinite(got).all(), got
    np.testing.assert_allclose(got, want, rtol=1e-9)
    results = compare_training(X, delta * factor, methods=("standard", "regression"), seeds=3)
    mae = training_summary(results).set_index("method").loc["regression", "delta_mae"]
    assert mae == pytest.approx(plain[0].loc["regression", "delta_mae"] * factor, rel=1e-9)
