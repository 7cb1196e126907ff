"""Watch's table of groups holds each reading's interval at least as wide as the group's own
counts allow (a last read of 5c1a3a2): the resamples of a group with no false negative among 25
positives all read 0, and the table showed 0.0% with no interval, while 0 of 25 allows up to
13.7% (exact, as the disparities' intervals since 64117aa)."""

from __future__ import annotations

import numpy as np

from costlib.watch.groups import GroupCounts, group_readings


def _counts(tp, fp, p, n) -> GroupCounts:
    return GroupCounts(*(np.asarray(x, dtype=np.float64) for x in (tp, fp, p, n)))


def test_no_miss_among_25_positives_reads_up_to_the_exact_end():
    point = _counts([25.0, 40.0], [5.0, 10.0], [25.0, 60.0], [100.0, 200.0])
    draws = _counts([[25.0, 40.0]] * 50, [[5.0, 10.0]] * 50, [[25.0, 60.0]] * 50, [[100.0, 200.0]] * 50)
    c = np.array([1.0, 1.0])
    rows = group_readings(["a", "b"], point, draws, c, 5 * c)
    low, high = rows["a"]["false_negative_rate_interval"]
    assert low == 0.0 and abs(high - (1 - 0.025 ** (1 / 25))) < 1e-9  # 0.137: the rule of three's
    assert rows["a"]["cost_per_case_interval"][1] > rows["a"]["cost_per_case"]
    for g in rows.values():  # every interval holds its reading
        for name in ("flagged_share", "false_positive_rate", "false_negative_rate", "cost_per_case"):
            lo, hi = g[f"{name}_interval"]
            assert lo <= g[name] <= hi


def test_without_resamples_no_interval_is_made():
    point = _counts([3.0], [1.0], [4.0], [6.0])
    row = group_readings(["a"], point, None, np.array([1.0]), np.array([5.0]))["a"]
    assert all(np.isnan(row[f"{n}_interval"]).all() for n in ("flagged_share", "cost_per_case"))
