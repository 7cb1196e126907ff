"""The shipped policy group by group in one period, as a fairness reviewer reads it: each group's
share flagged, false positive and false negative rates and cost per case, each with the 95%
interval of the period's own resamples (a measured period's refit bootstrap, `watch.alerts`; an
estimated period's resamples with the outcomes still to come drawn, `watch.estimate`), and whether
the group is too small to read by the product's one rule (`binary.folds.own_cutoff`: fewer than
`folds.MIN_CLASS_ROWS` positives or negatives).

Everything is read from counts per group (`GroupCounts`): flagged positives and negatives, and the
positives and negatives, so a measured period, an estimated one (its counts expected, or drawn in a
resample) and a policy that flags a share at random (`GroupCounts.at_random`) share one formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: what `group_readings` gives each group beside its counts, each with an interval (``"<name>_interval"``)
READINGS = ("flagged_share", "false_positive_rate", "false_negative_rate", "cost_per_case")


@dataclass(frozen=True)
class GroupCounts:
    """Counts of a period per group, arrays whose last axis is the groups (a leading axis: the
    resamples): the positives and negatives flagged (`tp`, `fp`) and all the positives and
    negatives. In an estimated period the counts of the cases without an outcome are expected
    (or drawn), so they need not be whole."""

    tp: np.ndarray
    fp: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray

    def at_random(self, share: float | None) -> GroupCounts:
        """The counts of a policy that flags `share` of the cases at random, without the model
        (what it flags of each class is expected); these counts themselves for None."""
        if share is None:
            return self
        p, n = np.asarray(self.positives, dtype=np.float64), np.asarray(self.negatives, dtype=np.float64)
        return GroupCounts(share * p, share * n, p, n)

    def readings(self, c_fp: np.ndarray, c_fn: np.ndarray) -> dict:
        """{`READINGS` name: array}: the share flagged, the false positive rate (a share of the
        negatives), the false negative rate (a share of the positives) and the mistakes' cost per
        case at the prices `c_fp`, `c_fn` per group; NaN where a group has none to share.

        >>> c = GroupCounts(np.array([3.0]), np.array([1.0]), np.array([4.0]), np.array([6.0]))
        >>> {k: round(float(v[0]), 4) for k, v in c.readings(np.array([1.0]), np.array([5.0])).items()}
        {'flagged_share': 0.4, 'false_positive_rate': 0.1667, 'false_negative_rate': 0.25, 'cost_per_case': 0.6}
        """
        tp, fp, p, n = (np.asarray(x, dtype=np.float64) for x in (self.tp, self.fp, self.positives, self.negatives))
        cases = p + n
        with np.errstate(invalid="ignore", divide="ignore"):
            return {
                "flagged_share": np.where(cases > 0, (tp + fp) / cases, np.nan),
                "false_positive_rate": np.where(n > 0, fp / n, np.nan),
                "false_negative_rate": np.where(p > 0, (p - tp) / p, np.nan),
                "cost_per_case": np.where(cases > 0, (fp * c_fp + (p - tp) * c_fn) / cases, np.nan),
            }


def summed_by_group(
    weights: np.ndarray, flagged: np.ndarray, positive: np.ndarray, group: np.ndarray, k: int
) -> GroupCounts:
    """`GroupCounts` of cells: `weights` (..., m) cases in each cell, `positive` (..., m) how many
    of them are positive (expected or drawn where the outcome is not known), `flagged` (m,) whether
    the shipped policy flags the cell, `group` (m,) its group's index among `k`."""
    one = np.zeros((group.size, k))
    one[np.arange(group.size), group] = 1.0
    w, pos = np.asarray(weights, dtype=np.float64), np.asarray(positive, dtype=np.float64)
    neg = w - pos
    f = np.asarray(flagged, dtype=np.float64)
    return GroupCounts((pos * f) @ one, (neg * f) @ one, pos @ one, neg @ one)


def group_readings(names, point: GroupCounts, draws: GroupCounts | None, c_fp: np.ndarray, c_fn: np.ndarray) -> dict:
    """{group: {"positives", "negatives", the `READINGS` and each one's ``"<name>_interval"``
    ([low, high], the percentile interval of `draws`, the period's resamples; NaN ends without
    any), "small"}} of the groups `names` (the last axis of the counts), at the prices `c_fp`,
    `c_fn` per group. "small": too few positives or negatives to read its rates
    (`binary.folds.own_cutoff`, the rule Costs & groups marks its rates per group by)."""
    from costlib.binary.folds import own_cutoff
    from costlib.stats.intervals import percentile_intervals

    said = point.readings(c_fp, c_fn)
    spread = None if draws is None else draws.readings(c_fp, c_fn)
    small = ~own_cutoff(np.round(point.positives, 6), np.round(point.negatives, 6))
    out = {}
    ends = {}
    for name in READINGS:
        if spread is None:
            ends[name] = (np.full(len(names), math.nan), np.full(len(names), math.nan))
        else:
            ends[name] = percentile_intervals(np.asarray(spread[name], dtype=np.float64))
    ends = _held_by_counts(ends, point, c_fp, c_fn)
    for i, g in enumerate(names):
        row = {"positives": float(point.positives[i]), "negatives": float(point.negatives[i])}
        for name in READINGS:
            row[name] = float(said[name][i])
            row[f"{name}_interval"] = [float(ends[name][0][i]), float(ends[name][1][i])]
        row["small"] = bool(small[i])
        out[g] = row
    return out


def _held_by_counts(ends: dict, point: GroupCounts, c_fp: np.ndarray, c_fn: np.ndarray) -> dict:
    """`ends` (the resamples' intervals by reading) each at least as wide as what the group's own
    counts allow (`disparity_counts.own_intervals`, exact, the disparities' own, its cost per case's
    too: each kind of mistake's share with its own exact interval, the two distances from the
    cost combined as independent errors are): the resamples of a group with no
    false negative among 25 positives all read 0, while 0 of 25 allows up to 13.7%, and its cost per
    case's resamples, moved by its false positives alone, said nothing of what those misses may
    cost. Where the resamples give no interval, none is made: the table says why. As the
    disparities' intervals (`disparity_counts.held`, as `widened` there)."""
    from costlib.binary.disparity_counts import held, own_intervals

    tp, fp, p, n = (np.asarray(x, dtype=np.float64) for x in (point.tp, point.fp, point.positives, point.negatives))
    spans = own_intervals(tp, fp, p - tp, p + n, c_fp=c_fp, c_fn=c_fn)
    exact = dict(zip(READINGS, (spans[m] for m in _OWN), strict=True))
    return {name: held(*ends[name], exact[name]) for name in ends}


#: the `disparity_counts.own_intervals` metric of each of `READINGS`
_OWN = ("flagged rate", "false positive rate", "false negative rate", "cost per case")
