"""The bootstrap: rows resampled with replacement, drawn as counts wherever that is exact.

Every quantity costlib puts an interval on is a sum of per-row values that take few distinct
values (a row costs 0, c_fp or c_fn; a value is +1, -k or the reject value). Resampling n rows
with replacement then only changes how many rows fall in each distinct value, and those
counts are multinomial: drawing them is an exact bootstrap in O(resamples x distinct values),
independent of n. Both engines here draw that multinomial (`draw_counts`):

- `cell_bootstrap`: the judged rows of a sweep, by cells between the rules' cutoffs, for every
  rule at once (the decision, the report, the Value page);
- `ratio_interval` (and `mean_interval`, `paired_difference_interval`): any per-row values,
  by distinct (numerator, denominator) pair; when there are too many distinct values
  (continuous instance costs), rows are resampled by index in chunks.

Resampling is stratified by group and seeded; intervals are `percentile_interval`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.prices import Prices, mistakes_cost
from costlib.core.sweep import GroupedSweep, group_codes
from costlib.stats.intervals import LEVEL, Interval, check_level, check_resamples, percentile_interval

DEFAULT_RESAMPLES = 2000
MAX_CATEGORIES = 512
CHUNK = 2_000_000  # rows x resamples drawn at once when resampling by index


def draw_counts(counts: np.ndarray, n: int, b: int, rng: np.random.Generator) -> np.ndarray:
    """(b, categories) multinomial draws of n rows over categories holding `counts` rows (zeros
    when there are none): the exact row bootstrap of anything that depends only on the category.

    >>> draw_counts(np.array([3, 1]), 4, 2, np.random.default_rng(0)).sum(axis=1).tolist()
    [4, 4]
    """
    total = counts.sum()
    if total <= 0:
        return np.zeros((b, counts.size))
    return rng.multinomial(n, counts / total, size=b)


# ---------------------------------------------------------------------------------------
# Cells of a sweep: every rule's counts at once


@dataclass(frozen=True, eq=False)
class Resamples:
    """Bootstrap resamples of the judged rows' mistakes: arrays (B, rules, groups)."""

    rules: tuple
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    n: np.ndarray  # (groups,) rows per group: fixed, the resampling is stratified by group

    def cost(self, prices: Prices) -> np.ndarray:
        return mistakes_cost(self.fp, self.fn, prices.c_fp, prices.c_fn)


def check_cutoffs(cutoffs: Mapping, k: int) -> None:
    """Each rule's cutoffs: one number per group."""
    for rule, cut in cutoffs.items():
        if np.shape(cut) != (k,):
            raise ValueError(f"cutoffs[{rule!r}] must hold one cutoff per group ({k}): got shape {np.shape(cut)}")


def cell_bootstrap(
    sweep: GroupedSweep,
    cutoffs: Mapping[str, np.ndarray],
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    base: Sequence[str] | None = None,
) -> Resamples:
    """Exact row bootstrap of every rule's FP and FN, drawn from counts (stratified by group).

    Within a group, the cutoffs of all rules cut the scores into a few cells; a row's
    outcome under every rule depends only on its label and its cell. Resampling the group's
    n rows with replacement therefore draws the (label, cell) counts from one multinomial,
    which is what is drawn here: O(resamples x cells), independent of n, and exactly the
    distribution the row bootstrap has. For unweighted sweeps only (a weighted row's
    contribution is not a function of its cell): the caller passes weighted data no further.

    `base` names the rules whose cutoffs make the cells of the first draw (default: all).
    The other rules' cutoffs then split those cells, each drawn count shared out among its
    parts by a multinomial of its own: the same distribution, and the `base` rules get
    exactly the resamples they get alone, so adding rules (fairness-constrained ones in the
    report) never moves the intervals of the standard rules.
    """
    rules = tuple(cutoffs)
    k = len(sweep.groups)
    check_cutoffs(cutoffs, k)
    check_resamples(n_resamples, minimum=1)
    b = int(n_resamples)
    usable = np.array([[not np.isnan(cutoffs[r][i]) for i in range(k)] for r in rules]).reshape(len(rules), k)
    fp = np.where(usable, 0.0, np.nan)[None].repeat(b, axis=0)
    fn = fp.copy()
    tp = fp.copy()
    n_rows = sweep.positives + sweep.negatives
    in_base = np.array([base is None or r in base for r in rules], dtype=bool)
    for i, g in enumerate(sweep.groups):
        sw = sweep[g]
        n_g = int(round(n_rows[i]))
        if n_g == 0:
            continue
        cut = np.array([cutoffs[r][i] for r in rules], dtype=np.float64)
        ok = ~np.isnan(cut)
        j = sw.index_at(np.where(ok, cut, np.inf))
        last = sw.thresholds.size - 1
        coarse = np.unique(np.concatenate(([0], j[in_base], [last])))
        edges = np.unique(np.concatenate((coarse, j)))
        rng = np.random.default_rng([int(seed), i])
        draws = draw_cells(sw, coarse, n_g, b, rng)
        if edges.size > coarse.size:
            draws = split_cells(sw, coarse, edges, draws, np.random.default_rng([int(seed), i, 1]))
        c = edges.size - 1
        cum_pos = np.concatenate((np.zeros((b, 1)), np.cumsum(draws[:, :c], axis=1)), axis=1)
        cum_neg = np.concatenate((np.zeros((b, 1)), np.cumsum(draws[:, c:], axis=1)), axis=1)
        at = np.searchsorted(edges, j)  # how many cells lie above each rule's cutoff
        tp_b = cum_pos[:, at]
        tp[:, ok, i] = tp_b[:, ok]
        fp[:, ok, i] = cum_neg[:, at][:, ok]
        fn[:, ok, i] = (cum_pos[:, -1:] - tp_b)[:, ok]
    return Resamples(rules, tp, fp, fn, n_rows)


def draw_cells(sw, edges: np.ndarray, n: int, b: int, rng) -> np.ndarray:
    """(b, 2 cells) multinomial draws of n rows over the (label, cell) counts between `edges`:
    positives of every cell, then negatives."""
    return draw_counts(np.concatenate((np.diff(sw.tp[edges]), np.diff(sw.fp[edges]))), n, b, rng)


def split_cells(sw, coarse: np.ndarray, fine: np.ndarray, draws: np.ndarray, rng) -> np.ndarray:
    """Draws over the `coarse` cells shared out over the `fine` cells (which refine them):
    each drawn count of a coarse cell is split among its parts by a multinomial with the
    parts' shares, which gives the fine cells the multinomial distribution of one draw."""
    b, c = draws.shape[0], coarse.size - 1
    out = []
    for label, cum in ((0, sw.tp), (1, sw.fp)):
        for k in range(c):
            parts = fine[(fine >= coarse[k]) & (fine <= coarse[k + 1])]
            sizes = np.diff(cum[parts])
            drawn = draws[:, label * c + k].astype(np.int64)
            if sizes.size == 1 or sizes.sum() <= 0:
                split = np.zeros((b, sizes.size), dtype=np.int64)
                split[:, 0] = drawn
            else:
                split = rng.multinomial(drawn, sizes / sizes.sum())
            out.append(split)
    return np.concatenate(out, axis=1)


# ---------------------------------------------------------------------------------------
# Rows: sums of any per-row values


def categories(num: np.ndarray, den: np.ndarray):
    """(distinct (num, den) pairs, their counts), or (None, None) past MAX_CATEGORIES.

    Hash-based (pandas.factorize), linear in n: a sort-based np.unique(axis=0) took most of
    an audit's time at a million rows.
    """
    a_codes, a_vals = pd.factorize(num)
    if a_vals.size > MAX_CATEGORIES:
        return None, None
    b_codes, b_vals = pd.factorize(den)
    if b_vals.size > MAX_CATEGORIES:
        return None, None
    joint = a_codes.astype(np.int64) * b_vals.size + b_codes
    counts = np.bincount(joint, minlength=a_vals.size * b_vals.size)
    present = np.flatnonzero(counts)
    if present.size > MAX_CATEGORIES:
        return None, None
    cats = np.column_stack((np.asarray(a_vals)[present // b_vals.size], np.asarray(b_vals)[present % b_vals.size]))
    return cats.astype(np.float64), counts[present]


def resampled_sums(num: np.ndarray, den: np.ndarray, n_resamples: int, rng: np.random.Generator):
    """(B,) resampled sums of `num` and `den` over rows drawn with replacement."""
    n = num.size
    if n == 0:
        return np.full(n_resamples, np.nan), np.full(n_resamples, np.nan)
    cats, counts = categories(num, den)
    if cats is not None:
        draws = draw_counts(counts, n, n_resamples, rng)  # (B, categories)
        return draws @ cats[:, 0], draws @ cats[:, 1]
    out_num = np.empty(n_resamples)
    out_den = np.empty(n_resamples)
    step = max(1, CHUNK // n)
    for start in range(0, n_resamples, step):
        stop = min(n_resamples, start + step)
        idx = rng.integers(0, n, size=(stop - start, n))
        out_num[start:stop] = num[idx].sum(axis=1)
        out_den[start:stop] = den[idx].sum(axis=1)
    return out_num, out_den


def ratio_interval(
    num,
    den,
    *,
    strata=None,
    n_resamples: int = DEFAULT_RESAMPLES,
    level: float = LEVEL,
    seed: int = 0,
    scale: float = 1.0,
) -> tuple[Interval, np.ndarray]:
    """Percentile interval for scale * sum(num) / sum(den), resampling rows within strata.

    Returns the interval and the resampled statistics (for paired or derived intervals).

    >>> iv, _ = ratio_interval([1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], n_resamples=200)
    >>> iv.estimate, 0.0 <= iv.low <= iv.high <= 1.0
    (0.75, True)
    """
    check_level(level, n_resamples)
    num = v.as_float_1d(num, "num")
    den = v.as_float_1d(den, "den")
    v.same_length(num, den, "num", "den")
    if num.size == 0:
        v.warn_degenerate("no cases: the interval is NaN")
    rng = np.random.default_rng(seed)
    if strata is None:
        codes = np.zeros(num.size, dtype=np.int64)
        k = 1
    else:
        codes, names = group_codes(strata, num.size, "strata")
        k = len(names)
    tot_num = np.zeros(n_resamples)
    tot_den = np.zeros(n_resamples)
    for g in range(k):
        sel = codes == g
        a, b = resampled_sums(num[sel], den[sel], n_resamples, rng)
        tot_num += a
        tot_den += b
    with np.errstate(divide="ignore", invalid="ignore"):
        samples = scale * tot_num / tot_den
    estimate = scale * float(v.safe_divide(num.sum(), den.sum()))
    low, high = percentile_interval(samples, level) if np.isfinite(estimate) else (float("nan"), float("nan"))
    return Interval(float(estimate), low, high, level), samples


def mean_interval(
    values,
    *,
    strata=None,
    n_resamples: int = DEFAULT_RESAMPLES,
    level: float = LEVEL,
    seed: int = 0,
    scale: float = 1.0,
) -> tuple[Interval, np.ndarray]:
    """Percentile interval for scale * mean(values), rows resampled within strata."""
    values = v.as_float_1d(values, "values")
    return ratio_interval(
        values, np.ones_like(values), strata=strata, n_resamples=n_resamples, level=level, seed=seed, scale=scale
    )


def paired_difference_interval(
    cost_a,
    cost_b,
    *,
    strata=None,
    n_resamples: int = DEFAULT_RESAMPLES,
    level: float = LEVEL,
    seed: int = 0,
    scale: float = 1.0,
) -> Interval:
    """Interval for mean(cost_a) - mean(cost_b) on the same rows (paired resampling).

    Two rules or two models judged on the same test rows: resampling rows keeps each row's
    pair together, which is what makes small differences distinguishable.
    """
    a = v.as_float_1d(cost_a, "cost_a")
    b = v.as_float_1d(cost_b, "cost_b")
    v.same_length(a, b, "cost_a", "cost_b")
    iv, _ = mean_interval(a - b, strata=strata, n_resamples=n_resamples, level=level, seed=seed, scale=scale)
    return iv
