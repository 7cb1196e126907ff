"""The cost figures: cost per case against the cutoff with the points it marks
(`markers_frame`, `cost_curve_figure`), the rules' costs per group (`rule_bars_figure`) and the
cheapest cost within each review capacity (`capacity_figure`), for the Costs page and the audit
report. Each takes computed results and returns a Figure; none shows it.

The figures of how the answer moves with the prices (the sensitivity map, net benefit, the best
cutoff for every price ratio) are `costlib.present.price_figures`'; they are importable from
here too, as the report and the pages read them.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.binary.capacity import cap_limit
from costlib.core import rules as R
from costlib.core.escaping import plain
from costlib.present.amounts import cutoff_number, money, shown_saving
from costlib.present.capacity_words import within_limit
from costlib.present.chart_text import KEY_HEAD
from costlib.present.plotting import (
    EVERYONE_COLOR,
    GROUP_POINTS,
    MARGIN_RIGHT,
    MAX_POINTS,
    NOBODY_COLOR,
    SHIPPED_DASH,
    SHIPPED_NAME,
    SHIPPED_SYMBOL,
    WITHOUT_LIMIT_SYMBOL,
    apply_layout,
    cost_axis,
    cutoff_marks,
    figure_from_spec,
    figure_without_template,
    layout_spec,
    palette_color,
    point_at,
    rule_line_spec,
    series_bar_pattern,
    series_dash,
    step_points,
    thin_curve,
)
from costlib.present.price_figures import (  # noqa: F401 (re-exported: the report and Find my prices read them here)
    net_benefit_figure,
    ratio_pieces_figure,
    sensitivity_figure,
)

PRICE_TITLE_TEXT = "Cost against review capacity (one cutoff for everybody, on the rows it is fitted on)"
WITHOUT_LIMIT = "best cutoff without a limit"  # the unlimited optimum, marked when a capacity binds
RULE_SYMBOLS = {
    R.THRESHOLD_05: "circle",
    R.ELKAN: "diamond",
    R.SINGLE: "star",
    R.COST_OPTIMAL: "star-triangle-up",
    WITHOUT_LIMIT: WITHOUT_LIMIT_SYMBOL,
}
# The marker key under a cost chart's title draws each marker's shape as a character: hollow, or
# filled for the recommended rule (drawn filled on the chart).
SYMBOL_GLYPHS = {
    "circle": ("○", "●"),
    "diamond": ("◇", "◆"),
    "star": ("☆", "★"),
    "star-triangle-up": ("△", "▲"),
    WITHOUT_LIMIT_SYMBOL: ("□", "□"),
    "x": ("×", "×"),
}
KEY_LINE_CHARS = 110  # the marker key wraps after about this many characters
KEY_GAP = "\u2003\u2002"  # between its entries (SVG text collapses runs of plain spaces)


def markers_frame(rec, ms=None, unlimited=None) -> pd.DataFrame:
    """The points a cost curve marks, from a `decision.Recommendation`: long format
    ``line, rule, threshold, cost_per_case`` (line None: everybody at one cutoff). A marker sits
    on its curve: a cross-fitted rule is marked at its cost on the curve's rows
    (`RuleResults.on_curve`), not at the cross-fitted cost the answer states. With `ms` (the
    model's sweeps) each marker also has ``flagged_share``, the share of all judged cases its
    cutoff flags on its line (so that an x axis of cases flagged keeps it on its point); with
    `unlimited` (the recommendation without the capacity of `rec`) its best single cutoff is
    marked too, as `WITHOUT_LIMIT`."""
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
                        "cost_per_case": res.on_curve[rule][0]
                        if rule in res.on_curve
                        else float(res.overall.loc[rule, "cost_per_case"]),
                    }
                )
    if rec.grouped and R.COST_OPTIMAL in res.cutoffs:
        part = res.by_group[res.by_group["rule"] == R.COST_OPTIMAL]
        for g, t, c in zip(part["group"], part["threshold"], part["cost_per_case"], strict=True):
            if np.isfinite(t):
                c = res.on_curve[R.COST_OPTIMAL][1][g] if R.COST_OPTIMAL in res.on_curve else c
                rows.append({"line": g, "rule": R.COST_OPTIMAL, "threshold": t, "cost_per_case": c})
    if unlimited is not None and rec.capacity is not None and unlimited.rule == R.SINGLE:
        t = next(iter(unlimited.results.cutoffs[R.SINGLE].values()), float("nan"))
        if np.isfinite(t) and ms is not None:
            cost = ms.single_cost(rec.prices, "judge")[ms.judge_pooled.index_at(t)] / ms.judge_pooled.total
            rows.append({"line": None, "rule": WITHOUT_LIMIT, "threshold": t, "cost_per_case": float(cost)})
    frame = pd.DataFrame(rows, columns=["line", "rule", "threshold", "cost_per_case"])
    if ms is not None:
        total = ms.judge_pooled.total
        sweeps = [ms.judge_pooled if pd.isna(g) else ms.judge[g] for g in frame["line"]]
        frame["flagged_share"] = [
            float(sw.flagged[sw.index_at(t)]) / total if total > 0 else np.nan
            for sw, t in zip(sweeps, frame["threshold"], strict=True)
        ]
    frame.attrs["recommended"] = rec.shipped_rule  # the baseline when the verdict is not "ship the model"
    frame.attrs["levels"] = {  # the no-model choices that fit the capacity (flag everyone does not under one)
        rule: float(res.overall.loc[rule, "cost_per_case"])
        for rule in R.BASELINES
        if within_limit(res.overall, rule, rec.capacity)
    }
    # the levels' labels at the decimals the page's tiles read the costs at (`shown_saving` of the saving and
    # its interval): a tile read "$0.71" beside the chart's "flag everyone (no model): $0.713" (review 72)
    ends = (getattr(rec, "saving_low", np.nan), getattr(rec, "saving_high", np.nan))
    frame.attrs["digits"] = shown_saving(rec.baseline_cost, rec.cost, *ends)[0]
    return frame


def cost_curve_figure(
    curves: pd.DataFrame,
    markers: pd.DataFrame | None = None,
    *,
    unit: str = "",
    title: str = "Cost per case against the cutoff",
    per_month: float | None = None,
    cap: float | None = None,
    shipped: dict | None = None,
) -> go.Figure:
    """Cost per case against one cutoff (flag iff score >= cutoff), exact at every score.

    `curves` is `decision.cost_curves`: the line None (everybody at one cutoff) drawn thick;
    one thinner line per group, in its own colour and dash. `markers` (`markers_frame`) marks
    the 0.5, formula and fitted cutoffs, and its ``attrs["levels"]`` draws the decisions
    without a model (flag nobody, flag everyone, or under a capacity flag at random) as
    labelled dashed lines.

    `per_month` (the cases a month) reads the x axis as cases flagged a month instead of the
    cutoff (every line and marker at its ``flagged_share`` times it), each line drawn in steps: a
    block of tied scores is flagged whole or not at all, so a limit between two points gets the
    left one (the line never passes below a cost no cutoff reaches); `cap` (a share of the
    cases) marks a capacity with a dotted line, at that many cases flagged or, on the cutoff
    axis, at the lowest cutoff of everybody's line that stays within it.

    `shipped` ({group: cutoff}, the cutoffs of a policy shipped before: Watch's refit hands them
    over) marks them as Watch's refit chart does (`plotting.cutoff_marks`: a labelled diamond on
    a dashed line) on everybody's line, or on each group's line when they differ by group.
    """
    flagged_x = per_month is not None and "flagged_share" in curves and (markers is None or "flagged_share" in markers)
    xcol = "flagged_share" if flagged_x else "threshold"
    scale = float(per_month) if flagged_x else 1.0
    traces = []
    # the columns once, each line's rows by a mask of them (slicing the frame per line cost
    # more than drawing the lines)
    line_of = curves["line"].to_numpy()
    missing = pd.isna(line_of)
    xs, costs = curves[xcol].to_numpy() * scale, curves["cost_per_case"].to_numpy()
    drawn = np.ones(len(curves), dtype=bool) if flagged_x else np.isfinite(curves["threshold"].to_numpy())
    lines = list(dict.fromkeys(line_of))
    for i, line in enumerate(lines):
        rows = (missing if line is None else line_of == line) & drawn
        most = MAX_POINTS if line is None else GROUP_POINTS
        x, y = thin_curve(xs[rows], costs[rows], most)
        if not flagged_x:  # steps where a reader can see them, straight between nearer points
            x, y = step_points(x, y, most // 4)
        # short names: a legend that wraps to a second row pushes the bottom margin, and
        # plotly.js then draws the chart twice on every price move (`layout_spec`)
        name = "everyone, one cutoff" if line is None else plain(f"group {line}")
        traces.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "lines",
                "name": name,
                "legendgroup": name,
                "line": {
                    # cases flagged: a block of tied scores is flagged whole or not at all, so between
                    # two points the cases flagged (and the cost) stay those of the left one
                    "shape": "hv" if flagged_x else "linear",
                    # each group's line in its own colour and dash (`plotting.series_line`), opaque: a
                    # see-through line on white falls under the 3:1 contrast a line needs
                    "color": palette_color(0 if line is None else i),
                    "dash": series_dash(0 if line is None else i),
                    "width": 3 if line is None else 1.5,
                },
                "hoverlabel": {"bgcolor": palette_color(i)},  # in full colour, as the line's own was
                "hovertemplate": ("flagged %{x:,.0f} a month" if flagged_x else "cutoff %{x:.4g}")
                + ("<br>cost per case %{y:.4g}" if line is None else "<br>its own cost per case %{y:.4g}")
                + "<extra>%{fullData.name}</extra>",
            }
        )
    key = []
    if markers is not None and len(markers):
        marked, key = _marker_traces(markers, lines, xcol, scale, flagged_x)
        traces.append(marked)
    shapes, notes = [], []
    if shipped:
        trace, lines_at = _shipped_marks(curves, shipped, xcol, scale)
        if trace is not None:
            traces.append(trace)
            shapes.extend(lines_at)
    recommended = markers.attrs.get("recommended") if markers is not None else None
    levels = markers.attrs.get("levels", {}) if markers is not None else {}
    margin = []  # the levels' labels, in the right margin beside their lines' ends (`plotting.MARGIN_RIGHT`)
    for rule, level in levels.items():
        color = NOBODY_COLOR if rule == R.NOBODY else EVERYONE_COLOR
        if rule == R.AT_RANDOM:
            color = EVERYONE_COLOR
        shape, note = rule_line_spec(
            y=level,
            line={"dash": "dash", "color": color, "width": 1},
            text=f"{R.rule_words(rule)} (no model{', recommended' if rule == recommended else ''}): "
            f"{money(level, unit, digits=markers.attrs.get('digits'))}",
            position=MARGIN_RIGHT,
        )
        # in two lines, cut before the bracket: the margin stays narrow beside a chart half the page wide
        head, _, tail = note["text"].partition(" (")
        note["text"] = f"{head}<br>({tail}"
        shapes.append(shape)
        notes.append(note)
        margin.append(note)
    if cap is not None:
        at = _cap_x(curves, cap) if not flagged_x else cap * scale
        if at is not None:
            shape, note = rule_line_spec(
                x=at,
                line={"dash": "dot", "color": "#000", "width": 1.5},
                text="your review limit",
                position="bottom right",
            )
            shapes.append(shape)
            notes.append(note)
    ylabel = cost_axis(unit)
    xlabel = "cases flagged a month" if flagged_x else "cutoff (flag a case when its score is at least this)"
    layout = layout_spec(title, xlabel, ylabel)
    if key:
        rows = _key_rows(key)
        layout["title"]["subtitle"] = {"text": "<br>".join(rows), "font": {"size": 12, "color": "#555"}}
        layout["margin"] = {**layout["margin"], "t": layout["margin"]["t"] + 20 * len(rows)}
    if margin:
        layout["margin"] = {**layout["margin"], "r": _margin_labels(margin, traces, layout)}
    # one figure from one spec: a price move redraws this chart, and building it trace by trace
    # through Plotly's objects cost more than everything else in the move
    return figure_from_spec(traces, {**layout, "shapes": shapes, "annotations": notes})


LABEL_LINE_PX = 15  # a line of a 12 px label, as plotly.js draws it
LABEL_CHAR_PX = 6.6  # a character of it, about (Open Sans at 12 px)


def _margin_labels(notes: list[dict], traces: list[dict], layout: dict) -> int:
    """Spread the labels `notes` in the right margin (each beside its line's end, at its y) so that no two
    overlap: the axis's range is read as plotly.js sets it from the traces and the lines (their lowest to
    their highest point), the plot's height from the layout, and a label too near the one below it is
    moved up by the difference (``yshift``). Returns the right margin that holds the widest label."""
    ys = [float(n["y"]) for n in notes]
    for trace in traces:
        y = np.asarray(trace.get("y", []), dtype=float)
        y = y[np.isfinite(y)]
        ys += [float(y.min()), float(y.max())] if y.size else []
    low, high = min(ys), max(ys)
    m = layout["margin"]
    px = (layout["height"] - m["t"] - m["b"]) / ((high - low) * 1.1 or 1.0)  # px of one unit of y
    below = -np.inf  # the top of the label under this one, in px from the plot's bottom
    for note in sorted(notes, key=lambda n: float(n["y"])):
        lines = note["text"].count("<br>") + 1
        at = (float(note["y"]) - low) * px
        centre = max(at, below + lines * LABEL_LINE_PX / 2 + 2)
        if centre > at:
            note["yshift"] = round(centre - at)
        below = centre + lines * LABEL_LINE_PX / 2
    widest = max(len(html.unescape(part)) for n in notes for part in n["text"].split("<br>"))
    return int(widest * LABEL_CHAR_PX) + 16


def _shipped_marks(curves: pd.DataFrame, shipped: dict, xcol: str, scale: float):
    """(trace, shapes) of the shipped cutoffs (`shipped`, {group: cutoff}) on `curves`, or
    (None, []) when no line reaches them: each at its line's point of the lowest threshold at or
    above it (everybody's line when the cutoffs are one, else its group's), at `xcol` times
    `scale` on the x axis (the cutoff, or the cases flagged a month)."""
    per_group = len({float(t) for t in shipped.values()}) > 1
    cuts = shipped if per_group else dict(list(shipped.items())[:1])
    xs, ys, labels = [], [], []
    for g, t in cuts.items():
        line = g if per_group else None
        y = point_at(curves, line, float(t)) if np.isfinite(float(t)) else None
        if y is None:
            continue
        xs.append(float(t) if xcol == "threshold" else point_at(curves, line, float(t), xcol) * scale)
        ys.append(y)
        labels.append(f"shipped ≥ {cutoff_number(float(t))}" + (f" ({plain(g)})" if per_group else ""))
    if not xs:
        return None, []
    return cutoff_marks(xs, ys, labels, name=SHIPPED_NAME, symbol=SHIPPED_SYMBOL, dash=SHIPPED_DASH)


def _key_rows(key: list[str]) -> list[str]:
    """The marker key's entries on rows of about `KEY_LINE_CHARS` characters. A row that wraps
    ends with the gap between entries: the text of the rows read one after the other (a
    screen reader's, a copy's) ran one entry into the next ("per group□ best cutoff ...")."""
    rows = [KEY_HEAD]
    for entry in key:
        if len(rows[-1]) + len(entry) > KEY_LINE_CHARS:
            rows[-1] += KEY_GAP
            rows.append("")
        rows[-1] += (KEY_GAP if rows[-1] else "") + entry
    return rows


MARKED = "marked cutoffs"  # the one trace that draws every marker of a cost curve


def _marker_traces(markers: pd.DataFrame, lines: list, xcol: str, scale: float, flagged_x: bool):
    """Every marker of a cost curve in one trace (`MARKED`, out of the legend), and the marker
    key: one entry per rule, its shape as a character and its name, which the figure writes under
    its title. A price move redraws the chart, and plotly.js pays for every trace in full whatever
    it holds: an empty trace per rule only for its legend entry cost a price move at a million
    rows 15 to 20 ms in two A/B runs (benchmarks/README.md, "Slider latency"). Each point is
    outlined in its line's colour and its hover names its rule and line."""
    recommended = markers.attrs.get("recommended")
    x, y, symbols, sizes, fills, edges, names, key = [], [], [], [], [], [], [], []
    # the few rows as lists, each rule's in their order, rules in the order first met (as a
    # groupby without sorting): the frame's groups cost more than the rest of the chart's marks
    rules, on_line = markers["rule"].tolist(), markers["line"].tolist()
    at, cost = (markers[xcol].to_numpy() * scale).tolist(), markers["cost_per_case"].tolist()
    for rule in dict.fromkeys(r for r in rules if not pd.isna(r)):
        part = [i for i, r in enumerate(rules) if r == rule]
        label = plain(R.rule_words(str(rule)) + (" (recommended)" if rule == recommended else ""))
        on_groups = any(not pd.isna(on_line[i]) for i in part)
        style = {
            "symbol": RULE_SYMBOLS.get(str(rule), "x"),
            "size": 15 if rule == recommended else 11,
            "color": "#111" if rule in (recommended, WITHOUT_LIMIT) else "white",
        }
        x += [at[i] for i in part]
        y += [cost[i] for i in part]
        for k, out in (("symbol", symbols), ("size", sizes), ("color", fills)):
            out += [style[k]] * len(part)
        for g in (on_line[i] for i in part):
            edges.append(palette_color(0) if g is None else palette_color(lines.index(g)) if g in lines else "#000")
            names.append(f"{label} ({plain(g) if on_groups and g is not None else 'everyone'})")
        key.append(f"{SYMBOL_GLYPHS[style['symbol']][rule == recommended]} {label}")
    marked = {
        "type": "scatter",
        "mode": "markers",
        "name": MARKED,
        "showlegend": False,
        "x": np.asarray(x, dtype=np.float64),
        "y": np.asarray(y, dtype=np.float64),
        "marker": {"symbol": symbols, "size": sizes, "color": fills, "line": {"width": 2, "color": edges}},
        "text": names,
        "hovertemplate": "%{text}<br>"
        + ("flagged %{x:,.0f} a month" if flagged_x else "cutoff %{x:.4g}")
        + "<br>cost per case %{y:.4g}<extra></extra>",
    }
    return marked, key


def _cap_x(curves: pd.DataFrame, cap: float) -> float | None:
    """The lowest cutoff of everybody's line that flags no more than `cap` of the cases."""
    if "flagged_share" not in curves:
        return None
    line = curves[curves["line"].isna()]
    fits = line[(line["flagged_share"] <= cap_limit(cap, 1.0)) & np.isfinite(line["threshold"])]
    return float(fits["threshold"].min()) if len(fits) else None


def rule_bars_figure(
    by_group: pd.DataFrame, *, unit: str = "", title: str = "Cost per case per group and rule, with 95% intervals"
) -> go.Figure:
    """Grouped bars of cost per case (x: group, one bar per rule) with the bootstrap intervals.

    `by_group` is `decision.RuleResults.by_group` (``rule, group, cost_per_case, low, high``).
    """
    fig = figure_without_template()
    j = 0  # the rules with a model get the palette in turn
    # every rule's bars have their own fill pattern (`plotting.series_bar_pattern`), so that neighbours
    # differ without colour
    for k, (rule, part) in enumerate(by_group.groupby("rule", sort=False)):
        y = part["cost_per_case"].to_numpy(float)
        low = part["low"].to_numpy(float) if "low" in part else np.full_like(y, np.nan)
        high = part["high"].to_numpy(float) if "high" in part else np.full_like(y, np.nan)
        if rule in (R.NOBODY, R.EVERYONE):
            color = NOBODY_COLOR if rule == R.NOBODY else EVERYONE_COLOR
        else:
            color, j = palette_color(j), j + 1
        fig.add_trace(
            go.Bar(
                x=[plain(g) for g in part["group"]],
                y=y,
                name=plain(R.rule_words(str(rule))),
                marker_color=color,
                marker_pattern=series_bar_pattern(k),
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
    return apply_layout(fig, title, "group", cost_axis(unit))


def capacity_figure(price, *, volume: float | None, unit: str = "") -> go.Figure:
    """The price of capacity (`capacity.PriceOfCapacity`): the cheapest cost reachable within
    each capacity, against the capacity, in cases and cost a month when a volume is known (else
    the share of cases and the cost per case); the cap and the unlimited optimum marked."""
    curve = price.curve
    scale = float(volume) if volume else 1.0
    x, y = thin_curve(curve["flagged_share"].to_numpy() * scale, curve["cost_per_case"].to_numpy() * scale)
    x_name = "review capacity (cases a month)" if volume else "review capacity (share of the cases)"
    y_name = "cost a month" if volume else "cost per case"
    y_name += f" ({unit})" if unit else ""
    best = price.cost_within(price.enough) * scale
    cases = "%{x:,.0f}" if volume else "%{x:,.4g}"  # cases a month are whole: never "466.8"
    traces = [
        {
            "type": "scatter",
            "x": x,
            "y": y,
            "mode": "lines",
            "name": "cheapest within each capacity",
            "line": {"shape": "hv", "color": palette_color(0), "width": 3},
            "hovertemplate": f"capacity {cases}<br>cost %{{y:,.4g}}<extra></extra>",
        },
        {
            "type": "scatter",
            "x": [price.enough * scale],
            "y": [best],
            "mode": "markers",
            "name": "where more capacity stops saving (one cutoff for everybody)",
            "marker": {"symbol": WITHOUT_LIMIT_SYMBOL, "size": 15, "color": "#111"},
            "hovertemplate": f"more saves nothing from here: capacity {cases}, cost %{{y:,.4g}}<extra></extra>",
        },
    ]
    shape, note = rule_line_spec(
        x=price.share * scale,
        line={"dash": "dot", "color": "#000", "width": 1},
        text="your review limit",
        position="bottom left",
    )
    layout = layout_spec(PRICE_TITLE_TEXT, x_name, y_name)
    return go.Figure(
        {"data": traces, "layout": {"template": {}, **layout, "shapes": [shape], "annotations": [note] if note else []}}
    )
