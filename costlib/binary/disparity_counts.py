"""What a group's own counts can say of its disparities: the one interval of a group's rate or
cost per case from its counts alone, and the one test of whether a result rests on too few cases.

A percentile interval of resamples claims certainty where a group has no events: 8 cases with no
mistakes resample to no mistakes every time, so its cost per case read "0.00 (0.00 to 0.00)",
"fails" (fairness review: no mistakes in 8 cases happens about a third of the time at a 12% error
rate). The exact (Clopper-Pearson) interval of a count does not: none of 8 allows up to 37% of
them. `binary.disparity` widens each group's resampled interval to hold this one (`own_intervals`)
and reads "too few cases" off it (`too_few`), for the rates and the cost per case alike; the rates
per group (`binary.fairness.group_rates`) and Watch's groups (`watch.groups`) hold theirs the same
way (`held`).
"""

from __future__ import annotations

import math

import numpy as np

LEVEL = 0.95  # as every interval of the disparities


def share_bounds(k, n, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): the exact (Clopper-Pearson) interval of the share `k` of `n` (arrays of any
    one shape; weighted counts are read as counts), NaN where `n` is not positive or either is not
    finite. With no events the low end is 0 and the high end 1 - (0.025)^(1/n) at 95% (about 3/n,
    the rule of three); with every case an event, the mirror image.

    >>> lo, hi = share_bounds([0, 4, 8], [8, 8, 8])
    >>> [round(float(x), 3) for x in lo], [round(float(x), 3) for x in hi]
    ([0.0, 0.157, 0.631], [0.369, 0.843, 1.0])
    """
    from scipy.special import betaincinv  # SciPy's beta quantile, without importing scipy.stats

    k, n = np.broadcast_arrays(np.asarray(k, dtype=np.float64), np.asarray(n, dtype=np.float64))
    ok = np.isfinite(k) & np.isfinite(n) & (n > 0)
    n_ = np.where(ok, n, 1.0)
    k_ = np.clip(np.where(ok, k, 0.0), 0.0, n_)
    alpha = (1.0 - level) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(k_ > 0, betaincinv(np.maximum(k_, 1e-300), n_ - k_ + 1.0, alpha), 0.0)
        hi = np.where(k_ < n_, betaincinv(k_ + 1.0, np.maximum(n_ - k_, 1e-300), 1.0 - alpha), 1.0)
    return np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def own_intervals(tp, fp, fn, n, *, c_fp=None, c_fn=None, dearest=None, decided: bool = False) -> dict:
    """{metric: (low, high)}: each group's exact 95% interval of its flagged rate, true positive
    rate, false positive rate, false negative rate and, at prices `c_fp`, `c_fn` (per group), cost
    per case, from its own counts alone (`share_bounds`), groups on the last axis, NaN where it has
    none of the cases a rate is a share of.

    A rate is its events (flagged cases, caught positives, false positives, false negatives) out of
    the count it is a share of (`disparity.out_of`). The cost per case, (c_fp * FP + c_fn * FN) / n,
    bounds its two kinds of mistake apart, each as a share of the group's cases with its own exact
    interval, and combines how far each share's ends lie from it, at its price, as independent errors
    are (the root of the sum of squares): summed outright, the two ends were about 1.4 times as wide
    as the cost's own exact interval where the prices are equal, and a group of 10,000 cases read "could
    be chance" at a ratio of 0.75 (a last read). A mistake more never lowers the top (each share's high
    end grows with its count by at least the share's own step); priced at the mean price of the
    mistakes made, a group of 8 cases read $0.00 to $3.69 with no mistake and $0.003 to $0.53 with one
    false positive at $1 beside false negatives at $10.

    Shares of the cases, not of each class: new cases redraw a group's share of positives too (the
    disparities compare groups on them), and bounded within each class at the group's own class
    counts, a group of 1,000 that flags nobody read its cost per case as certain to a cent whatever
    its share of positives (holding the true cost 10% of the time). By simulation (groups of 3 to
    10,000 cases, chances of each mistake 0 to 40%, prices 1:1 to 10:1, 4,000 groups each) the
    interval held the true cost per case 94.3% to 100% of the time (the sum of the ends: 94.9% to
    100%, up to 1.4 times as wide); tests/binary/test_disparity_cost_bounds.py simulates a few.

    `dearest`, (c_fp, c_fn) per group: where a group's cases are priced apart (a group of groups,
    `disparity.column_disparities`), the dearest price of each kind of mistake among them, its high
    end's, and `c_fp`, `c_fn` the cheapest, its low end's. Without prices, no cost per case.

    `decided`: the caller's word that the rule is a no-model choice, flagging every case of every
    group or none BY ITS CUTOFFS, whatever the rows (`all_or_none`): its rates are then
    exactly what it decides, with no uncertainty from the counts (review 71, item 5: "100.0% (99.8%
    to 100.0%)" for a rule that flags everyone); its cost per case still varies with the share of
    positives new cases bring. Never read off the counts: a real cutoff that happens to flag all 30
    cases of a small month (Watch) keeps its intervals (0 missed of 25 positives allows up to 13.7%).

    >>> tops = [own_intervals([4], [fp], [0], [8], c_fp=[1.0], c_fn=[10.0])["cost per case"][1] for fp in (0, 1)]
    >>> [round(float(x[0]), 2) for x in tops]  # no mistake among 8 cases, then one false positive
    [3.71, 3.84]
    """
    tp, fp, fn, n = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, n))
    pos = tp + fn
    counts = {
        "flagged rate": (tp + fp, n),
        "true positive rate": (tp, pos),
        "false positive rate": (fp, n - pos),
        "false negative rate": (fn, pos),
    }
    out = {m: share_bounds(k, whole) for m, (k, whole) in counts.items()}
    if decided:  # flagged or not by the rule itself: its rates are what it decides, not drawn
        with np.errstate(invalid="ignore", divide="ignore"):
            out = {m: (k / whole, k / whole) for m, (k, whole) in counts.items()}
    if c_fp is not None and c_fn is not None:
        (fp_lo, fp_hi), (fn_lo, fn_hi) = share_bounds(fp, n), share_bounds(fn, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            p_fp, p_fn = fp / n, fn / n
        c = [np.asarray(x, dtype=np.float64) for x in (c_fp, c_fn, *((c_fp, c_fn) if dearest is None else dearest))]
        low = c[0] * p_fp + c[1] * p_fn - np.hypot(c[0] * (p_fp - fp_lo), c[1] * (p_fn - fn_lo))
        high = c[2] * p_fp + c[3] * p_fn + np.hypot(c[2] * (fp_hi - p_fp), c[3] * (fn_hi - p_fn))
        out["cost per case"] = (np.where(np.isfinite(tp), low, np.nan), np.where(np.isfinite(tp), high, np.nan))
    return out


def all_or_none(ms, cut: dict) -> bool:
    """Whether the cutoffs `cut` ({group: cutoff}) flag every case of every group of `ms` (a
    `decision.ModelSweeps`), on the rows they were fitted on and on those they are judged on, or
    none of any: a no-model choice by the rule itself, whatever its counts. Then every rate but
    accuracy is the same in every group (all flagged, or none), which is what the fairness table
    calls trivially equal, and known exactly (`own_intervals`' `decided`). A group without scores
    does not count against it. The one decision: never read off the counts, where a real cutoff
    can flag all 30 cases of a small month (Watch)."""

    def lowest(g) -> float:
        scores = [x for x in (ms.fit[g].lowest_score, ms.judge[g].lowest_score) if x is not None]
        return min(scores) if scores else math.inf

    cuts = [cut[g] for g in ms.groups]
    return all(t <= lowest(g) for t, g in zip(cuts, ms.groups, strict=True)) or all(t == math.inf for t in cuts)


def price_span(member, c_fp, c_fn) -> tuple:
    """((c_fp, c_fn), (c_fp, c_fn)): the cheapest and the dearest price of a false positive and of
    a false negative in each group of groups, `member` (groups, groups of groups) 1 where a group
    is one of its, at the groups' prices `c_fp`, `c_fn` (`disparity.column_disparities`).

    >>> price_span(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([1.0, 2.0]), np.array([5.0, 3.0]))
    ((array([1., 2.]), array([3., 3.])), (array([2., 2.]), array([5., 3.])))
    """
    inside = np.asarray(member) > 0
    prices = [np.broadcast_to(np.asarray(c, dtype=np.float64), inside.shape[:1])[:, None] for c in (c_fp, c_fn)]
    cheapest = tuple(np.where(inside, c, np.inf).min(axis=0) for c in prices)
    dearest = tuple(np.where(inside, c, -np.inf).max(axis=0) for c in prices)
    return cheapest, dearest


def held(low, high, own) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): resampled intervals (`low`, `high`, groups on the last axis) each moved out to
    hold the group's own exact one `own` ((low, high), `own_intervals`): the hull of the two, where
    the resamples give both ends; none is made where they give none (an end NaN). What the rates
    per group (`fairness.group_rates`) and Watch's groups (`watch.groups`) show, as `widened` holds
    a ratio's and a difference's.

    >>> held([0.0, np.nan], [0.0, np.nan], ([0.0, 0.0], [0.37, 0.37]))
    (array([ 0., nan]), array([0.37,  nan]))
    """
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    e_low, e_high = (np.asarray(x, dtype=np.float64) for x in own)
    known = np.isfinite(low) & np.isfinite(high)
    return np.where(known, np.fmin(low, e_low), low), np.where(known, np.fmax(high, e_high), high)


def too_few(passes: bool, low: float, high: float, reference: float, threshold: float) -> bool:
    """Whether a result rests on too few cases: the group's own interval [`low`, `high`]
    (`own_intervals`) over the reference group's value reaches past both lines of the pass range
    [threshold, 1 / threshold] for a pass (a failure either way fits its counts as well: there is
    nothing to see), or into the range for a failure. The reference's value is taken as it is:
    its own noise is in the ratio's resampled interval, so that "too few cases" speaks of the
    group's own count, the one its row shows. False without a result, a value or a reference
    above 0.

    >>> too_few(True, 0.0006, 0.13, 0.022, 0.8), too_few(False, 0.0, 0.0073, 0.08, 0.8)
    (True, False)
    """
    if passes is None or not all(math.isfinite(float(x)) for x in (low, high, reference)) or reference <= 0:
        return False
    lo, hi = float(low) / float(reference), float(high) / float(reference)
    bottom, top = threshold * (1 - 1e-12), (1 + 1e-12) / threshold
    if passes:
        return lo < bottom and hi > top
    return hi >= bottom and lo <= top


def widened(spans: np.ndarray, low, high, reference: float, ref_i: int) -> np.ndarray:
    """`spans` (ratio low, ratio high, difference low, high: (4, groups), resampled) of one metric,
    each group's ends moved out to hold its own interval [`low`, `high`] (`own_intervals`) over
    the reference group's value `reference` (ratio) and less it (difference): the hull of the two.
    The reference group's own row, an end without resamples (NaN) and a reference that is not
    above 0 (no ratio) keep theirs.

    >>> widened(np.array([[0.0, 1.0], [0.0, 1.0], [-0.2, 0.0], [-0.2, 0.0]]), [0.0, 0.1], [0.4, 0.3], 0.2, 1)
    array([[ 0. ,  1. ],
           [ 2. ,  1. ],
           [-0.2,  0. ],
           [ 0.2,  0. ]])
    """
    out = np.array(spans, dtype=np.float64, copy=True)
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    if not math.isfinite(reference):
        return out
    mine = np.ones(out.shape[1], dtype=bool)
    mine[ref_i] = False
    ends = [(2, low - reference, np.fmin), (3, high - reference, np.fmax)]
    if reference > 0:
        ends += [(0, low / reference, np.fmin), (1, high / reference, np.fmax)]
    for row, end, pick in ends:
        keep = mine & np.isfinite(out[row]) & np.isfinite(end)
        out[row] = np.where(keep, pick(out[row], end), out[row])
    return out


def few_cases(k: float, n: float, k_ref: float, n_ref: float, threshold: float = 0.8) -> bool:
    """Whether a ratio of two rates, `k` of `n` cases against `k_ref` of `n_ref`, rests on too
    few cases to tell its result (`too_few`: the group's exact interval from its
    own `k` of `n`, over the reference's rate, reaches past both lines for a pass or into the range
    for a failure; a reference rate of 0 is read at the highest its counts allow). A rate of 1
    missed case in 1,000 against 3 in 1,100 could be chance; 0 of 500 against 40 of 500 could not,
    nor 0 of 100 against 10 of 100; 0 of 100 against 2 of 100 could. A pass of 1 flagged in 40
    against 1 in 45 rests on too few; one of 500 in 1,000 against 520 in 1,000 does not. Two rates
    of 0 have no ratio: False.

    >>> few_cases(1, 1000, 3, 1100), few_cases(0, 500, 40, 500), few_cases(50, 1000, 100, 1000)
    (True, False, False)
    >>> few_cases(0, 100, 10, 100), few_cases(0, 100, 2, 100), few_cases(2, 100, 0, 100)
    (False, True, True)
    >>> few_cases(1, 40, 1, 45), few_cases(500, 1000, 520, 1000), few_cases(0, 40, 0, 45)
    (True, False, False)
    """
    if not all(math.isfinite(x) for x in (k, n, k_ref, n_ref)) or min(n, n_ref) <= 0 or k > n or k_ref > n_ref:
        return False
    (lo, hi), (_, ref_hi) = (share_bounds(a, b) for a, b in ((k, n), (k_ref, n_ref)))
    ref = k_ref / n_ref if k_ref > 0 else float(ref_hi)
    ratio = (k / n) / (k_ref / n_ref) if k > 0 and k_ref > 0 else math.nan
    passes = threshold * (1 - 1e-12) <= ratio <= (1 + 1e-12) / threshold  # `disparity.ratio_passes`
    return (k > 0 or k_ref > 0) and too_few(passes, float(lo), float(hi), ref, threshold)
