"""A fair rule judged without a split deals its outer folds once (issue 39): `holding_rule`
nests its folds itself and `judge_rule` no longer deals a second, unused, copy of the same deal
for it; a caller can pass `judge_rule` and `holding_rule` a deal it has, with the same judged
rule as result. The audit's fairness part (`fairness_results`) deals the fitting rows once for
every criterion, fits each criterion's cutoffs on them once at the stated tolerance, and draws
the resamples behind the gaps' intervals, and the cells `tighter_tolerance` chooses on, once
for every rule (and price)."""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter

import numpy as np
import pytest

from costlib.binary import fair_judged as FJ
from costlib.binary import fair_search, fairness
from costlib.binary import fair_tightened as FT
from costlib.binary import honest as H
from costlib.binary.decision import sweep_model
from costlib.binary.folds import FOLDS
from costlib.core.prices import prices_for


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture
def model():
    """Four groups of different base rates, scores rounded to 0.001, no split (cross-fitted); new
    sweeps for each test, so that no deal is cached on them from another."""
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
    """Record each `make_folds` call on the fitting rows' sweeps (not the cells' of a refit),
    by the fairness rules (`fair_judged`) and by the refit bootstrap (`honest`)."""
    calls = []
    real = FJ.make_folds

    def counted(gs, *args, **kwargs):
        if gs is ms.fit:
            calls.append(kwargs.get("seed"))
        return real(gs, *args, **kwargs)

    monkeypatch.setattr(FJ, "make_folds", counted)
    monkeypatch.setattr(H, "make_folds", counted)
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
@pytest.mark.parametrize("judge", [FJ.judge_rule, FT.holding_rule])
def test_a_deal_passed_in_gives_the_same_judged_rule(model, monkeypatch, randomised, judge):
    ms, prices = model
    criterion, tol = "demographic parity", 0.01
    alone = judge(ms, prices, criterion, tol, n_resamples=20, seed=5, randomised=randomised)
    folds = FJ.folds_of(ms.fit, ms.fit_pooled, seed=5)
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    passed = judge(ms, prices, criterion, tol, n_resamples=20, seed=5, randomised=randomised, folds=folds)
    assert alone is not None  # fitted at the stated tolerance, this rule may miss it: a tighter one is judged
    assert_same(passed, alone)
    assert calls == []


CRITERIA = ("demographic parity", "equal opportunity", "equal false positive rate")


def test_the_fairness_part_deals_the_fitting_rows_once(model, monkeypatch):
    ms, prices = model
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    fr = fairness.fairness_results(ms, prices, criteria=CRITERIA, tolerance=0.01, n_resamples=20, seed=5)
    assert len(fr.judged) > len(CRITERIA)  # tightened or randomised rules were judged too, on the same deal
    # before: in every judge_rule and holding_rule (9 here), then once more by the refit bootstrap of
    # the recommendation `fairness_results` makes (`honest.fitting_folds` now serves both)
    assert calls == [5]


def test_an_audit_deals_the_fitting_rows_once_for_the_recommendation_and_the_fairness_rules(model, monkeypatch):
    """The audit recommends first (its refit bootstrap deals the fitting rows), then judges the
    fairness rules on the same deal: one deal in all."""
    from costlib.binary.decision import recommend

    ms, prices = model
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    recommend(ms, prices.as_dict(), n_resamples=20, seed=5)
    fairness.fairness_results(ms, prices, criteria=CRITERIA, tolerance=0.01, n_resamples=20, seed=5)
    assert calls == [5]
    assert_same(H.fitting_folds(ms, 5), FJ.folds_of(ms.fit, ms.fit_pooled, seed=5))  # the deal either would make


def test_the_fairness_part_fits_each_criterion_once_at_the_stated_tolerance(model, monkeypatch):
    ms, prices = model
    fits = Counter()
    real = fair_search.fair_cutoffs

    def counted(gs, *args, **kwargs):
        if gs is ms.fit:
            fits[kwargs["criterion"], kwargs["tolerance"]] += 1
        return real(gs, *args, **kwargs)

    monkeypatch.setattr(fair_search, "fair_cutoffs", counted)  # read by fair_judged.fit_quietly
    monkeypatch.setattr(fairness, "fair_cutoffs", counted)  # read by fairness.fairness_rules
    fairness.fairness_results(ms, prices, criteria=CRITERIA, tolerance=0.01, n_resamples=20, seed=5)
    assert {k for k in fits if k[1] == 0.01} == {(c, 0.01) for c in CRITERIA}
    assert set(fits.values()) == {1}  # before: twice each, in fairness_rules and again in judge_rule


def test_the_fairness_part_draws_its_resamples_once_for_every_rule_and_price(model, monkeypatch):
    """Every judged gap's interval resamples the same cells with the same seed: the draws are
    made once on the sweeps (before: two `poisson_cells` per judged rule, at every price)."""
    ms = dataclasses.replace(model[0])  # the same sweeps, without the other tests' draws on them
    calls = []
    real = FJ.poisson_cells

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(FJ, "poisson_cells", counted)
    for c_fn in (3, 5):
        fr = fairness.fairness_results(
            ms, prices_for(ms.groups, (1, c_fn)), criteria=CRITERIA, tolerance=0.01, n_resamples=20, seed=5
        )
        assert len(fr.judged) > len(CRITERIA)
    assert calls == [20, 20]  # positives and negatives, once


def test_the_tighter_tolerance_deals_each_rows_cells_once(model, monkeypatch):
    """`tighter_tolerance` deals the cells of the fitting rows: the same cells for every criterion,
    randomised or not, and every price, so they are dealt once (before: once a call, 36 deals in the
    first audit here). The tolerance is chosen once, on all fitting rows, not again inside each outer
    fold: the rule fitted at it is cross-fitted as any other (review: a nested estimate judged another
    procedure than its intervals)."""
    ms = dataclasses.replace(model[0])
    calls = []
    real = FT.folds_of

    def counted(gs, *args, **kwargs):
        calls.append(gs.thresholds.size)
        return real(gs, *args, **kwargs)

    monkeypatch.setattr(FT, "folds_of", counted)
    fairness.fairness_results(ms, prices_for(ms.groups, (1, 3)), criteria=CRITERIA, tolerance=0.01, n_resamples=20)
    first = len(calls)
    assert first == 1  # the fitting rows' cells
    fairness.fairness_results(ms, prices_for(ms.groups, (1, 5)), criteria=CRITERIA, tolerance=0.01, n_resamples=20)
    assert len(calls) == first  # another price: the same cells, no deal


def test_resampled_cells_are_read_only_and_the_same_as_drawn_afresh(model):
    ms, _ = model
    edges, *draws = FJ.resample_cells(ms, 20, 5)
    assert FJ.resample_cells(ms, 20, 5)[1] is draws[0]
    fresh = FJ.resample_cells(dataclasses.replace(ms), 20, 5)  # a copy of the sweeps: drawn again
    assert fresh[1] is not draws[0]
    for a, b in zip(draws, fresh[1:], strict=True):
        np.testing.assert_array_equal(a, b)
        assert not a.flags.writeable
    np.testing.assert_array_equal(edges, fresh[0])


def test_a_fit_passed_in_gives_the_same_judged_rule_and_must_be_this_rules(model):
    ms, prices = model
    criterion, tol = "equal opportunity", 0.01
    fit = fair_search.fair_cutoffs(ms.fit, prices, criterion=criterion, tolerance=tol)
    alone = FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5)
    assert_same(FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5, fit=fit), alone)
    for wrong in (
        {"fit_tolerance": 0.005},
        {"randomised": True},
    ):
        with pytest.raises(ValueError, match="fit must be the deterministic fair_cutoffs"):
            FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5, fit=fit, **wrong)
    other = fair_search.fair_cutoffs(ms.fit, prices, criterion="demographic parity", tolerance=tol)
    with pytest.raises(ValueError, match="fit must be the deterministic fair_cutoffs"):
        FJ.judge_rule(ms, prices, criterion, tol, n_resamples=20, seed=5, fit=other)


def test_on_a_sweep_of_one_deal_the_estimate_reads_the_same_deal(model, monkeypatch):
    """Above `folds.SPLIT_BUDGET` (200,000 distinct scores at ten folds) the cross-fitted estimate
    is one deal of `FOLDS` folds: the very deal the refit bootstrap and the fairness rules read,
    which was dealt a second time for it (`folds.dealt_folds`)."""
    from costlib.binary import folds as F
    from costlib.binary.decision import recommend

    ms, prices = model
    monkeypatch.setattr(F, "SPLIT_BUDGET", 1)  # as if the sweep were that large
    assert F.deal_shape(ms.fit) == (FOLDS, 1)
    calls = deals_of_the_fitting_rows(monkeypatch, ms)
    monkeypatch.setattr(F, "make_folds", H.make_folds)  # `dealt_folds` deals through it: counted too
    rec = recommend(ms, prices.as_dict(), n_resamples=20, seed=5)
    fairness.fairness_results(ms, prices, criteria=CRITERIA, tolerance=0.01, n_resamples=20, seed=5)
    assert calls == [5] and np.isfinite(rec.saving)  # before: [5, 5], the estimate's deal then the bootstrap's
    (dealt,) = F.dealt_folds(ms.fit, ms.fit_pooled, ms.pooled_index("fit"), seed=5)
    assert_same(dealt, H.fitting_folds(ms, 5))  # the deal the estimate made on its own: the same answer
