"""Data for training with instance costs: the tweets sample, the synthetic controls, a user's table.

Each loader returns a `TrainingData`: features X (dense or CSR), signed margins delta, and a
content key that identifies both (for caches). Bad tables get `DataError` sentences naming
the file, the column and what to do. Pure python: no streamlit here.

The tweets sample (``samples/offensive_training.npz``, built by
``scripts/make_training_sample.py``) holds term counts without the words and the annotator
votes; no tweet text is shipped, so none can be shown.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.instance import delta_from_votes
from costlib.loading.cells import norm_name
from costlib.loading.guessing import LABEL_NAMES  # the label names `loading.guess_mapping` reads: one list
from costlib.loading.messages import MSG_DELTA_SOURCES, MSG_MISSING_COLUMN, plural, size
from costlib.present import training_page
from costlib.present import training_words as words
from costlib.present.training_words import NOTE_EMPTY_TEXT, NOTE_TEXT_CAPPED, SYNTHETIC_TITLES, TWEETS_TITLE
from costlib.training.compare import check_trainable
from costlib.training.synthetic import SYNTHETIC_FEATURES, SYNTHETIC_N, synthetic_costs

if TYPE_CHECKING:
    import scipy.sparse as sp

TWEETS_FILE = "offensive_training.npz"
PRECOMPUTED_FILE = "offensive_training_result.json"
PRECOMPUTED_SEEDS = 10
SYNTHETIC_SEED = 20240505

MAX_FEATURE_COLUMNS = 1_000
MAX_DENSE_CELLS = 20_000_000
MAX_TEXT_FEATURES = 100_000
MAX_EMPTY_TEXT_SHARE = 0.5
TEXT_NGRAMS = (1, 2)
TEXT_MIN_DF = 2
TEXT_PEAK_PER_BYTE = 56
"""Peak memory of `text_features` per character of text (measured 47 to 50 with vocabularies of
50,000 to 2,000,000 words: the word-pair counts before the least frequent are dropped)."""

MSG_NO_FEATURES = (
    'In "{name}", no feature column is chosen: choose numeric feature columns, or one text column, for the '
    "model to learn from."
)
MSG_BOTH_FEATURES = 'In "{name}", choose either numeric feature columns or one text column, not both.'
MSG_FEATURE_IS_SOURCE = (
    'In "{name}", the column "{column}" is both a feature and the source of delta: the model would be shown '
    "the answer. Leave it out of the features."
)
MSG_FEATURE_IS_ANSWER = (
    'In "{name}", the column "{column}" {why}: it is the answer the model is asked to predict, so a model '
    "that learns from it is shown the answer. Leave it out of the features."
)
MSG_WHY_OUTCOME = "is named as the outcome"  # a column named like a label ("label", "outcome", "target", ...)
MSG_WHY_PRICE = "is a source of each case's price ({role}), which also gives its label"  # a price column by its name
MSG_WHY_COPY = "splits the rows exactly as the label does (positive where each case's price is above 0)"
MSG_TOO_MANY_FEATURES = (
    'In "{name}", {k:,} feature columns are chosen; at most {limit:,} can be used. Keep the columns you '
    "expect to matter, drop identifiers and near-copies of other columns, or summarise them (for example "
    "with PCA) before uploading."
)
MSG_TOO_MANY_CELLS = (
    'In "{name}", {rows:,} rows x {k:,} feature columns make {cells:,} numbers, more than the {limit:,} '
    "this comparison trains on. Choose fewer feature columns, or upload a random sample of the rows."
)
MSG_TEXT_TOO_BIG = (
    'In "{name}", the text column "{column}" holds {chars} characters: its word and word-pair features would '
    "take about {need} of memory while they are built, more than the {budget} that one upload may use here. "
    "Upload a random sample of the rows."
)
MSG_TEXT_EMPTY = (
    'In "{name}", the text column "{column}" is empty in {count:,} of {n:,} rows ({share:.0%}); '
    "a text model needs text in most rows. Choose another column, or drop the rows without text."
)
MSG_TEXT_NO_TERMS = (
    'In "{name}", no word in the text column "{column}" occurs in two or more rows, so the text gives the '
    "model nothing to learn from. Choose another column."
)
MSG_NO_SOURCE = (
    'In "{name}", nothing says what a mistake on each case costs: choose annotator votes, a measurement and '
    "a threshold, a rating and its midpoint, or a price column."
)


PRICE_ROLES = {  # the guessed columns of a price (`ColumnMapping`'s roles), by the words that name them
    "delta": "a delta",
    "votes_yes": "votes for",
    "votes_no": "votes against",
    "rating": "a rating",
    "measurement": "a measurement",
}


def answer_columns(df: pd.DataFrame, guess: ColumnMapping | None = None) -> dict[str, str]:
    """{column: why it may be the answer}: the columns of `df` left out of the default features, as
    far as the names tell: one named as the outcome (a label name `loading.guess_mapping` reads:
    "label", "y", "two_year_recid", ... in any case, spaces, dots and hyphens read as "_"), the price
    columns `guess` (`loading.guess_mapping` of `df`, computed when None) found, whose sign is the
    label. A name alone only keeps a column out of the defaults (with a note on the page,
    `training_words.left_out_sentence`): chosen by hand, a column is refused only when its values
    copy the label (`from_table`), since here the label is the price's sign, not that column.

    >>> list(answer_columns(pd.DataFrame({"Label": [0, 1], "Two Year-Recid": [1, 0], "delta": [-1.0, 2.0]})))
    ['Label', 'Two Year-Recid', 'delta']
    """
    guess = loading.guess_mapping(df) if guess is None else guess
    out = {str(c): MSG_WHY_OUTCOME for c in df.columns if norm_name(c) in LABEL_NAMES}
    for role, words_ in PRICE_ROLES.items():
        column = getattr(guess, role)
        if column is not None:
            out.setdefault(str(column), MSG_WHY_PRICE.format(role=words_))
    return out


def _copies_the_label(values: np.ndarray, delta: np.ndarray) -> bool:
    """Whether, on the rows priced other than 0, `values` split the rows exactly as the label (delta
    > 0) does, either way round: two values, one on each class (the label under another name), or
    values of both signs whose sign is the label's (a price column, delta itself or a copy).

    >>> d = np.array([-1.0, 2.0, -3.0, 0.0])
    >>> _copies_the_label(np.array([0, 1, 0, 1.0]), d), _copies_the_label(np.array([-5, 1, -2, 9.0]), d)
    (True, True)
    >>> _copies_the_label(np.array([0, 1, 1, 0.0]), d)
    False
    """
    priced = delta != 0
    x = values[priced]
    if x.size < 2 or not np.isfinite(x).all():
        return False
    positive = delta[priced] > 0
    if np.array_equal(x > 0, positive) or np.array_equal(x < 0, positive):
        return True
    distinct = np.unique(x)
    if distinct.size != 2:
        return False
    high = x == distinct[1]
    return bool(np.array_equal(high, positive) or np.array_equal(high, ~positive))


@dataclass(frozen=True, eq=False)
class TrainingData:
    """Features and signed margins ready for `costlib.compare_training`.

    key        content key (sha256 hex) of X, delta and how they were made: use it for caches
    name       what the data is called on screen
    X          float64 ndarray (n, p) or scipy CSR matrix
    delta      float64 signed margins (zeros included; compare_training leaves them out)
    features   one phrase saying what X is ("44,319 TF-IDF word and word-pair features")
    source     one phrase saying where delta comes from
    notes      sentences about what was done to the data
    features_plain, source_plain   the same in plain words where those are technical ("44,319 words and
               word pairs", "annotator votes: ..."), read first on the page; "" where they are plain
    """

    key: str
    name: str
    X: np.ndarray | sp.csr_matrix
    delta: np.ndarray
    features: str
    source: str
    notes: tuple[str, ...] = field(default=())
    features_plain: str = ""
    source_plain: str = ""

    @property
    def n_rows(self) -> int:
        return int(self.delta.size)

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def typical(self) -> float:
        """The mean |delta| of the rows priced above 0: a typical case's (NaN without one)."""
        d = np.abs(self.delta[self.delta != 0])
        return float(d.mean()) if d.size else float("nan")


def _key(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def _tfidf(counts: sp.csr_matrix) -> sp.csr_matrix:
    """The published TF-IDF of term counts: sublinear tf, smoothed idf, rows scaled to unit length."""
    from sklearn.feature_extraction.text import TfidfTransformer

    return TfidfTransformer(sublinear_tf=True).fit_transform(counts.astype(np.float64)).tocsr()


def tweets_sample() -> TrainingData:
    """The Davidson et al. tweets as published: TF-IDF features, delta from annotator votes.

    delta = ln((n_yes + 1) / (n_no + 1)) with n_yes = hate speech + offensive votes and n_no
    = "neither" votes; 17 tied rows have delta = 0 and are left out by the comparison.
    """
    import scipy.sparse as sp

    raw = (resources.files("costlib") / "samples" / TWEETS_FILE).read_bytes()
    with np.load(io.BytesIO(raw), allow_pickle=False) as z:
        shape = tuple(int(s) for s in z["shape"])
        counts = sp.csr_matrix((z["data"], z["indices"].astype(np.int32), z["indptr"]), shape=shape)
        n_yes, n_no = z["n_yes"].astype(np.int64), z["n_no"].astype(np.int64)
    return TrainingData(
        key=_key("tweets", hashlib.sha256(raw).hexdigest()),
        name=TWEETS_TITLE,
        X=_tfidf(counts),
        delta=delta_from_votes(n_yes, n_no),
        features=words.tfidf_features(shape[1]),
        source=words.TWEETS_SOURCE,
        features_plain=training_page.word_features(shape[1]),
        source_plain=training_page.TWEETS_SOURCE_PLAIN,
    )


@dataclass(frozen=True, eq=False)
class Precomputed:
    """The default comparison on the tweets sample, computed by scripts/make_training_sample.py.

    settings  methods, seeds, random_state and estimator it was computed with
    versions  scikit-learn, numpy and scipy versions it was computed with
    results   compare_training's output; predictability: cost_predictability's output
    """

    settings: dict
    versions: dict
    results: pd.DataFrame
    predictability: pd.DataFrame


def tweets_precomputed() -> Precomputed | None:
    """The shipped precomputed result for `tweets_sample`, or None if it was made from other data."""
    import json

    folder = resources.files("costlib") / "samples"
    doc = json.loads((folder / PRECOMPUTED_FILE).read_text(encoding="utf-8"))
    if doc.get("sample_sha256") != hashlib.sha256((folder / TWEETS_FILE).read_bytes()).hexdigest():
        return None

    def frame(part: dict) -> pd.DataFrame:
        out = pd.DataFrame(part["rows"], columns=part["columns"])
        return out.fillna(np.nan).infer_objects()

    settings = dict(doc["settings"])
    settings["methods"] = tuple(settings["methods"])
    return Precomputed(
        settings=settings,
        versions=dict(doc["versions"]),
        results=frame(doc["results"]),
        predictability=frame(doc["predictability"]),
    )


def synthetic_sample(*, predictable: bool) -> TrainingData:
    """A synthetic control (`costlib.training.synthetic.synthetic_costs`, fixed seed)."""
    X, delta = synthetic_costs(SYNTHETIC_N, predictable=predictable, random_state=SYNTHETIC_SEED)
    return TrainingData(
        key=_key("synthetic", predictable, SYNTHETIC_N, SYNTHETIC_FEATURES, SYNTHETIC_SEED),
        name=SYNTHETIC_TITLES[predictable],
        X=X,
        delta=delta,
        features=words.synthetic_features(SYNTHETIC_FEATURES),
        source=words.synthetic_source(predictable=predictable),
    )


def text_features(texts, *, name: str, column: str) -> tuple[sp.csr_matrix, list[str]]:
    """TF-IDF of a text column as published (words and word pairs in at least two rows).

    Empty cells (blank or missing) get an all-zero row. Returns (X, notes).
    """
    from sklearn.feature_extraction.text import CountVectorizer

    s = pd.Series(texts, dtype=object)
    missing = s.isna().to_numpy()
    text = s.where(~missing, "").astype(str).str.strip()
    empty = missing | (text == "").to_numpy()
    n, k = len(s), int(empty.sum())
    if n == 0 or k / n > MAX_EMPTY_TEXT_SHARE:
        raise DataError(
            MSG_TEXT_EMPTY.format(name=name, column=shorten(column), count=k, n=n, share=k / n if n else 1.0),
            column=column,
        )
    notes = []
    if k:
        notes.append(
            NOTE_EMPTY_TEXT.format(
                count=k,
                rows=plural(k, "row", "rows"),
                column=shorten(column),
                are=plural(k, "is", "are"),
                they=plural(k, "it", "they"),
            )
        )
    try:
        counts = CountVectorizer(ngram_range=TEXT_NGRAMS, min_df=TEXT_MIN_DF).fit_transform(text.to_numpy()).tocsr()
    except ValueError:  # empty vocabulary, or nothing left after min_df
        raise DataError(MSG_TEXT_NO_TERMS.format(name=name, column=shorten(column)), column=column) from None
    if counts.shape[1] > MAX_TEXT_FEATURES:
        freq = np.asarray(counts.sum(axis=0)).ravel()
        top = np.sort(np.argsort(-freq, kind="stable")[:MAX_TEXT_FEATURES])
        notes.append(NOTE_TEXT_CAPPED.format(column=shorten(column), total=counts.shape[1], kept=MAX_TEXT_FEATURES))
        counts = counts[:, top]
    return _tfidf(counts), notes


def text_chars(cells: pd.Series) -> int:
    """Characters in a text column's cells (a categorical's counted from its categories)."""
    if isinstance(cells.dtype, pd.CategoricalDtype):
        lengths = cells.cat.categories.astype(str).str.len().to_numpy()
        codes = cells.cat.codes.to_numpy()
        return int(lengths[codes[codes >= 0]].sum())
    return int(cells.dropna().astype(str).str.len().sum())


def features_peak(df: pd.DataFrame, choices: dict) -> int:
    """Peak bytes `from_table(df, **choices)` takes while it builds the features: the text's
    characters at `TEXT_PEAK_PER_BYTE`, or the numeric features' float64 cells three times
    (the table's columns, their checked copies, the stacked matrix)."""
    present = [str(c) for c in df.columns]
    text = choices.get("text")
    if text is not None and text in present:
        return text_chars(df[df.columns[present.index(text)]]) * TEXT_PEAK_PER_BYTE
    return len(df) * max(1, len(choices.get("features") or ())) * 8 * 3


def _check_text_size(cells: pd.Series, *, name: str, column: str) -> None:
    """Refuse, before the features are built, a text column whose features would not fit the
    upload budget (`TEXT_PEAK_PER_BYTE` a character)."""
    chars = text_chars(cells)
    need, budget = chars * TEXT_PEAK_PER_BYTE, loading.upload_memory_budget()
    if need > budget:
        raise DataError(
            MSG_TEXT_TOO_BIG.format(name=name, column=column, chars=f"{chars:,}", need=size(need), budget=size(budget)),
            column=column,
        )


def not_numbers_notes(df: pd.DataFrame, *, name: str, skip=()) -> list[str]:
    """A sentence (`training_words.not_numbers_sentence`) for each column of `df` not in `skip` that
    holds numbers but for a few cells (text that is not a number, in fewer cells than numbers): read as
    text, it is no numeric feature, and it left the page's feature list without a word (review 140)."""
    from costlib.loading.cells import as_float
    from costlib.loading.messages import file_row

    notes = []
    for c in df.columns:
        if str(c) in skip or pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c]):
            continue
        values, not_number, _ = as_float(df[c])
        numbers = int(np.isfinite(values).sum())
        bad = np.flatnonzero(not_number)
        if bad.size == 0 or numbers <= bad.size:
            continue
        first = int(bad[0])
        notes.append(
            words.not_numbers_sentence(
                shorten(name), shorten(str(c)), int(file_row(first)), shorten(str(df[c].iloc[first])), bad.size - 1
            )
        )
    return notes


def from_table(
    df: pd.DataFrame,
    *,
    name: str,
    fingerprint: str,
    features=(),
    text: str | None = None,
    delta: str | None = None,
    votes: tuple[str, str] | None = None,
    threshold: tuple[str, float] | None = None,
    rating: tuple[str, float] | None = None,
) -> TrainingData:
    """Features (numeric columns or one text column) and delta (one source) from a user's table.

    `fingerprint` is the file's sha256 (`costlib.loading.fingerprint`). Exactly one delta
    source: a `delta` column, `votes` = (yes column, no column), `threshold` = (measurement
    column, tau) or `rating` = (rating column, midpoint); delta is made by
    `costlib.loading.prepare`, hence by `costlib.instance.delta_from_*`, with its sentences.
    Raises DataError for every problem, naming `name` and the column.
    """
    features = tuple(dict.fromkeys(str(c) for c in (features or ())))
    if text is not None and features:
        raise DataError(MSG_BOTH_FEATURES.format(name=name))
    if text is None and not features:
        raise DataError(MSG_NO_FEATURES.format(name=name))
    sources = [
        (label, value)
        for label, value in (
            ("a price column", delta),
            ("votes", votes),
            ("a measurement and threshold", threshold),
            ("a rating", rating),
        )
        if value is not None
    ]
    if not sources:
        raise DataError(MSG_NO_SOURCE.format(name=name))
    if len(sources) > 1:
        raise DataError(MSG_DELTA_SOURCES.format(name=name, sources=", ".join(s for s, _ in sources)))
    mapping = ColumnMapping(
        delta=delta,
        votes_yes=votes[0] if votes else None,
        votes_no=votes[1] if votes else None,
        measurement=threshold[0] if threshold else None,
        measurement_threshold=threshold[1] if threshold else None,
        rating=rating[0] if rating else None,
        rating_midpoint=rating[1] if rating else None,
    )
    source_cols = {c for c in (delta, *(votes or ()), threshold and threshold[0], rating and rating[0]) if c}
    present = [str(c) for c in df.columns]
    wanted = list(features) if text is None else [text]
    gone = [c for c in wanted if c not in present]
    if gone:
        role = "a feature" if text is None else "the text"
        what = (
            f'the column "{gone[0]}" chosen as {role}'
            if len(gone) == 1
            else "the columns " + ", ".join(f'"{c}"' for c in gone[:10]) + f" chosen as {role}s"
        )
        shown = ", ".join(f'"{c}"' for c in present[:20]) + (
            f" and {len(present) - 20} more" if len(present) > 20 else ""
        )
        raise DataError(
            MSG_MISSING_COLUMN.format(name=name, what=what, verb="does" if len(gone) == 1 else "do", available=shown),
            column=gone[0],
        )
    for c in wanted:  # a column named like the outcome is left to its values: the label here is the price's sign
        if c in source_cols:
            raise DataError(MSG_FEATURE_IS_SOURCE.format(name=name, column=shorten(c)), column=c)
    if len(features) > MAX_FEATURE_COLUMNS:
        raise DataError(MSG_TOO_MANY_FEATURES.format(name=name, k=len(features), limit=MAX_FEATURE_COLUMNS))
    if features and len(df) * len(features) > MAX_DENSE_CELLS:
        raise DataError(
            MSG_TOO_MANY_CELLS.format(
                name=name, rows=len(df), k=len(features), cells=len(df) * len(features), limit=MAX_DENSE_CELLS
            )
        )

    if features:  # numbers checked by loading.prepare (the same sentences as for scores)
        mapping = ColumnMapping(
            scores=features,
            score_scale="raw",
            **{
                k: getattr(mapping, k)
                for k in (
                    "delta",
                    "votes_yes",
                    "votes_no",
                    "measurement",
                    "measurement_threshold",
                    "rating",
                    "rating_midpoint",
                )
            },
        )
    ds = loading.prepare(df, mapping, name=name, fingerprint=fingerprint)
    notes = list(ds.notes)
    check_trainable(ds.delta, what=f'the delta of "{name}"')
    if features:
        for c in features:
            if _copies_the_label(np.asarray(ds.scores[c], dtype=np.float64), ds.delta):
                raise DataError(MSG_FEATURE_IS_ANSWER.format(name=name, column=shorten(c), why=MSG_WHY_COPY), column=c)
        X = np.column_stack([ds.scores[c] for c in features])
        what = plain = words.numeric_features(len(features))
        notes += not_numbers_notes(df, name=name, skip={*features, *source_cols})
    else:
        column = df.columns[present.index(text)]
        _check_text_size(df[column], name=name, column=text)
        X, text_notes = text_features(df[column].to_numpy(dtype=object), name=name, column=text)
        notes += text_notes
        what, plain = words.tfidf_features(X.shape[1], text), training_page.word_features(X.shape[1], text)
    source = words.table_source(mapping)
    key = _key("table", fingerprint, features, text, delta, votes, threshold, rating)
    return TrainingData(
        key=key,
        name=name,
        X=X,
        delta=ds.delta,
        features=what,
        source=source,
        notes=tuple(notes),
        features_plain=plain,
        source_plain=training_page.votes_source(mapping),
    )
