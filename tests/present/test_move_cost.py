"""A price move on Costs & groups redraws the cost chart and its text alternative (issue 39): the
faster ways they are built give what the plain ones gave, row by row and point by point."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core import rules as R
from costlib.core import thinning
from costlib.core.escaping import plain
from costlib.core.rules import rule_words
from costlib.core.thinning import thin_index
from costlib.present import cost_figures
from costlib.present.amounts import plain_number
from costlib.present.chart_text import INTERVAL_FROM, INTERVAL_TO, LABEL, NO_INTERVAL, SERIES, chart_text, words
from costlib.present.plotting import palette_color
from tests.present.test_figures import _builders

# ---------------------------------------------------------------------------------------
# Thinning by x: a brute-force reference, one point at a time


def _thin_by_x_reference(y: np.ndarray, x: np.ndarray, max_points: int) -> np.ndarray:
    """`thin_index(y, max_points, x=x)` by its definition: equal stretches of x, each run of
    consecutive points in one stretch keeps its first, last, first lowest and first highest
    (NaN never, a run of NaN its first), with the consecutive buckets' points added."""
    n = y.size
    if n <= max_points:
        return np.arange(n)
    buckets = max(1, max_points // 4)
    b = buckets - buckets // 4
    finite = [i for i in range(n) if np.isfinite(x[i])]
    lo = min((x[i] for i in finite), default=0.0)
    hi = max((x[i] for i in finite), default=0.0)
    width = (hi - lo) / b if hi > lo else 1.0
    col = [min(int((x[i] - lo) / width), b - 1) if np.isfinite(x[i]) else -1 for i in range(n)]
    keep, start = set(), 0
    for i in range(1, n + 1):
        if i == n or col[i] != col[start]:
            run = range(start, i)
            keep |= {start, i - 1}
            low = high = start
            for j in run:
                if not np.isnan(y[j]) and (np.isnan(y[low]) or y[j] < y[low]):
                    low = j
                if not np.isnan(y[j]) and (np.isnan(y[high]) or y[j] > y[high]):
                    high = j
            keep |= {low, high}
            start = i
    return np.union1d(np.array(sorted(keep)), thin_index(y, max(4, max_points // 4)))


@st.composite
def curves(draw):
    """A curve as a sweep gives it: x falling with ties (and sometimes +inf first, or a NaN),
    y with gaps."""
    n = draw(st.integers(1, 400))
    levels = draw(st.integers(1, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = np.sort(rng.integers(0, levels, n).astype(float) / levels)[::-1].copy()
    if draw(st.booleans()):
        x[0] = np.inf
    if draw(st.booleans()):
        x[rng.integers(0, n)] = np.nan
    y = np.round(rng.normal(size=n), 1)  # ties within a run: the first of equals is kept
    y[rng.random(n) < draw(st.sampled_from([0.0, 0.1, 1.0]))] = np.nan
    return y, x, draw(st.integers(4, 120))


@settings(max_examples=150, deadline=None)
@given(curves())
def test_thinning_by_x_keeps_the_points_its_definition_keeps(curve):
    y, x, most = curve
    np.testing.assert_array_equal(thin_index(y, most, x=x), _thin_by_x_reference(y, x, most))


def test_a_price_move_reuses_the_stretches_of_its_curves_x():
    """A sweep's thresholds stay while a price moves the cost: their runs are cut once, and a
    copy of the same x (another run of the page) finds them; another x does not."""
    x = np.linspace(1.0, 0.0, 5000)
    first = thinning._runs(x, 300)
    assert thinning._runs(x.copy(), 300) is first
    assert thinning._runs(x, 299) is not first and thinning._runs(x[::-1].copy(), 300) is not first
    assert not first[0].flags.writeable  # shared: nobody can write to them
    y1, y2 = np.sin(np.arange(5000.0)), np.cos(np.arange(5000.0))
    assert not np.array_equal(thin_index(y1, 1200, x=x), thin_index(y2, 1200, x=x))  # y still decides


def test_the_remembered_stretches_are_few():
    for k in range(thinning._RUNS_KEPT + 5):
        thinning._runs(np.linspace(1.0, 0.0, thinning._RUNS_FROM + k), 100)
    assert len(thinning._RUNS) <= thinning._RUNS_KEPT


# ---------------------------------------------------------------------------------------
# The chart's table: a reference built row by row


def _said(v: float) -> str:
    """A value as the table writes it in a column with a gap: as every amount (`amounts.plain_number`)."""
    return plain_number(v)


def _table_reference(fig: go.Figure) -> pd.DataFrame:
    """The table of a figure of line traces, one dict per row: each trace's points kept by
    `thin_index` (budget as `chart_text` gives it), its label, its interval as text, and a gap
    in a number column, or a line without an interval beside one with it, as a dash."""
    traces = [t for t in fig.data if t.visible is not False]
    x_title, y_title = words(fig.layout.xaxis.title.text) or "x", words(fig.layout.yaxis.title.text) or "y"
    lengths = [len(t.y) for t in traces]
    long = sum(n > 20 for n in lengths)
    budget = max(20, 300 // max(1, long)) if sum(lengths) > 300 else max(lengths, default=0)
    rows = []
    # a line whose points carry labels of their own first (`chart_text`: a grid shows its first rows)
    for t in sorted(traces, key=lambda t: not t.text):
        x, y = np.asarray(t.x, dtype=float), np.asarray(t.y, dtype=float)
        x, y = np.where(np.isfinite(x), x, np.nan), np.where(np.isfinite(y), y, np.nan)
        keep = thin_index(y, budget, x=x if np.isfinite(x).all() else None) if len(y) > budget else range(len(y))
        for i in keep:
            row = {SERIES: words(t.name) or "scatter", x_title: x[i], y_title: y[i]}
            row[LABEL] = words(t.text[i]) if isinstance(t.text, tuple) else words(t.text) if t.text else ""
            if t.error_y.array is not None:
                for column, end in (
                    (INTERVAL_FROM, y[i] - t.error_y.array[i]),
                    (INTERVAL_TO, y[i] + t.error_y.array[i]),
                ):
                    row[column] = plain_number(end) if np.isfinite(end) else NO_INTERVAL
            rows.append(row)
    table = pd.DataFrame(rows)
    if (table[LABEL] == "").all():
        table = table.drop(columns=LABEL)
    if table[SERIES].nunique() == 1:  # one series: the sentence names it
        table = table.drop(columns=SERIES)
    for column in (x_title, y_title, INTERVAL_FROM, INTERVAL_TO):  # a line drawn without an interval: a dash
        if column in table and table[column].isna().any():
            table[column] = [
                NO_INTERVAL if pd.isna(v) else v if isinstance(v, str) else _said(v) for v in table[column]
            ]
    return table


@st.composite
def line_figures(draw):
    """1 to 4 lines of 1 to 400 points: gaps, labels (per point, one for the line, or none),
    intervals, and names and labels with markup."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    fig = go.Figure()
    for k in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 400))
        x = np.sort(rng.random(n))
        y = np.round(rng.normal(size=n), 2)
        y[rng.random(n) < draw(st.sampled_from([0.0, 0.05]))] = np.nan
        text = draw(st.sampled_from(["points", "one", None]))
        label = [f"p&lt;{i}&gt;<br>x" for i in range(n)] if text == "points" else "all &amp; one" if text else None
        error = {"type": "data", "array": np.abs(rng.normal(size=n))} if draw(st.booleans()) else None
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=f"line {k} &amp; co", text=label, error_y=error))
    fig.update_layout(title="Cost", xaxis_title="cutoff", yaxis_title="cost per case")
    return fig


@settings(max_examples=60, deadline=None)
@given(line_figures())
def test_the_table_is_the_one_built_row_by_row(fig):
    pd.testing.assert_frame_equal(chart_text(fig).table, _table_reference(fig))


@pytest.mark.parametrize("name", list(_builders()))
def test_a_figure_reads_as_its_spec_does(name):
    """Read from the figure (no copy) or from ``to_dict`` (its arrays as base64): one text."""
    fig = _builders()[name]()
    direct, spec = chart_text(fig), chart_text(fig.to_dict())
    assert (direct.sentence, direct.note) == (spec.sentence, spec.note)
    pd.testing.assert_frame_equal(direct.table, spec.table)


def test_the_text_alternative_reads_the_figure_without_copying_it(monkeypatch):
    """``to_dict`` deep-copies every trace and writes its arrays as base64 text, which the text
    alternative then reads back: on every price move, for nothing."""
    fig = go.Figure(go.Scatter(x=np.arange(5000.0), y=np.sin(np.arange(5000.0)), mode="lines", name="cost"))

    def copied(self):
        raise AssertionError("the figure was copied")

    monkeypatch.setattr(go.Figure, "to_dict", copied)
    assert len(chart_text(fig).table) <= 320


# ---------------------------------------------------------------------------------------
# The cost chart's marks: a reference by pandas' groups


def _marks_reference(markers: pd.DataFrame, lines: list, scale: float) -> tuple[list, list, list, list]:
    """(x, edge colours, hover names, key) of the marks, each rule's rows by ``groupby``."""
    recommended = markers.attrs.get("recommended")
    x, edges, names, key = [], [], [], []
    for rule, part in markers.groupby("rule", sort=False):
        label = plain(rule_words(str(rule)) + (" (recommended)" if rule == recommended else ""))
        x += (part["threshold"].to_numpy() * scale).tolist()
        for g in part["line"]:
            edges.append(palette_color(0) if g is None else palette_color(lines.index(g)) if g in lines else "#000")
            names.append(f"{label} ({plain(g) if part['line'].notna().any() and g is not None else 'everyone'})")
        symbol = cost_figures.RULE_SYMBOLS.get(str(rule), "x")
        key.append(f"{cost_figures.SYMBOL_GLYPHS[symbol][rule == recommended]} {label}")
    return x, edges, names, key


@st.composite
def marks(draw):
    """A markers frame as `markers_frame` makes it: rules in any order (a rule's rows apart),
    each on everybody's line (None) or a group's, one of them recommended."""
    rules = [R.THRESHOLD_05, R.ELKAN, R.SINGLE, R.COST_OPTIMAL, cost_figures.WITHOUT_LIMIT]
    n = draw(st.integers(1, 12))
    rows = {
        "line": draw(st.lists(st.sampled_from([None, "a", "<b>", "c"]), min_size=n, max_size=n)),
        "rule": draw(st.lists(st.sampled_from(rules), min_size=n, max_size=n)),
        "threshold": draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)),
        "cost_per_case": draw(st.lists(st.floats(0, 5), min_size=n, max_size=n)),
    }
    frame = pd.DataFrame(rows, columns=["line", "rule", "threshold", "cost_per_case"])
    frame.attrs["recommended"] = draw(st.sampled_from(rules))
    return frame, draw(st.sampled_from([1.0, 1000.0]))


@settings(max_examples=100, deadline=None)
@given(marks())
def test_the_marks_are_those_of_each_rules_group(case):
    markers, scale = case
    lines = [None, "a", "<b>"]
    marked, key = cost_figures._marker_traces(markers, lines, "threshold", scale, scale != 1.0)
    x, edges, names, want_key = _marks_reference(markers, lines, scale)
    assert marked["x"].tolist() == x and marked["marker"]["line"]["color"] == edges
    assert marked["text"] == names and key == want_key


def test_the_remembered_stretches_hold_few_bytes(monkeypatch):
    """A server keeps one store for every session: long sweeps are forgotten before it grows."""
    monkeypatch.setattr(thinning, "_RUNS_BYTES", 3 * 20_000 * 4)
    for k in range(5):
        thinning._runs(np.linspace(1.0, float(k), 20_000), 100)
    assert sum(a.nbytes for kept in thinning._RUNS.values() for a in kept) <= thinning._RUNS_BYTES
    assert len(thinning._RUNS) >= 1  # the latest is kept
