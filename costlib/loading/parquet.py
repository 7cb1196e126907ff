"""Reading Parquet bytes into a DataFrame, within the memory budget, with pyarrow only.

The footer (row count and sizes) is checked against the budget before any data is read;
prefix-coded text, whose decoded size the footer cannot tell, is counted while it is read.
Nested columns (lists, structs, maps) are left out, with a note, from the footer before any data
is read: a file of nothing else is refused. Decimals become floats.
"""

from __future__ import annotations

import pandas as pd

from costlib.core.errors import DataError
from costlib.loading.budget import Allowance, upload_allowance
from costlib.loading.frames import compact, compact_plan, tidy
from costlib.loading.messages import (
    MSG_BAD_PARQUET,
    MSG_NESTED_COLUMNS,
    MSG_TOO_BIG_PARQUET,
    MSG_TOO_BIG_PARQUET_READ,
    NOTE_NESTED_LEFT_OUT,
    cols_phrase,
    limit_words,
    size,
)
from costlib.loading.repeated import resolve_repeated


def read_parquet(data: bytes, name: str, limit: Allowance | None = None) -> pd.DataFrame:
    """The table of Parquet bytes, refused from its footer (or while it is read, for
    prefix-coded text) when it would take more than `limit` allows (default: the upload budget)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pfile = pq.ParquetFile(pa.BufferReader(data))
        schema, meta = pfile.schema_arrow, pfile.metadata
    except Exception:
        raise DataError(MSG_BAD_PARQUET.format(name=name, reason="it is damaged or cut short")) from None
    nested = [f.name for f in schema if _is_nested(f.type)]
    notes: list[str] = []
    columns = None  # every column, unless some are nested: then only the flat ones are read
    if nested:
        if len(nested) == len(schema):
            raise DataError(MSG_NESTED_COLUMNS.format(name=name, columns=cols_phrase(nested)), column=nested[0])
        columns = [f.name for f in schema if not _is_nested(f.type)]
        many = len(nested) > 1
        notes.append(
            NOTE_NESTED_LEFT_OUT.format(
                name=name,
                columns=cols_phrase(nested),
                hold="hold" if many else "holds",
                they="they" if many else "it",
                were="were" if many else "was",
            )
        )
    limit = limit or upload_allowance()
    _check_parquet_budget(meta, schema, name, limit, columns)
    text = [f.name for f in schema if _is_text_type(f.type)]
    try:
        # text is read dictionary-encoded (a category in pandas): a column repeating one long
        # string takes its indices and one copy of the string, not a copy per row
        if _prefix_coded(meta):
            # DELTA_BYTE_ARRAY stores each string as the change from the one before: a few bytes
            # can decode to long strings, so the footer's sizes say nothing; count while reading
            table = _read_batches(pfile, name, limit, columns)
        else:
            # every other encoding's decoded text is in the footer's uncompressed size, which the
            # budget check read; text comes dictionary-encoded (a category in pandas), so a column
            # repeating one long string takes its indices and one copy, not a copy per row
            table = (pq.ParquetFile(pa.BufferReader(data), read_dictionary=text) if text else pfile).read(columns)
        for i, f in enumerate(table.schema):
            if pa.types.is_decimal(f.type):
                table = table.set_column(i, f.name, table.column(i).cast(pa.float64()))
        df = table.to_pandas(self_destruct=True, split_blocks=True)
        del table
    except DataError:
        raise
    except Exception:
        raise DataError(MSG_BAD_PARQUET.format(name=name, reason="its contents could not be decoded")) from None
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = ["_".join(str(x) for x in c if str(x)) for c in df.columns]
    df = compact(df, compact_plan(df, final=True))
    return tidy(resolve_repeated(df, [str(c).strip() for c in df.columns], name, notes), name, notes)


PARQUET_BATCH_ROWS = 1 << 16


def _is_text_type(typ) -> bool:
    import pyarrow as pa

    return (
        pa.types.is_string(typ)
        or pa.types.is_large_string(typ)
        or pa.types.is_binary(typ)
        or (pa.types.is_large_binary(typ))
    )


def _prefix_coded(meta) -> bool:
    """Whether any column chunk is DELTA_BYTE_ARRAY-encoded (prefix-coded text)."""
    return any(
        "DELTA_BYTE_ARRAY" in meta.row_group(i).column(j).encodings
        for i in range(meta.num_row_groups)
        for j in range(meta.num_columns)
    )


def _read_batches(pfile, name: str, limit: Allowance, columns: list[str] | None = None):
    """The file's table, read PARQUET_BATCH_ROWS rows at a time while counting what it takes:
    refused as soon as that passes the table budget. For prefix-coded text the footer cannot
    say how long the cells decode (a few hundred kilobytes can hold millions of long strings);
    the count can. A dictionary shared by successive batches is counted once."""
    import pyarrow as pa

    budget, used, rows = limit.table, 0, 0
    seen: set[int] = set()
    batches = []
    for batch in pfile.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns, use_threads=True):
        for column in batch.columns:
            if pa.types.is_dictionary(column.type):
                used += column.indices.nbytes
                address = column.dictionary.buffers()[-1].address if column.dictionary.buffers()[-1] else 0
                if address not in seen:
                    seen.add(address)
                    used += column.dictionary.nbytes
            else:
                used += column.nbytes
        rows += batch.num_rows
        if used > budget:
            raise DataError(
                MSG_TOO_BIG_PARQUET_READ.format(
                    name=name,
                    rows=f"{pfile.metadata.num_rows:,}",
                    read=f"{rows:,}",
                    size=size(used),
                    **limit_words(limit, used),
                )
            )
        batches.append(batch)
    if batches:
        return pa.Table.from_batches(batches, schema=batches[0].schema)
    schema = pfile.schema_arrow
    return pa.Table.from_batches(
        [], schema=schema if columns is None else pa.schema([schema.field(c) for c in columns])
    )


def _is_nested(typ) -> bool:
    import pyarrow as pa

    return pa.types.is_nested(typ) or (pa.types.is_dictionary(typ) and pa.types.is_nested(typ.value_type))


def _check_parquet_budget(meta, schema, name: str, limit: Allowance, columns: list[str] | None = None) -> None:
    """Refuse, from the footer alone, a file whose table (of `columns`, None: all) would not fit `limit`."""
    estimate = parquet_memory_estimate(meta, schema, columns)
    if estimate > limit.table:
        raise DataError(
            MSG_TOO_BIG_PARQUET.format(
                name=name, rows=f"{meta.num_rows:,}", size=size(estimate), **limit_words(limit, estimate)
            )
        )


def parquet_memory_estimate(meta, schema, columns: list[str] | None = None) -> int:
    """Bytes the table will take in memory, from the footer: rows x the width of each column's
    type (text counted at 16 bytes a cell), or the uncompressed size if that is larger; of the
    top-level `columns` only (None: all of them)."""
    import pyarrow as pa

    width = 0
    kept = [f for f in schema if columns is None or f.name in columns]
    for f in kept:
        typ = f.type.index_type if pa.types.is_dictionary(f.type) else f.type
        if pa.types.is_boolean(typ):
            width += 1
        elif pa.types.is_decimal(typ):
            width += 8
        else:
            try:
                width += max(1, typ.bit_width // 8)
            except ValueError:  # variable width: strings, binary
                width += 16
    if columns is None:
        uncompressed = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    else:  # the leaf columns of the fields kept, in the schema's order (a nested field has several)
        kept_leaves = _leaf_kept(schema, set(columns))
        if len(kept_leaves) != meta.num_columns:  # a layout this count does not know: count every column
            kept_leaves = [True] * meta.num_columns
        leaves = [i for i, keep in enumerate(kept_leaves) if keep]
        uncompressed = sum(
            meta.row_group(g).column(j).total_uncompressed_size for g in range(meta.num_row_groups) for j in leaves
        )
    return max(int(meta.num_rows) * width, int(uncompressed))


def _leaf_kept(schema, columns: set[str]) -> list[bool]:
    """For each leaf column of the file (the footer's column chunks, in order), whether its
    top-level field is one of `columns`."""
    out: list[bool] = []
    for f in schema:
        out += [f.name in columns] * _leaves(f.type)
    return out


def _leaves(typ) -> int:
    """The leaf columns a field of type `typ` is stored as."""
    import pyarrow as pa

    if pa.types.is_dictionary(typ):
        typ = typ.value_type
    if pa.types.is_struct(typ):
        return sum(_leaves(typ.field(i).type) for i in range(typ.num_fields))
    if pa.types.is_map(typ):
        return _leaves(typ.key_type) + _leaves(typ.item_type)
    if pa.types.is_list(typ) or pa.types.is_large_list(typ) or pa.types.is_fixed_size_list(typ):
        return _leaves(typ.value_type)
    return 1
