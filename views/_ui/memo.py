"""The per-session memo: results per dataset, bounded, keyed by the dataset's content.

Sweeps and other per-dataset results go through `memo`: a small per-session LRU keyed by the
dataset's identity and plain hashable arguments. Nothing user-specific sits in module globals
or in `st.cache_resource`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import streamlit as st

from costlib.core.dataset import Dataset
from costlib.loading.ledger import LEDGER
from views._ui.memory import account

MEMO_SIZE = 48


def dataset_key(ds: Dataset) -> tuple:
    """What identifies a dataset's content for memoised results."""
    return (ds.fingerprint, ds.mapping, ds.n_rows, ds.notes)


def memo(name: str, ds: Dataset, args: tuple, compute: Callable):
    """compute(), remembered for this session under (name, dataset identity, args).

    `args` must be hashable and hold everything `compute` depends on besides the dataset.
    """
    return remember((name, dataset_key(ds), args), compute)


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
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
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


def forget(ds: Dataset) -> None:
    """Drop what was memoised for the content of `ds`."""
    store = st.session_state.get("_memo", {})
    for key in [k for k in store if k[1][0] == ds.fingerprint]:
        del store[key]
