"""Multiclass columns: the probability columns (one per class) and the class label, validated.

Split from `roles` (the other column roles); the same `Table` and the same kind of sentence:
the file, the columns and the first offending rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.loading.cells import first_true, match_value, to_float
from costlib.loading.guessing import class_names_for
from costlib.loading.messages import (
    CLASS_ONE_CLASS_NAMED,
    FIX_RENORMALISE,
    MSG_CLASS_ALSO_SUM,
    MSG_CLASS_NAMES_COUNT,
    MSG_CLASS_NAMES_REPEAT,
    MSG_CLASS_NEGATIVE,
    MSG_CLASS_ONE_CLASS,
    MSG_CLASS_SUM,
    MSG_CLASS_SUM_ZERO,
    MSG_CLASS_TOO_FEW,
    MSG_CLASS_UNKNOWN,
    NOTE_RENORMALISED,
    SHOW,
    join,
    num,
    plural,
    plural_words,
    q,
    rows_phrase,
)
from costlib.loading.roles import ACTION_RENORMALISE, Table, numbers

#: how far from 1 a row of class probabilities may sum and still be read (renormalised to sum to 1
#: exactly, without a word): probabilities a person writes to 3 decimals sum to 0.999 or 1.001 (a
#: review's file of three columns at 3 decimals was refused in 43 of its 600 rows at 0.001); 2 decimals
#: over 3 columns can be 0.015 off, which is not rounding alone at 3 (the refusal says this tolerance
#: and offers to renormalise). The one tolerance: `costlib.loading.SUM_TOLERANCE` is this.
SUM_TOLERANCE = 0.005
FLOAT_SLACK = 1e-12  # a row off 1 by no more than this sums to 1 already, bar floating point: left as it is


def class_probs(
    t: Table, columns: list[str], names: tuple[str, ...], renormalise: bool
) -> tuple[np.ndarray, tuple[str, ...]]:
    """The (n, K) probability block and the class names, checked (and renormalised if asked).

    Rows that sum to 1 within `SUM_TOLERANCE` (probabilities rounded as a person writes them) are
    divided by their sum, so that every row sums to 1 exactly. One refusal says what is wrong with
    the block: negative values (per column, the first rows) and the rows that do not sum to 1
    within that tolerance; rows that do not sum to 1 alone (values above 1 among them) are offered
    the renormalising fix."""
    names = _class_names(t, columns, names)
    block = np.empty((t.n, len(columns)), dtype=np.float64)
    for j, c in enumerate(columns):
        block[:, j] = numbers(t, c)
    sums = block.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOLERANCE + FLOAT_SLACK  # 0.2 + 0.3 + 0.495 is 0.99499999...: within
    negative = block < 0
    if negative.any():
        raise _negative_refusal(t, columns, block, negative, sums, off)
    if off.any():
        _renormalise(t, columns, block, sums, off, renormalise)
    rounded = ~off & (np.abs(sums - 1.0) > FLOAT_SLACK)
    block[rounded] /= sums[rounded, None]  # within rounding: to 1, nothing to say
    return block, names


def _negative_refusal(
    t: Table, columns: list[str], block: np.ndarray, negative: np.ndarray, sums: np.ndarray, off: np.ndarray
) -> DataError:
    """The sentence for negative class probabilities: each column's first rows and values, and the
    rows that do not sum to 1 as well (renormalising cannot mend a negative probability)."""
    where = []
    for j in np.flatnonzero(negative.any(axis=0)):
        idx = first_true(negative[:, j], SHOW)
        texts = [num(v) for v in block[idx, j]]
        where.append(f"column {q(columns[j])}, " + rows_phrase(t.rownums(idx), int(negative[:, j].sum()), texts))
    count = int(negative.sum())
    msg = MSG_CLASS_NEGATIVE.format(name=t.name, count=f"{count:,}", where="; ".join(where), **plural_words(count))
    if off.any():
        msg += t.bad(MSG_CLASS_ALSO_SUM, None, off, values=sums, value_prefix="sum ", tol=SUM_TOLERANCE)
    return DataError(msg, column=columns[int(np.flatnonzero(negative.any(axis=0))[0])])


def _shown(columns: Sequence[str]) -> str:
    return join([q(c) for c in columns[:6]]) + (" …" if len(columns) > 6 else "")


def _class_names(t: Table, columns: list[str], names: tuple[str, ...]) -> tuple[str, ...]:
    if len(columns) < 2:
        raise DataError(
            MSG_CLASS_TOO_FEW.format(name=t.name, columns=_shown(columns), is_are="is"),
            column=columns[0] if columns else None,
        )
    if len(set(columns)) != len(columns):
        again = [c for c in dict.fromkeys(columns) if columns.count(c) > 1]
        raise DataError(
            MSG_CLASS_NAMES_REPEAT.format(name=t.name, repeated=join([q(c) for c in again])), column=again[0]
        )
    names = tuple(str(n).strip() for n in (names or class_names_for(columns)))
    if len(names) != len(columns):
        raise DataError(
            MSG_CLASS_NAMES_COUNT.format(name=t.name, k=len(names), m=len(columns), columns=_shown(columns))
        )
    if len(set(names)) != len(names):
        again = [n for n in dict.fromkeys(names) if names.count(n) > 1]
        raise DataError(MSG_CLASS_NAMES_REPEAT.format(name=t.name, repeated=join([q(n) for n in again])))
    return names


def _renormalise(
    t: Table, columns: list[str], block: np.ndarray, sums: np.ndarray, off: np.ndarray, renormalise: bool
) -> None:
    fields = {"columns": _shown(columns), "tol": SUM_TOLERANCE}
    if not renormalise:
        raise DataError(
            t.bad(MSG_CLASS_SUM, columns[0], off, values=sums, value_prefix="sum ", **fields),
            fix=FIX_RENORMALISE,
            fix_action=ACTION_RENORMALISE,
            column=columns[0],
        )
    zero = sums <= 0
    if zero.any():
        raise DataError(t.bad(MSG_CLASS_SUM_ZERO, columns[0], zero, **fields), column=columns[0])
    k = int(off.sum())
    gap = float(np.max(np.abs(sums[off] - 1.0)))
    block[off] /= sums[off, None]
    t.notes.append(
        NOTE_RENORMALISED.format(
            name=t.name, count=k, row_word=plural(k, "row", "rows"), gap=gap, were=plural(k, "was", "were")
        )
    )


def one_class(t: Table, column: str, value: str, names: Sequence[str]) -> DataError:
    """The refusal of a label beside class probabilities (named `names`) that holds the one
    value `value` in every row: said in multiclass words, not a binary label's."""
    classes = CLASS_ONE_CLASS_NAMED.format(classes=_shown([str(n) for n in names])) if len(names) > 1 else ""
    return DataError(
        MSG_CLASS_ONE_CLASS.format(
            name=t.name, column=shorten(column), value=q(value), every_row=t.every_row, classes=classes
        ),
        column=column,
    )


def class_labels(
    t: Table, column: str, codes: np.ndarray, labels: list[str], names: tuple[str, ...]
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Class index per row (int64) into the class names (sorted labels when none are given);
    DataError when a value is not a class, or when the label holds one class only (`one_class`)."""
    if not names:
        floats = [to_float(n) for n in labels]
        if all(math.isfinite(f) for f in floats):
            names = tuple(n for _, n in sorted(zip(floats, labels, strict=True)))
        else:
            names = tuple(sorted(labels))
    index = {n: i for i, n in enumerate(names)}
    lut = np.full(len(labels) + 1, -1, dtype=np.int64)
    for i, lab in enumerate(labels):
        hit = match_value(lab, list(names))
        lut[i] = index[hit] if hit is not None else -1
    y = lut[codes]
    bad = y < 0
    if bad.any():
        classes = join([q(n) for n in names[:10]]) + (" …" if len(names) > 10 else "")
        raise DataError(t.bad(MSG_CLASS_UNKNOWN, column, bad, cells=True, classes=classes), column=column)
    if len(labels) == 1:
        raise one_class(t, column, labels[0], names)
    return y, names
