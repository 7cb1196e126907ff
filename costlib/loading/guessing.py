"""A first guess at the column roles, the columns that came nearest to a role it left empty
(`near_misses`: `preparing.refusals` says why each was not taken) and the class names. What a
mapping form offers (the label's values, the columns of a very wide file) is
`costlib.loading.form_choices`."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costlib.core.dataset import ColumnMapping
from costlib.core.settings import MAX_GROUPS
from costlib.loading.cells import (
    DECIMAL_COMMA_RE,
    NA_TOKENS,
    as_float,
    binary_default,
    categories,
    largest_number,
    norm_name,
)
from costlib.loading.price_signs import price_beside

SPLIT_ALIASES = {
    "train": "train",
    "training": "train",
    "fit": "train",
    "val": "validation",
    "valid": "validation",
    "validation": "validation",
    "calib": "validation",
    "calibration": "validation",
    "dev": "validation",
    "test": "test",
    "testing": "test",
    "holdout": "test",
    "eval": "test",
}

LABEL_NAMES = (
    "label", "y", "target", "outcome", "class", "y_true", "truth", "ground_truth",
    "actual", "labels", "two_year_recid", "is_recid",
)  # fmt: skip
_SCORE_PREFIXES = ("score", "prob", "p_", "pred", "model", "yhat", "y_hat", "y_score", "y_pred")
_SCORE_SUFFIXES = ("_score", "_prob", "_proba")
_GROUP_NAMES = (
    "group", "race", "sex", "gender", "segment", "channel", "ethnicity", "region",
    "age_group", "cohort", "age_band", "age_cat", "age_bucket", "occupation", "country",
    "nationality", "religion", "language",
)  # fmt: skip
_GROUP_WORDS = frozenset(_GROUP_NAMES)  # a name with one of these as a word: "customer_segment"
_NOT_GROUP_WORDS = frozenset(
    ("id", "uuid", "key", "index", "idx", "date", "time", "timestamp", "day", "month", "year", "created", "period")
)  # an id or a date is never a group, whatever else its name says
MAX_GUESSED_GROUPS = 10  # a column taken as the group for its content alone has at most this many values
_DATE_CELL_RE = re.compile(r"^\s*\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}")
_CONTENT_LOOKS = 200  # columns of text the group guess reads at most (a very wide file)
MAX_NEAR_MISSES = 2  # columns named per role the guess left empty (`near_misses`)
_SPLIT_NAMES = ("split", "fold", "set", "partition", "subset")
_WEIGHT_NAMES = ("weight", "weights", "w", "sample_weight", "case_weight")
_DELTA_NAMES = ("delta", "margin", "instance_margin")
_YES_NAMES = ("n_yes", "votes_yes", "yes_votes", "yes", "votes_for", "n_for", "votes_pos")
_NO_NAMES = ("n_no", "votes_no", "no_votes", "no", "votes_against", "n_against", "votes_neg")
_CLASS_PREFIXES = ("p_", "prob_", "proba_", "probability_")
_CLASS_WORDS = ("p", "prob", "proba", "probability")  # "p(billing)": a class inside parentheses
POSITIVE_WORDS = {"yes": "no", "y": "n", "true": "false", "positive": "negative", "pos": "neg"}
_GUESS_SAMPLE = 20_000


def class_names_for(columns: Sequence[str]) -> tuple[str, ...]:
    """The class each multiclass probability column stands for, from the column names.

    The loader, its guess and the Data page all name classes with this function. A class name
    is the column's own text after the prefix, exactly (parentheses, brackets and any other
    character kept): the class label's values must meet it.

    Parameters
    ----------
    columns : sequence of str
        The probability columns, one per class.

    Returns
    -------
    tuple of str
        One name per column. When every column starts with one class prefix ("p_", "prob_",
        "proba_", "probability_", any case) the rest of each name, as it is; when every column
        is "p(...)" (or "prob(", "proba(", "probability("), the text inside the outer
        parentheses. Otherwise the name without the longest prefix all names share, cut back to
        its last "_", "(", " " or ":" (a prefix cut at "(" takes one closing ")" off each name
        when every name ends with one). The full column names when that would leave a name
        empty or two classes with one name, or with a single column.

    Examples
    --------
    >>> class_names_for(["prob_spam", "prob_sport", "prob_news"])
    ('spam', 'sport', 'news')
    >>> class_names_for(["p(billing)", "p(tech)"])
    ('billing', 'tech')
    >>> class_names_for(["p_gold (A)", "p_silver (B)"])
    ('gold (A)', 'silver (B)')
    """
    columns = [str(c) for c in columns]
    if len(columns) < 2:
        return tuple(columns)
    names = _after_class_prefix(columns)
    if names is None:
        names = _after_shared_prefix(columns)
    if any(not n for n in names) or len(set(names)) != len(names):
        names = list(columns)
    return tuple(names)


def _after_class_prefix(columns: list[str]) -> list[str] | None:
    """The names after a class prefix every column starts with ("p_x", "p(x)"), else None."""
    low = [c.lower() for c in columns]
    for prefix in sorted(_CLASS_PREFIXES, key=len, reverse=True):
        if all(c.startswith(prefix) for c in low):
            return [c[len(prefix) :] for c in columns]
    for word in _CLASS_WORDS:
        opening = word + "("
        if all(c.startswith(opening) and c.endswith(")") and len(c) > len(opening) for c in low):
            return [c[len(opening) : -1] for c in columns]
    return None


def _after_shared_prefix(columns: list[str]) -> list[str]:
    """The names without the longest prefix they share, cut back to its last separator."""
    lo, hi = min(columns), max(columns)
    i = 0
    while i < min(len(lo), len(hi)) and lo[i] == hi[i]:
        i += 1
    prefix = lo[:i]
    cut = max(prefix.rfind("_"), prefix.rfind("("), prefix.rfind(" "), prefix.rfind(":"))
    prefix = prefix[: cut + 1] if cut >= 0 else ""
    names = [c[len(prefix) :] for c in columns]
    if prefix.endswith("(") and all(n.endswith(")") for n in names):  # "score(a)", "score(b)"
        names = [n[:-1] for n in names]
    return names


# ---------------------------------------------------------------------------------------
# guess_mapping
# ---------------------------------------------------------------------------------------


class _Columns:
    """The table's columns, their normalised names and which are taken by a role so far.

    A column's Series is made only when its content is looked at: for a table of 100,000
    numeric columns, the dtypes and the names decide almost everything.
    """

    def __init__(self, df: pd.DataFrame):
        self.df = df
        self.names = [str(c) for c in df.columns]
        self.position = {c: i for i, c in reversed(list(enumerate(self.names)))}
        self.norm = {c: norm_name(c) for c in self.names}
        self.by_norm: dict[str, str] = {}
        for c in self.names:
            self.by_norm.setdefault(self.norm[c], c)
        self.numeric = {c: _mostly_numeric(dtype, self, c) for c, dtype in zip(self.names, df.dtypes, strict=True)}
        self.used: set[str] = set()

    def col(self, c: str) -> pd.Series:
        return self.df.iloc[:, self.position[c]]

    def find(self, wanted: Sequence[str], numeric_only: bool = False) -> str | None:
        for want in wanted:
            c = self.by_norm.get(want)
            if c is not None and c not in self.used and (self.numeric[c] or not numeric_only):
                return c
        return None

    def take(self, *columns: str | None) -> None:
        self.used.update(c for c in columns if c)


def guess_mapping(df: pd.DataFrame, *, signed: bool = False) -> ColumnMapping:
    """A first guess at the column roles from names and contents (the user may edit it).

    Parameters
    ----------
    df : DataFrame
        A table from `read_table`.
    signed : bool
        The price's sign is the class (Train with costs): no label is read beside it.

    Returns
    -------
    ColumnMapping
        Multiclass probabilities (three or more columns named p_..., prob_... whose rows sum
        to 1) and their label, a binary label and its positive value, score columns and
        their scale, group, split, weight and an instance cost (delta or votes), each when a
        column's name and content suggest it. The group is a column named for a group or a
        sensitive attribute (`_GROUP_NAMES`, as the whole name or one of its words) with 2
        to MAX_GROUPS values, else the first column of text left with 2 to
        MAX_GUESSED_GROUPS values, at least two rows a value, that is not yes/no-like
        (a yes/no, true/false or 0/1 pair with at most three more values);
        never a column taken by another role, nor one named like a label, a score, an id or
        a date, nor one whose values are dates.

    Examples
    --------
    >>> import pandas as pd
    >>> m = guess_mapping(pd.DataFrame({"label": [0, 1], "score": [0.2, 0.9]}))
    >>> m.label, m.scores, m.score_scale
    ('label', ('score',), 'probability')
    """
    cols = _Columns(df)
    class_probs, class_names = _guess_class_probs(cols)
    class_label = _guess_class_label(cols, class_names) if class_probs else None
    label, positive = _guess_label(cols)
    scores, scale = _guess_scores(cols)
    group = _guess_group_by_name(cols)
    cols.take(group)
    split = _guess_split(cols)
    weight = cols.find(_WEIGHT_NAMES, numeric_only=True)
    cols.take(weight)
    delta, votes_yes, votes_no = _guess_delta(cols)
    if label is None and not class_probs:
        label, positive = _guess_binary_label(cols)
    delta, votes_yes, votes_no = price_beside(
        cols, None if signed else label, positive, (delta, votes_yes, votes_no), signed=signed
    )
    if group is None:  # after every other role: a label or a split is never taken as the group
        group = _guess_group_by_content(cols)
    return ColumnMapping(
        label=label,
        positive=positive,
        scores=scores,
        score_scale=scale,
        group=group,
        split=split,
        weight=weight,
        delta=delta,
        votes_yes=votes_yes,
        votes_no=votes_no,
        class_label=class_label,
        class_probs=class_probs,
        class_names=class_names,
    )


def _mostly_numeric(dtype, cols: _Columns, c: str) -> bool:
    if pd.api.types.is_bool_dtype(dtype):
        return False
    if pd.api.types.is_numeric_dtype(dtype) and dtype.kind != "c":
        return True
    _, not_number, missing = as_float(cols.col(c).iloc[:_GUESS_SAMPLE])
    present = (~missing).sum()
    return bool(present > 0 and not_number.sum() <= 0.1 * present)


def _guess_class_probs(cols: _Columns) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """>= 3 numeric columns sharing a class prefix, in [0, 1], rows summing to 1."""
    for found in _prefixed_columns(cols):
        block = np.column_stack([as_float(cols.col(c).iloc[:_GUESS_SAMPLE])[0] for c in found])
        ok = np.all(np.isfinite(block), axis=1)
        if not ok.any():
            continue
        inside = np.all((block[ok] >= 0) & (block[ok] <= 1))
        sums = block[ok].sum(axis=1)
        if inside and np.mean(np.abs(sums - 1) <= 1e-2) >= 0.95:
            cols.take(*found)
            return tuple(found), class_names_for(found)
    return (), ()


def _prefixed_columns(cols: _Columns):
    """Each set of >= 3 numeric columns (not taken) named with one class prefix ("p_", "prob_", ...)."""
    for prefix in _CLASS_PREFIXES:
        found = [c for c in cols.names if cols.norm[c].startswith(prefix) and cols.numeric[c]]
        found = [c for c in found if len(cols.norm[c]) > len(prefix) and c not in cols.used]
        if len(found) >= 3:
            yield found


def _label_candidates(cols: _Columns) -> list[str]:
    found = [cols.by_norm[n] for n in LABEL_NAMES if n in cols.by_norm]
    return found + [c for c in cols.names if cols.norm[c].startswith("is_") and c not in found]


def _guess_class_label(cols: _Columns, class_names: tuple[str, ...]) -> str | None:
    """The first column whose values are all among the class names (label-like names first).

    A column named like a label is taken even with one value: it is this file's class label,
    and `prepare` then says in multiclass words that it holds one class only (read as a binary
    label it was told "a binary label needs both ..."). Any other column needs two values, so
    that a column of 1s beside the classes "0", "1" and "2" is not taken for a label.
    """
    lowered = {n.lower() for n in class_names}
    first = _label_candidates(cols)
    for c in first + [c for c in cols.names if c not in first]:
        if c in cols.used:
            continue
        _, names = categories(cols.col(c).iloc[:_GUESS_SAMPLE], NA_TOKENS)
        if len(names) >= (1 if c in first else 2) and all(n.lower() in lowered for n in names):
            cols.take(c)
            return c
    return None


_BINARY_VALUES = ({"0", "1"}, {"true", "false"}, {"yes", "no"})


def _guess_label(cols: _Columns) -> tuple[str | None, str | None]:
    """A label-like name with at most two values (`_guess_binary_label` looks at values)."""
    for c in _label_candidates(cols):
        if c in cols.used or len(categories(cols.col(c).iloc[:_GUESS_SAMPLE], NA_TOKENS)[1]) > 2:
            continue
        _, names = categories(cols.col(c), NA_TOKENS)
        if 1 <= len(names) <= 2:
            cols.take(c)
            return c, _guess_positive(names)
    return None, None


def _guess_binary_label(cols: _Columns) -> tuple[str | None, str | None]:
    """The first column left whose values are exactly 0/1, true/false or yes/no (a "churned"
    or "fraud" column): asked last, after every role guessed by its name."""
    for c in cols.names:
        if c in cols.used:
            continue
        _, sample = categories(cols.col(c).iloc[:_GUESS_SAMPLE], NA_TOKENS)
        if {str(n).strip().lower() for n in sample} not in _BINARY_VALUES:
            continue
        _, names = categories(cols.col(c), NA_TOKENS)
        if {str(n).strip().lower() for n in names} in _BINARY_VALUES:
            cols.take(c)
            return c, _guess_positive(names)
    return None, None


def _score_named(cols: _Columns, c: str) -> bool:
    return cols.norm[c].startswith(_SCORE_PREFIXES) or cols.norm[c].endswith(_SCORE_SUFFIXES)


def _guess_scores(cols: _Columns) -> tuple[tuple[str, ...], str]:
    scores = [c for c in cols.names if c not in cols.used and cols.numeric[c] and _score_named(cols, c)]
    cols.take(*scores)
    scale = "probability"
    for c in scores:
        values = as_float(cols.col(c))[0]
        finite = values[np.isfinite(values)]
        if finite.size and (finite.min() < 0 or finite.max() > 1):
            scale = "raw"
    return tuple(scores), scale


def _words(norm: str) -> set[str]:
    return set(norm.split("_"))


def _group_values(cols: _Columns, c: str, most: int) -> list[str] | None:
    """The values of `c` when it can be a group of 2 to `most` values (not ids, not dates), else None."""
    if c in cols.used or _words(cols.norm[c]) & _NOT_GROUP_WORDS:
        return None
    s = cols.col(c)
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return None
    if len(categories(s.iloc[:_GUESS_SAMPLE], NA_TOKENS)[1]) > most:
        return None
    _, names = categories(s, NA_TOKENS)
    if not 2 <= len(names) <= most or 2 * sum(bool(_DATE_CELL_RE.match(n)) for n in names) > len(names):
        return None
    return names


def _guess_group_by_name(cols: _Columns) -> str | None:
    """A column named for a group or a sensitive attribute: a whole name of `_GROUP_NAMES` (in
    that order), else one of those as a word of the name or a name starting "group" (in the
    file's order); with 2 to MAX_GROUPS values, the most the loader takes."""
    return next((c for c in _group_named(cols) if _group_values(cols, c, MAX_GROUPS) is not None), None)


def _group_named(cols: _Columns) -> list[str]:
    """The columns named for a group, in the order `_guess_group_by_name` tries them."""
    exact = [cols.by_norm[n] for n in _GROUP_NAMES if n in cols.by_norm]
    return exact + [
        c
        for c in cols.names
        if c not in exact and (_words(cols.norm[c]) & _GROUP_WORDS or cols.norm[c].startswith("group"))
    ]


def _guess_group_by_content(cols: _Columns) -> str | None:
    """The first column of text left (not named like a label or a score) with 2 to
    MAX_GUESSED_GROUPS values, at least two rows a value on average, that are not a yes/no,
    true/false or 0/1 pair with at most three more values (a flag: more likely a label, or a
    label's near miss, than a group)."""
    labels = set(_label_candidates(cols))
    looked = 0
    for c in cols.names:
        if c in cols.used or cols.numeric[c] or c in labels or _score_named(cols, c):
            continue
        looked += 1
        if looked > _CONTENT_LOOKS:
            break
        names = _group_values(cols, c, MAX_GUESSED_GROUPS)
        if names is None or _yes_no_like(names):
            continue
        if 2 * len(names) <= int(cols.col(c).notna().sum()):
            cols.take(c)
            return c
    return None


def _guess_split(cols: _Columns) -> str | None:
    for want in _SPLIT_NAMES:
        c = cols.by_norm.get(want)
        if c is None or c in cols.used:
            continue
        _, names = categories(cols.col(c))
        if names and all(n.lower() in SPLIT_ALIASES for n in names):
            cols.take(c)
            return c
    return None


def _guess_delta(cols: _Columns) -> tuple[str | None, str | None, str | None]:
    """(delta, votes_yes, votes_no): a delta column, else a pair of vote columns."""
    delta = cols.find(_DELTA_NAMES, numeric_only=True)
    if delta:
        cols.take(delta)
        return delta, None, None
    yes = cols.find(_YES_NAMES, numeric_only=True)
    no = cols.find(_NO_NAMES, numeric_only=True)
    if yes is None or no is None or yes == no:
        return None, None, None
    return None, yes, no


def _guess_positive(names: list[str]) -> str | None:
    """The positive value of a two-valued label the form's picker shows first: the positive word
    of a pair ("yes" of yes/no), else the larger of two numbers (2 of a 1/2 label: the convention,
    stated by the picker rather than assumed unseen); None for 0/1 and true/false (`binary_default`
    reads them) and for other words (the user picks)."""
    if len(names) != 2 or binary_default(names) is not None:
        return None
    low = [n.lower() for n in names]
    for i, word in enumerate(low):
        if POSITIVE_WORDS.get(word) == low[1 - i]:
            return names[i]
    return largest_number(names)  # 1/2 -> 2, -1/1 -> 1: the larger number, which the form's picker shows first


# ---------------------------------------------------------------------------------------
# near_misses: the columns nearest to a role the guess left empty
# ---------------------------------------------------------------------------------------


def near_misses(df: pd.DataFrame, guess: ColumnMapping) -> dict[str, tuple[str, ...]]:
    """The columns that came nearest to the binary label, a score and the group when `guess` has none,
    and those of a reading as more than two classes that it did not make.

    `prepare` on each of them, mapped by hand, says why it was not taken (`refusals`).

    Parameters
    ----------
    df : DataFrame
        A table from `read_table`.
    guess : ColumnMapping
        Its guess (`guess_mapping`); columns it gives a role are never named.

    Returns
    -------
    dict
        ``{"label": columns, "scores": columns, "group": columns}``, at most MAX_NEAR_MISSES
        columns each, only for a role the guess left empty (no label or score for multiclass
        probabilities). Group: the columns named for a group (as `guess_mapping` reads names)
        with more than MAX_GROUPS values (the loader's limit; it offers to keep the largest). Label: the
        columns named like a label (as `guess_mapping` reads names: "label", "outcome",
        "is_...") in that order, then those whose values are a yes/no-like pair and up to
        three more ("0", "1", "2"). Score: the columns named like a score that are not read
        as numbers, then those whose cells mostly look like numbers with a decimal comma
        ("0,73"). Multiclass, first, when the guess has no class label or no probability columns
        and the file looks as if it had more than two classes (`_multiclass_reading`): the class
        label, then every probability column (one reading, not a list to pick from).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"outcome": [0, 1, 2], "score": ["0,1", "0,7", "0,4"]})
    >>> near_misses(df, guess_mapping(df))
    {'label': ('outcome',), 'scores': ('score',)}
    """
    reading = _multiclass_reading(df, guess)
    found: dict[str, tuple[str, ...]] = {"multiclass": reading} if reading else {}
    if guess.label and guess.scores and guess.group:
        return found
    cols = _Columns(df)
    cols.take(*mapped_columns(guess))
    if guess.group is None:
        found["group"] = tuple(c for c in _group_named(cols) if _too_many_groups(cols, c))
    if guess.class_probs:
        return _bounded(found)
    if guess.label is None:
        named = [c for c in _label_candidates(cols) if c not in cols.used]
        found["label"] = tuple(named + [c for c in cols.names if c not in named and _near_binary(cols, c)])
    if not guess.scores:
        named = [c for c in cols.names if c not in cols.used and not cols.numeric[c] and _score_named(cols, c)]
        found["scores"] = tuple(named + [c for c in cols.names if c not in named and _decimal_commas(cols, c)])
    return _bounded(found)


def _bounded(found: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """`near_misses`' roles that have columns, at most `MAX_NEAR_MISSES` each; the multiclass reading
    whole (one reading: its class label and every probability column)."""
    return {role: cols if role == "multiclass" else cols[:MAX_NEAR_MISSES] for role, cols in found.items() if cols}


def _multiclass_reading(df: pd.DataFrame, guess: ColumnMapping) -> tuple[str, ...]:
    """(class label, *probability columns) of the reading as more than two classes that `guess`
    did not make (its class label or its probabilities empty), when the file looks so: three or
    more numeric columns named for a class ("p_...", "prob_..."; the guess's own if it has them)
    and a column of three or more values all among their class names, else (when most of their
    numbers lie in [0, 1]) the first column named like a label with three or more values; the
    guess's class label if it has one. () when the file does not look so."""
    if guess.class_label and guess.class_probs:
        return ()
    if not guess.class_probs and sum(norm_name(c).startswith(_CLASS_PREFIXES) for c in df.columns) < 3:
        return ()  # cheap, by the names alone: most files
    cols = _Columns(df)
    for probs in [list(guess.class_probs)] if guess.class_probs else _prefixed_columns(cols):
        lowered = {n.lower() for n in class_names_for(probs)}
        first = [c for c in _label_candidates(cols) if c not in probs]
        rest = [c for c in cols.names[:_CONTENT_LOOKS] if c not in first and c not in probs]
        label = guess.class_label or next((c for c in first + rest if _class_values(cols, c, lowered)), None)
        if label is None and _mostly_01(cols, probs):
            label = next((c for c in first if _class_values(cols, c)), None)
        if label is not None:
            return (label, *probs)
    return ()


def _class_values(cols: _Columns, c: str, among: set[str] | None = None) -> bool:
    """Whether `c` has three or more values (in its first rows), all in `among` (lower case) when given."""
    values = categories(cols.col(c).iloc[:_GUESS_SAMPLE], NA_TOKENS)[1]
    return len(values) >= 3 and (among is None or all(v.lower() in among for v in values))


def _mostly_01(cols: _Columns, columns: list[str]) -> bool:
    """Columns at least 90% of whose numbers (in their first rows) lie in [0, 1]: probabilities, a few wrong."""
    block = np.concatenate([as_float(cols.col(c).iloc[:_GUESS_SAMPLE])[0] for c in columns])
    finite = block[np.isfinite(block)]
    return bool(finite.size) and float(np.mean((finite >= 0) & (finite <= 1))) >= 0.9


def mapped_columns(m: ColumnMapping) -> list[str]:
    """Every column `m` gives a role (what `near_misses` never names and a form offers first)."""
    return [
        c
        for c in (
            m.label,
            *m.scores,
            m.group,
            m.split,
            m.weight,
            m.delta,
            m.votes_yes,
            m.votes_no,
            m.rating,
            m.measurement,
            m.class_label,
            *m.class_probs,
        )  # fmt: skip
        if c
    ]


def _near_binary(cols: _Columns, c: str) -> bool:
    """A column left whose values are a yes/no-like pair and at most three more."""
    if c in cols.used:
        return False
    names = categories(cols.col(c).iloc[:_GUESS_SAMPLE], NA_TOKENS)[1]
    return len(names) > 2 and _yes_no_like(names)


def _yes_no_like(names: Sequence[str]) -> bool:
    """Values that are a yes/no, true/false or 0/1 pair and at most three more ("maybe")."""
    low = {str(n).strip().lower() for n in names}
    return len(low) <= 5 and any(pair <= low for pair in _BINARY_VALUES)


def _too_many_groups(cols: _Columns, c: str) -> bool:
    """A column left, not an id or a date by its name, with more values than the loader takes as groups."""
    if c in cols.used or _words(cols.norm[c]) & _NOT_GROUP_WORDS:
        return False
    return len(categories(cols.col(c), NA_TOKENS)[1]) > MAX_GROUPS


def _decimal_commas(cols: _Columns, c: str) -> bool:
    """A column left, not read as numbers, whose first cells mostly look like "0,73"."""
    if c in cols.used or cols.numeric[c]:
        return False
    cells = [str(v) for v in cols.col(c).iloc[:200].dropna().tolist()]
    return bool(cells) and 2 * sum(bool(DECIMAL_COMMA_RE.match(v)) for v in cells) > len(cells)
