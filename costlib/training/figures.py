"""Plotly figures for training with instance costs; each takes a computed summary and returns a Figure.

`training_figure` draws NEC and error rate per method with their intervals over seeds (the
published figure's form); `change_figure` draws each method's relative change in NEC against
standard training, paired by seed. Text from users (the data's name) is escaped for Plotly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.core.escaping import plain
from costlib.present import training_page
from costlib.present import training_words as words
from costlib.present.plotting import EVERYONE_COLOR, NOBODY_COLOR, palette_color, series_bar_pattern

#: the change chart's three readings: colour (apart under every common colour-vision deficiency),
#: a shape of their own (pointing the way NEC moved) and a name in the legend, so none needs colour
CHANGES = tuple(
    zip(
        training_page.CHANGE_NAMES,
        (palette_color(0), palette_color(1), EVERYONE_COLOR),
        ("triangle-left", "triangle-right", "circle-open"),
        strict=True,
    )
)


#: the change chart's margins, and how far under its plot its legend starts: below the axis's numbers and
#: its title (about 50 px), with room under it for the legend's entries on two rows
CHANGE_MARGIN = {"l": 90, "r": 20, "t": 60, "b": 130}
LEGEND_BELOW_PX = 64


def _figure(title: str, x_title: str, y_title: str, *, height: int = 460) -> go.Figure:
    fig = go.Figure(layout={"template": {}})
    fig.update_layout(
        title=title,
        xaxis_title=x_title,
        yaxis_title=y_title,
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0},
        margin={"l": 60, "r": 20, "t": 60, "b": 110},
        height=height,
        hovermode="closest",
    )
    return fig


def _errors(mean: pd.Series, low: pd.Series, high: pd.Series) -> dict | None:
    """error_y / error_x spec from an interval; None when no interval is known (one seed)."""
    up = (high - mean).to_numpy(dtype=float)
    down = (mean - low).to_numpy(dtype=float)
    if np.isnan(up).all():
        return None
    return {
        "type": "data",
        "symmetric": False,
        "array": np.nan_to_num(up).tolist(),
        "arrayminus": np.nan_to_num(down).tolist(),
        "thickness": 1.5,
        "width": 5,
    }


def training_figure(summary: pd.DataFrame, *, title: str | None = None, level: float = 0.95, shares=None) -> go.Figure:
    """Grouped bars per method: NEC and error rate on the test rows, mean over seeds and interval.

    `summary` is `costlib.training.summary.training_summary`'s output; `shares` ({method: (share
    asked, share kept)}, `training.kept`) names a way of keeping the costliest cases by the share it
    kept (`training_page.method_short`).
    """
    methods = summary["method"].astype(str).tolist()
    names = [plain(training_page.method_short(m, shares)) for m in methods]
    seeds = int(summary["seeds"].max()) if len(summary) else 0
    fig = _figure(
        plain(title or words.BARS_TITLE),
        training_page.bars_axis_title(seeds, level),
        training_page.BARS_VALUE_AXIS,
    )
    for i, (col, name) in enumerate(training_page.BAR_SERIES.items()):
        hover = [
            f"{plain(training_page.method_label(m, shares))}<br>{name}: {x:.4f}"
            for m, x in zip(methods, summary[col], strict=True)
        ]
        fig.add_trace(
            go.Bar(
                x=names,
                y=summary[col],
                name=name,
                marker={"color": palette_color(i), "pattern": series_bar_pattern(i)},
                error_y=_errors(summary[col], summary[f"{col}_low"], summary[f"{col}_high"]),
                hovertext=hover,
                hoverinfo="text",
            )
        )
    fig.update_layout(barmode="group")
    fig.update_yaxes(rangemode="tozero")
    return fig


def change_figure(summary: pd.DataFrame, *, level: float = 0.95, shares=None) -> go.Figure:
    """Relative change in NEC against standard training per method (paired by seed), with intervals;
    the ways named as `training_figure` names them (`shares`).

    Each method is one of `CHANGES`, by colour, shape and legend name: lower beyond the noise
    (the whole interval below 0), higher beyond the noise, or not told apart from standard
    training. The intervals are the verdict's (`training_words.held_interval`: held for the pick among
    the ways when `summary` is `training.summary.held_for_pick`'s, as the page's answer passes it), so
    that no mark says "beyond the noise" where the verdict says "could be chance" (review 70).
    """
    held = words.held_interval(summary)
    rows = held[held["method"] != "standard"]
    methods = rows["method"].astype(str).tolist()
    names = [plain(training_page.method_short(m, shares)) for m in methods]
    change = 100 * rows["nec_change"]
    low, high = 100 * rows[words.HELD_LOW], 100 * rows[words.HELD_HIGH]
    among = int(rows[words.PICKED_AMONG].max()) if len(rows) else 0
    kind = np.where(high < 0, 0, np.where(low > 0, 1, 2))
    hover = np.array(
        [
            training_page.change_hover(plain(training_page.method_label(m, shares)), c, lo, h)
            for m, c, lo, h in zip(methods, change, low, high, strict=True)
        ]
    )
    fig = _figure(
        words.CHANGE_TITLE,
        training_page.change_axis_title(level, among),
        training_page.METHOD_AXIS,
        height=max(320, 110 + 48 * len(methods)),  # the plot as before the legend moved 20 px lower
    )
    for k, (name, color, symbol) in enumerate(CHANGES):
        these = kind == k
        if not these.any():
            continue
        fig.add_trace(
            go.Scatter(
                x=change[these],
                y=np.asarray(names)[these],
                mode="markers",
                name=name,
                marker={"size": 12, "color": color, "symbol": symbol, "line": {"width": 2, "color": color}},
                error_x=_errors(change[these], low[these], high[these]),
                hovertext=hover[these],
                hoverinfo="text",
            )
        )
    fig.add_shape(
        type="line",
        xref="x",
        yref="paper",
        x0=0,
        x1=0,
        y0=0,
        y1=1,
        line={"color": NOBODY_COLOR, "dash": "dash"},
        layer="below",
    )
    fig.add_annotation(
        x=0,
        y=1,
        xref="x",
        yref="paper",
        text=training_page.STANDARD_LINE,
        showarrow=False,
        yanchor="bottom",
        font={"color": NOBODY_COLOR},
    )
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=names)
    # the key always shows, even when every way reads alike (Plotly hides a lone trace's legend), under the
    # axis title at a fixed distance in pixels: at a share of the plot's height, a chart of 3 ways drew it on
    # the title
    height = int(fig.layout.height)
    plot = height - CHANGE_MARGIN["t"] - CHANGE_MARGIN["b"]
    fig.update_layout(
        margin=CHANGE_MARGIN, showlegend=True, legend={"y": -LEGEND_BELOW_PX / plot, "yanchor": "top", "x": 0}
    )
    return fig
