"""The Watch chart "The shipped cutoff, period by period" holds every point on a labelled scale.

A first-time reader of the built-in year saw the y axis begin at 0.12 while the chart's own table
gave each period's own best at 0.1151 (2026-07) and 0.1103 (2026-11): Plotly's autorange did
hold those points (it drew 0.1016 to 0.2756), but its lowest labelled tick, 0.12, sat above the
dashed line, which read as running off the bottom. The axis is now set from the chart's own
values: from 0 (a cost per case is not negative, and 0 is always labelled) to a little past the
highest value or interval end, so every trace's point and whisker lies on it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs, watch_answer
from costlib.present import watch_figures


def _ends(fig) -> tuple[float, float]:
    """The lowest and highest of every trace's y values and error-bar ends (None and NaN skipped)."""
    values = []
    for trace in fig.data:
        y = np.array([np.nan if v is None else v for v in (trace.y or ())], dtype=float)
        values += list(y)
        err = trace.error_y
        if err is not None and err.array is not None:
            up = np.array([np.nan if v is None else v for v in err.array], dtype=float)
            down = np.array([np.nan if v is None else v for v in (err.arrayminus or err.array)], dtype=float)
            values += list(y + up) + list(y - down)
    finite = [v for v in values if math.isfinite(v)]
    return min(finite), max(finite)


@pytest.fixture(scope="module")
def year_figure():
    policy, df = sample_inputs()
    answer = watch_answer(
        policy, df, name="the built-in year", columns=dict(SAMPLE_COLUMNS), freq="M", unit="$", n_resamples=50
    )
    return answer.figure


def test_the_built_in_years_axis_holds_every_trace_and_interval_end_from_a_labelled_zero(year_figure):
    low, high = _ends(year_figure)
    assert low < 0.12  # the own best of 2026-11 (0.1103) is below the tick the reader saw first
    drawn = year_figure.layout.yaxis.range
    assert drawn is not None, "the y axis is left to Plotly: its lowest labelled tick can sit above the lowest point"
    assert drawn[0] == 0 <= low and drawn[1] > high, (drawn, low, high)


def test_a_period_without_an_own_best_or_an_interval_still_gets_an_axis_that_holds_the_rest():
    report = {
        "periods": [
            {"period": "2026-01", "cost_per_case": 0.3, "regret_per_case": 0.25, "measured": True, "alert": True},
            {"period": "2026-02", "cost_per_case": 0.2, "regret_per_case": None, "measured": False, "alert": False},
            {"period": "2026-03", "cost_per_case": None, "regret_per_case": None, "measured": True, "alert": False},
        ]
    }
    fig = watch_figures.periods_figure(report)
    low, high = _ends(fig)
    drawn = fig.layout.yaxis.range
    assert drawn is not None and drawn[0] == 0 <= low and drawn[1] > high == 0.3
