"""Disparities as fairness reviewers read them: each group's rate against a reference group's.

Per metric (flagged rate, false positive rate, false negative rate, cost per case) of one rule on the judged rows,
each group's value beside the reference group's, their ratio (group / reference, as Aequitas computes a disparity)
and their difference (group - reference), each with a 95% interval from the same resamples as the costs
(`RuleResults.resamples`), and pass or fail at a stated threshold tau: a ratio passes inside [tau, 1 / tau]
(Aequitas's four-fifths rule: tau = 0.8, so [0.8, 1.25]). The reference group is the largest on the judged rows
unless one is named. Groups pooled for being small are reported too (their numbers are their own), marked as pooled.
A metric a group does not have (no negatives: no false positive rate) is said in words, never a NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.disparity_counts import all_or_none, own_intervals, price_span, too_few, widened
from costlib.binary.disparity_counts import few_cases as few_cases  # the rule's home; its callers import it here
from costlib.core.errors import DataError

#: metric -> its key in the JSON decision summary
DISPARITY_METRICS = {
    "flagged rate": "flagged_rate",
    "false positive rate": "false_positive_rate",
    "false negative rate": "false_negative_rate",
    "cost per case": "cost_per_case",
}
THRESHOLD = 0.8  # the four-fifths rule: a ratio outside [0.8, 1.25] fails
MSG_REFERENCE = "--reference-group names the group {name!r}, which is not among the judged groups: {valid}."
MSG_THRESHOLD = "threshold must be in (0, 1]: got {value!r}"
MSG_PARTS = "parts must give each group its value in each of the {k} columns: the group {group!r} has none"
#: what a metric is a share of, when a group has none of it
_OF_WHAT = {
    "flagged rate": "no cases",
    "false positive rate": "no negatives",
    "false negative rate": "no positives",
    "cost per case": "no cases",
}
COLUMNS = [
    "metric",
    "group",
    "value",
    "reference_value",
    "ratio",
    "ratio_low",
    "ratio_high",
    "difference",
    "difference_low",
    "difference_high",
    "passes",
    "pooled",
    "is_reference",
    "undefined",
    "out_of",
    "value_low",
    "value_high",
]


def check_reference(groups: Sequence, reference) -> int:
    """The position of the group `reference` names (matched as text) among `groups`.

    Raises
    ------
    DataError
        It names no group (`MSG_REFERENCE`, with the groups there are).
    """
    names = [str(g) for g in groups]
    if str(reference) not in names:
        shown = ", ".join(f"“{g}”" for g in names[:20]) + (" and more" if len(names) > 20 else "")
        raise DataError(MSG_REFERENCE.format(name=str(reference), valid=shown))
    return names.index(str(reference))


def out_of(tp, fn, n) -> dict:
    """{metric: array} of the (weighted) count each metric is a share of, from the same counts as
    `metric_values`: the cases for the flagged rate and the cost per case, the negatives for the
    false positive rate, the positives for the false negative rate.

    >>> {m: float(x) for m, x in out_of(4, 1, 10).items()}["false positive rate"]
    5.0
    """
    tp, fn, n = (np.asarray(x, dtype=np.float64) for x in (tp, fn, n))
    return {
        "flagged rate": n,
        "false positive rate": n - tp - fn,
        "false negative rate": tp + fn,
        "cost per case": n,
    }


def metric_values(tp, fp, fn, n, c_fp, c_fn, cost=None) -> dict:
    """{metric: array} from weighted counts (any shape, groups on the last axis); NaN where a
    group has none of the cases a rate is a share of (`out_of`). `cost`, when given, is each
    group's cost of its mistakes (a group made of groups at their own prices), instead of
    fp * c_fp + fn * c_fn."""
    tp, fp, fn, n = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, n))
    whole = out_of(tp, fn, n)
    spent = fp * c_fp + fn * c_fn if cost is None else np.asarray(cost, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = {"flagged rate": tp + fp, "false positive rate": fp, "false negative rate": fn, "cost per case": spent}
        return {m: np.where(whole[m] > 0, shares[m] / whole[m], np.nan) for m in whole}


def ratio_passes(ratio: float, threshold: float = THRESHOLD) -> bool:
    """Whether a disparity ratio lies inside [threshold, 1 / threshold] (Aequitas's reading).

    >>> ratio_passes(0.8), ratio_passes(1.25), ratio_passes(0.79), ratio_passes(1.3)
    (True, True, False, False)
    """
    eps = 1e-12
    return bool(threshold * (1 - eps) <= ratio <= (1 + eps) / threshold)


def lines_crossed(ratio: float, low: float, high: float, threshold: float = THRESHOLD) -> tuple:
    """The lines of the pass range [threshold, 1 / threshold] past which a ratio's 95% interval
    [low, high] reaches to where the result (`ratio_passes` of `ratio` alone, as ``passes``,
    `Disparities.fails` and ``--fail-if-disparity`` read it) would be the other, so that the result
    could be chance: ((direction, line), ...), the direction "below" or "above".

    For a ratio that passes, ("below", threshold) when the interval reaches below the range and
    ("above", 1 / threshold) when it reaches above it; for one that fails, the line between the
    ratio and the range when the interval reaches into the range (("above", threshold) from
    below it, ("below", 1 / threshold) from above). () when the whole interval agrees with the
    result, or it is not known (NaN or infinite ends).

    >>> lines_crossed(0.8003, 0.766, 0.836), lines_crossed(1.0, 0.82, 1.2), lines_crossed(0.7, 0.6, 0.79)
    ((('below', 0.8),), (), ())
    >>> lines_crossed(1.11, 0.943, 1.31), lines_crossed(0.75, 0.7, 0.85)
    ((('above', 1.25),), (('above', 0.8),))
    """
    ratio, low, high = float(ratio), float(low), float(high)
    if not all(math.isfinite(x) for x in (ratio, low, high)):
        return ()
    eps = 1e-12
    bottom, top = threshold * (1 - eps), (1 + eps) / threshold
    if ratio_passes(ratio, threshold):
        reaches = ((("below", threshold), low < bottom), (("above", 1 / threshold), high > top))
        return tuple(line for line, past in reaches if past)
    if high >= bottom and low <= top:
        return (("above", threshold),) if ratio < threshold else (("below", 1 / threshold),)
    return ()


@dataclass(frozen=True, eq=False)
class Disparities:
    """Every group against the reference group, per metric, for one rule.

    rule             the rule (`core.rules` name)
    reference        the reference group; ``chosen`` says how ("largest" or "given")
    threshold        tau: a ratio passes inside [tau, 1 / tau]
    table            long format, one row per (metric, group), columns `COLUMNS`: ``passes`` is
                     True, False or None (undefined), ``undefined`` the reason in words (else ""),
                     ``out_of`` the (weighted) count the group's value is a share of (`out_of`),
                     ``value_low``, ``value_high`` its exact 95% interval from the group's own
                     counts alone (`disparity_counts.own_intervals`)
    priced_apart     the groups' mistakes are priced differently (a price book by group), so a
                     cost-per-case ratio reads the prices as well as the model
    weighted         the rows carry weights: no resampled intervals, and no own-count intervals
                     (``value_low``, ``value_high`` NaN: a sum of weights is no count of cases, and
                     read as one its interval would hang on the weights' scale), so no result reads
                     "could be chance" or "too few cases"
    no_model         the rule flags every case of every group, or none, by its cutoffs (`_no_model_rule`):
                     the choice without a model, its rates exact; never read off the counts or intervals
    """

    rule: str
    reference: object
    chosen: str
    threshold: float
    table: pd.DataFrame
    priced_apart: bool = False
    weighted: bool = False
    no_model: bool = False

    @property
    def fails(self) -> bool:
        """True when any disparity fails the threshold."""
        return bool((self.table["passes"] == False).any())  # noqa: E712 (None is not False)

    def could_be_chance(self, row: dict) -> bool:
        """Whether the result of one row of `table` could be chance: its ratio's 95% interval
        reaches past a line of the pass range to where the result would be the other
        (`lines_crossed`; the interval holds the group's own counts' interval, so a failure resting
        on a handful of cases reaches into the range), or, for a failure, the cases it rests on are
        too few to tell it from the range (`rests_on_few`, also without resamples). The one reading
        of the headline, the JSON record and the table.

        >>> d = disparities(["a", "b"], [4, 1], [1, 1], [1, 4], [10, 10], c_fp=1, c_fn=1)
        >>> d.could_be_chance({"ratio": 3.72, "ratio_low": 0.854, "ratio_high": 8.05})
        True
        """
        if lines_crossed(row["ratio"], row["ratio_low"], row["ratio_high"], self.threshold):
            return True
        return row.get("passes") is False and self.rests_on_few(row)

    def rests_on_few(self, row: dict) -> bool:
        """Whether the result (pass or fail) of one row of `table` (a rate or the cost per case)
        rests on too few cases to tell: `disparity_counts.too_few` of the group's own interval
        (``value_low``, ``value_high``) over the reference group's value (where that is 0, the
        highest its own counts allow). False for the reference, a row without a result or without
        those counts, and two values of 0. A pass that does is said so in the table
        (`disparity_table.TOO_FEW`), as a failure that does could be chance."""
        if row.get("passes") is None or row.get("is_reference"):
            return False
        ref = self.table[(self.table["metric"] == row["metric"]) & self.table["is_reference"]]
        if ref.empty:
            return False
        r = ref.iloc[0]
        value, against = float(row["value"]), float(r["value"])
        if not (value > 0 or against > 0):
            return False
        against = against if against > 0 else float(r.get("value_high", math.nan))
        low, high = float(row.get("value_low", math.nan)), float(row.get("value_high", math.nan))
        return too_few(bool(row["passes"]), low, high, against, self.threshold)

    def quiet(self, row: dict) -> bool:
        """A small group's failure (pooled for being small) resting on its handful of cases (`rests_on_few`):
        the table marks it "could be chance"; the headline does not raise it (`words.said_disparity`)."""
        return bool(row.get("pooled")) and row.get("passes") is False and self.rests_on_few(row)

    @property
    def largest(self) -> dict | None:
        """The failing row the headline names, or None when none fails: among the failures whose
        95% interval agrees with the result (`could_be_chance` is False: the whole interval
        outside the pass range, or not known), the one farthest from 1 on a log scale (an infinite
        ratio first); only when every failure could be chance, the farthest of those, a `quiet`
        one last (a 5-case group's must not hide a larger group's)."""
        bad = self.table[self.table["passes"] == False]  # noqa: E712
        if bad.empty:
            return None
        ratio = bad["ratio"].to_numpy(dtype=np.float64)
        with np.errstate(divide="ignore"):
            far = np.where(np.isfinite(ratio), np.abs(np.log(np.where(ratio > 0, ratio, 1e-300))), np.inf)
        rows = bad.to_dict("records")
        tier = np.array([0 if self.quiet(r) else 1 if self.could_be_chance(r) else 2 for r in rows])
        far = np.where(tier == tier.max(), far, -1.0)  # clear failures first, then chance, quiet ones last
        return bad.iloc[int(np.argmax(far))].to_dict()

    def record(self, rule_words: str) -> dict:
        """The ``"disparities"`` block of the JSON decision summary."""
        from costlib.core.json_numbers import json_number

        metrics: dict = {}
        for d in self.table.to_dict("records"):
            metrics.setdefault(DISPARITY_METRICS[d["metric"]], {})[str(d["group"])] = {
                "value": json_number(d["value"]),
                "reference_value": json_number(d["reference_value"]),
                "ratio": json_number(d["ratio"]),
                "ratio_interval": [json_number(d["ratio_low"]), json_number(d["ratio_high"])],
                "difference": json_number(d["difference"]),
                "difference_interval": [json_number(d["difference_low"]), json_number(d["difference_high"])],
                "pass": d["passes"],
                "pooled": bool(d["pooled"]),
                "undefined": d["undefined"] or None,
            }
        largest = self.largest
        return {
            "rule": rule_words,
            "no_model": self.no_model,  # the rule flags everyone or nobody by its cutoffs
            "reference_group": str(self.reference),
            "reference_chosen": self.chosen,
            "threshold": self.threshold,
            "pass_range": [self.threshold, json_number(1 / self.threshold)],
            "ratio": "group / reference group",
            "difference": "group - reference group",
            "fails": self.fails,
            "largest_failing": None
            if largest is None
            else {
                "metric": DISPARITY_METRICS[largest["metric"]],
                "group": str(largest["group"]),
                "ratio": json_number(largest["ratio"]),
                "could_be_chance": self.could_be_chance(largest),
                "raised": not self.quiet(largest),  # whether the headline says it
            },
            "metrics": metrics,
        }


def _undefined(metric: str, value: float, ref: float, is_ref: bool) -> tuple[float, str, object]:
    """(ratio, reason, passes) of one group's value against the reference's."""
    if not math.isfinite(value):
        return math.nan, f"the group has {_OF_WHAT[metric]} on the judged rows", None
    if not math.isfinite(ref):
        return math.nan, f"the reference group has {_OF_WHAT[metric]} on the judged rows", None
    if is_ref:
        return 1.0, "", True
    if ref == 0:
        if value == 0:
            return math.nan, "both are 0: no ratio, and no difference", True
        return math.inf, "the reference group's is 0 and this group's is not", False
    return value / ref, "", None


def disparities(
    groups: Sequence,
    tp,
    fp,
    fn,
    n,
    *,
    c_fp,
    c_fn,
    rule: str = "",
    draws: tuple | None = None,
    reference=None,
    pooled: Sequence = (),
    threshold: float = THRESHOLD,
    cost=None,
    priced_apart: bool | None = None,
    price_range=None,
    weighted: bool = False,
    decided: bool = False,
) -> Disparities:
    """Each group's metrics against the reference group's, with 95% intervals.

    Parameters
    ----------
    groups : the group names, in the order of the count arrays
    tp, fp, fn, n : per-group weighted counts of the rule on the judged rows
    c_fp, c_fn : per-group prices (scalars or arrays aligned with `groups`)
    draws : (tp, fp, fn, n) of the resamples, arrays (B, groups) and (groups,), optional; with
        `cost`, a fifth array (B, groups): the resampled costs
    reference : a group name (matched as text), or None for the largest group by `n`
    pooled : the groups pooled for being small (marked, still reported)
    threshold : tau in (0, 1]; a ratio passes inside [tau, 1 / tau]
    cost : each group's cost of its mistakes, optional (for groups made of groups priced apart,
        `column_disparities`); default fp * c_fp + fn * c_fn
    priced_apart : whether the groups' prices differ (`Disparities.priced_apart`); None: whether
        `c_fp` or `c_fn` differ between the groups
    price_range : ((c_fp, c_fn) cheapest, (c_fp, c_fn) dearest) per group of groups priced apart
        (`disparity_counts.price_span`), for its cost per case's own interval; None: `c_fp`, `c_fn`
    weighted : the counts are sums of weights (`Disparities.weighted`): no own-count intervals
    decided : the rule flags every case or none by its cutoffs (`_no_model_rule`): `Disparities.no_model`, exact rates

    Each group's resampled interval holds its own counts' exact one (`disparity_counts.widened`), unless weighted.

    Raises
    ------
    DataError
        `reference` is not one of `groups` (`MSG_REFERENCE`).

    Examples
    --------
    >>> d = disparities(["a", "b"], [4, 1], [1, 1], [1, 4], [10, 10], c_fp=1, c_fn=1)
    >>> row = d.table.query("metric == 'flagged rate' and group == 'b'").iloc[0]
    >>> float(row["ratio"]), bool(row["passes"])
    (0.4, False)
    """
    from costlib.stats.intervals import percentile_intervals

    if not 0 < float(threshold) <= 1:
        raise ValueError(MSG_THRESHOLD.format(value=threshold))
    groups = list(groups)
    n_arr = np.asarray(n, dtype=np.float64)
    if reference is None:
        ref_i, chosen = int(np.argmax(n_arr)), "largest"
    else:
        ref_i, chosen = check_reference(groups, reference), "given"
    c_fp = np.broadcast_to(np.asarray(c_fp, dtype=np.float64), n_arr.shape)
    c_fn = np.broadcast_to(np.asarray(c_fn, dtype=np.float64), n_arr.shape)
    est = metric_values(tp, fp, fn, n_arr, c_fp, c_fn, cost)
    whole = out_of(tp, fn, n_arr)
    if priced_apart is None:
        priced_apart = bool(c_fp.size and (np.any(c_fp != c_fp.flat[0]) or np.any(c_fn != c_fn.flat[0])))
    boot = None
    if draws:
        boot_cost = draws[4] if cost is not None and len(draws) > 4 else None
        boot = metric_values(*draws[:3], np.broadcast_to(draws[3], np.shape(draws[0])), c_fp, c_fn, boot_cost)
    pooled_names = {str(g) for g in pooled}
    k = len(groups)
    spans = np.full((4, len(est), k), np.nan)  # ratio low, high, difference low, high per metric
    if boot is not None:  # every metric's ratios and differences in one call (each column apart)
        parts = []
        for metric in est:
            b = boot[metric]
            with np.errstate(invalid="ignore", divide="ignore"):
                parts.append(np.where(b[:, [ref_i]] > 0, b / b[:, [ref_i]], np.nan))
            parts.append(b - b[:, [ref_i]])
        lo, hi = percentile_intervals(np.concatenate(parts, axis=1))
        lo, hi = lo.reshape(len(est), 2, k), hi.reshape(len(est), 2, k)
        spans = np.stack((lo[:, 0], hi[:, 0], lo[:, 1], hi[:, 1]))
    (cheap_fp, cheap_fn), dear = ((c_fp, c_fn), None) if price_range is None else price_range
    own = own_intervals(tp, fp, fn, n_arr, c_fp=cheap_fp, c_fn=cheap_fn, dearest=dear, decided=decided)
    if weighted:  # weights x 1e-4 would make every count < 1 and every interval [0, 1]: none, on any scale
        own = {m: (np.full(k, np.nan), np.full(k, np.nan)) for m in own}
    rows = []
    for m, (metric, values) in enumerate(est.items()):
        ref = float(values[ref_i])
        r_lo, r_hi, d_lo, d_hi = widened(spans[:, m], *own[metric], ref, ref_i)
        for i, g in enumerate(groups):
            value = float(values[i])
            ratio, why, passes = _undefined(metric, value, ref, i == ref_i)
            if passes is None and not why:
                passes = ratio_passes(ratio, threshold)
            diff = value - ref if math.isfinite(value) and math.isfinite(ref) else math.nan
            rows.append(
                {
                    "metric": metric,
                    "group": g,
                    "value": value,
                    "reference_value": ref,
                    "ratio": ratio,
                    "ratio_low": float(r_lo[i]),
                    "ratio_high": float(r_hi[i]),
                    "difference": diff,
                    "difference_low": float(d_lo[i]),
                    "difference_high": float(d_hi[i]),
                    "passes": passes,
                    "pooled": str(g) in pooled_names,
                    "is_reference": i == ref_i,
                    "undefined": why,
                    "out_of": float(whole[metric][i]),
                    "value_low": float(own[metric][0][i]),
                    "value_high": float(own[metric][1][i]),
                }
            )
    table = pd.DataFrame(rows, columns=COLUMNS)
    table["passes"] = table["passes"].astype(object)
    return Disparities(
        rule, groups[ref_i], chosen, float(threshold), table, bool(priced_apart), bool(weighted), bool(decided)
    )


def rule_counts(ms, results, rule: str):
    """(tp, fp, fn, n, draws) of one rule on each group's judged sweep of `ms`: the rule's cutoffs
    read off each group's judged sweep (as `fairness.group_rates` reads them), the resamples'
    counts from the same resamples as the costs (None on weighted rows)."""
    cut = results.cutoffs[rule]
    tp, fp, fn, n = [], [], [], []
    for g in ms.groups:
        sw = ms.judge[g]
        t = float(cut[g])
        if math.isnan(t) or sw.total <= 0:
            tp.append(math.nan), fp.append(math.nan), fn.append(math.nan), n.append(float(sw.total))
            continue
        j = sw.index_at(t)
        tp.append(float(sw.tp[j])), fp.append(float(sw.fp[j])), fn.append(float(sw.positives - sw.tp[j]))
        n.append(float(sw.total))
    draws, r = None, results.resamples
    if r is not None and rule in r.rules:
        i = r.rules.index(rule)
        draws = (r.tp[:, i, :], r.fp[:, i, :], r.fn[:, i, :], np.asarray(r.n, dtype=np.float64))
    crossed = _cross_fitted_counts(ms, results, rule)
    if crossed is not None:  # no split: each row judged by a cutoff fitted without it, as the costs are
        if draws is not None:  # the resamples' spread about the cross-fitted counts (`centred_interval`'s reading)
            draws = _shifted_draws(draws, crossed, (tp, fp, fn))
        tp, fp, fn = (list(map(float, c)) for c in crossed)
    return tp, fp, fn, n, draws


def _shifted_draws(draws, crossed, fitted):
    """The resamples' (tp, fp, fn, n) moved by `crossed` minus `fitted` counts, each kept within its resample's
    positives (tp, fn) or negatives (fp): moved alone, 5 positives' counts read a rate's interval from -10%."""
    tp, fp, fn, n = draws
    pos, s_ = tp + fn, [np.subtract(c, o, dtype=np.float64)[None, :] for c, o in zip(crossed, fitted, strict=True)]
    return np.clip(tp + s_[0], 0.0, pos), np.clip(fp + s_[1], 0.0, n[None, :] - pos), np.clip(fn + s_[2], 0.0, pos), n


def _cross_fitted_counts(ms, results, rule: str):
    """(tp, fp, fn) per group of a fitted rule judged by cross-fitting (`RuleResults.estimate`
    is `honest.CROSS_FITTED`: without a split, its cutoffs were fitted on the judged rows); None
    for any other rule, or with a split. Read off the rule's rows of ``by_group``, which
    `judged_rules.judge_fitted` rewrote with the cross-fitted counts."""
    from costlib.binary import honest as H
    from costlib.binary.judged_rules import FITTED, result_columns

    if results.estimate != H.CROSS_FITTED or rule not in FITTED:
        return None
    by_group = result_columns(results)[0]  # numpy columns: a frame's filter and lookup cost a price move 2 ms
    mine = np.flatnonzero(by_group["rule"] == rule)
    row_of = dict(zip(by_group["group"][mine].tolist(), mine.tolist(), strict=True))
    if not set(ms.groups) <= set(row_of):
        return None
    rows = np.array([row_of[g] for g in ms.groups], dtype=np.int64)
    n = np.asarray(by_group["n"], dtype=np.float64)[rows]
    fp, fn = (np.asarray(by_group[c], dtype=np.float64)[rows] for c in ("fp", "fn"))
    tp = np.asarray(by_group["flagged_rate"], dtype=np.float64)[rows] * n - fp
    return tp, fp, fn


def rule_disparities(ms, results, rule: str, prices, *, reference=None, pooled: Sequence = (), threshold=THRESHOLD):
    """`disparities` of one rule of `results` on the judged rows of `ms` (a `decision.ModelSweeps`):
    the rule's cutoffs read off each group's judged sweep (as `fairness.group_rates` reads them),
    the intervals from the same resamples as the costs (none on weighted rows)."""
    tp, fp, fn, n, draws = rule_counts(ms, results, rule)
    weighted, decided = bool(getattr(ms, "weighted", False)), _no_model_rule(ms, results, rule, np.add(tp, fp), n)
    return disparities(
        list(ms.groups), tp, fp, fn, n, c_fp=prices.c_fp, c_fn=prices.c_fn, rule=rule, draws=draws,
        reference=reference, pooled=pooled, threshold=threshold, weighted=weighted, decided=decided
    )  # fmt: skip


def _no_model_rule(ms, results, rule: str, flagged, n) -> bool:
    """Whether `rule` flags every case of every group of `ms` by its cutoffs, or none (`all_or_none`), and its counts
    (`flagged` of `n`) are that (cross-fitted ones may flag a few, and keep their intervals): its rates are exact."""
    f, n = (np.asarray(x, dtype=np.float64) for x in (flagged, n))
    f, n = f[~np.isnan(f)], n[~np.isnan(f)]  # a group without judged rows counts against neither (as in all_or_none)
    return bool(np.all(f == n) or np.all(f == 0)) and all_or_none(ms, dict(results.cutoffs[rule]))


def column_disparities(ms, results, rule: str, prices, parts, columns: Sequence[str], *, threshold=THRESHOLD):
    """`disparities` of one rule for each group column alone, when the groups of `ms` are the
    intersections of several columns (`loading.intersections`).

    A column's group (say "Male") holds every intersection group whose value in that column it
    is: its counts, costs and resampled counts are their sums, each intersection group decided by
    its own cutoff of the rule and priced at its own prices. Per column the reference is its
    largest group on the judged rows.

    Parameters
    ----------
    ms, results, rule, prices : as `rule_disparities`
    parts : {intersection group: its value in each column} (`Dataset.group_parts`)
    columns : the group columns, in the order of the values in `parts`

    Returns
    -------
    tuple of (column, Disparities)
        One per column, in the order of `columns`.

    Raises
    ------
    ValueError
        A group of `ms` has no values in `parts`, or a value per column is missing.
    """
    groups = list(ms.groups)
    missing = [g for g in groups if g not in parts or len(parts[g]) != len(columns)]
    if missing:
        raise ValueError(MSG_PARTS.format(group=missing[0], k=len(columns)))
    tp, fp, fn, n, draws = rule_counts(ms, results, rule)
    tp, fp, fn, n = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, n))
    decided = _no_model_rule(ms, results, rule, tp + fp, n)
    c_fp = np.broadcast_to(np.asarray(prices.c_fp, dtype=np.float64), n.shape)
    c_fn = np.broadcast_to(np.asarray(prices.c_fn, dtype=np.float64), n.shape)
    out = []
    for j, column in enumerate(columns):
        values = list(dict.fromkeys(str(parts[g][j]) for g in groups))
        member = np.zeros((len(groups), len(values)))  # intersection group -> its value in this column
        for i, g in enumerate(groups):
            member[i, values.index(str(parts[g][j]))] = 1.0
        summed = None
        if draws is not None:
            b_tp, b_fp, b_fn, b_n = draws
            summed = (b_tp @ member, b_fp @ member, b_fn @ member, b_n @ member, (b_fp * c_fp + b_fn * c_fn) @ member)
        out.append(
            (
                column,
                disparities(
                    values,
                    tp @ member,
                    fp @ member,
                    fn @ member,
                    n @ member,
                    c_fp=0.0,
                    c_fn=0.0,
                    rule=rule,
                    draws=summed,
                    threshold=threshold,
                    cost=(fp * c_fp + fn * c_fn) @ member,
                    priced_apart=not prices.uniform,
                    price_range=price_span(member, c_fp, c_fn),
                    weighted=bool(getattr(ms, "weighted", False)),
                    decided=decided,
                ),
            )
        )
    return tuple(out)


def shipped_disparities(ms, rec, *, reference=None, threshold=THRESHOLD):
    """`rule_disparities` of the rule `rec` (a `decision.Recommendation`) ships, on the judged rows
    of `ms`, with its pooled groups marked; None for data with one group. The one call the audit
    record and the Costs page's answer make, so both say the same disparity."""
    if len(ms.groups) < 2:
        return None
    return rule_disparities(
        ms, rec.results, rec.rule, rec.prices, reference=reference, pooled=rec.pooled, threshold=threshold
    )


def said_disparities(gaps, by_column: Sequence = ()):
    """The disparities the headline speaks of: the groups' (`shipped_disparities`) when one fails,
    else the first group column's that fails (`shipped_column_disparities`), else the groups'
    (None with one group). One rule for the audit record and the Costs page's answer."""
    return next((d for d in (gaps, *(d for _, d in by_column)) if d is not None and d.fails), gaps)


def shipped_column_disparities(ms, rec, parts, columns: Sequence[str], *, threshold=THRESHOLD) -> tuple:
    """`column_disparities` of the rule `rec` ships, one per group column (each against its
    largest group); () with one group column or one group. The audit record's call, and the one
    the Costs page makes for its per-column tables."""
    if not parts or len(columns) < 2 or len(ms.groups) < 2:
        return ()
    return column_disparities(ms, rec.results, rec.rule, rec.prices, parts, columns, threshold=threshold)
