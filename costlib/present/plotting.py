"""What every figure builder shares: the palette, thinning a curve for drawing, an empty
figure, a labelled line across the plot and the layout (titles escaped, legend underneath).

Curves are computed exactly over every distinct score; for drawing, a curve with more
points than a screen has pixels is thinned by `thin_curve`, which keeps each bucket's
first, last, lowest and highest point, so every step and extreme stays visible.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from costlib.core.escaping import plain
from costlib.core.thinning import thin_index

# The one home of the colours of models, groups and rules: every figure takes its i-th line's colour
# from `palette_color(i)` and its dash (`series_dash`), marker (`series_symbol`) or bar pattern
# (`series_bar_pattern`) from the same i, so lines differ without colour too. Okabe and Ito's blue,
# vermillion and bluish green, then Tol's wine, Okabe and Ito's reddish purple, Tol's olive and
# Okabe and Ito's sky blue and orange darkened (in HLS lightness) to a 3:1 contrast with white
# (WCAG 2.2, 1.4.11: a line must stand out from the page); ordered so that neighbours stay apart under
# simulated protanopia, deuteranopia and tritanopia (at least 18 CIEDE2000 units: the test
# tests/present/test_palette.py measures it, Machado et al. 2009 at full severity).
PALETTE = ["#0072b2", "#d55e00", "#009e73", "#882255", "#cc79a7", "#666633", "#209ce2", "#c28600"]
# The i-th line's dash. "dash" and "dot" are left to the lines across the plot (no model, cutoffs).
SERIES_DASHES = ("solid", "longdash", "dashdot", "longdashdot", "12px,4px,2px,4px,2px,4px")
# The i-th series' marker: none of the shapes the cost curves give a rule (`cost_figures.RULE_SYMBOLS`).
SERIES_SYMBOLS = ("hexagon", "square", "triangle-up", "cross", "triangle-down", "pentagon", "hexagram", "bowtie")
# The i-th series of bars' fill pattern: first each shape drawn in the series' colour on white (the
# first is a plain bar), then each but the plain one drawn over a bar filled with the colour, then
# each but the plain one drawn finer, in the colour on white (`series_bar_pattern`): 22 looks before
# they repeat, for the report's bars of up to 17 rules (6 without fairness, 5 fair ones, each again
# fitted within a tolerance, and flagging at random under a review limit).
SERIES_PATTERNS = ("", "/", ".", "x", "\\", "+", "|", "-")
FINE_PATTERN_PX = 4  # the third round's pattern size (Plotly's default is 8 px)
NOBODY_COLOR = "#555555"
EVERYONE_COLOR = "#767676"  # the lightest grey with a 4.5:1 contrast with white
GUIDE_COLOR = "#767676"  # a plain line across the plot that marks no decision (where the models' order changes)
ALERT_COLOR = "#c62828"  # an alert's mark (Watch), drawn in its own shape too ("x")
MAX_POINTS = 2000  # points of a curve drawn (`thin_curve`): a quarter as many stretches of x, about 2 px each
# the marker of the best answer without a review limit (Costs and Value): a shape no rule uses, so that
# it is not read as the recommended cutoff's star
WITHOUT_LIMIT_SYMBOL = "square-open"
LABEL_BACKGROUND = "rgba(255, 255, 255, 0.8)"  # behind the label of a line across the plot
GROUP_POINTS = MAX_POINTS // 2  # of a line drawn thin behind the main one (each group's)


def palette_color(i: int) -> str:
    """The i-th colour of `PALETTE`, cycling: the colour of the i-th model, group or rule."""
    return PALETTE[i % len(PALETTE)]


def series_dash(i: int) -> str:
    """The i-th line's dash (`SERIES_DASHES`, cycling): with `palette_color(i)`, the i-th model's or
    group's line reads apart from its neighbours without colour.

    >>> [series_dash(i) for i in (0, 1, 5)]
    ['solid', 'longdash', 'solid']
    """
    return SERIES_DASHES[i % len(SERIES_DASHES)]


def series_symbol(i: int) -> str:
    """The i-th series' marker shape (`SERIES_SYMBOLS`, cycling)."""
    return SERIES_SYMBOLS[i % len(SERIES_SYMBOLS)]


def series_bar_pattern(i: int) -> dict:
    """The i-th series of bars' pattern (a Plotly ``marker.pattern``): the shapes of
    `SERIES_PATTERNS` in the series' colour on white; then the same shapes but the plain one in
    white or dark grey over a bar filled with the colour (``fillmode`` "overlay"); then those
    shapes again in the colour on white at half the size (`FINE_PATTERN_PX`, a finer texture);
    cycling after those 22, so that up to 22 series of bars differ without colour.

    >>> series_bar_pattern(1), series_bar_pattern(8), series_bar_pattern(15), series_bar_pattern(22)
    ({'shape': '/'}, {'shape': '/', 'fillmode': 'overlay'}, {'shape': '/', 'size': 4}, {'shape': ''})
    """
    shapes = SERIES_PATTERNS[1:]
    i %= len(SERIES_PATTERNS) + 2 * len(shapes)
    if i < len(SERIES_PATTERNS):
        return {"shape": SERIES_PATTERNS[i]}
    i -= len(SERIES_PATTERNS)
    if i < len(shapes):
        return {"shape": shapes[i], "fillmode": "overlay"}
    return {"shape": shapes[i - len(shapes)], "size": FINE_PATTERN_PX}


def series_line(i: int, **line) -> dict:
    """A Plotly ``line`` of the i-th series: its colour and dash, and `line`'s other settings.

    >>> series_line(1, width=2)
    {'color': '#d55e00', 'dash': 'longdash', 'width': 2}
    """
    return {"color": palette_color(i), "dash": series_dash(i), **line}


def step_points(x: np.ndarray, y: np.ndarray, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """A step curve (each point's value holds until the next point, as Plotly's "hv" shape
    draws it) as points to join with straight lines: a corner (the next x at this y) is added
    wherever the next point lies more than two of `columns` equal stretches of the x range
    away, and nearer points are joined straight.

    A curve thinned for drawing (`thin_curve`, `thinning.thin_index` by x) keeps a few points per
    stretch; drawn as steps, the gap from one stretch to the next became a stair that is not in
    the data (the real steps there are narrower than a pixel). Joined straight it follows the
    curve, while a step as wide as a reader can see keeps its corner. Without thinning, where
    points are sparse, this is the "hv" drawing exactly.

    >>> step_points(np.array([0.0, 0.5, 0.51, 1.0]), np.array([3.0, 2.0, 1.0, 0.0]), 10)
    (array([0.  , 0.5 , 0.5 , 0.51, 1.  , 1.  ]), array([3., 3., 2., 1., 1., 0.]))
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    finite = np.isfinite(x)
    if x.size < 2 or not finite.any():
        return x, y
    width = (x[finite].max() - x[finite].min()) / max(int(columns), 1)
    at = np.flatnonzero(np.abs(np.diff(x)) > 2 * width) + 1  # before each point a wide step leads to
    return np.insert(x, at, x[at]), np.insert(y, at, y[at - 1])


def thin_curve(x: np.ndarray, y: np.ndarray, max_points: int = MAX_POINTS):
    """At most about `max_points` points of (x, y) for drawing: ``max_points // 4`` equal
    stretches of x, each keeping its first, last, lowest and highest point (`thinning.thin_index`)."""
    x = np.asarray(x)
    y = np.asarray(y, dtype=float)
    if x.size <= max_points:
        return x, y
    idx = thin_index(y, max_points, x=x)
    return x[idx], y[idx]


def figure_without_template(*data) -> go.Figure:
    """An empty figure without Plotly's default template.

    Copying the default template costs ~20 ms per figure, and a page redraws its figures on
    every slider move; Streamlit applies its own theme in the app, and plotly.js's defaults
    serve the offline report.
    """
    return go.Figure(data=list(data), layout={"template": {}})


def figure_from_spec(data: list[dict], layout: dict) -> go.Figure:
    """A figure from its whole spec (traces and layout as dicts), without Plotly's default
    template and without Plotly's checks of every property.

    For the charts a slider redraws: checking a spec through Plotly's objects cost 3 ms for the
    cost curve of a sample and 20 ms at a million rows, a fifth of the server's part of a price
    move, and Streamlit then copies the figure out to JSON anyway. What the checks would catch
    is caught by the tests instead: every builder's figure is rebuilt there with them on
    (tests/present/test_figures.py), and the pinned Plotly makes that hold in the app.
    """
    return go.Figure({"data": data, "layout": {"template": {}, **layout}}, _validate=False)


def rule_line(
    fig: go.Figure,
    *,
    x: float | None = None,
    y: float | None = None,
    line: dict,
    text: str | None = None,
    position: str = "top left",
) -> None:
    """A labelled horizontal (y=) or vertical (x=) line across the plot (`rule_line_spec`)."""
    shape, note = rule_line_spec(x=x, y=y, line=line, text=text, position=position)
    fig.add_shape(shape)
    if note:
        fig.add_annotation(note)


#: `rule_line_spec`'s place for a horizontal line's label in the right margin, beside the line's end: inside
#: the plot the curves ran through the labels of the no-model lines ("flag everyone (no model): $0.751")
MARGIN_RIGHT = "margin right"


def rule_line_spec(
    *, x: float | None = None, y: float | None = None, line: dict, text: str | None = None, position: str = "top left"
) -> tuple[dict, dict | None]:
    """(shape, annotation or None) of a labelled horizontal (y=) or vertical (x=) line.

    Plotly's add_hline/add_vline do the same but spend ~30 ms each on subplot bookkeeping;
    a page redraws on every slider move, so the shape and its label are made directly.
    """
    vertical = x is not None
    shape = (
        {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1}
        if vertical
        else {"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": y, "y1": y}
    )
    shape.update(line=line, layer="above")
    if not text:
        return shape, None
    top, left = position.startswith("top"), position.endswith("left")
    # on a see-through white box: a curve that crosses the label leaves it readable
    note = {"text": plain(text), "showarrow": False, "bgcolor": LABEL_BACKGROUND}
    if position == MARGIN_RIGHT and not vertical:  # past the plot's right end, where no line runs
        note.update(x=1, y=y, xref="paper", yref="y", xanchor="left", yanchor="middle", xshift=6, align="left")
        return shape, note
    if vertical:
        note.update(
            x=x, y=1 if top else 0, xref="x", yref="paper", xanchor="right" if left else "left",
            yanchor="top" if top else "bottom",
        )  # fmt: skip
    else:
        note.update(
            x=0 if left else 1, y=y, xref="paper", yref="y", xanchor="left" if left else "right",
            yanchor="bottom" if top else "top",
        )  # fmt: skip
    return shape, note


def apply_layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    """Title, axis titles (escaped: they may hold user text), legend under the plot, and the
    labels of the vertical lines placed on the x axis as drawn (`labels_on_the_axis`)."""
    fig.update_layout(layout_spec(title, x, y))
    labels_on_the_axis(fig)
    return fig


def labels_on_the_axis(fig: go.Figure) -> go.Figure:
    """Place the labels of vertical lines (`rule_line`, its x in data units like the line) on
    the x axis as it is drawn, once its type and range are set.

    On a log axis Plotly draws a shape at its x but an annotation at 10 to the power of its x:
    the label is moved to the log of its x (the Find my prices chart drew "your range" at 10^2.4
    for a line at 2.4, off the chart's right edge). On an axis with a set range the label goes
    on the side of its line that has more room, toward the middle, so that a line near an end
    does not push its label off the chart. Without a set range the middle is that of the
    traces' x: Plotly widens an axis to fit its labels, and a label running past the data's end
    stretched the net benefit chart's threshold axis to 3.
    """
    axis = fig.layout.xaxis
    log = axis.type == "log"
    middle = sum(axis.range) / 2 if axis.range is not None else _data_middle(fig, log=log)
    for note in fig.layout.annotations:
        if note.xref != "x" or note.yref != "paper" or note.x is None or note.showarrow:
            continue
        at = float(note.x)
        if log:
            if at <= 0:
                continue
            at = float(np.log10(at))
            note.x = at
        if middle is not None and note.xanchor in ("left", "right"):
            note.xanchor = "right" if at > middle else "left"
    return fig


def cost_axis(unit: str = "") -> str:
    """The title of a cost axis, with the unit as every cost chart says it: "cost per case ($)",
    or "cost per case" without a unit (the unit is user text: the caller escapes the title).

    >>> cost_axis("$"), cost_axis()
    ('cost per case ($)', 'cost per case')
    """
    return f"cost per case ({unit})" if unit else "cost per case"


def layout_spec(title: str, x: str, y: str) -> dict:
    """The layout every figure shares, as a dict (for figures built from one spec at once).

    Two settings are there for the redraw a slider move makes, measured at a million rows on
    Costs & groups (benchmarks/README.md, "Slider latency"). The left margin already fits the
    y axis's tick labels and title: Streamlit's theme turns on the axes' ``automargin``, and
    when the labels push past the margin plotly.js draws the whole chart a second time on every
    redraw (32 ms of a move; a wider label still gets its room, at that price). The tick labels
    are never hidden for running past the chart's edge (``ticklabeloverflow``): checking that
    measures every label's box in the page, 25 ms of a move, and with these margins none does.
    """
    return {
        "title": {"text": plain(title)},
        "xaxis": {"title": {"text": plain(x)}, "ticklabeloverflow": "allow"},
        "yaxis": {"title": {"text": plain(y)}, "ticklabeloverflow": "allow"},
        # the legend goes under the plot: above it, a legend that wraps runs into the title
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0},
        "margin": {"l": 80, "r": 20, "t": 60, "b": 130},
        "height": 520,
        "hovermode": "closest",
    }


def _data_middle(fig: go.Figure, *, log: bool) -> float | None:
    """The middle of the traces' x values (on a log axis, of their logs); None without numbers."""
    ends = []
    for trace in fig.data:
        if getattr(trace, "x", None) is None:
            continue
        try:
            x = np.asarray(trace.x, dtype=float).ravel()
        except (TypeError, ValueError):  # categories: no middle to speak of
            return None
        x = x[np.isfinite(x) & (x > 0)] if log else x[np.isfinite(x)]
        if x.size:
            ends += [float(x.min()), float(x.max())]
    if not ends:
        return None
    low, high = min(ends), max(ends)
    return float(np.log10(low) + np.log10(high)) / 2 if log else (low + high) / 2


def mark_x(fig: go.Figure, x: float, *, text: str | None = None) -> go.Figure:
    """Mark a position on the x axis (the current threshold) with a dotted vertical line."""
    rule_line(fig, x=x, line={"dash": "dot", "color": "#000", "width": 1}, text=text)
    return fig


# the shipped cutoff, wherever a chart marks it (Watch's refit chart, Costs & groups opened on the
# refit): a diamond on a dashed line, labelled, so that it reads apart from the other markers without colour
SHIPPED_NAME = "the shipped cutoff"
SHIPPED_SYMBOL, SHIPPED_DASH = "diamond", "dash"


def point_at(curves, line, cutoff: float, column: str = "cost_per_case") -> float | None:
    """`column` of `line`'s point at `cutoff` in `curves` (`binary.decision.cost_curves`; `line`
    None is everybody's): the point of the lowest threshold at or above it (a case is flagged
    when its score is at least the cutoff), or None when no threshold is that high."""
    rows = curves[(curves["line"].isna() if line is None else curves["line"] == line)]
    above = rows[rows["threshold"] >= cutoff]
    return None if above.empty else float(above[column].iloc[-1])


def cutoff_marks(
    xs: list, ys: list, labels: list[str], *, name: str, symbol: str, dash: str
) -> tuple[dict, list[dict]]:
    """(trace, shapes) of cutoffs marked on a chart: a marker of `symbol` at each (x, y),
    labelled with its entry of `labels` (already escaped with `core.escaping.plain`), in one
    legend entry `name`, and a vertical line of `dash` at each distinct x.

    Examples
    --------
    >>> trace, shapes = cutoff_marks([0.5], [1.0], ["shipped ≥ 0.5"], name="n", symbol="diamond", dash="dash")
    >>> trace["marker"]["symbol"], [s["x0"] for s in shapes]
    ('diamond', [0.5])
    """
    shapes = [
        {
            "type": "line",
            "xref": "x",
            "yref": "y domain",
            "x0": t,
            "x1": t,
            "y0": 0,
            "y1": 1,
            "line": {"dash": dash, "width": 1.5, "color": "#444"},
        }
        for t in sorted(set(xs))
    ]
    trace = {
        "type": "scatter",
        "x": list(xs),
        "y": list(ys),
        "mode": "markers+text",
        "name": name,
        "text": list(labels),
        "textposition": "top right",
        "marker": {"symbol": symbol, "size": 14, "color": "#222", "line": {"width": 1, "color": "white"}},
        "hovertemplate": "%{text}<extra></extra>",
    }
    return trace, shapes
