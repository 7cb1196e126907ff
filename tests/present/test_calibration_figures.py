"""The Calibration page's figure builder (`present.calibration_figures`) passes the checks every
figure builder passes in tests/present/test_figures.py: no user text reaches Plotly as markup,
and the spec built without Plotly's checks is one Plotly accepts unchanged."""

from __future__ import annotations

import json

import numpy as np

from costlib.present.calibration_figures import reliability_diagram
from tests.present.test_figures import HOSTILE, raw_tags


def _figure():
    curves = [
        (HOSTILE, np.array([0.1, 0.5, 0.9]), np.array([0.2, 0.5, 0.0]), np.array([40, 60, 3])),
        ("plain", np.array([0.2, 0.8]), np.array([0.3, 0.7]), np.array([5, 6])),
    ]
    return reliability_diagram(curves, least=10, title=HOSTILE)


def test_no_user_text_reaches_plotly_as_markup():
    fig = _figure()
    assert not raw_tags(fig), raw_tags(fig)[:3]
    assert "&lt;a href=" in json.dumps(json.loads(fig.to_json()))


def test_the_figure_passes_plotlys_checks():
    import plotly.graph_objects as go
    import plotly.io as pio

    fig = _figure()
    checked = go.Figure(fig.to_dict())  # raises on an unknown property or a bad value
    as_checked, as_built = (json.loads(pio.to_json(f, validate=False)) for f in (checked, fig))
    for spec in (as_checked, as_built):
        spec["layout"].pop("template", None)
    assert as_checked == as_built


def test_small_bins_are_a_hollow_trace_of_their_own_and_every_curve_reads_without_colour():
    fig = _figure()
    names = [t.name for t in fig.data]
    assert len(names) == 1 + 2 + 1  # the diagonal, the first curve and its small bins, the second (all small)
    shapes = {t.name: (t.marker.symbol, t.line.dash if t.mode != "markers" else None) for t in fig.data[1:]}
    symbols = [s for s, _ in shapes.values()]
    assert len(set(symbols)) == len(symbols)
    assert sum(s.endswith("-open") for s in symbols) == 2
