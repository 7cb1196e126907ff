"""One figure, one interval (issue 43): where the single cutoff, cross-fitted, decides every judged
row as the no-model choice does (every fold's cutoff flags everybody, or nobody), the per-group
cutoffs' extra saving over one cutoff for everyone and their saving against the no-model choice
are one quantity, so the recommendation, the rules table and every comparison must give it one
interval: the per-group cutoffs' saving's, the bootstrap shrunk toward the per-row differences'
variance (`honest.row_variance`, `honest.shrunk_intervals`)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import costlib
from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.binary.refit_moves import single_cutoff_moves
from costlib.core import rules as R
from costlib.stats.intervals import centred_interval


def _everybody(seed: int):
    """Group "a" (600 rows, 40% positive, c_fn 7.5) all at the lowest score, tied, so that any
    cutoff above it leaves all of "a" unflagged (3.0 a case instead of 0.6): one cutoff for
    everyone flags everybody on every fold, while "b" (300 rows, 1:1) has a cutoff of its own."""
    rng = np.random.default_rng([seed, 43])
    g = np.array(["a"] * 600 + ["b"] * 300)
    y = np.concatenate([rng.random(600) < 0.4, rng.random(300) < 0.3]).astype(int)
    s = np.where(g == "a", -10.0, rng.normal(size=900) + 0.3 * y)
    return (y, s, g), {"a": (1.0, 7.5), "b": (1.0, 1.0)}


def _nobody(seed: int):
    """No signal, 300 rows, base rates 0.2 and 0.25, prices 1:1 and 1:2: flagging nobody is the
    no-model choice in both groups, and on some data sets every fold's single cutoff flags nobody."""
    rng = np.random.default_rng([seed, 4343])
    g = np.where(rng.random(300) < 0.7, "g0", "g1")
    y = (rng.random(300) < np.where(g == "g0", 0.2, 0.25)).astype(int)
    return (y, rng.normal(size=300), g), {"g0": (1.0, 1.0), "g1": (1.0, 2.0)}


def _recommend(data, seed):
    (y, s, g), prices = data(seed)
    ms = D.sweep_model(y, s, g, probabilities=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", costlib.DegenerateWarning)
        return ms, D.recommend(ms, prices, n_resamples=200, seed=seed)


def _table(res, rule):
    """(saving, low, high) of `rule` against the no-model choice, as the rules table shows it."""
    o = res.overall
    return tuple(-float(o.loc[rule, c]) for c in ("vs_baseline", "vs_high", "vs_low"))


def _is_baseline(res, rule, baseline):
    """Whether `rule`, cross-fitted, flags all or none of every group exactly as the baseline."""
    bg = res.by_group
    mine, base = (bg[bg["rule"] == r][["fp", "fn"]].to_numpy() for r in (rule, baseline))
    return bool(np.array_equal(mine, base))


@pytest.mark.parametrize(
    ("data", "seed", "same"),
    [
        (_everybody, 0, {R.SINGLE}),
        (_everybody, 1, {R.SINGLE}),
        (_nobody, 0, {R.SINGLE}),
        (_nobody, 2, {R.SINGLE}),
        (_nobody, 4, {R.COST_OPTIMAL}),
        (_nobody, 8, {R.SINGLE, R.COST_OPTIMAL}),
    ],
)
def test_a_rule_that_is_the_no_model_choice_on_the_judged_rows_gives_one_interval(data, seed, same):
    """The extra saving of per-group cutoffs (single minus per-group) where one of the two is the
    no-model choice on every judged row is the other's saving against it, with the rules table's
    interval; a rule that is the no-model choice saves 0 +- 0 on these rows (the single cutoff +- how
    far the one shipped moves with them); and per-group cutoffs are
    recommended exactly when that one interval is above zero."""
    ms, rec = _recommend(data, seed)
    res = rec.results
    assert {r for r in (R.SINGLE, R.COST_OPTIMAL) if _is_baseline(res, r, rec.baseline)} == same
    for rule in same:  # the rows say 0 +- 0; the single cutoff shipped, fitted on all rows, still moves with them
        half = H.Z95 * math.sqrt(single_cutoff_moves(ms, rec.prices, seed=seed)) if rule == R.SINGLE else 0.0
        np.testing.assert_allclose(_table(res, rule), (0.0, -half, half), rtol=0, atol=1e-12)
    if same == {R.SINGLE}:
        want = _table(res, R.COST_OPTIMAL)  # single minus per-group = baseline minus per-group
    elif same == {R.COST_OPTIMAL}:
        saving, low, high = _table(res, R.SINGLE)  # = single minus baseline
        want = (-saving, -high, -low)
    else:
        want = (0.0, 0.0, 0.0)
    assert all(math.isfinite(x) for x in want)
    np.testing.assert_allclose(rec.group_gain, want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.paired(R.SINGLE, R.COST_OPTIMAL), want, rtol=0, atol=1e-12)
    reverse = (-want[0], -want[2], -want[1])  # per-group minus single: how much costlier
    np.testing.assert_allclose(res.paired(R.COST_OPTIMAL, R.SINGLE), reverse, rtol=0, atol=1e-12)
    assert (rec.rule == R.COST_OPTIMAL) == (want[1] > 0)
    if rec.rule == R.COST_OPTIMAL:  # recommended exactly when they ship, unless their saving is the groups' own
        # ("a" has no signal at all: flagging everyone in it and nearly nobody in "b" is deciding by group alone)
        assert rec.ship_model != rec.held_by_groups
        np.testing.assert_allclose((rec.saving, rec.saving_low, rec.saving_high), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize(("data", "seed"), [(_everybody, 0), (_nobody, 0)])
def test_the_per_group_cutoffs_saving_is_the_bootstrap_shrunk_toward_its_rows(data, seed):
    """Against the no-model choice the per-group cutoffs' saving is its estimate +- 1.96 se, se**2 =
    the per-row differences' variance + 0.632 x what the refit bootstrap's (read from its centred
    interval) adds to it: the rule their extra saving and each group's cost take. The fold-aware
    standard error the single cutoff's saving takes was 0.58 to 0.87 times the ideal width for
    per-group cutoffs on data without signal (`benchmarks/README.md`, "One figure, one interval")."""
    ms, rec = _recommend(data, seed)
    res = rec.results
    o = res.overall
    vs = float(o.loc[R.COST_OPTIMAL, "vs_baseline"])
    c = H.judge(ms, rec.prices, n_resamples=0, seed=seed).crossfit.per_group  # mean counts over the deals
    n = res.by_group[res.by_group["rule"] == R.COST_OPTIMAL]["n"].to_numpy(dtype=np.float64)
    c_fp, c_fn = rec.prices.c_fp, rec.prices.c_fn
    if rec.baseline == R.NOBODY:  # a flagged positive saves c_fn, a flagged negative costs c_fp
        parts = ((c["tp"], -c_fn), (c["fp"], c_fp))
    else:  # against flagging everyone: a missed positive costs c_fn, a passed negative saves c_fp
        parts = ((c["fn"], c_fn), (n - c["tp"] - c["fp"] - c["fn"], -c_fp))
    total = n.sum()
    mean = sum(np.sum(k * x) for k, x in parts) / total
    square = sum(np.sum(k * x * x) for k, x in parts) / total
    rows = (square - mean**2) * total / (total - 1) / total  # the per-row differences' variance of the mean
    assert rows > 0
    b_lo, b_hi = centred_interval(vs, res.refit[R.COST_OPTIMAL] - res.refit["baseline"])
    boot = ((b_hi - b_lo) / (2 * H.Z95)) ** 2
    se = math.sqrt(rows + (1 - math.exp(-1)) * max(boot - rows, 0.0))
    np.testing.assert_allclose(
        [o.loc[R.COST_OPTIMAL, "vs_low"], o.loc[R.COST_OPTIMAL, "vs_high"]],
        [vs - H.Z95 * se, vs + H.Z95 * se],
        rtol=0,
        atol=1e-12,
    )
