"""The shipped cutoff per calendar period, beside each period's own best: what it costs now.

Each period's rows are swept once (`costlib.core.sweep`): the cost at the shipped cutoff is read
off the sweep, and the period's own cost-optimal cutoff is the sweep's optimum under the one tie
rule, so the regret (shipped minus best) is never below zero. A period's own best is fitted on
that period, so its regret flatters how much a refit would save; whether a regret is beyond the
noise is judged elsewhere, with intervals that repeat that fit.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.sweep import grouped_sweep, threshold_sweep

FREQS = {"M": "month", "W": "week", "D": "day"}


def as_periods(times, freq: str, n: int) -> pd.PeriodIndex:
    """`times` (dates, date strings or timestamps) as calendar periods of `freq` ("M", "W" or "D")."""
    if freq not in FREQS:
        raise ValueError(f"freq must be one of {list(FREQS)} (month, week, day): got {freq!r}")
    values = np.asarray(times)
    if values.dtype.kind in "biuf":  # numbers would be read as nanoseconds since 1970
        raise ValueError("times must be dates (such as 2026-01-31), not numbers")
    try:
        with warnings.catch_warnings():  # pandas' note that it parses element by element
            warnings.simplefilter("ignore", UserWarning)
            raw = pd.Series(np.asarray(times, dtype=object))
            try:
                stamps = pd.to_datetime(raw, errors="raise")
            except ValueError:  # offsets that differ between rows: read all of them in UTC
                stamps = pd.to_datetime(raw, errors="raise", utc=True)
    except (ValueError, TypeError, OverflowError) as err:
        raise ValueError(f"times must be dates: {str(err).rstrip('.')}") from None
    if len(stamps) != n:
        raise ValueError(f"times has {len(stamps)} entries but y_true has {n}")
    missing = np.flatnonzero(stamps.isna().to_numpy())
    if missing.size:
        raise ValueError(f"times has {missing.size} missing date(s), the first at index {int(missing[0])}")
    if getattr(stamps.dt, "tz", None) is not None:
        stamps = stamps.dt.tz_localize(None)
    return pd.PeriodIndex(stamps, freq=freq)


def cost_by_period(
    y_true, y_score, times, *, c_fp, c_fn, cutoff, freq="M", sample_weight=None, groups=None
) -> pd.DataFrame:
    """Per calendar period: the cost of the shipped cutoff, the period's own best cutoff and
    cost, and the regret (the difference, never below zero).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and finite scores; flag iff score >= the cutoff.
    times : array-like of shape (n,)
        When each case was decided (dates, date strings or timestamps).
    c_fp, c_fn : float
        Prices of a false positive and a false negative; finite, >= 0.
    cutoff : float or Mapping
        The shipped cutoff, or ``{group: cutoff}`` with `groups`.
    freq : {"M", "W", "D"}
        Calendar months, weeks or days.
    sample_weight : array-like of shape (n,), optional
        Non-negative case weights.
    groups : array-like of shape (n,), optional
        Group of each case, for per-group cutoffs (`cutoff` a mapping); the period's best is then
        the best cutoff of each group, so that the regret stays at or above zero.

    Returns
    -------
    pandas.DataFrame
        One row per period with cases, in time order: ``period, n, cost_per_case,
        best_threshold, best_cost_per_case, regret_per_case`` (``best_threshold`` is a
        ``{group: cutoff}`` mapping with `groups`). A period with one class has NaN best
        (with a warning).

    Examples
    --------
    >>> t = ["2026-01-05", "2026-01-20", "2026-01-30", "2026-02-02", "2026-02-10", "2026-02-20"]
    >>> out = cost_by_period([0, 1, 1, 0, 0, 1], [0.2, 0.7, 0.4, 0.6, 0.3, 0.8], t, c_fp=1, c_fn=2, cutoff=0.5)
    >>> out[["period", "cost_per_case", "best_threshold", "regret_per_case"]].round(3)
        period  cost_per_case  best_threshold  regret_per_case
    0  2026-01          0.667             0.4            0.667
    1  2026-02          0.333             0.8            0.333
    """
    y, s = v.binary_pair(y_true, y_score)
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    periods = as_periods(times, freq, len(y))
    per_group = groups is not None
    if per_group and not isinstance(cutoff, Mapping):
        raise ValueError("with groups, cutoff must map each group to its cutoff")
    if not per_group:
        if isinstance(cutoff, Mapping):
            raise ValueError("cutoff is a mapping of groups: give groups= too")
        cutoff = v.as_threshold(cutoff, "cutoff")
    g = None if not per_group else np.asarray(groups, dtype=object)
    if g is not None and g.shape != y.shape:
        raise ValueError(f"groups has {g.size} entries but y_true has {y.size}")
    codes, uniques = pd.factorize(periods, sort=True)
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        ws = None if w is None else w[sel]
        if not per_group:
            sw = threshold_sweep(y[sel], s[sel], sample_weight=ws)
            if sw.total <= 0:
                continue
            cost = sw.cost(c_fp, c_fn)
            shipped = float(cost[sw.index_at(cutoff)])
            j = sw.best(c_fp, c_fn)
            best_t, best = (float(sw.thresholds[j]), float(cost[j])) if j >= 0 else (np.nan, np.nan)
        else:
            gs = grouped_sweep(y[sel], s[sel], g[sel], sample_weight=ws)
            total = float(gs.positives.sum() + gs.negatives.sum())
            if total <= 0:
                continue
            missing = [name for name in gs.groups if name not in cutoff]
            if missing:
                raise ValueError(f"cutoff has no entry for group {missing[0]!r}")
            spent = best_sum = 0.0
            best_t = {}
            for name in gs.groups:
                sw = gs[name]
                errors = sw.errors_cost(c_fp, c_fn)
                spent += float(errors[sw.index_at(v.as_threshold(cutoff[name], f"cutoff[{name!r}]"))])
                j = sw.best(c_fp, c_fn) if sw.positives > 0 and sw.negatives > 0 else int(np.argmin(errors))
                best_t[name] = float(sw.thresholds[j])
                best_sum += float(errors[j])
            shipped, best = spent / total, best_sum / total
        rows.append((str(period), float(np.sum(ws)) if ws is not None else int(sel.sum()), shipped, best_t, best))
    out = pd.DataFrame(rows, columns=["period", "n", "cost_per_case", "best_threshold", "best_cost_per_case"])
    out["regret_per_case"] = np.maximum(0.0, out["cost_per_case"] - out["best_cost_per_case"])
    return out
