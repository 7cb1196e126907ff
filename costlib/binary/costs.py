"""Binary costs (Elkan), per-group costs and the table of cutoff rules.

A cost ratio is a threshold and a threshold is a cost ratio: for calibrated scores the
cheapest rule flags iff p >= c_fp / (c_fp + c_fn). On real scores the threshold that
minimises cost on data differs, which is why both exist here.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.prices import elkan_threshold, mistakes_cost
from costlib.core.rules import CONTRACT_RULES
from costlib.core.sweep import Sweep, group_codes, grouped_sweep, threshold_sweep

RULES = CONTRACT_RULES  # the contract's rule names (their one home is costlib.core.rules)
GROUP_COST_COLUMNS = ["group", "n", "threshold", "flagged_rate", "fp", "fn", "cost_per_100"]
RULE_COLUMNS = ["rule", "group", "threshold", "flagged_rate", "cost_per_100"]


def expected_cost(y_true, y_pred, *, c_fp, c_fn) -> float:
    """(FP * c_fp + FN * c_fn) / n for 0/1 decisions y_pred.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_pred : array-like of shape (n,)
        Binary decisions (1 = flagged, predicted positive).
    c_fp : float
        Price of a false positive (flagging a negative case); finite, >= 0.
    c_fn : float
        Price of a false negative (missing a positive case); finite, >= 0.

    Returns
    -------
    float
        Cost per case; NaN when there are no cases.

    Raises
    ------
    ValueError
        If `y_true` or `y_pred` is not 1-D and binary, their lengths differ, or a price is not
        a finite number in [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When there are no cases; the cost is then NaN.

    Examples
    --------
    >>> expected_cost([0, 0, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1], c_fp=1, c_fn=3)
    0.3333333333333333
    """
    return priced_errors(y_true, y_pred, c_fp, c_fn, names=("c_fp", "c_fn"), what="expected_cost")


def priced_errors(y_true, y_pred, fp_price, fn_price, *, names: tuple[str, str], what: str) -> float:
    """(FP * fp_price + FN * fn_price) / n, the prices validated under their public `names`."""
    y = v.as_binary(y_true, "y_true")
    pred = v.as_binary(y_pred, "y_pred")
    v.same_length(y, pred, "y_true", "y_pred")
    fp_price = v.as_price(fp_price, names[0])
    fn_price = v.as_price(fn_price, names[1])
    if y.size == 0:
        v.warn_degenerate(f"no cases: {what} is NaN")
        return float("nan")
    fp = np.count_nonzero(pred & ~y)
    fn = np.count_nonzero(~pred & y)
    return float(mistakes_cost(fp, fn, fp_price, fn_price) / y.size)


def cost_curve(y_true, y_score, *, c_fp, c_fn, sample_weight=None):
    """(thresholds, cost_per_case) at every distinct score plus +inf (flag nobody first).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores (not necessarily probabilities); flag iff score >= threshold.
    c_fp : float
        Price of a false positive (flagging a negative case); finite, >= 0.
    c_fn : float
        Price of a false negative (missing a positive case); finite, >= 0.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1. Rows of weight 0 count as
        dropped.

    Returns
    -------
    thresholds : numpy.ndarray
        Descending; ``thresholds[0]`` is inf (nobody is flagged), the last entry is the
        lowest score (everybody is flagged).
    cost_per_case : numpy.ndarray
        ``(FP * c_fp + FN * c_fn) / n`` when flagging iff score >= ``thresholds[i]``
        (weighted counts and n with `sample_weight`).

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, `y_score` is not 1-D, numeric and finite,
        `sample_weight` is negative, not finite or of another length, the lengths differ,
        or a price is not a finite number in [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When the total case weight is 0; every cost is then NaN.

    Examples
    --------
    >>> t, c = cost_curve([0, 1, 1], [0.2, 0.2, 0.9], c_fp=1, c_fn=3)
    >>> t.tolist(), c.tolist()
    ([inf, 0.9, 0.2], [2.0, 1.0, 0.3333333333333333])
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    sweep = threshold_sweep(y_true, y_score, sample_weight=sample_weight)
    return sweep.thresholds, sweep.cost(c_fp, c_fn)


def best_on_sweep(sweep: Sweep, c_fp: float, c_fn: float) -> tuple[float, float]:
    """(threshold, cost per case) of `Sweep.best`; NaN pair for one class (with a warning)."""
    j = sweep.best(c_fp, c_fn)
    if j < 0:
        return float("nan"), float("nan")
    return float(sweep.thresholds[j]), float(sweep.cost(c_fp, c_fn)[j])


def optimal_threshold(y_true, y_score, *, c_fp, c_fn, sample_weight=None) -> tuple[float, float]:
    """(threshold, cost_per_case) minimising cost over every possible threshold.

    Ties go to the larger threshold (flag fewer). +inf (flag nobody) is a candidate. The tie
    rule (`costlib.core.sweep.best_indices`): the cheapest cutoff when a false alarm is priced
    a relative 1e-12 dearer, of those the larger threshold. So an exact tie, and one lost to
    rounding, go to the larger threshold, the answer depends on c_fn / c_fp only, and it is,
    at every ratio, the cutoff of the `optimal_cutoffs_by_ratio` piece holding c_fn / c_fp.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores (not necessarily probabilities); flag iff score >= threshold.
    c_fp : float
        Price of a false positive (flagging a negative case); finite, >= 0.
    c_fn : float
        Price of a false negative (missing a positive case); finite, >= 0.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1. Rows of weight 0 count as
        dropped.

    Returns
    -------
    threshold : float
        The cheapest cutoff: one of the scores, or inf (flag nobody); NaN when there is none.
    cost_per_case : float
        Its cost per case, ``(FP * c_fp + FN * c_fn) / n``; NaN when there is no threshold.

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, `y_score` is not 1-D, numeric and finite,
        `sample_weight` is negative, not finite or of another length, the lengths differ,
        or a price is not a finite number in [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When only one class has positive weight (no threshold to fit): (nan, nan).

    Examples
    --------
    >>> optimal_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], c_fp=1, c_fn=3)
    (0.35, 0.3333333333333333)
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    return best_on_sweep(threshold_sweep(y_true, y_score, sample_weight=sample_weight), c_fp, c_fn)


def _per_group(mapping, names: tuple, name: str) -> dict:
    if not isinstance(mapping, Mapping):
        raise ValueError(f"{name} must map each group to a value: got {type(mapping).__name__}")
    missing = [g for g in names if g not in mapping]
    if missing:
        raise ValueError(v.MSG_MISSING_GROUP.format(name=name, group=missing[0], present=list(names)))
    return {g: mapping[g] for g in names}


def _prices(costs: Mapping, names: tuple) -> tuple[np.ndarray, np.ndarray]:
    pairs = _per_group(costs, names, "costs")
    c_fp = np.array([v.as_price(pairs[g][0], f"costs[{g!r}] c_fp") for g in names])
    c_fn = np.array([v.as_price(pairs[g][1], f"costs[{g!r}] c_fn") for g in names])
    return c_fp, c_fn


def _thresholds(thresholds: Mapping, names: tuple) -> np.ndarray:
    cut = _per_group(thresholds, names, "thresholds")
    out = np.empty(len(names))
    for i, g in enumerate(names):
        try:
            out[i] = float(cut[g])
        except (TypeError, ValueError):
            raise ValueError(f"thresholds[{g!r}] must be a number: got {cut[g]!r}") from None
        if np.isnan(out[i]):
            v.warn_degenerate(f"the cutoff for group {g!r} is NaN: its row is NaN")
    return out


def group_costs(y_true, y_score, groups, *, costs, thresholds, sample_weight=None) -> pd.DataFrame:
    """Cost per 100 cases per group, each group with its own prices and cutoff.

    One row per group (sorted by name) with columns
    ``group, n, threshold, flagged_rate, fp, fn, cost_per_100`` where
    ``cost_per_100 = 100 * (fp * c_fp + fn * c_fn) / n`` and ``flagged_rate`` is the share
    of the group with score >= its threshold. With weights, n and the counts are weighted.
    A NaN cutoff gives a NaN row (with a warning).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores (not necessarily probabilities); flag iff score >= threshold.
    groups : array-like of shape (n,)
        Group of each case (any hashable values; groups are sorted by name).
    costs : Mapping
        ``{group: (c_fp, c_fn)}`` with an entry for every group; prices finite and >= 0.
    thresholds : Mapping
        ``{group: cutoff}`` with an entry for every group; a cutoff is any number, inf flags
        nobody in the group.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1. Rows of weight 0 count as
        dropped.

    Returns
    -------
    pandas.DataFrame
        One row per group with columns ``group, n, threshold, flagged_rate, fp, fn,
        cost_per_100``; ``n`` is an int count without weights and the total weight with them.

    Raises
    ------
    ValueError
        If the arrays are invalid (`y_true` not binary, `y_score` not finite, `groups` not
        1-D, lengths differ, `sample_weight` negative or not finite); if `costs` or
        `thresholds` is not a mapping, lacks a group, holds a price outside [0, 1e100] or a
        cutoff that is not a number.

    Warns
    -----
    DegenerateWarning
        When a group's cutoff is NaN (its row is NaN) or a group has total weight 0 (its
        flagged rate and cost per 100 are NaN).

    Examples
    --------
    >>> group_costs([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], ["a", "a", "a", "b", "b", "b"],
    ...             costs={"a": (1, 3), "b": (1, 3)}, thresholds={"a": 0.25, "b": 0.7})
      group  n  threshold  flagged_rate   fp   fn  cost_per_100
    0     a  3       0.25      0.666667  1.0  0.0     33.333333
    1     b  3       0.70      0.666667  0.0  0.0      0.000000
    """
    y, s = v.binary_pair(y_true, y_score)
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    codes, names = group_codes(groups, len(y))
    c_fp, c_fn = _prices(costs, names)
    cut = _thresholds(thresholds, names)
    k = len(names)
    with np.errstate(invalid="ignore"):
        flagged = s >= cut[codes]
    nan_rows = np.isnan(cut)
    wt = None if w is None else w
    n = np.bincount(codes, weights=wt, minlength=k).astype(np.float64)
    n_flag = np.bincount(codes, weights=flagged if wt is None else flagged * wt, minlength=k)
    fp = np.bincount(codes, weights=(flagged & ~y) if wt is None else (flagged & ~y) * wt, minlength=k).astype(float)
    fn = np.bincount(codes, weights=(~flagged & y) if wt is None else (~flagged & y) * wt, minlength=k).astype(float)
    n_flag = n_flag.astype(np.float64)
    empty = [names[i] for i in np.flatnonzero(n <= 0)]
    if empty:
        v.warn_degenerate(f"group {empty[0]!r} has total weight 0: its flagged rate and cost per 100 are NaN")
    fp[nan_rows] = np.nan
    fn[nan_rows] = np.nan
    n_flag[nan_rows] = np.nan
    return pd.DataFrame(
        {
            "group": list(names),
            "n": n if w is not None else n.astype(np.int64),
            "threshold": cut,
            "flagged_rate": v.safe_divide(n_flag, n),
            "fp": fp,
            "fn": fn,
            "cost_per_100": 100 * v.safe_divide(mistakes_cost(fp, fn, c_fp, c_fn), n),
        },
        columns=GROUP_COST_COLUMNS,
    )


def _triple(data, name: str):
    try:
        y, s, g = data
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (y_true, y_score, groups) triple") from None
    return y, s, g


def cost_optimal_thresholds(y_true, y_score, groups, *, costs, sample_weight=None) -> dict:
    """{group: exact cost-minimising cutoff on these rows}, each group with its own prices.

    Each group's cutoff is what `optimal_threshold` returns on that group's rows (ties go to
    the larger threshold).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores (not necessarily probabilities); flag iff score >= threshold.
    groups : array-like of shape (n,)
        Group of each case (any hashable values; groups are sorted by name).
    costs : Mapping
        ``{group: (c_fp, c_fn)}`` with an entry for every group; prices finite and >= 0.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1. Rows of weight 0 count as
        dropped.

    Returns
    -------
    dict
        ``{group: threshold}`` in sorted group order; a threshold is a score, inf (flag
        nobody) or NaN for a group with one class only.

    Raises
    ------
    ValueError
        If the arrays are invalid (`y_true` not binary, `y_score` not finite, `groups` not
        1-D, lengths differ, `sample_weight` negative or not finite); if `costs` is not
        a mapping, lacks a group or holds a price outside [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When there are no cases, or a group holds one class only (its cutoff is NaN).

    Examples
    --------
    >>> cost_optimal_thresholds([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], ["a", "a", "a", "b", "b", "b"],
    ...                         costs={"a": (1, 3), "b": (1, 3)})
    {'a': 0.35, 'b': 0.8}
    """
    gs = grouped_sweep(y_true, y_score, groups, sample_weight=sample_weight)
    c_fp, c_fn = _prices(costs, gs.groups)
    return {name: best_on_sweep(gs[name], c_fp[i], c_fn[i])[0] for i, name in enumerate(gs.groups)}


def rule_cutoffs(names, *, costs, optimal: Mapping) -> dict[str, dict]:
    """``{rule: {group: cutoff}}`` for every rule in ``RULES`` and every group in `names`.

    `optimal` holds the cost-optimal cutoffs fitted elsewhere (on a training split); a group
    missing from it gets NaN with a warning.

    Parameters
    ----------
    names : iterable
        The group names.
    costs : Mapping
        ``{group: (c_fp, c_fn)}`` with an entry for every name; prices finite and >= 0.
    optimal : Mapping
        ``{group: cutoff}``: the cost-optimal cutoffs, e.g. from `cost_optimal_thresholds`.

    Returns
    -------
    dict
        ``{rule: {group: cutoff}}`` with the rules in the order of ``RULES``:
        ``threshold 0.5`` (0.5), ``elkan`` (c_fp / (c_fp + c_fn)), ``cost-optimal`` (from
        `optimal`) and ``flag nobody`` (inf).

    Raises
    ------
    ValueError
        If `costs` is not a mapping, lacks a name or holds a price outside [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When a name is missing from `optimal` (its cost-optimal cutoff is NaN) or both of a
        group's prices are 0 (its Elkan cutoff is NaN).

    Examples
    --------
    >>> cut = rule_cutoffs(["a", "b"], costs={"a": (1, 3), "b": (1, 1)}, optimal={"a": 0.35, "b": 0.8})
    >>> list(cut)
    ['threshold 0.5', 'elkan', 'cost-optimal', 'flag nobody']
    >>> cut["elkan"], cut["flag nobody"]
    ({'a': 0.25, 'b': 0.5}, {'a': inf, 'b': inf})
    """
    c_fp, c_fn = _prices(costs, tuple(names))
    fitted = {}
    for name in names:
        if name not in optimal:
            v.warn_degenerate(f"group {name!r} has no training rows: its cost-optimal cutoff is NaN")
        fitted[name] = optimal.get(name, np.nan)
    return {
        R.THRESHOLD_05: {name: 0.5 for name in names},
        R.ELKAN: {name: elkan_threshold(c_fp[i], c_fn[i]) for i, name in enumerate(names)},
        R.COST_OPTIMAL: fitted,
        R.NOBODY: {name: np.inf for name in names},
    }


def compare_rules(train, test, *, costs) -> pd.DataFrame:
    """Each cutoff rule fitted on `train` and judged on `test`, per group.

    `train` and `test` are ``(y_true, y_score, groups)`` triples; `costs` maps each group to
    ``(c_fp, c_fn)``. One row per (rule, group), rules in the order of ``RULES``:
    ``threshold 0.5``, ``elkan`` (c_fp / (c_fp + c_fn)), ``cost-optimal`` (the exact
    minimiser of the group's cost on train, judged on test) and ``flag nobody`` (+inf).
    Columns ``rule, group, threshold, flagged_rate, cost_per_100``. A group in test that
    train lacks gets a NaN cost-optimal row (with a warning).

    Parameters
    ----------
    train : tuple
        ``(y_true, y_score, groups)``: the rows the cost-optimal cutoffs are fitted on.
    test : tuple
        ``(y_true, y_score, groups)``: the rows every rule is judged on.
    costs : Mapping
        ``{group: (c_fp, c_fn)}`` with an entry for every group of train and test.

    Returns
    -------
    pandas.DataFrame
        One row per (rule, group), columns ``rule, group, threshold, flagged_rate,
        cost_per_100``, costs judged on `test`.

    Raises
    ------
    ValueError
        If `train` or `test` is not a triple, their arrays are invalid (labels not binary,
        scores not finite, lengths differ), or `costs` is not a mapping, lacks a group or
        holds a price outside [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When a test group is missing from train or holds one class in train (its cost-optimal
        cutoff is NaN), or both of a group's prices are 0.

    Examples
    --------
    >>> train = ([0, 1, 0, 1], [0.3, 0.6, 0.2, 0.7], ["a", "a", "b", "b"])
    >>> test = ([0, 1, 1, 0], [0.4, 0.5, 0.9, 0.8], ["a", "a", "b", "b"])
    >>> compare_rules(train, test, costs={"a": (1, 3), "b": (1, 3)})
                rule group  threshold  flagged_rate  cost_per_100
    0  threshold 0.5     a       0.50           0.5           0.0
    1  threshold 0.5     b       0.50           1.0          50.0
    2          elkan     a       0.25           1.0          50.0
    3          elkan     b       0.25           1.0          50.0
    4   cost-optimal     a       0.60           0.0         150.0
    5   cost-optimal     b       0.70           1.0          50.0
    6    flag nobody     a        inf           0.0         150.0
    7    flag nobody     b        inf           0.0         150.0
    """
    y_tr, s_tr, g_tr = _triple(train, "train")
    y_te, s_te, g_te = _triple(test, "test")
    _, names = group_codes(g_te, len(np.asarray(s_te)), "test groups")
    optimal = cost_optimal_thresholds(y_tr, s_tr, g_tr, costs=costs)
    frames = []
    for rule, cut in rule_cutoffs(names, costs=costs, optimal=optimal).items():
        table = group_costs(y_te, s_te, g_te, costs=costs, thresholds=cut)
        table.insert(0, "rule", rule)
        frames.append(table[RULE_COLUMNS])
    return pd.concat(frames, ignore_index=True)
