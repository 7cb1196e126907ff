"""The change chart's legend never sits on its axis title (a product manager's review): with 3 ways
the chart is 300 px high and its legend, placed at a share of the plot's height under it, was drawn
on "cost change, % (...)". It now starts a fixed distance in pixels under the plot, below the axis's
numbers and title, for any number of ways."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.present import training_words as words
from costlib.training import figures

AXIS_TITLE_PX = 55  # the axis's numbers and its title, under the plot (measured in Chromium at 1400 px: ~50)
LEGEND_ROWS_PX = 40  # the legend's three entries, on two rows in the page's narrow column


def _summary(n: int) -> pd.DataFrame:
    methods = ["standard", "weighted", "p_up", "tdown30", "tdown50", "tdown70", "regression"][: n + 1]
    change = np.linspace(-0.3, 0.2, n + 1)
    return pd.DataFrame(
        {
            "method": methods,
            "nec_change": change,
            words.HELD_LOW: change - 0.1,
            words.HELD_HIGH: change + 0.05,
            words.PICKED_AMONG: n,
        }
    )


@pytest.mark.parametrize("ways", range(1, 7))
def test_the_legend_starts_under_the_axis_title_and_fits_the_margin(ways):
    fig = figures.change_figure(_summary(ways))
    layout = fig.layout
    plot = layout.height - layout.margin.t - layout.margin.b
    below = -layout.legend.y * plot  # px from the plot's bottom edge to the legend's top
    assert layout.legend.yanchor == "top"
    assert below >= AXIS_TITLE_PX, f"{ways} ways: the legend starts {below:.0f} px under the plot"
    assert below + LEGEND_ROWS_PX <= layout.margin.b, f"{ways} ways: the legend runs past the chart's bottom"
