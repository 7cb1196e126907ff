"""Memory budgets: what one upload may take, and what the whole server may take.

Two settings. The upload budget ($COSTLIB_UPLOAD_MEMORY_MB) bounds one upload and what it
leads to: the readers (`costlib.loading.reading`, `costlib.loading.parquet`) refuse a table
whose parsed size would pass its `Allowance`, and `loading.prepare` refuses a table whose
pages' work (`work_bytes`: sweeps, cross-fitting, bootstrap) would pass the budget. The
server budget ($COSTLIB_SERVER_MEMORY_MB, default half the machine's memory) bounds every
session together; `costlib.loading.ledger` keeps the account.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass

DEFAULT_UPLOAD_MEMORY_MB = 4096
"""Peak memory one upload may take while it is read, prepared and worked on, in MB (2**20 bytes).

The default takes a table of about 5 million rows with one score column and the work of every
page on it (`WORK_PER_ROW`), or a parsed table of 1 GB, and keeps a session under a quarter of a
24 GB machine; a larger table is refused with a sentence that points to the big-data path (the
counts, which Costs & groups and Value read exactly). Override it with the environment variable
named by `UPLOAD_MEMORY_ENV`.
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
    return _megabytes(UPLOAD_MEMORY_ENV, DEFAULT_UPLOAD_MEMORY_MB * (1 << 20))


def _megabytes(variable: str, default: int) -> int:
    """The environment variable `variable` read as a positive number of MB, in bytes; `default`
    (bytes) when it is unset, not a number (with a warning), not positive or infinite."""
    raw = os.environ.get(variable, "").strip()
    if raw:
        try:
            mb = float(raw)
        except ValueError:
            warnings.warn(f"{variable}={raw!r} is not a number of MB; using {default / (1 << 20):g}", stacklevel=3)
        else:
            if mb > 0 and mb != float("inf"):
                return int(mb * (1 << 20))
    return int(default)


WORK_PER_ROW = 800
"""Peak bytes the pages' work takes per row and score column of a prepared table, in a session
that opens Costs & groups and then Value: the sweeps, cross-fitted cutoffs, fairness intervals
and bootstrap of the one, the value sweeps, their deals and resample draws of the other, kept for
the price moves (measured 414 to 778 from 200,000 to 2,000,000 rows with one to three score
columns and up to 20 groups, Costs & groups alone 275 to 482: `python benchmarks/memory.py`;
benchmarks/README.md, "The pages' work per row, again"). Below about 100,000 rows the deals are
capped by entries, not rows (`binary.folds.SPLIT_BUDGET`): about 100 MB a score column whatever
the size, which this does not follow."""

SERVER_MEMORY_ENV = "COSTLIB_SERVER_MEMORY_MB"


def work_bytes(n_rows: int, n_scores: int) -> int:
    """Peak bytes the pages' work on a table of `n_rows` rows and `n_scores` score columns takes.

    Examples
    --------
    >>> work_bytes(1_000_000, 1) == 1_000_000 * WORK_PER_ROW
    True
    """
    return int(n_rows) * max(1, int(n_scores)) * WORK_PER_ROW


def machine_memory() -> int:
    """Bytes of memory this process may use: the machine's physical memory, or the container's
    limit (cgroup v2 ``memory.max``, v1 ``memory.limit_in_bytes``) when that is smaller."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as f:
                raw = f.read().strip()
        except OSError:
            continue
        if raw.isdigit() and 0 < int(raw) < total:
            total = int(raw)
    return int(total)


def server_memory_budget() -> int:
    """Bytes every session of a dashboard server may hold together.

    Returns
    -------
    int
        $COSTLIB_SERVER_MEMORY_MB (in MB) when it is a positive number, else half of
        `machine_memory()`: the rest is for the operating system, Streamlit, the browser
        connections and the peaks between checks.

    Examples
    --------
    >>> 0 < server_memory_budget() <= machine_memory() or bool(os.environ.get(SERVER_MEMORY_ENV))
    True
    """
    return _megabytes(SERVER_MEMORY_ENV, machine_memory() // 2)


SESSION_SHARE_UPLOADS = 2
"""What one session may hold, in upload budgets: the data in use and one more file (the next
upload being mapped, the Train or Watch page's own table)."""


def session_share() -> int:
    """Bytes one dashboard session may hold at most: `SESSION_SHARE_UPLOADS` upload budgets."""
    return SESSION_SHARE_UPLOADS * upload_memory_budget()


@dataclass(frozen=True)
class Allowance:
    """The peak memory one read and preparation may take, and what sets it.

    ``server`` is False when the upload budget sets it, True when the server's free memory
    (smaller) does. Then ``whole`` is the server budget (what a read could take with nothing
    else held), and ``others`` and ``mine`` are the bytes other sessions and this one hold on the
    server's ledger: the refusals say which of them, if any, makes the difference. A table that
    would not fit even on an empty server is too big for this server, not refused because the
    server is busy (`messages.limit_words`).
    """

    peak: int
    server: bool = False
    whole: int = 0
    others: int = 0
    mine: int = 0

    @property
    def table(self) -> int:
        """Bytes the parsed table may take: a `PEAK_PER_TABLE_BYTE`-th of the peak."""
        return self.peak // PEAK_PER_TABLE_BYTE


def upload_allowance() -> Allowance:
    """The allowance of a read that only the upload budget bounds (the command line, a notebook)."""
    return Allowance(upload_memory_budget())


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
