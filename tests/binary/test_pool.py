"""`model_sweeps.pool`: one sweep of all groups together, held against the rows swept at once."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary.model_sweeps import pool
from costlib.core.sweep import sweep_arrays, sweep_by_codes


@given(st.integers(1, 60), st.integers(0, 10_000), st.integers(1, 3), st.booleans())
def test_the_pool_of_the_groups_is_the_sweep_of_all_their_rows(n, seed, k, weighted):
    """One group is its own pool (returned without sorting its scores again); more are merged."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.integers(0, 8, n).astype(float)
    w = rng.exponential(1.0, n) if weighted else None
    codes = rng.integers(0, k, n)
    pooled = pool(sweep_by_codes(y, s, codes, tuple(f"g{i}" for i in range(k)), w))
    th, tp, fp, pos, neg = sweep_arrays(y, s, w)
    np.testing.assert_array_equal(pooled.thresholds, th)
    np.testing.assert_allclose(pooled.tp, tp, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pooled.fp, fp, rtol=1e-12, atol=1e-12)
    assert np.isclose(pooled.positives, pos) and np.isclose(pooled.negatives, neg)
