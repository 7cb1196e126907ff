"""Reading the cells of one column: as text categories, as numbers, and where things first occur.

Shared by guessing, validating and label_values. Written for columns of tens of millions of
rows: codes are kept in the smallest integer type that holds them, and no helper allocates
more than one n-sized int64 temporary.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

# text that means "no value" in a label-like column (compared trimmed and lower-case): a missing-value
# marker. A CSV is read with only blank cells missing (`reading`), so a group called "NA" stays a group;
# a label or a score holding one of these is missing all the same (`marked_missing`).
NA_TOKENS = frozenset({"na", "n/a", "nan", "null", "none", "#n/a", "<na>", "nat", "?"})
# ... and in a column of numbers (a score), a dash too, which a label may hold as a value ("+" / "-")
NUMBER_NA_TOKENS = NA_TOKENS | {"-"}
_NAN_TEXT = frozenset({"nan", "-nan", "+nan"})

DECIMAL_COMMA_RE = re.compile(r"^\s*[-+]?\d*,\d+(?:[eE][-+]?\d+)?\s*$")
DECIMAL_POINT_RE = re.compile(r"^\s*[-+]?\d*\.\d+(?:[eE][-+]?\d+)?\s*$")
_FEW_CODES = 32  # up to this many categories, counting is k passes over the codes


def canon(value: object) -> str | None:
    """One cell as text: 1.0 -> "1", True -> "True", stripped strings; None if missing."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        x = float(value)
        if math.isnan(x):
            return None
        if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
            return str(int(x))
        return repr(x)
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    text = str(value).strip()
    return text or None


MISSING_GROUP = "(missing)"  # the group blank group cells form (bracketed again while a real group has the name)


def group_codes(series: pd.Series) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(codes, names, blank): each cell's group, by the one rule every path reads a group cell.

    Cells are `categories` names, so "NA" or "none" is a group's name like any other text;
    blank cells (empty, NaN, None) are no name of their own and form one group,
    `MISSING_GROUP`, bracketed again while a real group already has that name. The audit
    (`roles.groups`) and `costlib apply` / watch (`frames.group_column`) both read cells so,
    so a policy fitted on a file decides every row of that same file. `blank` marks those cells.

    Examples
    --------
    >>> codes, names, blank = group_codes(pd.Series(["a", None, "NA", "a"], dtype=object))
    >>> names, codes.tolist(), blank.tolist()
    (['a', 'NA', '(missing)'], [0, 2, 1, 0], [False, True, False, False])
    """
    codes, names = categories(series)
    blank = codes < 0
    if not blank.any():
        return codes, names, blank
    label = MISSING_GROUP
    while label in names:
        label = "(" + label + ")"
    codes = codes.astype(code_dtype(len(names) + 1), copy=False)
    codes[blank] = len(names)
    return codes, [*names, label], blank


def marked_missing(series: pd.Series, mask: np.ndarray, tokens: frozenset[str]) -> tuple[np.ndarray, list[str]]:
    """(marked, markers): which of the cells in `mask` hold a missing-value marker, text in `tokens`
    (compared trimmed and lower-case: "NA", " null ", "?") rather than nothing at all (blank, NaN,
    None); and the markers found, as written (trimmed), in order of first appearance.

    Only the cells in `mask` are looked at, each distinct one once.

    Examples
    --------
    >>> marked, markers = marked_missing(pd.Series(["0.2", "NA", None, " null", "na"]), np.ones(5, bool), NA_TOKENS)
    >>> marked.tolist(), markers
    ([False, True, False, True, True], ['NA', 'null', 'na'])
    """
    marked = np.zeros(len(mask), dtype=bool)
    idx = np.flatnonzero(mask)
    if not len(idx):
        return marked, []
    codes, uniques = pd.factorize(series.iloc[idx].to_numpy(dtype=object), use_na_sentinel=True)
    texts = [canon(u) for u in uniques]
    hit = np.array([x is not None and x.lower() in tokens for x in texts] + [False])  # the last: code -1
    marked[idx] = hit[codes]
    return marked, list(dict.fromkeys(x for x, h in zip(texts, hit, strict=False) if h))


def code_dtype(k: int) -> type:
    """The smallest signed integer type that holds the codes -1 .. k-1."""
    for dtype in (np.int8, np.int16, np.int32):
        if k < np.iinfo(dtype).max:
            return dtype
    return np.int64


def categories(series: pd.Series, na_tokens: frozenset[str] = frozenset()) -> tuple[np.ndarray, list[str]]:
    """(codes, names): codes index into names (first-appearance order), -1 = missing.

    Cells are compared as `canon` text, so " yes" and "yes", or 1 and 1.0, are one name;
    text in `na_tokens` (lower-case) counts as missing. Codes are the smallest integer type.
    """
    raw, uniques = _raw_codes(series)
    names: list[str] = []
    index: dict[str, int] = {}
    lut = np.full(len(uniques) + 1, -1, dtype=np.int64)  # the last entry maps -1 to -1
    for i, u in enumerate(uniques):
        text = canon(u)
        if text is None or text.lower() in na_tokens:
            continue
        if text not in index:
            index[text] = len(names)
            names.append(text)
        lut[i] = index[text]
    return lut.astype(code_dtype(len(names)))[raw], names


def _raw_codes(series: pd.Series) -> tuple[np.ndarray, list]:
    """Codes and uniques in order of first appearance (as pd.factorize gives them)."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy()
        cats = list(series.cat.categories)
        first = first_rows(codes, len(cats))
        used = np.flatnonzero(first >= 0)
        order = used[np.argsort(first[used], kind="stable")]
        remap = np.full(len(cats) + 1, -1, dtype=np.int64)
        remap[order] = np.arange(len(order))
        return remap.astype(code_dtype(len(order)))[codes], [cats[i] for i in order]
    small = _small_int_codes(series)
    if small is not None:
        return small
    try:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
    except TypeError:
        codes, uniques = pd.factorize(series.astype(str), use_na_sentinel=True)
    mixed = series.dtype == object and pd.api.types.infer_dtype(uniques, skipna=True) not in ("string", "empty")
    if mixed and any(_bool_like(u) for u in uniques):  # a text column (the common case) is not looked through
        return _factorize_bools_apart(series.to_numpy(dtype=object), codes, list(uniques))
    return codes, list(uniques)


def _bool_like(value: object) -> bool:
    """Whether pd.factorize may have put `value` together with a cell `canon` reads otherwise:
    a bool, or a number equal to 0 or 1 (True == 1 and hash alike)."""
    if isinstance(value, (bool, np.bool_)):
        return True
    return isinstance(value, (int, float, np.integer, np.floating)) and (value == 0 or value == 1)


def _factorize_bools_apart(cells: np.ndarray, codes: np.ndarray, uniques: list) -> tuple[np.ndarray, list]:
    """_raw_codes of an object column holding bools: pd.factorize takes True for 1 and False
    for 0, while `canon` reads "True" and "1", so the bools are factorized as their text.

    Only the cells whose code is a bool-like unique are looked at one by one.
    """
    suspect = np.isin(codes, [i for i, u in enumerate(uniques) if _bool_like(u)])
    idx = np.flatnonzero(suspect)
    is_bool = np.fromiter((isinstance(v, (bool, np.bool_)) for v in cells[idx]), dtype=bool, count=len(idx))
    if is_bool.all() or not is_bool.any():
        return codes, uniques  # one kind only: nothing was put together
    cells = cells.copy()
    cells[idx[is_bool]] = np.where(cells[idx[is_bool]].astype(bool), "True", "False").astype(object)
    codes, fixed = pd.factorize(cells, use_na_sentinel=True)
    return codes, list(fixed)


def _small_int_codes(series: pd.Series) -> tuple[np.ndarray, list] | None:
    """_raw_codes for booleans and integers of a small range, without pd.factorize's int64 codes."""
    dtype = series.dtype
    if len(series) == 0 or not (dtype == np.bool_ or (dtype.kind in "iu" and isinstance(dtype, np.dtype))):
        return None
    values = series.to_numpy()
    if dtype == np.bool_:
        offsets, lo = values.view(np.int8), 0
    else:
        lo, hi = int(values.min()), int(values.max())
        if hi - lo >= 1 << 15:
            return None
        offsets = np.subtract(values, lo, dtype=np.int32).astype(np.int16)
    k = int(offsets.max()) + 1
    first = first_rows(offsets, k)
    used = np.flatnonzero(first >= 0)
    order = used[np.argsort(first[used], kind="stable")]
    remap = np.full(k, -1, dtype=np.int64)
    remap[order] = np.arange(len(order))
    uniques = [bool(u) for u in order] if dtype == np.bool_ else [lo + int(u) for u in order]
    return remap.astype(code_dtype(len(order)))[offsets], uniques


def first_rows(codes: np.ndarray, k: int) -> np.ndarray:
    """Position of the first occurrence of each code 0..k-1 (-1 when it does not occur)."""
    first = np.full(k, -1, dtype=np.int64)
    if len(codes) == 0 or k == 0:
        return first
    firsts = np.flatnonzero(~pd.Series(codes, copy=False).duplicated().to_numpy())
    values = np.asarray(codes)[firsts]
    ok = (values >= 0) & (values < k)
    first[values[ok]] = firsts[ok]
    return first


def counts(codes: np.ndarray, k: int) -> np.ndarray:
    """How often each code 0..k-1 occurs (missing, -1, is not counted)."""
    if k <= _FEW_CODES:
        return np.array([np.count_nonzero(codes == j) for j in range(k)], dtype=np.int64)
    return np.bincount(codes[codes >= 0], minlength=k).astype(np.int64)


def first_true(mask: np.ndarray, k: int) -> np.ndarray:
    """Positions of the first `k` True entries of `mask`, without an index of all of them."""
    found: list[np.ndarray] = []
    have = 0
    step = 1 << 16
    for start in range(0, len(mask), step):
        hits = np.flatnonzero(mask[start : start + step])
        if len(hits):
            found.append(hits[: k - have] + start)
            have += len(found[-1])
            if have >= k:
                break
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


# Scores are offered as percentages only when their largest value is above this. Below it, values
# a little above 1 are far likelier probabilities gone wrong than percentages: a sum of two
# probabilities (class-probability columns that do not sum to one) is at most 2, and a model that
# does not keep to 0 to 1 overshoots 1 by a little, while percentages of a chance all at most 2%
# would be a model that never gives any case more than a 2% chance.
PERCENT_ABOVE = 2.0


def looks_like_percent(values: np.ndarray) -> bool:
    """Whether numbers look like percentages of a chance: every finite value within [0, 100], the
    largest above `PERCENT_ABOVE` and at least two distinct values above 1 (a probability has none,
    and one stray value above 1 is an error in a row, not a scale). The one home of the idea: the
    mapping form offers the reading (`form_choices.percent_columns`) and `prepare` carries it out
    (its `percent` option). Scores barely above 1 are `barely_above_one` instead.

    >>> looks_like_percent(np.array([12.5, 80.0, 0.0])), looks_like_percent(np.array([0.2, 0.9, 5.0]))
    (True, False)
    >>> looks_like_percent(np.array([0.2, 1.2, 1.49]))  # probabilities gone a little over 1
    False
    """
    v = _finite(values)
    if not v.size or v.min() < 0 or v.max() > 100 or v.max() <= PERCENT_ABOVE:
        return False
    above = v[v > 1]
    return bool(above.size > 1 and np.any(above != above[0]))


def barely_above_one(values: np.ndarray) -> bool:
    """Whether scores look like probabilities gone a little over 1: every finite value within
    [0, `PERCENT_ABOVE`] and some above 1. Neither probabilities nor, by `looks_like_percent`,
    percentages; the loader says so (`roles.above_one_note`, `roles.probabilities`).

    >>> barely_above_one(np.array([0.2, 1.2, 1.49])), barely_above_one(np.array([0.2, 0.9, 1.0]))
    (True, False)
    """
    v = _finite(values)
    return bool(v.size and v.min() >= 0 and 1 < v.max() <= PERCENT_ABOVE)


def _finite(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    return v[np.isfinite(v)]


def as_float(series: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, not_number mask, missing mask) for a column that should hold numbers.

    `values` is a new float64 array (never a view of the table); text that is not a number
    is NaN in it and True in `not_number`; blank cells, NaN and "nan" text are `missing`.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _categorical_as_float(series)
    numeric = pd.api.types.is_numeric_dtype(dtype)
    if numeric and dtype.kind != "c":
        try:
            values = series.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
            return values, np.zeros(len(values), dtype=bool), np.isnan(values)
        except (TypeError, ValueError):
            pass
    obj = series.astype(str) if dtype.kind in "mMc" else series
    try:
        values = pd.to_numeric(obj, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
    except (TypeError, ValueError, OverflowError):
        values = np.array([to_float(v) for v in obj.astype(object)], dtype=np.float64)
    original_missing = np.asarray(series.isna(), dtype=bool)
    return values, *_split_nan(series.to_numpy(dtype=object), values, original_missing)


def _categorical_as_float(series: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """as_float for a categorical column: convert each category once, then index by code."""
    cats = pd.Series(series.cat.categories.to_numpy(dtype=object))
    codes = series.cat.codes.to_numpy()
    cat_values, cat_text, cat_missing = as_float(cats)
    lut_values = np.append(cat_values, np.nan)
    values = lut_values[codes]
    not_number = np.append(cat_text, False)[codes]
    missing = np.append(cat_missing, True)[codes]
    return values, not_number, missing


def _split_nan(cells: np.ndarray, values: np.ndarray, original_missing: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split the NaNs that came from text into 'not a number' and 'missing' ("", "nan")."""
    from_text = np.isnan(values) & ~original_missing
    not_number = np.zeros(len(values), dtype=bool)
    missing = original_missing.copy()
    if from_text.any():
        idx = np.flatnonzero(from_text)
        texts = pd.Series(cells[idx], dtype=object).map(cell_text)
        is_missing = np.asarray((texts == "") | texts.str.lower().isin(_NAN_TEXT), dtype=bool)
        missing[idx[is_missing]] = True
        not_number[idx[~is_missing]] = True
    return not_number, missing


def to_float(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return math.nan


def cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return str(value).strip()


def is_missing(value: object) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def norm_name(column: object) -> str:
    return re.sub(r"[\s\-.]+", "_", str(column).strip().lower())


def match_value(wanted: str, names: list[str]) -> str | None:
    """The name in `names` that `wanted` means: exact, then case-blind, then as a number."""
    if wanted in names:
        return wanted
    low = [n for n in names if n.lower() == wanted.lower()]
    if len(low) == 1:
        return low[0]
    w = to_float(wanted)
    if math.isfinite(w):
        hits = [n for n in names if to_float(n) == w]
        if len(hits) == 1:
            return hits[0]
    return None


def binary_default(names: list[str]) -> str | None:
    """The positive value when labels are 0/1 or True/False (any case), else None."""
    if len(names) > 2 or not names:
        return None
    low = {n.lower() for n in names}
    if low <= {"true", "false"}:
        return next((n for n in names if n.lower() == "true"), "True")
    floats = [to_float(n) for n in names]
    if all(f in (0.0, 1.0) for f in floats):
        for n, f in zip(names, floats, strict=True):
            if f == 1.0:
                return n
        return "1"
    return None


def positive_value(names: list[str], positive: str | None) -> str | None:
    """The value of the label values `names` that means positive, read one way by the loader
    (`roles.binary_labels`) and the guess (`price_signs.label_classes`): `positive` as the user
    wrote it (`match_value`), else, none given, that of a 0/1 or true/false label (`binary_default`);
    None when none is.

    >>> positive_value(["no", "Yes"], "yes"), positive_value(["0", "1"], None), positive_value(["a", "b"], "")
    ('Yes', '1', None)
    """
    if positive is None or str(positive).strip() == "":
        return binary_default(names)
    return match_value(str(positive).strip(), names)


def largest_number(names: list[str]) -> str | None:
    """The name of the largest number when every one of two or more names is a number, else None:
    the conventional positive class of a label coded in numbers (1 of 0/1 and -1/1, 2 of 1/2),
    which the mapping form's picker shows first (`guessing._guess_positive`, `form_choices.likely_positive`).

    >>> largest_number(["1", "2"]), largest_number(["-1", "1"]), largest_number(["1", "yes"])
    ('2', '1', None)
    """
    floats = [to_float(n) for n in names]
    if len(names) < 2 or not all(math.isfinite(f) for f in floats):
        return None
    return names[floats.index(max(floats))]


def sorted_values(names: list[str]) -> list[str]:
    """Numbers in numeric order when every name is a number, else case-blind text order."""
    floats = [to_float(n) for n in names]
    if all(math.isfinite(f) for f in floats):
        return [n for _, n in sorted(zip(floats, names, strict=True))]
    return sorted(names, key=lambda s: (s.lower(), s))
