"""Review 61 (a first-time product manager on Cost matrix): the page opened with "C[i, j] is the
price of deciding j when the truth is i"; the heatmap's title "Cases by true class and decision
(cheapest decision, or hand over)" was cut at its column's edge at 1400 px; and "It hands 675 of
the 1,499 cases to a person" did not say which rows it judged (the test rows, as other pages say).
"""

from __future__ import annotations

import dataclasses
import io

import pandas as pd
import pytest

from costlib.answers.matrix import default_matrix, matrix_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import labels, matrix_words

# the title of a heatmap beside another at 1400 px: 66 characters were cut, 62 fitted with nothing to spare
HEATMAP_TITLE_CHARS = 40


def tickets(split: bool = True):
    s = SAMPLES["tickets"]
    df = pd.read_csv(io.BytesIO(sample_bytes("tickets")))
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    return prepare(df if split else df.drop(columns="split"), mapping, name=s.filename, fingerprint=f"t{split}")


@pytest.fixture(scope="module")
def split_ds():
    return tickets()


def test_the_page_opens_with_a_plain_sentence_not_a_formula():
    first = labels.MATRIX_WHAT.split(". ")[0]
    assert first == "Each cell is what it costs to decide the column's class when the truth is the row's class"
    assert "C[i, j]" not in labels.MATRIX_WHAT


@pytest.mark.parametrize("abstain", [None, 0.3])
def test_the_heatmaps_titles_fit_half_the_page_and_name_the_policy_beneath(split_ds, abstain):
    answer = matrix_answer(split_ds, default_matrix(split_ds.class_names), abstain, handover_price=0.3, unit="$")
    for policy in answer.policies_with_model:
        figs = answer.heatmaps(policy)[:2]
        titles = [f.layout.title.text for f in figs]
        assert titles == [matrix_words.CONFUSION_TITLE, matrix_words.COST_CELLS_TITLE]
        assert all(len(t) <= HEATMAP_TITLE_CHARS for t in titles), titles
        assert [f.layout.title.subtitle.text for f in figs] == [policy, policy]


def test_the_answer_says_it_judges_the_test_rows(split_ds):
    answer = matrix_answer(split_ds, default_matrix(split_ds.class_names), 0.3, handover_price=0.3, unit="$")
    n_test = int((split_ds.split == "test").sum())
    n_validation = int((split_ds.split == "validation").sum())
    assert f"It hands {int((answer.rec.decisions[answer.rec.policy] < 0).sum()):,} of the {n_test:,} test cases" in (
        answer.verdict.headline
    )
    said = " ".join(answer.verdict.details)
    assert f"Judged on the {n_test:,} test rows of the {split_ds.n_rows:,}" in said
    assert f"picked on the {n_validation:,} validation rows" in said
    helps = {m["label"]: m["help"] for m in answer.metrics}
    assert helps["Cost per case"].endswith("on the test rows.")


def test_without_a_split_it_says_every_row_is_judged():
    ds = tickets(split=False)
    answer = matrix_answer(ds, default_matrix(ds.class_names), 0.3, handover_price=0.3, unit="$")
    assert f"of the {ds.n_rows:,} cases to a person" in answer.verdict.headline
    assert "test" not in answer.verdict.headline
    said = " ".join(answer.verdict.details)
    assert f"This data has no test rows, so all its {ds.n_rows:,} rows are judged" in said
    assert "picked on them too" in said
    helps = {m["label"]: m["help"] for m in answer.metrics}
    assert "test rows" not in helps["Cost per case"]
