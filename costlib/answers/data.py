"""The answer of the Data page: what an upload shows before its columns are mapped
(`upload_answer`), what mapping it led to (`mapped_upload`), what a file read where it lies
led to (`opened_file`), what is loaded (`loaded_answer`), the choices the mapping form offers
as far as they are data (`mapping_choices`, `positive_choice`), and the page's sentences.

The page keeps its widgets and the session's state; every decision and every sentence is here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from costlib import loading
from costlib.answers.roles import PAGE_ROLES, has_role, loaded_sentence, refused_sentence
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.loading.direction import is_reversal_note
from costlib.loading.form_choices import percent_columns
from costlib.loading.messages import FIX_PERCENT, MSG_PRICE_SOURCE_EMPTY, NOTE_PERCENT_SCORES, cols_phrase, num
from costlib.loading.preparing import ACTION_PERCENT
from costlib.present.labels import (
    DELTA_COLUMN,
    DELTA_SOURCE_LABEL,
    MEASUREMENT,
    NEEDS,
    NO_DELTA,
    NO_SCORE_CHOSEN,
    RATING,
    UNPRICED_PICKERS,
    VOTES,
    classes_sentence,
    fix_offer,
    missing,
    unusable_upload_sentence,
)
from costlib.present.split_words import split_use_sentence

BINARY_LABEL_VALUES = frozenset({"0", "1", "0.0", "1.0", "True", "False", "true", "false"})


@dataclass(frozen=True, eq=False)
class UploadAnswer:
    """What the Data page shows of a parsed upload before its columns are mapped.

    name      the file's name as shown (`loading.display_name`)
    head      its first rows (`loading.preview`), and `caption` says how many there are
    notes     the reader's notes (`df.attrs["notes"]`), then `loading.NOTE_WIDE` for a file wider
              than the form lists; those the data in use already says under "What is loaded"
              (`shown_below`) are left out, so each note is said once
    guess     the first guess at its columns (`loading.guess_mapping`), the mapping form's seed
    """

    name: str
    head: pd.DataFrame
    caption: str
    notes: tuple[str, ...]
    guess: ColumnMapping


def upload_answer(
    df: pd.DataFrame, filename: str, *, guess: ColumnMapping | None = None, shown_below: Sequence[str] = ()
) -> UploadAnswer:
    """What the page shows of the table `df` read from the upload `filename`; `guess` is the
    guess the page already made for this file (None: a new file, guessed now); `shown_below`: the
    notes of the data in use when it was loaded from this file (the page says them under "What is
    loaded": not twice)."""
    name = loading.display_name(filename)
    head, caption = loading.preview(df, filename)
    notes = list(df.attrs.get("notes", []))
    if df.shape[1] > loading.MAX_COLUMNS_OFFERED:
        notes.append(loading.NOTE_WIDE.format(name=name, count=df.shape[1], shown=loading.MAX_COLUMNS_OFFERED))
    notes = [n for n in notes if n not in set(shown_below)]
    return UploadAnswer(name, head, caption, tuple(notes), guess if guess is not None else loading.guess_mapping(df))


@dataclass(frozen=True)
class Offer:
    """A reading of the file the mapping form offers before any refusal: its sentence (said in the
    form), its tick box's words and the fix it applies when ticked (`DataError.fix_action`'s words,
    `loading.apply_fixes`)."""

    action: str
    sentence: str
    tick: str


def score_offers(df: pd.DataFrame, filename: str, scores: Sequence[str]) -> tuple[Offer, ...]:
    """What the form offers for the score columns `scores` of `df` (read from `filename`): scores
    that all lie within [0, 100], some above 2 (`cells.PERCENT_ABOVE`), look like percentages
    (`loading.percent_columns`), so the form says so and offers to read them as probabilities,
    divided by 100."""
    found = percent_columns(df, scores)
    if not found:
        return ()
    columns = cols_phrase(list(found))
    sentence = NOTE_PERCENT_SCORES.format(
        name=loading.display_name(filename), columns=columns, high=num(max(found.values()))
    )
    return (Offer(ACTION_PERCENT, sentence, FIX_PERCENT.format(columns=columns)),)


@dataclass(frozen=True, eq=False)
class MappedUpload:
    """What pressing “Use these columns” led to: the dataset, or the sentence that refuses it.
    Every refusal leaves the data in use as it was: a table refused by the loader (DataError) and
    one that loads but that no page can use (no label or no score left after the checks).

    dataset   the prepared dataset (None when refused)
    error     the loader's sentence and why the columns nearest to an empty role were not taken
    fix       (action, tick box words) of the fix a refusal offers (`DataError.fix_action`), else None
    loaded    (kind, sentence) the page says once the data is loaded (`roles.loaded_sentence`)
    scale     the score scale the ticked fixes used, when it is not the form's (the form then shows it)
    """

    dataset: Dataset | None = None
    error: str | None = None
    fix: tuple[str, str] | None = None
    loaded: tuple[str, str] | None = None
    scale: str | None = None


def unpriced_source(filename: str, source: str, mapping: ColumnMapping) -> str | None:
    """The refusal when the form's price `source` (one of `present.labels.DELTA_SOURCES`) names no
    column in `mapping`, else None: loaded without prices, the file then only said that Instance
    costs "needs columns it does not have" (review 140).

    >>> "no price column is chosen" in unpriced_source("f.csv", DELTA_COLUMN, ColumnMapping(label="y"))
    True
    >>> unpriced_source("f.csv", DELTA_COLUMN, ColumnMapping(label="y", delta="p")) is None
    True
    """
    chosen = {DELTA_COLUMN: mapping.delta, VOTES: mapping.votes_yes or mapping.votes_no}
    if source not in UNPRICED_PICKERS or chosen[source]:
        return None
    what, it, picker = UNPRICED_PICKERS[source]
    name = loading.display_name(filename)
    return MSG_PRICE_SOURCE_EMPTY.format(
        name=name, source=source, what=what, it=it, picker=picker, radio=DELTA_SOURCE_LABEL
    )


def mapped_upload(
    df: pd.DataFrame,
    filename: str,
    mapping: ColumnMapping,
    ticked: Sequence[str],
    guess: ColumnMapping,
    *,
    prepare: Callable[[ColumnMapping, tuple], Dataset],
) -> MappedUpload:
    """The upload `df` (read from `filename`) under the form's `mapping` with the fixes `ticked`
    (`loading.apply_fixes`), prepared by ``prepare(mapping, options)`` (the page's
    `loading.prepare`, remembered and admitted on the memory ledger; `options` a sorted tuple of
    its keyword arguments). A refusal (DataError) is said with why the columns `guess` found
    nearest to each role left empty were not taken (`loading.refusals`, read only then)."""
    use, options = loading.apply_fixes(mapping, ticked)
    lacking = not (use.label and use.scores and use.group and use.class_label and use.class_probs)
    refused = loading.refusals(df, guess, name=filename) if lacking else {}
    try:
        ds = prepare(use, tuple(sorted(options.items())))
    except DataError as err:
        fix = (err.fix_action, fix_offer(err.fix)) if err.fix_action else None
        # a guess refused for the reason the mapping is (the same check, `loading.refusals`) is said once
        refused = {role: [r for r in said if r[1:] not in err.message] for role, said in refused.items()}
        return MappedUpload(error=" ".join(filter(None, (err.message, refused_sentence(use, refused)))), fix=fix)
    name = loading.display_name(filename)
    if not any(has_role(ds, role) for _, role in PAGE_ROLES):  # refused like any other: the data in use stays
        need = missing(ds, "binary") or NEEDS["binary"][0]
        return MappedUpload(error=unusable_upload_sentence(name, need, refused_sentence(ds.mapping, refused)))
    scale = use.score_scale if use.score_scale != mapping.score_scale else None
    return MappedUpload(ds, loaded=loaded_sentence(ds, name, refused), scale=scale)


@dataclass(frozen=True, eq=False)
class OpenedFile:
    """A file read where it lies (an aggregate, a data-folder file): its dataset and what the
    page says once it is loaded (`roles.loaded_sentence`)."""

    dataset: Dataset
    loaded: tuple[str, str]


def opened_file(read: Callable[[str], Dataset], filename: str, *, admit: Callable) -> OpenedFile:
    """The dataset ``read(name)`` makes of `filename` (`name`: its `display_name`), made inside
    ``admit(compute, name)`` (the page's admission on the memory ledger); a DataError with its
    sentence when it cannot be read or would not fit."""
    name = loading.display_name(filename)
    ds = admit(lambda: read(name), name)
    return OpenedFile(ds, loaded_sentence(ds, name))


def aggregate_reader(data: bytes):
    """``read(name)`` of an aggregate file's bytes (`scale.bigdata.dataset_from_aggregate`)."""
    from costlib.scale import bigdata

    return lambda name: bigdata.dataset_from_aggregate(data, name=name)


def folder_reader(path, *, label: str | None, scores: Sequence[str], group: str | None, split: str | None):
    """``read(name)`` of a data-folder file's columns (`scale.bigdata.dataset_from_file`), read
    by DuckDB where it lies; a sentence (DataError) when no score column is chosen."""
    from costlib.scale import bigdata

    if not scores:
        raise DataError(NO_SCORE_CHOSEN)
    return lambda name: bigdata.dataset_from_file(path, label=label, scores=list(scores), group=group, split=split)


@dataclass(frozen=True, eq=False)
class LoadedAnswer:
    """What the Data page says of the dataset in use: four numbers (None: not for it), the rows
    per split (and, where the split is not train and test rows, which rows fit and which judge),
    its tables (shown with `table_columns`' number formats), its classes, its notes (those that
    warn apart: `warnings`) and what its weights make of the rows."""

    metrics: tuple
    split_sentence: str | None
    tables: tuple[pd.DataFrame, ...]
    classes: str | None
    notes: tuple[str, ...]
    table_columns: dict = field(default_factory=lambda: dict(loading.SUMMARY_COLUMNS))
    weights_sentence: str | None = None  # what a weight column makes of the rows (`loading.weights_sentence`)
    warnings: tuple[str, ...] = ()  # the notes that warn (labels read the wrong way round), shown before `notes`


def loaded_answer(ds: Dataset) -> LoadedAnswer:
    """What is loaded, for `ds` (`loading.summary_metrics`, `rows_per_split_sentence` with
    `split_words.split_use_sentence`, `summary_tables`)."""
    split, use = loading.rows_per_split_sentence(ds), split_use_sentence(ds)
    split = f"{split}. {use}" if split and use else split
    return LoadedAnswer(
        tuple(loading.summary_metrics(ds)),
        split,
        tuple(loading.summary_tables(ds)),
        classes_sentence(ds.class_names) if ds.class_names else None,
        tuple(n for n in ds.notes if not is_reversal_note(n)),
        weights_sentence=loading.weights_sentence(ds),
        warnings=tuple(n for n in ds.notes if is_reversal_note(n)),
    )


@dataclass(frozen=True)
class MappingChoices:
    """What the mapping form offers for a table, as far as it is data: the columns each role lists
    (`loading.offered_columns`), whether the table is wider than that (then any other column can be
    typed in), and where the guess says each case's own price comes from (one of `present.labels.DELTA_SOURCES`)."""

    columns: list
    wide: bool
    delta_source: str


def mapping_choices(df: pd.DataFrame, guess: ColumnMapping) -> MappingChoices:
    """The form's choices for `df` seeded with `guess`."""
    columns = loading.offered_columns(df.columns, guess)
    source = (
        VOTES
        if guess.votes_yes
        else DELTA_COLUMN
        if guess.delta
        else RATING
        if guess.rating
        else MEASUREMENT
        if guess.measurement
        else NO_DELTA
    )
    return MappingChoices(columns, len(columns) < df.shape[1], source)


def positive_choice(df: pd.DataFrame, label: str, guess: ColumnMapping) -> tuple[list[str], int] | None:
    """(values, index of the first choice) of the "which is the positive class?" picker for the
    label column `label`, or None when its values are 0/1 or true/false (nothing to pick); the
    first choice is the guess's, else the likeliest positive word (`loading.likely_positive`),
    else the first value. DataError (`loading.label_values`) when `label` is not a column."""
    values = loading.label_values(df, label)
    if not (values and set(values) - BINARY_LABEL_VALUES):
        return None
    likely = loading.likely_positive(values)
    first = guess.positive if guess.positive in values else likely if likely in values else values[0]
    return values, values.index(first)
