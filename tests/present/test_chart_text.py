"""Every chart has a text alternative (`present.chart_text`): a sentence that says what it shows and
the numbers behind it as a table; user text in both as the user typed it (issue 38, item 3)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from costlib.binary import decision
from costlib.present import figures
from costlib.present.chart_text import LABEL, MAX_ROWS, SERIES, THINNED_LINE, chart_text
from tests.present.test_figures import HOSTILE, _builders


@pytest.mark.parametrize("name", list(_builders()))
def test_every_chart_has_a_sentence_and_a_table_with_the_users_text_as_typed(name):
    fig = _builders()[name]()
    alt = chart_text(fig)
    title = fig.layout.title.text
    assert alt.sentence.endswith(".") and len(alt.table)
    if title:  # the title, as the reader reads it (the builders' escapes undone)
        assert alt.sentence.startswith(title.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    text = alt.sentence + json.dumps(alt.table.astype(str).to_dict("list"), ensure_ascii=False)
    assert "&lt;" not in text and "&amp;" not in text  # never Plotly's escapes: the surface escapes for itself
    assert alt.table.columns.is_unique
    if SERIES in alt.table:  # several series: which one a row is of, first
        assert list(alt.table.columns[:1]) == [SERIES] and alt.table[SERIES].nunique() > 1
    else:  # one series: the sentence says it (a column repeating its name says nothing more)
        assert ": 1 " in alt.sentence or alt.sentence.startswith("1 ")
    assert len(alt.table) <= MAX_ROWS + 20


def test_a_cost_curve_says_its_lines_marks_and_numbers():
    rng = np.random.default_rng(1)
    n = 80  # few enough points that the table holds every one
    g = np.where(rng.random(n) < 0.5, HOSTILE, "plain")
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    ms = decision.sweep_model(y, s, g)
    rec = decision.recommend(ms, (1, 2), n_resamples=20)
    curves = decision.cost_curves(ms, rec.prices)
    fig = figures.cost_curve_figure(curves, figures.markers_frame(rec), unit="$", title="Cost", cap=0.3)
    alt = chart_text(fig)
    assert alt.sentence.startswith(  # the marker key under the title is not read: the marks are, by name
        f"Cost: 3 lines (“everyone, one cutoff”, “group {HOSTILE}”, “group plain”) of cost per case ($) against cutoff"
    )
    marks = alt.sentence.split("; marked: ")[1].split("; ")
    # the key points first: the review limit and what is recommended (a rule's marker or a line)
    assert "your review limit" in marks[:2] and any("recommended" in m for m in marks[:2]), marks
    # the table holds each line's value at every cutoff once (the drawing's step corners, a cutoff
    # with the cost before it, are not values), its columns named by the axes
    everyone = curves[curves["line"].isna() & np.isfinite(curves["threshold"])]
    rows = alt.table[alt.table[SERIES] == "everyone, one cutoff"]
    cutoff = "cutoff (flag a case when its score is at least this)"
    assert len(fig.data[0].x) > len(rows) and rows[cutoff].is_unique
    assert rows[cutoff].tolist() == pytest.approx(everyone["threshold"].tolist())
    assert rows["cost per case ($)"].tolist() == pytest.approx(everyone["cost_per_case"].tolist())
    marked = alt.table[alt.table[SERIES] == "marked cutoffs"]
    assert marked[LABEL].str.startswith("best cutoff per group (").sum() == 2 and alt.note is None


def test_a_long_line_is_thinned_to_its_steps_and_extremes_and_says_so():
    x = np.linspace(0, 1, 5000)
    y = np.sin(12 * x)
    y[1234] = 5.0  # a spike the table must keep
    fig = figures.line_figure(
        pd.DataFrame({"t": x, "v": y, "m": "m"}), x="t", y="v", color="m", title="T", x_title="t", y_title="v"
    )
    alt = chart_text(fig)
    assert len(alt.table) <= MAX_ROWS + 4 and alt.table["v"].max() == 5.0 and alt.table["v"].min() == y.min()
    assert alt.note is not None and THINNED_LINE in alt.note and f"{len(fig.data[0].x):,}" in alt.note


def test_a_heatmap_reads_as_its_categories_and_a_bar_chart_with_its_intervals():
    heat = figures.heatmap_figure([[1, 2], [3, 4]], ["no", "yes"], title="Counts", colorbar="cases")
    alt = chart_text(heat)
    assert alt.table[["decision", "true class", "cases"]].values.tolist() == [
        ["no", "no", 1.0],
        ["yes", "no", 2.0],
        ["no", "yes", 3.0],
        ["yes", "yes", 4.0],
    ]
    bars = go.Figure(go.Bar(x=["a"], y=[2.0], error_y={"type": "data", "array": [0.5], "arrayminus": [0.25]}))
    row = chart_text(bars).table.iloc[0].tolist()
    assert row == ["a", 2.0, "1.75", "2.5"]  # an interval is text: "–" where a point has none (one series: no column)


def test_the_spec_streamlit_sends_reads_as_the_figure():
    fig = _builders()["cost_curve_figure"]()
    from_json = chart_text(json.loads(fig.to_json()))
    alt = chart_text(fig)
    assert from_json.sentence == alt.sentence
    pd.testing.assert_frame_equal(from_json.table, alt.table)


def test_a_point_without_an_interval_reads_as_a_dash_not_none():
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[1, 2], y=[0.5, 0.4], error_y={"type": "data", "array": [0.1, float("nan")]}))
    table = chart_text(fig).table
    assert table["interval to"].tolist() == ["0.6", "–"] and table["interval from"].tolist() == ["0.4", "–"]
    assert not table.isna().any().any()


def test_an_interval_drawn_across_reads_beside_its_x_value():
    """Review 59, item 11: Train's change chart draws each way's change on x with its interval as
    error_x; the table held the change alone, not the interval the verdict rests on."""
    import plotly.graph_objects as go

    fig = go.Figure(
        go.Scatter(
            x=[-8.0, 4.0], y=["regression", "weighted"], mode="markers",
            error_x={"type": "data", "symmetric": False, "array": [7.5, 3.0], "arrayminus": [8.0, 2.5]},
        )
    )  # fmt: skip
    table = chart_text(fig).table
    assert table["interval from"].tolist() == ["\u221216", "1.5"]
    assert table["interval to"].tolist() == ["\u22120.5", "7"]


def test_a_gap_in_a_line_reads_as_a_dash_and_marks_alone_are_counted():
    import plotly.graph_objects as go

    gap = go.Figure(go.Scatter(x=[1.0, 2.0, 3.0], y=[0.5, float("nan"), 0.4], mode="lines", name="m"))
    table = chart_text(gap).table
    assert table.iloc[:, 1].tolist() == ["0.5", "–", "0.4"] and not table.isna().any().any()
    marks = go.Figure(go.Scatter(x=[1.0], y=["a"], mode="markers", name="lower"))
    assert "1 marked point" in chart_text(marks).sentence and "no data" not in chart_text(marks).sentence


def test_a_marked_point_on_an_axis_in_money_reads_in_money():
    """Review 56: the report's chart text read "cost per case 0.3906" beside "flag nobody (no model):
    $0.748"; a point on an axis titled in a unit reads in it, as the page's amounts do."""
    fig = go.Figure(
        [go.Scatter(x=[0.25], y=[0.3906], mode="markers", name="shipped", text=["shipped ≥ 0.25"])],
        layout={"xaxis": {"title": {"text": "cutoff (flag a case when its score is at least this)"}},
                "yaxis": {"title": {"text": "cost per case ($)"}}},
    )  # fmt: skip
    said = chart_text(fig).sentence
    assert "shipped ≥ 0.25 at cutoff 0.25, cost per case $0.391" in said, said
    fig.update_layout(yaxis_title_text="share (0 perfect, 1 always wrong)")
    assert "share 0.3906" in chart_text(fig).sentence  # brackets that explain are not a unit


def test_a_note_ending_in_a_full_stop_joins_the_marks_without_one():
    """Review 72: a note drawn on the chart ends with its own full stop, and the sentence read
    "... at your prices.; flag everyone ..." once the marks were joined."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[0.1, 0.5], y=[1.0, 2.0], mode="lines", name="model"))
    fig.add_annotation(text="Compare the lines at your prices.", x=0.3, y=1.5, showarrow=False)
    fig.add_annotation(text="flag everyone: below the chart", x=0.3, y=1.0, showarrow=False)
    said = chart_text(fig).sentence
    assert ".;" not in said and "at your prices; " in said and said.endswith(".")


def test_the_sentence_reads_what_the_chart_writes_under_its_title():
    """The Value page's chart at k says k under its title ("one wrong answer cancels out 2 right
    answers", fae1943); a reader who cannot see the chart read the title alone."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 2], name="worth"))
    fig.update_layout(title={"text": "Worth", "subtitle": {"text": "one wrong answer<br>cancels out 2"}})
    assert chart_text(fig).sentence.startswith("Worth (one wrong answer cancels out 2): ")
    assert chart_text(fig.to_dict()).sentence == chart_text(fig).sentence
    fig.update_layout(title={"text": "Worth", "subtitle": {"text": ""}})
    assert chart_text(fig).sentence.startswith("Worth: ")
