"""Review 61 (a first-time product manager on Train with costs): the first lines read "Each case has
its own price |δ|", "NEC", "regressing δ beats standard training", the table's columns n_fit,
n_train, n_validation, n_test, n_zero_delta and the notes "costlib.training_summary" and
"LogisticRegression(C=1, max_iter=1000)". What a reader reads first is in plain words ("each case's
price", "the cost-weighted error", "rows fitted on"); the symbols and the model's settings are in
the box of technical terms, and the estimators' names after "For the record" under Every seed.

Amounts a month are `amounts.month_money`'s: whole units from 100 up, two decimals below."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import pandas as pd
import pytest

from costlib.answers.training import training_answer
from costlib.present import training_page, training_words
from costlib.present.amounts import MONTH_WHOLE
from costlib.present.training_terms import TRAIN_TERMS
from costlib.training import data as training_data
from costlib.training.summary import training_summary

# what a first-time reader should not meet before the terms box: symbols, the library's names, the model's settings
JARGON = (
    "NEC", "δ", "|", "ormalized", "regressing", "n_fit", "n_train", "n_validation", "n_test", "n_zero_delta",
    "costlib.", "training_summary", "LogisticRegression", "Ridge(", "max_iter", "delta column",
)  # fmt: skip
FOR_THE_RECORD = "For the record:"


@pytest.fixture(scope="module")
def pre():
    pre = training_data.tweets_precomputed()
    assert pre is not None
    return pre


def summary_frame(rows, seeds=10):
    cols = ["method", "nec", "nec_change", "nec_change_low", "nec_change_high", "error_rate"]
    return pd.DataFrame(rows, columns=cols).assign(seeds=seeds)


VERDICTS = {  # a way shipped, not clearly better, do not train, one seed
    "warning": summary_frame([["standard", 0.1, 0.0, 0.0, 0.0, 0.1], ["regression", 0.098, -0.02, -0.08, 0.04, 0.1]]),
    "error": summary_frame([["standard", 0.1, 0.0, 0.0, 0.0, 0.1], ["weighted", 0.11, 0.1, 0.05, 0.15, 0.12]]),
    "one seed": summary_frame(
        [["standard", 0.1, 0.0, math.nan, math.nan, 0.1], ["p_up", 0.09, -0.1, math.nan, math.nan, 0.1]], seeds=1
    ),
}


def figure_words(fig) -> list[str]:
    layout = fig.layout
    out = [layout.title.text, layout.xaxis.title.text, layout.yaxis.title.text]
    out += [tr.name for tr in fig.data if tr.name] + [a.text for a in layout.annotations or ()]
    return out


def read_first(pre) -> list[str]:
    methods = tuple(pre.settings["methods"])
    answer = training_answer(pre.results, pre.predictability["r2"], methods=methods, price=1.0, unit="$", volume=1e4)
    said = [training_page.TRAIN_WHAT, training_page.BARS_NOTE, training_words.TABLE_MEANING]
    said += [training_page.PREDICTABILITY_LABEL, training_page.CHOOSE_A_METHOD]
    said += [training_page.synthetic_description(predictable=p) for p in (True, False)]
    said += [training_page.data_sentence(training_data.synthetic_sample(predictable=p)) for p in (True, False)]
    tweets = SimpleNamespace(
        delta=pd.Series([1.0, 0.0]), n_rows=24_783, features="44,319 word features", source=training_words.TWEETS_SOURCE
    )
    said.append(training_page.data_sentence(tweets))
    said += [training_words.precomputed_sentence(pre.settings), training_words.picked_sentence(6)]
    said += [training_words.predictability_sentence(r2, r2 - 0.02, r2 + 0.02, shipped="weighted") for r2 in (0, 0.1)]
    said += [training_words.not_numbers_sentence("t.csv", "f2", 6, "n/a?", more=2)]
    said += [training_page.precomputed_technical(pre.settings, pre.versions).split(FOR_THE_RECORD)[0]]
    for v in (
        answer.verdict,
        *(training_words.training_verdict_of(s, unit="$", volume=1e4) for s in VERDICTS.values()),
    ):
        said += [v.headline, *v.details]
    said += [
        answer.r2_sentence,
        answer.split_sentence,
        *answer.notes,
        *figure_words(answer.chart),
        *figure_words(answer.change_chart),
    ]
    for table in (answer.summary_table, answer.results_table):
        said += [str(c) for c in table.columns] + [str(m) for m in table["way of training"]]
    said += [training_words.method_label(m) for m in training_words.METHOD_LABELS]
    return said + training_words.SOURCES  # the sources of the prices the page offers


def test_what_a_reader_reads_first_on_train_is_in_plain_words(pre):
    said = [(word, text) for text in read_first(pre) for word in JARGON if text and word in text]
    assert not said, said


def test_the_symbols_and_the_models_settings_are_in_the_terms_box_and_for_the_record(pre):
    terms = " ".join(TRAIN_TERMS)
    for word in ("δ", "|δ|", "NEC (normalized excess cost)", "regressing δ", "LogisticRegression(C=1, max_iter=1000)"):
        assert word in terms, word
    assert "The cost-weighted error, NEC" in terms and "A case's price, δ" in terms  # plain name beside its symbol
    technical = training_page.precomputed_technical(pre.settings, pre.versions)
    assert FOR_THE_RECORD in technical and "LogisticRegression" in technical.split(FOR_THE_RECORD)[1]


def test_every_seeds_table_names_its_row_counts_in_words(pre):
    answer = training_answer(pre.results, pre.predictability["r2"], methods=tuple(pre.settings["methods"]))
    columns = list(answer.results_table.columns)
    assert [c for c in columns if c.startswith("n_")] == []
    assert "rows fitted on" in columns  # the row counts each way fitted on
    # the counts every seed shares are said once, under the table (four columns ran off its edge)
    assert answer.split_sentence == (
        "Every seed splits the rows alike: 19,812 training rows, 2,477 validation rows and 2,477 test rows; 17 rows "
        "priced 0 are left out before the split. The CSV has the counts."
    )
    assert {"n_fit", "n_train", "n_validation", "n_test", "n_zero_delta"} <= set(answer.results.columns)  # the CSV
    differ = training_answer(
        pre.results.assign(n_test=range(len(pre.results))), pre.predictability["r2"], methods=("standard",)
    )
    assert differ.split_sentence == "" and "test rows" in differ.results_table.columns


def month_amounts(text: str) -> list[str]:
    return re.findall(r"(−?\$[\d,]+(?:\.\d+)?) a month", text)


@pytest.mark.parametrize("volume", [10_000, 100_000, 300])
def test_the_verdicts_amounts_a_month_read_at_one_precision(pre, volume):
    """Review 70: "$47.65 a month" beside "$572 a month" and "$524 a month" in one sentence read as two
    precisions. Every amount a month in the verdict is whole where either cost a month is 100 or more, else at
    cents, and the saving is the difference of the two costs as shown ($572 - $524 = $48)."""
    summary = training_summary(pre.results)
    head = training_words.training_verdict_of(summary, price=1.0, unit="$", volume=volume).headline
    amounts = month_amounts(head)
    assert len(amounts) == 3, head  # the way's cost, standard training's, the saving
    values = [float(text.replace("−", "-").replace("$", "").replace(",", "")) for text in amounts]
    whole = max(abs(v) for v in values) >= MONTH_WHOLE
    assert all(("." in text) != whole for text in amounts), head
    first, second, saved = values  # the two costs in the order the verdict names them, then the saving
    assert saved == pytest.approx(abs(first - second)), head
