"""Fairness rules judged where they were not fitted, with the luck of the fit in their intervals.

A fairness-constrained rule (`fair_search.fair_cutoffs`) is the cheapest set of per-group
cutoffs whose rates lie within a tolerance on the rows it is fitted on. The exact search
spends every bit of that tolerance, so on other rows the gap is wider. Here a rule is judged
as the standard fitted rules are (`honest`):

- **A split**: fitted on the fitting rows, judged on the judged rows.
- **No split** (the fitting rows are the judged rows): cross-fitted on one deal of
  `folds.make_folds`' `folds.FOLDS` folds (for the same seed, the folds the standard rules'
  bootstrap refits on; their point estimate averages several deals of more folds, which would
  take the exact search, about a second a fit for equalized odds, a hundred times): each fold's
  rows are judged by the cutoffs fitted on the other folds, so no row is judged by cutoffs
  fitted on it.

The 95% interval of the judged gap repeats the fit on every resample (`FAIR_RESAMPLES`
Poisson(1) bootstraps on at most `FAIR_CELLS` candidate cutoffs, `refits.cell_edges`), and is
the percentile interval of the refits' judged gaps: with a split, each refitted on the
resampled fitting rows and judged on the resampled judged rows; without one, refitted on the
resample's rows and judged on the rows it left out (about 37% of them: wider than the
cross-fitted estimate's own spread, which covered the rule's gap on new cases only 73% of the
time in simulation, its folds' rates averaging each other's misses out), widened where it
misses the judged gap to hold the refits' spread about it (`gap_interval`). Without a split the
cost and the saving have intervals too: the refits' spread about the cross-fitted estimate
(`about`, as the standard fitted rules' `intervals.centred_interval`), so that every number of a
rule's row lies inside its own interval. A rule whose cutoffs flag every case of every group (or
none) is judged as that no-model choice (`held_if_trivial`), not cross-fitted.

A rule *meets* the tolerance only when the upper end of that interval is at most the
tolerance. When it does not, `fair_tightened` fits it at a tolerance below the stated one,
chosen on the fitting rows alone, and judges it here (`judge_rule`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from costlib.binary import honest as H
from costlib.binary.fair_search import FairCutoffs
from costlib.binary.folds import Folds, integer_counts, make_folds
from costlib.binary.model_sweeps import group_index_at
from costlib.binary.refits import cell_counts, cell_edges, poisson_cells
from costlib.core.prices import Prices, mistakes_cost, no_model_cost
from costlib.core.sweep import GroupedSweep, Sweep
from costlib.stats.intervals import centred_interval, percentile_interval

FAIR_RESAMPLES = 100  # refits behind a judged gap's 95% interval, at most
FAIR_CELLS = 64  # candidate cutoffs of a refit, at most (quantiles of the fitting rows' scores)
MSG_NOT_THIS_FIT = (
    "fit must be the deterministic fair_cutoffs of {criterion!r} at tolerance {tolerance!r} on the fitting rows"
)


# ---------------------------------------------------------------------------------------
# Sweeps of parts of the rows


def _grouped(groups: tuple, thresholds: list, tp: list, fp: list, pos, neg) -> GroupedSweep:
    """A `GroupedSweep` from each group's arrays (descending thresholds, cumulative counts)."""
    sizes = [t.size for t in thresholds]
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return GroupedSweep(
        tuple(groups),
        offsets,
        np.concatenate(thresholds),
        np.concatenate(tp).astype(np.float64),
        np.concatenate(fp).astype(np.float64),
        np.asarray(pos, dtype=np.float64),
        np.asarray(neg, dtype=np.float64),
    )


def _part(gs: GroupedSweep, tp, fp, pos, neg) -> GroupedSweep:
    """`gs`'s grid with other cumulative counts (a fold, or the rows outside it)."""
    return GroupedSweep(
        gs.groups,
        gs.offsets,
        gs.thresholds,
        np.asarray(tp, dtype=np.float64),
        np.asarray(fp, dtype=np.float64),
        np.asarray(pos, dtype=np.float64),
        np.asarray(neg, dtype=np.float64),
    )


def folds_of(gs: GroupedSweep, pooled: Sweep, *, seed: int) -> Folds:
    """`folds.make_folds` of `gs`: one deal of `folds.FOLDS` folds (for the same seed, those
    of the standard rules' bootstrap)."""
    return make_folds(gs, pooled, group_index_at(gs, pooled), seed=seed)


def _outside(gs: GroupedSweep, folds: Folds, f: int) -> GroupedSweep:
    return _part(
        gs,
        gs.tp - folds.tp[f],
        gs.fp - folds.fp[f],
        gs.positives - folds.positives[f],
        gs.negatives - folds.negatives[f],
    )


def _inside(gs: GroupedSweep, folds: Folds, f: int) -> GroupedSweep:
    return _part(gs, folds.tp[f], folds.fp[f], folds.positives[f], folds.negatives[f])


# ---------------------------------------------------------------------------------------
# Fitting and counting


def fit_quietly(
    gs: GroupedSweep, prices: Prices, criterion: str, tolerance: float, *, randomised: bool = False
) -> np.ndarray:
    """(groups,) cutoffs of `fair_search.fair_cutoffs` on `gs` (NaN where infeasible), its
    warnings kept for the fit on all fitting rows (a fold or resample says nothing new); with
    `randomised`, (3, groups): each group's ``high``, ``low`` and ``p`` of
    `fair_random.randomised_cutoffs`."""
    from costlib.binary.fair_random import randomised_cutoffs
    from costlib.binary.fair_search import fair_cutoffs

    if randomised:
        fit = randomised_cutoffs(gs, prices, criterion=criterion, tolerance=tolerance)
        return np.array([[d.get(g, math.nan) for g in gs.groups] for d in (fit.high, fit.low, fit.p)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = fair_cutoffs(gs, prices, criterion=criterion, tolerance=tolerance)
    return cutoffs_of(fit, gs.groups)


def cutoffs_of(fit: FairCutoffs, groups) -> np.ndarray:
    """(groups,) cutoffs of a `fair_search.FairCutoffs`, in the order of `groups` (NaN where
    it has none)."""
    return np.array([fit.thresholds.get(g, math.nan) for g in groups], dtype=np.float64)


def counts_at(gs: GroupedSweep, cut: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(tp, fp) per group of `gs` at cutoffs `cut` (NaN where a cutoff is NaN); for randomised
    cutoffs (3, groups: high, low, p), the expected counts: ``(1 - p)`` of those at ``high``
    plus ``p`` of those at ``low``."""
    cut = np.asarray(cut, dtype=np.float64)
    if cut.ndim == 2:
        (tp_h, fp_h), (tp_l, fp_l) = counts_at(gs, cut[0]), counts_at(gs, cut[1])
        p = cut[2]
        return (1 - p) * tp_h + p * tp_l, (1 - p) * fp_h + p * fp_l
    tp, fp = np.full(len(gs.groups), np.nan), np.full(len(gs.groups), np.nan)
    for i, g in enumerate(gs.groups):
        if not math.isnan(cut[i]):
            sw = gs[g]
            j = sw.index_at(cut[i])
            tp[i], fp[i] = sw.tp[j], sw.fp[j]
    return tp, fp


def rates_of(tp, fp, pos, neg, criterion: str) -> list[np.ndarray]:
    """The rate(s) `criterion` equalises, per group (last axis), from counts."""
    from costlib.binary.fair_search import FAIRNESS_CRITERIA, TWO_RATES

    tp, fp = np.asarray(tp, dtype=np.float64), np.asarray(fp, dtype=np.float64)
    pos, neg = np.asarray(pos, dtype=np.float64), np.asarray(neg, dtype=np.float64)
    n = pos + neg
    with np.errstate(invalid="ignore", divide="ignore"):
        table = {
            "flagged rate": ((tp + fp), n),
            "true positive rate": (tp, pos),
            "false positive rate": (fp, neg),
            "accuracy": (tp + neg - fp, n),
        }
        names = TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],))
        return [
            np.where(table[r][1] > 0, table[r][0] / np.where(table[r][1] > 0, table[r][1], 1.0), np.nan) for r in names
        ]


def gap_of(tp, fp, pos, neg, criterion: str) -> np.ndarray:
    """The largest gap between groups (last axis) in the rate(s) `criterion` equalises; NaN
    with fewer than two groups that have the rate (or with any NaN cutoff)."""
    gaps = []
    bad = np.isnan(np.asarray(tp, dtype=np.float64)).any(axis=-1)
    for r in rates_of(tp, fp, pos, neg, criterion):
        ok = np.isfinite(r)
        hi = np.where(ok, r, -np.inf).max(axis=-1)
        lo = np.where(ok, r, np.inf).min(axis=-1)
        gaps.append(np.where(ok.sum(axis=-1) >= 2, hi - lo, np.nan))
    return np.where(bad, np.nan, np.fmax.reduce(gaps) if len(gaps) > 1 else gaps[0])


# ---------------------------------------------------------------------------------------
# A rule judged


@dataclass(frozen=True, eq=False)
class FairJudged:
    """One fairness rule judged where it was not fitted.

    criterion, tolerance   what it equalises and the largest gap allowed (the stated tolerance)
    fit_tolerance          the tolerance its cutoffs were fitted at (below `tolerance` when tightened)
    cutoffs                (groups,) fitted on all fitting rows: what ships; randomised,
                           (3, groups): each group's high, low and p (`fair_random`)
    estimate               `honest.CROSS_FITTED` or `honest.TEST`
    tp, fp, positives, negatives   (groups,) judged counts (summed over the folds when cross-fitted)
    gap, gap_low, gap_high the judged gap and its 95% interval (the fit repeated on every resample)
    vs_low, vs_high        95% interval of its cost per case minus the no-model choice's (cross-fitted
                           only: NaN with a split, where its cutoffs' own resamples give it)
    held                   its cutoffs flag every case of every group (or none): it is judged as
                           that no-model choice, its counts those of its cutoffs on the judged rows
                           and its costs `decision.recommend`'s, not cross-fitted (`held_if_trivial`)
    """

    criterion: str
    tolerance: float
    fit_tolerance: float
    cutoffs: np.ndarray
    estimate: str
    tp: np.ndarray
    fp: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray
    gap: float
    gap_low: float
    gap_high: float
    cost_low: float = math.nan
    cost_high: float = math.nan
    vs_low: float = math.nan
    vs_high: float = math.nan
    held: bool = False

    @property
    def randomised(self) -> bool:
        return self.cutoffs.ndim == 2

    @property
    def meets(self) -> bool:
        """Offered as meeting the tolerance: the gap's 95% upper bound is at most the tolerance."""
        return bool(math.isfinite(self.gap_high) and self.gap_high <= self.tolerance + 1e-12)

    @property
    def may_miss_by(self) -> float:
        """How far above the tolerance the gap may be (its upper bound minus the tolerance); 0
        when it meets it; NaN without an interval."""
        if not math.isfinite(self.gap_high):
            return math.nan
        return max(0.0, self.gap_high - self.tolerance)

    def cost(self, prices: Prices) -> float:
        """Judged cost per case."""
        n = float(np.sum(self.positives + self.negatives))
        c = mistakes_cost(self.fp, self.positives - self.tp, prices.c_fp, prices.c_fn)
        return float(np.sum(c) / n) if n > 0 else math.nan


def _cells(gs: GroupedSweep, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`refits.cell_counts`, rounded to whole rows (the counts a Poisson draw resamples)."""
    pos, neg = cell_counts(gs, edges)
    return np.round(pos), np.round(neg)


def _cell_sweep(groups, edges, pos, neg) -> GroupedSweep:
    """A `GroupedSweep` on `edges` from (groups, cells) weights."""
    zero = np.zeros((pos.shape[0], 1))
    tp = np.concatenate((zero, np.cumsum(pos, axis=1)), axis=1)
    fp = np.concatenate((zero, np.cumsum(neg, axis=1)), axis=1)
    return _grouped(groups, [edges] * len(groups), list(tp), list(fp), pos.sum(axis=1), neg.sum(axis=1))


def _resample_size(n_resamples: int) -> int:
    return min(int(n_resamples), FAIR_RESAMPLES)


def _baseline(pos, neg, prices: Prices) -> np.ndarray:
    """The no-model choice's cost (the cheaper of flagging nobody and everyone), per resample."""
    return no_model_cost(pos, neg, prices.c_fp, prices.c_fn, axis=-1)


def judge_rule(
    ms,
    prices: Prices,
    criterion: str,
    tolerance: float,
    *,
    fit_tolerance: float | None = None,
    n_resamples: int,
    seed: int = 0,
    crossfit: bool = True,
    randomised: bool = False,
    folds: Folds | None = None,
    fit: FairCutoffs | None = None,
) -> FairJudged:
    """One fairness rule fitted at `fit_tolerance` (default: `tolerance`) on ``ms``'s fitting
    rows and judged where it was not fitted, with the gap's 95% interval (the module docstring).
    `crossfit` False (no split): the folds are left to the caller
    (`fair_tightened.holding_rule` nests them), and none are dealt here. `randomised`: the
    randomised rule (`fair_random`), judged by its expected counts. `folds`: a deal of
    the fitting rows to judge on; None reads their one cached deal (`honest.fitting_folds`: it
    serves every criterion, tolerance and the recommendation's refit bootstrap). `fit`: the
    `fair_search.FairCutoffs` of this criterion at `fit_tolerance` on ``ms.fit`` when the caller
    has fitted it already (`fairness.fairness_rules`); None fits it here."""
    t_fit = tolerance if fit_tolerance is None else float(fit_tolerance)
    g_n = len(ms.groups)
    if fit is None:
        cut = fit_quietly(ms.fit, prices, criterion, t_fit, randomised=randomised)
    elif randomised or fit.criterion != criterion or fit.tolerance != t_fit:
        raise ValueError(MSG_NOT_THIS_FIT.format(criterion=criterion, tolerance=t_fit))
    else:
        cut = cutoffs_of(fit, ms.groups)
    if ms.judged_on == "all":
        estimate = H.CROSS_FITTED
        tp, fp = np.zeros(g_n), np.zeros(g_n)
        if crossfit:
            folds = H.fitting_folds(ms, seed) if folds is None else folds
            for f in range(folds.tp.shape[0]):
                c = fit_quietly(_outside(ms.fit, folds, f), prices, criterion, t_fit, randomised=randomised)
                a, b = counts_at(_inside(ms.fit, folds, f), c)
                tp, fp = tp + a, fp + b
        pos, neg = ms.fit.positives.astype(np.float64), ms.fit.negatives.astype(np.float64)
    else:
        estimate = H.TEST
        tp, fp = counts_at(ms.judge, cut)
        pos, neg = ms.judge.positives.astype(np.float64), ms.judge.negatives.astype(np.float64)
    gap = float(gap_of(tp, fp, pos, neg, criterion))
    judged = FairJudged(criterion, float(tolerance), t_fit, cut, estimate, tp, fp, pos, neg, gap, math.nan, math.nan)
    b = _resample_size(n_resamples)
    if b < 10 or ms.weighted or not (integer_counts(ms.fit) and integer_counts(ms.judge)) or math.isnan(gap):
        return judged
    edges, w_pos, w_neg, v_pos, v_neg = resample_cells(ms, b, seed)
    gaps, costs, vs = np.full(b, np.nan), np.full(b, np.nan), np.full(b, np.nan)
    if estimate == H.TEST:
        for r in range(b):
            c = fit_quietly(
                _cell_sweep(ms.groups, edges, w_pos[r], w_neg[r]), prices, criterion, t_fit, randomised=randomised
            )
            a, bb = counts_at(_cell_sweep(ms.groups, edges, v_pos[r], v_neg[r]), c)
            gaps[r] = gap_of(a, bb, v_pos[r].sum(axis=1), v_neg[r].sum(axis=1), criterion)
        lo, hi = gap_interval(gap, gaps)
        return _replace(judged, gap_low=lo, gap_high=hi)
    # no split: refitted on each resample's rows, judged on the rows it left out (out of the bag)
    l_pos, l_neg = v_pos, v_neg
    for r in range(b):
        c = fit_quietly(
            _cell_sweep(ms.groups, edges, w_pos[r], w_neg[r]), prices, criterion, t_fit, randomised=randomised
        )
        tp_r, fp_r = counts_at(_cell_sweep(ms.groups, edges, l_pos[r], l_neg[r]), c)
        p_r, n_r = l_pos[r].sum(axis=1), l_neg[r].sum(axis=1)
        gaps[r] = gap_of(tp_r, fp_r, p_r, n_r, criterion)
        total = float(p_r.sum() + n_r.sum())
        cost = float(np.sum(mistakes_cost(fp_r, p_r - tp_r, prices.c_fp, prices.c_fn)))
        costs[r] = cost / total
        vs[r] = (cost - float(_baseline(p_r, n_r, prices))) / total
    lo, hi = gap_interval(gap, gaps)
    cost = judged.cost(prices)
    c_lo, c_hi = about(cost, costs)
    v_lo, v_hi = about(cost - float(_baseline(pos, neg, prices).sum() / np.sum(pos + neg)), vs)
    return _replace(judged, gap_low=lo, gap_high=hi, cost_low=c_lo, cost_high=c_hi, vs_low=v_lo, vs_high=v_hi)


def about(estimate: float, draws: np.ndarray) -> tuple[float, float]:
    """The 95% interval of a cross-fitted `estimate` from the refits' `draws` (each refitted on a
    resample's rows and judged on the rows it left out): their spread about the estimate
    (`intervals.centred_interval`, as the standard fitted rules' intervals), never leaving the
    estimate out. The draws themselves sit elsewhere (a refit sees fewer distinct rows, and is judged
    on about 37% of them), so their percentile interval can miss the estimate it is shown with
    (review: a cost of 0.296 beside "0.668 to 0.783")."""
    lo, hi = centred_interval(estimate, draws)
    if not math.isfinite(estimate):
        return lo, hi
    return min(lo, estimate), max(hi, estimate)


def gap_interval(gap: float, draws: np.ndarray) -> tuple[float, float]:
    """The 95% interval of the judged `gap` from the refits' judged gaps `draws`: the refits'
    percentile interval (wider than the cross-fitted estimate's own spread, which covered the gap
    on new cases only 73% of the time: the module docstring) where it holds the gap; where it does
    not (review: a gap of 2.7% beside "0.0% to 2.1%"), widened to hold the spread of the draws about
    the gap (`about`), so that the gap it is shown with is inside it; never below 0."""
    p_lo, p_hi = percentile_interval(draws)
    if not math.isfinite(gap) or not (math.isfinite(p_lo) and math.isfinite(p_hi)) or p_lo <= gap <= p_hi:
        return p_lo, p_hi
    c_lo, c_hi = about(gap, draws)
    return max(0.0, min(p_lo, c_lo)), max(p_hi, c_hi)


def held_if_trivial(ms, j: FairJudged, all_or_none: bool) -> FairJudged:
    """`j` judged as the no-model choice its cutoffs are, where they flag every case of every group
    (or none: `disparity_counts.all_or_none`) and the rate it equalises is then equal
    (`fair_search.TRIVIALLY_EQUAL`): its counts those of its cutoffs on the judged rows, its gap 0,
    known exactly, and its costs `decision.recommend`'s of those cutoffs (`cross_fitted_costs`
    keeps them); else `j`.

    Cross-fitted, such a rule's folds may be refitted to cutoffs that use the model (on fewer rows
    another set of cutoffs can meet the tolerance): its row then read "everyone" beside a cross-fitted
    48% flagged, a cost of 0.296 where flagging everyone costs 0.691, and a gap of 0 beside group
    rates 28.5%, 31.9% and 40.0% (review). What ships flags everyone: its numbers are those of
    flagging everyone."""
    from costlib.binary.fair_search import TRIVIALLY_EQUAL

    if j.randomised or j.criterion not in TRIVIALLY_EQUAL or not all_or_none:
        return j
    tp, fp = counts_at(ms.judge, j.cutoffs)
    pos, neg = ms.judge.positives.astype(np.float64), ms.judge.negatives.astype(np.float64)
    nan = math.nan
    return _replace(
        j,
        tp=tp,
        fp=fp,
        positives=pos,
        negatives=neg,
        gap=0.0,
        gap_low=0.0,
        gap_high=0.0,
        cost_low=nan,
        cost_high=nan,
        vs_low=nan,
        vs_high=nan,
        held=True,
    )


def resample_cells(ms, b: int, seed: int) -> tuple:
    """(edges, w_pos, w_neg, v_pos, v_neg): the cells (`refits.cell_edges` of the fitting rows,
    at most `FAIR_CELLS`) and the `b` Poisson(1) resamples behind every judged gap's interval of
    ``ms`` at `seed` (`judge_rule`), each (b, groups, cells): the in-bag weights of the fitting
    rows' positives and negatives, and the rows each resample's refit is judged on (with a
    split, a resample of the judged rows; without one, the fitting rows it left out).

    The draws are the same for every criterion, tolerance and price (the seed, not the rule,
    seeds them): they are made on the first call and kept on ``ms`` (read-only; b x groups x
    cells x 4 floats: about 2 MB for 100 resamples of 10 groups; `ModelSweeps.kept`).
    """
    return ms.kept(("fair resamples", int(seed), int(b)), lambda: _draw_cells(ms, b, seed))


def _draw_cells(ms, b: int, seed: int) -> tuple:
    rng = np.random.default_rng([int(seed), 41, 1])
    edges = cell_edges(ms.fit_pooled, FAIR_CELLS)
    f_pos, f_neg = _cells(ms.fit, edges)
    if ms.judged_on == "all":
        (w_pos, v_pos), (w_neg, v_neg) = poisson_cells(f_pos, b, rng), poisson_cells(f_neg, b, rng)
    else:
        j_pos, j_neg = _cells(ms.judge, edges)
        w_pos, w_neg = poisson_cells(f_pos, b, rng)[0], poisson_cells(f_neg, b, rng)[0]
        v_pos = rng.poisson(np.broadcast_to(j_pos, (b, *j_pos.shape))).astype(np.float64)
        v_neg = rng.poisson(np.broadcast_to(j_neg, (b, *j_neg.shape))).astype(np.float64)
    for draws in (w_pos, w_neg, v_pos, v_neg):
        draws.setflags(write=False)
    return edges, w_pos, w_neg, v_pos, v_neg


def _replace(j: FairJudged, **kw) -> FairJudged:
    import dataclasses

    return dataclasses.replace(j, **kw)


def cross_fitted_costs(rec, prices: Prices, judged: dict):
    """`rec` (a `decision.Recommendation` that judged the `judged` rules beside its own) with
    every cross-fitted rule's counts, costs and intervals in its results, in place of those of
    its cutoffs on the rows they were fitted on: each fold's rows at the cutoffs fitted on the
    other folds (`FairJudged`), its intervals from the refits (NaN by group). A rule judged on
    a split (test rows) keeps what `recommend` measured. Rules cheaper than the recommended one
    (``cheaper_by_chance``) are read again for those rules (no paired interval: NaN)."""
    import dataclasses

    from costlib.core import validation as v
    from costlib.core.sweep import tie_tolerance

    crossed = {
        r: j
        for r, j in judged.items()
        if j.estimate == H.CROSS_FITTED and not j.held and r in rec.results.overall.index
    }
    if not crossed:
        return rec
    res = rec.results
    by_group, overall = res.by_group.copy(), res.overall.copy()
    base = float(overall.loc[res.baseline, "cost_per_case"])
    for rule, j in crossed.items():
        n_g = j.positives + j.negatives
        fn = j.positives - j.tp
        cost = mistakes_cost(j.fp, fn, prices.c_fp, prices.c_fn)
        rows = (by_group["rule"] == rule).to_numpy()
        by_group.loc[rows, "fp"] = j.fp
        by_group.loc[rows, "fn"] = fn
        by_group.loc[rows, "flagged_rate"] = v.safe_divide(j.tp + j.fp, n_g)
        by_group.loc[rows, "cost_per_case"] = v.safe_divide(cost, n_g)
        by_group.loc[rows, ["low", "high"]] = np.nan
        total = float(n_g.sum())
        per_case = float(cost.sum() / total) if total > 0 else math.nan
        flagged = float((j.tp + j.fp).sum()) / total if total > 0 else math.nan
        overall.loc[rule, ["fp", "fn", "flagged_rate", "cost_per_case"]] = [
            float(j.fp.sum()),
            float(fn.sum()),
            flagged,
            per_case,
        ]
        overall.loc[rule, ["low", "high", "vs_baseline", "vs_low", "vs_high"]] = [
            j.cost_low,
            j.cost_high,
            per_case - base,
            j.vs_low,
            j.vs_high,
        ]
    total_cost = {r: x for r, x in res.total_cost.items() if r not in crossed}
    res = dataclasses.replace(res, by_group=by_group, overall=overall, total_cost=total_cost)
    cheaper = [c for c in rec.cheaper_by_chance if c[0] not in crossed]
    for rule in crossed:
        e = float(overall.loc[rule, "cost_per_case"] - rec.cost)
        if math.isfinite(e) and e < -tie_tolerance(rec.cost, prices.scale):
            cheaper.append((rule, e, math.nan, math.nan))
    cheaper.sort(key=lambda t: t[1])
    return dataclasses.replace(rec, results=res, cheaper_by_chance=cheaper)


# ---------------------------------------------------------------------------------------
# In words, under the fairness table

FAIR_HOLDS_NOTE = (
    "Fitted at the stated tolerance, {missing} may miss it on new cases; fitted tighter on the fitting rows alone "
    "(the tolerance in its name, chosen by cross-validation there), {holding} {stays} within it with 95% "
    "confidence."
)
FAIR_NONE_HOLDS = (
    "Fitted at the stated tolerance, {missing} may miss it on new cases, and no tighter fit on the fitting rows "
    "keeps it within the tolerance with 95% confidence: no rule for {criteria} can be promised to meet it{others}."
)
"""{criteria}: the criteria of the rules that may miss (review 71, item 4: "none of these rules" read as
every rule of the table, beside four marked "yes"); {others}: `FAIR_OTHERS_MEET` when some rule is."""
FAIR_OTHERS_MEET = "; the rules marked “yes” can"
FAIR_HOLDS_WITHOUT_MODEL = (
    "Fitted at the stated tolerance, {missing} may miss it on new cases, and no tighter fit on the fitting rows "
    "that uses the model keeps it within the tolerance with 95% confidence: {holding} {stays} within it, but "
    "{it} {flags} {who} in every group, so {it} {does} not use the model."
)
"""When the only rules fitted tighter that hold flag everyone (or nobody) in every group: the
rate is then equal without the model (`fair_search.TRIVIALLY_EQUAL`, "trivially equal" in the table)."""
ALSO_WITHOUT_MODEL = (
    " It is also met by {holding}, which {flags} {who} in every group, so {it} {does} not use the model."
)
"""After `FAIR_HOLDS_NOTE`, the rules fitted tighter that hold by flagging everyone (or nobody)."""
_FORMS = {
    True: {"stays": "stays", "it": "it", "flags": "flags", "does": "does"},
    False: {"stays": "stay", "it": "they", "flags": "flag", "does": "do"},
}  # the verbs after one rule's name, or after several


TRIVIALLY_EQUAL_COLUMN = "trivially_equal"
"""The summary's column (`fairness.fairness_tables`) that says, per rule, "everyone" or "nobody" when
its cutoffs flag every case of every group (or none), so that the rate it equalises is equal without
the model (`fair_search.TRIVIALLY_EQUAL`, `disparity_counts.all_or_none`; the table's "trivially equal"),
else ""."""


def holding_note(summary) -> str:
    """One sentence under the fairness table (`summary`: `fairness.fairness_tables`') when some
    rule fitted at the stated tolerance may miss it out of sample: which ones, and which rule
    fitted tighter holds (`FAIR_HOLDS_NOTE`), or that none does (`FAIR_NONE_HOLDS`); "" when
    every rule meets it (or none is feasible).

    A rule fitted tighter that holds only because it flags everyone (or nobody) in every group
    (`TRIVIALLY_EQUAL_COLUMN`) is said not to use the model: after the rules that do
    (`ALSO_WITHOUT_MODEL`), or as the only ones that hold (`FAIR_HOLDS_WITHOUT_MODEL`).
    """
    from costlib.core import rules as R

    if "fit_tolerance" not in summary or not len(summary):
        return ""
    stated = summary["fit_tolerance"] >= summary["tolerance"] - 1e-12
    missing = summary[stated & summary["feasible"] & ~summary["within_tolerance_on_test"]]
    if not len(missing):
        return ""
    names = _listed([R.rule_words(r) for r in missing["rule"]])
    holding = summary[~stated & summary["within_tolerance_on_test"]]
    flags = holding[TRIVIALLY_EQUAL_COLUMN] if TRIVIALLY_EQUAL_COLUMN in holding else [""] * len(holding)
    flags = dict(zip(holding["rule"], (f if isinstance(f, str) else "" for f in flags), strict=True))
    using = [R.rule_words(r) for r, f in flags.items() if not f]
    without = [r for r, f in flags.items() if f]
    if not using and not without:
        criteria = (
            missing["criterion"] if "criterion" in missing else [r.removeprefix(R.FAIR_PREFIX) for r in missing["rule"]]
        )
        others = FAIR_OTHERS_MEET if bool(summary["within_tolerance_on_test"].any()) else ""
        return FAIR_NONE_HOLDS.format(missing=names, criteria=" or ".join(dict.fromkeys(criteria)), others=others)
    note = ""
    if using:
        note = FAIR_HOLDS_NOTE.format(missing=names, holding=_listed(using), stays=_FORMS[len(using) == 1]["stays"])
    if without:
        said = {
            "holding": _listed([R.rule_words(r) for r in without]),
            "who": " or ".join(sorted({flags[r] for r in without})),  # "everyone", "nobody" or both
            **_FORMS[len(without) == 1],
        }
        note += (ALSO_WITHOUT_MODEL if using else FAIR_HOLDS_WITHOUT_MODEL).format(missing=names, **said)
    return note


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
