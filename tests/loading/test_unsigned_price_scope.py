"""Where the Data page's refusal of a price column with no price below 0 and no label column
(`loading.refuse_unsigned_price`, d0ba36a) must not reach (a last read of that change): the guess
never proposes such a column without a label, since a guess is never refused for a column the
person did not choose; a multiclass file with a class label and a price column of sizes loads,
since its classes do not come from the price's sign; Train with costs, where the sign is always
the class, still guesses the column."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.loading.samples import sample_bytes


def test_the_guess_leaves_out_a_margin_with_no_sign_and_no_label():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"score": rng.random(50).round(3), "margin": rng.random(50).round(2) + 0.1})
    assert loading.guess_mapping(df).delta is None
    assert loading.guess_mapping(df, signed=True).delta == "margin"  # Train with costs reads its sign
    signed = df.assign(margin=np.where(np.arange(50) % 2, 1.0, -1.0) * df["margin"])
    assert loading.guess_mapping(signed).delta == "margin"  # a sign says the class: kept


def test_a_multiclass_file_with_a_price_column_of_sizes_is_not_refused():
    df = pd.read_csv(io.BytesIO(sample_bytes("tickets")))
    df["cost"] = np.linspace(1.0, 9.0, len(df)).round(2)
    probs = tuple(c for c in df.columns if c.startswith("p_"))
    mapping = ColumnMapping(class_label="true_class", class_probs=probs, delta="cost")
    ds = loading.prepare(df, mapping, name="tickets.csv", fingerprint="t")
    assert ds.y_class is not None and ds.y is None
    assert loading.refuse_unsigned_price(ds) is ds
