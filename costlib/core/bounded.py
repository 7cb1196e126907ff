"""One bounded, thread-safe, least-recently-used store, for what a server's sessions share.

A server runs each session's script in a thread of one process, so what is kept once for every
session (a long curve's stretches, `thinning._runs`; the answers on a built-in sample,
`views._ui.memo.SharedMemo`) is read and written from several threads at once, and must not
grow without end. `BoundedLRU` is that store: at most so many entries, of at most so many bytes
in all, the least recently used forgotten first.
"""

from __future__ import annotations

import numbers
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

MSG_BOUND = "{name} must be a whole number of at least 0: got {value!r}"


def _check_bound(name: str, value) -> None:
    """Raise ValueError unless `value` is a whole number of at least 0 (`name` is the argument's name)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(MSG_BOUND.format(name=name, value=value))


class BoundedLRU:
    """A thread-safe map that forgets its least recently used entries past a count and a byte budget.

    Each entry weighs ``weigh(value)`` bytes, measured once when it is put (0 without `weigh`).
    The bounds are given with each `put`, where the entry comes in, so a caller whose bounds
    change (a setting, a test) reads them where it keeps things. A `get` that finds its key makes
    it the latest used; `put` keeps the new entry as the latest used, then forgets the least
    recently used ones until both bounds hold. An entry that weighs more than the whole budget
    alone is not kept, and nothing else is forgotten for it (a store emptied for an entry it
    cannot keep would lose everything for nothing).

    Every method holds the store's lock: threads may share one store. Values are shared, not
    copied: keep only values nobody changes (read-only arrays, frozen results).

    Parameters
    ----------
    weigh : callable, optional
        ``weigh(value)``, an entry's size in bytes (an int of at least 0). Without it every entry
        weighs 0 and only the count bounds the store.

    Examples
    --------
    >>> kept = BoundedLRU(weigh=len)
    >>> kept.put("a", "xx", max_entries=3, max_bytes=5)
    True
    >>> kept.put("b", "yy", max_entries=3, max_bytes=5)
    True
    >>> kept.get("a")  # a is now the latest used: b leaves first
    'xx'
    >>> kept.put("c", "zz", max_entries=3, max_bytes=5)  # 6 bytes: b goes
    True
    >>> kept.keys(), kept.nbytes
    (['a', 'c'], 4)
    >>> kept.put("d", "too long", max_entries=3, max_bytes=5)  # larger than the budget: not kept
    False
    >>> kept.keys()
    ['a', 'c']
    """

    def __init__(self, weigh: Callable[[Any], int] | None = None):
        self._weigh = weigh
        self._lock = threading.Lock()
        self._entries: OrderedDict = OrderedDict()  # key -> (value, bytes), the latest used last
        self._nbytes = 0

    def get(self, key: Hashable, default=None):
        """The value under `key`, now the latest used; `default` when the store has no such key."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return default
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value, *, max_entries: int, max_bytes: int | None = None) -> bool:
        """Keep `value` under `key` as the latest used (replacing what `key` held), then forget
        the least recently used entries until at most `max_entries` remain, of at most
        `max_bytes` bytes in all (None: no byte bound).

        Returns whether `value` is kept: not when `max_entries` is 0, nor when it alone weighs
        more than `max_bytes` (then `key` holds nothing, and nothing else is forgotten for its
        sake: only what the bounds, if smaller than before, no longer let stay).

        Raises
        ------
        ValueError
            When a bound is not a whole number of at least 0, or `weigh` gives no such number.
        """
        _check_bound("max_entries", max_entries)
        if max_bytes is not None:
            _check_bound("max_bytes", max_bytes)
        size = 0 if self._weigh is None else self._weigh(value)
        _check_bound("weigh(value)", size)
        fits = max_entries > 0 and (max_bytes is None or size <= max_bytes)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._nbytes -= old[1]
            if fits:
                self._entries[key] = (value, size)
                self._nbytes += size
            while len(self._entries) > max_entries or (max_bytes is not None and self._nbytes > max_bytes):
                _, (_, gone) = self._entries.popitem(last=False)
                self._nbytes -= gone
            return fits

    def pop(self, key: Hashable, default=None):
        """Forget `key`; its value, or `default` when the store had no such key."""
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is None:
                return default
            self._nbytes -= entry[1]
            return entry[0]

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()
            self._nbytes = 0

    def keys(self) -> list:
        """The keys kept, the least recently used first (a copy: the store may change meanwhile)."""
        with self._lock:
            return list(self._entries)

    def values(self) -> list:
        """The values kept, in the order of `keys` (a copy of the list; the values are shared)."""
        with self._lock:
            return [value for value, _ in self._entries.values()]

    @property
    def nbytes(self) -> int:
        """The bytes the entries kept weigh in all."""
        with self._lock:
            return self._nbytes

    def __contains__(self, key: Hashable) -> bool:
        """Whether `key` is kept (it does not become the latest used)."""
        with self._lock:
            return key in self._entries

    def __iter__(self):
        """The keys kept, least recently used first, as `keys` (a copy)."""
        return iter(self.keys())

    def __len__(self) -> int:
        """How many entries are kept."""
        with self._lock:
            return len(self._entries)
