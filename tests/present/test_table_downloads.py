"""A fairness auditor's downloads are numbers, not the page's text: the disparities and the
per-group rates tables download fractions and counts (a spreadsheet can sort and sum them), with
the result in the table's words, row for row the table shown."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.answers.audit import build_audit
from costlib.answers.costs import disparities_view, group_rates_view
from costlib.binary.decision import sweep_model
from costlib.core.escaping import safe_csv

SAMPLE = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"


@pytest.fixture(scope="module")
def audited():
    df = pd.read_csv(SAMPLE)
    ms = sweep_model(df["two_year_recid"], df["p_recid"], df["race"], name="p_recid")
    return ms, build_audit(ms, (1.0, 3.0), unit="$", n_resamples=100, criteria=()).recommendation


def test_the_disparities_download_is_numbers_row_for_row(audited):
    ms, rec = audited
    view = disparities_view(ms, rec, unit="$")
    numbers = view.numbers
    assert len(numbers) == len(view.table)
    assert list(numbers["result"]) == list(view.table["result"])
    assert list(numbers["metric"]) == list(view.table["metric"])
    for column in ("value", "reference", "ratio", "ratio_low", "ratio_high", "difference", "out_of"):
        assert pd.api.types.is_float_dtype(numbers[column]), column
    rates = numbers[numbers["metric"] != "cost per case"]
    assert ((rates["value"] >= 0) & (rates["value"] <= 1)).all()  # fractions, not "88.5%"
    read = pd.read_csv(pd.io.common.BytesIO(safe_csv(numbers)))
    assert np.allclose(read["value"], numbers["value"])


def test_the_group_rates_download_is_numbers_row_for_row(audited):
    ms, rec = audited
    shown, numbers = group_rates_view(ms, rec)
    assert list(numbers["group"]) == list(shown["group"])
    assert [f"{n:,.0f}" for n in numbers["n"].iloc[:-1]] == list(shown["cases"].iloc[:-1])
    for rate in ("flagged rate", "true positive rate", "false positive rate"):
        assert pd.api.types.is_float_dtype(numbers[rate])
        assert (numbers[f"{rate} low"] <= numbers[rate]).all() and (numbers[rate] <= numbers[f"{rate} high"]).all()
    gap = numbers.iloc[-1]
    groups = numbers.iloc[:-1]
    assert gap["flagged rate"] == pytest.approx(groups["flagged rate"].max() - groups["flagged rate"].min())
