"""Randomised fairness-constrained cutoffs (as fairlearn's ThresholdOptimizer makes them).

A deterministic cutoff can only give a group the rates of its sweep's points; between two of
them no cutoff lands (a tolerance of 0 is then met only by flagging everyone or nobody). A
randomised cutoff mixes two points of a group's sweep: scores at or above ``high`` are
flagged, scores in ``[low, high)`` are flagged with probability ``p``. Its expected counts, and
so its expected rate and cost, are the mixture of the two points': any rate between theirs.

`randomised_cutoffs` finds, exactly, the cheapest such rule (in expectation) with every
group's rate in one window ``[L, L + tolerance]``: a group's cheapest cost at a rate is the
lower convex hull of its (rate, cost) points; the cost of a window is, per group, that hull's
minimum over it, convex in L, so the best L is one of the hull's vertices (or a vertex minus
the tolerance). One rate per criterion: equalized odds (two rates) is not offered randomised.
A policy records the result (`policy_record`); `costlib.handoff.apply_policy` draws it from
case ids.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from costlib.core.prices import Prices

MSG_TWO_RATES = "randomised cutoffs equalise one rate: {criterion} equalises two"


@dataclass(frozen=True)
class RandomCutoffs:
    """A randomised fairness rule: per group (by name) ``high`` (flag at or above), ``low`` and
    ``p`` (flag scores in [low, high) with probability p), the expected ``rates`` and the
    expected total cost per case on the rows it was fitted on."""

    criterion: str
    tolerance: float
    high: dict
    low: dict
    p: dict
    rates: dict
    cost: float

    def policy_record(self) -> dict:
        """The policy's fields: ``{"cutoffs": {group: high}, "randomised": {group: {"low", "p"}}}``
        (a group with p of 0 or 1 is deterministic and has no band record)."""
        band = {str(g): {"low": self.low[g], "p": self.p[g]} for g in self.high if 0 < self.p[g] < 1}
        high = {str(g): (self.low[g] if self.p[g] >= 1 else self.high[g]) for g in self.high}
        return {"cutoffs": high, "randomised": band}


def _lowest_per_x(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the points by increasing x, one per x: the lowest y (ties: the lowest index),
    i.e. ``np.lexsort((y, x))`` with all but the first of each x left out.

    A sweep's rates never fall: there each run of one x is a slice, and its first lowest y is
    found without sorting (a NaN cost, which has no lowest, is sorted as before)."""
    if x.size > 1 and bool(np.all(x[1:] >= x[:-1])) and not np.isnan(y).any():
        starts = np.flatnonzero(np.concatenate(([True], x[1:] != x[:-1])))
        if starts.size == x.size:
            return np.arange(x.size)
        low = np.repeat(np.minimum.reduceat(y, starts), np.diff(np.append(starts, x.size)))
        at_low = np.flatnonzero(y == low)
        return at_low[np.searchsorted(at_low, starts)]
    order = np.lexsort((y, x))
    xs = x[order]
    return order[np.concatenate(([True], xs[1:] != xs[:-1]))] if xs.size else order


def _lower_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the lower convex hull of points (x, y), by increasing x (ties: the lowest y).

    Andrew's monotone chain: the points by increasing x (ties by y, then index), a point of
    an x already on top of the stack skipped (it is the one with the lowest y), and the top
    popped while it does not turn left, ``(x_b - x_a)(y_i - y_a) - (y_b - y_a)(x_i - x_a) <= 0``
    (collinear points are dropped). That test is computed in floats and, on the many collinear
    points of a sweep of whole counts, rounding decides it: the answer is this loop's, so it
    is kept as it is, run on Python floats (the same IEEE double operations, in the same
    order, as on NumPy's scalars) with the stack's coordinates held beside its indices.
    """
    keep = _lowest_per_x(x, y)
    size = keep.size
    sx, sy, si = [0.0] * size, [0.0] * size, [0] * size  # the stack: [:top + 1] of each (x, y, k)
    top = -1
    for k, xi, yi in zip(range(size), x[keep].tolist(), y[keep].tolist(), strict=True):
        while top >= 1:
            ax, ay = sx[top - 1], sy[top - 1]
            if (sx[top] - ax) * (yi - ay) - (sy[top] - ay) * (xi - ax) <= 0:
                top -= 1
            else:
                break
        top += 1
        sx[top], sy[top], si[top] = xi, yi, k
    return keep[np.array(si[: top + 1], dtype=np.int64)]


def randomised_cutoffs(gs, prices: Prices, *, criterion: str, tolerance: float) -> RandomCutoffs:
    """The cheapest randomised per-group cutoffs (in expectation) whose rates lie within
    `tolerance` of each other on the rows of `gs` (a `GroupedSweep`; `prices` aligned with its
    groups). See the module docstring. ValueError for equalized odds.

    Examples
    --------
    Two groups whose flagged shares can only be 0, 1/2 or 1 (a) and 0, 1/3, 2/3 or 1 (b):
    no deterministic cutoffs give both the same share but everyone or nobody; randomised, both
    flag the same expected share.

    >>> from costlib.core.sweep import grouped_sweep
    >>> from costlib.core.prices import prices_for
    >>> gs = grouped_sweep([1, 0, 1, 0, 0], [0.9, 0.2, 0.8, 0.5, 0.1], ["a", "a", "b", "b", "b"])
    >>> fit = randomised_cutoffs(gs, prices_for(gs.groups, (1, 1)), criterion="demographic parity", tolerance=0)
    >>> round(fit.rates["a"], 6) == round(fit.rates["b"], 6)
    True
    """
    from costlib.binary.fair_search import FAIRNESS_CRITERIA, TWO_RATES, _distinct

    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(f"criterion must be one of {list(FAIRNESS_CRITERIA)}: got {criterion!r}")
    if criterion in TWO_RATES:
        raise ValueError(MSG_TWO_RATES.format(criterion=criterion))
    tol = float(tolerance)
    hulls = []
    for i, g in enumerate(gs.groups):
        sw = gs[g]
        rate = sw.rate(FAIRNESS_CRITERIA[criterion])
        if not np.isfinite(rate).all():
            nan = {h: math.nan for h in gs.groups}
            return RandomCutoffs(criterion, tol, nan, nan, nan, nan, math.nan)
        cost = sw.errors_cost(prices.c_fp[i], prices.c_fn[i])
        idx = _lower_hull(rate, cost)
        hulls.append((sw, rate, cost, idx))
    starts = _distinct([part for _, r, _, i in hulls for part in (r[i], r[i] - tol)])
    total = np.zeros(starts.size)
    feasible = np.ones(starts.size, dtype=bool)
    for _sw, rate, cost, idx in hulls:
        xr, yc = rate[idx], cost[idx]
        lo, hi = starts, starts + tol
        feasible &= (hi >= xr[0] - 1e-12) & (lo <= xr[-1] + 1e-12)
        m = xr[int(np.argmin(yc))]  # the hull's minimum; the window's best is it clamped into the window
        best = np.clip(np.clip(m, lo, hi), xr[0], xr[-1])
        total += np.interp(best, xr, yc)
    total = np.where(feasible, total, np.inf)
    j = int(np.argmin(total))
    out = {k: {} for k in ("high", "low", "p", "rates")}
    n = 0.0
    for g, (sw, rate, cost, idx) in zip(gs.groups, hulls, strict=True):
        xr = rate[idx]
        m = xr[int(np.argmin(cost[idx]))]
        r = float(np.clip(np.clip(m, starts[j], starts[j] + tol), xr[0], xr[-1]))
        k = int(np.clip(np.searchsorted(xr, r, side="left"), 0, xr.size - 1))
        if xr[k] == r or k == 0:
            a = b = int(idx[k])
            p = 0.0
        else:
            a, b = int(idx[k - 1]), int(idx[k])  # rate(a) < r < rate(b)
            p = float((r - xr[k - 1]) / (xr[k] - xr[k - 1]))
        # the two points' cutoffs: the point with fewer flagged is the higher cutoff
        hi_i, lo_i = (a, b) if sw.flagged[a] <= sw.flagged[b] else (b, a)
        if hi_i != a:
            p = 1.0 - p
        out["high"][g], out["low"][g] = float(sw.thresholds[hi_i]), float(sw.thresholds[lo_i])
        out["p"][g], out["rates"][g] = p, r
        n += sw.total
    cost = float(total[j] / n) if n > 0 and np.isfinite(total[j]) else math.nan
    return RandomCutoffs(criterion, tol, out["high"], out["low"], out["p"], out["rates"], cost)
