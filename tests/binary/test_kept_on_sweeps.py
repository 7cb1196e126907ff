"""What a model's sweeps keep for later readers stays bounded, the latest kept: the cutoffs within
a cap per price book (`capacity.fitted_within`) and the verdict spans per range of ratios
(`robust.cached_span`). A built-in sample's sweeps are shared by every session of a server, so
a store that only grows, or that empties itself when full, costs every reviewer."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import capacity, robust
from costlib.binary import decision as D


@pytest.fixture(scope="module")
def ms():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.round(1 / (1 + np.exp(-(1.5 * (2 * y - 1) + rng.normal(0, 1, n)))), 2)
    return D.sweep_model(y, s, rng.choice(["a", "b"], n))


def test_cutoffs_within_a_cap_keep_the_latest_price_books(ms):
    """More price books than are kept: the latest ones are still there (a full store that emptied
    itself would fit them again), and never more than `WITHIN_KEPT`."""
    books = [D.prices_for(ms.groups, {"a": (1.0, 1.0 + k), "b": (1.0, 2.0)}) for k in range(capacity.WITHIN_KEPT + 6)]
    first = [capacity.fitted_within(ms, p, 0.3) for p in books]
    kept = ms.__dict__["_within_cache"]
    assert len(kept) == capacity.WITHIN_KEPT
    again = capacity.fitted_within(ms, books[-1], 0.3)
    assert again is first[-1]  # the same object: read back, not fitted again
    assert capacity.fitted_within(ms, books[0], 0.3) is not first[0]  # the oldest was let go


def test_verdict_spans_stay_bounded(ms, monkeypatch):
    """Each range of ratios asked about keeps a span, at most `SPANS_KEPT` of them, the latest
    read back as they were (the span's computation is counted, not run: it is tested elsewhere)."""
    made = []

    def span(models, low, high, *, n_resamples, seed):
        made.append((low, high))
        return robust.VerdictSpan(low, high, ((low, high, "ship the model"),))  # holds: no flip to locate

    monkeypatch.setattr(robust, "verdict_span", span)
    models = {"m": ms}
    for k in range(robust.SPANS_KEPT + 10):
        robust.cached_span(models, 1.0, 2.0 + k, n_resamples=10)
    assert len(ms.__dict__["_span_cache"]) == robust.SPANS_KEPT
    before = len(made)
    latest = robust.cached_span(models, 1.0, 2.0 + robust.SPANS_KEPT + 9, n_resamples=10)
    assert (latest.low, latest.high) == (1.0, 2.0 + robust.SPANS_KEPT + 9)
    assert len(made) == before  # the latest is read back
    robust.cached_span(models, 1.0, 2.0, n_resamples=10)
    assert len(made) == before + 1  # the first was let go
