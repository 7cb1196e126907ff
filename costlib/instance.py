"""Instance-level costs: each case carries a signed margin delta.

The sign of delta is the label (positive iff delta > 0) and its size the price of getting
the case wrong. Normalized excess cost (NEC) weighs each mistake by abs(delta)::

    NEC = sum_i abs(delta_i) [wrong_i] / sum_i abs(delta_i)

It has the error rate's scale (0 perfect, 0.5 coin flip, 1 always wrong) and equals the
error rate when every abs(delta) is the same. Error rate / NEC > 1 means the mistakes sit on
ambiguous (cheap) cases. Priced at what a mistake on a case of average abs(delta) costs, NEC
times that price is the cost per case in money (`nec_money`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.core import ship as S
from costlib.core import validation as v
from costlib.core.prices import no_model_costs
from costlib.core.sweep import Sweep, sweep_arrays, sweep_by_codes, tie_tolerance
from costlib.stats.bootstrap import DEFAULT_RESAMPLES, ratio_interval
from costlib.stats.intervals import LEVEL, Interval


def _numbers(x, name: str) -> np.ndarray:
    """Finite numbers as float64, a scalar or a 1-D array (numpy's broadcasting rules)."""
    arr = np.asarray(x)
    if arr.ndim == 0:
        return v.as_float_1d(arr.reshape(1), name).reshape(())
    return v.as_float_1d(arr, name)


def delta_from_votes(n_yes, n_no):
    """Laplace-smoothed log-odds of the votes: ln((n_yes + 1) / (n_no + 1)).

    Scalars give a scalar, as in numpy.

    Parameters
    ----------
    n_yes : float or array-like of shape (n,)
        Votes for the positive class; finite, >= 0.
    n_no : float or array-like of shape (n,)
        Votes for the negative class; finite, >= 0. Broadcast against `n_yes` (a scalar
        with an array gives an array).

    Returns
    -------
    numpy.ndarray or numpy.float64
        delta per case: > 0 when the yes votes outnumber the no votes, 0 on a tie.

    Raises
    ------
    ValueError
        If a count is not numeric and finite, is not a scalar or 1-D, is negative, or the two
        arrays differ in length.

    Examples
    --------
    >>> delta_from_votes([3, 0], [0, 3]).round(4).tolist()
    [1.3863, -1.3863]
    >>> round(float(delta_from_votes(9, 1)), 4)
    1.6094
    """
    yes = _numbers(n_yes, "n_yes")
    no = _numbers(n_no, "n_no")
    if yes.ndim and no.ndim:
        v.same_length(yes, no, "n_yes", "n_no")
    for arr, name in ((yes, "n_yes"), (no, "n_no")):
        flat = np.atleast_1d(arr)
        if (flat < 0).any():
            raise ValueError(v.MSG_NEGATIVE.format(name=name, value=flat[flat < 0][0].item()))
    return np.log((yes + 1.0) / (no + 1.0))


def delta_from_threshold(z, tau):
    """delta = z - tau: a measurement and the threshold that defines the positive class.

    Parameters
    ----------
    z : float or array-like of shape (n,)
        The measurements; finite.
    tau : float
        The threshold: a case is positive iff z > tau. Finite, any sign, at most 1e100 in size.

    Returns
    -------
    numpy.ndarray or numpy.float64
        delta = z - tau per case (a scalar for a scalar `z`).

    Raises
    ------
    ValueError
        If `z` is not numeric, finite and a scalar or 1-D, or `tau` is not a finite number.

    Examples
    --------
    >>> delta_from_threshold([5.0, 7.5, 6.0], 6.0)
    array([-1. ,  1.5,  0. ])
    >>> float(delta_from_threshold(7, 6))
    1.0
    """
    return _numbers(z, "z") - v.as_price(tau, "tau", allow_negative=True)


def delta_from_rating(rating, midpoint):
    """delta = rating - midpoint (orient the scale so that positive means the positive class).

    Parameters
    ----------
    rating : float or array-like of shape (n,)
        The ratings; finite.
    midpoint : float
        The neutral point of the scale; a rating at it gives delta 0 (no label, no cost).
        Finite, any sign, at most 1e100 in size.

    Returns
    -------
    numpy.ndarray or numpy.float64
        delta = rating - midpoint per case (a scalar for a scalar `rating`).

    Raises
    ------
    ValueError
        If `rating` is not numeric, finite and a scalar or 1-D, or `midpoint` is not a finite
        number.

    Examples
    --------
    >>> delta_from_rating([1, 3, 5], 3)
    array([-2.,  0.,  2.])
    """
    return _numbers(rating, "rating") - v.as_price(midpoint, "midpoint", allow_negative=True)


def _pred_delta(y_pred, delta):
    pred = v.as_binary(y_pred, "y_pred")
    d = v.as_float_1d(delta, "delta")
    v.same_length(pred, d, "y_pred", "delta")
    return pred, d


def normalized_excess_cost(y_pred, delta) -> float:
    """sum abs(delta) over mistakes / sum abs(delta) (NaN with a warning when every delta is 0).

    Parameters
    ----------
    y_pred : array-like of shape (n,)
        Binary decisions (1 = positive).
    delta : array-like of shape (n,)
        Signed margins, finite: the label is delta > 0, the price of a mistake abs(delta).

    Returns
    -------
    float
        NEC in [0, 1]: 0 perfect, 1 every mistake made; NaN when every delta is 0.

    Raises
    ------
    ValueError
        If `y_pred` is not 1-D and binary, `delta` is not 1-D, numeric and finite, or the
        lengths differ.

    Warns
    -----
    DegenerateWarning
        When every delta is 0 (or there are no cases); NEC is then NaN.

    Examples
    --------
    >>> normalized_excess_cost([1, 1, 0, 0], [2.0, -0.5, 0.5, -1.0])
    0.25
    """
    pred, d = _pred_delta(y_pred, delta)
    size = np.abs(d)
    total = size.sum()
    if total <= 0:
        v.warn_degenerate("every delta is 0: there is no cost to normalise by; NEC is NaN")
        return float("nan")
    wrong = pred != (d > 0)
    return float(size[wrong].sum() / total)


def nec_money(nec, price: float, *, relative_weight=1.0):
    """The cost per case, in money, of the NEC `nec` when a mistake on a typical case costs `price`.

    A typical case is one of the mean abs(delta) over the cases NEC is read on; a mistake on
    case i costs ``price * abs(delta_i) / mean abs(delta)``, so a mistake on a case twice as
    costly costs twice as much. Over those n cases the cost per case is then::

        sum_i price * abs(delta_i) [wrong_i] / (n * mean abs(delta)) = price * NEC

    and over a group of them, whose mean abs(delta) is `relative_weight` times the mean of
    every case (`NecSweeps.relative_weights`), price * NEC of the group * `relative_weight`.

    Parameters
    ----------
    nec : float or array-like
        NEC, of every case or of a group (NaN stays NaN).
    price : float
        What a mistake on a typical case costs, in the user's unit.
    relative_weight : float or array-like, default 1.0
        The group's mean abs(delta) over the mean abs(delta) of every case (1: every case).

    Returns
    -------
    float or numpy.ndarray
        The cost per case, in the unit of `price`.

    Examples
    --------
    Two cases, abs(delta) 2 and 0.5 (mean 1.25); the model gets the first wrong. NEC is
    2 / 2.5 = 0.8; at 10 for a mistake on a typical case the mistake costs 10 * 2 / 1.25 = 16,
    8 per case:

    >>> nec = normalized_excess_cost([0, 0], [2.0, -0.5])
    >>> float(nec_money(nec, 10.0))
    8.0
    """
    return np.asarray(nec, dtype=float) * float(price) * np.asarray(relative_weight, dtype=float)


def error_rate(y_pred, delta) -> float:
    """Share of cases whose decision disagrees with the sign of delta.

    Parameters
    ----------
    y_pred : array-like of shape (n,)
        Binary decisions (1 = positive).
    delta : array-like of shape (n,)
        Signed margins, finite: the label is delta > 0, the price of a mistake abs(delta).

    Returns
    -------
    float
        The error rate, in [0, 1]; NaN when there are no cases. A case with delta 0 counts
        as negative.

    Raises
    ------
    ValueError
        If `y_pred` is not 1-D and binary, `delta` is not 1-D, numeric and finite, or the
        lengths differ.

    Warns
    -----
    DegenerateWarning
        When there are no cases; the error rate is then NaN.

    Examples
    --------
    >>> error_rate([1, 1, 0, 0], [2.0, -0.5, 0.5, -1.0])
    0.5
    """
    pred, d = _pred_delta(y_pred, delta)
    if d.size == 0:
        v.warn_degenerate("no cases: error rate is NaN")
        return float("nan")
    return float(np.mean(pred != (d > 0)))


def nec_sweep(y_score, delta) -> Sweep:
    """The cost kernel with labels delta > 0 and weights abs(delta)."""
    s = v.as_float_1d(y_score, "y_score")
    d = v.as_float_1d(delta, "delta")
    v.same_length(s, d, "y_score", "delta")
    thresholds, tp, fp, n_pos, n_neg = sweep_arrays(d > 0, s, np.abs(d))
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


def nec_curve(y_score, delta):
    """(thresholds, nec): NEC when flagging iff score >= threshold, at every distinct score.

    The cost sweep with labels delta > 0, weights abs(delta) and both prices 1.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Finite real scores.
    delta : array-like of shape (n,)
        Signed margins, finite: the label is delta > 0, the price of a mistake abs(delta).

    Returns
    -------
    thresholds : numpy.ndarray
        Descending; ``thresholds[0]`` is inf (nobody flagged), the last entry flags everybody.
    nec : numpy.ndarray
        NEC when flagging iff score >= ``thresholds[i]``; all NaN when every delta is 0.

    Raises
    ------
    ValueError
        If `y_score` or `delta` is not 1-D, numeric and finite, or the lengths differ.

    Warns
    -----
    DegenerateWarning
        When every delta is 0 (or there are no cases); every NEC is then NaN.

    Examples
    --------
    >>> t, nec = nec_curve([0.9, 0.7, 0.4, 0.2], [2.0, -0.5, 0.5, -1.0])
    >>> t.tolist(), nec.tolist()
    ([inf, 0.9, 0.7, 0.4, 0.2], [0.625, 0.125, 0.25, 0.125, 0.375])
    """
    sweep = nec_sweep(y_score, delta)
    if sweep.total <= 0:
        v.warn_degenerate("every delta is 0: NEC is NaN")
        return sweep.thresholds, np.full(sweep.thresholds.shape, np.nan)
    return sweep.thresholds, (sweep.fp + sweep.fn) / sweep.total


def nec_table(models: dict, delta, *, threshold: float, groups=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(overall, by_group): error rate, NEC and their ratio when flagging iff score >=
    `threshold`, for every model and for the two decisions without a model.

    overall has one row per option (``option, n, error rate, NEC, error rate / NEC``);
    by_group one row per (option, group), empty without `groups`. The two are kept apart:
    no group name is reserved for the total. `NecSweeps.table` at one cutoff.
    """
    return NecSweeps.of(models, delta, groups=groups).table(threshold)


@dataclass(frozen=True, eq=False)
class NecSweeps:
    """Every model's mistakes at any cutoff, by group: two sweeps per model sorted once (the
    mistakes counted, and weighted by abs(delta)), so that a move of a cutoff slider reads a
    few cumulative sums and never touches the rows. `table` gives `nec_table`'s frames.
    """

    counted: dict  # model -> GroupedSweep of labels delta > 0
    weighted: dict  # model -> the same, weighted by abs(delta)
    groups: tuple  # names, in the order of the tables
    positives: np.ndarray  # (2, groups): cases with delta > 0, counted and weighted
    negatives: np.ndarray  # (2, groups): the others
    grouped: bool

    @classmethod
    def of(cls, models: dict, delta, *, groups=None) -> NecSweeps:
        d = v.as_float_1d(delta, "delta")
        if groups is None:
            codes, names = np.zeros(d.size, dtype=np.int64), (("all",) if d.size else ())
        else:
            g = np.asarray(groups, dtype=object)
            v.same_length(d, g, "delta", "groups")
            codes, uniques = pd.factorize(g, use_na_sentinel=False)  # missing values: one group
            codes, names = _order_by_text(codes, tuple(uniques.tolist()))
        y, w = d > 0, np.abs(d)
        counted, weighted = {}, {}
        for m, scores in models.items():
            s = v.as_float_1d(scores, f"models[{m!r}]")
            v.same_length(d, s, "delta", f"models[{m!r}]")
            counted[m] = sweep_by_codes(y, s, codes, names)
            weighted[m] = sweep_by_codes(y, s, codes, names, w)
        k = len(names)
        by = [np.bincount(codes[sel], weights=weights, minlength=k) for sel in (y, ~y) for weights in (None, w[sel])]
        return cls(counted, weighted, names, np.array(by[:2]), np.array(by[2:]), groups is not None)

    def table(self, threshold: float) -> tuple[pd.DataFrame, pd.DataFrame]:
        """`nec_table`'s (overall, by_group) when flagging iff score >= `threshold`.

        A NaN cutoff flags nobody (no score is >= NaN). A model named like a decision without
        a model keeps its place and shows that decision, as one table cannot hold both."""
        threshold = float(threshold)
        if np.isnan(threshold):
            threshold = np.inf
        overall, by_group = [], []
        for option in dict.fromkeys([*self.counted, R.NOBODY, R.EVERYONE]):
            # per group: rows, mistakes, abs(delta) of the mistakes, abs(delta) of all
            per = np.array([self._mistakes(option, i, threshold) for i in range(len(self.groups))]).reshape(-1, 4)
            overall.append({"option": option, **_nec_row(*per.sum(axis=0))})
            if self.grouped:
                rows = zip(self.groups, per, strict=True)
                by_group.extend({"option": option, "group": g, **_nec_row(*row)} for g, row in rows)
        columns = ["n", "error rate", "NEC", "error rate / NEC"]
        return pd.DataFrame(overall, columns=["option", *columns]), pd.DataFrame(
            by_group, columns=["option", "group", *columns]
        )

    def relative_weights(self) -> np.ndarray:
        """Each group's mean abs(delta) over the mean abs(delta) of every case, in the order of
        `groups` (NaN for a group without cases or when every delta is 0): the factor
        `nec_money` takes to turn a group's NEC into its cost per case."""
        n = self.positives[0] + self.negatives[0]
        weight = self.positives[1] + self.negatives[1]
        overall = weight.sum() / n.sum() if n.sum() > 0 else np.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((n > 0) & (overall > 0), weight / np.where(n > 0, n, 1) / overall, np.nan)

    def _mistakes(self, option, i: int, threshold: float) -> tuple[float, float, float, float]:
        """(rows, mistakes, abs(delta) of the mistakes, abs(delta) of all) of group i."""
        if option in (R.NOBODY, R.EVERYONE):
            pos, neg = self.positives[:, i], self.negatives[:, i]
            nobody, everyone = no_model_costs(pos, neg, 1.0, 1.0)  # (rows, abs(delta)) of the mistakes: each costs 1
            wrong = nobody if option == R.NOBODY else everyone
            return pos[0] + neg[0], wrong[0], wrong[1], pos[1] + neg[1]
        out = []
        for sweeps in (self.counted, self.weighted):
            sw = sweeps[option][self.groups[i]]
            j = sw.index_at(threshold)
            # the sweep's own totals: its cumulative sums reach them exactly, so a cutoff that
            # flags every positive leaves no rounding residue (NEC exactly 0, its ratio NaN)
            out.append((sw.total, float(sw.fp[j]) + (sw.positives - float(sw.tp[j]))))
        (n, errors), (total, cost) = out
        return n, errors, cost, total


def _order_by_text(codes: np.ndarray, names: tuple) -> tuple[np.ndarray, tuple]:
    """Codes renumbered so that groups come in the order of their names as text (the tables' order)."""
    order = sorted(range(len(names)), key=lambda i: str(names[i]))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return rank[codes], tuple(names[i] for i in order)


def _nec_row(n: float, errors: float, cost: float, total: float) -> dict:
    err = errors / n if n > 0 else float("nan")
    nec = cost / total if total > 0 else float("nan")
    return {"n": int(n), "error rate": err, "NEC": nec, "error rate / NEC": err / nec if nec > 0 else float("nan")}


# ---------------------------------------------------------------------------------------
# The Instance costs page's answer


@dataclass(frozen=True, eq=False)
class NecRecommendation:
    """The NEC-optimal cutoff and its cost against the cheaper of flagging nobody and flagging
    everyone (in NEC: the abs(delta) of the mistakes over the abs(delta) of all cases), with a 95%
    interval of the saving. `estimate` says how it was judged: ``"test"`` (fitted on the train
    rows, judged on the test rows), ``"cross-fitted"`` (no split: each row judged by the model
    and cutoff picked without its fold, `binary.row_crossfit`) or ``"same rows"`` (no split and
    no resamples: read on the rows that picked it, without an interval)."""

    model: str
    threshold: float
    nec: float
    error_rate: float
    baseline: str
    baseline_nec: float
    saving: float
    saving_low: float
    saving_high: float
    status: str
    judged_on: str
    estimate: str = "test"


def unit_sizes(delta: np.ndarray) -> np.ndarray:
    """abs(delta) divided by the power of two just above the largest of them (each in [0, 1)).

    NEC, its saving and their intervals are the same at any scale of delta, but an interval's
    variance squares the sizes: from about 1e154 the squares overflow (and below about 1e-154
    they vanish), and the interval read NaN. Divided by a power of two every size is exact (a
    size more than 2**1074 times smaller than the largest, which weighs nothing beside it, reads
    0), so the answer is the one at ordinary scale, to the last digit.

    >>> unit_sizes(np.array([3e154, -1e154, 0.0])).round(4).tolist()
    [0.5594, 0.1865, 0.0]
    >>> unit_sizes(np.array([1.0, -0.5])).tolist()  # the largest, 1, is 2**0: divided by 2
    [0.5, 0.25]
    """
    size = np.abs(np.asarray(delta, dtype=np.float64))
    return np.ldexp(size, -unit_exponent(size))


def unit_exponent(values) -> int:
    """The power of two just above the largest abs(`values`): e with max abs = m * 2**e, 0.5 <= m < 1
    (0 when there is none above 0). ``np.ldexp(values, -e)`` is then below 1 in size, exactly.

    >>> unit_exponent([1e154, -3.0]), unit_exponent([0.75]), unit_exponent([])
    (512, 0, 0)
    """
    size = np.abs(np.asarray(values, dtype=np.float64))
    if not size.size or not size.max() > 0:
        return 0
    return int(np.frexp(size.max())[1])


def _nec_pick(models: dict, d: np.ndarray):
    """The pick of `recommend_nec` on the rows of a mask: (model, cutoff) with the lowest NEC
    there, as a function deciding other rows (flagged iff score >= cutoff). Each model's rows are
    sorted once (`row_crossfit.SubsetSweeps`): a fold's sweep is counted, not sorted again."""
    from costlib.binary import decision as D
    from costlib.binary.model_sweeps import SINGLE_GROUP, model_from_sweeps
    from costlib.binary.row_crossfit import SubsetSweeps
    from costlib.core.sweep import GroupedSweep

    subsets = {m: SubsetSweeps(d > 0, s, unit_sizes(d)) for m, s in models.items()}

    def sweeps(m: str, fit: np.ndarray):
        th, tp, fp, pos, neg = subsets[m].sweep(fit)
        grouped = GroupedSweep((None,), np.array([0, th.size]), th, tp, fp, np.array([pos]), np.array([neg]))
        return model_from_sweeps(grouped, name=m, weighted=True)

    def pick(fit: np.ndarray):
        rec = D.recommend({m: sweeps(m, fit) for m in models}, (1.0, 1.0), n_resamples=0)
        t, s = rec.cutoffs[SINGLE_GROUP], models[rec.model]
        return lambda rows: s[rows] >= t

    return pick


def recommend_nec(
    models: dict, delta, *, fit=None, judge=None, n_resamples: int = 1000, seed: int = 0
) -> NecRecommendation:
    """The model and cutoff with the lowest NEC on the fitting rows, judged on rows it was not
    picked on.

    NEC is the cost sweep with labels delta > 0, weights abs(delta) and both prices 1, so the
    pick is `decision.recommend` on that sweep. With a split the interval resamples the judged
    rows (abs(delta) takes many values, so rows are drawn by index). Without one (`judge` None or
    the fitting rows themselves) the pick is cross-fitted on the rows (`binary.row_crossfit`: the
    model and cutoff picked again without each fold, over a few deals), and the NEC, the error
    rate, the saving and its fold-aware interval are the cross-fitted ones: a cutoff picked as
    the cheapest on the rows is not judged on them. The cutoff shipped is the one picked on all
    rows.
    """
    from costlib.binary import decision as D
    from costlib.binary import row_crossfit as X
    from costlib.binary.model_sweeps import SINGLE_GROUP, sweep_model

    d = v.as_float_1d(delta, "delta")
    weights = unit_sizes(d)  # the answer at any scale of delta is the one at ordinary scale
    models = {m: v.as_float_1d(s, "scores") for m, s in models.items()}
    sweeps = {m: sweep_model(d > 0, s, fit=fit, judge=judge, sample_weight=weights, name=m) for m, s in models.items()}
    rec = D.recommend(sweeps, (1.0, 1.0), n_resamples=0)
    mask = np.ones(d.size, dtype=bool) if judge is None else np.asarray(judge, dtype=bool)
    t = rec.cutoffs[SINGLE_GROUP]
    dd = d[mask]
    pred = models[rec.model][mask] >= t
    base_pred = np.full(dd.size, rec.baseline == R.EVERYONE)
    size = weights[mask]
    wrong, wrong_base = pred != (dd > 0), base_pred != (dd > 0)
    nec, saving, lo, hi = rec.cost, rec.saving, float("nan"), float("nan")
    estimate = "test" if rec.judged_on == "test" else "same rows"
    if rec.judged_on == "all" and n_resamples and size.sum() > 0:
        estimate = "cross-fitted"
        labels = dd > 0
        fitted = X.cross_fit(
            _nec_pick({m: s[mask] for m, s in models.items()}, dd),
            labels,
            lambda rows, decisions: (decisions != labels[rows]).astype(np.float64),
            seed=seed,
        )
        wrong = fitted.cost
        saving, lo, hi = X.weighted_saving(wrong_base.astype(np.float64), fitted, size)
        nec = rec.baseline_cost - saving
    elif n_resamples and size.sum() > 0:
        iv, _ = ratio_interval(size * (wrong_base.astype(float) - wrong), size, n_resamples=n_resamples, seed=seed)
        lo, hi = iv.low, iv.high
    status = rec.status
    if status in (S.SAVES, S.UNCLEAR):  # the ship rule on this interval (none: never a saving to ship)
        status = S.saving_status(saving, lo, hi, tolerance=tie_tolerance(rec.baseline_cost, rec.prices.scale))
    return NecRecommendation(
        model=rec.model,
        threshold=float(t),
        nec=nec,
        error_rate=float(np.mean(wrong)) if dd.size else np.nan,
        baseline=rec.baseline,
        baseline_nec=rec.baseline_cost,
        saving=saving,
        saving_low=lo,
        saving_high=hi,
        status=status,
        judged_on=rec.judged_on,
        estimate=estimate,
    )


def nec_interval(
    y_pred, delta, *, strata=None, n_resamples: int = DEFAULT_RESAMPLES, level: float = LEVEL, seed: int = 0
) -> Interval:
    """Interval for NEC = sum abs(delta) [wrong] / sum abs(delta) (a ratio of sums)."""
    pred = v.as_binary(y_pred, "y_pred")
    d = v.as_float_1d(delta, "delta")
    v.same_length(pred, d, "y_pred", "delta")
    size = unit_sizes(d)  # a ratio of sums: the same at any scale, without overflow
    iv, _ = ratio_interval(
        size * (pred != (d > 0)), size, strata=strata, n_resamples=n_resamples, level=level, seed=seed
    )
    return iv
