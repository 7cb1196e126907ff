"""Plotly figure builders, and the one place the pages import them from. Each takes computed
results and returns a Figure; none shows it.

The figures of the Value, Cost matrix and Instance costs pages are built here (Calibration's in `calibration_figures`);
the cost figures (cost curve, rule bars, capacity) in `costlib.present.cost_figures`, how the
answer moves with the prices (sensitivity map, net benefit, ratio pieces) in
`costlib.present.price_figures`, and what every builder shares (palette, thinning, layout) in
`costlib.present.plotting`. All are re-exported here, so a page reads ``figures.<name>``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.core.escaping import plain
from costlib.present.amounts import cutoff_number, money
from costlib.present.cost_figures import (  # noqa: F401 (re-exported: the pages read figures.cost_curve_figure)
    LABEL_CHAR_PX,
    capacity_figure,
    cost_curve_figure,
    markers_frame,
    rule_bars_figure,
)
from costlib.present.plotting import (  # noqa: F401 (re-exported: the pages read figures.MAX_POINTS, figures.mark_x)
    ALERT_COLOR,
    GUIDE_COLOR,
    MARGIN_RIGHT,
    MAX_POINTS,
    NOBODY_COLOR,
    PALETTE,
    WITHOUT_LIMIT_SYMBOL,
    apply_layout,
    cost_axis,
    figure_from_spec,
    figure_without_template,
    layout_spec,
    mark_x,
    palette_color,
    rule_line,
    rule_line_spec,
    series_bar_pattern,
    series_dash,
    series_line,
    series_symbol,
    step_points,
    thin_curve,
)
from costlib.present.price_figures import (  # noqa: F401 (re-exported: the pages read figures.sensitivity_figure)
    net_benefit_figure,
    ratio_pieces_figure,
    sensitivity_figure,
)


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
    no_model: tuple[str, float] | None = None,
    unlimited: tuple[float, float] | None = None,
    fitted_on: str = " on the train rows",
    shipped: bool = True,
) -> go.Figure:
    """Value against tau, with tau* and the fitted threshold marked (named "recommended" when
    `shipped`: the verdict ships that threshold) and the "hand everything over" line, named with its
    worth in the legend (or `no_model`, (words, worth): the choice without a model that a limit on
    hand-overs leaves); `unlimited` = (tau, value) marks with a hollow star the best threshold
    without that limit. `values` are in `unit` per case (or in right answers without a unit).
    `fitted_on` says where the marked threshold was fitted (`page_answers.value_rows`); the
    lowest threshold's worth is held down to the plot's left edge (`_held_down`). Built from one spec
    (`figure_from_spec`): the k slider redraws it."""
    taus = np.asarray(taus)
    values = np.asarray(values)
    finite = np.isfinite(taus)
    x, y = step_points(*thin_curve(taus[finite], values[finite]), MAX_POINTS // 4)
    x_range = _tau_range([*x, *_lowest_held(x), tau_star, tau_opt])
    x, y = _held_down(x, y, x_range)
    hover = "threshold %{x:.4g}<br>worth %{y:.4g}<extra></extra>"
    traces = [
        {
            "type": "scatter",
            "x": x,
            "y": y,
            "mode": "lines",
            "line": {"color": palette_color(0)},  # steps drawn where they show (`step_points`)
            "name": plain(label),
            "hovertemplate": hover,
        }
    ]
    words, level = no_model if no_model is not None else ("hand everything over", reject_value)
    near_left = tau_star - x_range[0] < 0.25 * (x_range[1] - x_range[0])  # its label to its right, not cut off
    # the choice without the model in the legend, dashed: its words in the plot ran into the curve
    # wherever the curve crossed the plot's lower left corner (COMPAS at k = 2)
    traces.append(_level_trace(f"{words}: {money(level, unit)}", level, x_range))
    marks = [
        rule_line_spec(
            x=tau_star,
            line={"dash": "dot", "color": palette_color(1)},
            text=f"threshold from prices alone: {cutoff_number(tau_star)}",
            position="top right" if near_left else "top left",
        ),
    ]
    # above the plot area, beside its line's top: inside it, the label sat on the "hand everything
    # over" line whenever that line ran along the top, and read as struck through (review 58)
    marks[0][1].update(y=1, yanchor="bottom")
    stars = [(f"threshold fitted{fitted_on}" + (" (recommended)" if shipped else ""), "star", tau_opt, value_opt)]
    if unlimited is not None:
        stars.append(("best without the limit on hand-overs", WITHOUT_LIMIT_SYMBOL, *unlimited))
    for name, symbol, tx, ty in stars:
        if np.isfinite(tx):
            traces.append(
                {
                    "type": "scatter",
                    "x": [float(tx)],
                    "y": [float(ty)],
                    "mode": "markers",
                    "name": name,
                    "marker": {"symbol": symbol, "size": 16, "color": "#111"},
                    "hovertemplate": hover,
                }
            )
    y_title = f"worth per case ({unit})" if unit else "value per case (right answers)"
    layout = layout_spec(title, "confidence threshold (answer when the model's confidence is at least this)", y_title)
    layout["xaxis"]["range"] = x_range
    layout["margin"] = {**layout["margin"], "t": 80}  # room for that label under the title
    return figure_from_spec(traces, {**layout, "shapes": [m[0] for m in marks], "annotations": [m[1] for m in marks]})


def value_outcome_figure(
    lines: list[tuple[str, np.ndarray, np.ndarray]],
    marks: list[tuple[str, float, float]],
    *,
    level: float,
    level_text: str,
    title: str,
    marks_name: str = "thresholds fitted",
    unit: str = "",
) -> go.Figure:
    """Worth per case against the confidence threshold when each answer has a threshold of its
    own: `lines`, (name, thresholds, values), each one answer's threshold moving while the other's
    stays (`value.per_outcome.outcome_curves`; an infinite threshold, that answer never accepted,
    is not drawn; the lowest threshold's worth is held down to the plot's left edge, `_held_down`), told apart by
    dash and marker shape as well as colour; `marks`, (words, threshold, worth), the fitted
    thresholds, each a star with its words above the plot, joined to it by a dotted line
    (`_star_words`; notes of the plot: the chart's table keeps to its three columns), in one legend
    entry `marks_name`; and a dashed line at `level`, the best choice without the model, named
    `level_text` in the legend. Values in `unit` per case (right answers without a unit). Built
    from one spec."""
    hover = "threshold %{x:.4g}<br>worth %{y:.4g}<extra>%{fullData.name}</extra>"
    curves, xs = [], []
    for taus, values in (line[1:] for line in lines):
        taus, values = np.asarray(taus, dtype=float), np.asarray(values, dtype=float)
        keep = np.flatnonzero(np.isfinite(taus))
        keep = keep[np.argsort(-taus[keep], kind="stable")]  # from the top: each value holds down to the next level
        x, y = step_points(*thin_curve(taus[keep], values[keep]), MAX_POINTS // 4)
        curves.append((x, y))
        xs += [*x, *_lowest_held(x)]
    shown = sorted((float(x), float(y), w) for w, x, y in marks if np.isfinite(x))
    xs += [x for x, _, _ in shown]
    x_range = _tau_range(xs)
    traces = []
    for i, ((name, _, _), (x, y)) in enumerate(zip(lines, curves, strict=True)):
        x, y = _held_down(x, y, x_range)
        traces.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "lines+markers",
                "name": plain(name),
                "line": series_line(i, width=2),
                # a few markers of its own shape along the line, not one per point
                "marker": {"symbol": series_symbol(i), "size": 8, "color": palette_color(i), "maxdisplayed": 14},
                "hovertemplate": hover,
            }
        )
    # the best choice without the model in the legend, dashed: its words in the plot ran into the lines
    traces.append(_level_trace(level_text, level, x_range))
    ys = [v for t in traces for v in t["y"]] + [y for _, y, _ in shown]
    y_range = _value_range(ys)
    words, guides, rows = _star_words(shown, x_range, y_range)
    if shown:
        traces.append(
            {
                "type": "scatter",
                "x": [x for x, _, _ in shown],
                "y": [y for _, y, _ in shown],
                "mode": "markers",
                "name": plain(marks_name),
                "marker": {"symbol": "star", "size": 16, "color": "#111", "line": {"width": 1, "color": "white"}},
                "hovertemplate": hover,
            }
        )
    y_title = f"worth per case ({unit})" if unit else "value per case (right answers)"
    layout = layout_spec(title, "confidence threshold (answer when the model's confidence is at least this)", y_title)
    layout["xaxis"]["range"] = x_range
    layout["yaxis"]["range"] = y_range
    layout["margin"] = {**layout["margin"], "t": layout["margin"]["t"] + STAR_ROW * rows}  # room for the words
    return figure_from_spec(traces, {**layout, "shapes": guides, "annotations": words})


#: the least confidence an answer of the Value page has: the larger of its two chances (the one price's
#: rule and `value.per_outcome`'s alike), so a threshold at or below it accepts every answer it can
LEAST_CONFIDENCE = 0.5


def _lowest_held(x) -> list[float]:
    """Where a Value curve drawn from its highest threshold down (`_held_down`) ends: [0.5], the
    least confidence, when its lowest threshold is above it (the threshold axis takes it in), else []."""
    return [LEAST_CONFIDENCE] if len(x) and x[-1] > LEAST_CONFIDENCE else []


def _held_down(x: np.ndarray, y: np.ndarray, x_range: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """A Value curve (`x` its thresholds from the highest down, as `step_points` joins them: each worth
    holds from its threshold down to the next lower one) with its lowest threshold's worth held on down
    to the plot's left edge (at 0.5, `LEAST_CONFIDENCE`, or further left where a mark sits there): every
    lower threshold accepts the same answers, all of them. Without it, that worth had no width: the line
    rose to it at its very end, straight up under the star of a threshold fitted there (accept every
    answer; COMPAS at $1 / $3: the star at $0.129 over a line that read $0.117 up to it); and held only
    to 0.5 it stopped in mid-plot where the axis ran on to a mark at 0 (k = 0)."""
    if not len(x) or not np.isfinite(x[-1]):
        return x, y
    end = x_range[0]
    if end >= x[-1]:
        return x, y
    return np.append(x, end), np.append(y, y[-1])


STAR_ROW = 20  # pixels: one row of a fitted threshold's words above the plot (`_star_words`)


def _level_trace(name: str, level: float, x_range: list[float]) -> dict:
    """A dashed line across the plot at `level`, named in the legend by `name` (the choice without the
    model and its worth): a trace, not a line with words in the plot, where the curves cannot cross it."""
    return {
        "type": "scatter",
        "x": list(x_range),
        "y": [float(level)] * 2,
        "mode": "lines",
        "name": plain(name),
        "line": {"dash": "dash", "color": NOBODY_COLOR},
        "hovertemplate": "worth %{y:.4g}<extra>%{fullData.name}</extra>",
    }


def _value_range(ys) -> list[float]:
    """The worth axis's range over `ys`, padded by 8% (a star at the top or the bottom inside it):
    set, not left to plotly, so that a fitted threshold's guide (`_star_words`) ends at the plot's edge."""
    ys = np.asarray([v for v in ys if v is not None], dtype=float)
    ys = ys[np.isfinite(ys)]
    if not ys.size:
        return [0.0, 1.0]
    lo, hi = float(ys.min()), float(ys.max())
    pad = 0.08 * (hi - lo) if hi > lo else max(0.05 * abs(hi), 0.05)
    return [lo - pad, hi + pad]


def _star_words(shown: list[tuple[float, float, str]], x_range: list[float], y_range: list[float]):
    """(annotations, shapes, rows of words): each fitted threshold's words above the plot, where no line can run
    through them (inside it, on offensive at $1 / $3, "negative from 0.7441: $0.802" sat under its star
    on the dashed line and the curves and read as struck through), each joined to its star by a thin
    dotted line up from it; `shown`, (x, y, words), sorted by x.

    Far apart (more than half the axis), the two share a row, each toward the middle from its star,
    so neither is cut at the chart's edge nor reaches the other. Closer, each has a row of its own
    and both run the same way, away from the nearer edge of the plot: the star nearer that way gets
    the row next to the plot, so the other's line up to the row above passes beside its words, never
    through them."""
    if not shown:
        return [], [], 0
    lo, hi = x_range
    mid, width = (lo + hi) / 2, hi - lo
    far = len(shown) < 2 or shown[-1][0] - shown[0][0] > width / 2
    if far:
        placed = [(x, y, w, 0, "right" if x > mid else "left") for x, y, w in shown]
    else:
        toward = "right" if sum(x for x, _, _ in shown) / len(shown) > mid else "left"  # the words' anchor
        # running right (anchored left): the rightmost star's words next to the plot; running left, the leftmost's
        order = shown[::-1] if toward == "left" else shown
        placed = [(x, y, w, row, toward) for row, (x, y, w) in enumerate(order)]
    rows = 1 + max(p[3] for p in placed)
    size = layout_spec("", "", "")  # the plot's height at the charts' size and margins, less the rows
    plot_px = size["height"] - size["margin"]["t"] - size["margin"]["b"] - STAR_ROW * rows
    words, guides = [], []
    for x, y, w, row, anchor in placed:
        words.append(
            {
                "x": x,
                "y": 1,
                "xref": "x",
                "yref": "paper",
                "text": plain(w),
                "showarrow": False,
                "xanchor": anchor,
                "yanchor": "bottom",
                "xshift": -4 if anchor == "right" else 4,
                "yshift": 2 + STAR_ROW * row,
                "font": {"color": "#000"},
            }
        )
        at = (y - y_range[0]) / (y_range[1] - y_range[0])  # the star, as a share of the plot's height
        guides.append(
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": x,
                "x1": x,
                "y0": at,
                "y1": 1 + (STAR_ROW * row + 4) / plot_px,  # up to its words' row
                "line": {"dash": "dot", "color": GUIDE_COLOR, "width": 1},
                "layer": "below",
            }
        )
    return words, guides, rows


def _tau_range(xs) -> list[float]:
    """The threshold axis's range over `xs` (the curve, tau* and the fitted threshold), padded by
    3% and never below 0 when no threshold is: a confidence is not negative, and plotly's own
    range pads a line at tau* = 0 (k = 0) out to -0.1."""
    xs = np.asarray([v for v in xs if v is not None], dtype=float)
    xs = xs[np.isfinite(xs)]
    if not xs.size:
        return [0.0, 1.0]
    lo, hi = float(xs.min()), float(xs.max())
    pad = 0.03 * (hi - lo) if hi > lo else 0.05
    return [max(lo - pad, 0.0) if lo >= 0 else lo - pad, hi + pad]


def value_k_figure(
    frame: pd.DataFrame,
    *,
    flips: pd.DataFrame | None = None,
    current_k: float | None = None,
    title: str = "Worth per case against k, for every model",
    unit: str = "",
    formula: str = "k/(k+1)",
) -> go.Figure:
    """Value against k per model: data-optimal tau solid, tau* dotted (`formula`, how the legend
    writes it: `value_words.formula_words`), "hand everything over"
    dashed; each model's two lines in its colour and with its marker (`plotting.series_symbol`),
    so that the models read apart without colour. Values in `unit` per case (right answers
    without a unit).

    `frame`: long format ``model, k, value, rule``. `flips`: ``k, leader`` where the
    ranking of the models changes.
    """
    fig = figure_without_template()
    models = [m for m in dict.fromkeys(frame["model"]) if m != "no model"]
    for i, m in enumerate(models):
        for rule, dash in (("optimal", "solid"), ("tau*", "dot")):
            part = frame[(frame["model"] == m) & (frame["rule"] == rule)]
            if len(part):
                name = plain(f"{m} (best threshold)" if rule == "optimal" else f"{m} (formula threshold {formula})")
                fig.add_trace(
                    go.Scatter(
                        x=part["k"],
                        y=part["value"],
                        mode="lines+markers",
                        name=name,
                        line={"color": palette_color(i), "dash": dash},
                        # a few markers along the line, not one per k
                        marker={"symbol": series_symbol(i), "size": 8, "maxdisplayed": 12},
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
            rule_line(
                fig,
                x=row["k"],
                line={"color": GUIDE_COLOR, "width": 1},
                text=f"the models' order at the formula threshold changes at k ≈ {row['k']:.2g}" if i == 0 else None,
                position="top right",
            )
    if current_k is not None:
        rule_line(fig, x=current_k, line={"color": "#000", "dash": "dot", "width": 1})
    return apply_layout(
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
    cell_text=None,
) -> go.Figure:
    """Annotated heatmap (confusion counts or cost contributions); each cell reads
    ``cell_text(value)`` when given (an amount in the user's unit), else ``format(value, fmt)``."""
    m = np.asarray(matrix, dtype=float)
    cols = [plain(c) for c in (col_labels if col_labels is not None else labels)]
    text = [[plain(cell_text(x)) if cell_text else format(x, fmt) for x in row] for row in m]
    fig = figure_without_template(
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
    return apply_layout(fig, title, col_title, row_title)


#: the Instance costs histogram's two series: a case's class -> its name (review 71: a negative case's
#: price drawn below 0 read "-$3", a gain, to a product manager; each class is now its own series of
#: amounts from 0 up, told apart by pattern and name as well as colour)
CASE_CLASSES = ("negative cases", "positive cases")


def delta_histogram(delta, *, groups=None, title: str = "How costly a mistake is, case by case") -> go.Figure:
    """Histogram of what a mistake on each case costs (`delta`'s size), one series per class (its sign:
    above 0 positive; 0 and below negative, as the error rate counts them, `CASE_CLASSES`), and per
    group within each class where there are `groups`: every amount reads from 0 up, never below it.
    The series share one set of bins, so that their bars line up."""
    d = np.asarray(delta, dtype=float)
    size = np.abs(d)
    fig = figure_without_template()
    top = float(np.nanmax(size)) if size.size and np.isfinite(size).any() else 0.0
    # a bin holds its left edge, not its right one (plotly.js #6556): the end is one bin past the
    # largest amount, so that the cases at the largest amount are drawn in the last bin
    bins = {"start": 0.0, "end": top + top / 60, "size": top / 60} if top > 0 else None
    positive = d > 0
    g = None if groups is None else np.asarray(groups)
    parts = [(None, np.ones(d.size, dtype=bool))] if g is None else [(n, g == n) for n in pd.unique(g)]
    i = 0
    for c, name in enumerate(CASE_CLASSES):
        for j, (group, rows) in enumerate(parts):
            keep = rows & (positive if c else ~positive)
            if group is not None and not keep.any():  # a group without cases of this class: no empty entry
                continue
            color = palette_color(c if group is None else j)
            fig.add_trace(
                go.Histogram(
                    x=size[keep],
                    xbins=bins,
                    nbinsx=60,
                    name=name if group is None else f"{plain(group)}: {name}",
                    marker={"color": color, "pattern": series_bar_pattern(i)},
                    opacity=0.6,
                )
            )
            i += 1
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(rangemode="tozero")
    return apply_layout(fig, title, "cost of a mistake on the case", "cases")


#: the Instance costs bars' series: column of `costlib.instance.nec_table` -> its name in the legend
NEC_SERIES = {"error rate": "error rate", "NEC": "weighted error (share of the mistake cost)"}


def nec_error_figure(table: pd.DataFrame, *, title: str = "Error rate beside the weighted error") -> go.Figure:
    """Grouped bars per ``label`` (model or model / group) of ``error rate`` and ``NEC`` (the
    weighted error), named as `NEC_SERIES` names them."""
    fig = figure_without_template()
    labels = [plain(x) for x in table["label"]]
    for i, (column, name) in enumerate(NEC_SERIES.items()):
        marker = {"color": palette_color(i), "pattern": series_bar_pattern(i)}
        fig.add_trace(go.Bar(x=labels, y=table[column], name=name, marker=marker))
    rule_line(fig, y=0.5, line={"dash": "dash", "color": NOBODY_COLOR}, text="coin flip (0.5)")
    fig.update_layout(barmode="group")
    return apply_layout(fig, title, "", "share (0 perfect, 1 always wrong)")


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
    """Generic step curves, one per `color` value (each in its own colour and dash,
    `plotting.series_line`), with an optional labelled baseline."""
    fig = figure_without_template()
    for i, (name, part) in enumerate(frame.groupby(color, sort=False)):
        part = part[np.isfinite(part[x])]
        xs, ys = thin_curve(part[x].to_numpy(), part[y].to_numpy())
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=series_line(i, shape="hv"), name=plain(name)))
    if baseline is not None:  # its label in the right margin, where no curve runs through it (review 72)
        rule_line(
            fig, y=baseline, line={"dash": "dash", "color": NOBODY_COLOR}, text=baseline_label, position=MARGIN_RIGHT
        )
    apply_layout(fig, title, x_title, y_title)
    if baseline is not None and baseline_label:  # in two lines, cut before the bracket: a narrow margin
        lines = baseline_label.split(" (", 1)
        lines[1:] = [f"({x}" for x in lines[1:]]
        fig.layout.annotations[-1].text = "<br>".join(plain(x) for x in lines)
        fig.update_layout(margin_r=int(max(map(len, lines)) * LABEL_CHAR_PX) + 16)
    return fig
