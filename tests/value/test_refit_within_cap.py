"""How far Value's threshold moves with the rows within a cap on hand-overs
(`recommendation._refit_worths(..., cap=)`, kernel `refit_moves.best_prefixes(..., max_left=)`): each
Poisson resample's pick, read off the drawn counts by level, is the threshold refitted within the
cap on the resample's repeated rows (`value.within.best_index_within`)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary.refit_moves import best_prefixes
from costlib.value.contract import sweep_value, value_sweep
from costlib.value.within import best_index_within


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([0.5, 1.0, 2.0, 4.0]),
    r=st.sampled_from([0.0, 0.5, -1.0]),
    cap=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9]),
    levels=st.sampled_from([3, 11, 1000]),
)
def test_each_resample_picks_what_refitting_within_the_cap_on_its_rows_picks(n, seed, k, r, cap, levels):
    """Worths in halves and quarters keep every sum exact, so both pick the same prefix (ties to
    accepting fewer in both); compared by what the pick accepts on all the rows."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.6
    p = np.round(rng.random(n) * (levels - 1)) / (levels - 1)
    full = value_sweep(y, p)
    conf = full.thresholds[1:]  # each level's confidence, highest first
    level = np.searchsorted(-conf, -np.maximum(p, 1.0 - p))
    correct = (p >= 0.5) == y
    counts = rng.poisson(1.0, (4, n))
    drawn_right = np.stack([np.bincount(level, weights=c * correct, minlength=conf.size) for c in counts])
    drawn_wrong = np.stack([np.bincount(level, weights=c * ~correct, minlength=conf.size) for c in counts])
    got = best_prefixes(drawn_right, drawn_wrong, 1.0 - r, -(k + r), max_left=cap)
    for b in range(4):
        drawn = np.repeat(np.arange(n), counts[b])
        if not drawn.size:
            continue
        s = value_sweep(y[drawn], p[drawn])
        j = best_index_within(s, sweep_value(s, k, r), cap)
        tau = s.thresholds[j]
        want = int(np.sum(conf >= tau))  # the levels of all the rows that threshold accepts
        assert got[b] == want, (b, got[b], want)
