"""The Value chart's line runs to the plot's left edge: every threshold below the lowest one
accepts every answer, so its worth holds there (a review: at k = 0 the axis ran on to a mark at 0
while the line stopped at 0.5, as if nothing were known left of it)."""

import numpy as np

from costlib.present import figures


def _model_line(fig):
    return next(t for t in fig.data if t.mode == "lines" and "hand everything over" not in (t.name or ""))


def test_at_k_zero_the_line_reaches_the_axis_left_edge():
    fig = figures.value_tau_figure([np.inf, 0.9, 0.6], [0.0, 0.2, 0.1], tau_star=0.0, tau_opt=0.6, value_opt=0.1)
    low, _ = fig.layout.xaxis.range
    line = _model_line(fig)
    assert min(line.x) == low == 0.0
    assert line.y[list(line.x).index(min(line.x))] == 0.1  # the lowest threshold's worth, held


def test_without_a_mark_left_of_half_the_line_still_ends_at_the_edge():
    fig = figures.value_tau_figure([np.inf, 0.9, 0.6], [0.0, 0.2, 0.1], tau_star=0.5, tau_opt=0.9, value_opt=0.2)
    low, _ = fig.layout.xaxis.range
    assert min(_model_line(fig).x) == low  # the edge (a little left of 0.5), not short of it
