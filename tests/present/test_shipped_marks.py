"""The shipped cutoff on Costs & groups' cost chart (handed over by Watch's refit): marked as
Watch's refit chart marks it, on the line and at the cost the curve gives there."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import decision
from costlib.present import figures
from costlib.present.plotting import SHIPPED_NAME


def _curves():
    rng = np.random.default_rng(3)
    n = 400
    g = np.where(rng.random(n) < 0.5, "a", "b")
    s = np.round(rng.random(n), 2)  # ties: blocks of equal scores
    y = (rng.random(n) < s).astype(int)
    ms = decision.sweep_model(y, s, g, name="m")
    rec = decision.recommend(ms, (1, 3), n_resamples=20)
    return decision.cost_curves(ms, rec.prices)


def _brute(curves, line, cutoff, column="cost_per_case"):
    """The point of the lowest threshold at or above `cutoff` on `line` (None: everybody's), by a loop."""
    best = None
    for _, r in curves.iterrows():
        same = (line is None and r["line"] is None) or (line is not None and r["line"] == line)
        if same and r["threshold"] >= cutoff and (best is None or r["threshold"] < best["threshold"]):
            best = r
    return float(best[column])


def _marks(fig):
    marks = [t for t in fig.data if t.name == SHIPPED_NAME]
    lines = sorted(s.x0 for s in fig.layout.shapes if s.line.dash == "dash" and s.x0 == s.x1)
    return marks, lines


def test_one_shipped_cutoff_sits_on_everybodys_line_and_cutoffs_by_group_on_their_groups_lines():
    curves = _curves()
    assert _marks(figures.cost_curve_figure(curves)) == ([], [])  # without a hand-off: nothing
    (mark,), lines = _marks(figures.cost_curve_figure(curves, shipped={"a": 0.415, "b": 0.415}))
    assert list(mark.x) == [0.415] and lines == [0.415] and mark.marker.symbol == "diamond"
    assert mark.y[0] == pytest.approx(_brute(curves, None, 0.415))
    assert list(mark.text) == ["shipped ≥ 0.415"]
    (mark,), lines = _marks(figures.cost_curve_figure(curves, shipped={"a": 0.3, "b": 0.7}))
    assert list(mark.x) == [0.3, 0.7] and lines == [0.3, 0.7]
    assert list(mark.y) == pytest.approx([_brute(curves, "a", 0.3), _brute(curves, "b", 0.7)])
    assert list(mark.text) == ["shipped ≥ 0.3 (a)", "shipped ≥ 0.7 (b)"]


def test_on_the_cases_flagged_axis_the_shipped_cutoff_sits_at_the_cases_it_flags_a_month():
    curves = _curves()
    (mark,), lines = _marks(figures.cost_curve_figure(curves, per_month=1_000, shipped={"a": 0.5, "b": 0.5}))
    x = _brute(curves, None, 0.5, "flagged_share") * 1_000
    assert list(mark.x) == pytest.approx([x]) and lines == pytest.approx([x])
    assert mark.y[0] == pytest.approx(_brute(curves, None, 0.5))
