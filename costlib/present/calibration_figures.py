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
HOVER = "predicted %{x:.3f}<br>observed %{y:.3f}<br>%{text}<extra>%{fullData.name}</extra>"


def reliability_diagram(curves: list, *, least: int, title: str, fade_after_first: bool = True):
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
    return figure_from_spec(data, layout)
