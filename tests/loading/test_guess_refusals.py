"""Issue 44, item 4: a column the guess does not take for a role is named with the loader's own
reason the first time, and the group column is guessed by its name or its content."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.answers.roles import loaded_sentence
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading import guess_mapping, prepare, read_table


def by_hand(df: pd.DataFrame, mapping: ColumnMapping, name: str) -> str:
    """The sentence `prepare` refuses `mapping` with: what the Data page says when the column is chosen."""
    with pytest.raises(DataError) as info:
        prepare(df, mapping, name=name, fingerprint="")
    return info.value.message


def three_valued_label() -> pd.DataFrame:
    """A good score and a label-named column with a third value, "2"."""
    n = 30
    return pd.DataFrame({"outcome": [i % 3 for i in range(n)], "p_model": [(i % 10) / 10 + 0.05 for i in range(n)]})


def decimal_comma_scores() -> bytes:
    """A comma-separated file whose scores are written "0,73" (quoted): they read as text."""
    rows = "".join(f'{i % 2},"0,{10 + 7 * i % 89}"\n' for i in range(20))
    return ("label,score\n" + rows).encode()


def test_a_three_valued_label_is_named_with_the_sentence_it_gets_when_chosen_by_hand():
    df = three_valued_label()
    guess = guess_mapping(df)
    assert guess.label is None and guess.scores == ("p_model",)
    refused = loading.refusals(df, guess, name="f.csv")
    said = by_hand(df, ColumnMapping(label="outcome"), "f.csv")
    assert refused == {"label": (said,)}  # one home for the refusal: the loader's sentence, word for word
    assert 'column "outcome" has 3 distinct values where a binary label needs 2' in said
    ds = prepare(df, guess, name="f.csv", fingerprint="")
    kind, text = loaded_sentence(ds, "f.csv", refused)
    assert kind == "warning"
    assert text.startswith("Loaded “f.csv”, but no page can use it yet: it lacks a label column with two values. ")
    assert "Not taken as the label: in " + said[3:] in text  # '"0" (10 rows, first at row 2: the header is row 1), ...'


def test_decimal_comma_scores_are_named_with_the_sentence_they_get_when_chosen_by_hand():
    data = decimal_comma_scores()
    df = read_table(data, "comma.csv")
    guess = guess_mapping(df)
    assert guess.label == "label" and guess.scores == ()
    said = by_hand(df, ColumnMapping(scores=("score",)), "comma.csv")
    assert loading.refusals(df, guess, name="comma.csv") == {"scores": (said,)}
    assert 'rows 2, 3, 4, 5 and 6 (first 5 of 20) ("0,10", "0,17",' in said and "decimal comma" in said
    ds = prepare(df, guess, name="comma.csv", fingerprint="")
    kind, text = loaded_sentence(ds, "comma.csv", loading.refusals(df, guess, name="comma.csv"))
    assert kind == "warning" and "it lacks a score column. Not taken as a score: in " + said[3:] in text


def test_the_nearest_columns_come_by_name_then_by_content_and_a_role_guessed_is_never_refused():
    n = 24
    df = pd.DataFrame(
        {
            "churn_flag": [("yes", "no", "maybe")[i % 3] for i in range(n)],  # a yes/no pair and one more value
            "visits": list(range(n)),  # numbers: never near a label
            "target": [i % 4 for i in range(n)],  # named like a label: comes first
            "risk": [f"0,{i + 10}" for i in range(n)],  # decimal commas: near a score by content
            "score_b": ["high" if i % 2 else "low" for i in range(n)],  # named like a score, not numbers
        }
    )
    guess = guess_mapping(df)
    assert guess.label is None and guess.scores == ()
    assert loading.near_misses(df, guess) == {"label": ("target", "churn_flag"), "scores": ("score_b", "risk")}
    refused = loading.refusals(df, guess, name="n.csv")
    assert list(refused["label"]) == [by_hand(df, ColumnMapping(label=c), "n.csv") for c in ("target", "churn_flag")]
    assert 'column "target" has 4 distinct values' in refused["label"][0]
    assert list(refused["scores"]) == [by_hand(df, ColumnMapping(scores=(c,)), "n.csv") for c in ("score_b", "risk")]
    # with a label and a score guessed, nothing is near a missing role
    good = df.assign(label=[i % 2 for i in range(n)], p_model=[i / n for i in range(n)])
    assert loading.near_misses(good, guess_mapping(good)) == {}


def test_every_role_missing_on_the_data_page_error_names_both_refusals():
    from costlib.answers.roles import refused_sentence

    df = read_table(decimal_comma_scores().replace(b"label,", b"outcome,").replace(b"\n1,", b"\n2,", 3), "b.csv")
    guess = guess_mapping(df)
    refused = loading.refusals(df, guess, name="b.csv")
    text = refused_sentence(guess, refused)
    assert text.startswith('Not taken as the label: in "b.csv", column "outcome" has 3 distinct values')
    assert 'Not taken as a score: in "b.csv", column "score" has 20 values that are not numbers' in text
    # a role chosen by hand makes its refusal moot
    assert "label" not in refused_sentence(ColumnMapping(label="outcome"), refused).split(":")[0]


# ---------------------------------------------------------------------------------------
# The group column
# ---------------------------------------------------------------------------------------


def fair_like(n: int = 300, seed: int = 0) -> pd.DataFrame:
    """Shaped like statsmodels' `fair` data with a label and two models' scores: every column
    is numbers, and only "occupation" is named for a group."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "rate_marriage": rng.integers(1, 6, n),
            "age": rng.choice([17.5, 22, 27, 32, 37, 42], n),
            "yrs_married": rng.choice([0.5, 2.5, 6, 9, 13, 16.5, 23], n),
            "children": rng.choice([0, 1, 2, 3, 4, 5.5], n),
            "religious": rng.integers(1, 5, n),
            "educ": rng.choice([9, 12, 14, 16, 17, 20], n),
            "occupation": rng.integers(1, 7, n),
            "occupation_husb": rng.integers(1, 7, n),
            "affairs": rng.exponential(1, n).round(3),
        }
    )
    df["had_affair"] = (df["affairs"] > 1).astype(int)
    df["score_logistic"] = rng.random(n).round(4)
    df["score_forest"] = rng.random(n).round(4)
    return df


def test_fair_data_guesses_occupation_as_the_group():
    df = read_table(fair_like().to_csv(index=False).encode(), "fair.csv")
    guess = guess_mapping(df)
    assert guess.group == "occupation"
    assert guess.label == "had_affair" and guess.scores == ("score_logistic", "score_forest")
    assert sorted(set(prepare(df, guess, name="fair.csv", fingerprint="").groups)) == ["1", "2", "3", "4", "5", "6"]


def test_a_group_name_is_taken_only_with_two_to_max_groups_values_and_never_an_id():
    n = 60
    df = pd.DataFrame(
        {
            "label": [i % 2 for i in range(n)],
            "score": [i / n for i in range(n)],
            "group_id": [i % 2 for i in range(n)],  # an id, whatever its name says
            "race": ["A"] * n,  # one value: no groups to compare
            "region": [f"r{i % (loading.MAX_GROUPS + 5)}" for i in range(n)],  # more groups than the loader takes
            "customer_segment": [("retail", "business", "public")[i % 3] for i in range(n)],  # "segment" as a word
        }
    )
    assert guess_mapping(df).group == "customer_segment"


def test_a_group_is_guessed_from_its_content_and_never_a_label_score_id_date_or_flag():
    n = 40
    df = pd.DataFrame(
        {
            "case": [f"c{i}" for i in range(n)],  # every value differs: an id
            "outcome": [("yes", "no")[i % 2] for i in range(n)],  # the label
            "p_default": [(i % 10) / 10 for i in range(n)],  # the score
            "decided": [f"2024-0{1 + i % 3}-15" for i in range(n)],  # dates
            "verified": [("true", "false")[i % 2] for i in range(n)],  # a flag
            "plan": [("basic", "plus", "pro")[i % 3] for i in range(n)],
            "colour": [f"k{i % 15}" for i in range(n)],  # too many values for a guess by content
        }
    )
    guess = guess_mapping(df)
    assert (guess.label, guess.scores) == ("outcome", ("p_default",))
    assert guess.group == "plan"
    assert guess_mapping(df.drop(columns="plan")).group is None
    # numbers without a group name (ratings, counts) are not taken for their content
    assert guess_mapping(fair_like().drop(columns=["occupation", "occupation_husb"])).group is None


def test_a_group_named_column_with_too_many_values_is_not_guessed_but_named_with_the_loaders_sentence():
    n = 60
    df = pd.DataFrame(
        {
            "label": [i % 2 for i in range(n)],
            "score": [i / n for i in range(n)],
            "region": [f"r{i % (loading.MAX_GROUPS + 5)}" for i in range(n)],
        }
    )
    guess = guess_mapping(df)
    assert guess.group is None
    refused = loading.refusals(df, guess, name="g.csv")
    said = by_hand(df, ColumnMapping(label="label", scores=("score",), group="region"), "g.csv")
    assert refused == {"group": (said,)} and '"region" has 25 distinct groups' in said
    kind, text = loaded_sentence(prepare(df, guess, name="g.csv", fingerprint=""), "g.csv", refused)
    assert kind == "success" and text.endswith(" Not taken as the group: in " + said[3:])


def test_counts_in_a_refusal_are_written_as_the_rest_of_the_sentence_writes_them():
    """ "2,000 rows" beside "(1463 rows, first at row 2)" in one sentence."""
    n = 2000
    label = np.where(np.arange(n) % 4 == 0, "fraud", "ok").astype(object)
    label[1500] = "maybe"
    data = pd.DataFrame({"outcome": label, "score": np.linspace(0, 1, n)}).to_csv(index=False).encode()
    with pytest.raises(DataError) as err:
        prepare(
            read_table(data, "t.csv"), ColumnMapping(label="outcome", scores=("score",)), name="t.csv", fingerprint=""
        )
    assert '"ok" (1,500 rows, first at row 3)' in err.value.message and "row 1502)" in err.value.message
