"""`prepare`: the mapped columns of a table, validated, as a `Dataset`; and the fixes it offers.

A fix is offered with a `DataError` as words (`DataError.fix`) and as a fixed word
(`DataError.fix_action`, one of `ACTIONS`). `apply_fixes` turns the words a user ticked
into the mapping and the options `prepare` takes, so a page never reads the English text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.core.escaping import display_name, shorten
from costlib.core.scales import SCALES, on_scale
from costlib.loading import classes, roles
from costlib.loading.budget import upload_memory_budget, work_bytes
from costlib.loading.cells import NA_TOKENS, NUMBER_NA_TOKENS, as_float, categories, looks_like_percent, marked_missing
from costlib.loading.direction import reversed_scores
from costlib.loading.guessing import (  # noqa: F401 (guess_mapping: the doctest)
    class_names_for,
    guess_mapping,
    near_misses,
)
from costlib.loading.intersections import intersection_groups
from costlib.loading.messages import (
    FIX_DROP_LABELS,
    FIX_DROP_SCORES,
    FIX_LOGIT,
    MSG_ALSO_MARKED,
    MSG_BAD_SCALE,
    MSG_LABEL_ALL_MISSING,
    MSG_LABEL_BLANK,
    MSG_LABEL_MARKED,
    MSG_LABEL_MISSING,
    MSG_MARKED_NUMBERS,
    MSG_MISSING_COLUMN,
    MSG_MISSING_NUMBERS,
    MSG_NO_ROWS,
    MSG_NOTHING_MAPPED,
    MSG_SCORES_NONE_LEFT,
    MSG_TOO_MUCH_WORK,
    NOTE_CONSTANT_SCORE,
    NOTE_DROPPED_LABELS,
    NOTE_DROPPED_SCORES,
    NOTE_MARKED_ALL,
    NOTE_MARKED_SOME,
    NOTE_PERCENT_READ,
    NOTE_REVERSED_LABELS,
    POSITIVE_PICKER,
    REVERSED_CHECK,
    REVERSED_FLAG,
    REVERSED_PICK,
    available,
    cols_phrase,
    join,
    markers_phrase,
    num,
    plural,
    q,
    size,
)
from costlib.loading.repeated import ambiguous_error, resolve_repeated
from costlib.loading.roles import ACTION_RENORMALISE, ACTION_TOP_GROUPS, DEFAULT_TOP_GROUPS, Table

ACTION_DROP_LABELS = "drop_missing_labels"
ACTION_DROP_SCORES = "drop_missing_scores"
ACTION_LOGIT = "logit_scale"
ACTION_PERCENT = "percent_scores"

Fix = Callable[[ColumnMapping, dict], tuple[ColumnMapping, dict]]
_FIXES: dict[str, Fix] = {
    ACTION_DROP_LABELS: lambda m, o: (m, {**o, "drop_missing_labels": True}),
    ACTION_DROP_SCORES: lambda m, o: (m, {**o, "drop_missing_scores": True}),
    ACTION_TOP_GROUPS: lambda m, o: (m, {**o, "top_groups": DEFAULT_TOP_GROUPS}),
    ACTION_RENORMALISE: lambda m, o: (m, {**o, "renormalise": True}),
    ACTION_LOGIT: lambda m, o: (dataclasses.replace(m, score_scale="logit"), o),
    ACTION_PERCENT: lambda m, o: (dataclasses.replace(m, score_scale="probability"), {**o, "percent": True}),
}
ACTIONS = tuple(_FIXES)
"""The fixed words a `DataError.fix_action` can hold."""


def apply_fixes(mapping: ColumnMapping, actions: Iterable[str]) -> tuple[ColumnMapping, dict]:
    """The mapping and the `prepare` options that carry out the fixes named by `actions`.

    Parameters
    ----------
    mapping : ColumnMapping
        The columns as the user mapped them.
    actions : iterable of str
        Words from `ACTIONS` (the `fix_action` of errors the user chose to fix).

    Returns
    -------
    (ColumnMapping, dict)
        The mapping to use (the "logit_scale" fix reads the scores as log-odds, "percent_scores"
        as probabilities) and keyword options for `prepare` (drop_missing_labels,
        drop_missing_scores, top_groups, renormalise, percent).

    Raises
    ------
    ValueError
        When an action is not one of `ACTIONS`.

    Examples
    --------
    >>> m, options = apply_fixes(ColumnMapping(label="y", scores=("s",)), ["logit_scale", "top_groups"])
    >>> m.score_scale, options
    ('logit', {'top_groups': 10})
    """
    options: dict = {}
    for action in actions:
        fix = _FIXES.get(action)
        if fix is None:
            raise ValueError(f"actions holds {action!r}, which is not one of {', '.join(map(repr, ACTIONS))}")
        mapping, options = fix(mapping, options)
    return mapping, options


def prepare(
    df: pd.DataFrame,
    mapping: ColumnMapping,
    *,
    name: str,
    fingerprint: str,
    drop_missing_labels: bool = False,
    drop_missing_scores: bool = False,
    top_groups: int | None = None,
    renormalise: bool = False,
    percent: bool = False,
    flags: Mapping[str, str] | None = None,
) -> Dataset:
    """Validate the mapped columns of `df` and build the `Dataset` arrays.

    Parameters
    ----------
    df : DataFrame
        A table from `read_table` (or any DataFrame).
    mapping : ColumnMapping
        Which column plays which role.
    name : str
        The file's name, for sentences (shown through `display_name`).
    fingerprint : str
        The sha256 of the file's bytes (`fingerprint`), kept on the Dataset.
    drop_missing_labels : bool, default False
        Drop rows whose label (or class label) is blank, with a note.
    drop_missing_scores : bool, default False
        Leave out the rows whose score is empty (blank, NaN, or a missing-value marker such as
        "NA", "null" or "-": `cells.NUMBER_NA_TOKENS`) in any score column whose other cells are
        all numbers, with a note naming them. A score that is other text is refused all the same,
        and so is a score column with no number at all.
    top_groups : int, optional
        Keep this many largest groups; the rest become "Other", with a note.
    renormalise : bool, default False
        Divide each row of class probabilities by its sum, with a note.
    percent : bool, default False
        On the probability scale, read a score column that looks like percentages
        (`cells.looks_like_percent`) as probabilities: divided by 100, with a note. Other score
        columns are read as they are.
    flags : mapping, optional
        The command-line flag of each setting, keyed by `ColumnMapping` field (for example
        ``{"positive": "--positive", "score_scale": "--scale"}``): a sentence that asks for a
        setting then names its flag ("choose which one means positive (--positive VALUE)").
        None (the dashboard): the sentences name the settings in the widgets' words only.

    Returns
    -------
    Dataset
        Labels as int8 0/1, scores as float64 (probabilities unless the scale is "raw"),
        groups and split as text, weight and delta as float64, multiclass arrays; notes.

    Raises
    ------
    DataError
        A sentence naming the file, the column and the first offending rows. When a stated
        rule would repair the data, ``fix`` says so in words and ``fix_action`` in a word
        from `ACTIONS` (see `apply_fixes`).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["yes", "no", "yes"], "s": [0.9, 0.2, 0.6]})
    >>> ds = prepare(df, ColumnMapping(label="y", positive="yes", scores=("s",)), name="t.csv", fingerprint="")
    >>> ds.y.tolist(), ds.mapping.positive
    ([1, 0, 1], 'yes')
    """
    t = Table(_unique_columns(df, display_name(name)), display_name(name), flags)
    m = mapping
    _check_mapping(t, m)
    _check_work(t, m)
    kept = _rows_kept(t, m, drop_missing_labels, drop_missing_scores)  # the label columns' codes
    y, positive, negative, class_codes, class_label_names = _labels(t, m, kept)
    del kept  # the label codes y was made of, not held while the other columns are read
    scores = {c: _scores(t, c, m.score_scale, percent) for c in dict.fromkeys(m.scores or ())}
    if y is not None:
        _note_reversed(t, m, y, scores, positive, negative)
    weight = roles.weight(t, m.weight) if m.weight else None
    groups = parts = None
    if len(m.group_columns) > 1:  # several columns: their intersection
        groups, parts = intersection_groups(t, m.group_columns, top_groups)
    elif m.group:
        groups = roles.groups(t, m.group, top_groups)
    split = roles.split(t, m.split) if m.split else None
    delta = roles.delta(t, m, y, (str(positive), str(negative)))
    y_class, class_probs, class_names = _multiclass(t, m, class_codes, class_label_names, renormalise)
    resolved = dataclasses.replace(
        mapping, positive=positive if m.label else mapping.positive, scores=tuple(scores), class_names=class_names
    )
    return Dataset(
        name=t.name,
        fingerprint=fingerprint,
        n_rows=t.n,
        mapping=resolved,
        y=y,
        scores=scores,
        probabilities=m.score_scale != "raw",
        groups=groups,
        split=split,
        weight=weight,
        delta=delta,
        y_class=y_class,
        class_probs=class_probs,
        class_names=class_names,
        notes=tuple(t.notes),
        group_parts=parts,
    )


def refusals(
    df: pd.DataFrame, guess: ColumnMapping, *, name: str, flags: Mapping[str, str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Why the columns nearest to a role the guess left empty were not taken, in the loader's words.

    Each column of `near_misses` is prepared as if chosen by hand for its role (alone: the
    label, one score on the guessed scale, or the group; a file that looks as if it had more
    than two classes, as its class label with its probability columns), and the sentence
    `prepare` refuses it with is kept: one home for each refusal, whether the column was
    guessed or chosen.

    Parameters
    ----------
    df : DataFrame
        A table from `read_table`.
    guess : ColumnMapping
        Its guess (`guess_mapping`).
    name : str
        The file's name, for the sentences.
    flags : mapping, optional
        The command-line flags, as `prepare` takes them.

    Returns
    -------
    dict
        ``{"multiclass": sentences, "label": sentences, "scores": sentences, "group": sentences}``,
        for a role the guess left empty and whose nearest columns `prepare` refuses (a column it
        would take is not listed).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"outcome": ["0", "1", "2"], "p": [0.1, 0.8, 0.4]})
    >>> refusals(df, guess_mapping(df), name="f.csv")["label"][0].split(":")[0]
    'In "f.csv", column "outcome" has 3 distinct values where a binary label needs 2'
    """
    said: dict[str, tuple[str, ...]] = {}
    for role, columns in near_misses(df, guess).items():
        if role == "multiclass":  # one reading of all its columns: (class label, *probabilities)
            tries = [(tuple(columns), ColumnMapping(class_label=columns[0], class_probs=tuple(columns[1:])))]
        elif role == "group":  # a group alone is not a table `prepare` takes: its own check (mapping None)
            tries = [((c,), None) for c in columns]
        else:
            one = (lambda c: ColumnMapping(label=c)) if role == "label" else (lambda c: ColumnMapping(scores=(c,)))
            tries = [((c,), dataclasses.replace(one(c), score_scale=guess.score_scale)) for c in columns]
        sentences = []
        for mine, mapping in tries:
            try:
                if mapping is None:
                    t = Table(_unique_columns(df, display_name(name)), display_name(name), flags)
                    if mine[0] in t.lookup:
                        roles.groups(t, mine[0], None)
                else:
                    prepare(df, mapping, name=name, fingerprint="", flags=flags)
            except DataError as err:
                if err.column in mine:  # about its columns, not the table (its size, say)
                    sentences.append(err.message)
        if sentences:
            said[role] = tuple(sentences)
    return said


def _check_work(t: Table, m: ColumnMapping) -> None:
    """Refuse, before any column is converted, a table whose pages' work would not fit the
    upload budget: the budget covers what an upload leads to, not only reading it. A table
    without labels (the features of Train with costs) leads to no sweeps, and is bounded there."""
    if not (m.label or m.class_label):
        return
    n_scores = len(dict.fromkeys(m.scores or ()))
    need = work_bytes(t.n, n_scores)
    if need > upload_memory_budget():
        raise DataError(
            MSG_TOO_MUCH_WORK.format(
                name=t.name,
                rows=f"{t.n:,}",
                scores="1 score column" if n_scores <= 1 else f"{n_scores} score columns",
                need=size(need),
                budget=size(upload_memory_budget()),
            )
        )


def _unique_columns(df: pd.DataFrame, name: str) -> pd.DataFrame:
    """`df` itself, or for a table whose column names repeat, one with names told apart."""
    names = [str(c).strip() for c in df.columns]
    if len(set(names)) == len(names):
        return df
    notes = list(df.attrs.get("notes") or [])
    out = resolve_repeated(df, names, name, notes)
    out.attrs["notes"] = notes
    return out


def _roles(m: ColumnMapping) -> list[tuple[str, str]]:
    """(role in words, column) for every mapped column."""
    found = [("the label", m.label)] + [("a score", c) for c in dict.fromkeys(m.scores or ())]
    found += [("the group", c) for c in m.group_columns]
    found += [
        ("the split", m.split),
        ("the weight", m.weight),
        ("the delta", m.delta),
        ("the yes votes", m.votes_yes),
        ("the no votes", m.votes_no),
        ("the rating", m.rating),
        ("the measurement", m.measurement),
        ("the class label", m.class_label),
    ]
    found += [("a class probability", c) for c in m.class_probs or ()]
    return [(role, str(c)) for role, c in found if c]


def _check_mapping(t: Table, m: ColumnMapping) -> None:
    """Something is mapped, every mapped column exists (and is not ambiguous), rows, a scale."""
    mapped = _roles(m)
    if not [c for role, c in mapped if role not in ("the group", "the split", "the weight")]:
        raise DataError(MSG_NOTHING_MAPPED.format(name=t.name))
    gone: dict[str, str] = {}
    for role, c in mapped:
        if c not in t.lookup:
            gone.setdefault(c, role)
    for c in gone:
        err = ambiguous_error(t.df, c, t.name)
        if err is not None:
            raise err
    if gone:
        if len(gone) == 1:
            c, role = next(iter(gone.items()))
            what = f"the column {q(c)} chosen as {role}"
        else:
            what = "the columns " + join([f"{q(c)} ({role})" for c, role in gone.items()])
        raise DataError(
            MSG_MISSING_COLUMN.format(
                name=t.name, what=what, verb="does" if len(gone) == 1 else "do", available=available(list(t.lookup))
            ),
            column=next(iter(gone)),
        )
    if t.n == 0:
        raise DataError(MSG_NO_ROWS.format(name=t.name))
    if m.score_scale not in SCALES:
        raise DataError(MSG_BAD_SCALE.format(name=t.name, scale=m.score_scale))


@dataclasses.dataclass(frozen=True)
class _Empty:
    """The words and the fix for one kind of empty cell: `refusal` (a `Table.bad` template, one
    sentence per column whose empty cells are all blank), `blank` and `marked` (the same, for a
    column whose empty cells are blank and marked missing, or marked missing only: "NA"),
    `none_left` (no row left to read), the fix's words and `action`, and the `note` that names
    the rows left out."""

    refusal: str
    blank: str
    marked: str
    none_left: str
    fix: str
    action: str
    note: str


@dataclasses.dataclass(frozen=True)
class _Gaps:
    """A column's empty cells (`empty`), those of them that hold a missing-value marker (`marked`)
    and the markers, as written (`cells.marked_missing`)."""

    empty: np.ndarray
    marked: np.ndarray
    markers: list[str]


_NO_LABEL = _Empty(
    MSG_LABEL_MISSING,
    MSG_LABEL_BLANK,
    MSG_LABEL_MARKED,
    MSG_LABEL_ALL_MISSING,
    FIX_DROP_LABELS,
    ACTION_DROP_LABELS,
    NOTE_DROPPED_LABELS,
)
_NO_SCORE = _Empty(
    MSG_MISSING_NUMBERS,
    MSG_MISSING_NUMBERS,
    MSG_MARKED_NUMBERS,
    MSG_SCORES_NONE_LEFT,
    FIX_DROP_SCORES,
    ACTION_DROP_SCORES,
    NOTE_DROPPED_SCORES,
)


def _rows_kept(
    t: Table, m: ColumnMapping, drop_labels: bool, drop_scores: bool
) -> dict[str, tuple[np.ndarray, list[str]]]:
    """The label columns' codes (`cells.categories`, by column) once the rows with no label, then
    the rows with an empty score, were left out if asked (each with a note); or DataError. A
    label or a score marked missing ("NA": `cells.marked_missing`) is empty, said apart from blanks.

    This comes first: leaving rows out changes every other column.
    """
    coded = {c: categories(t.col(c), NA_TOKENS) for c in dict.fromkeys(c for c in (m.label, m.class_label) if c)}
    for kind, asked in ((_NO_LABEL, drop_labels), (_NO_SCORE, drop_scores)):
        empty = _empty_labels(t, coded) if kind is _NO_LABEL else _empty_scores(t, m)
        drop = _drop_empty(t, kind, empty, asked)
        if drop is not None:
            coded = {c: (codes[~drop], names) for c, (codes, names) in coded.items()}
    return coded


def _empty_labels(t: Table, coded: dict[str, tuple[np.ndarray, list[str]]]) -> dict[str, _Gaps]:
    """The empty cells of each label column: no code (blank, or a marker of `cells.NA_TOKENS`)."""
    empty = {c: codes < 0 for c, (codes, _) in coded.items()}
    return {
        c: _Gaps(e, *marked_missing(t.col(c), e, NA_TOKENS)) if e.any() else _Gaps(e, e, []) for c, e in empty.items()
    }


def _empty_scores(t: Table, m: ColumnMapping) -> dict[str, _Gaps]:
    """The empty cells (blank, NaN, a marker of `cells.NUMBER_NA_TOKENS` such as "NA") of each score
    column whose only fault they are: a column that also holds other text or infinite values is left
    to `roles.numbers`, which refuses it (text is more likely the wrong column than a few gaps)."""
    empty = {}
    for column in dict.fromkeys(m.scores or ()):
        cells = t.col(column)
        letter = cells.dtype.kind if isinstance(cells.dtype, np.dtype) else "O"
        if letter in "iub" or (letter == "f" and not np.isnan(cells.to_numpy().sum())):  # no gap: no copy made
            continue
        values, text, missing = as_float(cells)
        if not (text.any() or missing.any()):
            continue
        marked, markers = marked_missing(cells, text | missing, NUMBER_NA_TOKENS)
        gaps = missing | marked
        if gaps.any() and not (text & ~marked).any() and not np.isinf(values).any():
            empty[column] = _Gaps(gaps, marked, markers)
    return empty


def _empty_sentence(t: Table, kind: _Empty, column: str, gaps: _Gaps) -> str:
    """`kind`'s refusal for one column: its blank cells, then those marked missing, each with its rows."""
    if not gaps.marked.any():
        return t.bad(kind.refusal, column, gaps.empty)
    like = markers_phrase(gaps.markers)
    blank = gaps.empty & ~gaps.marked
    if not blank.any():
        return t.bad(kind.marked, column, gaps.marked, markers=like)
    return t.bad(kind.blank, column, blank) + t.bad(MSG_ALSO_MARKED, column, gaps.marked, markers=like)


def _drop_empty(t: Table, kind: _Empty, empty: dict[str, _Gaps], asked: bool) -> np.ndarray | None:
    """The rows empty in any column of `empty` (column: its `_Gaps`), left out with `kind`'s note
    when `asked`; None when there are none. Else DataError: `kind`'s refusal offering its fix, or,
    when a column or the rows left out would leave nothing, its `none_left`."""
    columns = [c for c, gaps in empty.items() if gaps.empty.any()]
    if not columns:
        return None
    drop = np.logical_or.reduce([empty[c].empty for c in columns])
    k = int(drop.sum())
    full = [c for c in columns if empty[c].empty.all()]
    if full or drop.all():  # no fix: leaving these rows out would leave none
        c = (full or columns)[0]
        every = cols_phrase([c]) if full else "every one of " + cols_phrase(columns)
        raise DataError(kind.none_left.format(name=t.name, column=shorten(c), columns=every, n=f"{t.n:,}"), column=c)
    if not asked:
        raise DataError(
            " ".join(_empty_sentence(t, kind, c, empty[c]) for c in columns),
            fix=kind.fix.format(count=f"{k:,}", row_word=plural(k, "row", "rows")),
            fix_action=kind.action,
            column=columns[0],
        )
    note = t.bad(kind.note, " / ".join(columns), drop, kept=f"{t.n - k:,}", columns=cols_phrase(columns))
    marked = np.logical_or.reduce([empty[c].marked for c in columns])  # within `drop`
    like = markers_phrase(list(dict.fromkeys(x for c in columns for x in empty[c].markers)))
    if marked.sum() == k:
        note += NOTE_MARKED_ALL.format(them=plural(k, "it", "them"), markers=like)
    elif marked.any():
        note += t.bad(NOTE_MARKED_SOME, None, marked, markers=like)
    t.keep(~drop)
    t.notes.append(note)
    return drop


def _labels(
    t: Table, m: ColumnMapping, coded: dict[str, tuple[np.ndarray, list[str]]]
) -> tuple[np.ndarray | None, str | None, str | None, np.ndarray | None, list[str] | None]:
    """(y, positive, negative, class codes, class label names) from the label columns' codes
    (`_rows_kept`); `negative` is the binary label's other value."""
    y = positive = negative = None
    if m.label:
        codes, names = roles.compact(*coded[m.label])
        if len(names) == 1 and m.class_probs and not m.scores:  # a multiclass file's label: its words
            raise classes.one_class(t, m.label, names[0], m.class_names or class_names_for(m.class_probs))
        y, positive = roles.binary_labels(t, m.label, codes, names, m.positive)
        negative = next(n for n in names if n != positive)
    if m.class_label:
        codes, names = roles.compact(*coded[m.class_label])
        return y, positive, negative, codes, names
    return y, positive, negative, None, None


def _note_reversed(
    t: Table, m: ColumnMapping, y: np.ndarray, scores: dict, positive: str | None, negative: str | None
) -> None:
    """Note the score columns that rank the positive class clearly below the other
    (`direction.reversed_scores`): the labels may be read the wrong way round. A note, never a
    refusal: the user may mean it (a model being audited can be that bad)."""
    backwards = [c for c, values in scores.items() if reversed_scores(y, values)]
    if not backwards or positive is None or negative is None:
        return
    if t.flag("positive"):
        how = REVERSED_FLAG.format(flag=t.flag("positive", q(negative)))
    elif m.positive is not None and str(m.positive).strip():
        how = REVERSED_PICK.format(picker=POSITIVE_PICKER)
    else:
        how = REVERSED_CHECK.format(positive=q(positive), negative=q(negative))
    columns = " in " + join([q(c) for c in backwards]) if len(scores) > 1 else ""
    t.notes.append(
        NOTE_REVERSED_LABELS.format(name=t.name, columns=columns, positive=q(positive), negative=q(negative), how=how)
    )


def _scores(t: Table, column: str, scale: str, percent: bool = False) -> np.ndarray:
    """The score column on its scale (`percent`: percentages read as probabilities, with a note);
    raw scores barely above 1 are noted (`roles.above_one_note`: they are no longer offered as
    percentages), and so is a column with one value throughout (review 60: a constant column
    mapped as the score loaded without a word, then drew "recommended: inf")."""
    if scale == "probability" and percent and looks_like_percent(as_percent := roles.numbers(t, column)):
        values = as_percent / 100.0
        t.notes.append(NOTE_PERCENT_READ.format(name=t.name, column=shorten(column)))
    elif scale == "probability":
        values = roles.probabilities(t, column, fix=FIX_LOGIT, fix_action=ACTION_LOGIT)
    else:
        values = on_scale(roles.numbers(t, column), scale)
        above_one = roles.above_one_note(t, column, values) if scale == "raw" else None
        if above_one:  # neither probabilities nor percentages: say so rather than load them without a word
            t.notes.append(above_one)
    if values.size > 1 and bool(np.all(values == values[0])):
        same = num(values[0])
        t.notes.append(NOTE_CONSTANT_SCORE.format(name=t.name, column=shorten(column), value=same, n=f"{t.n:,}"))
    return values


def _multiclass(
    t: Table,
    m: ColumnMapping,
    class_codes: np.ndarray | None,
    class_label_names: list[str] | None,
    renormalise: bool,
) -> tuple[np.ndarray | None, np.ndarray | None, tuple[str, ...]]:
    """(y_class, class_probs, class_names) from the probability columns and the class label."""
    y_class = block = None
    class_names: tuple[str, ...] = tuple(m.class_names or ())
    if m.class_probs:
        block, class_names = classes.class_probs(t, list(m.class_probs), class_names, renormalise)
    if m.class_label:
        assert class_codes is not None and class_label_names is not None
        y_class, class_names = classes.class_labels(t, m.class_label, class_codes, class_label_names, class_names)
    return y_class, block, class_names
