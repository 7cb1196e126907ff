"""One tie rule for `optimal_threshold` and `optimal_cutoffs_by_ratio` (issue 20, item 9).

The pieces say which cutoff is shipped at every ratio r = c_fn / c_fp; `optimal_threshold`
at (c_fp=1, c_fn=r) must return exactly that cutoff at every r, also a hair above a piece
edge where several cutoffs cost the same. Piece i covers (ratio_low_i, ratio_high_i], the
first also its left end: an edge belongs to the piece below it, the larger threshold.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import costlib
from costlib.core.sweep import Sweep, best_indices

# labels, integer scores 0..5 (so many rows share a score) and small integer weights
rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5), st.integers(1, 3)), min_size=2, max_size=25)
# relative offsets from an edge: the float neighbours, the tie tolerance's scale, up to 1e-9
NUDGES = (0.0, 1e-15, 1e-13, 1e-12, 2e-12, 4e-12, 1e-11, 1e-10, 1e-9)


def piece_of(table, r: float) -> int:
    """Row of `table` whose piece holds r: (ratio_low_i, ratio_high_i], the first row also its
    left end. An edge belongs to the piece below it."""
    return int(np.searchsorted(table["ratio_high"].to_numpy(), r, side="left"))


def near_edges(table, offsets) -> list[float]:
    """Ratios at and around every edge of `table`: the edge, its float neighbours, and the
    edge times 1 +- each relative offset (all within 1e-9 relative)."""
    out = []
    for e in np.unique(np.concatenate((table["ratio_low"], table["ratio_high"]))):
        out += [e, math.nextafter(e, 0.0), math.nextafter(e, math.inf)]
        out += [e * (1 + d) for d in offsets] + [e * (1 - d) for d in offsets]
    return out


def exact_best(y, s, w, r: float):
    """(cutoff, margin) by exact arithmetic at c_fp = 1, c_fn = r (the float r taken exactly):
    the cheapest cutoff, ties to the larger, and how much cheaper it is than the next best
    cutoff relative to its cost (None when two cutoffs tie exactly)."""
    rr = Fraction(r)
    costs = {}
    for t in [math.inf, *sorted(set(s), reverse=True)]:
        fp = sum(Fraction(wi) for yi, si, wi in zip(y, s, w, strict=True) if si >= t and yi == 0)
        fn = sum(Fraction(wi) for yi, si, wi in zip(y, s, w, strict=True) if si < t and yi == 1)
        costs[t] = fp + rr * fn
    ranked = sorted(costs.items(), key=lambda kv: (kv[1], -kv[0]))
    (t0, c0), (_, c1) = ranked[0], ranked[1]
    return t0, None if c1 == c0 else (c1 - c0) / max(c0, Fraction(1))


@settings(max_examples=150, deadline=None)
@given(
    data=rows,
    weighted=st.booleans(),
    bounds=st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
    probes=st.lists(st.floats(-3, 3), max_size=8),
    offsets=st.lists(st.floats(-1e-9, 1e-9), max_size=4),
)
def test_optimal_threshold_returns_the_cutoff_of_the_piece_holding_the_ratio(data, weighted, bounds, probes, offsets):
    y = [d[0] for d in data]
    s = [float(d[1]) for d in data]
    w = [d[2] for d in data] if weighted else [1] * len(data)
    assume(0 < sum(y) < len(y))
    weight = np.array(w, dtype=float) if weighted else None
    # every edge between 1:1000 and 1000:1, and a random part of that range (clipped pieces)
    full = costlib.optimal_cutoffs_by_ratio(y, s, ratio_low=1e-3, ratio_high=1e3, sample_weight=weight)
    lo, hi = sorted(10.0 ** np.array(bounds))
    part = costlib.optimal_cutoffs_by_ratio(y, s, ratio_low=lo, ratio_high=hi, sample_weight=weight)
    nudges = (*NUDGES, *(abs(o) for o in offsets))
    ratios = near_edges(full, nudges) + near_edges(part, nudges) + [10.0**p for p in probes]
    for r in ratios:
        if not 1e-3 <= r <= 1e3:
            continue
        got = costlib.optimal_threshold(y, s, c_fp=1, c_fn=r, sample_weight=weight)[0]
        piece = full["threshold"].iloc[piece_of(full, r)]
        assert got == piece, (r, got, full)
        if lo <= r <= hi:
            assert got == part["threshold"].iloc[piece_of(part, r)], (r, got, part)
        # and the piece is right: the exact optimum (an exact tie goes to the larger cutoff),
        # wherever no other cutoff comes within a relative 1e-9 of it (the tie rule's band)
        exact, margin = exact_best(y, s, w, r)
        if margin is None or margin > 1e-9:
            assert piece == exact, (r, exact, full)


def test_no_cutoff_wins_a_sliver_just_above_a_tied_edge():
    # y = [1, 1, 0, 1, 0, 0], s = [0.4, 0.2, 0.3, 0.0, 0.5, 0.1]; at c_fp = 1, c_fn = r the
    # costs per case are: nobody 3r/6; 0.5: (1 + 3r)/6; 0.4: (1 + 2r)/6; 0.3: (2 + 2r)/6;
    # 0.2: (2 + r)/6; 0.1: (3 + r)/6; 0.0: 3/6. At r = 1, nobody, 0.4, 0.2 and 0.0 all cost
    # 1/2 (they lie on one straight stretch of the hull): below 1 nobody is cheapest, above 1
    # flagging everyone (0.0) is. 0.4 and 0.2 are never strictly cheapest, so they must
    # never be chosen, not even within the tie tolerance of r = 1.
    y, s = [1, 1, 0, 1, 0, 0], [0.4, 0.2, 0.3, 0.0, 0.5, 0.1]
    table = costlib.optimal_cutoffs_by_ratio(y, s, ratio_low=0.05, ratio_high=20)
    assert table["threshold"].tolist() == [math.inf, 0.0]
    np.testing.assert_allclose(table[["ratio_low", "ratio_high"]].to_numpy(), [[0.05, 1.0], [1.0, 20.0]], rtol=1e-10)
    assert costlib.optimal_threshold(y, s, c_fp=1, c_fn=1.0)[0] == math.inf  # the tie goes to the larger cutoff
    for k in range(-20, 21):  # every ratio within 2e-11 of the edge, in steps of 1e-12
        r = 1 + k * 1e-12
        got = costlib.optimal_threshold(y, s, c_fp=1, c_fn=r)[0]
        assert got in (math.inf, 0.0), (r, got)
        assert got == table["threshold"].iloc[piece_of(table, r)], (r, got, table)
    # the edge is 1 * (1 + 1e-12): a false alarm priced 1e-12 dearer keeps the tie at r = 1 for
    # flagging nobody; 4e-12 above 1 flagging everyone is cheaper by more than that
    assert table["ratio_high"].iloc[0] == 1 + 1e-12
    assert costlib.optimal_threshold(y, s, c_fp=1, c_fn=1 + 4e-12)[0] == 0.0


def test_sweep_best_without_a_hull_equals_the_hull_search():
    # Sweep.best answers a clear winner without building the hull: the same answer as
    # best_indices (which always reads the hull) at every price pair, ties and near-ties included
    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(2, 60))
        y, s = rng.integers(0, 2, n), rng.integers(0, 10, n) / 9
        if y.min() == y.max():
            continue
        w = [None, rng.integers(1, 4, n).astype(float), rng.integers(1, 4, n) * 0.1][int(rng.integers(0, 3))]
        sw = costlib.threshold_sweep(y, s, sample_weight=w)
        edges = sw.hull.edges[np.isfinite(sw.hull.edges)]
        ratios = np.concatenate((10 ** rng.uniform(-3, 3, 8), edges, edges * (1 + 3e-12), edges * (1 - 3e-12)))
        c_fp = rng.integers(1, 5, ratios.size) * 0.1
        want = best_indices(sw, c_fp, c_fp * ratios)
        for a, r, j in zip(c_fp, ratios, want, strict=True):
            fresh = Sweep(sw.thresholds, sw.tp, sw.fp, sw.positives, sw.negatives)  # no hull yet
            assert fresh.best(a, a * r) == j, (a, r)
