"""Whether the sign of a price source disagrees with a label column: one rule for the loader
(`roles.priced_by_label` refuses such an upload) and the guess, which leaves out a source the
loader would refuse beside the label it guessed (a "margin" that is a score, votes at odds with
the label), so that no guessed mapping is refused for a column the user never chose."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.core.dataset import Dataset
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.loading.cells import NA_TOKENS, categories, positive_value
from costlib.loading.messages import MSG_PRICE_NEEDS_LABEL, every_row

#: a price per case, its sign the label's: guessed after a label, only beside one (never another role's)
PRICE_NAMES = ("price", "cost", "amount", "prices", "costs", "amounts")


def holds_sizes(values: np.ndarray) -> bool:
    """Whether a price column holds each case's size of a mistake: no value below 0 (its sign is
    then the label's). A signed one, or votes, a rating or a measurement, must agree with the label.

    >>> holds_sizes(np.array([0.0, 2.0])), holds_sizes(np.array([1.0, -2.0]))
    (True, False)
    """
    return not bool((np.asarray(values, dtype=float) < 0).any())


def refuse_unsigned_price(ds: Dataset) -> Dataset:
    """`ds`, or DataError when its classes would come from a price column that holds sizes: with
    no label column, a price's sign is its case's class (`instance`), so a column with no price
    below 0 (`holds_sizes`, the rule that reads it as sizes beside a label) makes every case
    positive, and the Instance costs page then says "400 of 400 cases positive" and "do not let
    the model decide" (review 140). The Data page asks it of every upload; Train with costs, where
    the price's sign is always the class, refuses one class of its own (`training.compare`).

    >>> from costlib.core.dataset import ColumnMapping
    >>> signed = np.array([2.0, -3.0])
    >>> ds = Dataset(name="f.csv", fingerprint="", n_rows=2, mapping=ColumnMapping(delta="p"), delta=signed)
    >>> refuse_unsigned_price(ds) is ds
    True
    """
    if ds.y is not None or ds.y_class is not None or not ds.mapping.delta or ds.delta is None:
        return ds  # a label, or a class label (multiclass: the price does not say the binary class)
    if not holds_sizes(ds.delta):
        return ds
    column = ds.mapping.delta
    said = MSG_PRICE_NEEDS_LABEL.format(
        name=ds.name, column=shorten(column), every_row=every_row(ds.n_rows, 2, ds.n_rows + 1)
    )
    raise DataError(said, column=column)


def sign_disagreements(values: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The rows whose sign of `values` disagrees with the labels `y` (1 positive, 0 not, any other
    value unknown): above 0 where the label is not positive, below 0 where it is. A 0 (no cost, a
    tie of votes), a missing value and an unknown label agree with anything.

    >>> sign_disagreements(np.array([1.0, -1.0, 0.0, 2.0]), np.array([0, 0, 1, -1])).tolist()
    [True, False, False, False]
    """
    values, y = np.asarray(values, dtype=float), np.asarray(y)
    return ((values > 0) & (y == 0)) | ((values < 0) & (y == 1))


def label_classes(label: pd.Series, positive: str | None) -> np.ndarray | None:
    """The two-valued `label` as the loader reads it, `positive` its positive value (`positive_value`):
    1 positive, 0 the other value, -1 missing; None when it is not two-valued or names no positive."""
    codes, names = categories(label, NA_TOKENS)
    chosen = positive_value(names, positive)
    if len(names) != 2 or chosen is None:
        return None
    return np.where(codes < 0, -1, (codes == names.index(chosen)).astype(int))


def price_beside(
    cols,
    label: str | None,
    positive: str | None,
    sources: tuple[str | None, str | None, str | None],
    *,
    signed: bool = False,
) -> tuple[str | None, str | None, str | None]:
    """The price sources the guess keeps, (delta, votes_yes, votes_no) (`guessing._Columns` `cols`,
    the guessed `label` and its `positive` value, the sources guessed by name): beside a label, a
    column named like a price ("price", "Cost", "amount") that no other role took is its size of a
    mistake (review 140); and every source whose signs disagree with the guessed label is left out,
    the loader would refuse it: a signed delta or price column, or votes (`sign_disagreements`).
    Without a label and unless the price's sign is always the class (`signed`, Train with costs), a
    price column with no price below 0 is left out too: the Data page refuses it
    (`refuse_unsigned_price`), and a guess is never refused for a column the person did not choose."""
    y = label_classes(cols.col(label), positive) if label is not None else None
    delta, yes, no = _agreeing(cols, y, *sources)
    if label is None and not signed and delta and holds_sizes(_numbers(cols.col(delta))):
        cols.used.discard(delta)
        delta = None
    if label is not None and not (delta or yes):
        delta = cols.find(PRICE_NAMES, numeric_only=True)
        cols.take(delta)
        delta = _agreeing(cols, y, delta, None, None)[0]
    return delta, yes, no


def _agreeing(
    cols, y: np.ndarray | None, delta: str | None, yes: str | None, no: str | None
) -> tuple[str | None, str | None, str | None]:
    """The sources (delta, votes_yes, votes_no) the loader would not refuse beside the labels `y`."""
    if y is None:  # no label, or none the loader reads without asking which value is positive
        return delta, yes, no
    if delta and _disagrees(_numbers(cols.col(delta)), y, price=True):
        cols.used.discard(delta)
        delta = None
    if yes and no and _disagrees(_numbers(cols.col(yes)) - _numbers(cols.col(no)), y, price=False):
        yes = no = None  # more yes votes than no: the positive class (`instance.delta_from_votes`)
    return delta, yes, no


def _numbers(column: pd.Series) -> np.ndarray:
    return pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)


def _disagrees(values: np.ndarray, y: np.ndarray, price: bool) -> bool:
    """Whether the loader refuses `values` beside the labels `y` (`roles.priced_by_label`)."""
    return not (price and holds_sizes(values)) and bool(sign_disagreements(values, y).any())
