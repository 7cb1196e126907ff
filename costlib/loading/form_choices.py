"""What a column-mapping form offers: the values of a label column to pick the positive one from
(`label_values`), the one that most likely means "positive" (`likely_positive`), the columns
each role lists for a very wide file (`offered_columns`), and the score columns that look like
percentages (`percent_columns`: the form offers to read them as probabilities)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.cells import (
    NA_TOKENS,
    as_float,
    categories,
    counts,
    largest_number,
    looks_like_percent,
    sorted_values,
)
from costlib.loading.guessing import POSITIVE_WORDS, mapped_columns
from costlib.loading.messages import MSG_MISSING_COLUMN, available, q

MAX_LABEL_VALUES = 50
MAX_COLUMNS_OFFERED = 500  # a mapping form lists at most this many columns per role


def likely_positive(values: list[str]) -> str | None:
    """The value of a label that most likely means "positive": a positive word ("yes", "true",
    "positive", "pos", "y"), else the largest number when all values are numbers (2 of a 1/2
    label, as the guess has it: `cells.largest_number`), else "1", else a value starting with
    "pos"; None when none looks like it.

    >>> likely_positive(["maybe", "no", "yes"]), likely_positive(["1", "2"])
    ('yes', '2')
    """
    lowered = {str(v).strip().lower(): v for v in values}
    for word in POSITIVE_WORDS:
        if word in lowered:
            return lowered[word]
    largest = largest_number([str(v) for v in values])
    if largest is not None:
        return values[[str(v) for v in values].index(largest)]
    for word in ("1", "1.0"):
        if word in lowered:
            return lowered[word]
    return next((v for k, v in lowered.items() if k.startswith("pos")), None)


def label_values(df: pd.DataFrame, column: str) -> list[str]:
    """Distinct non-missing values of a label column as text, for a "which is positive?" picker.

    Parameters
    ----------
    df : DataFrame
        A table from `read_table`.
    column : str
        The label column.

    Returns
    -------
    list of str
        At most MAX_LABEL_VALUES values (the most frequent), as `prepare` compares them:
        stripped text, 1.0 as "1"; numbers in numeric order, other text in case-blind order.
        Blank cells and NA-like text ("NA", "null", ...) are left out.

    Raises
    ------
    DataError
        When `column` is not a column of `df`.

    Examples
    --------
    >>> import pandas as pd
    >>> label_values(pd.DataFrame({"y": ["yes", " no", None, "NA"]}), "y")
    ['no', 'yes']
    """
    lookup = {str(c): i for i, c in enumerate(df.columns)}
    if column not in lookup:
        raise DataError(
            MSG_MISSING_COLUMN.format(
                name="the table",
                what=f"the column {q(column)} chosen as the label",
                verb="does",
                available=available([str(c) for c in df.columns]),
            ),
            column=column,
        )
    codes, names = categories(df.iloc[:, lookup[column]], NA_TOKENS)
    if len(names) > MAX_LABEL_VALUES:
        keep = np.argsort(-counts(codes, len(names)), kind="stable")[:MAX_LABEL_VALUES]
        names = [names[i] for i in keep]
    return sorted_values(names)


def offered_columns(columns: Sequence[str], guess: ColumnMapping, limit: int = MAX_COLUMNS_OFFERED) -> list[str]:
    """The columns a mapping form lists for each role.

    A form with 100,000 options in each of a dozen lists takes minutes to draw, so a table
    wider than `limit` offers its guessed columns and then its first ones (a column not
    listed can still be typed in; NOTE_WIDE says so).

    Parameters
    ----------
    columns : sequence of str
        The table's columns.
    guess : ColumnMapping
        The guess (`guess_mapping`): its columns come first.
    limit : int, default MAX_COLUMNS_OFFERED
        How many columns to offer.

    Returns
    -------
    list of str
        All columns when there are at most `limit`, else `limit` of them.

    Examples
    --------
    >>> offered_columns(["a", "b", "c", "d"], ColumnMapping(label="d"), limit=2)
    ['d', 'a']
    """
    columns = [str(c) for c in columns]
    if len(columns) <= limit:
        return columns
    offered = list(dict.fromkeys(mapped_columns(guess)))
    chosen = set(offered)
    for c in columns:
        if len(offered) >= limit:
            break
        if c not in chosen:
            offered.append(c)
    return offered


def percent_columns(df: pd.DataFrame, scores: Sequence[str]) -> dict[str, float]:
    """The score columns of `scores` that look like percentages (`cells.looks_like_percent`: some
    above 1, the largest above `cells.PERCENT_ABOVE`), with the largest value of each: the mapping
    form says so and offers to read them as probabilities (the "percent_scores" fix). Scores barely
    above 1 are not offered (`prepare` notes them, or refuses them as probabilities). A column that
    is not all numbers, or not in `df`, is left to `prepare`'s sentences.

    Examples
    --------
    >>> percent_columns(pd.DataFrame({"p": [12.5, 80.0, 3.0], "q": [0.1, 0.5, 0.9]}), ["p", "q"])
    {'p': 80.0}
    """
    lookup = {str(c): i for i, c in enumerate(df.columns)}
    found: dict[str, float] = {}
    for c in dict.fromkeys(scores):
        if c not in lookup:
            continue
        values, not_number, _ = as_float(df.iloc[:, lookup[c]])
        if not not_number.any() and looks_like_percent(values):
            found[c] = float(np.nanmax(values))
    return found
