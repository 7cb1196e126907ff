"""`argbest` against the plain reference it replaced (issue 39: the all-finite path reads the
tie scale off the minimum and maximum instead of masking every entry; the pick must not move)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core.sweep import argbest, tie_tolerance


def reference_argbest(values, *, maximize=False) -> int:
    """The masked form `argbest` had before issue 39, kept as the reference."""
    vals = np.asarray(values, dtype=np.float64)
    if maximize:
        vals = -vals
    finite = np.isfinite(vals) | (vals == -np.inf)
    if not finite.any():
        return -1
    best = np.min(vals[finite])
    sizes = np.abs(vals[np.isfinite(vals)])
    scale = float(sizes.max()) if sizes.size else 0.0
    return int(np.flatnonzero(vals <= best + tie_tolerance(best, scale))[0])


LEVELS = st.sampled_from([0.0, -0.0, 1.0, 1.0 + 1e-13, 1.0 + 1e-11, -3.5, 2.5e6, 2.5e6 * (1 + 5e-13), 1e-300])
ODD = st.sampled_from([np.nan, np.inf, -np.inf])
ENTRY = st.one_of(LEVELS, st.floats(-1e9, 1e9, allow_nan=False), ODD)


@settings(max_examples=400, deadline=None)
@given(st.lists(ENTRY, min_size=0, max_size=30), st.booleans(), st.sampled_from([1.0, 1e-7, 3.0, 1e12]))
def test_argbest_matches_reference(values, maximize, scale):
    # near-ties at the tolerance's edge, signed zeros, NaN and infinities, scaled together
    vals = np.asarray(values, dtype=np.float64) * scale
    assert argbest(vals, maximize=maximize) == reference_argbest(vals, maximize=maximize)


@settings(max_examples=200, deadline=None)
@given(st.lists(LEVELS, min_size=1, max_size=30))
def test_argbest_finite_ties_match_reference(values):
    # all finite: the fast path; many exact and near ties
    vals = np.asarray(values, dtype=np.float64)
    assert argbest(vals) == reference_argbest(vals)
    assert argbest(vals, maximize=True) == reference_argbest(vals, maximize=True)
