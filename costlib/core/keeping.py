"""What is made once from rows and read at every price book: `kept_on`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def kept_on(owner: object, key: tuple, make: Callable[[], T]) -> T:
    """What ``make()`` derives from `owner`'s rows alone (an index, a deal into folds, resample
    draws), made on the first call for `key` and kept on `owner` (a sweep, frozen but with a
    ``__dict__``): the same at every price book, so a price move reads it and makes nothing again.
    Each reader names its own `key` (a tuple that starts with the reader's word) and treats what it
    gets as read-only; what depends on the prices is not kept here. (The folds' own structures,
    `binary.folds`' stacked folds and chains, are kept on the folds they derive from.) Not locked:
    two sessions that share a sweep (a built-in sample's) may both make a value once, and the last
    one is kept; they are equal, so neither reads a wrong one. Nothing kept may hold `owner`
    itself, or dropping it would wait for the cycle collector.

    >>> class Rows:
    ...     pass
    >>> rows, made = Rows(), []
    >>> kept_on(rows, ("deal", 0), lambda: made.append(1) or "folds")
    'folds'
    >>> kept_on(rows, ("deal", 0), lambda: made.append(1) or "folds"), len(made)
    ('folds', 1)
    """
    kept = owner.__dict__.setdefault("_kept", {})
    if key not in kept:
        kept[key] = make()
    return kept[key]
