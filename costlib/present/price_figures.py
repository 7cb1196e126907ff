"""The figures of how an answer moves with the prices: which option is cheapest at each pair of
prices (`sensitivity_figure`), net benefit at each cutoff, with the one the prices stand for
(`net_benefit_figure`) and the best cutoff for every price ratio (`ratio_pieces_figure`, Find my
prices). Each takes computed results and returns a Figure; none shows it. Plotly is imported
inside each builder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.core.escaping import plain
from costlib.present.amounts import ratio_text
from costlib.present.chart_text import TABLE_Y
from costlib.present.plotting import (
    EVERYONE_COLOR,
    NOBODY_COLOR,
    apply_layout,
    figure_without_template,
    palette_color,
    rule_line,
    series_line,
)

if TYPE_CHECKING:
    import plotly.graph_objects as go


NO_CUTOFF = "none: flags nobody"  # the table's cutoff cell of flagging nobody
# the two decisions without a model, told apart by their dash as well as their grey
NO_MODEL_LINES = {
    R.EVERYONE: {"color": EVERYONE_COLOR, "dash": "dot"},
    R.NOBODY: {"color": NOBODY_COLOR, "dash": "dash"},
}
# the net benefit chart's axes in plain words: net benefit is TP/n - FP/n * t/(1 - t), the share of cases
# rightly flagged less the share of false alarms weighed by the cutoff's odds (the report's caption says it)
NET_BENEFIT_X = "cutoff (flag if score ≥ it)"
NET_BENEFIT_Y = "true flags minus weighted false alarms, per case"


def _categorical_scale(colors: Sequence[str]) -> list:
    k = len(colors)
    scale = []
    for i, col in enumerate(colors):
        scale += [[i / k, col], [(i + 1) / k, col]]
    return scale


#: the sensitivity map's options are told apart by a letter in each cell as well as by colour
OPTION_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def sensitivity_figure(
    grid: pd.DataFrame,
    *,
    c_fp: float | None = None,
    c_fn: float | None = None,
    unit: str = "",
    title: str = "Which option is cheapest at each pair of prices",
    bracket: tuple[float, float] | None = None,
) -> go.Figure:
    """Categorical map of `binary.sensitivity.sensitivity_grid`'s ``best`` over (c_fp, c_fn), log axes with
    readable ticks, the current prices marked (and, with `bracket` = (low, high) ratios from
    Find my prices, the range of c_fn those answers allow at this c_fp). The two decisions
    without a model are grey. Each cell carries its option's letter (`OPTION_LETTERS`, named in
    the colour bar), so the map reads without colour."""
    import plotly.graph_objects as go

    options = list(dict.fromkeys([*grid["option"], *grid["best"]]))  # every option a cell may name
    no_model = [o for o in (R.NOBODY, R.EVERYONE) if o in options]
    options = no_model + [o for o in options if o not in no_model]
    colors = [NOBODY_COLOR, EVERYONE_COLOR][: len(no_model)] + [
        palette_color(i) for i in range(len(options) - len(no_model))
    ]
    best = grid.drop_duplicates(["c_fp", "c_fn"])
    wide = best.pivot(index="c_fn", columns="c_fp", values="best")
    code = wide.apply(lambda col: col.map({o: i for i, o in enumerate(options)})).to_numpy(dtype=float)
    letters = {o: OPTION_LETTERS[i % len(OPTION_LETTERS)] for i, o in enumerate(options)}
    shown = [f"{letters[o]}: {plain(R.rule_words(o))}" for o in options]
    cells = wide.to_numpy()
    fig = figure_without_template(
        go.Heatmap(
            z=code,
            x=wide.columns.to_numpy(),
            y=wide.index.to_numpy(),
            text=np.vectorize(lambda o: letters.get(o, ""), otypes=[object])(
                cells
            ),  # each cell's letter: no colour needed
            customdata=np.vectorize(lambda o: plain(R.rule_words(o)) if isinstance(o, str) else "", otypes=[object])(
                cells
            ),
            texttemplate="%{text}",
            textfont={"size": 9},  # its colour Plotly picks against each cell (white or dark grey)
            colorscale=_categorical_scale(colors),
            zmin=-0.5,
            zmax=len(options) - 0.5,
            colorbar={"title": "cheapest", "tickvals": list(range(len(options))), "ticktext": shown},
            hovertemplate="false positive %{x:.3g}<br>false negative %{y:.3g}<br>"
            "cheapest: %{customdata}<extra></extra>",
        )
    )
    if c_fp is not None and c_fn is not None and c_fp > 0 and c_fn > 0:
        fig.add_trace(
            go.Scatter(
                x=[c_fp],
                y=[c_fn],
                mode="markers+text",
                name="your prices",
                marker={"symbol": "x", "size": 14, "color": "black"},
                text=["your prices"],
                textposition="top right",
                hovertemplate="your prices<br>false positive %{x:.3g}<br>false negative %{y:.3g}<extra></extra>",
            )
        )
    if bracket is not None and c_fp:
        fig.add_trace(
            go.Scatter(
                x=[c_fp, c_fp],
                y=[c_fp * bracket[0], c_fp * bracket[1]],
                mode="lines+markers",
                name="your answers' range",
                line={"color": "black", "width": 3},
                marker={"symbol": "line-ew", "size": 14, "line": {"width": 2}},
                hovertemplate="from your answers<br>false negative %{y:.3g}<extra></extra>",
            )
        )
    ticks = _log_ticks(wide.columns.to_numpy(dtype=float))
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    suffix = f" ({unit})" if unit else ""
    return apply_layout(fig, title, "price of a false positive" + suffix, "price of a false negative" + suffix)


def _log_ticks(values: np.ndarray) -> list[float]:
    """Powers of ten (and 2 and 5 times them when the span is short) inside the values' range."""
    lo, hi = float(np.min(values)), float(np.max(values))
    ticks = []
    for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1):
        for m in (1, 2, 5) if hi / lo <= 1e3 else (1,):
            t = m * 10.0**e
            if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9):
                ticks.append(t)
    return ticks


def _tick(t: float, unit: str) -> str:
    text = f"{t:,.0f}" if t >= 1 else f"{t:g}"
    return plain(f"{unit}{text}" if unit in ("$", "€", "£", "¥", "₹") else text)


def net_benefit_title(rows: str = "the test rows") -> str:
    """The net benefit chart's title, naming the `rows` its curves are read on (`words.judged_rows`).

    >>> net_benefit_title("all rows")
    'Net benefit at each cutoff (all rows)'
    """
    return f"Net benefit at each cutoff ({rows.removeprefix('the ')})"


def net_benefit_figure(
    curves: pd.DataFrame,
    *,
    price_threshold: float | None = None,
    title: str = net_benefit_title(),
) -> go.Figure:
    """Decision curves: each model, "flag everyone" and "flag nobody" (0), with the threshold
    that the current prices stand for (c_fp / (c_fp + c_fn)) marked."""
    import plotly.graph_objects as go

    fig = figure_without_template()
    models = [o for o in dict.fromkeys(curves["option"]) if o not in R.BASELINES]
    for i, m in enumerate(models):
        part = curves[curves["option"] == m]
        fig.add_trace(
            go.Scatter(
                x=part["threshold"],
                y=part["net_benefit"],
                mode="lines",
                name=plain(m),
                line=series_line(i),
            )
        )
    for option, line in NO_MODEL_LINES.items():
        part = curves[curves["option"] == option]
        if len(part):
            fig.add_trace(
                go.Scatter(
                    x=part["threshold"], y=part["net_benefit"], mode="lines", name=R.rule_words(option), line=line
                )
            )
    if len(curves):
        top = float(np.nanmax(curves["net_benefit"].to_numpy(float)))
        fig.update_yaxes(range=[-0.05 - 0.1 * abs(top), 1.15 * max(top, 0.01)])
    if price_threshold is not None and np.isfinite(price_threshold):
        rule_line(
            fig,
            x=price_threshold,
            line={"color": "#000", "dash": "dot", "width": 1},
            text=f"{R.rule_words(R.ELKAN)}: {price_threshold:.3f}",
            position="top right",
        )
    return apply_layout(fig, title, NET_BENEFIT_X, NET_BENEFIT_Y)


def ratio_pieces_figure(
    table: pd.DataFrame,
    *,
    low: float,
    high: float,
    names: tuple[str, str],
    title: str | None = None,
    lowest: float | None = None,
    rows: str = "train rows",
) -> go.Figure:
    """The cost-optimal cutoff against the ratio c_fn / c_fp (log axis), exact pieces drawn
    as steps, with the bracket of the answers so far shaded. `table`: `elicit.pieces`.

    The decisions without a model are dashed lines of their own, named as the answer names them:
    flag nobody (an infinite cutoff) above the plot's cutoffs and, with `lowest` (the lowest
    score, whose cutoff flags everyone), flag everyone at that cutoff. The title says on which
    `rows` the cutoffs were fitted ("train rows", or "all rows" without a split)."""
    import plotly.graph_objects as go

    fig = figure_without_template()
    left = max(float(table["ratio_low"].iloc[0]), 1e-9)
    xs = [max(x, left) for x in table["ratio_low"]] + [float(table["ratio_high"].iloc[-1])]
    ts = table["threshold"].to_numpy(dtype=float)
    everyone = np.flatnonzero(ts == lowest) if lowest is not None else np.array([], dtype=int)
    end = int(everyone[0]) if everyone.size else len(ts)  # the best cutoffs flag everyone from this piece on
    ys = [t if np.isfinite(t) else None for t in ts[:end]]
    if any(y is not None for y in ys):  # not a legend entry for a line that draws nothing
        ys.append(ys[-1])  # the last piece drawn to its right end
        fig.add_trace(
            go.Scatter(
                x=xs[: end + 1],
                y=ys,
                mode="lines",
                line={"color": palette_color(0), "width": 3, "shape": "hv"},
                connectgaps=False,
                name="best cutoff",
                hovertemplate="ratio %{x:.3g}<br>cutoff %{y:.4g}<extra></extra>",
            )
        )
    if everyone.size:
        fig.add_trace(
            go.Scatter(
                x=[xs[end], xs[-1]],
                y=[lowest, lowest],
                mode="lines",
                line={**NO_MODEL_LINES[R.EVERYONE], "width": 2},
                name=R.EVERYONE,
                hovertemplate=f"ratio %{{x:.3g}}: {R.EVERYONE}<extra></extra>",
            )
        )
    for row in table[~np.isfinite(table["threshold"])].itertuples():
        fig.add_trace(
            go.Scatter(
                x=[max(row.ratio_low, left), row.ratio_high],
                y=[1.02, 1.02],
                mode="lines",
                line=NO_MODEL_LINES[R.NOBODY],
                meta={TABLE_Y: NO_CUTOFF},  # drawn above the cutoffs: its cutoff is infinite, not 1.02
                name=R.NOBODY,
                hovertemplate=f"ratio %{{x:.3g}}: {R.NOBODY}<extra></extra>",
            )
        )
    fig.update_xaxes(range=[np.log10(left), np.log10(float(table["ratio_high"].iloc[-1]))])
    fig.add_shape(
        type="rect",
        xref="x",
        yref="paper",
        x0=low,
        x1=high,
        y0=0,
        y1=1,
        fillcolor=palette_color(2),
        opacity=0.15,
        line={"width": 0},
        layer="below",
    )
    rule_line(
        fig,
        x=float(np.sqrt(low * high)),
        line={"color": palette_color(2), "dash": "dot", "width": 1},
        text=f"your range: {ratio_text(low)} to {ratio_text(high)}",
        position="top right",
    )
    fig.update_xaxes(type="log")
    return apply_layout(
        fig,
        title if title is not None else f"The best cutoff for every price ratio ({rows})",
        f"how many times worse {names[0]} is than {names[1]}",
        "cutoff (flag a case when its score is at least this)",
    )
