"""The memo: results per dataset, bounded, keyed by the dataset's content.

Sweeps and other per-dataset results go through `memo`: a small per-session LRU keyed by the
dataset's identity and plain hashable arguments. Results on the built-in samples (the data
the server itself holds, shared by every session: `share`) are kept once for the whole
server instead (`SharedMemo`), so twenty sessions on one sample moving one price compute its
answer once, not twenty times, each holding the interpreter's lock in turn. Nothing made
from a user's own data sits in module globals or in `st.cache_resource`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import streamlit as st

from costlib.core.bounded import BoundedLRU
from costlib.core.dataset import Dataset
from costlib.loading.ledger import LEDGER
from views._ui.memory import account

MEMO_SIZE = 48
SHARED_SIZE = 256  # results on the built-in samples the server keeps for every session
_ABSENT = object()  # what `SharedMemo` reads for a key it does not keep (None may be a result)


def dataset_key(ds: Dataset) -> tuple:
    """What identifies a dataset's content for memoised results."""
    return (ds.fingerprint, ds.mapping, ds.n_rows, ds.notes)


class SharedMemo:
    """A bounded, thread-safe LRU of results that every session reads, computing each key once.

    Sessions run their scripts in threads of one process: when several ask for a key nobody
    has yet, the first computes it and the others wait for it (no copy of the work while the
    interpreter's lock is passed around); when that computation fails, each waiting session
    computes the key itself and meets the error in its own run.

    The results are kept in a `costlib.core.bounded.BoundedLRU` (`_values`); what is added here
    is the waiting for a key being computed.

    Parameters
    ----------
    size : int
        The most results kept; the least recently used leaves first.
    """

    def __init__(self, size: int):
        self.size = size
        self._lock = threading.Lock()  # a key's lookup and its pending computation, as one step
        self._values = BoundedLRU()
        self._pending: dict = {}

    def get(self, key, compute: Callable):
        """The value under `key` (hashable), made by ``compute()`` once whoever asks first."""
        with self._lock:
            value = self._values.get(key, _ABSENT)
            if value is not _ABSENT:
                return value
            done = self._pending.get(key)
            mine = done is None
            if mine:
                done = self._pending[key] = threading.Event()
        if not mine:
            done.wait()
            value = self._values.get(key, _ABSENT)
            if value is not _ABSENT:
                return value
            return compute()  # the first one failed: this session meets the error itself
        try:
            value = compute()
        except BaseException:
            with self._lock:
                self._pending.pop(key).set()
            raise
        with self._lock:
            self._values.put(key, value, max_entries=self.size)
            self._pending.pop(key).set()
        return value

    def __len__(self) -> int:
        """How many results are kept."""
        return len(self._values)

    def clear(self) -> None:
        """Forget every result kept (a computation under way still finishes and is kept)."""
        self._values.clear()


SHARED = SharedMemo(SHARED_SIZE)
_SHARED_DATA: set = set()  # dataset_key of the datasets every session shares (the built-in samples)


def share(ds: Dataset) -> Dataset:
    """Mark `ds`, a dataset the server holds for every session (a built-in sample), as one whose
    memoised results are kept once for all sessions (`SHARED`); returns it. An upload with the
    very same content and columns has the same key and reads the same results."""
    _SHARED_DATA.add(dataset_key(ds))
    return ds


def memo(name: str, ds: Dataset, args: tuple, compute: Callable):
    """compute(), remembered under (name, dataset identity, args): for this session, or for every
    session when `ds` is a shared dataset (`share`).

    `args` must be hashable and hold everything `compute` depends on besides the dataset.
    """
    key = (name, dataset_key(ds), args)
    if key[1] in _SHARED_DATA:
        return SHARED.get(key, compute)
    return remember(key, compute)


def memo_of(ds: Dataset) -> Callable:
    """`memo` for the data set `ds`, as the answer objects call it: ``remember(name, key, compute)``."""
    return lambda name, key, compute: memo(name, ds, key, compute)


def remember(
    key: tuple,
    compute: Callable,
    *,
    store: str = "_memo",
    size: int = MEMO_SIZE,
    weigh: Callable | None = None,
    need: Callable[[], int] | None = None,
    what: str = "",
):
    """compute(), remembered for this session under `key` (hashable; for a file, its content's
    fingerprint, never its name) in the bounded store `store` (least recently used dropped past
    `size`): the one mechanism the pages' memo, the parsed tables, the prepared datasets and
    Train with costs use.

    With `weigh`, the value is on the server's memory ledger: ``need()`` bytes (its peak while it
    is made; asked only when the value is not kept already, since it may read the whole table)
    are admitted first, so a computation that would not fit beside every session's
    holdings is refused with a sentence beginning with `what` and nothing already kept is lost;
    once made, it is held at ``weigh(value)`` bytes until it leaves the store. Without `weigh`,
    the value is covered by what its dataset was admitted with (`loading.budget.work_bytes`).
    """
    kept: OrderedDict = st.session_state.setdefault(store, OrderedDict())
    value = recall(key, store, default=_ABSENT)
    if value is not _ABSENT:
        return value
    if weigh is None:
        value = compute()
    else:
        who, entry = account(), (store, key)
        # the oldest entry goes once this one is kept: counted as free, dropped only on success
        leaving = tuple((store, k) for k in list(kept)[: max(0, len(kept) + 1 - size)])
        LEDGER.admit(who, entry, need() if need is not None else 0, what=what, freeing=leaving)
        try:
            value = compute()
        except BaseException:
            LEDGER.release(who, entry)
            raise
        LEDGER.hold(who, entry, weigh(value))
    kept[key] = value
    while len(kept) > size:
        old, _ = kept.popitem(last=False)
        if weigh is not None:
            LEDGER.release(account(), (store, old))
    return value


def recall(key, store: str = "_memo", *, default=None):
    """The value this session's store `store` keeps under `key` (hashable; `remember`'s), made its most
    recently used; `default` when it is not kept. Nothing is computed, and a store the session has
    not made yet is not made."""
    kept = st.session_state.get(store)
    if not kept or key not in kept:
        return default
    kept.move_to_end(key)
    return kept[key]


def forget(ds: Dataset) -> None:
    """Drop what was memoised for the content of `ds`."""
    store = st.session_state.get("_memo", {})
    for key in [k for k in store if k[1][0] == ds.fingerprint]:
        del store[key]
