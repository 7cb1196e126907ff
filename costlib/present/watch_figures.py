"""The Watch page's chart of the refit: cost per case against the cutoff on the cases the refit
is fitted on, with the shipped cutoff marked (a diamond on a dashed line, labelled) and the
refit's cutoff (a star on a dotted line, labelled), so that the two read apart without colour."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from costlib.core.escaping import plain
from costlib.present.amounts import money
from costlib.present.plotting import (
    SHIPPED_DASH,
    SHIPPED_NAME,
    SHIPPED_SYMBOL,
    cost_axis,
    cutoff_marks,
    figure_without_template,
    point_at,
    series_line,
)

__all__ = ["REFIT_NAME", "SHIPPED_NAME", "refit_figure"]

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
            f"{words} ≥ {t:.4g}"
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
