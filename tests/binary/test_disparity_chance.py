"""Where a disparity's 95% interval reaches past a line of the pass range (review 56, item 9):
`disparity.lines_crossed` against a brute-force reading of the interval, and the result itself
(``passes``, what ``--fail-if-disparity`` reads) still on the ratio alone."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary.disparity import disparities, lines_crossed, ratio_passes

ratios = st.floats(0.3, 3.0, allow_nan=False)


@given(ratios, ratios, ratios, st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_a_line_is_named_exactly_when_the_interval_holds_a_ratio_with_the_other_result(ratio, a, b, threshold):
    low, high = min(a, b), max(a, b)
    crossed = lines_crossed(ratio, low, high, threshold)
    grid = np.linspace(low, high, 2001)  # brute force: the interval's ratios, its ends included
    other = [x for x in (*grid, threshold, 1 / threshold) if low <= x <= high and ratio_passes(x, threshold)]
    if ratio_passes(ratio, threshold):  # a pass: some ratio of the interval fails
        expected = [("below", threshold)] * (low < threshold * (1 - 1e-12)) + [("above", 1 / threshold)] * (
            high > (1 + 1e-12) / threshold
        )
        assert list(crossed) == expected
        assert bool(crossed) == any(not ratio_passes(x, threshold) for x in grid)
    else:  # a failure: some ratio of the interval passes, reached over the line on the ratio's side
        assert bool(crossed) == bool(other)
        if crossed:
            assert crossed == ((("above", threshold),) if ratio < threshold else (("below", 1 / threshold),))


def test_compas_flagged_rate_at_the_line_passes_and_its_interval_reaches_below_it():
    # the review's row: Caucasian flagged 70.9% against 88.6%, ratio 0.8003 (0.766 to 0.836)
    assert ratio_passes(0.8003) and lines_crossed(0.8003, 0.766, 0.836) == (("below", 0.8),)
    assert lines_crossed(0.689, 0.636, 0.739) == ()  # fails, the whole interval below 0.8
    assert lines_crossed(1.0, math.nan, math.nan) == () and lines_crossed(math.inf, 2.0, math.inf) == ()


def test_the_result_and_fails_still_read_the_ratio_alone():
    # b flagged 4 of 10 against a's 5 of 10: ratio 0.8, a pass on the line, whatever an interval says
    d = disparities(["a", "b"], [4, 3], [1, 1], [1, 2], [10, 10], c_fp=1, c_fn=1)
    row = d.table.query("metric == 'flagged rate' and group == 'b'").iloc[0]
    assert math.isclose(row["ratio"], 0.8) and row["passes"] is True
