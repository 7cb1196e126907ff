"""Audit functions: interval coverage, exact fairness search, sensitivity, net benefit."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib import instance, value
from costlib.binary import fairness, sensitivity
from costlib.stats import bootstrap


def test_interval_coverage_of_a_known_cost_is_about_95_percent():
    # Truth: each row costs c_fp = 2 with probability 0.1 (a false positive), c_fn = 5 with
    # probability 0.05 (a false negative), else 0: expected cost per case 0.1*2 + 0.05*5 = 0.45.
    truth = 0.45
    covered = 0
    reps = 200
    for rep in range(reps):
        rng = np.random.default_rng(1000 + rep)
        u = rng.random(400)
        cost = np.where(u < 0.1, 2.0, np.where(u < 0.15, 5.0, 0.0))
        iv, _ = bootstrap.mean_interval(cost, n_resamples=400, seed=rep)
        covered += iv.low <= truth <= iv.high
    # binomial(200, 0.95) lies in [181, 197] with probability > 99.5%
    assert 181 <= covered <= 197, covered


def test_multinomial_bootstrap_matches_index_resampling():
    rng = np.random.default_rng(0)
    values = rng.choice([0.0, 1.0, 3.0], size=300, p=[0.7, 0.2, 0.1])
    _, exact = bootstrap.mean_interval(values, n_resamples=4000, seed=1)
    idx = np.random.default_rng(2).integers(0, values.size, size=(4000, values.size))
    by_index = values[idx].mean(axis=1)
    assert exact.mean() == pytest.approx(by_index.mean(), abs=0.01)
    assert exact.std() == pytest.approx(by_index.std(), rel=0.1)


def test_many_distinct_values_fall_back_to_index_resampling():
    rng = np.random.default_rng(0)
    values = rng.normal(size=2000)  # > MAX_CATEGORIES distinct values
    iv, samples = bootstrap.mean_interval(values, n_resamples=300, seed=0)
    assert samples.shape == (300,)
    assert iv.low < values.mean() < iv.high
    se = values.std() / np.sqrt(values.size)
    assert (iv.high - iv.low) == pytest.approx(2 * 1.96 * se, rel=0.25)


def test_paired_difference_of_identical_rules_is_exactly_zero():
    rng = np.random.default_rng(0)
    cost = rng.choice([0.0, 1.0, 4.0], size=500)
    iv = bootstrap.paired_difference_interval(cost, cost, n_resamples=200)
    assert (iv.estimate, iv.low, iv.high) == (0.0, 0.0, 0.0)
    assert iv.includes_zero()


def _own_rates(sw, criterion) -> list[np.ndarray]:
    """The rate(s) a criterion equalises, from the counts (not from costlib's rate code)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = sw.tp / sw.positives if sw.positives else np.full(sw.tp.shape, np.nan)
        fpr = sw.fp / sw.negatives if sw.negatives else np.full(sw.fp.shape, np.nan)
    return {
        "demographic parity": [(sw.tp + sw.fp) / sw.total],
        "equal opportunity": [tpr],
        "equal false positive rate": [fpr],
        "equal accuracy": [(sw.tp + sw.tn) / sw.total],
        "equalized odds": [tpr, fpr],
    }[criterion]


def brute_fair(y, s, g, costs, criterion, tol):
    """Every combination of per-group thresholds: the cheapest whose rates lie within tol."""
    gs = costlib.grouped_sweep(y, s, g)
    options = []
    for name in gs.groups:
        sw = gs[name]
        rates = np.column_stack(_own_rates(sw, criterion))
        cost = sw.fp * costs[name][0] + sw.fn * costs[name][1]
        options.append(list(zip(rates, cost, strict=True)))
    best = np.inf
    for combo in itertools.product(*options):
        rates = np.array([r for r, _ in combo])  # (groups, rates)
        if np.isnan(rates).any():
            continue
        if (rates.max(axis=0) - rates.min(axis=0)).max() <= tol + 1e-12:
            best = min(best, sum(c for _, c in combo))
    return best / len(y)


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.sampled_from("abc")), min_size=4, max_size=18),
    criterion=st.sampled_from(list(fairness.FAIRNESS_CRITERIA)),
    tol=st.sampled_from([0.0, 0.1, 0.25]),
    prices=st.tuples(st.integers(0, 3), st.integers(1, 3)),
)
def test_fair_thresholds_equal_brute_force(data, criterion, tol, prices):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] / 6 for d in data])
    g = np.array([d[2] for d in data])
    costs = {name: (float(prices[0] + i), float(prices[1])) for i, name in enumerate("abc")}
    with _quiet():
        fit = fairness.fair_thresholds(y, s, g, costs=costs, criterion=criterion, tolerance=tol)
    want = brute_fair(y, s, g, costs, criterion, tol)
    if np.isinf(want):
        assert np.isnan(fit.cost)
        return
    assert fit.cost == pytest.approx(want, abs=1e-12)
    # the chosen cutoffs really satisfy the constraint and really cost that much
    gs = costlib.grouped_sweep(y, s, g)
    total = 0.0
    chosen = []
    for name, t in fit.thresholds.items():
        sw = gs[name]
        j = sw.index_at(t)
        chosen.append([r[j] for r in _own_rates(sw, criterion)])
        total += sw.fp[j] * costs[name][0] + sw.fn[j] * costs[name][1]
    chosen = np.array(chosen)
    assert (chosen.max(axis=0) - chosen.min(axis=0)).max() <= tol + 1e-12
    assert fairness.rate_spread({n: gs[n] for n in gs.groups}, fit.thresholds, criterion) == pytest.approx(
        (chosen.max(axis=0) - chosen.min(axis=0)).max()
    )
    assert total / len(y) == pytest.approx(fit.cost)


class _quiet:
    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


def test_fair_cost_is_never_below_the_unconstrained_optimum_on_the_fitting_rows():
    rng = np.random.default_rng(4)
    n = 3000
    g = rng.choice(["x", "y"], n, p=[0.6, 0.4])
    p = np.clip(rng.beta(2, 5, n) + (g == "y") * 0.15, 0, 1)
    y = rng.random(n) < p
    costs = {"x": (1.0, 4.0), "y": (2.0, 3.0)}
    optimal = costlib.cost_optimal_thresholds(y, p, g, costs=costs)
    best = costlib.group_costs(y, p, g, costs=costs, thresholds=optimal)
    best_total = float((best["fp"] * [1.0, 2.0] + best["fn"] * [4.0, 3.0]).sum() / n)
    for criterion in fairness.FAIRNESS_CRITERIA:
        fit = fairness.fair_thresholds(y, p, g, costs=costs, criterion=criterion, tolerance=0.02)
        assert fit.cost >= best_total - 1e-12
        gs = costlib.grouped_sweep(y, p, g)
        assert fairness.rate_spread({n: gs[n] for n in gs.groups}, fit.thresholds, criterion) <= 0.02 + 1e-12


def test_cost_optimal_for_ratios_equals_optimal_threshold_for_each_price_pair():
    rng = np.random.default_rng(7)
    y = rng.random(500) < 0.3
    s = np.round(rng.random(500), 2)
    sweep = costlib.threshold_sweep(y, s)
    c_fp = np.array([0.1, 1.0, 1.0, 3.0, 10.0, 1.0])
    c_fn = np.array([1.0, 1.0, 3.0, 1.0, 1.0, 50.0])
    got = sensitivity.cost_optimal_for_ratios(sweep, c_fp, c_fn)
    for a, b, t in zip(c_fp, c_fn, got, strict=True):
        t_ref, cost_ref = costlib.optimal_threshold(y, s, c_fp=a, c_fn=b)
        j = sweep.index_at(t)
        cost = (sweep.fp[j] * a + sweep.fn[j] * b) / sweep.total
        assert cost == pytest.approx(cost_ref, abs=1e-12)


def brute_cost(y, s, t, c_fp, c_fn):
    flagged = s >= t
    return (c_fp * np.sum(flagged & ~y) + c_fn * np.sum(~flagged & y)) / y.size


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_sensitivity_grid_picks_the_model_as_recommend_does(seed):
    """Among models the one cheapest on train (as `recommend`), then against the two decisions
    without a model on test; brute force per pair."""
    rng = np.random.default_rng(seed)
    n = 800
    y = rng.random(n) < 0.25
    tr = rng.random(n) < 0.5
    # "a" is sharp on the train rows and noisy on the test rows, "b" the other way round
    a = 1 / (1 + np.exp(-(3 * y - 1.5 + rng.normal(0, np.where(tr, 0.5, 2.5)))))
    b = 1 / (1 + np.exp(-(3 * y - 1.5 + rng.normal(0, np.where(tr, 2.5, 0.5)))))
    scores = {"a": a, "b": b}
    sweeps_tr = {m: costlib.threshold_sweep(y[tr], s[tr]) for m, s in scores.items()}
    sweeps_te = {m: costlib.threshold_sweep(y[~tr], s[~tr]) for m, s in scores.items()}
    fps, fns = [0.5, 1, 5], [0.5, 2, 20]
    grid = sensitivity.sensitivity_grid(sweeps_tr, sweeps_te, c_fp_values=fps, c_fn_values=fns)
    test_beats_train = 0
    for (fp, fn), part in grid.groupby(["c_fp", "c_fn"]):
        costs = part.set_index("option")["cost_per_case"]
        cuts = {m: costlib.optimal_threshold(y[tr], s[tr], c_fp=fp, c_fn=fn)[0] for m, s in scores.items()}
        fit = {m: brute_cost(y[tr], s[tr], cuts[m], fp, fn) for m, s in scores.items()}
        model = min(scores, key=lambda m: (fit[m], list(scores).index(m)))
        test_beats_train += costs.drop(["flag nobody", "flag everyone"]).idxmin() != model
        for m, s in scores.items():
            assert costs[m] == pytest.approx(brute_cost(y[~tr], s[~tr], cuts[m], fp, fn), abs=1e-12)
        assert costs["flag nobody"] == pytest.approx(fn * y[~tr].mean())
        options = {"flag nobody": costs["flag nobody"], "flag everyone": costs["flag everyone"], model: costs[model]}
        lowest = min(options.values())
        want = next(o for o, c in options.items() if c <= lowest + 1e-9)
        assert part["best"].iloc[0] == want
    assert test_beats_train > 0  # the data do separate "cheapest on test" from "cheapest on train"
    leader, lo, hi = sensitivity.ratio_range(sweeps_tr, sweeps_te, c_fp=1.0, c_fn=3.0)
    assert lo <= 3.0 <= hi
    at_three = sensitivity.sensitivity_grid(sweeps_tr, sweeps_te, c_fp_values=[1.0], c_fn_values=[3.0])
    assert at_three["best"].iloc[0] == leader


@pytest.mark.parametrize("c_fp,c_fn", [(1.0, 3.0), (2.0, 2.0), (1.0, 9.0), (4.0, 1.0)])
def test_saving_over_flag_nobody_at_elkan_threshold_is_c_fn_times_net_benefit(c_fp, c_fn):
    rng = np.random.default_rng(11)
    y = rng.random(2000) < 0.3
    p = np.clip(y * 0.3 + rng.random(2000) * 0.7, 0, 1)
    sweep = costlib.threshold_sweep(y, p)
    t = costlib.elkan_threshold(c_fp, c_fn)
    nb = sensitivity.net_benefit(sweep, t)
    # cost(nobody) - cost(t) = (P c_fn - FP c_fp - FN c_fn) / n = (TP c_fn - FP c_fp) / n = c_fn * NB(t)
    nobody = costlib.expected_cost(y, np.zeros_like(y), c_fp=c_fp, c_fn=c_fn)
    at_t = costlib.expected_cost(y, p >= t, c_fp=c_fp, c_fn=c_fn)
    assert nobody - at_t == pytest.approx(c_fn * nb, abs=1e-12)


def test_net_benefit_curves_reference_lines():
    y = np.array([1, 0, 1, 0, 0])
    p = np.array([0.9, 0.2, 0.6, 0.4, 0.7])
    curves = sensitivity.net_benefit_curves({"m": costlib.threshold_sweep(y, p)}, [0.5])
    everybody = curves[curves["option"] == "flag everyone"]["net_benefit"].iloc[0]
    # flag everybody at t = 0.5: TP/n - FP/n * 1 = 2/5 - 3/5
    assert everybody == pytest.approx(-0.2)
    assert curves[curves["option"] == "flag nobody"]["net_benefit"].iloc[0] == 0.0
    # model at t = 0.5 flags 0.9, 0.6, 0.7: TP 2, FP 1: 2/5 - 1/5
    assert curves[curves["option"] == "m"]["net_benefit"].iloc[0] == pytest.approx(0.2)


def test_nec_and_value_intervals_contain_their_estimates():
    rng = np.random.default_rng(3)
    delta = rng.choice([-2.0, -0.5, 0.3, 1.5], size=600)
    pred = rng.random(600) < 0.5
    iv = instance.nec_interval(pred, delta, n_resamples=300)
    assert iv.low <= iv.estimate <= iv.high
    assert iv.estimate == pytest.approx(costlib.normalized_excess_cost(pred, delta))
    y = rng.random(600) < 0.4
    p = rng.random(600)
    v = value.value_interval(y, p, k=2.0, n_resamples=300)
    assert v.estimate == pytest.approx(costlib.value_score(y, p, k=2.0).value)
    assert v.low <= v.estimate <= v.high


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="criterion must be one of"):
        fairness.fair_thresholds([0, 1], [0.1, 0.9], ["a", "b"], costs={"a": (1, 1), "b": (1, 1)}, criterion="nope")
    with pytest.raises(ValueError, match="level must be a number strictly between 0 and 1"):
        bootstrap.mean_interval([1.0, 2.0], level=1.5)
    with pytest.raises(ValueError, match="n_resamples must be a whole number of at least 10"):
        bootstrap.mean_interval([1.0, 2.0], n_resamples=3)
    with pytest.raises(ValueError, match="num and den must have the same length"):
        bootstrap.ratio_interval([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="cost_a and cost_b must have the same length"):
        bootstrap.paired_difference_interval([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="k must be non-negative"):
        value.value_interval([0, 1], [0.2, 0.9], k=-1)
    with pytest.raises(ValueError, match="y_pred and delta must have the same length"):
        instance.nec_interval([0, 1], [0.5])


@pytest.mark.parametrize("seed", range(12))
def test_ratio_range_is_exact(seed):
    """The leader holds at every ratio inside the range and changes just outside it."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(30, 400))
    y = rng.random(n) < rng.uniform(0.1, 0.6)
    tr = rng.random(n) < 0.5
    scores = {
        f"m{i}": np.round(np.clip(y * rng.uniform(0, 0.5) + rng.random(n), 0, 1), int(rng.integers(1, 4)))
        for i in range(int(rng.integers(1, 4)))
    }
    train = {m: costlib.threshold_sweep(y[tr], s[tr]) for m, s in scores.items()}
    test = {m: costlib.threshold_sweep(y[~tr], s[~tr]) for m, s in scores.items()}
    r0 = float(np.exp(rng.uniform(np.log(0.01), np.log(100))))
    leader, lo, hi = sensitivity.ratio_range(train, test, c_fp=1.0, c_fn=r0)
    assert lo <= r0 <= hi

    def choice(r):
        return sensitivity.sensitivity_grid(train, test, c_fp_values=[1.0], c_fn_values=[r])["best"].iloc[0]

    inside = np.geomspace(lo * (1 + 1e-9), hi * (1 - 1e-9), 300) if hi > lo * (1 + 1e-8) else [r0]
    assert all(choice(r) == leader for r in inside)
    if lo > sensitivity.RATIO_LIMITS[0] * (1 + 1e-9):
        assert choice(lo * (1 - 1e-7)) != leader
    if hi < sensitivity.RATIO_LIMITS[1] * (1 - 1e-9):
        assert choice(hi * (1 + 1e-7)) != leader


def test_fairness_results_are_the_audits():
    """One fairness rule set: the page's `fairness_results` is what `build_audit` shows."""
    from costlib.answers.audit import build_audit
    from costlib.binary.decision import sweep_model

    rng = np.random.default_rng(3)
    n = 400
    g = rng.choice(["a", "b"], n)
    y = (rng.random(n) < np.where(g == "a", 0.3, 0.5)).astype(int)
    s = np.clip(0.35 * y + rng.random(n) * 0.7, 0, 1)
    split = rng.random(n) < 0.5
    ms = sweep_model(y, s, g, fit=split, judge=~split)
    a = build_audit(ms, (1.0, 2.0), n_resamples=100, fairness_tolerance=0.1)
    fr = fairness.fairness_results(
        ms, a.recommendation.prices, criteria=a.criteria, tolerance=0.1, n_resamples=100, seed=0
    )
    assert set(fr.rules) == {"fair: " + c for c in a.criteria}
    assert set(fr.fits) == set(a.criteria)
    pd.testing.assert_frame_equal(fr.results.overall, a.results.overall)
    pd.testing.assert_frame_equal(fr.results.by_group, a.results.by_group)
    pd.testing.assert_frame_equal(fr.summary, a.fairness_summary)
    pd.testing.assert_frame_equal(fr.fairness, a.fairness)
