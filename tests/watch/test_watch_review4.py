"""Watch's inputs under review 4's hostile files, without the page: a policy's score column the
cases lack is never guessed over; outcome and score cells that stop a guess are named by their
rows; a cutoff probabilities never reach is said."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.answers.watch import guess_columns, read_cases, sample_inputs
from costlib.answers.watch_inputs import cutoff_words, guess_notes, score_column_words
from costlib.core.errors import DataError
from costlib.watch.report import labels_of, watch_report


def _cases(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "decided": [f"2026-01-{1 + i % 28:02d}" for i in range(n)],
            "score": rng.random(n).round(4),
            "outcome": (np.arange(n) % 2).astype(str),
            "region": "north",
        }
    )


def test_a_policy_fitted_on_a_score_column_the_cases_lack_leaves_the_score_unguessed():
    df = _cases()
    guess = guess_columns(df, {"data": {"score": "zzz_score"}})
    assert guess["score"] is None and guess["time"] == "decided"  # before: "score", the file's own
    said = score_column_words({"data": {"score": "zzz_score"}}, df.columns, None, name="c.csv")
    assert said.startswith('The policy was fitted on the score column "zzz_score", and "c.csv" has no such column')
    assert '"decided", "score", "outcome", "region"' in said and "Choose the column" in said
    chosen = score_column_words({"data": {"score": "zzz_score"}}, df.columns, "score", name="c.csv")
    assert 'Its cutoff is watched on "score"' in chosen


def test_the_policys_own_score_column_is_guessed_first_and_another_pick_is_said():
    df = _cases().assign(p=lambda d: d["score"])
    assert guess_columns(df, {"data": {"score": "p"}})["score"] == "p"
    assert score_column_words({"data": {"score": "p"}}, df.columns, "p", name="c.csv") is None
    assert 'watched on "score"' in score_column_words({"data": {"score": "p"}}, df.columns, "score", name="c.csv")
    assert score_column_words({"data": {}}, df.columns, "score", name="c.csv") is None


def test_stray_outcome_cells_are_named_by_their_rows_first_five():
    raw = pd.Series(["0", "1"] * 10 + ["2", "yes", "2", "2", "maybe", "2", "2"])
    with pytest.raises(DataError) as err:
        labels_of(raw, "c.csv", "outcome")
    # positions 20..26 are file rows 22..28 (the header is row 1)
    assert "besides '0' and '1', rows 22, 23, 24, 25 and 26 (first 5 of 7)" in err.value.message
    assert '("2", "yes", "2", "2", "maybe")' in err.value.message


def test_the_guess_says_why_an_outcome_like_column_was_not_taken():
    df = _cases()
    df.loc[5, "outcome"], df.loc[9, "outcome"] = "2", "yes"
    guess = guess_columns(df)
    assert guess["label"] is None
    note = guess_notes(df, guess, name="c.csv")["label"]
    assert note.startswith("No column was taken as the outcome:") and 'rows 7 and 11 ("2", "yes")' in note


def test_a_huge_score_cell_is_named_short_by_the_guess_and_by_the_report():
    # review 4's c_hugeline.csv: one case, its score 30 million digits (here 100,000)
    one = pd.DataFrame({"decided": ["2026-01-01"], "score": ["9" * 100_000], "outcome": [1], "region": ["north"]})
    df = read_cases(one.to_csv(index=False).encode(), "c.csv")  # as the page reads it: the column is text
    guess = guess_columns(df)
    assert guess["score"] is None and guess["time"] == "decided"  # before: no word, and the page chose "decided"
    note = guess_notes(df, guess, name="c.csv")["score"]
    assert note.startswith('No column of "c.csv" was taken as the score') and "row 2" in note and len(note) < 400
    policy, _ = sample_inputs()
    with pytest.raises(DataError) as err:
        watch_report(policy, df, name="c.csv", time="decided", score="score", n_resamples=0)
    assert "row 2" in err.value.message and len(err.value.message) < 300  # before: every digit


@pytest.mark.parametrize(
    ("cutoff", "words"), [(1e308, "flags nobody"), (-5.0, "flags everyone"), (0.5, None), (np.inf, None)]
)
def test_a_cutoff_outside_zero_to_one_on_probabilities_is_said(cutoff, words):
    said = cutoff_words({"thresholds": {"everyone": cutoff}, "data": {"scale": "probability"}})
    assert (said == ()) if words is None else (len(said) == 1 and words in said[0])
    assert cutoff_words({"thresholds": {"everyone": cutoff}, "data": {"scale": "raw"}}) == ()


def test_a_group_cutoff_outside_zero_to_one_names_its_group():
    said = cutoff_words({"thresholds": {"a": 0.3, "b": 7.0}, "data": {"scale": "probability"}})
    assert len(said) == 1 and 'for "b"' in said[0] and "flags nobody" in said[0]
