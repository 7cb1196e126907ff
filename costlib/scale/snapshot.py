"""One version of a file from the first pass over it to the last.

DuckDB (or Spark) reads a file source more than once: when the view is made (a CSV's
dialect is sniffed, a Parquet footer read), in the pass that checks every row
(`rows.validate`), then in the passes that count. A file replaced between two of them gives
counts of rows that were never checked (labels 2 or -1 counted as neither class), or counts
of two files at once. `consistent` takes the identity of every local file a path source
names before the first pass and again after the last: when it moved, the work is done once
more; when it moved again, the read is refused with a sentence. A cache keyed by `identity`
(the data folder's datasets, the Watch page's cases) can never return another version's
answer: the identity of a file never comes back once it has moved, so an entry stored under
an identity the file no longer has is never looked up again.

A file's identity is ``(st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns)``, not its content's
hash. On Linux (and macOS) every write, truncation, rename onto the name or ``chmod`` sets the
inode's change time ``st_ctime`` to now, and nothing a user can run sets it back: ``touch -d`` and
``os.utime`` restore the modification time but move the change time forward; a file renamed
onto the name is another inode, with its own change time. A hash could not do better and costs
more: it reads every byte of the file, twice (before the first pass and after the last), where
DuckDB reads only the columns it needs of a Parquet file; and a file swapped and swapped back
between the two hashes (A, then B, then A again) hashes the same while the passes in between read
B, where the change time has moved twice. What the identity cannot see: a change within one tick
of the filesystem's clock after the change before it (a few milliseconds on ext4, XFS, Btrfs and
tmpfs), which `consistent` waits out before it reads (`SETTLE_NS`), and any change on a
filesystem whose times are coarser (FAT, some network filesystems) that keeps the size.
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import time
from collections.abc import Callable
from typing import TypeVar

from costlib.core.errors import DataError
from costlib.scale.sources import describe_source, local_files

T = TypeVar("T")

SETTLE_NS = 20_000_000  # a file changed this recently is read once its change time can no longer repeat
MSG_CHANGED = (
    "The source {source} changed while it was being read, and again when it was read once more, so its counts "
    "would mix two versions of it; read it again once nothing is writing to it."
)

Identity = tuple  # ((absolute path, (st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns) or None), ...)
_watched: contextvars.ContextVar[frozenset] = contextvars.ContextVar("costlib_snapshot_watched", default=frozenset())


def identity(source) -> Identity:
    """The identity of every local file `source` names (a glob: each file it matches now), in
    order; ``()`` for a query, a table in memory or a URL. A file that is gone counts as None."""
    out = []
    for f in local_files(source):
        path = os.path.abspath(f)
        try:
            st = os.stat(path)
        except OSError:
            out.append((path, None))
            continue
        out.append((path, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)))
    return tuple(out)


def token(ident: Identity) -> str:
    """A short text for an identity, for fingerprints and cache keys.

    >>> token(()) == token(()) and len(token(())) == 16
    True
    """
    return hashlib.sha256(repr(ident).encode()).hexdigest()[:16]


def consistent(source, read: Callable[[], T]) -> tuple[T, Identity]:
    """``(read(), identity)``: `read` run on one version of the local files of `source`.

    The identity is taken before `read` and again after it; when they differ, or `read`
    raised a `DataError` while the files moved (a sentence about the swap, not the data),
    `read` runs once more. When the identity moves a second time, `DataError` (`MSG_CHANGED`).
    A source with no local file is read as it is. Inside another `consistent` that watches
    the same files (a dataset of several score columns, each scanned on its own), `read`
    just runs: the outer call checks the whole.
    """
    before = identity(source)
    paths = frozenset(p for p, _ in before)
    if not paths or paths <= _watched.get():
        return read(), before
    mark = _watched.set(_watched.get() | paths)
    try:
        for _ in range(2):
            _settle(before)
            try:
                value = read()
            except DataError:
                after = identity(source)
                if after == before:
                    raise
                before = after
                continue
            after = identity(source)
            if after == before:
                return value, before
            before = after
    finally:
        _watched.reset(mark)
    raise DataError(MSG_CHANGED.format(source=describe_source(source)))


def _settle(ident: Identity) -> None:
    """Wait until the newest change time in `ident` is `SETTLE_NS` old: a change after that gets
    a later change time on a filesystem whose clock ticks at least that often."""
    times = [stat[4] for _, stat in ident if stat is not None]
    wait = SETTLE_NS - (time.time_ns() - max(times)) if times else 0
    if 0 < wait <= SETTLE_NS:
        time.sleep(wait / 1e9)


__all__ = ["MSG_CHANGED", "consistent", "identity", "token"]
