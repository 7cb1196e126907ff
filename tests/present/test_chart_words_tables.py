"""The chart in words' table (the text alternative under each chart) reads as the page does: its
headers are words (never "x"), it has no column of blanks (a "label" column whose marks sat below
a line's hundred points, or only repeated their series' name), and its numbers are at the page's
precision ("0.8219", not "0.821918" beside "0.2101")."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.binary import decision
from costlib.present import figures
from costlib.present.chart_text import LABEL, SERIES, chart_text


def test_an_axis_without_a_title_is_named_in_words():
    table = pd.DataFrame({"label": ["score_lr", "flag nobody"], "error rate": [0.05, 0.83], "NEC": [0.04, 0.86]})
    alt = chart_text(figures.nec_error_figure(table))  # Instance costs: bars per option, no title on x
    assert "x" not in alt.table.columns and "category" in alt.table.columns
    assert set(alt.table["category"]) == {"score_lr", "flag nobody"}
    numbers = chart_text(go.Figure(go.Scatter(x=[1.0, 2.0], y=[3.0, 4.0], name="m")))
    assert not {"x", "y"} & set(numbers.table.columns), list(numbers.table.columns)


def test_the_marked_points_come_first_and_a_label_that_repeats_its_series_is_no_column():
    rng = np.random.default_rng(1)
    n = 400
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    ms = decision.sweep_model(y, s, np.where(rng.random(n) < 0.5, "a", "b"))
    rec = decision.recommend(ms, (1, 2), n_resamples=20)
    fig = figures.cost_curve_figure(decision.cost_curves(ms, rec.prices), figures.markers_frame(rec), unit="$")
    table = chart_text(fig).table
    marked = (table[LABEL] != "").to_numpy()
    assert marked.any() and marked[: marked.sum()].all(), table.head()  # the rows with words of their own first
    mark = go.Figure(
        [
            go.Scatter(x=np.arange(50.0), y=np.arange(50.0), mode="lines", name="cheapest"),
            go.Scatter(x=[3.0], y=[1.0], mode="markers", name="your prices", text=["your prices"]),
        ]
    )
    assert LABEL not in chart_text(mark).table  # its one label is its series' name: a column of blanks


def test_a_column_with_a_gap_writes_its_numbers_at_four_significant_digits():
    fig = go.Figure(go.Scatter(x=[0.001, 0.210084, 0.401274], y=[np.nan, 0.821918, 0.711712], name="best cutoff"))
    fig.update_layout(xaxis_title="how many times worse", yaxis_title="cutoff")
    table = chart_text(fig).table
    assert table["cutoff"].tolist() == ["–", "0.8219", "0.7117"]
    assert SERIES not in table  # one series: the sentence names it
