"""Sensitivity to the prices: the cheapest option over a grid of prices and a range of ratios,
and net benefit (decision curve analysis).

Only the ratio c_fn : c_fp moves the cost-optimal cutoff, so a whole map of prices reads a
few exact pieces of each training sweep (`elicit.pieces`); every answer is judged on the
test sweeps.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.elicit import pieces
from costlib.binary.model_sweeps import ModelSweeps
from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.prices import mistakes_cost, no_model_costs
from costlib.core.sweep import TIE_TOLERANCE, Sweep, best_indices

SENSITIVITY_SPAN = np.geomspace(0.01, 100.0, 25)  # the map's prices, times the scale of the user's prices
NET_BENEFIT_THRESHOLDS = np.round(np.linspace(0.01, 0.99, 99), 10)


def cost_optimal_for_ratios(sweep: Sweep, c_fp, c_fn) -> np.ndarray:
    """Cost-optimal cutoff of one sweep for many price pairs at once (vectorised).

    The same answer, ties included, as `optimal_threshold` at each pair (`sweep.best_indices`);
    NaN where the sweep holds one class only.
    """
    j = best_indices(sweep, c_fp, c_fn)
    return np.where(j >= 0, sweep.thresholds[np.maximum(j, 0)], np.nan)


def sensitivity_grid(train_sweeps: Mapping, test_sweeps: Mapping, *, c_fp_values, c_fn_values) -> pd.DataFrame:
    """Which option is best at every (c_fp, c_fn) of a grid: each model at its cost-optimal
    cutoff fitted on train and judged on test, or one of the two decisions without a model.

    Long format ``c_fp, c_fn, option, cost_per_case`` (on the test rows) plus a ``best``
    column naming the option chosen at that point, as `decision.recommend` chooses: among
    the models, the one cheapest on the train rows (a model that merely looks cheaper on the
    rows it is judged on is not picked); then it or the cheaper decision without a model,
    whichever is cheaper on the test rows. Ties go to the options without a model ("flag
    nobody" first, then "flag everyone"): they need no model. Price independent work only:
    the sweeps are read, never rows.
    """
    if not train_sweeps or set(train_sweeps) != set(test_sweeps):
        raise ValueError("train_sweeps and test_sweeps must map the same (non-empty) model names to sweeps")
    fp_vals = v.as_float_1d(c_fp_values, "c_fp_values")
    fn_vals = v.as_float_1d(c_fn_values, "c_fn_values")
    for name, vals in (("c_fp_values", fp_vals), ("c_fn_values", fn_vals)):
        if vals.size and vals.min() < 0:
            raise ValueError(v.MSG_NEGATIVE.format(name=name, value=vals.min().item()))
    fp_grid, fn_grid = np.meshgrid(fp_vals, fn_vals, indexing="ij")
    a, b = fp_grid.ravel(), fn_grid.ravel()
    any_test = next(iter(test_sweeps.values()))
    n = any_test.total if any_test.total > 0 else np.nan
    nobody, everyone = no_model_costs(any_test.positives, any_test.negatives, a, b)
    frames = [
        pd.DataFrame({"c_fp": a, "c_fn": b, "option": R.NOBODY, "cost_per_case": nobody / n}),
        pd.DataFrame({"c_fp": a, "c_fn": b, "option": R.EVERYONE, "cost_per_case": everyone / n}),
    ]
    fit_costs = []
    for name, train in train_sweeps.items():
        test = test_sweeps[name]
        cut = cost_optimal_for_ratios(train, a, b)
        at = np.where(np.isnan(cut), np.inf, cut)
        j, jt = test.index_at(at), train.index_at(at)
        cost = mistakes_cost(test.fp[j], test.fn[j], a, b) / n
        fit = mistakes_cost(train.fp[jt], train.fn[jt], a, b) / (train.total if train.total > 0 else np.nan)
        fit_costs.append(np.where(np.isnan(cut), np.nan, fit))
        frames.append(
            pd.DataFrame({"c_fp": a, "c_fn": b, "option": name, "cost_per_case": np.where(np.isnan(cut), np.nan, cost)})
        )
    long = pd.concat(frames, ignore_index=True)
    # the model that competes at each pair: the cheapest on train (ties to the first model)
    fit_costs = np.stack(fit_costs)  # (models, pairs)
    pick = np.argmin(np.where(np.isfinite(fit_costs), fit_costs, np.inf), axis=0)
    # then the cheapest option on test at each pair, ties (within the one tie tolerance) to the
    # first option: the decisions without a model come first, so a model that only matches
    # them never wins
    costs = np.stack([f["cost_per_case"].to_numpy(float) for f in frames])  # (options, pairs)
    others = np.arange(len(frames) - 2)[:, None] != pick[None, :]
    costs[2:][others] = np.inf
    finite = np.where(np.isfinite(costs), costs, np.inf)
    lowest = finite.min(axis=0)
    tol = TIE_TOLERANCE * np.maximum(np.maximum(a, b), np.abs(lowest))  # the pair's prices: `sweep.tie_tolerance`
    first = np.argmax(finite <= lowest + tol, axis=0)
    names = np.array([f["option"].iloc[0] for f in frames], dtype=object)
    long["best"] = np.tile(names[first], len(frames))
    return long


RATIO_LIMITS = (1e-3, 1e3)  # the c_fn : c_fp range `ratio_range` searches


def ratio_range(train_sweeps: Mapping, test_sweeps: Mapping, *, c_fp: float, c_fn: float) -> tuple[str, float, float]:
    """(leader, low, high): the best option at these prices (`sensitivity_grid`'s choice)
    and the range of c_fn : c_fp ratios, from 1:1000 to 1000:1, over which it stays best.

    Exact: every model's cost-optimal cutoff is constant between the breaks of its train
    sweep's hull, and there every option's cost on train and on test is a line in the
    ratio, so the choice can change only at those breaks or where two lines cross. The
    choice is read at one ratio inside each piece between these points; the range runs to
    the nearest points where it changes.
    """
    c_fp, c_fn = v.as_price(c_fp, "c_fp"), v.as_price(c_fn, "c_fn")
    r0 = c_fn / c_fp if c_fp > 0 else np.inf
    ratios = _ratio_candidates(train_sweeps, test_sweeps, r0)
    inside = _choices(train_sweeps, test_sweeps, np.sqrt(ratios[:-1] * ratios[1:]))  # one ratio inside each piece
    if not np.isfinite(r0):
        last = inside[-1]
        k = len(inside) - 1
        while k > 0 and inside[k - 1] == last:
            k -= 1
        return str(last), float(ratios[k]), float("inf")
    leader = _choices(train_sweeps, test_sweeps, np.array([r0]))[0]
    i0 = int(np.searchsorted(ratios, r0))  # ratios[i0] == r0
    # piece k spans ratios[k] .. ratios[k + 1]; r0 is the point ratios[i0]
    lo = i0
    while lo > 0 and inside[lo - 1] == leader:
        lo -= 1
    hi = i0
    while hi < len(inside) and inside[hi] == leader:
        hi += 1
    return str(leader), float(ratios[lo]), float(ratios[hi])


def _choices(train_sweeps: Mapping, test_sweeps: Mapping, ratios: np.ndarray) -> np.ndarray:
    """`sensitivity_grid`'s choice at c_fp = 1 and each c_fn in `ratios`."""
    grid = sensitivity_grid(train_sweeps, test_sweeps, c_fp_values=[1.0], c_fn_values=ratios)
    return grid["best"].to_numpy()[: len(ratios)]


def _ratio_candidates(train_sweeps: Mapping, test_sweeps: Mapping, r0: float) -> np.ndarray:
    """Sorted ratios between which no option's cost changes shape: the limits, r0, each
    model's hull breaks on train, and every crossing of two cost lines between those."""
    lo_lim, hi_lim = RATIO_LIMITS
    if np.isfinite(r0):
        lo_lim, hi_lim = min(lo_lim, r0), max(hi_lim, r0)
    points = [lo_lim, hi_lim] + ([r0] if np.isfinite(r0) else [])
    for train in train_sweeps.values():
        if train.positives > 0 and train.negatives > 0:
            cut = pieces(train, lo_lim, hi_lim)
            points += cut["ratio_low"].tolist() + cut["ratio_high"].tolist()
    base = np.unique(np.clip(np.asarray(points, dtype=float), lo_lim, hi_lim))
    mids = np.sqrt(base[:-1] * base[1:])
    # every option's cost per case as a line a + b r (c_fp = 1, c_fn = r) within each piece
    any_test = next(iter(test_sweeps.values()))
    n = any_test.total if any_test.total > 0 else np.nan
    lines_test = [
        (np.zeros_like(mids), np.full_like(mids, any_test.positives / n)),  # flag nobody
        (np.full_like(mids, any_test.negatives / n), np.zeros_like(mids)),  # flag everyone
    ]
    lines_train = []
    for name, train in train_sweeps.items():
        test = test_sweeps[name]
        cut = cost_optimal_for_ratios(train, np.ones_like(mids), mids)
        at = np.where(np.isnan(cut), np.inf, cut)
        j, jt = test.index_at(at), train.index_at(at)
        nt = train.total if train.total > 0 else np.nan
        lines_test.append((test.fp[j] / n, test.fn[j] / n))
        lines_train.append((train.fp[jt] / nt, train.fn[jt] / nt))
    crossings = []
    for lines in (lines_train, lines_test):
        for i in range(len(lines)):
            for k in range(i + 1, len(lines)):
                (a1, b1), (a2, b2) = lines[i], lines[k]
                with np.errstate(divide="ignore", invalid="ignore"):
                    r = (a2 - a1) / (b1 - b2)
                ok = np.isfinite(r) & (r > base[:-1]) & (r < base[1:])
                crossings.append(r[ok])
    return np.unique(np.concatenate([base, *crossings]))


def net_benefit(sweep: Sweep, thresholds) -> np.ndarray:
    """Decision-curve net benefit ``TP/n - FP/n * t/(1 - t)`` when flagging iff p >= t.

    `thresholds` are probabilities in [0, 1]; at t = 1 net benefit is undefined (the odds
    are infinite): NaN with a `DegenerateWarning`.
    """
    t = np.asarray(thresholds, dtype=np.float64)
    if t.size and (not np.isfinite(t).all() or t.min() < 0 or t.max() > 1):
        raise ValueError(v.MSG_PROBABILITY.format(name="thresholds", lo=np.nanmin(t).item(), hi=np.nanmax(t).item()))
    at_one = t == 1.0
    if at_one.any():
        v.warn_degenerate("net benefit is undefined at t = 1 (the odds t / (1 - t) are infinite): NaN there")
    if sweep.total <= 0:
        v.warn_degenerate("no cases: net benefit is NaN")
        return np.full(t.shape, np.nan)
    j = sweep.index_at(t)
    odds = np.where(at_one, np.nan, t / np.where(at_one, 2.0, 1.0 - t))
    return (sweep.tp[j] - sweep.fp[j] * odds) / sweep.total


def net_benefit_curves(sweeps: Mapping, thresholds) -> pd.DataFrame:
    """Long format ``threshold, option, net_benefit``: every model, "flag everyone" and
    "flag nobody" (0 by definition)."""
    t = np.asarray(thresholds, dtype=np.float64)
    any_sweep = next(iter(sweeps.values()))
    frames = [
        pd.DataFrame({"threshold": t, "option": name, "net_benefit": net_benefit(s, t)}) for name, s in sweeps.items()
    ]
    n = any_sweep.total if any_sweep.total > 0 else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        everyone = (any_sweep.positives - any_sweep.negatives * np.where(t == 1.0, np.nan, t / (1.0 - t))) / n
    frames.append(pd.DataFrame({"threshold": t, "option": R.EVERYONE, "net_benefit": everyone}))
    frames.append(pd.DataFrame({"threshold": t, "option": R.NOBODY, "net_benefit": 0.0}))
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------------------------------
# The price maps of an audit: they do not depend on the prices


@dataclass(frozen=True, eq=False)
class PriceMaps:
    """How the cheapest option changes with the prices, for one or more models.

    sensitivity  `sensitivity_grid` over ``scale * SENSITIVITY_SPAN`` on both axes
    net_benefit  `net_benefit_curves` on the judged rows (empty unless probabilities)
    scale        the geometric mean of the prices the grid is centred on
    """

    sensitivity: pd.DataFrame
    net_benefit: pd.DataFrame
    scale: float
    train: dict
    test: dict


def price_scale(c_fp: float, c_fn: float) -> float:
    """A round number near the geometric mean of the prices, so the map moves rarely."""
    c_fp, c_fn = v.as_price(c_fp, "c_fp"), v.as_price(c_fn, "c_fn")
    positive = [x for x in (c_fp, c_fn) if x > 0]
    if not positive:
        return 1.0
    gm = math.exp(sum(math.log(x) for x in positive) / len(positive))
    return float(10.0 ** round(math.log10(gm)))


def price_maps(models: Mapping[str, ModelSweeps], *, scale: float = 1.0) -> PriceMaps:
    """The sensitivity map and the net-benefit curves: they read pooled sweeps only."""
    train = {name: ms.fit_pooled for name, ms in models.items()}
    test = {name: ms.judge_pooled for name, ms in models.items()}
    grid_values = scale * SENSITIVITY_SPAN
    grid = sensitivity_grid(train, test, c_fp_values=grid_values, c_fn_values=grid_values)
    probabilities = all(ms.probabilities for ms in models.values())
    nb = (
        net_benefit_curves(test, NET_BENEFIT_THRESHOLDS)
        if probabilities
        else pd.DataFrame(columns=["threshold", "option", "net_benefit"])
    )
    return PriceMaps(grid, nb, float(scale), train, test)
