"""The Cost matrix's heatmaps in words (first-time user review, item 3): their text alternative's
table opened with a column "series" whose every cell read "heatmap" (a map without a name is named
by its kind), and nothing in it said which policy the map shows: that stood only in the subtitle
drawn under the title. Each map is now named by its policy, as the price map is by what it shows
(`price_figures.MAP_NAME`): the sentence names the policy; a column repeating it in every row (a
later review) is left out, as for every chart of one series."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from costlib.answers.matrix import default_matrix, matrix_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import matrix_words
from costlib.present.chart_text import SERIES, chart_text


@pytest.fixture(scope="module")
def answer():
    s = SAMPLES["tickets"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("tickets"))), s.mapping, name=s.filename, fingerprint="heat")
    return matrix_answer(ds, default_matrix(ds.class_names), 0.2, handover_price=0.2, unit="$", volume=10_000)


def test_each_maps_words_name_its_policy_not_the_word_heatmap(answer):
    for policy in answer.policies_with_model:
        for fig, title in zip(
            answer.heatmaps(policy)[:2], (matrix_words.CONFUSION_TITLE, matrix_words.COST_CELLS_TITLE), strict=True
        ):
            alt = chart_text(fig)
            assert SERIES not in alt.table  # one map: named in the sentence, not in a column repeating it
            assert alt.sentence.startswith(f"{title}: 1 map (“{policy}”) of true class against decision")
            assert fig.layout.title.subtitle.text == policy  # still drawn under the title


def test_the_maps_cells_read_as_before(answer):
    policy = answer.rec.policy
    cases, costs = (chart_text(f).table for f in answer.heatmaps(policy)[:2])
    assert cases.columns.tolist() == ["decision", "true class", "cases"]
    handed = int((answer.rec.decisions[policy] < 0).sum())
    assert cases["cases"].sum() + handed == 1499  # every test case in a cell, but those handed over
    assert costs.columns.tolist() == ["decision", "true class", "$"]
    assert all(str(v).startswith("$") for v in costs["$"])  # the amounts as the cells draw them
