"""What the Data page says after "Use these columns" for review 4's multiclass uploads: a file whose
classes end in ")" loads with them as written; a file that looks as if it had more than two classes
but is broken is told that reading's problem (first), not only that its label is not binary."""

from __future__ import annotations

import pytest

from costlib import loading
from costlib.answers.data import mapped_upload
from costlib.answers.roles import refused_sentence
from costlib.core.dataset import ColumnMapping
from costlib.loading.messages import REFUSED_MULTICLASS
from costlib.present.labels import REFUSED
from tests.loading import bad_files as bf
from tests.loading.test_upload_review4_loading import HOSTILE_CLASSES, _multiclass_csv


def _pressed(data: bytes, name: str):
    df = loading.read_table(data, name)
    guess = loading.guess_mapping(df)
    prepare = lambda use, options: loading.prepare(df, use, name=name, fingerprint="", **dict(options))  # noqa: E731
    return mapped_upload(df, name, guess, (), guess, prepare=prepare)


def test_classes_ending_in_parentheses_load_and_cost_matrix_uses_them():
    shown = _pressed(_multiclass_csv(HOSTILE_CLASSES, label="tier"), "mc_paren.csv")
    assert shown.error is None
    assert shown.dataset.class_names == HOSTILE_CLASSES
    kind, text = shown.loaded
    assert kind == "success" and "Cost matrix now uses it." in text  # one page: "uses" (it said "use")


@pytest.mark.parametrize(
    "kwargs, expect",
    [
        ({"negative_at": 7}, ("negative value", 'column "p_tech", row 9 ("-0.4")')),
        ({"scale": 1.5}, ("do not sum to 1", "rows 2, 3, 4, 5 and 6 (first 5 of 60)", '"sum 1.5"')),
    ],
)
def test_a_broken_multiclass_file_is_told_what_is_wrong_with_that_reading_first(kwargs, expect):
    shown = _pressed(_multiclass_csv(("billing", "tech", "sales"), **kwargs), "mc.csv")
    assert shown.dataset is None
    error = shown.error
    # before: only 'column "label" has 3 distinct values where a binary label needs 2'
    assert REFUSED_MULTICLASS in error
    after = error.split(REFUSED_MULTICLASS, 1)[1]
    assert all(e in after for e in expect), error
    assert error.index(REFUSED_MULTICLASS) < error.index(REFUSED["label"])  # the real problem first


def test_the_multiclass_reading_is_not_said_once_its_columns_are_mapped():
    refused = {"multiclass": ('In "f.csv", it is wrong.',), "label": ('In "f.csv", "y" has 3 values.',)}
    both = refused_sentence(ColumnMapping(), refused)
    assert both == f'{REFUSED_MULTICLASS} in "f.csv", it is wrong. {REFUSED["label"]} in "f.csv", "y" has 3 values.'
    mapped = refused_sentence(ColumnMapping(class_label="y", class_probs=("p_a", "p_b", "p_c")), refused)
    assert REFUSED_MULTICLASS not in mapped and REFUSED["label"] in mapped
    half = refused_sentence(ColumnMapping(class_probs=("p_a", "p_b", "p_c")), refused)  # no class label yet
    assert half.startswith(REFUSED_MULTICLASS)


def test_probabilities_guessed_without_their_label_are_told_why_the_label_was_not_taken():
    # a repeated header ("p_tech" twice) names two classes "tech (column 3)" and "tech (column 4)": the
    # guess took the probabilities but no label, and the refusal said only that a binary label was lacking
    rows = [[c, "0.2", "0.5", "0.3"] for c in ("tech", "billing", "sales") * 10]
    shown = _pressed(bf.csv_bytes(["label", "p_billing", "p_tech", "p_tech"], rows), "dup.csv")
    assert REFUSED_MULTICLASS in shown.error and "not among the classes" in shown.error, shown.error


def test_the_loaded_sentence_says_what_train_and_watch_do_with_the_file():
    """Review 72: after an upload the Data page named the pages that use the file and those that
    lack columns, and left out Train with costs and Watch, which read files of their own."""
    binary = b"label,score\n" + b"".join(b"%d,0.%d\n" % (i % 2, (i * 7) % 10) for i in range(40))
    shown = _pressed(binary, "good.csv")
    kind, text = shown.loaded
    assert kind == "success"
    assert "Train with costs does not use it: it trains on a table of its own, with the features to train on" in text
    assert "Watch checks a shipped cutoff on a later file of cases with dates, uploaded there; the cutoff " in text
    assert "Costs & groups recommends now for this file can be the one it checks." in text
    multiclass = _pressed(_multiclass_csv(HOSTILE_CLASSES, label="tier"), "mc.csv").loaded[1]
    assert multiclass.endswith("Watch checks a shipped cutoff on a later file of cases with dates, uploaded there.")
