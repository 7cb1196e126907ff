"""The Watch page's charts: the shipped cutoff period by period (`periods_figure`: measured
periods filled, estimated ones hollow, an alert ringed around its point so that both still read),
and the refit's (`refit_figure`): cost per case against the cutoff on the cases the refit is fitted
on, with the shipped cutoff marked (a diamond on a dashed line, labelled) and the refit's cutoff (a
star on a dotted line, labelled), so that the two read apart without colour."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.core.escaping import plain
from costlib.present.amounts import cutoff_number, money
from costlib.present.plotting import (
    ALERT_COLOR,
    SHIPPED_DASH,
    SHIPPED_NAME,
    SHIPPED_SYMBOL,
    apply_layout,
    cost_axis,
    cutoff_marks,
    figure_without_template,
    palette_color,
    point_at,
    series_line,
)
from costlib.present.watch_tables import period_label

__all__ = ["ALERT_NAME", "PERIODS_TITLE", "REFIT_NAME", "SHIPPED_NAME", "periods_figure", "refit_figure"]

# ---------------------------------------------------------------------------------------
# The shipped cutoff, period by period

PERIODS_TITLE = "The shipped cutoff, period by period"
#: the chart's series, plain words first (the expert's term in brackets)
PERIOD_SHIPPED = "the shipped cutoff (filled: measured; hollow: estimated, 95% interval)"
PERIOD_IF_CHANGED = "the shipped cutoff if the case mix changed (scores still match outcomes)"
PERIOD_OWN_BEST = "each period's own best (judged on other cases; estimated: at its % positive)"
ALERT_NAME = "alert (ringed): costs more than chance explains"
POINT_SIZE, ALERT_SIZE = 10, 24  # the ring of an alert is drawn around the point, never over it


def periods_figure(report: dict, *, unit: str = "") -> go.Figure:
    """Cost per case of the shipped cutoff in each period beside the period's own best (shipped
    minus what refitting would save), measured periods filled, estimated ones hollow with their
    95% interval and, beside them, what the shipped cutoff costs if the cases changed instead of
    the base rate; from `costlib.watch.report.watch_report`.

    An alert is a red ring (an open circle, `ALERT_SIZE`) around the period's point (`POINT_SIZE`),
    so the point inside still says filled (measured) or hollow (estimated): the ring is a shape of
    its own, not only a colour. The cost axis runs from 0 past every value and interval end
    (`cost_range`), so that each point sits above a labelled tick."""
    periods = report["periods"]
    x = [p["period"].split("/")[0] for p in periods]  # each period at its first day, on a date axis
    shown = [period_label(p["period"]) for p in periods]
    # a period too small to judge is left off (a gap in the line, never a drop to its few cases' cost)
    shipped = [None if p.get("too_few") else p["cost_per_case"] for p in periods]
    best = [
        None
        if p.get("too_few") or p["cost_per_case"] is None or p["regret_per_case"] is None
        else p["cost_per_case"] - p["regret_per_case"]
        for p in periods
    ]
    readings = [p.get("readings") or {} for p in periods]  # estimated periods only
    low = [r["label_shift"]["cost_interval"][0] if r else None for r in readings]
    high = [r["label_shift"]["cost_interval"][1] if r else None for r in readings]
    fig = figure_without_template()
    fig.add_trace(
        go.Scatter(
            x=x,
            y=shipped,
            mode="lines+markers",
            name=PERIOD_SHIPPED,
            line={"color": palette_color(0), "width": 3},
            marker={
                "size": POINT_SIZE,
                "symbol": ["circle" if p["measured"] else "circle-open" for p in periods],
                "color": palette_color(0),
                "line": {"width": 2},
            },
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [None if h is None or y is None else h - y for h, y in zip(high, shipped, strict=True)],
                "arrayminus": [None if lo is None or y is None else y - lo for lo, y in zip(low, shipped, strict=True)],
                "color": palette_color(0),
                "thickness": 1.5,
                "width": 6,
            },
            customdata=shown,
            hovertemplate="%{customdata}: %{y:.4g} per case<extra>the shipped cutoff</extra>",
        )
    )
    guessed = [p for p in periods if p.get("readings")]
    if guessed:
        fig.add_trace(
            go.Scatter(
                x=[p["period"].split("/")[0] for p in guessed],
                y=[p["readings"]["calibrated"]["cost_per_case"] for p in guessed],
                mode="markers",
                name=PERIOD_IF_CHANGED,
                marker={"size": POINT_SIZE, "symbol": "diamond-open", "color": palette_color(2)},
                customdata=[period_label(p["period"]) for p in guessed],
                hovertemplate="%{customdata}: %{y:.4g} per case<extra>if the cases changed</extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=best,
            mode="lines",
            name=PERIOD_OWN_BEST,
            line={"color": palette_color(1), "dash": "dash"},
            customdata=shown,
            hovertemplate="%{customdata}: %{y:.4g} per case<extra>its own best cutoff</extra>",
        )
    )
    alerts = [p for p in periods if p["alert"]]
    if alerts:
        fig.add_trace(
            go.Scatter(
                x=[p["period"].split("/")[0] for p in alerts],
                y=[p["cost_per_case"] for p in alerts],
                mode="markers",
                name=ALERT_NAME,
                marker={"symbol": "circle-open", "size": ALERT_SIZE, "color": ALERT_COLOR, "line": {"width": 2.5}},
                customdata=[period_label(p["period"]) for p in alerts],
                hovertemplate="%{customdata}: alert<extra></extra>",
            )
        )
    apply_layout(fig, PERIODS_TITLE, "period", cost_axis(unit))
    fig.update_yaxes(range=cost_range(fig))
    return fig


#: room past the highest value, as a share of the values' span: an alert's ring (`ALERT_SIZE`) stays whole
HEADROOM = 0.08


def cost_range(fig: go.Figure) -> list[float]:
    """The y axis of `fig` as drawn: from 0 (a cost per case is not negative, and 0 is always a
    labelled tick) to `HEADROOM` past the highest of every trace's values and interval ends
    (None and NaN skipped); below 0 too if a value is.

    Left to Plotly, the axis did hold every point but began just under the lowest (0.1016 on
    the built-in year) with its first label at 0.12, above the own best's 0.1103: the dashed
    line read as running off the bottom.

    >>> cost_range(go.Figure(go.Scatter(y=[0.2, None, 0.1], error_y={"array": [0.05, None, 0.0]})))
    [0.0, 0.27]
    """
    ends = []
    for trace in fig.data:
        y = np.array([np.nan if v is None else v for v in (getattr(trace, "y", None) or ())], dtype=float)
        ends.append(y)
        err = getattr(trace, "error_y", None)
        if err is not None and err.array is not None:
            up = np.array([np.nan if v is None else v for v in err.array], dtype=float)
            down = err.array if err.arrayminus is None or err.symmetric is not False else err.arrayminus
            down = np.array([np.nan if v is None else v for v in down], dtype=float)
            ends += [y + up, y - down]
    values = np.concatenate(ends) if ends else np.zeros(0)
    values = values[np.isfinite(values)]
    low, high = (min(0.0, float(values.min())), float(values.max())) if values.size else (0.0, 1.0)
    room = HEADROOM * (high - low) if high > low else 1.0
    return [round(low - room, 12) if low < 0 else 0.0, round(high + room, 12)]


# ---------------------------------------------------------------------------------------
# The refit

REFIT_NAME = "the refit (fitted on these cases)"
REFIT_SYMBOL, REFIT_DASH = "star", "dot"
#: the refit's label on the chart: the cutoff to ship, the alternative not chosen, or neither said
REFIT_WORDS = {True: "refit, to ship", False: "refit, not chosen", None: "refit"}


REFIT_TITLE = "Cost per case against the cutoff, on the cases the refit is fitted on"


def refit_figure(
    curves: pd.DataFrame,
    shipped: dict,
    judged,
    *,
    unit: str = "",
    random_share=None,
    title: str = REFIT_TITLE,
    chosen: bool | None = None,
) -> go.Figure:
    """Cost per case against the cutoff (`curves`, `binary.decision.cost_curves` of the refit's
    rows: everybody's line, or each group's when the shipped cutoffs differ by group), the
    shipped cutoffs (`shipped`, {group: cutoff}) marked with a labelled diamond on a dashed line,
    and the refit's (`judged.best`, `watch.alerts.PeriodJudgement`) with a labelled star on a
    dotted line. A policy that flags a `random_share` at random has no cutoff: its cost is a
    dashed level line, labelled. `chosen`: the refit's label says it is the cutoff to ship (True)
    or the alternative not chosen (False; `costlib.answers.watch.ship_choice` decides); None says
    neither.

    Text on the chart holds group names and the unit: each goes through `core.escaping.plain`
    (Plotly reads a few HTML tags in text)."""
    per_group = len(set(shipped.values())) > 1
    lines = list(shipped) if per_group else [None]
    fig = figure_without_template()
    for i, line in enumerate(lines):
        rows = curves[(curves["line"].isna() if line is None else curves["line"] == line)]
        rows = rows[np.isfinite(rows["threshold"].to_numpy(dtype=float))]
        fig.add_trace(
            go.Scatter(
                x=rows["threshold"],
                y=rows["cost_per_case"],
                mode="lines",
                name="cost per case at each cutoff" if line is None else f"{plain(line)}: cost per case",
                line=series_line(i, width=2),  # each group's own colour and dash
                hovertemplate="cutoff %{x:.4g}: %{y:.4g} per case<extra></extra>",
            )
        )

    def mark(name, symbol, dash, cuts: dict, exact: dict, words: str):
        """Markers at `cuts` ({group: cutoff}), at the cost per case `exact` gives (else the
        drawn curve's), labelled with `words`, the cutoff and (when exact) that cost."""
        cuts = {g: t for g, t in cuts.items() if math.isfinite(t)}
        if not cuts:
            return
        ys = [exact[g] if g in exact else point_at(curves, g if per_group else None, t) for g, t in cuts.items()]
        labels = [
            f"{words} ≥ {cutoff_number(t)}"
            + (f" ({plain(g)})" if per_group else "")
            + (f": {plain(money(exact[g], unit))} per case" if g in exact else "")
            for g, t in cuts.items()
        ]
        trace, shapes = cutoff_marks(list(cuts.values()), ys, labels, name=name, symbol=symbol, dash=dash)
        for shape in shapes:
            fig.add_shape(shape)
        fig.add_trace(trace)

    if random_share is None:
        spent = {g: judged.by_group[g][2] if per_group else judged.shipped for g in shipped}  # exact, not the curve's
        cuts = shipped if per_group else dict(list(shipped.items())[:1])
        mark(SHIPPED_NAME, SHIPPED_SYMBOL, SHIPPED_DASH, cuts, spent, "shipped")
    else:
        fig.add_hline(
            y=judged.shipped,
            line={"dash": SHIPPED_DASH, "width": 1.5, "color": "#444"},
            annotation_text=f"shipped: a random share, {plain(money(judged.shipped, unit))} per case",
            annotation_position="top left",
        )
    best = judged.best if per_group else dict(list(judged.best.items())[:1])
    # no cost on the refit's label: its cost on the rows it is fitted on flatters it
    mark(REFIT_NAME, REFIT_SYMBOL, REFIT_DASH, best, {}, REFIT_WORDS[chosen])
    fig.update_layout(
        title={"text": plain(title), "x": 0.0, "xanchor": "left"},
        xaxis_title="cutoff (flag a case when its score is at least this)",
        yaxis_title=plain(cost_axis(unit)),
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 60, "r": 30},
        height=440,
    )
    return fig
