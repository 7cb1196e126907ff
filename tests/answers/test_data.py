"""The Data page's answer objects: what an upload shows before mapping, what pressing “Use these
columns” leads to (the dataset and its sentence, or the refusal with its reasons and its fix),
what a file read where it lies leads to, what is loaded, and the mapping form's choices: each
what the page decided inline before, made from the loader's own functions."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from costlib import loading
from costlib.answers.data import (
    folder_reader,
    loaded_answer,
    mapped_upload,
    mapping_choices,
    opened_file,
    positive_choice,
    upload_answer,
)
from costlib.answers.roles import loaded_sentence, refused_sentence
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.labels import NO_SCORE_CHOSEN, classes_sentence, fix_offer


def _prepare(df, name="f.csv"):
    return lambda use, options: loading.prepare(df, use, name=name, fingerprint="f", **dict(options))


def test_an_upload_shows_its_first_rows_its_notes_and_its_guess():
    df = pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.8, 0.3, 0.6]})
    df.attrs["notes"] = ["A note of the reader."]
    shown = upload_answer(df, "my<b>file.csv")
    head, caption = loading.preview(df, "my<b>file.csv")
    pd.testing.assert_frame_equal(shown.head, head)
    assert shown.caption == caption and shown.name == loading.display_name("my<b>file.csv")
    assert shown.notes == ("A note of the reader.",)
    assert shown.guess == loading.guess_mapping(df) and shown.guess.label == "label"
    kept = ColumnMapping(scores=("score",))
    assert upload_answer(df, "f.csv", guess=kept).guess is kept  # a file already guessed keeps its guess


def test_a_file_wider_than_the_form_says_how_many_columns_each_list_offers():
    n = loading.MAX_COLUMNS_OFFERED + 3
    df = pd.DataFrame([[0] * n], columns=[f"c{i}" for i in range(n)])
    shown = upload_answer(df, "wide.csv", guess=ColumnMapping())
    assert shown.notes == (loading.NOTE_WIDE.format(name="wide.csv", count=n, shown=loading.MAX_COLUMNS_OFFERED),)
    choices = mapping_choices(df, ColumnMapping())
    assert choices.wide and len(choices.columns) == loading.MAX_COLUMNS_OFFERED
    assert not mapping_choices(df.iloc[:, :3], ColumnMapping()).wide


def test_used_columns_load_and_say_which_pages_use_them():
    df = pd.DataFrame({"label": [0, 1, 0, 1] * 5, "score": [0.1, 0.8, 0.3, 0.6] * 5})
    mapping = ColumnMapping(label="label", scores=("score",))
    result = mapped_upload(df, "f.csv", mapping, [], loading.guess_mapping(df), prepare=_prepare(df))
    assert result.error is None and result.fix is None and result.scale is None
    assert result.dataset.n_rows == 20
    refused = loading.refusals(df, loading.guess_mapping(df), name="f.csv")  # no group: the page reads why
    assert result.loaded == loaded_sentence(result.dataset, "f.csv", refused)
    assert result.loaded[0] == "success" and result.loaded[1].startswith("Loaded “f.csv”. Costs & groups")


def test_a_refusal_is_the_loaders_sentence_with_why_the_nearest_columns_were_not_taken_and_its_fix():
    df = pd.DataFrame({"outcome": [i % 3 for i in range(30)], "p": [0.3, 2.5, -0.1] * 10})
    guess = loading.guess_mapping(df)
    mapping = ColumnMapping(scores=("p",))  # no label: the guess left out "outcome", with 3 values
    result = mapped_upload(df, "f.csv", mapping, [], guess, prepare=_prepare(df))
    assert result.dataset is None and result.loaded is None
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="f.csv", fingerprint="f")
    why = refused_sentence(mapping, loading.refusals(df, guess, name="f.csv"))
    assert why.startswith("Not taken as the label:")
    assert result.error == f"{info.value.message} {why}"
    assert result.fix == ((info.value.fix_action, fix_offer(info.value.fix)) if info.value.fix_action else None)


def test_a_ticked_fix_is_used_and_the_form_is_told_the_scale_it_read():
    df = pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.3, 2.5, -0.1, -1.2]})
    mapping = ColumnMapping(label="label", scores=("score",))
    refused = mapped_upload(df, "f.csv", mapping, [], mapping, prepare=_prepare(df))
    assert refused.dataset is None and refused.fix[0] == loading.ACTION_LOGIT
    assert refused.fix[1].startswith("Fix it: ") and refused.fix[1].endswith("press “Use these columns” again)")
    fixed = mapped_upload(df, "f.csv", mapping, [loading.ACTION_LOGIT], mapping, prepare=_prepare(df))
    assert fixed.dataset is not None and fixed.scale == "logit" and fixed.dataset.mapping.score_scale == "logit"


def test_a_file_read_where_it_lies_is_opened_inside_the_admission_and_said():
    sample = SAMPLES["screening"]
    ds = loading.prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), sample.mapping, name="x", fingerprint="x")
    admitted = []

    def admit(compute, name):
        admitted.append(name)
        return compute()

    opened = opened_file(lambda name: ds, "dir/counts<1>.parquet", admit=admit)
    assert admitted == [loading.display_name("dir/counts<1>.parquet")]
    assert opened.dataset is ds and opened.loaded == loaded_sentence(ds, admitted[0])
    with pytest.raises(DataError, match=NO_SCORE_CHOSEN):
        folder_reader("f.parquet", label="y", scores=[], group=None, split=None)


def test_what_is_loaded_is_the_loaders_summary():
    sample = SAMPLES["tickets"]
    df = pd.read_csv(io.BytesIO(sample_bytes("tickets")))
    ds = loading.prepare(df, sample.mapping, name="t", fingerprint="t")
    shown = loaded_answer(ds)
    assert shown.metrics == tuple(loading.summary_metrics(ds))
    assert shown.split_sentence == loading.rows_per_split_sentence(ds)
    assert len(shown.tables) == len(loading.summary_tables(ds))
    assert shown.classes == classes_sentence(ds.class_names) and shown.notes == tuple(ds.notes)


def test_the_positive_class_is_offered_only_for_a_word_label_starting_on_the_likeliest():
    df = pd.DataFrame({"y": ["no", "yes", "maybe", "no"], "b": [0, 1, 1, 0], "t": ["true", "false"] * 2})
    assert positive_choice(df, "y", ColumnMapping()) == (["maybe", "no", "yes"], 2)  # "yes": the likeliest
    assert positive_choice(df, "y", ColumnMapping(positive="maybe")) == (["maybe", "no", "yes"], 0)
    assert positive_choice(df, "b", ColumnMapping()) is None and positive_choice(df, "t", ColumnMapping()) is None
    with pytest.raises(DataError):
        positive_choice(df, "absent", ColumnMapping())


@pytest.mark.parametrize(
    "guess, source",
    [
        (ColumnMapping(votes_yes="a", votes_no="b", delta="d"), "annotator votes"),
        (ColumnMapping(delta="d", rating="r"), "price column"),
        (ColumnMapping(rating="r"), "rating"),
        (ColumnMapping(measurement="m"), "measurement and threshold"),
        (ColumnMapping(), "none"),
    ],
)
def test_each_cases_own_price_starts_on_the_source_the_guess_found(guess, source):
    assert mapping_choices(pd.DataFrame({"a": [1]}), guess).delta_source == source


def test_the_loaded_tables_show_counts_with_separators_and_shares_in_percent():
    """Review 57: the group table read "3175" and "0.5231" beneath tiles reading "6,172" and
    "2,809 (45.5%)"; every count and share column is given the grid's format."""
    sample = SAMPLES["compas"]
    ds = loading.prepare(pd.read_csv(io.BytesIO(sample_bytes("compas"))), sample.mapping, name="c", fingerprint="c")
    shown = loaded_answer(ds)
    numeric = {c for t in shown.tables for c in t.columns if c in ("rows", "distinct values", "positive share")}
    assert numeric == {"rows", "distinct values", "positive share"}
    formats = {c: shown.table_columns[c]["type_config"]["format"] for c in numeric}
    assert formats == {"rows": "localized", "distinct values": "localized", "positive share": "percent"}


def test_one_page_left_without_its_columns_reads_in_the_singular():
    """ "Cost matrix need columns it does not have, and draw on built-in samples." (review 63): a file
    with a label, a probability and a price per case serves every page but the Cost matrix."""
    df = pd.DataFrame({"label": [0, 1, 0, 1] * 5, "score": [0.1, 0.8, 0.3, 0.6] * 5})
    df["delta"] = [-1.0, 2.0, -0.5, 1.5] * 5
    ds = loading.prepare(
        df, ColumnMapping(label="label", scores=("score",), delta="delta"), name="f.csv", fingerprint="f"
    )
    kind, said = loaded_sentence(ds, "f.csv")
    assert "Cost matrix needs columns it does not have, and draws on built-in samples." in said, said


def test_a_refusal_the_guess_shares_is_said_once():
    """Review 140: a multiclass file whose probabilities do not sum to 1, mapped without its class
    label, was refused with the loader's sentence and then again, word for word, as why the guess
    was not read as more than two classes (the same check)."""
    import numpy as np

    rng = np.random.default_rng(0)
    p = rng.random((30, 3))
    p = p / p.sum(axis=1, keepdims=True) * 0.9
    df = pd.DataFrame({"label": rng.integers(0, 2, 30), "score": rng.random(30)})
    for j, c in enumerate(("prob_spam", "prob_sport", "prob_news")):
        df[c] = p[:, j]
    df["topic"] = rng.choice(["spam", "sport", "news"], 30)
    mapping = ColumnMapping(scores=("score",), class_probs=("prob_spam", "prob_sport", "prob_news"))
    result = mapped_upload(df, "multi.csv", mapping, [], loading.guess_mapping(df), prepare=_prepare(df, "multi.csv"))
    assert result.dataset is None and "do not sum to 1" in result.error
    assert result.error.count("do not sum to 1") == 1, result.error
