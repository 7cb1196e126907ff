"""How an answer object remembers what it computes: a `remember(name, key, compute)` callable.

The pages pass their memo (`views._ui.memo`), so that a result is computed once per name and
key; without one, `compute_now` computes every time (tests, notebooks, the command line).
"""

from __future__ import annotations


def compute_now(name: str, key: tuple, compute):
    """``compute()``, remembered nowhere: the `remember` of an answer made outside a page.

    >>> compute_now("sweeps", (), lambda: 42)
    42
    """
    return compute()
