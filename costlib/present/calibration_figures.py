"""The Calibration page's figure: the reliability diagram, of a model's probabilities as given
and rescaled, or of each group's, with every bin's case count and the bins too small to read
drawn apart. Built from one spec (`plotting.figure_from_spec`): the page redraws it on every
move of its bins; every user string goes through `plain`.
"""

from __future__ import annotations

import numpy as np

from costlib.core.escaping import plain
from costlib.loading.messages import plural
from costlib.present import calibration_words as w
from costlib.present.plotting import (
    NOBODY_COLOR,
    figure_from_spec,
    layout_spec,
    palette_color,
    series_dash,
    series_symbol,
)

AXIS_RANGE = (-0.03, 1.03)
#: under the title when a line draws fewer points than the page's "Score bands" asks: a band no case falls in has no
#: point (COMPAS's probabilities, from 0.19 to 0.83, fill 6 of 10 bands, and the chart drew 6 points for "10")
BANDS_DRAWN = "{drawn} of the {bands} score bands hold cases: a point for each (a band with no cases has none)"
BANDS_DRAWN_BY_LINE = (
    "{low} to {high} of the {bands} score bands hold cases, depending on the line: a point for each band with cases"
)
NOTE_PX = 22  # the line under the title: the top margin grows by it
HOVER = "predicted %{x:.3f}<br>observed %{y:.3f}<br>%{text}<extra>%{fullData.name}</extra>"


def bands_drawn(low: int, high: int, bands: int) -> str:
    """How many of the `bands` score bands the chart's lines draw (`low` to `high` of them, by line).

    >>> bands_drawn(6, 6, 10)
    '6 of the 10 score bands hold cases: a point for each (a band with no cases has none)'
    >>> bands_drawn(5, 6, 10)[:58]
    '5 to 6 of the 10 score bands hold cases, depending on the '
    """
    if low == high:
        return BANDS_DRAWN.format(drawn=low, bands=bands)
    return BANDS_DRAWN_BY_LINE.format(low=low, high=high, bands=bands)


def reliability_diagram(
    curves: list, *, least: int, title: str, fade_after_first: bool = True, bands: int | None = None
):
    """Observed share positive against mean predicted probability per bin, one line per curve
    (a model as given and rescaled, or one per group), on the diagonal of perfect calibration.

    Parameters
    ----------
    curves : list of (name, mean_predicted, observed_rate, count)
        Each curve's non-empty bins (`calibration.BinnedScores.bins`); `name` is user text.
    least : int
        Bins with fewer cases (`calibration.MIN_BIN_CASES`) are left off the curve's line and
        drawn as hollow markers of the same shape and colour in a trace of their own: a share of
        0 or 1 over three cases is not read as miscalibration.
    title : str
        The chart's title (user text allowed).
    fade_after_first : bool, default=True
        Draw the curves after the first smaller and see-through (the rescaled curve behind the
        one as given); False draws every curve alike (the groups).
    bands : int, optional
        The number of score bands the page asked for (its "Score bands"). When a line draws
        fewer (a band no case falls in has no point), a line under the title says how many
        hold cases (`bands_drawn`), as an annotation the chart's text alternative reads too.

    Returns
    -------
    plotly.graph_objects.Figure
        Each point's case count is its text: in its hover, and in the chart's table
        (`chart_text`'s label column). Curves differ by colour, marker shape and dash alike.
    """
    data = [
        {
            "type": "scatter",
            "x": [0, 1],
            "y": [0, 1],
            "mode": "lines",
            "name": w.PERFECT,
            "line": {"dash": "dash", "color": NOBODY_COLOR},
            "hoverinfo": "skip",
        }
    ]
    for i, (name, mean_pred, frac_pos, counts) in enumerate(curves):
        counts = np.asarray(counts, dtype=np.int64)
        mean_pred, frac_pos = np.asarray(mean_pred, dtype=float), np.asarray(frac_pos, dtype=float)
        size = 6 + 14 * np.sqrt(counts / max(1, int(counts.max(initial=0))))
        faded = fade_after_first and i > 0
        read = counts >= least
        marker = {
            "color": palette_color(i),
            "opacity": 0.7 if faded else 1.0,
            "symbol": series_symbol(i),
        }
        if read.any():
            data.append(
                {
                    "type": "scatter",
                    "x": mean_pred[read],
                    "y": frac_pos[read],
                    "mode": "lines+markers",
                    "name": plain(name),
                    "marker": marker | {"size": size[read] * (0.7 if faded else 1.0)},
                    "line": {"color": palette_color(i), "dash": series_dash(i)},
                    "text": [w.CASES.format(n=f"{n:,}") for n in counts[read]],
                    "hovertemplate": HOVER,
                }
            )
        if not read.all():
            data.append(
                {
                    "type": "scatter",
                    "x": mean_pred[~read],
                    "y": frac_pos[~read],
                    "mode": "markers",
                    "name": plain(w.SMALL_BINS.format(name=name, least=least)),
                    "marker": marker | {"size": 9, "symbol": series_symbol(i) + "-open", "line": {"width": 2}},
                    "text": [  # whose band: the chart's words list these points of every line together
                        plain(f"{name}: " + w.FEW_CASES.format(n=f"{n:,} {plural(int(n), 'case', 'cases')}"))
                        for n in counts[~read]
                    ],
                    "hovertemplate": HOVER,
                }
            )
    layout = layout_spec(title, w.X_TITLE, w.Y_TITLE)
    # a little past 0 and 1: a bin observed at 0 or 1 keeps its whole marker in view
    layout["xaxis"]["range"] = list(AXIS_RANGE)
    layout["yaxis"]["range"] = list(AXIS_RANGE)
    drawn = [len(c[3]) for c in curves]
    if bands is not None and drawn and min(drawn) < bands:
        layout["annotations"] = [
            {
                "text": bands_drawn(min(drawn), max(drawn), bands),
                "xref": "paper",
                "yref": "paper",
                "x": 0,
                "y": 1,
                "xanchor": "left",
                "yanchor": "bottom",
                "yshift": 6,
                "showarrow": False,
                "font": {"size": 13, "color": "#555"},
            }
        ]
        layout["margin"] = {**layout["margin"], "t": layout["margin"]["t"] + NOTE_PX}
    return figure_from_spec(data, layout)
