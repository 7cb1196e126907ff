"""Reading Parquet bytes into a DataFrame, within the memory budget, with pyarrow only.

The footer (row count and sizes) is checked against the budget before any data is read;
prefix-coded text, whose decoded size the footer cannot tell, is counted while it is read.
Nested columns are refused; decimals become floats.
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
    if nested:
        raise DataError(MSG_NESTED_COLUMNS.format(name=name, columns=cols_phrase(nested)), column=nested[0])
    limit = limit or upload_allowance()
    _check_parquet_budget(meta, schema, name, limit)
    text = [f.name for f in schema if _is_text_type(f.type)]
    try:
        # text is read dictionary-encoded (a category in pandas): a column repeating one long
        # string takes its indices and one copy of the string, not a copy per row
        if _prefix_coded(meta):
            # DELTA_BYTE_ARRAY stores each string as the change from the one before: a few bytes
            # can decode to long strings, so the footer's sizes say nothing; count while reading
            table = _read_batches(pfile, name, limit)
        else:
            # every other encoding's decoded text is in the footer's uncompressed size, which the
            # budget check read; text comes dictionary-encoded (a category in pandas), so a column
            # repeating one long string takes its indices and one copy, not a copy per row
            table = (pq.ParquetFile(pa.BufferReader(data), read_dictionary=text) if text else pfile).read()
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
    notes: list[str] = []
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


def _read_batches(pfile, name: str, limit: Allowance):
    """The file's table, read PARQUET_BATCH_ROWS rows at a time while counting what it takes:
    refused as soon as that passes the table budget. For prefix-coded text the footer cannot
    say how long the cells decode (a few hundred kilobytes can hold millions of long strings);
    the count can. A dictionary shared by successive batches is counted once."""
    import pyarrow as pa

    budget, used, rows = limit.table, 0, 0
    seen: set[int] = set()
    batches = []
    for batch in pfile.iter_batches(batch_size=PARQUET_BATCH_ROWS, use_threads=True):
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
    return pa.Table.from_batches(batches, schema=pfile.schema_arrow if not batches else batches[0].schema)


def _is_nested(typ) -> bool:
    import pyarrow as pa

    return pa.types.is_nested(typ) or (pa.types.is_dictionary(typ) and pa.types.is_nested(typ.value_type))


def _check_parquet_budget(meta, schema, name: str, limit: Allowance) -> None:
    """Refuse, from the footer alone, a file whose table would not fit `limit`."""
    estimate = parquet_memory_estimate(meta, schema)
    if estimate > limit.table:
        raise DataError(
            MSG_TOO_BIG_PARQUET.format(
                name=name, rows=f"{meta.num_rows:,}", size=size(estimate), **limit_words(limit, estimate)
            )
        )


def parquet_memory_estimate(meta, schema) -> int:
    """Bytes the table will take in memory, from the footer: rows x the width of each column's
    type (text counted at 16 bytes a cell), or the uncompressed size if that is larger."""
    import pyarrow as pa

    width = 0
    for f in schema:
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
    uncompressed = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return max(int(meta.num_rows) * width, int(uncompressed))
