"""Review 71: the Instance costs histogram drew a negative case's price of a mistake below 0 ("-$3") under
an axis that said "negative cases below 0"; a product manager read "-$3" as a gain. Every amount now reads
from 0 up, each class its own series (named, patterned), in the chart and in its text alternative."""

import io

import numpy as np
import pandas as pd
import pytest

from costlib import answers
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import figures
from costlib.present.chart_text import chart_text


@pytest.fixture(scope="module")
def answer():
    s = SAMPLES["offensive"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")
    return answers.instance_answer(ds)


def _amounts(table: pd.DataFrame) -> np.ndarray:
    cols = [c for c in table.columns if c.endswith((" from", " to"))]
    return np.concatenate([pd.to_numeric(table[c].astype(str).str.replace("\u2212", "-")).to_numpy() for c in cols])


def test_no_amount_reads_below_zero_in_the_chart_or_its_table(answer):
    fig = answer.delta_figure(2.0, "$")
    x = np.concatenate([np.asarray(t.x, float) for t in fig.data])
    assert x.size == answer.delta.size  # every judged case, once
    assert (x >= 0).all(), x.min()
    assert "below 0" not in fig.layout.xaxis.title.text and fig.layout.xaxis.title.text.endswith("($)")
    for tick in fig.layout.xaxis.ticktext or ():
        assert "-" not in tick and "\u2212" not in tick, tick
    alt = chart_text(fig)
    assert (_amounts(alt.table) >= 0).all()
    assert "-" not in " ".join(alt.table.astype(str).to_numpy().ravel()).replace("\u2212", "-").replace("–", "")


def test_each_row_of_the_text_says_its_class_and_the_series_read_apart_without_colour(answer):
    fig = answer.delta_figure(2.0, "$")
    assert [t.name for t in fig.data] == list(figures.CASE_CLASSES)
    patterns = [t.marker.pattern.shape or "" for t in fig.data]
    assert len(set(patterns)) == len(patterns), patterns
    # the sizes by class are the judged cases': above 0 positive, 0 and below negative (as the error rate counts)
    negative, positive = (np.asarray(t.x).size for t in fig.data)
    assert positive == int((answer.delta > 0).sum()) and negative == int((answer.delta <= 0).sum())
    assert set(chart_text(fig).table["series"]) == set(figures.CASE_CLASSES)


def test_with_groups_each_series_names_its_group_and_class():
    d = np.array([-3.0, -1.0, 0.0, 1.0, 2.0, 4.0])
    fig = figures.delta_histogram(d, groups=np.array(["a", "a", "b", "b", "a", "b"]))
    names = [t.name for t in fig.data]
    assert names == ["a: negative cases", "b: negative cases", "a: positive cases", "b: positive cases"]
    assert all((np.asarray(t.x) >= 0).all() for t in fig.data)
    patterns = [(t.marker.pattern.shape or "", t.marker.pattern.fillmode) for t in fig.data]
    assert len(set(patterns)) == len(patterns)
    # a group with no case of a class has no empty entry
    fig = figures.delta_histogram(d, groups=np.array(["a", "a", "a", "b", "b", "b"]))
    assert [t.name for t in fig.data] == ["a: negative cases", "b: positive cases"]


def test_every_judged_case_is_in_a_drawn_bin_and_in_the_text_table(answer):
    # a plotly bin holds its left edge, not its right one (plotly.js #6556): bins that ended at the largest
    # amount left its cases (55 of 12,391 here) undrawn, and the table binned each series over its own range
    fig = answer.delta_figure(2.0, "$")
    top = max(float(np.max(t.x)) for t in fig.data)
    assert all(t.xbins.start <= top < t.xbins.end for t in fig.data)
    table = chart_text(fig).table
    count = next(c for c in table.columns if c.endswith("(count)"))
    assert int(table[count].sum()) == answer.delta.size
    starts = {t.name: t.xbins.start + t.xbins.size * np.arange(1000) for t in fig.data}
    for name, rows in table.groupby("series"):
        edges = pd.to_numeric(rows[next(c for c in table.columns if c.endswith(" from"))]).to_numpy()
        np.testing.assert_allclose(edges, starts[name][: edges.size])
