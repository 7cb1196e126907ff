"""The memory budget of one upload: how much a table may take while it is read and prepared.

The budget is a setting ($COSTLIB_UPLOAD_MEMORY_MB); the readers (`costlib.loading.reading`,
`costlib.loading.parquet`) refuse a table whose parsed size would pass `table_budget`.
"""

from __future__ import annotations

import os
import warnings

DEFAULT_UPLOAD_MEMORY_MB = 4096
"""Peak memory one upload may take while it is read and prepared, in MB (2**20 bytes).

The default takes a 10-million-row table of a few columns (about 1 GB parsed) and keeps a
session under a quarter of a 24 GB machine. Override it with the environment variable named
by `UPLOAD_MEMORY_ENV`.
"""
UPLOAD_MEMORY_ENV = "COSTLIB_UPLOAD_MEMORY_MB"
PEAK_PER_TABLE_BYTE = 4
"""Peak memory of read_table + prepare per byte of the parsed table (measured: about 3.3,
see benchmarks/loading.py); the table may therefore take a quarter of the budget."""


def upload_memory_budget() -> int:
    """Peak memory one upload may take while it is read and prepared, in bytes.

    Returns
    -------
    int
        $COSTLIB_UPLOAD_MEMORY_MB (in MB) when it is a positive number, else
        DEFAULT_UPLOAD_MEMORY_MB (with a warning when the variable is set but not a number).

    Examples
    --------
    >>> upload_memory_budget() >= 1 << 20
    True
    """
    raw = os.environ.get(UPLOAD_MEMORY_ENV, "").strip()
    mb = float(DEFAULT_UPLOAD_MEMORY_MB)
    if raw:
        try:
            mb = float(raw)
        except ValueError:
            warnings.warn(f"{UPLOAD_MEMORY_ENV}={raw!r} is not a number of MB; using {mb:g}", stacklevel=2)
        if not mb > 0 or mb == float("inf"):
            mb = float(DEFAULT_UPLOAD_MEMORY_MB)
    return int(mb * (1 << 20))


def table_budget() -> int:
    """Bytes the parsed table may take: `upload_memory_budget()` // PEAK_PER_TABLE_BYTE.

    Returns
    -------
    int
        Parquet whose footer promises more, and CSV whose chunks add up to more, are refused.

    Examples
    --------
    >>> table_budget() * PEAK_PER_TABLE_BYTE <= upload_memory_budget()
    True
    """
    return upload_memory_budget() // PEAK_PER_TABLE_BYTE


# ---------------------------------------------------------------------------------------
