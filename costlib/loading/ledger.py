"""One account of the memory every session of a server holds, against the server budget.

A dashboard server is one process shared by everyone using it. Each session records here
what its large things take (parsed tables, prepared datasets with the work they lead to,
training features, the memory DuckDB may use while it scans), under keys of its own; a new
read or computation is admitted only when it fits beside what all sessions hold, and is
refused with a sentence otherwise (nothing already held is touched). When a session ends,
its account is closed and the memory handed back to the operating system (`return_memory`);
a session that comes back to the same id (a browser whose connection dropped reconnects) is
watched anew and its account reopened (`MemoryLedger.reopen`), so that what it loads counts.

The ledger holds byte counts under opaque session ids, never data: no user's content lives
in it, and nobody can read another session's numbers through it beyond the server's total.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import gc
import math
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.loading.budget import Allowance, server_memory_budget, session_share, upload_memory_budget
from costlib.loading.frames import frame_bytes
from costlib.loading.messages import MSG_SERVER_BUSY, MSG_SERVER_TOO_SMALL, MSG_SESSION_FULL, MSG_SESSION_HOLDS, size

CLOSED_KEPT = 100_000  # closed accounts remembered (session ids are never reused; about 10 MB)


class MemoryLedger:
    """Bytes held per session and key, checked against one budget for all sessions.

    Parameters
    ----------
    budget : callable, default `budget.server_memory_budget`
        The server budget in bytes (read at every check, so a changed setting counts).
    share : callable, default `budget.session_share`
        What one account (session) may hold at most, in bytes.

    Examples
    --------
    >>> ledger = MemoryLedger(budget=lambda: 100, share=lambda: 100)
    >>> ledger.admit("a", "table", 60, what="Reading t.csv")
    >>> ledger.room()
    40
    >>> try:
    ...     ledger.admit("b", "table", 50, what="Reading u.csv")
    ... except DataError as err:
    ...     print(err.message.split(",")[0])
    Reading u.csv would need about 50 bytes of memory
    >>> ledger.close("a"); ledger.held()
    0
    """

    def __init__(
        self, budget: Callable[[], int] = server_memory_budget, share: Callable[[], int] = session_share
    ) -> None:
        self._budget = budget
        self._share = share
        self._held: dict[Hashable, dict[Hashable, int]] = {}
        # accounts already closed: a computation still finishing when its session ended must not
        # open the account again (it would be counted against the budget for ever); only `reopen`
        # (the session is watched again, so its end closes it again) takes one off
        self._closed: OrderedDict[Hashable, None] = OrderedDict()
        self._lock = threading.Lock()

    def budget(self) -> int:
        """The server budget, in bytes."""
        return int(self._budget())

    def held(self, account: Hashable | None = None) -> int:
        """Bytes held by `account`, or by every account together."""
        with self._lock:
            if account is not None:
                return sum(self._held.get(account, {}).values())
            return sum(sum(keys.values()) for keys in self._held.values())

    def room(self, account: Hashable | None = None, key: Hashable | None = None) -> int:
        """Bytes still free under the budget, counting what `account` holds under `key` as free
        (it is what a new value for that key replaces)."""
        with self._lock:
            return self._room(account, key)

    def _room(self, account, key) -> int:
        total = sum(sum(keys.values()) for keys in self._held.values())
        replaced = self._held.get(account, {}).get(key, 0) if account is not None else 0
        return self.budget() - total + replaced

    def admit(self, account: Hashable, key: Hashable, nbytes: int, *, what: str, freeing: tuple = ()) -> None:
        """Record that `account` holds `nbytes` under `key` (replacing what it held there) when
        that fits the account's share and the budget beside every other account; otherwise
        refuse and change nothing. `freeing`: keys of `account` that go once this is held (a
        store's oldest entry), counted as free but kept until the caller drops them.

        Raises
        ------
        DataError
            `MSG_SESSION_FULL` (past the account's share), else `MSG_SERVER_TOO_SMALL` (past the
            whole server budget), `MSG_SERVER_BUSY` (other sessions' data makes the difference) or
            `MSG_SESSION_HOLDS` (this session's own data does), beginning with `what` ("Reading “t.csv”").
        """
        with self._lock:
            own = self._held.get(account, {})
            gone = own.get(key, 0) + sum(own.get(k, 0) for k in set(freeing) - {key})
            mine = sum(own.values()) - gone
            if mine + nbytes > self._share():
                words = {"need": size(nbytes), "mine": size(mine), "share": size(self._share())}
                raise DataError(MSG_SESSION_FULL.format(what=what, **words))
            free = self._room(account, key) + gone - own.get(key, 0)
            if nbytes > free:
                budget = self.budget()
                others = sum(sum(keys.values()) for a, keys in self._held.items() if a != account)
                words = {"need": size(nbytes), "free": size(max(0, free)), "mine": size(mine), "budget": size(budget)}
                if nbytes > budget:  # too big for this server even when it holds nothing else
                    raise DataError(MSG_SERVER_TOO_SMALL.format(what=what, **words))
                if others > 0 and nbytes <= budget - mine:  # the other sessions' data makes the difference
                    raise DataError(MSG_SERVER_BUSY.format(what=what, others=size(others), **words))
                raise DataError(MSG_SESSION_HOLDS.format(what=what, **words))
            if account not in self._closed:
                self._held.setdefault(account, {})[key] = int(nbytes)

    def hold(self, account: Hashable, key: Hashable, nbytes: int) -> None:
        """Record what `account` holds under `key`, whether or not it fits: for a thing that
        already exists (a result whose reservation was admitted, measured once it is made)."""
        with self._lock:
            if account not in self._closed:
                self._held.setdefault(account, {})[key] = int(nbytes)

    def release(self, account: Hashable, key: Hashable) -> None:
        """Forget what `account` held under `key`."""
        with self._lock:
            keys = self._held.get(account)
            if keys is not None:
                keys.pop(key, None)
                if not keys:
                    del self._held[account]

    def close(self, account: Hashable) -> None:
        """Forget everything `account` held (its session ended); later records for it are ignored."""
        with self._lock:
            self._held.pop(account, None)
            self._closed[account] = None
            while len(self._closed) > CLOSED_KEPT:
                self._closed.popitem(last=False)

    def reopen(self, account: Hashable) -> None:
        """Count `account` again after `close`: its session is watched anew (a browser that lost
        its connection came back to the same session id, whose end will close it again).
        Without this, what the returning session loads would never be on the ledger, and the
        server would admit past its budget.

        Examples
        --------
        >>> ledger = MemoryLedger(budget=lambda: 100, share=lambda: 100)
        >>> ledger.close("a"); ledger.admit("a", "table", 60, what="Reading t.csv"); ledger.held("a")
        0
        >>> ledger.reopen("a"); ledger.admit("a", "table", 60, what="Reading t.csv"); ledger.held("a")
        60
        """
        with self._lock:
            self._closed.pop(account, None)

    def accounts(self) -> list:
        """The accounts that hold something."""
        with self._lock:
            return list(self._held)

    @contextmanager
    def reserved(self, account: Hashable, key: Hashable, nbytes: int, *, what: str) -> Iterator[None]:
        """`admit` `nbytes` under `key` for the duration of the block (a read's or a scan's
        peak), released afterwards whether the block succeeded or not."""
        self.admit(account, key, nbytes, what=what)
        try:
            yield
        finally:
            self.release(account, key)

    def allowance(self, account: Hashable, key: Hashable) -> Allowance:
        """What a read may take now: the upload budget, or less when the server has less free
        (`Allowance.server` then says so in the refusal, with the server budget and what this
        session and the others hold, so that it can say which of them makes the difference)."""
        upload = upload_memory_budget()
        with self._lock:
            free, budget = self._room(account, key), self.budget()
            own = self._held.get(account, {})
            mine = sum(own.values()) - own.get(key, 0)
            others = sum(sum(keys.values()) for a, keys in self._held.items() if a != account)
        if upload <= free:
            return Allowance(upload)
        return Allowance(max(0, free), server=True, whole=budget, others=others, mine=mine)


LEDGER = MemoryLedger()
"""The dashboard server's ledger (one per process: all of its sessions share it)."""


def held_bytes(obj, _seen: set | None = None, _depth: int = 0) -> int:
    """Bytes the arrays and tables reachable from `obj` take, each buffer counted once.

    Follows numpy arrays (their owning buffer), pandas objects (deep memory use), scipy sparse
    matrices, dataclasses, mappings, sequences and the attributes of costlib's and
    scikit-learn's objects (a fitted model's arrays). Other objects count ``sys.getsizeof``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.zeros(1000)
    >>> held_bytes({"a": a, "again": a[:10], "b": (np.zeros(10, np.int8),)}) >= 8010
    True
    >>> held_bytes({"a": a, "again": a[:10]}) < 8500
    True
    """
    seen = set() if _seen is None else _seen
    if _depth > 50 or obj is None or isinstance(obj, (bool, int, float, complex)):
        return 0
    if isinstance(obj, np.ndarray):
        root = obj
        while isinstance(root.base, np.ndarray):
            root = root.base
        if id(root) in seen:
            return 0
        seen.add(id(root))
        if root.dtype == object:
            return int(root.nbytes) + sum(held_bytes(x, seen, _depth + 1) for x in root.ravel()[:100_000])
        return int(root.nbytes)
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if isinstance(obj, pd.DataFrame):
        return frame_bytes(obj) + int(obj.index.memory_usage(deep=True))
    if isinstance(obj, (pd.Series, pd.Index)):
        used = obj.memory_usage(deep=True, index=True)
        return int(used.sum() if hasattr(used, "sum") else used)
    if isinstance(obj, (str, bytes, bytearray, memoryview)):
        return sys.getsizeof(obj)
    if hasattr(obj, "nnz") and hasattr(obj, "data"):  # scipy sparse
        return sum(
            held_bytes(getattr(obj, a, None), seen, _depth + 1) for a in ("data", "indices", "indptr", "row", "col")
        )
    if isinstance(obj, dict):
        return sum(held_bytes(k, seen, _depth + 1) + held_bytes(v, seen, _depth + 1) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return sys.getsizeof(obj) + sum(held_bytes(x, seen, _depth + 1) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = sum(held_bytes(getattr(obj, f.name, None), seen, _depth + 1) for f in dataclasses.fields(obj))
        # and what is kept on it besides its fields (`core.keeping.kept_on`'s deals and draws, caches)
        return fields + sum(held_bytes(v, seen, _depth + 1) for v in getattr(obj, "__dict__", {}).values())
    module = type(obj).__module__ or ""
    if module.split(".")[0] in ("costlib", "sklearn") and hasattr(obj, "__dict__"):
        return sum(held_bytes(v, seen, _depth + 1) for v in vars(obj).values())
    return sys.getsizeof(obj)


_LIBC = ctypes.util.find_library("c")
_FROZEN_AT = [0]  # how many modules were loaded at the last `freeze_long_lived`


def freeze_long_lived() -> bool:
    """Take what the imports made out of the collector's walks, once more modules are loaded.

    A full collection walks every tracked object (Streamlit's after every script run,
    ``runner.postScriptGC`` in ``.streamlit/config.toml``, and the interpreter's own of its
    oldest generation): after a page's first run imported SciPy or
    scikit-learn, some 50,000 more, 30 to 60 ms of every later slider move on every page
    (`benchmarks/README.md`, "Slider latency"). Modules and what they build live as long as the
    server, so when the loaded modules grew since the last call this collects once (so that only
    live objects are kept) and freezes them (`gc.freeze`): later collections skip them. It costs
    one full collection each time new modules appear (the first runs of a server's pages), and
    nothing otherwise. What a session makes afterwards is collected as before;
    objects that happened to be alive at a freeze are still freed when their last reference goes
    (a session's data is released when its state is cleared); a reference cycle among them (a
    page's functions and the globals that hold its data) waits for the next `return_memory`,
    which collects the frozen objects too. Returns whether it froze."""
    loaded = len(sys.modules)
    if loaded == _FROZEN_AT[0]:
        return False
    _FROZEN_AT[0] = loaded
    gc.collect()
    gc.freeze()
    return True


SETTLE_EVERY = 16  # script runs between two freezes of what has survived them (`settle`)
RESET_AFTER_S = 60.0  # seconds at least between two full walks that free what died frozen (`settle`):
# one walk of everything takes about 0.1 s with twenty sessions open, so about once a minute
_SETTLED = [0, -math.inf]  # script runs counted by `settle`, and the monotonic time of its last reset
_SETTLING = threading.Lock()


def settle() -> str | None:
    """At the start of a script run: keep the collector's walk after each run as short as the
    work of the last few runs, however many sessions are open.

    Streamlit collects in full after every run, and a full collection walks every tracked
    object that is not frozen: with twenty sessions open on 200,000-row uploads, about 44,000
    (each session's data set, folds, answers, page globals and widgets), 14 ms after every
    run of every session, held under the interpreter's lock (issue 39, `benchmarks/README.md`
    "Many people at once"). So, besides `freeze_long_lived` (new modules), every
    `SETTLE_EVERY` runs what is alive is collected once and frozen (`gc.freeze`): the walks
    after each run then see only what the last runs made. What was frozen alive and later dies
    in a reference cycle (a replaced page's globals and functions) waits for a reset: at a
    freeze at least `RESET_AFTER_S` seconds after the last full walk (this one's, or
    `return_memory`'s when a session ended), everything is unfrozen, collected and frozen again
    (`_walk_everything`).
    Returns ``"modules"``, ``"freeze"`` or ``"reset"`` for what it did, None when nothing."""
    if freeze_long_lived():
        return "modules"
    with _SETTLING:
        _SETTLED[0] += 1
        if _SETTLED[0] % SETTLE_EVERY:
            return None
        reset = time.monotonic() - _SETTLED[1] >= RESET_AFTER_S
        if reset:
            _walk_everything(refreeze=True)
        else:
            gc.collect()
            gc.freeze()
    return "reset" if reset else "freeze"


def _walk_everything(*, refreeze: bool) -> None:
    """One full walk: everything frozen is unfrozen, every object collected once, and (with
    `refreeze`) what is left frozen again; it counts as `settle`'s reset. The caller holds
    `_SETTLING`, so that a session's end and a run's start never walk at once."""
    _SETTLED[1] = time.monotonic()
    gc.unfreeze()
    gc.collect()
    if refreeze:
        gc.freeze()


def return_memory() -> bool:
    """Hand freed memory back to the operating system: collect cycles, release what Arrow's
    memory pool keeps, then glibc's ``malloc_trim(0)`` (the allocators otherwise keep freed
    pages for the process). Returns whether the trim ran (False where the C library has no
    ``malloc_trim``).

    The collection includes what `freeze_long_lived` froze: a session open at a freeze has its
    data frozen with the imports, and the cycles among it (a page's globals and the functions
    defined there) would otherwise never be freed. So this unfreezes, collects everything once
    (one full walk, off the script threads, when a session has ended) and freezes what is left."""
    with _SETTLING:
        _walk_everything(refreeze=gc.get_freeze_count() > 0)
    arrow = sys.modules.get("pyarrow")
    if arrow is not None:  # Arrow's own allocator (jemalloc or mimalloc) keeps freed memory too
        arrow.default_memory_pool().release_unused()
    if not _LIBC:
        return False
    try:
        trim = ctypes.CDLL(_LIBC).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True
