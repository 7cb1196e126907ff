"""The Watch page's chart of the refit (`present.watch_figures.refit_figure`): the shipped cutoff
marked where the shipped policy's cost is, told apart from the refit without colour (symbol and
dash), for one cutoff and per group, with hostile group names and unit as text."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.core.prices import prices_for
from costlib.present.watch_figures import REFIT_NAME, SHIPPED_NAME, refit_figure
from costlib.watch.alerts import judge_period

GROUPS = ("<b>north</b>", "south")


def _rows(seed=0, n=2000):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = 1 / (1 + np.exp(-rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)))
    g = np.asarray(GROUPS, dtype=object)[(rng.random(n) < 0.4).astype(int)]
    return y, s, g


def _chart(cutoffs: dict, *, random_share=None, unit="<i>$</i>"):
    y, s, g = _rows()
    costs = dict.fromkeys(GROUPS, (1.0, 3.0))
    judged = judge_period(y, s, g, costs=costs, cutoffs=cutoffs, n_resamples=0, random_share=random_share)
    ms = D.sweep_model(y, s, g, probabilities=False)
    curves = D.cost_curves(ms, prices_for(ms.groups, costs), max_points=200)
    fig = refit_figure(curves, cutoffs, judged, unit=unit, random_share=random_share)
    return fig, judged


def _trace(fig, name):
    (t,) = [t for t in fig.data if t.name == name]
    return t


def test_one_shipped_cutoff_is_a_labelled_diamond_on_a_dashed_line_at_the_shipped_cost():
    fig, judged = _chart(dict.fromkeys(GROUPS, 0.2))
    shipped, refit = _trace(fig, SHIPPED_NAME), _trace(fig, REFIT_NAME)
    assert list(shipped.x) == [0.2] and shipped.marker.symbol == "diamond"
    assert list(shipped.y) == [pytest.approx(judged.shipped)]  # exact: the shipped policy's cost on these rows
    assert shipped.text[0].startswith("shipped ≥ 0.2: ") and shipped.text[0].endswith(" per case")
    assert refit.marker.symbol == "star" and list(refit.x) == [judged.best[GROUPS[0]]]
    lines = {s.x0: s.line.dash for s in fig.layout.shapes}
    assert lines == {0.2: "dash", judged.best[GROUPS[0]]: "dot"}  # apart without colour


def test_per_group_cutoffs_are_marked_on_each_groups_line_and_names_stay_text():
    fig, judged = _chart({GROUPS[0]: 0.3, GROUPS[1]: 0.6})
    shipped = _trace(fig, SHIPPED_NAME)
    assert list(shipped.x) == [0.3, 0.6]
    assert list(shipped.y) == pytest.approx([judged.by_group[g][2] for g in GROUPS])
    shown = " ".join([*shipped.text, *(t.name for t in fig.data)])
    assert "<b>" not in shown and "<i>" not in shown  # Plotly would draw them as bold, italic
    assert "&lt;b&gt;north&lt;/b&gt;" in shipped.text[0] and "&lt;i&gt;$&lt;/i&gt;" in shipped.text[0]
    assert {s.x0 for s in fig.layout.shapes if s.line.dash == "dash"} == {0.3, 0.6}


def test_a_policy_that_flags_at_random_is_a_labelled_dashed_level():
    fig, judged = _chart(dict.fromkeys(GROUPS, float("inf")), random_share=0.2)
    assert not [t for t in fig.data if t.name == SHIPPED_NAME]
    (level,) = [s for s in fig.layout.shapes if s.line.dash == "dash"]
    assert level.y0 == pytest.approx(judged.shipped)
    assert any("shipped: a random share" in a.text for a in fig.layout.annotations)
