"""One home for the stores a server's sessions share: each is a `costlib.core.bounded.BoundedLRU`
(held against a brute-force model in tests/core/test_bounded.py), not a dict, a lock and an
eviction loop written again."""

from __future__ import annotations

from costlib.core import thinning
from costlib.core.bounded import BoundedLRU
from views._ui import memo


def test_the_shared_stores_are_the_one_bounded_store():
    assert isinstance(thinning._RUNS, BoundedLRU)
    assert isinstance(memo.SHARED._values, BoundedLRU)
    assert isinstance(memo.SharedMemo(3)._values, BoundedLRU)
