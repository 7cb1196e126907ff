"""Validating each column role and turning it into the array a `Dataset` holds.

Every function takes the `Table` being prepared and raises a `DataError` naming the file,
the column and the first offending rows, or returns the validated array. Fixes that a
function can offer carry `fix` (words) and `fix_action` (a fixed word; see preparing.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.core import settings
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.core.settings import MSG_GROUP_TOO_MANY
from costlib.instance import delta_from_rating, delta_from_threshold, delta_from_votes
from costlib.loading.cells import (
    DECIMAL_COMMA_RE,
    as_float,
    barely_above_one,
    categories,
    cell_text,
    code_dtype,
    counts,
    first_rows,
    first_true,
    group_codes,
    is_missing,
    positive_value,
    to_float,
)
from costlib.loading.guessing import SPLIT_ALIASES
from costlib.loading.messages import (
    FIX_TOP_GROUPS,
    MSG_ALSO_EMPTY,
    MSG_ALSO_INFINITE,
    MSG_DECIMAL_COMMA_HINT,
    MSG_DELTA_OVERFLOW,
    MSG_DELTA_SOURCES,
    MSG_DELTA_TOTAL,
    MSG_DELTA_ZERO,
    MSG_INFINITE,
    MSG_LABEL_MANY,
    MSG_LABEL_NEEDS_POSITIVE,
    MSG_LABEL_ONE_CLASS,
    MSG_MISSING_NUMBERS,
    MSG_NEEDS_NUMBER,
    MSG_NOT_NUMBERS,
    MSG_OUTSIDE_01,
    MSG_OUTSIDE_01_ABOVE_ONE,
    MSG_OUTSIDE_01_FEW,
    MSG_POSITIVE_NOT_FOUND,
    MSG_PRICE_SIGN_LABEL,
    MSG_SOURCE_SIGN_LABEL,
    MSG_SPLIT_UNKNOWN,
    MSG_TOTAL_ALL,
    MSG_TOTAL_LARGEST,
    MSG_VOTES_INCOMPLETE,
    MSG_VOTES_NEGATIVE,
    MSG_VOTES_NOT_INTEGER,
    MSG_WEIGHT_NEGATIVE,
    MSG_WEIGHT_TOTAL,
    MSG_WEIGHT_ZERO,
    NOTE_ABOVE_ONE,
    NOTE_MISSING_GROUP,
    NOTE_ONE_ROW_GROUP,
    NOTE_SPLIT_WORDS,
    NOTE_TOP_GROUPS,
    SHOW,
    SPLIT_READ_AS,
    every_row,
    file_row,
    flag_phrase,
    join,
    num,
    plural,
    q,
    rows_sentence,
)
from costlib.loading.price_signs import holds_sizes, sign_disagreements

MAX_GROUPS = settings.MAX_GROUPS  # one bound on every path (core.settings)
DEFAULT_TOP_GROUPS = 10
ACTION_TOP_GROUPS = "top_groups"
ACTION_RENORMALISE = "renormalise"


class Table:
    """The table being prepared: its name, its notes and which of its rows are still kept.

    Row numbers in sentences are the file's own (1-based data rows), also after rows were
    dropped; columns read through `col` hold the kept rows only. `flags` names the
    command-line flag of each setting (a `ColumnMapping` field), for the sentences that ask
    for one (`flag`); None on the dashboard.
    """

    def __init__(self, df: pd.DataFrame, name: str, flags: Mapping[str, str] | None = None):
        self.df = df
        self.name = name
        self.flags = dict(flags or {})
        self.n = len(df)
        self.notes: list[str] = list(df.attrs.get("notes", []) or [])
        self.lookup = {str(c): i for i, c in enumerate(df.columns)}
        self._kept: np.ndarray | None = None  # positions of the kept rows, once rows are dropped

    def col(self, column: str) -> pd.Series:
        s = self.df.iloc[:, self.lookup[column]]
        return s if self._kept is None else s.iloc[self._kept]

    def keep(self, mask: np.ndarray) -> None:
        kept = np.flatnonzero(mask)
        self._kept = kept if self._kept is None else self._kept[kept]
        self.n = len(self._kept)

    def rownums(self, idx: np.ndarray) -> np.ndarray:
        """The file's row numbers (`file_row`: the header is row 1) of the kept rows at positions `idx`."""
        idx = np.asarray(idx, dtype=np.int64)
        return file_row(idx if self._kept is None else self._kept[idx])

    def flag(self, setting: str, value: str = "") -> str:
        """' (--scale raw)' when the command line names `setting`'s flag, else '' (`flag_phrase`)."""
        return flag_phrase(self.flags, setting, value)

    @property
    def first(self) -> int:
        """The file's row number of the first kept row."""
        return int(self.rownums(np.array([0]))[0])

    @property
    def last(self) -> int:
        """The file's row number of the last kept row."""
        return int(self.rownums(np.array([self.n - 1]))[0])

    @property
    def every_row(self) -> str:
        """'in all 6,000 rows (rows 2 to 6001)', 'in its only row (row 2)' (`messages.every_row`)."""
        return every_row(self.n, self.first, self.last)

    def bad(
        self,
        template: str,
        column: str | None,
        mask: np.ndarray,
        *,
        values: np.ndarray | None = None,
        value_prefix: str = "",
        cells: bool = False,
        **fields: object,
    ) -> str:
        """`template` filled for the rows in `mask`: their count, the first rows and, when
        asked, their `values` (formatted as numbers) or their cells in `column`."""
        idx = first_true(mask, SHOW)
        texts = None
        if values is not None:
            texts = [value_prefix + num(v) for v in values[idx]]
        elif cells and column is not None:
            texts = self.texts(column, idx)
        return rows_sentence(
            template,
            name=self.name,
            rownums=self.rownums(idx),
            count=int(np.count_nonzero(mask)),
            texts=texts,
            column=None if column is None else shorten(column),
            **fields,
        )

    def texts(self, column: str, idx: np.ndarray) -> list[str]:
        values = self.col(column).iloc[idx].tolist()
        return [cell_text(v) if not is_missing(v) else "" for v in values]


# ---------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------


def numbers(t: Table, column: str) -> np.ndarray:
    """The column as a new float64 array, or DataError naming its text, blank and infinite cells
    at once: each kind with its count and its first rows (the text and infinite cells quoted)."""
    values, not_number, missing = as_float(t.col(column))
    inf = np.isinf(values)
    if not (not_number.any() or missing.any() or inf.any()):
        return values
    if not_number.any():
        msg = t.bad(MSG_NOT_NUMBERS, column, not_number, cells=True)
        shown = t.texts(column, first_true(not_number, SHOW))
        if 2 * sum(bool(DECIMAL_COMMA_RE.match(x)) for x in shown) > len(shown):  # most of them, not one in four
            msg += MSG_DECIMAL_COMMA_HINT
        if missing.any():  # say everything wrong with the column at once, each kind with its rows
            msg += t.bad(MSG_ALSO_EMPTY, column, missing, cell_word=plural(int(missing.sum()), "cell", "cells"))
    elif missing.any():
        msg = t.bad(MSG_MISSING_NUMBERS, column, missing)
    else:
        msg = t.bad(MSG_INFINITE, column, inf, values=values)
    if inf.any() and (not_number.any() or missing.any()):  # not one kind per upload: every kind now
        msg += t.bad(MSG_ALSO_INFINITE, column, inf, values=values)
    raise DataError(msg, column=column)


def check_number(t: Table, column: str, role: str, what: str, value: object) -> float:
    """A setting that goes with a column (a midpoint, a threshold) as a finite float."""
    x = to_float(value) if value is not None else math.nan
    if not math.isfinite(x):
        shown = "not given" if value is None else q(value)
        raise DataError(
            MSG_NEEDS_NUMBER.format(name=t.name, column=shorten(column), role=role, what=what, value=shown),
            column=column,
        )
    return x


def probabilities(t: Table, column: str, **error: object) -> np.ndarray:
    """The column as numbers in [0, 1], or DataError.

    `error`'s fix (reading the scores as log-odds) is offered only when most values lie
    outside [0, 1]: then the column is on another scale. A few stray values are errors in
    those rows, and rescaling the whole column would corrupt every other score. Scores mostly
    above 1 but all between 0 and 2 (`cells.barely_above_one`) are said to be probabilities gone a
    little over 1, and offered no fix: read as log-odds they would all be chances above one half.
    """
    values = numbers(t, column)
    outside = (values < 0) | (values > 1)
    if outside.any():
        msg = t.bad(
            MSG_OUTSIDE_01,
            column,
            outside,
            values=values,
            low=num(values.min()),
            high=num(values.max()),
            logit_flag=t.flag("score_scale", "logit"),
            raw_flag=t.flag("score_scale", "raw"),
        )
        if outside.mean() <= 0.5:
            msg += MSG_OUTSIDE_01_FEW.format(raw_flag=t.flag("score_scale", "raw"))
            error = {}
        elif barely_above_one(values):
            msg += MSG_OUTSIDE_01_ABOVE_ONE.format(high=num(values.max()), raw_flag=t.flag("score_scale", "raw"))
            error = {}
        raise DataError(msg, column=column, **error)  # type: ignore[arg-type]
    return values


def above_one_note(t: Table, column: str, values: np.ndarray) -> str | None:
    """The note for raw scores that look like probabilities gone a little over 1
    (`cells.barely_above_one`): the rows above 1, and what Value and Calibration need; else None."""
    if not barely_above_one(values):
        return None
    return t.bad(NOTE_ABOVE_ONE, column, values > 1, values=values, high=num(values.max()))


# ---------------------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------------------


def binary_labels(
    t: Table, column: str, codes: np.ndarray, names: list[str], positive: str | None
) -> tuple[np.ndarray, str]:
    """int8 0/1 labels from the label's codes, and the value that means positive."""
    k = len(names)
    first = first_rows(codes, k)
    if k == 1:
        raise DataError(
            MSG_LABEL_ONE_CLASS.format(name=t.name, column=shorten(column), value=q(names[0]), every_row=t.every_row),
            column=column,
        )
    if k > 2:
        raise DataError(_many_labels(t, column, codes, names, first), column=column)
    a, b = names
    where = {"a": q(a), "b": q(b), "row_a": t.rownums(first[:1])[0], "row_b": t.rownums(first[1:2])[0]}
    chosen = positive_value(names, positive)
    if chosen is None and (positive is None or str(positive).strip() == ""):
        raise DataError(
            MSG_LABEL_NEEDS_POSITIVE.format(
                name=t.name, column=shorten(column), positive_flag=t.flag("positive", "VALUE"), **where
            ),
            column=column,
        )
    if chosen is None:
        raise DataError(
            MSG_POSITIVE_NOT_FOUND.format(
                name=t.name, column=shorten(column), positive=q(positive), positive_flag=t.flag("positive"), **where
            ),
            column=column,
        )
    return (codes == names.index(chosen)).astype(np.int8), chosen


def _many_labels(t: Table, column: str, codes: np.ndarray, names: list[str], first: np.ndarray) -> str:
    k = len(names)
    n_of = counts(codes, k)
    order = np.argsort(-n_of, kind="stable")
    parts = [_count_and_first(t, names[i], n_of[i], first[i]) for i in order[:10]]
    listing = join(parts) + (f" and {k - 10} more" if k > 10 else "")
    return MSG_LABEL_MANY.format(name=t.name, column=shorten(column), k=k, listing=listing)


def _count_and_first(t: Table, value: str, count: int, first: int) -> str:
    """'"maybe" (3 rows, first at row 12)', '"ok" (1,463 rows, first at row 2)': counts as the
    rest of a sentence writes them."""
    n = int(count)
    return f"{q(value)} ({n:,} {plural(n, 'row', 'rows')}, first at row {t.rownums(np.array([first]))[0]})"


def compact(codes: np.ndarray, names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Drop names no longer used (after rows were dropped), keeping appearance order."""
    present = counts(codes, len(names)) > 0
    if present.all():
        return codes, names
    lut = np.append(np.cumsum(present) - 1, -1).astype(code_dtype(int(present.sum())))
    return lut[codes], [n for n, p in zip(names, present, strict=True) if p]


# ---------------------------------------------------------------------------------------
# Weight, split and groups
# ---------------------------------------------------------------------------------------


def weight(t: Table, column: str) -> np.ndarray:
    w = numbers(t, column)
    neg = w < 0
    if neg.any():
        raise DataError(t.bad(MSG_WEIGHT_NEGATIVE, column, neg, values=w), column=column)
    if not (w > 0).any():
        raise DataError(
            MSG_WEIGHT_ZERO.format(name=t.name, column=shorten(column), every_row=t.every_row),
            column=column,
        )
    which = _too_large_rows(t, column, w)
    if which:  # as for prices: each weight fits, their total does not, and every cost would be NaN
        limit = num(np.finfo(np.float64).max)
        raise DataError(
            MSG_WEIGHT_TOTAL.format(name=t.name, column=shorten(column), limit=limit, which=which), column=column
        )
    return w


def split(t: Table, column: str) -> np.ndarray:
    """The split role of each row ("train", "validation", "test"), or DataError."""
    codes, names = categories(t.col(column))
    roles = [SPLIT_ALIASES.get(n.lower()) for n in names]
    bad_code = np.array([r is None for r in roles] + [True], dtype=bool)  # the last: missing
    bad = bad_code[codes]
    if bad.any():
        raise DataError(t.bad(MSG_SPLIT_UNKNOWN, column, bad, cells=True), column=column)
    # a value that is not the role's own name ("holdout", "dev") is said, not merged silently
    aliased = [SPLIT_READ_AS.format(value=q(n), role=r) for n, r in zip(names, roles, strict=True) if n.lower() != r]
    if aliased:
        t.notes.append(NOTE_SPLIT_WORDS.format(name=t.name, column=shorten(column), pairs=join(aliased)))
    return np.array(roles, dtype=object)[codes]


def groups(t: Table, column: str, top_groups: int | None) -> np.ndarray:
    """Group names (str) per row: blanks become a group of their own; with `top_groups`,
    the smaller groups are put together; more than MAX_GROUPS groups is a DataError."""
    codes, names = missing_group(t, column)
    if top_groups is not None:
        codes, names = keep_top_groups(t, column, codes, names, max(1, int(top_groups)))
    elif len(names) > MAX_GROUPS:
        raise too_many_groups_refusal(t, column, codes, names)
    note_one_row_groups(t, column, codes, names)
    return np.array(names, dtype=object)[codes]


def missing_group(t: Table, column: str) -> tuple[np.ndarray, list[str]]:
    """`cells.group_codes` of `column`, with a note naming the blank cells' rows and their group."""
    codes, names, blank = group_codes(t.col(column))
    if blank.any():
        t.notes.append(t.bad(NOTE_MISSING_GROUP, column, blank, missing=names[-1]))
    return codes, names


def keep_top_groups(
    t: Table, column: str, codes: np.ndarray, names: list[str], top: int
) -> tuple[np.ndarray, list[str]]:
    k = len(names)
    if k <= top:
        return codes, names
    n_of = counts(codes, k)
    keep = np.zeros(k, dtype=bool)
    keep[np.argsort(-n_of, kind="stable")[:top]] = True
    kept_names = [names[i] for i in range(k) if keep[i]]
    other = "Other"
    while other in kept_names:
        other += " (rest)"
    lut = np.where(keep, np.cumsum(keep) - 1, len(kept_names)).astype(code_dtype(top + 1))
    t.notes.append(
        NOTE_TOP_GROUPS.format(
            name=t.name,
            column=shorten(column),
            k=k,
            top=top,
            rest=k - top,
            rest_rows=int(n_of[~keep].sum()),
            other=other,
        )
    )
    return lut[codes], kept_names + [other]


def too_many_groups_refusal(t: Table, column: str, codes: np.ndarray, names: list[str]) -> DataError:
    k = len(names)
    n_of = counts(codes, k)
    first = first_rows(codes, k)
    largest = ", ".join(_count_and_first(t, names[i], n_of[i], first[i]) for i in np.argsort(-n_of, kind="stable")[:3])
    return DataError(
        MSG_GROUP_TOO_MANY.format(name=t.name, column=shorten(column), k=k, largest=largest, limit=MAX_GROUPS),
        fix=FIX_TOP_GROUPS.format(top=DEFAULT_TOP_GROUPS),
        fix_action=ACTION_TOP_GROUPS,
        column=column,
    )


def note_one_row_groups(t: Table, column: str, codes: np.ndarray, names: list[str]) -> None:
    k = len(names)
    single = [i for i, c in enumerate(counts(codes, k)) if c == 1]
    if not single:
        return
    first = first_rows(codes, k)
    shown = [q(names[i]) for i in single[:SHOW]]
    more = f" and {len(single) - SHOW} more" if len(single) > SHOW else ""
    t.notes.append(
        rows_sentence(
            NOTE_ONE_ROW_GROUP,
            name=t.name,
            rownums=np.sort(t.rownums(first[single])),
            count=len(single),
            groups=plural(len(single), "group ", "groups ") + join(shown) + more,
            column=column,
            has_have=plural(len(single), "has", "have"),
            it_them=plural(len(single), "it", "them"),
        )
    )


# ---------------------------------------------------------------------------------------
# Delta: from a column, votes, a rating or a measurement
# ---------------------------------------------------------------------------------------


def delta(
    t: Table, m: ColumnMapping, y: np.ndarray | None = None, labels: tuple[str, str] = ("1", "0")
) -> np.ndarray | None:
    """Signed instance margins from the one source the mapping names, or None. A price column
    read beside the chosen labels `y` (`labels`: the positive and the other value, for the
    sentence) is signed by them (`priced_by_label`)."""
    sources = []
    if m.delta:
        sources.append(f"the price column {q(m.delta)}")
    if m.votes_yes or m.votes_no:
        sources.append("the votes")
    if m.rating:
        sources.append(f"the rating {q(m.rating)}")
    if m.measurement:
        sources.append(f"the measurement {q(m.measurement)}")
    if not sources:
        return None
    if len(sources) > 1:
        raise DataError(MSG_DELTA_SOURCES.format(name=t.name, sources=join(sources)))
    if m.delta:
        values, source, column, reads = numbers(t, m.delta), f"the price column {q(m.delta)}", m.delta, ("", "")
    elif m.votes_yes or m.votes_no:
        values, source, column, reads = _delta_from_votes(t, m)
    else:
        values, source, column, reads = _delta_from_scale(t, m)
    bad = ~np.isfinite(values)
    if bad.any():
        raise DataError(t.bad(MSG_DELTA_OVERFLOW, column, bad, source=source), column=column)
    which = _too_large_rows(t, column, values)
    if which:  # each price fits, their total does not: every cost would be inf or NaN
        limit = num(np.finfo(np.float64).max)
        raise DataError(MSG_DELTA_TOTAL.format(name=t.name, source=source, limit=limit, which=which), column=column)
    if not np.any(values != 0):
        raise DataError(MSG_DELTA_ZERO.format(name=t.name, source=source, every_row=t.every_row), column=column)
    if y is not None:
        values = priced_by_label(t, m, values, y, labels, (source, column, reads))
    return np.ascontiguousarray(values, dtype=np.float64)


def priced_by_label(
    t: Table, m: ColumnMapping, values: np.ndarray, y: np.ndarray, labels: tuple[str, str], read: tuple
) -> np.ndarray:
    """The prices `values` beside the chosen labels `y` (`read`: the source in words, its column and
    how its sign reads, above 0 and below, for the sentence): a price column with no value below 0
    holds each case's size of a mistake, and takes its sign from the label (a product manager's price
    column is all positive: its sign once overrode every label, review 140); a signed price, or one
    from votes, a rating or a measurement, must agree with the labels (`price_signs`, the guess's
    rule too), or DataError naming the rows where it does not. Never a label silently replaced.

    >>> t, m = Table(pd.DataFrame({"y": [1, 0], "p": [2.0, 3.0]}), "f.csv"), ColumnMapping(label="y", delta="p")
    >>> priced_by_label(t, m, np.array([2.0, 3.0]), np.array([1, 0]), ("1", "0"), ("", "p", ("", ""))).tolist()
    [2.0, -3.0]
    """
    if m.delta and holds_sizes(values):
        return np.where(y == 1, values, -values)
    wrong = sign_disagreements(values, y)
    if wrong.any():
        (source, column, (above, below)), (positive, negative) = read, labels
        template, shown = (MSG_PRICE_SIGN_LABEL, values) if m.delta else (MSG_SOURCE_SIGN_LABEL, None)
        words = {"label": shorten(str(m.label)), "positive": q(positive), "negative": q(negative)}
        said = t.bad(template, column, wrong, values=shown, source=source, above=above, below=below, **words)
        raise DataError(said, column=column)
    return values


def _too_large_rows(t: Table, column: str, values: np.ndarray) -> str:
    """'' when the sizes of `values` add up to a float; else the sentence naming the largest rows
    (`too_large_to_add`), or every row when all are that large."""
    largest = too_large_to_add(values)
    if largest is None:
        return ""
    k, smallest = int(largest.sum()), num(float(np.abs(values).min()))
    words = plural(k, "largest value", f"largest {k:,} values")
    template = MSG_TOTAL_ALL if largest.all() else MSG_TOTAL_LARGEST
    return t.bad(template, column, largest, values=values, largest=words, smallest=smallest)


def too_large_to_add(values: np.ndarray) -> np.ndarray | None:
    """None when the sizes of `values` (finite) add up to a finite float64; else the mask of the
    largest, without which they would: every value at least as large as the one at which the
    running total of the sizes, smallest first, overflows.

    >>> too_large_to_add(np.array([1.0, -2.0])) is None
    True
    >>> too_large_to_add(np.array([1.0, 1e308, -1e308])).tolist()
    [False, True, True]
    """
    sizes = np.abs(values)
    with np.errstate(over="ignore"):
        if np.isfinite(sizes.sum()):
            return None
        ordered = np.sort(sizes)
        at = int(np.argmax(~np.isfinite(np.cumsum(ordered))))
    return sizes >= ordered[at]


def _delta_from_votes(t: Table, m: ColumnMapping) -> tuple[np.ndarray, str, str, tuple[str, str]]:
    if not (m.votes_yes and m.votes_no):
        given, other = ("yes", "no") if m.votes_yes else ("no", "yes")
        column = m.votes_yes or m.votes_no
        raise DataError(
            MSG_VOTES_INCOMPLETE.format(name=t.name, given=given, other=other, column=shorten(column)), column=column
        )
    votes = []
    for column in (m.votes_yes, m.votes_no):
        v = numbers(t, column)
        neg = v < 0
        if neg.any():
            raise DataError(t.bad(MSG_VOTES_NEGATIVE, column, neg, values=v), column=column)
        frac = v != np.floor(v)
        if frac.any():
            raise DataError(t.bad(MSG_VOTES_NOT_INTEGER, column, frac, values=v), column=column)
        votes.append(v)
    reads = ("more yes votes than no", "more no votes than yes")  # the sign of each case's votes
    return delta_from_votes(votes[0], votes[1]), f"the votes {q(m.votes_yes)} and {q(m.votes_no)}", m.votes_yes, reads


def _delta_from_scale(t: Table, m: ColumnMapping) -> tuple[np.ndarray, str, str, tuple[str, str]]:
    """A rating minus its midpoint, or a measurement minus its threshold (and how its sign reads)."""
    if m.rating:
        mid = check_number(t, m.rating, "the rating", "midpoint", m.rating_midpoint)
        with np.errstate(over="ignore", invalid="ignore"):
            values = delta_from_rating(numbers(t, m.rating), mid)
        reads = (f"a rating above {num(mid)}", f"below {num(mid)}")
        return values, f"the rating {q(m.rating)} minus {num(mid)}", m.rating, reads
    assert m.measurement
    tau = check_number(t, m.measurement, "the measurement", "threshold", m.measurement_threshold)
    with np.errstate(over="ignore", invalid="ignore"):
        values = delta_from_threshold(numbers(t, m.measurement), tau)
    reads = (f"a measurement above {num(tau)}", f"below {num(tau)}")
    return values, f"the measurement {q(m.measurement)} minus {num(tau)}", m.measurement, reads
