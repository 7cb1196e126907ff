"""Review 71, a last read: the Instance costs histogram's shared bins ended at the largest amount, and a
plotly bin holds its left edge but not its right one (plotly.js #6556), so the cases at the largest amount
(55 of 12,391 on the offensive sample) were not drawn. Its text alternative binned each series over its
own range, so its rows were other bins than the drawn ones. The bins now end one bin past the largest
amount, and the text table reads the drawn bins."""

import numpy as np

from costlib.present import figures
from costlib.present.chart_text import chart_text


def _amounts():
    rng = np.random.default_rng(0)
    d = np.round(rng.normal(0, 2, 400), 1)
    d[:7] = 5.0  # several cases at the largest amount
    return d


def test_the_largest_amount_falls_inside_a_drawn_bin():
    d = _amounts()
    fig = figures.delta_histogram(d)
    top = float(np.abs(d).max())
    for trace in fig.data:
        bins = trace.xbins
        assert bins.start <= top < bins.end, (bins.start, top, bins.end)
        assert bins.start <= np.asarray(trace.x).min()


def test_the_text_table_reads_the_drawn_bins_and_counts_every_case():
    d = _amounts()
    fig = figures.delta_histogram(d)
    table = chart_text(fig).table
    assert int(table["cases (count)"].sum()) == d.size
    for trace in fig.data:
        rows = table[table["series"] == trace.name]
        bins = trace.xbins
        edges = bins.start + bins.size * np.arange(len(rows) + 1)
        np.testing.assert_allclose(rows.filter(like=" from").iloc[:, 0].astype(float), edges[:-1])
        np.testing.assert_allclose(rows.filter(like=" to").iloc[:, 0].astype(float), edges[1:])
        assert np.isclose(edges[-1], bins.end)
        assert int(rows["cases (count)"].sum()) == np.asarray(trace.x).size
