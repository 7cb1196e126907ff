"""Whether a signed price column's signs disagree with a label column: a column the guess would
take as the price (named "margin", say) whose signs are not the label's is no price beside that
label (the loader refuses it: `roles.priced_by_label`), so the guess leaves it out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.loading.cells import NA_TOKENS, binary_default, categories

#: a price per case, its sign the label's: guessed after a label, only beside one (never another role's)
PRICE_NAMES = ("price", "cost", "amount", "prices", "costs", "amounts")


def price_beside(cols, label: str | None, positive: str | None, delta: str | None, votes: str | None) -> str | None:
    """The price column the guess takes (`guessing._Columns` `cols`, the guessed `label` and its
    `positive` value, the `delta` and `votes` columns guessed by name): a delta column whose signs
    disagree with the label is left out (a "margin" that is a score: the loader would refuse it),
    and beside a label, a column named like a price ("price", "Cost", "amount") that no other role
    took is its size of a mistake (review 140); None when none is."""
    if delta and label and signs_disagree(cols.col(label), positive, cols.col(delta)):
        cols.used.discard(delta)
        delta = None
    if label is not None and not (delta or votes):
        delta = cols.find(PRICE_NAMES, numeric_only=True)
        cols.take(delta)
    return delta


def signs_disagree(label: pd.Series, positive: str | None, price: pd.Series) -> bool:
    """Whether `price` has values below 0 and a sign that disagrees with the two-valued `label`
    (`positive` its positive value, else 1 or true) on some row; False when that cannot be told.

    >>> signs_disagree(pd.Series([0, 1]), None, pd.Series([-1.0, 2.0]))
    False
    >>> signs_disagree(pd.Series([0, 1]), None, pd.Series([1.0, -2.0]))
    True
    """
    codes, names = categories(label, NA_TOKENS)
    positive = positive if positive in names else binary_default(names)
    values = pd.to_numeric(price, errors="coerce").to_numpy(dtype=float)
    if len(names) != 2 or positive is None or not (values < 0).any():
        return False
    known = codes >= 0
    y = known & (np.asarray(names, dtype=object)[np.maximum(codes, 0)] == positive)
    return bool((known & (((values > 0) & ~y) | ((values < 0) & y))).any())
