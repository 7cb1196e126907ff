"""A fair rule judged without a split deals its outer folds once (issue 39): `holding_rule`
nests its folds itself and `judge_rule` no longer deals a second, unused, copy of the same deal
for it; a caller can pass `judge_rule` a deal it has, with the same judged rule as result."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from costlib.binary import fair_judged as FJ
from costlib.binary import fair_tightened as FT
from costlib.binary.decision import sweep_model
from costlib.core.prices import prices_for


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture(scope="module")
def model():
    """Four groups of different base rates, scores rounded to 0.001, no split (cross-fitted)."""
    rng = np.random.default_rng(3)
    n = 1500
    g = rng.integers(0, 4, n)
    x = rng.normal(size=n)
    shift = np.array([-1.0, -0.3, 0.3, 1.0])[g]
    y = (rng.random(n) < 1 / (1 + np.exp(-(1.2 * x + shift)))).astype(int)
    s = np.round(1 / (1 + np.exp(-(1.2 * x + shift + rng.normal(scale=0.3, size=n)))), 3)
    ms = sweep_model(y, s, np.array([f"g{i}" for i in g]))
    assert ms.judged_on == "all"
    return ms, prices_for(ms.groups, (1, 3))


def deals_of_the_fitting_rows(monkeypatch, ms) -> list:
    """Record each `make_folds` call on the fitting rows' sweeps (not the cells' of a refit)."""
    calls = []
    real = FJ.make_folds

    def counted(gs, *args, **kwargs):
        if gs is ms.fit:
            calls.append(kwargs.get("seed"))
        return real(gs, *args, **kwargs)

    monkeypatch.setattr(FJ, "make_folds", counted)
    return calls


def assert_same(a, b):
    for f in dataclasses.fields(a):
        np.testing.assert_equal(getattr(a, f.name), getattr(b, f.name), err_msg=f.name)


@pytest.mark.parametrize("randomised", [True, False])
def test_holding_rule_deals_the_fitting_rows_once(model, monkeypatch, randomised):
    ms, prices = model
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    FT.holding_rule(ms, prices, "demographic parity", 0.01, n_resamples=20, seed=5, randomised=randomised)
    assert calls == [5]  # before: twice, the second copy dealt inside judge_rule and never read


@pytest.mark.parametrize("randomised", [True, False])
def test_a_deal_passed_in_gives_the_same_judged_rule(model, monkeypatch, randomised):
    ms, prices = model
    criterion, tol = "demographic parity", 0.01
    alone = FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5, randomised=randomised)
    folds = FJ.folds_of(ms.fit, ms.fit_pooled, seed=5)
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    passed = FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5, randomised=randomised, folds=folds)
    assert_same(passed, alone)
    assert calls == []
