"""A real cutoff judged on a small month can flag every case of it: Watch's groups then keep the
interval their counts allow. Only a no-model choice, decided by the rule's own cutoffs (its caller
says so: `own_intervals`' `decided`), reads exact rates; never the counts alone (a last read:
0 missed of 25 positives read "0.0% (0.0% to 0.0%)" where it allows up to 13.7%)."""

from __future__ import annotations

import numpy as np

from costlib.binary.disparity_counts import own_intervals
from costlib.watch.groups import GroupCounts, _held_by_counts


def test_a_month_where_the_cutoff_flags_every_case_keeps_its_false_negative_interval():
    own = own_intervals([25, 10], [5, 3], [0, 0], [30, 13])
    lo, hi = own["false negative rate"]
    assert lo.tolist() == [0.0, 0.0]
    assert round(float(hi[0]), 3) == 0.137  # 0 of 25 allows up to 13.7%
    assert round(float(hi[1]), 3) == 0.308  # 0 of 10 allows more still
    flo, fhi = own["flagged rate"]
    assert (fhi == 1.0).all() and (flo < 1.0).all()  # 30 of 30 flagged allows a little less on new months


def test_watch_holds_that_interval_about_its_resamples():
    point = GroupCounts(
        tp=np.array([25.0, 10.0]),
        fp=np.array([5.0, 3.0]),
        positives=np.array([25.0, 10.0]),
        negatives=np.array([5.0, 3.0]),
    )
    zero = (np.zeros(2), np.zeros(2))  # the resamples of no false negative all read 0
    ends = {"false_negative_rate": zero, "flagged_share": (np.ones(2), np.ones(2))}
    held = _held_by_counts(ends, point, np.array([1.0, 1.0]), np.array([10.0, 10.0]))
    assert round(float(held["false_negative_rate"][1][0]), 3) == 0.137
    assert (held["flagged_share"][0] < 1.0).all()


def test_the_caller_that_decides_by_the_rule_still_gets_exact_rates():
    own = own_intervals([25, 10], [5, 3], [0, 0], [30, 13], decided=True)
    assert own["false negative rate"][1].tolist() == [0.0, 0.0]
    assert own["flagged rate"][0].tolist() == [1.0, 1.0]
