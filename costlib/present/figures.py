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

from costlib.core import rules as R
from costlib.core.sweep import thin_index
from costlib.present.amounts import money, ratio_text
from costlib.present.escaping import plain

PALETTE = ["#1f5fa8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f", "#c26b2d"]
NOBODY_COLOR = "#555555"
MAX_POINTS = 4000


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def thin_curve(x: np.ndarray, y: np.ndarray, max_points: int = MAX_POINTS):
    """At most about `max_points` points of (x, y) for drawing, extremes kept (`sweep.thin_index`)."""
    x = np.asarray(x)
    y = np.asarray(y, dtype=float)
    if x.size <= max_points:
        return x, y
    idx = thin_index(y, max_points)
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
    """A labelled horizontal (y=) or vertical (x=) line across the plot (`_rule_line_spec`)."""
    shape, note = _rule_line_spec(x=x, y=y, line=line, text=text, position=position)
    fig.add_shape(shape)
    if note:
        fig.add_annotation(note)


def _rule_line_spec(
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
    note = {"text": plain(text), "showarrow": False}
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


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    """Title, axis titles (escaped: they may hold user text), legend under the plot."""
    fig.update_layout(_layout_spec(title, x, y))
    return fig


def _layout_spec(title: str, x: str, y: str) -> dict:
    return {
        "title": {"text": plain(title)},
        "xaxis": {"title": {"text": plain(x)}},
        "yaxis": {"title": {"text": plain(y)}},
        # the legend goes under the plot: above it, a legend that wraps runs into the title
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0},
        "margin": {"l": 60, "r": 20, "t": 60, "b": 130},
        "height": 520,
        "hovermode": "closest",
    }


RULE_SYMBOLS = {R.THRESHOLD_05: "circle", R.ELKAN: "diamond", R.SINGLE: "star", R.COST_OPTIMAL: "star-triangle-up"}
EVERYONE_COLOR = "#999999"


def markers_frame(rec) -> pd.DataFrame:
    """The points a cost curve marks, from a `decision.Recommendation`: long format
    ``line, rule, threshold, cost_per_case`` (line None: everybody at one cutoff)."""
    res = rec.results
    rows = []
    for rule in (R.THRESHOLD_05, R.ELKAN, R.SINGLE):
        if rule in res.cutoffs:
            cut = list(res.cutoffs[rule].values())
            if cut and all(c == cut[0] for c in cut) and np.isfinite(cut[0]):
                rows.append(
                    {
                        "line": None,
                        "rule": rule,
                        "threshold": cut[0],
                        "cost_per_case": float(res.overall.loc[rule, "cost_per_case"]),
                    }
                )
    if rec.grouped and R.COST_OPTIMAL in res.cutoffs:
        part = res.by_group[res.by_group["rule"] == R.COST_OPTIMAL]
        for g, t, c in zip(part["group"], part["threshold"], part["cost_per_case"], strict=True):
            if np.isfinite(t):
                rows.append({"line": g, "rule": R.COST_OPTIMAL, "threshold": t, "cost_per_case": c})
    frame = pd.DataFrame(rows, columns=["line", "rule", "threshold", "cost_per_case"])
    frame.attrs["recommended"] = rec.rule
    frame.attrs["levels"] = {rule: float(res.overall.loc[rule, "cost_per_case"]) for rule in R.BASELINES}
    return frame


def cost_curve_figure(
    curves: pd.DataFrame,
    markers: pd.DataFrame | None = None,
    *,
    unit: str = "",
    title: str = "Cost per case against the cutoff",
) -> go.Figure:
    """Cost per case against one cutoff (flag iff score >= cutoff), exact at every score.

    `curves` is `decision.cost_curves`: the line None (everybody at one cutoff) drawn thick;
    one thin line per group. `markers` (`markers_frame`) marks the 0.5, formula and fitted
    cutoffs, and its ``attrs["levels"]`` draws the two decisions without a model (flag
    nobody, flag everyone) as labelled dashed lines.
    """
    traces = []
    lines = list(dict.fromkeys(curves["line"]))
    for i, line in enumerate(lines):
        part = curves[curves["line"].isna()] if line is None else curves[curves["line"] == line]
        finite = part[np.isfinite(part["threshold"])]
        x, y = thin_curve(finite["threshold"].to_numpy(), finite["cost_per_case"].to_numpy())
        name = "everyone, one cutoff" if line is None else plain(f"group {line} (its own cost per case)")
        traces.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "lines",
                "name": name,
                "legendgroup": name,
                "line": {
                    "shape": "hv",
                    "color": _color(0) if line is None else _color(i),
                    "width": 3 if line is None else 1,
                },
                "opacity": 1.0 if line is None else 0.6,
                "hovertemplate": "cutoff %{x:.4g}<br>cost per case %{y:.4g}<extra>%{fullData.name}</extra>",
            }
        )
    if markers is not None:
        recommended = markers.attrs.get("recommended")
        for rule, part in markers.groupby("rule", sort=False):
            label = R.rule_words(str(rule)) + (" (recommended)" if rule == recommended else "")
            on_groups = part["line"].notna().any()
            traces.append(
                {
                    "type": "scatter",
                    "x": part["threshold"].to_numpy(),
                    "y": part["cost_per_case"].to_numpy(),
                    "mode": "markers",
                    "name": plain(label),
                    "marker": {
                        "symbol": RULE_SYMBOLS.get(str(rule), "x"),
                        "size": 15 if rule == recommended else 11,
                        "color": "#111" if rule == recommended else "white",
                        "line": {
                            "width": 2,
                            "color": [
                                _color(0) if g is None else _color(lines.index(g)) if g in lines else "#000"
                                for g in part["line"]
                            ],
                        },
                    },
                    "text": [plain(g) if on_groups and g is not None else "everyone" for g in part["line"]],
                    "hovertemplate": "%{fullData.name} (%{text})<br>cutoff %{x:.4g}<br>"
                    "cost per case %{y:.4g}<extra></extra>",
                }
            )
    shapes, notes = [], []
    for rule, level in (markers.attrs.get("levels", {}) if markers is not None else {}).items():
        color = NOBODY_COLOR if rule == R.NOBODY else EVERYONE_COLOR
        shape, note = _rule_line_spec(
            y=level,
            line={"dash": "dash", "color": color, "width": 1},
            text=f"{R.rule_words(rule)} (no model): {money(level, unit)}",
            position="top left" if rule == R.NOBODY else "bottom right",
        )
        shapes.append(shape)
        notes.append(note)
    ylabel = f"cost per case ({unit})" if unit else "cost per case"
    layout = _layout_spec(title, "cutoff (flag a case when its score is at least this)", ylabel)
    # one figure from one spec, validated once: a price move redraws this chart, and building
    # it trace by trace through Plotly's objects cost more than everything else in the move
    return go.Figure({"data": traces, "layout": {"template": {}, **layout, "shapes": shapes, "annotations": notes}})


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
    unit: str = "",
) -> go.Figure:
    """Value against tau, with tau* and the fitted threshold marked and the "hand everything
    over" line. `values` are in `unit` per case (or in right answers without a unit)."""
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
            name=plain(label),
            hovertemplate="threshold %{x:.4g}<br>worth %{y:.4g}<extra></extra>",
        )
    )
    _rule_line(
        fig,
        y=reject_value,
        line={"dash": "dash", "color": NOBODY_COLOR},
        text=f"hand everything over: {money(reject_value, unit)}",
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
                name="threshold fitted on the train rows (recommended)",
                marker={"symbol": "star", "size": 16, "color": "#111"},
                hovertemplate="threshold %{x:.4g}<br>worth %{y:.4g}<extra></extra>",
            )
        )
    y_title = f"worth per case ({unit})" if unit else "value per case (right answers)"
    return _layout(fig, title, "confidence threshold τ (answer when the confidence is at least τ)", y_title)


def value_k_figure(
    frame: pd.DataFrame,
    *,
    flips: pd.DataFrame | None = None,
    current_k: float | None = None,
    title: str = "Worth per case against k, for every model",
    unit: str = "",
) -> go.Figure:
    """Value against k per model: data-optimal tau solid, tau* dotted, "hand everything over"
    dashed. Values in `unit` per case (right answers without a unit).

    `frame`: long format ``model, k, value, rule``. `flips`: ``k, leader`` where the
    ranking of the models changes.
    """
    fig = _new_figure()
    models = [m for m in dict.fromkeys(frame["model"]) if m != "no model"]
    for i, m in enumerate(models):
        for rule, dash in (("optimal", "solid"), ("tau*", "dot")):
            part = frame[(frame["model"] == m) & (frame["rule"] == rule)]
            if len(part):
                name = plain(f"{m} (best τ)" if rule == "optimal" else f"{m} (τ* = k/(k+1))")
                fig.add_trace(
                    go.Scatter(
                        x=part["k"],
                        y=part["value"],
                        mode="lines",
                        name=name,
                        line={"color": _color(i), "dash": dash},
                        hovertemplate="k %{x:.3g}<br>value %{y:.4g}<extra>%{fullData.name}</extra>",
                    )
                )
    base = frame[frame["rule"] == "no model"].drop_duplicates("k")
    if len(base):
        fig.add_trace(
            go.Scatter(
                x=base["k"],
                y=base["value"],
                mode="lines",
                name="hand everything over",
                line={"color": NOBODY_COLOR, "dash": "dash"},
            )
        )
    if flips is not None:
        for i, (_, row) in enumerate(flips.iterrows()):
            # only the first flip is labelled: close flips would print their labels on each other
            _rule_line(
                fig,
                x=row["k"],
                line={"color": "#999", "width": 1},
                text=f"the models' order at τ* changes at k ≈ {row['k']:.2g}" if i == 0 else None,
                position="top right",
            )
    if current_k is not None:
        _rule_line(fig, x=current_k, line={"color": "#000", "dash": "dot", "width": 1})
    return _layout(
        fig,
        title,
        "k: how much worse a wrong answer is than a right one is good",
        f"worth per case ({unit})" if unit else "value per case (right answers)",
    )


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
    cols = [plain(c) for c in (col_labels if col_labels is not None else labels)]
    text = [[format(x, fmt) for x in row] for row in m]
    fig = _new_figure(
        go.Heatmap(
            z=m,
            x=cols,
            y=[plain(c) for c in labels],
            colorscale="Blues",
            text=text,
            texttemplate="%{text}",
            colorbar={"title": plain(colorbar)},
            hovertemplate=plain(row_title) + " %{y}<br>" + plain(col_title) + " %{x}<br>%{z:.4g}<extra></extra>",
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
            fig.add_trace(
                go.Histogram(x=d[g == name], nbinsx=60, name=plain(name), marker_color=_color(i), opacity=0.6)
            )
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
    labels = [plain(x) for x in table["label"]]
    fig.add_trace(go.Bar(x=labels, y=table["error rate"], name="error rate", marker_color=_color(0)))
    fig.add_trace(go.Bar(x=labels, y=table["NEC"], name="NEC (mistakes weighted by |delta|)", marker_color=_color(1)))
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
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line={"shape": "hv", "color": _color(i)}, name=plain(name)))
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
                name=plain(name),
                # later curves (after rescaling) dotted and see-through: the first one stays visible
                marker={"size": size if i == 0 else size * 0.7, "color": _color(i), "opacity": 1.0 if i == 0 else 0.7},
                line={"color": _color(i), "dash": "solid" if i == 0 else "dot"},
                customdata=counts,
                hovertemplate="predicted %{x:.3f}<br>observed %{y:.3f}<br>cases %{customdata}"
                "<extra>%{fullData.name}</extra>",
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
    bracket: tuple[float, float] | None = None,
) -> go.Figure:
    """Categorical map of `audit.sensitivity_grid`'s ``best`` over (c_fp, c_fn), log axes with
    readable ticks, the current prices marked (and, with `bracket` = (low, high) ratios from
    Find my prices, the range of c_fn those answers allow at this c_fp). The two decisions
    without a model are grey."""
    options = list(dict.fromkeys(grid["option"]))
    no_model = [o for o in (R.NOBODY, R.EVERYONE) if o in options]
    options = no_model + [o for o in options if o not in no_model]
    colors = [NOBODY_COLOR, EVERYONE_COLOR][: len(no_model)] + [
        PALETTE[i % len(PALETTE)] for i in range(len(options) - len(no_model))
    ]
    best = grid.drop_duplicates(["c_fp", "c_fn"])
    wide = best.pivot(index="c_fn", columns="c_fp", values="best")
    code = wide.apply(lambda col: col.map({o: i for i, o in enumerate(options)})).to_numpy(dtype=float)
    shown = [plain(R.rule_words(o)) for o in options]
    fig = _new_figure(
        go.Heatmap(
            z=code,
            x=wide.columns.to_numpy(),
            y=wide.index.to_numpy(),
            text=np.vectorize(lambda o: plain(R.rule_words(o)) if isinstance(o, str) else "", otypes=[object])(
                wide.to_numpy()
            ),
            colorscale=_categorical_scale(colors),
            zmin=-0.5,
            zmax=len(options) - 0.5,
            colorbar={"title": "cheapest", "tickvals": list(range(len(options))), "ticktext": shown},
            hovertemplate="c_fp %{x:.3g}<br>c_fn %{y:.3g}<br>cheapest: %{text}<extra></extra>",
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
                hovertemplate="your prices<br>c_fp %{x:.3g}<br>c_fn %{y:.3g}<extra></extra>",
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
                hovertemplate="from your answers<br>c_fn %{y:.3g}<extra></extra>",
            )
        )
    ticks = _log_ticks(wide.columns.to_numpy(dtype=float))
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    suffix = f" ({unit})" if unit else ""
    return _layout(fig, title, "price of a false positive, c_fp" + suffix, "price of a false negative, c_fn" + suffix)


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


def net_benefit_figure(
    curves: pd.DataFrame,
    *,
    price_threshold: float | None = None,
    title: str = "Net benefit against the threshold (test rows)",
) -> go.Figure:
    """Decision curves: each model, "flag everyone" and "flag nobody" (0), with the threshold
    that the current prices stand for (c_fp / (c_fp + c_fn)) marked."""
    fig = _new_figure()
    models = [o for o in dict.fromkeys(curves["option"]) if o not in R.BASELINES]
    for i, m in enumerate(models):
        part = curves[curves["option"] == m]
        fig.add_trace(
            go.Scatter(
                x=part["threshold"],
                y=part["net_benefit"],
                mode="lines",
                name=plain(m),
                line={"color": PALETTE[i % len(PALETTE)]},
            )
        )
    styles = {R.EVERYONE: {"color": EVERYONE_COLOR, "dash": "dot"}, R.NOBODY: {"color": NOBODY_COLOR, "dash": "dash"}}
    for option, line in styles.items():
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
        _rule_line(
            fig,
            x=price_threshold,
            line={"color": "#000", "dash": "dot", "width": 1},
            text=f"formula cutoff for your prices, c_fp/(c_fp+c_fn) = {price_threshold:.3f}",
            position="top right",
        )
    return _layout(fig, title, "threshold probability t (flag if score ≥ t)", "net benefit per case")


def rule_bars_figure(
    by_group: pd.DataFrame, *, unit: str = "", title: str = "Cost per case per group and rule, with 95% intervals"
) -> go.Figure:
    """Grouped bars of cost per case (x: group, one bar per rule) with the bootstrap intervals.

    `by_group` is `decision.RuleResults.by_group` (``rule, group, cost_per_case, low, high``).
    """
    fig = _new_figure()
    j = 0  # the rules with a model get the palette in turn; fairness rules are hatched besides
    for rule, part in by_group.groupby("rule", sort=False):
        y = part["cost_per_case"].to_numpy(float)
        low = part["low"].to_numpy(float) if "low" in part else np.full_like(y, np.nan)
        high = part["high"].to_numpy(float) if "high" in part else np.full_like(y, np.nan)
        if rule in (R.NOBODY, R.EVERYONE):
            color = NOBODY_COLOR if rule == R.NOBODY else EVERYONE_COLOR
        else:
            color, j = PALETTE[j % len(PALETTE)], j + 1
        fig.add_trace(
            go.Bar(
                x=[plain(g) for g in part["group"]],
                y=y,
                name=plain(R.rule_words(str(rule))),
                marker_color=color,
                marker_pattern_shape="/" if R.is_fair(str(rule)) else "",
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": np.nan_to_num(high - y),
                    "arrayminus": np.nan_to_num(y - low),
                },
                customdata=np.column_stack([low, high]),
                hovertemplate="%{fullData.name}<br>%{x}: %{y:.3g} [%{customdata[0]:.3g}, %{customdata[1]:.3g}]"
                "<extra></extra>",
            )
        )
    fig.update_layout(barmode="group")
    return _layout(fig, title, "group", f"cost per case ({unit})" if unit else "cost per case")


def ratio_pieces_figure(
    table: pd.DataFrame,
    *,
    low: float,
    high: float,
    names: tuple[str, str],
    title: str = "The best cutoff for every price ratio (train rows)",
) -> go.Figure:
    """The cost-optimal cutoff against the ratio c_fn / c_fp (log axis), exact pieces drawn
    as steps, with the bracket of the answers so far shaded. `table`: `elicit.pieces`."""
    fig = _new_figure()
    left = max(float(table["ratio_low"].iloc[0]), 1e-9)
    xs = [max(x, left) for x in table["ratio_low"]] + [float(table["ratio_high"].iloc[-1])]
    ts = table["threshold"].to_numpy(dtype=float)
    ys = [t if np.isfinite(t) else None for t in ts] + [ts[-1] if np.isfinite(ts[-1]) else None]
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines",
            line={"color": _color(0), "width": 3, "shape": "hv"},
            connectgaps=False,
            name="best cutoff",
            hovertemplate="ratio %{x:.3g}<br>cutoff %{y:.4g}<extra></extra>",
        )
    )
    for row in table[~np.isfinite(table["threshold"])].itertuples():
        fig.add_trace(
            go.Scatter(
                x=[max(row.ratio_low, left), row.ratio_high],
                y=[1.02, 1.02],
                mode="lines",
                line={"color": NOBODY_COLOR, "dash": "dash"},
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
        fillcolor=_color(2),
        opacity=0.15,
        line={"width": 0},
        layer="below",
    )
    _rule_line(
        fig,
        x=float(np.sqrt(low * high)),
        line={"color": _color(2), "dash": "dot", "width": 1},
        text=f"your range: {ratio_text(low)} to {ratio_text(high)}",
        position="top right",
    )
    fig.update_xaxes(type="log")
    return _layout(
        fig,
        title,
        f"how many times worse {names[0]} is than {names[1]} (c_fn / c_fp)",
        "cutoff (flag a case when its score is at least this)",
    )


def mark_x(fig: go.Figure, x: float, *, text: str | None = None) -> go.Figure:
    """Mark a position on the x axis (the current threshold) with a dotted vertical line."""
    _rule_line(fig, x=x, line={"dash": "dot", "color": "#000", "width": 1}, text=text)
    return fig
