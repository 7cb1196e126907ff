"""Only the ratio of the prices matters: prices scaled together give the same cutoffs and the
same verdict, and every cost scales with them (the tie rule is relative to the prices, not to an
absolute floor of 1, under which 1e-12 against 1e-12 tied everything and flagged nobody)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costlib
from costlib.binary.sensitivity import price_maps


def _sweeps(seed: int):
    rng = np.random.default_rng(seed)
    n = 600
    s = rng.random(n)
    y = (rng.random(n) < 0.2 + 0.6 * s).astype(int)
    g = rng.choice(["a", "b"], size=n)
    fit = rng.random(n) < 0.5
    return costlib.sweep_model(y, s, g, fit=fit, judge=~fit)


@given(seed=st.integers(0, 50), exponent=st.integers(-200, 90), ratio=st.sampled_from([0.25, 1.0, 3.0]))
def test_prices_scaled_together_give_the_same_answer(seed, exponent, ratio):
    ms = _sweeps(seed)
    one = costlib.recommend(ms, (1.0, ratio), n_resamples=0)
    factor = 10.0**exponent
    scaled = costlib.recommend(ms, (factor, factor * ratio), n_resamples=0)
    assert scaled.cutoffs == one.cutoffs and scaled.rule == one.rule
    assert scaled.verdict == one.verdict and scaled.status == one.status
    assert scaled.cost == pytest.approx(one.cost * factor, rel=1e-9)


@pytest.mark.parametrize("factor", [1e-12, 1e-100, 1e9])
def test_the_capped_answer_and_the_sensitivity_winners_do_not_depend_on_the_unit(factor):
    ms = _sweeps(7)
    one = costlib.recommend(ms, (1.0, 3.0), n_resamples=0, capacity=0.3)
    scaled = costlib.recommend(ms, (factor, 3 * factor), n_resamples=0, capacity=0.3)
    assert scaled.cutoffs == one.cutoffs and scaled.verdict == one.verdict
    grid, small = price_maps({"m": ms}, scale=1.0), price_maps({"m": ms}, scale=factor)
    assert grid.sensitivity["best"].tolist() == small.sensitivity["best"].tolist()
