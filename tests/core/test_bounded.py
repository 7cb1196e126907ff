"""The one bounded store of what a server's sessions share (`costlib.core.bounded.BoundedLRU`),
held against a brute-force model of a least-recently-used store with a byte budget.

The model is not the store's loop: it remembers when each key was last used, and after a put
keeps the most recently used entries, as many as fit both bounds (with weights of at least 0
the entries that fit are always the most recent ones, so this is what forgetting the least
recently used first must leave). An entry heavier than the whole budget is not kept and
forgets nothing for its sake (the bounds, which may be smaller than before, still hold).
"""

from __future__ import annotations

import itertools
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core.bounded import MSG_BOUND, BoundedLRU


class Model:
    """A least-recently-used store as a table of (value, weight, last used), trimmed by sorting."""

    def __init__(self):
        self.table: dict = {}
        self.clock = itertools.count()

    def get(self, key, default):
        if key not in self.table:
            return default
        value, weight, _ = self.table[key]
        self.table[key] = (value, weight, next(self.clock))
        return value

    def put(self, key, value, weight, max_entries, max_bytes):
        self.table.pop(key, None)
        fits = max_entries > 0 and (max_bytes is None or weight <= max_bytes)
        if fits:
            self.table[key] = (value, weight, next(self.clock))
        latest_first = sorted(self.table, key=lambda k: -self.table[k][2])
        kept, total = [], 0
        for k in latest_first:
            total += self.table[k][1]
            if len(kept) == max_entries or (max_bytes is not None and total > max_bytes):
                break
            kept.append(k)
        self.table = {k: self.table[k] for k in kept}
        return fits

    def pop(self, key, default):
        return self.table.pop(key, (default,))[0]

    def order(self):
        return sorted(self.table, key=lambda k: self.table[k][2])


KEY_NAMES = "abcde"
KEYS = st.sampled_from(KEY_NAMES)
# (what, key, weight): a put weighs `weight` (past the budget at times); most steps put or get
OPS = st.lists(
    st.tuples(st.sampled_from(("put", "get", "put", "get", "pop", "clear")), KEYS, st.integers(0, 12)),
    min_size=10,
    max_size=80,
)


@settings(max_examples=400, deadline=None)
@given(OPS, st.integers(0, 5), st.one_of(st.none(), st.integers(0, 20)))
def test_the_store_does_what_the_brute_force_model_does(ops, max_entries, max_bytes):
    store, model = BoundedLRU(weigh=lambda v: v[1]), Model()
    missing = object()
    for n, op in enumerate(ops):
        if op[0] == "get":
            assert store.get(op[1], missing) is model.get(op[1], missing)
        elif op[0] == "put":
            _, key, weight = op
            value = (n, weight)  # a value of its own each time: a stale one would show
            kept = store.put(key, value, max_entries=max_entries, max_bytes=max_bytes)
            assert kept == model.put(key, value, weight, max_entries, max_bytes)
            assert len(store) <= max_entries and (max_bytes is None or store.nbytes <= max_bytes)
        elif op[0] == "pop":
            assert store.pop(op[1], missing) is model.pop(op[1], missing)
        else:
            store.clear()
            model.table.clear()
        assert store.keys() == model.order() == list(store)
        assert store.values() == [model.table[k][0] for k in model.order()]
        assert store.nbytes == sum(w for _, w, _ in model.table.values())
        assert len(store) == len(model.table)
        assert all(k in store for k in KEY_NAMES if k in model.table)
        assert not any(k in store for k in KEY_NAMES if k not in model.table)


def test_the_least_recently_used_leaves_first_by_count_and_by_bytes():
    store = BoundedLRU(weigh=len)
    for key in "abc":
        store.put(key, key * 2, max_entries=3, max_bytes=6)  # 2 bytes each: 6 in all
    assert store.get("a") == "aa"  # a is used again: b is now the oldest, then c
    store.put("d", "dd", max_entries=3, max_bytes=6)  # a fourth entry: b goes
    assert store.keys() == ["c", "a", "d"]
    store.put("e", "eeee", max_entries=3, max_bytes=6)  # 2 + 2 + 2 + 4 = 10 bytes: c, then a go
    assert store.keys() == ["d", "e"] and store.nbytes == 6


def test_an_entry_heavier_than_the_budget_is_not_kept_and_forgets_nothing():
    store = BoundedLRU(weigh=len)
    store.put("a", "aa", max_entries=4, max_bytes=5)
    store.put("b", "bb", max_entries=4, max_bytes=5)
    assert store.put("big", "x" * 6, max_entries=4, max_bytes=5) is False
    assert store.keys() == ["a", "b"] and "big" not in store
    assert store.put("a", "x" * 6, max_entries=4, max_bytes=5) is False  # a's old value is stale: gone
    assert store.keys() == ["b"] and store.nbytes == 2
    store.put("c", "cc", max_entries=4, max_bytes=5)
    assert store.put("big", "x" * 6, max_entries=4, max_bytes=3) is False  # the budget shrank: b goes, c stays
    assert store.keys() == ["c"]
    assert store.put("d", "d", max_entries=0) is False and len(store) == 0  # room for none: none kept


@pytest.mark.parametrize(
    ("kwargs", "weight", "name"),
    [
        ({"max_entries": -1}, 1, "max_entries"),
        ({"max_entries": 2.5}, 1, "max_entries"),
        ({"max_entries": True}, 1, "max_entries"),
        ({"max_entries": 2, "max_bytes": -3}, 1, "max_bytes"),
        ({"max_entries": 2}, -1, "weigh(value)"),
        ({"max_entries": 2}, 1.5, "weigh(value)"),
    ],
)
def test_a_bound_or_a_weight_that_is_no_whole_number_is_refused_naming_it(kwargs, weight, name):
    store = BoundedLRU(weigh=lambda v: weight)
    with pytest.raises(ValueError) as caught:
        store.put("k", 0, **kwargs)
    bad = kwargs.get(name, weight)
    assert str(caught.value) == MSG_BOUND.format(name=name, value=bad)
    assert "k" not in store


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.lists(st.tuples(KEYS, st.integers(0, 6)), min_size=50, max_size=200), min_size=2, max_size=6),
    st.integers(1, 4),
    st.one_of(st.none(), st.integers(0, 12)),
)
def test_threads_sharing_one_store_keep_its_bounds_and_its_byte_count(work, max_entries, max_bytes):
    """Threads putting and getting at once (switching as often as the interpreter lets them):
    the bounds hold, the byte count is the sum of what is kept, and a get finds nothing or a
    value put under that very key."""
    store, errors = BoundedLRU(weigh=lambda v: v[2]), []
    start = threading.Barrier(len(work))

    def run(me, jobs):
        try:
            start.wait()
            for n, (key, weight) in enumerate(jobs):
                store.put(key, (key, (me, n), weight), max_entries=max_entries, max_bytes=max_bytes)
                got = store.get(key)
                assert got is None or got[0] == key
                assert len(store) <= max_entries
        except BaseException as exc:  # a thread's failure is the test's
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(me, jobs)) for me, jobs in enumerate(work)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads) and not errors, errors
    values = store.values()
    assert [v[0] for v in values] == store.keys()
    assert len(values) <= max_entries
    assert store.nbytes == sum(v[2] for v in values)
    assert max_bytes is None or store.nbytes <= max_bytes
