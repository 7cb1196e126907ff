"""Instance costs: the cost curve's title fits its half-width column at 1400 px.

Without a split the answer is cross-fitted and the title says which rows the curves read: "Cost per
case against the cutoff (all rows, which flatter the cutoff picked on them)", 84 characters, ran past
the column's edge (about 68 fit) and was cut. It is now broken before its bracket; read in words it is
the same sentence, and the short titles stay on one line.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from costlib.answers.instance import HALF_COLUMN_TITLE, instance_figure
from costlib.instance import recommend_nec
from costlib.present.chart_text import chart_text
from costlib.present.labels import INSTANCE_CURVE, INSTANCE_ROWS


def figure(n_resamples: int, split: bool = False):
    rng = np.random.default_rng(5)
    delta = rng.normal(size=2000)
    scores = 1 / (1 + np.exp(-(delta + rng.normal(size=2000))))
    rec = recommend_nec({"m": scores}, delta, n_resamples=n_resamples)
    curves = pd.DataFrame({"threshold": [0.1, 0.5], "NEC": [0.7, 0.3], "model": "m"})
    return rec, instance_figure(SimpleNamespace(rec=rec, curves=curves))


def test_the_cross_fitted_title_is_two_lines_that_fit_and_reads_the_same():
    rec, fig = figure(200)
    assert rec.estimate == "cross-fitted"
    whole = INSTANCE_CURVE.format(rows=INSTANCE_ROWS["cross-fitted"])
    assert len(whole) > HALF_COLUMN_TITLE
    lines = fig.layout.title.text.split("<br>")
    assert len(lines) == 2 and all(len(line) <= HALF_COLUMN_TITLE for line in lines), lines
    assert chart_text(fig).sentence.startswith(whole + ":")  # the words under it read the whole title
    assert fig.layout.margin.t > 60  # room for the second line


def test_a_short_title_stays_on_one_line():
    rec, fig = figure(0)
    assert rec.estimate == "same rows"
    assert fig.layout.title.text == INSTANCE_CURVE.format(rows=INSTANCE_ROWS["same rows"])
    assert fig.layout.margin.t == 60
