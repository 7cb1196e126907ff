"""Out-of-core answers (DuckDB) equal the in-memory kernel exactly; the pruning bound never drops the
optimum; aggregate files round-trip; bad input gets a sentence.

Equality means equality: thresholds and counts compared with ``==`` / ``assert_array_equal``
(integer weights add up exactly in any order). Only real-valued weights, summed in another order
by the engine, are compared with ``allclose`` on costs (thresholds still equal). The Spark engine
runs the same checks in tests/scale/test_scale_spark.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from costlib import DegenerateWarning
from costlib.binary.costs import (
    RULE_COLUMNS,
    compare_rules,
    cost_optimal_thresholds,
    group_costs,
    optimal_threshold,
    rule_cutoffs,
)
from costlib.core.errors import DataError
from costlib.core.sweep import argbest, grouped_sweep, threshold_sweep
from costlib.scale import binning, pruning, refining
from costlib.scale import scans as scale
from costlib.scale.aggregates import aggregate, load_aggregate

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------
# Data with the awkward features: heavy ties, weights, empty bins, one-class groups
# --------------------------------------------------------------------------------------


def frame(kind: str, n: int = 3000, groups: int = 10, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = (rng.random(n) < 0.3 + 0.03 * g).astype(np.int64)
    if kind == "ties":  # few distinct values, many rows each
        s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 2)
    elif kind == "gaps":  # two clusters far apart: most bins in between are empty
        s = np.where(rng.random(n) < 0.5, rng.normal(1e-3, 1e-4, n), rng.normal(50.0, 1.0, n)) + 0.5 * y
    elif kind == "lognormal":  # unbounded, spread over many binades
        s = rng.lognormal(0.0, 3.0, n) * (1 + y)
    elif kind == "signed":  # negative, zero and positive scores (logits), with -0.0
        s = np.round(rng.normal(y - 0.5, 1.0, n), 1)
        s[s == 0] = -0.0
    elif kind == "equal":  # every score the same
        s = np.full(n, 0.25)
    else:
        raise AssertionError(kind)
    w = rng.integers(0, 4, n).astype(np.float64)  # integer weights (some 0): sums are exact
    return pd.DataFrame({"y": y, "s": s, "g": g, "w": w, "wr": rng.random(n) * 3})


def expected_optimum(df: pd.DataFrame, c_fp, c_fn, weight=None):
    out = {}
    for name, d in df.groupby("g"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateWarning)
            out[name] = optimal_threshold(
                d["y"], d["s"], c_fp=c_fp, c_fn=c_fn, sample_weight=None if weight is None else d[weight]
            )
    return out


def assert_same_optimum(got: pd.DataFrame, want: dict, *, exact: bool = True):
    assert got.columns.tolist() == ["group", "threshold", "cost_per_case"]
    assert got["group"].tolist() == sorted(want)
    for _, row in got.iterrows():
        t, c = want[row["group"]]
        assert row["threshold"] == t or (np.isnan(t) and np.isnan(row["threshold"])), (row["group"], row, t)
        if exact:
            assert row["cost_per_case"] == c or (np.isnan(c) and np.isnan(row["cost_per_case"])), (row, c)
        else:
            assert_allclose(row["cost_per_case"], c, rtol=1e-9)


@pytest.fixture(params=[1 << 20, 0], ids=["direct", "refined"])
def row_limit(request, monkeypatch):
    """Default: survivors fetched at once. 0: every level of refinement is exercised."""
    monkeypatch.setattr(refining, "ROW_LIMIT", request.param)
    return request.param


# --------------------------------------------------------------------------------------
# The bin function: exact, monotone, the same in SQL as in numpy
# --------------------------------------------------------------------------------------


def special_scores() -> np.ndarray:
    vals = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 0.3, 1 / 3]
    for e in range(-1074, 1024, 7):
        p = np.ldexp(1.0, e)
        vals += [p, np.nextafter(p, 0), np.nextafter(p, np.inf), np.nextafter(np.nextafter(p, 0), 0)]
    vals = np.array(vals)
    return np.concatenate((vals, -vals, np.random.default_rng(0).lognormal(0, 20, 2000)))


def test_bins_in_duckdb_equal_the_float_parts_computed_in_numpy():
    import duckdb

    x = special_scores()
    con = duckdb.connect()
    con.register("t", pa.table({"s": x}))
    order = np.argsort(x, kind="stable")
    for bits in binning.LEVELS:
        got = con.sql(f"SELECT {binning.bin_sql('s', bits)} AS b FROM t").fetchnumpy()["b"]
        want = binning.bin_numpy(x, bits)
        assert_array_equal(got, want)
        assert (np.diff(want[order]) >= 0).all()  # monotone: larger scores never get smaller bins


def test_bins_read_from_the_floats_bits_in_duckdb_equal_the_float_parts():
    # the scans' DuckDB passes read a normal score's bin from its IEEE 754 bits (a shift, no
    # logarithm) and a subnormal's from its exponent: the same integers as numpy, both with and
    # without the guard that leaves missing, NaN and infinite scores without a bin
    import duckdb

    from costlib.scale.engines import DuckDBEngine

    x = np.concatenate((special_scores(), np.random.default_rng(1).random(5000)))
    bad = np.array([np.inf, -np.inf, np.nan])
    con = duckdb.connect()
    con.register("t", pa.table({"s": np.concatenate((x, bad))}))
    raw = DuckDBEngine.float_bits
    for bits in binning.LEVELS:
        want = binning.bin_numpy(x, bits)
        got = con.sql(f"SELECT {binning.bin_sql('s', bits, raw=raw)} AS b FROM t").fetchnumpy()["b"]
        assert_array_equal(np.asarray(got[: x.size]), want)
        rows = binning.binned("SELECT s FROM t", ["s"], {"b": bits}, guard=True, raw=raw)
        got = con.sql(f"SELECT b FROM {rows} AS r").fetchnumpy()["b"]
        assert_array_equal(np.asarray(got[: x.size]), want)
        assert got.mask[x.size :].all()  # no bin: the pass counts these rows and refuses them


def test_near_codes_in_duckdb_are_the_bins_of_scores_from_2_to_the_minus_16_up_to_2_and_zero():
    # the first pass's cheap codes (comparisons and one exact product) give back exactly the bins of
    # bin_numpy for every score in [2**-16, 2) and zero, edges and their neighbours included; every
    # other score (negative, tiny, 2 or more, infinite, NaN, missing) is marked as having no code
    import duckdb

    x = special_scores()
    x = np.concatenate((x, np.random.default_rng(2).random(5000), [1.0, 2.0, np.nextafter(2.0, 0), 2.0**-16]))
    x = np.concatenate((x, np.nextafter(2.0**-16, 0) * np.ones(1), [np.inf, -np.inf, np.nan]))
    con = duckdb.connect()
    con.register("t", pa.table({"s": pa.array(np.concatenate((x, [0.0])), mask=np.arange(x.size + 1) == x.size)}))
    inside = ((x >= 2.0**-16) & (x < 2.0)) | (x == 0)
    for bits in (binning.LEVELS[0], 11):  # 11 bits: the finest whose codes fit 16 bits
        codes = con.sql(f"SELECT {binning.near_bin_sql('s', bits)} AS c FROM t").fetchnumpy()["c"]
        bins, known = binning.near_bins(np.asarray(codes), bits)
        assert_array_equal(known, np.concatenate((inside, [False])))  # the last row is missing
        assert_array_equal(bins[: x.size][inside], binning.bin_numpy(x[inside], bits))
    assert inside.sum() > 5000 and (~inside).sum() > 100


@pytest.mark.parametrize(("kind", "near"), [("ties", True), ("equal", True), ("gaps", False), ("signed", False)])
def test_the_first_pass_counts_by_near_codes_only_when_every_score_has_one(kind, near, monkeypatch):
    # probabilities (with zeros) are counted by the cheap codes; anything else falls back to the
    # general bins; the optimum is the in-memory one either way (more cases in the tests below)
    calls = []
    plain = refining._near_pass1
    monkeypatch.setattr(refining, "_near_pass1", lambda scan: calls.append(plain(scan)) or calls[-1])
    df = frame(kind)
    got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", costs=(1, 3))
    assert_same_optimum(got, expected_optimum(df, 1, 3))
    assert len(calls) == 1 and (calls[0] is not None) == near


def test_bin_numpy_by_hand():
    # 0.75 = 2**-1 * 1.5: exponent -1, mantissa fraction 0.5 -> (-1 + 1100) * 256 + 128
    assert binning.bin_numpy([0.75], 8).tolist() == [1099 * 256 + 128]
    # -0.75 is minus that, minus 1; zero (either sign) is bin 0
    assert binning.bin_numpy([-0.75, 0.0, -0.0], 8).tolist() == [-(1099 * 256 + 128) - 1, 0, 0]


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=2, max_size=50))
def test_bins_are_monotone_and_nest(xs):
    x = np.sort(np.array(xs))
    coarse = binning.bin_numpy(x, 8)
    fine = binning.bin_numpy(x, 16)
    assert (np.diff(coarse) >= 0).all()
    assert (np.diff(fine) >= 0).all()
    # the order key of a fine bin lies inside its coarse bin's key range
    assert (binning.bin_top(fine, 16) <= binning.bin_top(coarse, 8)).all()
    lo, hi = binning.bin_range(coarse, 8)
    assert lo <= x.min() and x.max() <= hi


# --------------------------------------------------------------------------------------
# The pruning bound (engine-free): never drops the cutoff argbest picks
# --------------------------------------------------------------------------------------


@settings(max_examples=300)
@given(
    rows=st.lists(st.tuples(st.integers(0, 30), st.booleans(), st.integers(0, 3)), min_size=1, max_size=60),
    width=st.integers(1, 8),
    c_fp=st.integers(0, 5),
    c_fn=st.integers(0, 5),
)
def test_pruning_keeps_the_cutoff_brute_force_picks(rows, width, c_fp, c_fn):
    score = np.array([r[0] for r in rows], dtype=np.float64)
    y = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows], dtype=np.float64)
    if w.sum() == 0 or not (w[y].sum() > 0 and w[~y].sum() > 0):
        return
    # brute force: the cost of every cutoff (each distinct score with weight, and +inf)
    keep_rows = w > 0
    cutoffs = np.concatenate(([np.inf], np.unique(score[keep_rows])[::-1]))
    fp = np.array([w[(score >= t) & ~y].sum() for t in cutoffs])
    fn = np.array([w[(score < t) & y].sum() for t in cutoffs])
    total = w.sum()
    cost = (fp * c_fp + fn * c_fn) / total
    best = argbest(cost)
    # cells: bins of `width` consecutive integer scores, highest first, as the engine counts them
    cell_of = (score // width).astype(int)
    cells = np.unique(cell_of[keep_rows])[::-1]
    pos = np.array([w[(cell_of == c) & y].sum() for c in cells])
    neg = np.array([w[(cell_of == c) & ~y].sum() for c in cells])
    kept = pruning.prune(pos, neg, c_fp=c_fp, c_fn=c_fn)
    # candidates that survive: +inf and every distinct score inside a kept cell
    survives = np.array([True] + [bool(kept[np.flatnonzero(cells == t // width)[0]]) for t in cutoffs[1:]])
    assert survives[best], (cutoffs[best], cells, kept)
    # and argbest over the survivors alone picks the same cutoff (ties still go to the larger one)
    assert cutoffs[survives][argbest(cost[survives])] == cutoffs[best]


@settings(max_examples=150)
@given(
    pos=st.lists(st.floats(0, 10), min_size=1, max_size=30),
    neg=st.lists(st.floats(0, 10), min_size=1, max_size=30),
    c_fp=st.floats(0, 5),
    c_fn=st.floats(0, 5),
)
def test_pruning_with_real_weights_keeps_every_cell_within_the_margin(pos, neg, c_fp, c_fn):
    k = min(len(pos), len(neg))
    pos, neg = np.array(pos[:k]), np.array(neg[:k])
    kept = pruning.prune(pos, neg, c_fp=c_fp, c_fn=c_fn, exact=False)
    total = pos.sum() + neg.sum()
    if total == 0:
        return
    # the cheapest edge (a cell's lowest score) or +inf is a real cutoff; its cell must survive
    pos_above = np.concatenate(([0.0], np.cumsum(pos)[:-1]))
    neg_above = np.concatenate(([0.0], np.cumsum(neg)[:-1]))
    lower = neg_above * c_fp + (pos.sum() - pos_above - pos) * c_fn
    edge = (neg_above + neg) * c_fp + (pos.sum() - pos_above - pos) * c_fn
    nobody = pos.sum() * c_fn
    if edge.min() < nobody - 1e-6 * (1 + nobody):
        assert kept[np.argmin(edge)] or kept[: np.argmin(edge)].any()
    # no kept cell has a lower bound clearly above the best achievable cost
    ub = min(nobody, edge.min())
    assert (lower[kept] <= ub + 1e-6 * (1 + ub)).all()


def test_pruning_by_hand():
    # cells high to low: (pos, neg) = (3, 0), (1, 1), (0, 2), (0, 5); P = 4, N = 8, c_fp = c_fn = 1
    # edge costs (flag down to the cell's lowest score): 1, 2, 4, 9; +inf costs 4: UB = 1
    # lower bounds: cell0: fp 0 + fn 4-0-3 = 1; cell1: 0 + (4-3-1) = 0; cell2: 1 + 0 = 1; cell3: 3 + 0 = 3
    # keep L <= UB: cells 0, 1, 2; cell 3 (L = 3) can never win
    assert pruning.prune([3, 1, 0, 0], [0, 1, 2, 5], c_fp=1, c_fn=1).tolist() == [True, True, True, False]
    # with free false positives (c_fp = 0) the cost is FN: lower bounds 1, 0, 0, 0 and edges 1, 0, 0, 0,
    # so UB = 0 drops cell0; cell1's edge already costs the lowest bound (0), so the cells below it
    # cannot win the tie (it goes to the larger cutoff): only cell1 is searched
    assert pruning.prune([3, 1, 0, 0], [0, 1, 2, 5], c_fp=0, c_fn=1).tolist() == [False, True, False, False]
    # free false negatives: +inf (flag nobody) costs 0 and wins every tie: nothing is kept
    assert not pruning.prune([3, 1, 0, 0], [0, 1, 2, 5], c_fp=1, c_fn=0).any()


# --------------------------------------------------------------------------------------
# scan_optimal_thresholds == optimal_threshold per group
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["ties", "gaps", "lognormal", "signed", "equal"])
@pytest.mark.parametrize("weight", [None, "w"])
def test_optimal_thresholds_equal_in_memory(kind, weight, row_limit):
    df = frame(kind)
    for c_fp, c_fn in ((1, 3), (2.5, 1)):
        got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight=weight, costs=(c_fp, c_fn))
        assert_same_optimum(got, expected_optimum(df, c_fp, c_fn, weight))


@pytest.mark.parametrize("weight", [None, "w"])
def test_survivors_beyond_a_million_rows_are_fetched_at_once_and_swept_exactly(weight, monkeypatch):
    # 1.6 million rows whose scores all lie in one bin of the first pass, [0.5, 0.5 + 2**-9), with
    # heavy ties (2**16 distinct values) and integer weights (some 0): every row survives the
    # bounds, more than the 2**20 the fetch used to take at once (it refined first); now one round
    # fetches them all, and the thresholds and costs are still the in-memory ones
    rng = np.random.default_rng(7)
    n = 1_600_000
    k = rng.integers(0, 2**16, n)
    df = pd.DataFrame(
        {
            "y": (rng.random(n) < 0.15 + 0.3 * k / 2**16).astype(np.int64),
            "s": 0.5 + k * 2.0**-25,
            "g": rng.integers(0, 2, n),
            "w": rng.integers(0, 4, n).astype(np.float64),
        }
    )
    monkeypatch.setattr(refining, "TRACE", [])
    got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight=weight, costs=(1, 3))
    assert_same_optimum(got, expected_optimum(df, 1, 3, weight))
    assert [r["round"] for r in refining.TRACE] == [1]
    assert refining.TRACE[0]["alive_rows"] > 2**20


@pytest.mark.parametrize("kind", ["ties", "lognormal"])
def test_optimal_thresholds_real_weights_same_threshold(kind, row_limit):
    df = frame(kind, seed=3)
    got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight="wr", costs=(1, 2))
    assert_same_optimum(got, expected_optimum(df, 1, 2, "wr"), exact=False)


def test_optimal_threshold_one_group_and_per_group_prices():
    df = frame("ties", n=5000, groups=3, seed=1)
    got = scale.scan_optimal_thresholds(df, label="y", score="s", costs=(1, 4))
    t, c = optimal_threshold(df["y"], df["s"], c_fp=1, c_fn=4)
    assert got.to_dict("records") == [{"group": None, "threshold": t, "cost_per_case": c}]
    prices = {0: (1, 1), 1: (1, 9), 2: (5, 1)}
    got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", costs=prices)
    for _, row in got.iterrows():
        d = df[df["g"] == row["group"]]
        assert (row["threshold"], row["cost_per_case"]) == optimal_threshold(
            d["y"], d["s"], c_fp=prices[row["group"]][0], c_fn=prices[row["group"]][1]
        )


def test_spec_worked_example():
    # the spec's example: y = [0,0,1,1,0,1], p = [0.1,0.4,0.35,0.8,0.65,0.9], c_fp = 1, c_fn = 3.
    # t = 0.35 flags 0.35, 0.4, 0.65, 0.8, 0.9: FP = 2 (0.4, 0.65), FN = 0 -> 2/6; the larger threshold wins
    q = "SELECT * FROM (VALUES (0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8), (0, 0.65), (1, 0.9)) t(y, p)"
    got = scale.scan_optimal_thresholds(q, label="y", score="p", costs=(1, 3))
    assert got["threshold"].tolist() == [0.35]
    assert got["cost_per_case"].tolist() == pytest.approx([2 / 6])


def test_one_class_group_is_nan_with_a_warning():
    df = frame("ties", groups=3)
    df.loc[df["g"] == 1, "y"] = 1  # group 1 has positives only
    with pytest.warns(DegenerateWarning, match="only one class present"):
        got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", costs=(1, 1))
    row = got.set_index("group").loc[1]
    assert np.isnan(row["threshold"]) and np.isnan(row["cost_per_case"])
    assert np.isfinite(got.set_index("group").loc[0, "threshold"])


def test_zero_prices_and_perfect_separation_end_the_search_early():
    # separable: every positive scores above every negative; the cutoff at the lowest positive costs 0
    df = pd.DataFrame({"y": [0] * 500 + [1] * 500, "s": np.r_[np.linspace(0, 0.4, 500), np.linspace(0.6, 1, 500)]})
    got = scale.scan_optimal_thresholds(df, label="y", score="s", costs=(1, 1))
    assert got["threshold"].tolist() == [0.6] and got["cost_per_case"].tolist() == [0.0]
    # both prices 0: every cutoff costs 0, and the tie goes to +inf (flag nobody)
    got = scale.scan_optimal_thresholds(df, label="y", score="s", costs=(0, 0))
    assert got["threshold"].tolist() == [np.inf] and got["cost_per_case"].tolist() == [0.0]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.integers(0, 1),
            st.sampled_from([-2.0, -0.5, 0.0, 1e-300, 0.1, 0.3, 0.30000000000000004, 0.5, 1.0, 7.0, 1e12]),
            st.integers(0, 2),
            st.integers(0, 3),
        ),
        min_size=1,
        max_size=40,
    ),
    c_fp=st.integers(0, 4),
    c_fn=st.integers(0, 4),
)
def test_optimal_thresholds_random_small_data(rows, c_fp, c_fn):
    df = pd.DataFrame(rows, columns=["y", "s", "g", "w"]).astype({"w": float})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        for weight in (None, "w"):
            got = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight=weight, costs=(c_fp, c_fn))
            assert_same_optimum(got, expected_optimum(df, c_fp, c_fn, weight))


# --------------------------------------------------------------------------------------
# scan_group_costs == group_costs, scan_compare_rules == compare_rules
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("weight", [None, "w"])
def test_group_costs_equal_in_memory(weight):
    df = frame("ties", groups=4)
    cut = {0: 0.5, 1: 0.25, 2: np.inf, 3: -np.inf}
    prices = {0: (1, 2), 1: (3, 1), 2: (1, 1), 3: (0.5, 4)}
    got = scale.scan_group_costs(df, label="y", score="s", group="g", costs=prices, thresholds=cut, weight=weight)
    want = group_costs(
        df["y"], df["s"], df["g"], costs=prices, thresholds=cut, sample_weight=None if weight is None else df[weight]
    )
    pd.testing.assert_frame_equal(got, want)


def test_group_costs_by_hand_and_nan_cutoff():
    # group a: scores 0.1 (y0), 0.8 (y1); cutoff 0.5 flags 0.8: FP 0, FN 0 -> 0 per 100
    # group b: scores 0.3 (y1), 0.6 (y0); cutoff 0.5 flags 0.6: FP 1, FN 1 -> 100 * (1*1 + 1*2) / 2 = 150
    q = "SELECT * FROM (VALUES (0, 0.1, 'a'), (1, 0.8, 'a'), (1, 0.3, 'b'), (0, 0.6, 'b')) t(y, p, g)"
    got = scale.scan_group_costs(q, label="y", score="p", group="g", costs=(1, 2), thresholds={"a": 0.5, "b": 0.5})
    assert got["cost_per_100"].tolist() == [0.0, 150.0]
    assert got["flagged_rate"].tolist() == [0.5, 0.5]
    with pytest.warns(DegenerateWarning, match="NaN"):
        got = scale.scan_group_costs(
            q, label="y", score="p", group="g", costs=(1, 2), thresholds={"a": float("nan"), "b": 0.5}
        )
    assert np.isnan(got["cost_per_100"].iloc[0]) and got["cost_per_100"].iloc[1] == 150.0


def test_group_costs_refuses_a_missing_group():
    df = frame("ties", groups=3)
    with pytest.raises(ValueError, match="thresholds has no entry for group 2"):
        scale.scan_group_costs(df, label="y", score="s", group="g", costs=(1, 1), thresholds={0: 0.5, 1: 0.5})
    with pytest.raises(ValueError, match="costs has no entry for group 1"):
        scale.scan_group_costs(
            df, label="y", score="s", group="g", costs={0: (1, 1)}, thresholds={0: 0.5, 1: 0.5, 2: 0.5}
        )


@pytest.mark.parametrize("kind", ["ties", "signed"])
def test_compare_rules_equal_in_memory(kind):
    df = frame(kind, groups=5, seed=2)
    df["split"] = np.random.default_rng(5).choice(["train", "Test", "val", " training "], len(df))
    prices = {g: (1 + g, 2) for g in range(5)}
    got = scale.scan_compare_rules(df, label="y", score="s", group="g", split="split", costs=prices)
    train = df["split"].str.strip().str.lower().isin(["train", "training"])
    test = df["split"] == "Test"
    want = compare_rules(
        (df["y"][train], df["s"][train], df["g"][train]), (df["y"][test], df["s"][test], df["g"][test]), costs=prices
    )
    pd.testing.assert_frame_equal(got, want)


def test_compare_rules_with_weights_equal_the_in_memory_pieces_with_weights():
    df = frame("ties", groups=3, seed=4)
    df["split"] = np.where(np.arange(len(df)) % 2 == 0, "train", "test")
    prices = {g: (1, 2 + g) for g in range(3)}
    got = scale.scan_compare_rules(df, label="y", score="s", group="g", split="split", weight="w", costs=prices)
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    # the in-memory rules with weights: cutoffs fitted on the weighted train rows, each judged
    # by group_costs on the weighted test rows
    optimal = cost_optimal_thresholds(tr["y"], tr["s"], tr["g"], costs=prices, sample_weight=tr["w"])
    frames = []
    for rule, cut in rule_cutoffs(sorted(te["g"].unique()), costs=prices, optimal=optimal).items():
        table = group_costs(te["y"], te["s"], te["g"], costs=prices, thresholds=cut, sample_weight=te["w"])
        table.insert(0, "rule", rule)
        frames.append(table[RULE_COLUMNS])
    want = pd.concat(frames, ignore_index=True)[got.columns.tolist()]
    pd.testing.assert_frame_equal(got, want.astype({"group": got["group"].dtype}))


def test_compare_rules_group_missing_from_train_is_nan():
    df = frame("ties", groups=3)
    df["split"] = np.where(np.arange(len(df)) % 2 == 0, "train", "test")
    df.loc[(df["g"] == 2) & (df["split"] == "train"), "split"] = "test"
    prices = {g: (1, 1) for g in range(3)}
    with pytest.warns(DegenerateWarning, match="no training rows"):
        got = scale.scan_compare_rules(df, label="y", score="s", group="g", split="split", costs=prices)
    row = got[(got["rule"] == "cost-optimal") & (got["group"] == 2)]
    assert np.isnan(row["threshold"].iloc[0]) and np.isnan(row["cost_per_100"].iloc[0])


# --------------------------------------------------------------------------------------
# scan_grouped_sweep == grouped_sweep
# --------------------------------------------------------------------------------------


def assert_same_sweep(got, want):
    assert got.groups == want.groups
    assert_array_equal(got.offsets, want.offsets)
    assert_array_equal(got.thresholds, want.thresholds)
    assert_array_equal(got.tp, want.tp)
    assert_array_equal(got.fp, want.fp)
    assert_array_equal(got.positives, want.positives)
    assert_array_equal(got.negatives, want.negatives)


@pytest.mark.parametrize("kind", ["ties", "signed", "lognormal"])
@pytest.mark.parametrize("weight", [None, "w"])
def test_grouped_sweep_equal_in_memory(kind, weight):
    df = frame(kind)
    got = scale.scan_grouped_sweep(df, label="y", score="s", group="g", weight=weight)
    assert_same_sweep(
        got, grouped_sweep(df["y"], df["s"], df["g"], sample_weight=None if weight is None else df[weight])
    )


def test_grouped_sweep_per_split_and_without_groups():
    df = frame("ties", groups=3)
    df["split"] = np.where(np.arange(len(df)) % 3 == 0, "test", "train")
    got = scale.scan_grouped_sweep(df, label="y", score="s", group="g", split="split")
    assert list(got) == ["train", "test"]
    for role, mask in (("train", df["split"] == "train"), ("test", df["split"] == "test")):
        assert_same_sweep(got[role], grouped_sweep(df["y"][mask], df["s"][mask], df["g"][mask]))
    one = scale.scan_grouped_sweep(df, label="y", score="s")
    s = threshold_sweep(df["y"], df["s"])
    assert one.groups == (None,)
    assert_array_equal(one[None].thresholds, s.thresholds)
    assert_array_equal(one[None].tp, s.tp)
    assert_array_equal(one[None].fp, s.fp)


def test_a_group_whose_rows_all_weigh_zero_keeps_its_empty_sweep():
    df = frame("ties", groups=3)
    df.loc[df["g"] == 1, "w"] = 0.0
    got = scale.scan_grouped_sweep(df, label="y", score="s", group="g", weight="w")
    assert_same_sweep(got, grouped_sweep(df["y"], df["s"], df["g"], sample_weight=df["w"]))
    assert got[1].thresholds.tolist() == [np.inf]


# --------------------------------------------------------------------------------------
# Sources: files, globs, CSV, a query, tables in memory
# --------------------------------------------------------------------------------------


def test_every_kind_of_source_gives_the_same_answer(tmp_path):
    df = frame("ties", n=2000, groups=3)
    half = len(df) // 2
    df.iloc[:half].to_parquet(tmp_path / "part-1.parquet")
    df.iloc[half:].to_parquet(tmp_path / "part-2.parquet")
    df.to_parquet(tmp_path / "all.parquet")
    df.to_csv(tmp_path / "all.csv", index=False)
    want = expected_optimum(df, 1, 3)
    sources = [
        str(tmp_path / "all.parquet"),
        tmp_path / "all.parquet",
        str(tmp_path / "part-*.parquet"),
        [str(tmp_path / "part-1.parquet"), str(tmp_path / "part-2.parquet")],
        str(tmp_path / "all.csv"),
        f"SELECT * FROM read_parquet('{tmp_path / 'all.parquet'}')",
        df,
        pa.Table.from_pandas(df),
    ]
    for source in sources:
        got = scale.scan_optimal_thresholds(source, label="y", score="s", group="g", costs=(1, 3))
        assert_same_optimum(got, want)


def test_text_groups_and_bool_labels():
    df = frame("ties", groups=3)
    df["name"] = df["g"].map({0: "x 'quoted'", 1: 'y "double"', 2: "z"})
    df["label"] = df["y"].astype(bool)
    got = scale.scan_optimal_thresholds(df, label="label", score="s", group="name", costs=(1, 2))
    want = {df.loc[df["g"] == g, "name"].iloc[0]: v for g, v in expected_optimum(df, 1, 2).items()}
    assert_same_optimum(got, want)


def test_hostile_column_names():
    df = frame("ties", groups=2).rename(columns={"y": 'la"bel`', "s": "score; DROP", "g": "gr'oup"})
    got = scale.scan_optimal_thresholds(df, label='la"bel`', score="score; DROP", group="gr'oup", costs=(1, 1))
    assert len(got) == 2


# --------------------------------------------------------------------------------------
# Bad input: a sentence naming the argument or column, never a traceback from the engine
# --------------------------------------------------------------------------------------


def bad(df, message, **kw):
    args = {"label": "y", "score": "s", "group": "g", "costs": (1, 1)} | kw
    with pytest.raises(ValueError, match=message):
        scale.scan_optimal_thresholds(df, **args)


def test_bad_input_gets_a_sentence():
    df = frame("ties", n=200, groups=2)
    bad(df, r'score="nope": the DataFrame has no column "nope"; its columns are "y", "s"', score="nope")
    bad(df.assign(y=df["y"].astype(str)), 'label="y": column "y" of the DataFrame holds text')
    bad(df.assign(y=df["y"] * 2), r'column "y" \(label\) has \d+ rows whose label is not 0/1.*found 2\)')
    s = df["s"].copy()
    s.iloc[[3, 7]] = [np.nan, np.inf]
    bad(df.assign(s=s), r'column "s" \(score\) has 2 rows whose score is missing, NaN or infinite')
    w = df["w"].copy()
    w.iloc[5] = -1.0
    bad(df.assign(w=w), r'column "w" \(weight\) has 1 negative value; weights must be 0 or more', weight="w")
    bad(
        df.assign(w=w.abs().where(w >= 0, np.nan)),
        r'column "w" \(weight\) has 1 missing, NaN or infinite value',
        weight="w",
    )
    bad(df, "label and score name the same column", score="y")
    bad(df, "engine must be one of", engine="sqlite")
    bad(df, r"costs must be a \(c_fp, c_fn\) pair", costs=3)
    bad(df, "costs c_fp must be non-negative", costs=(-1, 1))
    g = df["g"].astype(object)
    g.iloc[0] = None
    bad(df.assign(g=g), r'column "g" \(group\) has 1 missing value')


def test_bad_split_values_and_missing_files(tmp_path):
    df = frame("ties", n=200, groups=2).assign(split=["train", "test", "holdout", "later"] * 50)
    with pytest.raises(DataError, match=r"has 50 rows whose value is not a split name \(found 'later'\)"):
        scale.scan_compare_rules(df, label="y", score="s", group="g", split="split", costs=(1, 1))
    with pytest.raises(DataError, match="does not exist"):
        scale.scan_optimal_thresholds(str(tmp_path / "none.parquet"), label="y", score="s", costs=(1, 1))
    with pytest.raises(DataError, match="neither a Parquet file"):
        scale.scan_optimal_thresholds(str(tmp_path / "x.xlsx"), label="y", score="s", costs=(1, 1))
    with pytest.raises(DataError, match="could not be read"):
        scale.scan_optimal_thresholds("SELECT * FROM no_such_table", label="y", score="s", costs=(1, 1))


# --------------------------------------------------------------------------------------
# Aggregate files: round trip, bins with a stated bound, refusals
# --------------------------------------------------------------------------------------


def test_aggregate_round_trips_to_the_in_memory_sweeps(tmp_path):
    df = frame("signed", groups=4)
    df["split"] = np.where(np.arange(len(df)) % 4 == 0, "test", "train")
    path = tmp_path / "agg.parquet"
    agg = aggregate(df, label="y", score="s", group="g", split="split", weight="w")
    agg.to_parquet(path)
    back = load_aggregate(path)
    assert back.exact and back.provenance == agg.provenance
    assert back.provenance["rows"] == len(df)
    assert back.columns == {"label": "y", "score": "s", "group": "g", "split": "split", "weight": "w"}
    assert list(back.sweeps) == ["train", "test"]
    for role in ("train", "test"):
        m = df["split"] == role
        assert_same_sweep(back.sweep(role), grouped_sweep(df["y"][m], df["s"][m], df["g"][m], sample_weight=df["w"][m]))
    # the same from the file's bytes (as an upload arrives)
    again = load_aggregate(path.read_bytes(), name="agg.parquet")
    assert_same_sweep(again.sweep("test"), back.sweep("test"))


def test_aggregate_in_bins_keeps_exact_thresholds_and_states_the_bound(tmp_path):
    df = frame("lognormal", n=4000, groups=2)
    agg = aggregate(df, label="y", score="s", group="g", max_thresholds=300)
    assert not agg.exact
    bound = agg.meta["bound"]
    assert "bins per binade" in bound["statement"]
    agg.to_parquet(tmp_path / "b.parquet")
    back = load_aggregate(tmp_path / "b.parquet")
    full = grouped_sweep(df["y"], df["s"], df["g"])
    for g in (0, 1):
        part, whole = back.sweep()[g], full[g]
        idx = whole.index_at(part.thresholds)
        # every kept threshold is a real threshold with the exact counts there
        assert_array_equal(whole.thresholds[idx], part.thresholds)
        assert_array_equal(whole.tp[idx], part.tp)
        assert_array_equal(whole.fp[idx], part.fp)
        # every missing threshold is within one bin of the kept one just above it
        above = np.searchsorted(-part.thresholds, -whole.thresholds, side="right") - 1
        moved = (whole.tp - part.tp[above]) + (whole.fp - part.fp[above])
        assert moved.max() <= bound["largest_bin_rows"]
    assert len(back.stats) < len(full.thresholds)


def test_load_aggregate_refuses_what_is_not_one(tmp_path):
    with pytest.raises(DataError, match='"x.csv" is not a Parquet file'):
        load_aggregate(b"y,s\n1,0.5\n", name="x.csv")
    plain = tmp_path / "plain.parquet"
    frame("ties", n=50).to_parquet(plain)
    with pytest.raises(DataError, match="is a Parquet file but not a costlib aggregate"):
        load_aggregate(plain)
    agg = aggregate(frame("ties", n=500, groups=2), label="y", score="s", group="g")
    table = pa.Table.from_pandas(
        pd.DataFrame(
            {
                "score": agg.stats.score,
                "pos_rows": agg.stats.pos_rows + 1,
                "neg_rows": agg.stats.neg_rows,
                "group": agg.stats.group,
            }
        )
    )
    meta = dict(agg.meta)
    tampered = tmp_path / "tampered.parquet"
    meta["provenance"] = dict(
        meta["provenance"], rows=int(agg.stats.pos_rows.sum() + agg.stats.neg_rows.sum() + len(agg.stats))
    )
    pq.write_table(table.replace_schema_metadata({b"costlib.aggregate": json.dumps(meta).encode()}), tampered)
    with pytest.raises(DataError, match="does not match its own fingerprint"):
        load_aggregate(tampered)
    meta["version"] = 99
    pq.write_table(table.replace_schema_metadata({b"costlib.aggregate": json.dumps(meta).encode()}), tampered)
    with pytest.raises(DataError, match="of version 99"):
        load_aggregate(tampered)


# --------------------------------------------------------------------------------------
# The command: python -m costlib aggregate
# --------------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "costlib", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_cli_aggregate_writes_a_file_that_loads_back(tmp_path):
    df = frame("ties", n=1500, groups=3)
    df["split"] = np.where(np.arange(len(df)) % 2 == 0, "train", "test")
    src = tmp_path / "rows.parquet"
    df.to_parquet(src)
    out = tmp_path / "agg.parquet"
    r = run_cli(
        "aggregate", str(src), "--label", "y", "--score", "s", "--group", "g", "--split", "split", "--out", str(out)
    )
    assert r.returncode == 0, r.stderr
    assert "1,500 rows, 3 groups in splits train, test" in r.stdout and "exact" in r.stdout
    back = load_aggregate(out)
    assert back.provenance["files"][0]["path"] == str(src)
    m = df["split"] == "test"
    assert_same_sweep(back.sweep("test"), grouped_sweep(df["y"][m], df["s"][m], df["g"][m]))


def test_cli_aggregate_bad_input_exits_2_with_one_sentence(tmp_path):
    src = tmp_path / "rows.csv"
    frame("ties", n=100).to_csv(src, index=False)
    r = run_cli("aggregate", str(src), "--label", "y", "--score", "missing", "--out", str(tmp_path / "a.parquet"))
    assert r.returncode == 2
    assert 'score="missing"' in r.stderr and "has no column" in r.stderr
    assert "Traceback" not in r.stderr
    r = run_cli("aggregate", str(src), "--label", "s", "--score", "y", "--out", str(tmp_path / "a.parquet"))
    assert r.returncode == 2 and "not 0/1" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("aggregate", str(src), "--label", "y", "--score", "s")  # no --out
    assert r.returncode == 2 and "--out" in r.stderr and "Traceback" not in r.stderr


def test_an_aggregate_gives_the_in_memory_answer_within_a_review_limit(tmp_path):
    """The capacity answers need only the counts: an aggregate file answers as the rows do."""
    from costlib.binary import decision as D
    from costlib.binary.capacity import price_of_capacity

    df = frame("ties", groups=3)
    path = tmp_path / "agg.parquet"
    aggregate(df, label="y", score="s", group="g").to_parquet(path)
    back = load_aggregate(path)
    counts = D.model_from_sweeps(back.sweep("all") if "all" in back.sweeps else next(iter(back.sweeps.values())))
    rows = D.sweep_model(df["y"], df["s"], df["g"])
    costs = {g: (1.0, 2.0 + i) for i, g in enumerate(rows.groups)}
    a = D.recommend(counts, costs, n_resamples=100, capacity=0.25)
    b = D.recommend(rows, costs, n_resamples=100, capacity=0.25)
    assert a.cutoffs == b.cutoffs and a.verdict == b.verdict and a.baseline == b.baseline
    assert a.cost == b.cost and (a.saving_low, a.saving_high) == (b.saving_low, b.saving_high)
    pa_, pb = price_of_capacity(counts, a.prices, 0.25), price_of_capacity(rows, b.prices, 0.25)
    assert pa_.curve.equals(pb.curve) and pa_.enough == pb.enough


def test_aggregates_whose_sums_would_wrap_or_whose_metadata_is_malformed_get_a_sentence(tmp_path):
    agg = aggregate(frame("ties", n=400, groups=2), label="y", score="s", group="g")

    def write(columns: dict, meta: dict) -> Path:
        path = tmp_path / "bad.parquet"
        table = pa.Table.from_pandas(pd.DataFrame(columns))
        pq.write_table(table.replace_schema_metadata({b"costlib.aggregate": json.dumps(meta).encode()}), path)
        return path

    base = {"score": agg.stats.score, "pos_rows": agg.stats.pos_rows, "neg_rows": agg.stats.neg_rows}
    base["group"] = np.asarray(agg.stats.groups, dtype=object)[agg.stats.group]
    huge = {**base, "pos_rows": np.full(len(agg.stats), 10**18, dtype=np.int64)}  # the int64 sum wraps
    meta = {**agg.meta, "provenance": {**agg.meta["provenance"], "rows": 2**52}}
    with pytest.raises(DataError, match="more than can be counted exactly"):
        load_aggregate(write(huge, meta))
    wide = {**base, "group": [str(g).encode() for g in base["group"]]}  # bytes, not text
    with pytest.raises(DataError, match='"group" holds binary instead of text'):
        load_aggregate(write(wide, agg.meta))
    stamped = {**base, "group": pd.Timestamp("2026-01-01") + pd.to_timedelta(agg.stats.group, unit="D")}
    with pytest.raises(DataError, match="instead of text"):
        load_aggregate(write(stamped, agg.meta))
    for bound in ("wide", {"largest_bin_rows": 3}):
        with pytest.raises(DataError, match='its "bound" or "bits"'):
            load_aggregate(write(base, {**agg.meta, "bound": bound, "bits": 20}))
    listed = {**base, "group": [[str(g)] for g in base["group"]]}  # pyarrow's read_dictionary raised KeyError
    with pytest.raises(DataError, match='"group" holds list<element: string> instead of text'):
        load_aggregate(write(listed, agg.meta))
    bound = {"largest_bin_rows": 3, "largest_bin_weight": 3.0, "statement": ["a", "list"]}
    with pytest.raises(DataError, match='its "bound.statement" is not text'):
        load_aggregate(write(base, {**agg.meta, "bound": bound, "bits": 20}))
    with pytest.raises(DataError, match='its "provenance.source" is not text'):
        load_aggregate(write(base, {**agg.meta, "provenance": {**agg.meta["provenance"], "source": {"a": 1}}}))
    deep = tmp_path / "deep.parquet"
    table = pa.Table.from_pandas(pd.DataFrame(base))
    pq.write_table(table.replace_schema_metadata({b"costlib.aggregate": b"[" * 100_000 + b"]" * 100_000}), deep)
    with pytest.raises(DataError, match="nested too deeply"):
        load_aggregate(deep)
    floats = pa.table({**{k: pa.array(np.asarray(v)) for k, v in base.items() if k != "group"},
                       "group": pa.array(np.where(agg.stats.group == 0, np.nan, 1.0))})  # fmt: skip
    nan_path = tmp_path / "nan.parquet"  # NaN (not null) in Arrow: it is no group, never another one
    pq.write_table(floats.replace_schema_metadata({b"costlib.aggregate": json.dumps(agg.meta).encode()}), nan_path)
    with pytest.raises(DataError, match=r'"group" has \d+ missing values \(NaN\)'):
        load_aggregate(nan_path)


def test_an_aggregate_whose_weights_add_up_past_any_float_gets_a_sentence(tmp_path):
    df = frame("ties", n=300, groups=1).assign(w=1.0)
    agg = aggregate(df, label="y", score="s", weight="w")
    n = len(agg.stats)
    columns = {
        "score": agg.stats.score,
        "pos_rows": agg.stats.pos_rows,
        "neg_rows": agg.stats.neg_rows,
        "pos_weight": np.full(n, 1e308),
        "neg_weight": np.full(n, 1e308),
    }
    for weight in (1e308, 1e297):  # 1e297 a cell summed under 1e300 and broke the bootstrap's draw (a C long)
        columns["pos_weight"] = columns["neg_weight"] = np.full(n, weight)
        path = tmp_path / "w.parquet"
        table = pa.Table.from_pandas(pd.DataFrame(columns))
        pq.write_table(table.replace_schema_metadata({b"costlib.aggregate": json.dumps(agg.meta).encode()}), path)
        with pytest.raises(DataError, match="too large to be summed"):
            load_aggregate(path)
