"""Plotly figure builders. Each takes computed results and returns a Figure; none shows it.

Curves are computed exactly over every distinct score; for drawing, a curve with more
points than a screen has pixels is thinned by `thin_curve`, which keeps each bucket's
first, last, lowest and highest point, so every step and extreme stays visible.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.words import money, plain

PALETTE = ["#1f5fa8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f", "#c26b2d"]
NOBODY_COLOR = "#555555"
MAX_POINTS = 4000


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def thin_curve(x: np.ndarray, y: np.ndarray, max_points: int = MAX_POINTS):
    """At most about `max_points` points of (x, y) for drawing, extremes kept."""
    x = np.asarray(x)
    y = np.asarray(y, dtype=float)
    n = x.size
    if n <= max_points:
        return x, y
    buckets = max(1, max_points // 4)
    size = -(-n // buckets)
    padded = np.full(buckets * size, np.nan)
    padded[:n] = y
    padded = padded.reshape(buckets, size)
    rows = np.arange(buckets) * size
    lowest = rows + np.argmin(np.where(np.isnan(padded), np.inf, padded), axis=1)
    highest = rows + np.argmax(np.where(np.isnan(padded), -np.inf, padded), axis=1)
    idx = np.unique(np.clip(np.concatenate((rows, rows + size - 1, lowest, highest)), 0, n - 1))
    return x[idx], y[idx]


def _new_figure(*data) -> go.Figure:
    """An empty figure without Plotly's default template.

    Copying the default template costs ~20 ms per figure, and a page redraws its figures on
    every slider move; Streamlit applies its own theme in the app, and plotly.js's defaults
    serve the offline report.
    """
    return go.Figure(data=list(data), layout={"template": {}})


def _rule_line(
    fig: go.Figure,
    *,
    x: float | None = None,
    y: float | None = None,
    line: dict,
    text: str | None = None,
    position: str = "top left",
) -> None:
    """A labelled horizontal (y=) or vertical (x=) line across the plot.

    Plotly's add_hline/add_vline do the same but spend ~30 ms each on subplot bookkeeping;
    a page redraws on every slider move, so the shape and its label are added directly.
    """
    vertical = x is not None
    shape = (
        {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1}
        if vertical
        else {"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": y, "y1": y}
    )
    fig.add_shape(**shape, line=line, layer="above")
    if text:
        top = position.startswith("top")
        left = position.endswith("left")
        if vertical:
            fig.add_annotation(
                x=x,
                y=1 if top else 0,
                xref="x",
                yref="paper",
                text=text,
                showarrow=False,
                xanchor="right" if left else "left",
                yanchor="top" if top else "bottom",
            )
        else:
            fig.add_annotation(
                x=0 if left else 1,
                y=y,
                xref="paper",
                yref="y",
                text=text,
                showarrow=False,
                xanchor="left" if left else "right",
                yanchor="bottom" if top else "top",
            )


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    fig.update_layout(
        title=title,
        xaxis_title=x,
        yaxis_title=y,
        # the legend goes under the plot: above it, a legend that wraps runs into the title
        legend={"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0},
        margin={"l": 60, "r": 20, "t": 60, "b": 130},
        height=520,
        hovermode="closest",
    )
    return fig


RULE_SYMBOLS = {"threshold 0.5": "circle", "elkan": "diamond", "cost-optimal": "star"}
FAIR_SYMBOLS = ("square", "triangle-up", "pentagon", "hexagon", "triangle-down", "cross")


def cost_by_group_figure(
    curves: pd.DataFrame,
    markers: pd.DataFrame | None = None,
    *,
    unit: str = "",
    title: str = "Cost per 100 cases against the threshold",
) -> go.Figure:
    """One line per group of cost per 100 against the threshold.

    `curves`: long format ``group, threshold, cost_per_100`` (threshold +inf rows give the
    flag-nobody level, drawn as a labelled dashed horizontal line per group). `markers`:
    ``group, rule, threshold, cost_per_100`` points to mark (0.5, Elkan, cost-optimal...).
    """
    fig = _new_figure()
    groups = list(dict.fromkeys(curves["group"]))
    for i, g in enumerate(groups):
        part = curves[curves["group"] == g]
        finite = part[np.isfinite(part["threshold"])]
        x, y = thin_curve(finite["threshold"].to_numpy(), finite["cost_per_100"].to_numpy())
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines",
                line={"shape": "hv", "color": _color(i)},
                name=f"{g}",
                legendgroup=str(g),
                hovertemplate=f"threshold %{{x:.4g}}<br>cost per 100 %{{y:.4g}}<extra>{g}</extra>",
            )
        )
        nobody = part.loc[~np.isfinite(part["threshold"]), "cost_per_100"]
        if len(nobody):
            level = float(nobody.iloc[0])
            # labels alternate sides so that close levels do not print over each other
            _rule_line(
                fig,
                y=level,
                line={"dash": "dash", "color": _color(i), "width": 1},
                text=f"flag nobody ({plain(g)}): {money(level, unit)}",
                position="top left" if i % 2 == 0 else "bottom right",
            )
    if markers is not None and len(markers):
        fair = iter(FAIR_SYMBOLS * 4)
        for rule, part in markers.groupby("rule", sort=False):
            part = part[np.isfinite(part["threshold"])]
            symbol = RULE_SYMBOLS.get(str(rule)) or next(fair, "x")
            fig.add_trace(
                go.Scatter(
                    x=part["threshold"],
                    y=part["cost_per_100"],
                    mode="markers",
                    name=str(rule),
                    marker={
                        "symbol": symbol,
                        "size": 12,
                        "color": "white",
                        "line": {
                            "width": 2,
                            "color": [_color(groups.index(g)) if g in groups else "#000" for g in part["group"]],
                        },
                    },
                    text=part["group"],
                    hovertemplate=str(rule)
                    + " (%{text})<br>threshold %{x:.4g}<br>cost per 100 %{y:.4g}<extra></extra>",
                )
            )
    ylabel = f"cost per 100 cases ({unit})" if unit else "cost per 100 cases"
    _layout(fig, title, "threshold (flag if score ≥ threshold)", ylabel)
    return fig


def value_tau_figure(
    taus,
    values,
    *,
    tau_star: float,
    tau_opt: float,
    value_opt: float,
    reject_value: float = 0.0,
    label: str = "model",
    title: str = "Value per case against the confidence threshold",
) -> go.Figure:
    """Value against tau, with tau* and the data optimum marked and the "no model" line."""
    taus = np.asarray(taus)
    values = np.asarray(values)
    finite = np.isfinite(taus)
    x, y = thin_curve(taus[finite], values[finite])
    fig = _new_figure()
    fig.add_trace(
        go.Scatter(
            x=x,
            y=y,
            mode="lines",
            line={"shape": "hv", "color": _color(0)},
            name=label,
            hovertemplate="tau %{x:.4g}<br>value %{y:.4g}<extra></extra>",
        )
    )
    _rule_line(
        fig,
        y=reject_value,
        line={"dash": "dash", "color": NOBODY_COLOR},
        text=f"no model (reject all): {reject_value:.3g}",
        position="bottom left",
    )
    _rule_line(
        fig,
        x=tau_star,
        line={"dash": "dot", "color": _color(1)},
        text=f"τ* = k/(k+1) = {tau_star:.3f}",
        position="top left",
    )
    if np.isfinite(tau_opt):
        fig.add_trace(
            go.Scatter(
                x=[tau_opt],
                y=[value_opt],
                mode="markers",
                name="data-optimal τ",
                marker={"symbol": "star", "size": 14, "color": _color(2)},
                hovertemplate="optimal tau %{x:.4g}<br>value %{y:.4g}<extra></extra>",
            )
        )
    return _layout(fig, title, "confidence threshold τ (answer if confidence ≥ τ)", "value per case")


def value_k_figure(
    frame: pd.DataFrame,
    *,
    flips: pd.DataFrame | None = None,
    current_k: float | None = None,
    title: str = "Value per case against k, for every model",
) -> go.Figure:
    """Value against k per model: data-optimal tau solid, tau* dotted, "no model" dashed.

    `frame`: long format ``model, k, value, rule``. `flips`: ``k, leader`` where the
    ranking of the models changes.
    """
    fig = _new_figure()
    models = [m for m in dict.fromkeys(frame["model"]) if m != "no model"]
    for i, m in enumerate(models):
        for rule, dash in (("optimal", "solid"), ("tau*", "dot")):
            part = frame[(frame["model"] == m) & (frame["rule"] == rule)]
            if len(part):
                name = f"{m} (best τ)" if rule == "optimal" else f"{m} (τ* = k/(k+1))"
                fig.add_trace(
                    go.Scatter(
                        x=part["k"],
                        y=part["value"],
                        mode="lines",
                        name=name,
                        line={"color": _color(i), "dash": dash},
                        hovertemplate="k %{x:.3g}<br>value %{y:.4g}<extra>" + name + "</extra>",
                    )
                )
    base = frame[frame["rule"] == "no model"].drop_duplicates("k")
    if len(base):
        fig.add_trace(
            go.Scatter(
                x=base["k"],
                y=base["value"],
                mode="lines",
                name="no model",
                line={"color": NOBODY_COLOR, "dash": "dash"},
            )
        )
    if flips is not None:
        for i, (_, row) in enumerate(flips.iterrows()):
            # only the first flip is labelled: close flips would print their labels on each other
            _rule_line(fig, x=row["k"], line={"color": "#999", "width": 1},
                       text=f"{plain(row['leader'])} leads from k ≈ {row['k']:.2g}" if i == 0 else None,
                       position="top right")
    if current_k is not None:
        _rule_line(fig, x=current_k, line={"color": "#000", "dash": "dot", "width": 1})
    return _layout(fig, title, "k: how much worse a wrong answer is than a right one is good", "value per case")


def heatmap_figure(
    matrix,
    labels,
    *,
    title: str,
    colorbar: str,
    row_title: str = "true class",
    col_title: str = "decision",
    col_labels=None,
    fmt: str = ".3g",
) -> go.Figure:
    """Annotated heatmap (confusion counts or cost contributions)."""
    m = np.asarray(matrix, dtype=float)
    cols = list(col_labels) if col_labels is not None else list(labels)
    text = [[format(x, fmt) for x in row] for row in m]
    fig = _new_figure(
        go.Heatmap(
            z=m,
            x=cols,
            y=list(labels),
            colorscale="Blues",
            text=text,
            texttemplate="%{text}",
            colorbar={"title": colorbar},
            hovertemplate=row_title + " %{y}<br>" + col_title + " %{x}<br>%{z:.4g}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, title, col_title, row_title)


def delta_histogram(delta, *, groups=None, title: str = "Instance costs: distribution of delta") -> go.Figure:
    """Histogram of delta (negative: negative class; the size is the price of an error)."""
    d = np.asarray(delta, dtype=float)
    fig = _new_figure()
    if groups is None:
        fig.add_trace(go.Histogram(x=d, nbinsx=60, name="delta", marker_color=_color(0)))
    else:
        g = np.asarray(groups)
        for i, name in enumerate(pd.unique(g)):
            fig.add_trace(go.Histogram(x=d[g == name], nbinsx=60, name=str(name), marker_color=_color(i), opacity=0.6))
        fig.update_layout(barmode="overlay")
    _rule_line(
        fig,
        x=0,
        line={"color": NOBODY_COLOR, "dash": "dash"},
        text="delta = 0: label flips here",
        position="top right",
    )
    return _layout(fig, title, "delta (sign = label, size = price of an error)", "cases")


def nec_error_figure(table: pd.DataFrame, *, title: str = "Normalized excess cost beside the error rate") -> go.Figure:
    """Grouped bars per ``label`` (model or model / group) of ``error rate`` and ``NEC``."""
    fig = _new_figure()
    fig.add_trace(go.Bar(x=table["label"], y=table["error rate"], name="error rate", marker_color=_color(0)))
    fig.add_trace(
        go.Bar(x=table["label"], y=table["NEC"], name="NEC (mistakes weighted by |delta|)", marker_color=_color(1))
    )
    _rule_line(fig, y=0.5, line={"dash": "dash", "color": NOBODY_COLOR}, text="coin flip (0.5)")
    fig.update_layout(barmode="group")
    return _layout(fig, title, "", "share (0 perfect, 1 always wrong)")


def line_figure(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    color: str,
    title: str,
    x_title: str,
    y_title: str,
    baseline: float | None = None,
    baseline_label: str = "",
) -> go.Figure:
    """Generic step curves, one per `color` value, with an optional labelled baseline."""
    fig = _new_figure()
    for i, (name, part) in enumerate(frame.groupby(color, sort=False)):
        part = part[np.isfinite(part[x])]
        xs, ys = thin_curve(part[x].to_numpy(), part[y].to_numpy())
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line={"shape": "hv", "color": _color(i)}, name=str(name)))
    if baseline is not None:
        _rule_line(fig, y=baseline, line={"dash": "dash", "color": NOBODY_COLOR}, text=baseline_label)
    return _layout(fig, title, x_title, y_title)


def reliability_figure(
    curves: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]], *, title: str = "Reliability diagram"
) -> go.Figure:
    """Observed rate against mean predicted probability per bin, one trace per model."""
    fig = _new_figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1], y=[0, 1], mode="lines", name="perfectly calibrated", line={"dash": "dash", "color": NOBODY_COLOR}
        )
    )
    for i, (name, mean_pred, frac_pos, counts) in enumerate(curves):
        size = 6 + 14 * np.sqrt(np.asarray(counts) / max(1, np.max(counts)))
        fig.add_trace(
            go.Scatter(
                x=mean_pred,
                y=frac_pos,
                mode="lines+markers",
                name=name,
                marker={"size": size, "color": _color(i)},
                line={"color": _color(i)},
                customdata=counts,
                hovertemplate="predicted %{x:.3f}<br>observed %{y:.3f}<br>cases %{customdata}"
                "<extra>" + name + "</extra>",
            )
        )
    fig.update_xaxes(range=[0, 1])
    fig.update_yaxes(range=[0, 1])
    return _layout(fig, title, "mean predicted probability", "observed share positive")


def _categorical_scale(colors: Sequence[str]) -> list:
    k = len(colors)
    scale = []
    for i, col in enumerate(colors):
        scale += [[i / k, col], [(i + 1) / k, col]]
    return scale


def sensitivity_figure(
    grid: pd.DataFrame,
    *,
    c_fp: float | None = None,
    c_fn: float | None = None,
    unit: str = "",
    title: str = "Which option is cheapest at each pair of prices",
) -> go.Figure:
    """Categorical map of `audit.sensitivity_grid`'s ``best`` over (c_fp, c_fn), log axes, with
    the current prices marked. "flag nobody" is grey; each model has its own colour."""
    options = list(dict.fromkeys(grid["option"]))
    options = ["flag nobody"] + [o for o in options if o != "flag nobody"]
    colors = [NOBODY_COLOR] + [PALETTE[i % len(PALETTE)] for i in range(len(options) - 1)]
    best = grid.drop_duplicates(["c_fp", "c_fn"])
    wide = best.pivot(index="c_fn", columns="c_fp", values="best")
    code = wide.apply(lambda col: col.map({o: i for i, o in enumerate(options)})).to_numpy(dtype=float)
    fig = _new_figure(
        go.Heatmap(
            z=code,
            x=wide.columns.to_numpy(),
            y=wide.index.to_numpy(),
            text=wide.to_numpy().astype(str),
            colorscale=_categorical_scale(colors),
            zmin=-0.5,
            zmax=len(options) - 0.5,
            colorbar={"title": "cheapest", "tickvals": list(range(len(options))), "ticktext": options},
            hovertemplate="c_fp %{x:.3g}<br>c_fn %{y:.3g}<br>cheapest: %{text}<extra></extra>",
        )
    )
    if c_fp is not None and c_fn is not None:
        fig.add_trace(
            go.Scatter(
                x=[c_fp],
                y=[c_fn],
                mode="markers+text",
                name="your prices",
                marker={"symbol": "x", "size": 14, "color": "black"},
                text=["your prices"],
                textposition="top right",
                hovertemplate="your prices<br>c_fp %{x:.3g}<br>c_fn %{y:.3g}<extra></extra>",
            )
        )
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log")
    suffix = f" ({unit})" if unit else ""
    return _layout(fig, title, "price of a false positive, c_fp" + suffix, "price of a false negative, c_fn" + suffix)


def net_benefit_figure(
    curves: pd.DataFrame,
    *,
    price_threshold: float | None = None,
    title: str = "Net benefit against the threshold (test rows)",
) -> go.Figure:
    """Decision curves: each model, "flag everybody" and "flag nobody" (0), with the threshold
    that the current prices stand for (c_fp / (c_fp + c_fn)) marked."""
    fig = _new_figure()
    models = [o for o in dict.fromkeys(curves["option"]) if o not in ("flag everybody", "flag nobody")]
    for i, m in enumerate(models):
        part = curves[curves["option"] == m]
        fig.add_trace(
            go.Scatter(
                x=part["threshold"],
                y=part["net_benefit"],
                mode="lines",
                name=str(m),
                line={"color": PALETTE[i % len(PALETTE)]},
            )
        )
    styles = {
        "flag everybody": {"color": "#999999", "dash": "dot"},
        "flag nobody": {"color": NOBODY_COLOR, "dash": "dash"},
    }
    for option, line in styles.items():
        part = curves[curves["option"] == option]
        if len(part):
            fig.add_trace(go.Scatter(x=part["threshold"], y=part["net_benefit"], mode="lines", name=option, line=line))
    if len(curves):
        top = float(np.nanmax(curves["net_benefit"].to_numpy(float)))
        fig.update_yaxes(range=[-0.05 - 0.1 * abs(top), 1.15 * max(top, 0.01)])
    if price_threshold is not None and np.isfinite(price_threshold):
        _rule_line(
            fig,
            x=price_threshold,
            line={"color": "#000", "dash": "dot", "width": 1},
            text=f"your prices: t = {price_threshold:.3f}",
            position="top right",
        )
    return _layout(fig, title, "threshold probability t (flag if score ≥ t)", "net benefit per case")


def rule_bars_figure(
    table: pd.DataFrame, *, unit: str = "", title: str = "Cost per 100 cases per group and rule, with 95% intervals"
) -> go.Figure:
    """Grouped bars of cost per 100 (x: group, one bar per rule) with the bootstrap intervals."""
    fig = _new_figure()
    for i, (rule, part) in enumerate(table.groupby("rule", sort=False)):
        y = part["cost_per_100"].to_numpy(float)
        low = part["low"].to_numpy(float) if "low" in part else np.full_like(y, np.nan)
        high = part["high"].to_numpy(float) if "high" in part else np.full_like(y, np.nan)
        color = NOBODY_COLOR if rule == "flag nobody" else PALETTE[i % len(PALETTE)]
        fig.add_trace(
            go.Bar(
                x=[str(g) for g in part["group"]],
                y=y,
                name=str(rule),
                marker_color=color,
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": np.nan_to_num(high - y),
                    "arrayminus": np.nan_to_num(y - low),
                },
                customdata=np.column_stack([low, high]),
                hovertemplate=str(rule) + "<br>%{x}: %{y:.3g} [%{customdata[0]:.3g}, %{customdata[1]:.3g}]"
                "<extra></extra>",
            )
        )
    fig.update_layout(barmode="group")
    return _layout(fig, title, "group", f"cost per 100 cases ({unit})" if unit else "cost per 100 cases")


def mark_x(fig: go.Figure, x: float, *, text: str | None = None) -> go.Figure:
    """Mark a position on the x axis (the current threshold) with a dotted vertical line."""
    _rule_line(fig, x=x, line={"dash": "dot", "color": "#000", "width": 1}, text=text)
    return fig
