"""Watch's table of groups holds each group's cost per case as the disparities do: at least as
wide as its own counts allow (`disparity_counts.own_intervals`, each kind of mistake's share of
the group's cases at its own exact interval). Before, the cost per case's exact ends stood in only
where every resample read the same cost, from a formula of Watch's own: a group of 125 cases with
no miss among its 25 positives, whose resamples moved with its false positives alone, read its
cost per case as $0.04 ($0.016 to $0.072) at $10 a miss, while no miss among 125 cases allows up
to 2.9% of them missed, $0.29 a case for the misses alone (now $0.013 to $0.382)."""

from __future__ import annotations

import numpy as np

from costlib.binary.disparity_counts import own_intervals
from costlib.watch.groups import GroupCounts, group_readings


def _counts(tp, fp, p, n) -> GroupCounts:
    return GroupCounts(*(np.asarray(x, dtype=np.float64) for x in (tp, fp, p, n)))


def test_a_group_with_no_miss_has_a_cost_interval_that_allows_its_misses():
    rng = np.random.default_rng(4)
    point = _counts([25.0, 300.0], [5.0, 60.0], [25.0, 400.0], [100.0, 600.0])
    fp = np.stack([rng.binomial(100, 0.05, 200), rng.binomial(600, 0.1, 200)], axis=1).astype(np.float64)
    tp = np.stack([np.full(200, 25.0), rng.binomial(400, 0.75, 200)], axis=1).astype(np.float64)
    draws = _counts(tp, fp, [[25.0, 400.0]] * 200, [[100.0, 600.0]] * 200)
    c_fp, c_fn = np.array([1.0, 1.0]), np.array([10.0, 10.0])
    rows = group_readings(["a", "b"], point, draws, c_fp, c_fn)
    own = own_intervals([25.0, 300.0], [5.0, 60.0], [0.0, 100.0], [125.0, 1000.0], c_fp=c_fp, c_fn=c_fn)
    low, high = rows["a"]["cost_per_case_interval"]
    # no miss among 125 cases: up to 1 - 0.025^(1/125) = 2.9% of them, $10 each
    assert high >= 10 * (1 - 0.025 ** (1 / 125)) > 0.29  # was $0.072
    for i, g in enumerate(("a", "b")):  # the disparities' own interval, the one function
        low, high = rows[g]["cost_per_case_interval"]
        assert low <= own["cost per case"][0][i] and high >= own["cost per case"][1][i]
        assert low <= rows[g]["cost_per_case"] <= high
