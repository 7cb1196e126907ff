"""Compute where the rows live, explore on a laptop: the sweeps' sufficient statistics in one file.

`aggregate` (and the command ``python -m costlib aggregate SOURCE --label COL --score COL [--group
COL] [--split COL] [--weight COL] [--engine duckdb|spark] [--max-thresholds N] --out agg.parquet``,
in :mod:`costlib.cli.aggregate`) reads the rows once (through DuckDB or Spark) and writes, per
split, group and distinct score, the number and the weight of the positive and negative rows. That
is everything a cost sweep needs: the file is small (one row per distinct score, not per case), and
:func:`load_aggregate` turns it back into the :class:`costlib.core.sweep.GroupedSweep` objects that
the in-memory code computes from the rows, exactly. When a (split, group) has more distinct scores
than ``--max-thresholds`` allows in total, the scores are pooled into fine bins (the lowest score of
each bin is kept as its threshold): every threshold in the file is still exact, the ones strictly
inside a bin are missing, and the file's metadata states how far that can move FP and FN.

The file is Parquet. Its footer carries, under the key ``costlib.aggregate``, a JSON object:
the format and version, the column roles, whether the sweeps are exact (else the bin width
and the bound), and the provenance: source, files (path, size, modification time), engine,
row count, creation time (UTC), costlib version and a SHA-256 fingerprint of the statistics,
which the loader checks (a file changed after it was written is refused).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.core.escaping import shorten

FORMAT = "costlib-aggregate"
VERSION = 1
META_KEY = b"costlib.aggregate"
DEFAULT_MAX_THRESHOLDS = 10_000_000
COLUMNS = ("split", "group", "score", "pos_rows", "neg_rows", "pos_weight", "neg_weight")
_MAX_META = 1 << 20  # bytes of footer metadata we are willing to parse
MAX_ROWS = 2**53  # rows an aggregate may count in all: every sum of counts stays exact (and far from wrapping)
MAX_META_TEXT = 2000  # the longest source or bound statement an aggregate may show
MAX_WEIGHT = float(2**53)  # the weights' total: the bootstrap draws that many cases (a machine integer), and
# costs multiply it by prices up to 1e100 (finite); 2**53 is also the largest total a double counts exactly

MSG_NOT_PARQUET = (
    'The file "{name}" is not a Parquet file ({reason}); an aggregate is written by python -m costlib aggregate.'
)
MSG_NOT_AGGREGATE = (
    'The file "{name}" is a Parquet file but not a costlib aggregate (its footer has no costlib metadata); '
    "make one with python -m costlib aggregate SOURCE --label ... --score ... --out FILE."
)
MSG_BAD_META = 'The file "{name}" has costlib metadata that cannot be read ({reason}); write it again.'
MSG_VERSION = (
    'The file "{name}" is a costlib aggregate of version {version}; this costlib reads version {ours}. '
    "Write it again with this version."
)
MSG_BAD_COLUMN = 'The file "{name}" is a costlib aggregate whose column "{column}" {problem}; write it again.'
MSG_FINGERPRINT = (
    'The file "{name}" does not match its own fingerprint: its statistics were changed after it was written. '
    "Write it again from the source."
)


@dataclass(frozen=True, eq=False)
class Aggregate:
    """Sufficient statistics of the sweeps, with where they came from.

    ``stats`` is a :class:`costlib.scale.score_stats.ScoreStats` (sorted numpy arrays: split and group
    codes, score, ``pos_rows, neg_rows, pos_weight, neg_weight``); ``table`` shows it as a
    DataFrame. ``meta`` is the JSON object stored in the file's footer.
    """

    stats: object
    meta: dict
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def exact(self) -> bool:
        """True when every distinct score is a threshold (the sweeps equal the in-memory ones)."""
        return bool(self.meta["exact"])

    @property
    def provenance(self) -> dict:
        """Source, files, engine, rows, created (UTC), costlib version and fingerprint."""
        return self.meta["provenance"]

    @property
    def columns(self) -> dict:
        """The column roles the statistics were computed with (label, score, group, split, weight)."""
        return self.meta["columns"]

    @property
    def table(self) -> pd.DataFrame:
        """One row per (split, group, score): ``split, group, score, pos_rows, neg_rows, pos_weight, neg_weight``."""
        if "table" not in self._cache:
            self._cache["table"] = self.stats.frame()
        return self._cache["table"]

    @property
    def sweeps(self) -> dict:
        """``{split: GroupedSweep}``: split ``"train"``, ``"validation"``, ``"test"``, or ``None``
        (no split column). Without a group column each sweep's one group is ``None``."""
        if "sweeps" not in self._cache:
            self._cache["sweeps"] = {(k or None): s for k, s in self.stats.sweeps().items()}
        return self._cache["sweeps"]

    def sweep(self, split: str | None = None):
        """The GroupedSweep of one split (``None``: the data has no split column)."""
        if split not in self.sweeps:
            have = ", ".join(repr(s) for s in self.sweeps)
            raise ValueError(f"split must be one of {have}: got {split!r}")
        return self.sweeps[split]

    def to_parquet(self, path) -> None:
        """Write the file (statistics plus the metadata in the footer)."""
        import pyarrow.parquet as pq

        pq.write_table(_arrow(self.stats, self.meta), path, compression="zstd")


def _present(meta: dict) -> list[str]:
    cols = meta["columns"]
    out = [c for c in ("split", "group") if cols.get(c)]
    out += ["score", "pos_rows", "neg_rows"]
    if cols.get("weight"):
        out += ["pos_weight", "neg_weight"]
    return out


def _arrow(stats, meta: dict):
    import pyarrow as pa

    arrays = {}
    for c in _present(meta):
        if c in ("split", "group"):
            names = stats.splits if c == "split" else stats.groups
            codes = stats.split if c == "split" else stats.group
            arrays[c] = pa.DictionaryArray.from_arrays(pa.array(codes, type=pa.int32()), pa.array(list(names)))
        else:
            arrays[c] = pa.array(getattr(stats, c))
    out = pa.table(arrays)
    return out.replace_schema_metadata({META_KEY: json.dumps(meta, sort_keys=True).encode("utf-8")})


def fingerprint(stats, meta: dict) -> str:
    """SHA-256 of the statistics in canonical order (names as JSON, arrays as little-endian bytes)."""
    h = hashlib.sha256()
    for c in _present(meta):
        h.update(c.encode("utf-8") + b"\x00")
        if c in ("split", "group"):
            names = stats.splits if c == "split" else stats.groups
            codes = stats.split if c == "split" else stats.group
            h.update(json.dumps([_plain(x) for x in names]).encode("utf-8") + b"\x00")
            h.update(np.ascontiguousarray(codes, dtype="<i4").tobytes())
        elif c in ("pos_rows", "neg_rows"):
            h.update(np.ascontiguousarray(getattr(stats, c), dtype="<i8").tobytes())
        else:
            h.update(np.ascontiguousarray(getattr(stats, c), dtype="<f8").tobytes())
    return h.hexdigest()


def _plain(x):
    return x.item() if isinstance(x, np.generic) else x


def aggregate(
    source,
    *,
    label,
    score,
    group=None,
    weight=None,
    split=None,
    engine="duckdb",
    max_thresholds: int | None = DEFAULT_MAX_THRESHOLDS,
) -> Aggregate:
    """Read the rows once and return their sufficient statistics (see the module docstring).

    Exact (every distinct score is kept) unless the (split, group, score) rows would number
    more than about `max_thresholds` (None: no limit); then fine bins, with the bound in ``meta``.

    >>> q = "SELECT * FROM (VALUES (0, 0.2), (1, 0.2), (1, 0.9)) t(y, p)"
    >>> agg = aggregate(q, label="y", score="p")
    >>> s = agg.sweep()[None]
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist(), agg.exact
    ([inf, 0.9, 0.2], [0.0, 1.0, 2.0], [0.0, 0.0, 1.0], True)
    """
    from costlib import __version__
    from costlib.scale.score_stats import score_stats
    from costlib.scale.snapshot import consistent
    from costlib.scale.sources import describe_source, files_of

    def read():  # the counts and the files' sizes and times in the provenance, of one version of the files
        stats = score_stats(
            source,
            label=label,
            score=score,
            group=group,
            weight=weight,
            split=split,
            engine=engine,
            max_thresholds=max_thresholds,
        )
        return stats, files_of(source) if isinstance(source, str | os.PathLike | list | tuple) else []

    (stats, files), _ = consistent(source, read)
    source_text = source if isinstance(source, str) else describe_source(source)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "columns": {"label": label, "score": score, "group": group, "split": split, "weight": weight},
        "exact": stats.bits is None,
        "bits": stats.bits,
        "bound": None
        if stats.bits is None
        else {
            "largest_bin_rows": stats.largest_bin_rows,
            "largest_bin_weight": stats.largest_bin_weight,
            "statement": stats.bound_statement(),
        },
        "thresholds": len(stats),
        "provenance": {
            "source": source_text[:2000],
            "files": files,
            "engine": engine,
            "rows": stats.rows,
            "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "costlib": __version__,
        },
    }
    meta["provenance"]["fingerprint"] = fingerprint(stats, meta)
    return Aggregate(stats, meta)


# --------------------------------------------------------------------------------------
# Loading: footer first, then the data, refusing anything that is not an aggregate
# --------------------------------------------------------------------------------------


def load_aggregate(path_or_bytes, *, name: str | None = None) -> Aggregate:
    """Read an aggregate file (a path or the file's bytes) back; refuse anything else with a sentence.

    The footer is read first: a file that is not Parquet, or Parquet without costlib's
    metadata, or of another version, is refused before any data is read. Then the columns
    are checked (types, finite scores, non-negative counts, known split names, no repeated
    (split, group, score)) and the fingerprint is recomputed. `name` is the file name used
    in sentences (default: the path, or "the uploaded file").
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    if isinstance(path_or_bytes, bytes | bytearray | memoryview):
        data = bytes(path_or_bytes)
        shown = name or "the uploaded file"

        def handle():
            return pa.BufferReader(data)
    else:
        path = os.fspath(path_or_bytes)
        shown = name or path

        def handle():
            return path

    try:
        pf = pq.ParquetFile(handle())
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise DataError(MSG_NOT_PARQUET.format(name=shown, reason=_reason(exc))) from None
    raw = (pf.schema_arrow.metadata or {}).get(META_KEY)
    if raw is None:
        raise DataError(MSG_NOT_AGGREGATE.format(name=shown))
    meta = _parse_meta(raw, shown)
    expected = _present(meta)
    names = pf.schema_arrow.names
    for c in expected:
        if c not in names:
            raise DataError(MSG_BAD_COLUMN.format(name=shown, column=shorten(c), problem="is missing"))
    for c in ("split", "group"):
        if c in expected and pa.types.is_nested(pf.schema_arrow.field(c).type):  # read_dictionary fails on these
            kind = pf.schema_arrow.field(c).type
            raise DataError(
                MSG_BAD_COLUMN.format(name=shown, column=shorten(c), problem=f"holds {kind} instead of text")
            )
    try:
        coded = [c for c in ("split", "group") if c in expected]
        table = pq.ParquetFile(handle(), read_dictionary=coded).read(columns=expected)
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise DataError(MSG_NOT_PARQUET.format(name=shown, reason=_reason(exc))) from None
    stats = _check_table(table, meta, shown)
    if fingerprint(stats, meta) != meta["provenance"].get("fingerprint"):
        raise DataError(MSG_FINGERPRINT.format(name=shown))
    return Aggregate(stats, meta)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__).rstrip(".")[:200]


def _parse_meta(raw: bytes, shown: str) -> dict:
    if len(raw) > _MAX_META:
        raise DataError(MSG_BAD_META.format(name=shown, reason="it is larger than 1 MB"))
    try:
        meta = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(MSG_BAD_META.format(name=shown, reason=f"not JSON: {_reason(exc)}")) from None
    except RecursionError:
        raise DataError(MSG_BAD_META.format(name=shown, reason="it is nested too deeply")) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise DataError(MSG_NOT_AGGREGATE.format(name=shown))
    if meta.get("version") != VERSION:
        raise DataError(MSG_VERSION.format(name=shown, version=meta.get("version"), ours=VERSION))
    cols = meta.get("columns")
    prov = meta.get("provenance")
    if (
        not isinstance(cols, dict)
        or not isinstance(prov, dict)
        or not isinstance(meta.get("exact"), bool)
        or any(not isinstance(cols.get(k), str) for k in ("label", "score"))
        or any(cols.get(k) is not None and not isinstance(cols.get(k), str) for k in ("group", "split", "weight"))
        or not isinstance(prov.get("fingerprint"), str)
        or not isinstance(prov.get("rows"), int)
        or isinstance(prov.get("rows"), bool)
        or not 0 <= prov["rows"] <= MAX_ROWS
    ):
        raise DataError(MSG_BAD_META.format(name=shown, reason="fields are missing or of the wrong type"))
    bound = meta.get("bound")
    if bound is not None and (
        not isinstance(bound, dict)
        or any(
            isinstance(bound.get(k), bool) or not isinstance(bound.get(k), (int, float)) or not 0 <= bound[k] < 1e300
            for k in ("largest_bin_rows", "largest_bin_weight")
        )
        or isinstance(meta.get("bits"), bool)
        or not isinstance(meta.get("bits"), int)
        or not 0 <= meta["bits"] <= 64
    ):
        raise DataError(
            MSG_BAD_META.format(name=shown, reason='its "bound" or "bits" is missing a field or not a number')
        )
    shown_texts = [("provenance.source", prov.get("source")), ("bound.statement", (bound or {}).get("statement"))]
    for key, text in shown_texts:  # shown on the Data page and in the report: text of a sentence's length
        if text is not None and (not isinstance(text, str) or len(text) > MAX_META_TEXT):
            raise DataError(
                MSG_BAD_META.format(
                    name=shown, reason=f'its "{key}" is not text of at most {MAX_META_TEXT:,} characters'
                )
            )
    return meta


def _codes(table, column: str, shown: str) -> tuple[np.ndarray, list]:
    """Per-row codes and the names they index, from a (dictionary-encoded) column of text,
    numbers or booleans, as the command writes them (anything else, such as bytes, dates or
    lists, is refused with a sentence)."""
    import pyarrow as pa

    arr = table.column(column)
    kind = arr.type.value_type if pa.types.is_dictionary(arr.type) else arr.type
    if not any(
        test(kind) for test in (pa.types.is_string, pa.types.is_large_string, pa.types.is_integer, pa.types.is_boolean)
    ) and not pa.types.is_floating(kind):
        raise DataError(
            MSG_BAD_COLUMN.format(name=shown, column=shorten(column), problem=f"holds {kind} instead of text")
        )
    if arr.null_count:
        raise DataError(
            MSG_BAD_COLUMN.format(name=shown, column=shorten(column), problem=f"has {arr.null_count:,} missing values")
        )
    values = arr.to_pandas()
    if not isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype("category")
    codes = values.cat.codes.to_numpy(dtype=np.int64)
    if (codes < 0).any():  # a float NaN is not a null to Arrow, but it is no group: never a code of another
        n = int((codes < 0).sum())
        raise DataError(
            MSG_BAD_COLUMN.format(name=shown, column=shorten(column), problem=f"has {n:,} missing values (NaN)")
        )
    return codes, list(values.cat.categories)


def _check_table(table, meta: dict, shown: str):
    import pyarrow as pa

    from costlib.scale.rows import group_order
    from costlib.scale.score_stats import ScoreStats

    cols = meta["columns"]
    n = table.num_rows

    def bad(column, problem):
        return DataError(MSG_BAD_COLUMN.format(name=shown, column=shorten(column), problem=problem))

    def numbers(column, kind):
        arr = table.column(column)
        if arr.null_count:
            raise bad(column, f"has {arr.null_count:,} missing values")
        ok = pa.types.is_integer(arr.type) if kind == "int" else pa.types.is_floating(arr.type)
        if not ok:
            raise bad(column, f"holds {arr.type} instead of {'whole numbers' if kind == 'int' else 'numbers'}")
        return arr.to_numpy()

    score = numbers("score", "float").astype(np.float64)
    pos_rows = numbers("pos_rows", "int").astype(np.int64)
    neg_rows = numbers("neg_rows", "int").astype(np.int64)
    for c, x in (("pos_rows", pos_rows), ("neg_rows", neg_rows)):
        if (x < 0).any():
            raise bad(c, "has negative counts")
    if float(pos_rows.sum(dtype=np.float64) + neg_rows.sum(dtype=np.float64)) > MAX_ROWS:  # the int64 sum would wrap
        raise bad("pos_rows", f"counts more than {MAX_ROWS:,} rows in all (2**53), more than can be counted exactly")
    if cols.get("weight"):
        pos_w = numbers("pos_weight", "float").astype(np.float64)
        neg_w = numbers("neg_weight", "float").astype(np.float64)
        for c, w in (("pos_weight", pos_w), ("neg_weight", neg_w)):
            if not np.isfinite(w).all() or (w < 0).any():
                raise bad(c, "has negative or non-finite weights")
        with np.errstate(over="ignore"):
            total = float(pos_w.sum() + neg_w.sum())
        if not total < MAX_WEIGHT:
            raise bad("pos_weight", f"has weights that add up past {MAX_WEIGHT:g}, too large to be summed")
    else:
        pos_w, neg_w = pos_rows.astype(np.float64), neg_rows.astype(np.float64)
    if not np.isfinite(score).all():
        raise bad("score", "has missing or infinite scores")
    if cols.get("split"):
        split, splits = _codes(table, "split", shown)
        if any(s not in ("train", "validation", "test") for s in splits):
            raise bad("split", "has values other than train, validation and test")
    else:
        split, splits = np.zeros(n, dtype=np.int64), [""]
    if cols.get("group"):
        group, found = _codes(table, "group", shown)
        names = group_order(found)
        where = {g: i for i, g in enumerate(names)}
        group = np.array([where[g] for g in found], dtype=np.int64)[group] if len(found) else group
    else:
        group, names = np.zeros(n, dtype=np.int64), [None]
    if meta["provenance"]["rows"] != int(pos_rows.sum() + neg_rows.sum()):
        raise bad("pos_rows", f"does not add up to the {meta['provenance']['rows']:,} rows the metadata states")
    stats = ScoreStats.build(
        splits=tuple(splits),
        split=split,
        groups=tuple(names),
        group=group,
        score=score,
        pos_rows=pos_rows,
        neg_rows=neg_rows,
        pos_weight=pos_w,
        neg_weight=neg_w,
        weighted=bool(cols.get("weight")),
        rows=meta["provenance"]["rows"],
        **(
            {
                "bits": meta["bits"],
                "largest_bin_rows": meta["bound"]["largest_bin_rows"],
                "largest_bin_weight": meta["bound"]["largest_bin_weight"],
            }
            if meta.get("bound")
            else {}
        ),
    )
    same = (np.diff(stats.split) == 0) & (np.diff(stats.group) == 0) & (np.diff(stats.score) == 0)
    if same.any():
        raise bad("score", "repeats a (split, group, score)")
    return stats
