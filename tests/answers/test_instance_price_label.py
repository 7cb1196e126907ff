"""Instance costs on a file with a 0/1 label and an all-positive price column (review 140): the
page said "400 of the 400 cases are positive" and "Do not let the model decide ... flagging
everyone ... at $0.00 per case", contradicting the Data page's positives."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib import answers, loading
from costlib.core.dataset import ColumnMapping


def priced_file() -> pd.DataFrame:
    rng = np.random.default_rng(140)
    label = rng.integers(0, 2, 400)
    score = np.clip(0.5 + 0.3 * (label - 0.5) + rng.normal(0, 0.2, 400), 0, 1).round(4)
    return pd.DataFrame({"label": label, "score": score, "price": rng.uniform(0.1, 4, 400).round(3)})


def test_the_label_column_says_which_cases_are_positive_and_flagging_everyone_is_not_free():
    df = priced_file()
    ds = loading.prepare(
        df, ColumnMapping(label="label", scores=("score",), delta="price"), name="good.csv", fingerprint=""
    )
    answer = answers.instance_answer(ds)
    positives = int(df["label"].sum())
    assert f"{positives:,} of the 400 cases are positive" in answer.sentence, answer.sentence
    assert 'column "label" says which cases are positive' in answer.sentence
    assert "its sign is the label" not in answer.sentence
    verdict = answer.verdict(1.0, "$", 10_000)
    assert verdict.kind == "success" and "$0.00 per case" not in verdict.headline, verdict.headline
    assert "Here δ is the price column, below 0 on the cases whose label is not" in answer.terms(1.0)[0]
