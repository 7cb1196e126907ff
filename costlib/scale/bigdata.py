"""Big data on the dashboard: counts, not rows.

Two ways in, both ending in a `Dataset` that holds each model's sweeps (`decision.ModelSweeps`)
and no rows, so that every page that needs only counts (Costs & groups, Find my prices, the
sensitivity map, net benefit, fairness-constrained cutoffs, Value for probabilities) works at
any size, exactly (or within a stated bound, once the distinct scores outnumber a budget):

- an aggregate file written by ``python -m costlib aggregate`` on a warehouse or cluster
  (`dataset_from_aggregate`);
- a Parquet or CSV file in the deployment's data folder (``COSTLIB_DATA_DIR``), read where
  it lies by DuckDB (`dataset_from_file`). Only files directly in that folder are offered,
  by name; a name with a path in it, a hidden file or a link that leads out of the folder is
  refused (`safe_path`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from costlib.binary.model_sweeps import model_from_sweeps
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.core.escaping import display_name, shorten
from costlib.core.settings import MAX_GROUPS
from costlib.scale import snapshot

DATA_DIR_ENV = "COSTLIB_DATA_DIR"
SUFFIXES = (".parquet", ".pq", ".csv")
# Distinct (split, group, score) cells a data-folder file may bring into the server before its
# scores are pooled into fine bins (about 200 bytes each at peak: ~0.4 GB per score column).
FOLDER_MAX_THRESHOLDS = 2_000_000
MSG_OUTSIDE = 'The file "{name}" is not one of the files in the data folder; choose one from the list.'
GLOB_CHARACTERS = "*?[]{}"
MSG_GLOB_FOLDER = (
    'The data folder "{folder}" has a wildcard character (* ? [ ] {{ }}) in its path, which the reader would take '
    "as a pattern matching other folders; set COSTLIB_DATA_DIR to a path without them."
)
NOT_A_SIGNATURE = (
    "The file's fingerprint shows that its counts have not changed by accident since it was written; it is a "
    "checksum, not a signature: whoever edits the counts can write a matching fingerprint, and the text about "
    "where they came from with it. Trust an aggregate file as far as you trust whoever handed it to you."
)
MSG_GLOB = (
    'The file "{name}" has a wildcard character (* ? [ ] {{ }}) in its name, which the reader would take as a '
    "pattern matching other files; rename it to open it."
)


def data_folder() -> Path | None:
    """The deployment's data folder (``COSTLIB_DATA_DIR``), or None when not set or missing."""
    raw = os.environ.get(DATA_DIR_ENV, "").strip()
    if not raw:
        return None
    folder = Path(raw).expanduser()
    return folder.resolve() if folder.is_dir() else None


def list_files(folder: Path) -> list[str]:
    """The Parquet and CSV files directly in `folder` (names only, sorted), never a link that
    leads out of it, never a hidden file."""
    out = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith(".") or entry.suffix.lower() not in SUFFIXES:
            continue
        if any(ch in entry.name for ch in GLOB_CHARACTERS):  # listed, and refused with its sentence when opened
            out.append(entry.name)
            continue
        try:
            safe_path(folder, entry.name)
        except DataError:
            continue
        out.append(entry.name)
    return out


def safe_path(folder: Path, name: str) -> Path:
    """The file `name` directly in `folder`, or DataError: no separators, no "..", no hidden
    files, and the real path (links resolved) must be a regular file inside the folder."""
    text = str(name)
    if not text or text in (".", "..") or "/" in text or "\\" in text or "\0" in text or text.startswith("."):
        raise DataError(MSG_OUTSIDE.format(name=text[:80]))
    if any(ch in text for ch in GLOB_CHARACTERS):  # DuckDB would read the name as a pattern: other files
        raise DataError(MSG_GLOB.format(name=text[:80]))
    if any(ch in str(folder) for ch in GLOB_CHARACTERS):  # the folder's own path, read as a pattern, too
        raise DataError(MSG_GLOB_FOLDER.format(folder=str(folder)[:200]))
    root = Path(folder).resolve()
    path = (root / text).resolve()
    if path.parent != root or not path.is_file() or path.suffix.lower() not in SUFFIXES:
        raise DataError(MSG_OUTSIDE.format(name=text[:80]))
    return path


def columns_of(path: Path) -> list[str]:
    """The column names of a Parquet file (read from its footer) or a CSV file (its header, as
    DuckDB reads it: its delimiter, a byte-order mark dropped, "column1" for a blank name)."""
    import pyarrow.parquet as pq

    if path.suffix.lower() in (".parquet", ".pq"):
        try:
            names = list(pq.ParquetFile(path).schema_arrow.names)
        except Exception as exc:  # noqa: BLE001 - any unreadable footer is one sentence
            raise DataError(f'The file "{display_name(path.name)}" could not be read as Parquet: {exc}.') from None
        _no_repeats(path, names)
        return names
    from costlib.scale.engines import connect

    def read():  # DuckDB's names and the header's own cells, of one version of the file
        engine = connect("duckdb", str(path))  # the names DuckDB will read: its delimiter, its names for blanks
        try:
            names = [c for c, _ in engine.columns(engine.open(str(path)))]
        finally:
            engine.close()
        return names, _header_cells(path, names)

    (names, cells), _ = snapshot.consistent(str(path), read)
    _no_repeats(path, cells or names)
    return names


def _header_cells(path: Path, names: list[str]) -> list[str] | None:
    """The CSV header's own cells (DuckDB renames a repeated name "s" to "s_1"), split on the
    delimiter that gives DuckDB's number of columns; None when none does."""
    with open(path, "rb") as fh:
        first = fh.read(1 << 16).split(b"\n", 1)[0].decode("utf-8", "replace").lstrip("\ufeff").rstrip("\r")
    for sep in (",", ";", "\t", "|"):
        cells = [c.strip().strip('"') for c in first.split(sep)]
        if len(cells) == len(names):
            return cells
    return None


def _no_repeats(path: Path, names: list[str]) -> None:
    """DataError when a column name stands twice: the data folder reads a file as it is, and the
    second column would be silently renamed or shadowed."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise DataError(
                f'The file "{display_name(path.name)}" has the column name "{shorten(name)}" twice '
                f"(columns {seen[name] + 1} and {i + 1}): give each column its own name."
            )
        seen[name] = i


def _dataset(
    name: str, fingerprint: str, n_rows: int, mapping: ColumnMapping, models: dict, notes: tuple[str, ...]
) -> Dataset:
    return Dataset(
        name=name,
        fingerprint=fingerprint,
        n_rows=n_rows,
        mapping=mapping,
        sweeps=models,
        notes=notes,
        probabilities=all(m.probabilities for m in models.values()),
    )


def _models_from(sweeps: dict, score: str, split: bool, weighted: bool):
    if split:
        missing = [role for role in ("train", "test") if role not in sweeps]
        if missing:
            raise DataError(
                f"The split column has no {missing[0]} rows: the cutoffs are fitted on train rows and "
                "judged on test rows. Leave the split out to fit and judge on all rows."
            )
        return model_from_sweeps(sweeps["train"], sweeps["test"], name=score, weighted=weighted)
    return model_from_sweeps(sweeps, None, name=score, weighted=weighted)


def scan_sweeps(
    source,
    *,
    label: str,
    score: str,
    group: str | None = None,
    split: str | None = None,
    weight: str | None = None,
    engine: str = "duckdb",
    max_thresholds: int | None = FOLDER_MAX_THRESHOLDS,
    max_groups: int | None = None,
) -> tuple[object, str | None]:
    """One score column's grouped sweeps computed where the rows live, and what was pooled.

    Returns ``(sweeps, bound)``: ``sweeps`` as `costlib.scale.scans.scan_grouped_sweep` gives them (a dict
    by split when `split` is given), exact when the (split, group, score) cells number at
    most about `max_thresholds`; beyond that fine bins, so that memory stays bounded by
    `max_thresholds` whatever the number of rows, and ``bound`` says in words how far a
    cutoff inside a bin can be (None when exact).
    """
    from costlib.scale.score_stats import score_stats

    stats = score_stats(
        source,
        label=label,
        score=score,
        group=group,
        weight=weight,
        split=split,
        engine=engine,
        max_thresholds=max_thresholds,
        max_groups=MAX_GROUPS if max_groups is None else max_groups,
    )
    return stats.as_sweeps(split is not None), stats.bound_statement()


def dataset_from_file(
    path: Path,
    *,
    label: str,
    scores: list[str],
    group: str | None = None,
    split: str | None = None,
    weight: str | None = None,
) -> Dataset:
    """Read a file through DuckDB into a counts-only `Dataset` (one `ModelSweeps` per score).

    Every score column is read from one version of the file (`snapshot.consistent`), and the
    dataset's fingerprint is that version's `snapshot.identity`, never the name and
    modification time: a file replaced under the same name, rows and time is another dataset,
    so nothing remembered for the old one is shown for it.
    """

    def read():
        models, n_rows = {}, 0
        notes = [
            f"“{display_name(path.name)}” is read where it lies, through DuckDB: the pages work on its counts, "
            "not its rows."
        ]
        for score in scores:
            sweeps, bound = scan_sweeps(
                str(path),
                label=label,
                score=score,
                group=group,
                weight=weight,
                split=split,
                max_thresholds=FOLDER_MAX_THRESHOLDS,
            )
            parts = sweeps.values() if split else [sweeps]
            n_rows = int(round(sum(float(g.positives.sum() + g.negatives.sum()) for g in parts)))
            models[score] = _models_from(sweeps, score, split is not None, weight is not None)
            if bound:
                notes.append(f"{score}: {bound}")
        return models, n_rows, notes

    (models, n_rows, notes), ident = snapshot.consistent(str(path), read)
    mapping = ColumnMapping(label=label, scores=tuple(scores), group=group, split=split, weight=weight)
    fingerprint = f"file:{path.name}:{snapshot.token(ident)}"
    return _dataset(display_name(path.name), fingerprint, n_rows, mapping, models, tuple(notes))


def dataset_from_aggregate(data: bytes, *, name: str) -> Dataset:
    """An aggregate file (from ``python -m costlib aggregate``) as a counts-only `Dataset`."""
    from costlib.scale.aggregates import load_aggregate

    agg = load_aggregate(data, name=name)
    roles = agg.columns
    if roles.get("group") and len(agg.stats.groups) > MAX_GROUPS:  # the bound of every other way in
        from costlib.scale.score_stats import too_many_groups

        names = np.asarray(agg.stats.groups, dtype=object)[agg.stats.group]
        rows = pd.Series(agg.stats.pos_rows + agg.stats.neg_rows).groupby(names).sum()
        error = too_many_groups(name, roles["group"], rows, MAX_GROUPS)
        again = error.message.replace("Leave the group column out", "Write the aggregate again without --group")
        raise DataError(again, column=roles["group"])
    sweeps = agg.sweeps
    score = roles.get("score") or "score"
    split = None not in sweeps
    models = {score: _models_from(sweeps if split else sweeps[None], score, split, bool(roles.get("weight")))}
    prov = agg.provenance
    notes = [
        f"“{name}” holds counts computed from {prov.get('rows', 0):,} rows of {prov.get('source', 'a source')} "
        f"with {prov.get('engine', 'an engine')} on {prov.get('created', 'an unknown date')}.",
        NOT_A_SIGNATURE,
    ]
    if not agg.exact:
        bound = agg.meta.get("bound") or {}
        notes.append(bound.get("statement") or "The scores were pooled into bins: cutoffs are exact at bin edges only.")
    mapping = ColumnMapping(
        label=roles.get("label"),
        scores=(score,),
        group=roles.get("group"),
        split=roles.get("split"),
        weight=roles.get("weight"),
    )
    return _dataset(name, str(prov.get("fingerprint", "")), int(prov.get("rows", 0)), mapping, models, tuple(notes))


BYTES_PER_CELL = 48  # what one read cell takes in pandas at most (a short text; a number takes 8)


def read_columns(path: Path, columns: list[str]) -> pd.DataFrame:
    """Only `columns` of a data-folder file, read where it lies by DuckDB, refused with a
    sentence before any row is read when they would not fit the upload memory budget
    (`loading.budget.table_budget`) at `BYTES_PER_CELL` a cell. The count and the columns are
    read from one version of the file (`snapshot.consistent`)."""
    return snapshot.consistent(str(path), lambda: _read_columns(path, columns))[0]


def _read_columns(path: Path, columns: list[str]) -> pd.DataFrame:
    """`read_columns` on one version of the file: a count, then the columns."""
    from costlib.loading.budget import table_budget
    from costlib.scale.engines import connect

    engine = connect("duckdb", str(path))
    try:
        view = engine.open(str(path))
        have = [c for c, _ in engine.columns(view)]
        missing = [c for c in columns if c not in have]
        if missing:
            raise DataError(f'The file "{path.name}" has no column "{missing[0]}".', column=missing[0])
        n = int(engine.sql(f"SELECT count(*) AS n FROM {view}")["n"].iloc[0])
        need = n * len(columns) * BYTES_PER_CELL
        if need > table_budget():
            raise DataError(
                f'The file "{path.name}" has {n:,} rows: its {len(columns)} columns would take about '
                f"{need / 2**20:,.0f} MB here, past this server's budget of {table_budget() / 2**20:,.0f} MB for one "
                "table. Watch a shorter span of time (one file per quarter, say)."
            )
        return engine.sql(f"SELECT {', '.join(engine.quote(c) for c in columns)} FROM {view}")
    finally:
        engine.close()
