"""`score_stats` reads the sweeps' statistics in fewer and cheaper passes, with the same answers.

The scores here nest by construction: in each binade of each sign and group, 4 level-8 bins
hold 16 level-16 bins, 64 level-24 bins, 256 level-32 bins and 1,024 distinct scores, so
each budget below picks its own level. At every budget the statistics read by DuckDB from
the scores' bits equal those read through the logarithm (the SQL Spark runs, the estimates
of the same integers) and those computed here in numpy from `binning.bin_numpy`; the passes
read a normal score's bin from its bits, not its logarithm, estimate no bins that cannot decide the level, and hand
back rows already in the statistics' order (nothing is sorted in numpy).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from costlib.scale import binning
from costlib.scale.engines import DuckDBEngine
from costlib.scale.rows import SPLIT_CODE
from costlib.scale.score_stats import ScoreStats, score_stats

# budgets and the level each gives on `nested()` (None: distinct scores), from the exact counts
# of its bins: 72 at level 8, 288 at 16, 1,152 at 24, 4,608 at 32, 18,432 distinct (+ 9 extra).
# With a split each (split, group) counts its own: about twice as many (and 1.5 times the
# distinct scores, each on two rows), so the budgets are doubled there
BUDGETS = {None: None, 40_000: None, 10_000: 32, 2_000: 24, 500: 16, 100: 8, 10: 8}
FIELDS = ("split", "group", "score", "pos_rows", "neg_rows", "pos_weight", "neg_weight")


def nested(weighted: bool = False, split: bool = False) -> pd.DataFrame:
    """Every score 2**e * (1 + f), f with 2 bits at each of 5 byte positions, both signs, 3 binades
    and 3 groups, each score on two rows; plus zeros (both signs) and subnormal scores."""
    rng = np.random.default_rng(7)
    digits = np.stack(np.meshgrid(*[np.arange(4)] * 5, indexing="ij"), -1).reshape(-1, 5)
    frac = (digits * np.ldexp(1.0, -8 * np.arange(1, 6))).sum(axis=1)  # exact: 40 bits at most
    base = np.concatenate([np.ldexp(1.0 + frac, e) for e in (-3, 0, 5)])
    extra = np.array([0.0, -0.0, 5e-324, 3e-320, -7e-315])
    per_group = np.concatenate((base, -base, extra))
    s = np.tile(np.repeat(per_group, 2), 3)
    g = np.repeat(np.array(["b", "a", "c"]), 2 * per_group.size)
    df = pd.DataFrame({"y": rng.integers(0, 2, s.size), "s": s, "g": g})
    if weighted:
        df["w"] = rng.integers(0, 4, s.size).astype(float)  # zeros too; whole numbers add up exactly
    if split:
        df["part"] = np.where(rng.random(s.size) < 0.5, "train", "test")
    return df


def _read(df, budget, weighted: bool, split: bool, engine: str = "duckdb") -> ScoreStats:
    return score_stats(
        df,
        engine=engine,
        label="y",
        score="s",
        group="g",
        weight="w" if weighted else None,
        split="part" if split else None,
        max_thresholds=budget,
    )


def expected(df: pd.DataFrame, bits: int | None, weighted: bool, split: bool) -> pd.DataFrame:
    """The statistics computed in numpy: per (split, group, bin or score), the lowest score of
    positive weight (else the lowest), the highest of positive weight, counts and weights."""
    w = df["w"] if weighted else pd.Series(1.0, index=df.index)
    f = pd.DataFrame(
        {
            "split": df["part"].map(SPLIT_CODE) if split else 0,
            "group": df["g"],
            "key": df["s"] + 0.0 if bits is None else binning.bin_numpy(df["s"], bits),
            "s": df["s"] + 0.0,
            "s_pos": (df["s"] + 0.0).where(w > 0),
            "pos_rows": df["y"] == 1,
            "neg_rows": df["y"] == 0,
            "pos_weight": w.where(df["y"] == 1, 0.0),
            "neg_weight": w.where(df["y"] == 0, 0.0),
        }
    )
    out = f.groupby(["split", "group", "key"]).agg(
        lo=("s", "min"),
        lo_pos=("s_pos", "min"),
        hi_pos=("s_pos", "max"),
        pos_rows=("pos_rows", "sum"),
        neg_rows=("neg_rows", "sum"),
        pos_weight=("pos_weight", "sum"),
        neg_weight=("neg_weight", "sum"),
    )
    out["score"] = out["lo_pos"].fillna(out["lo"])
    out = out.reset_index()
    out["neg_score"] = -out["score"]
    return out.sort_values(["split", "group", "neg_score"], kind="stable").reset_index(drop=True)


@pytest.mark.parametrize(("weighted", "split"), [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("budget", list(BUDGETS))
def test_pooled_statistics_are_the_same_from_the_bits_as_from_the_logarithm_and_numpy(
    budget, weighted, split, monkeypatch
):
    level = BUDGETS[budget]
    budget = budget * 2 if budget and split else budget
    df = nested(weighted, split)
    stats = _read(df, budget, weighted, split)
    with monkeypatch.context() as m:  # the logarithm path: what Spark runs, and what every engine ran before
        m.setattr(DuckDBEngine, "float_bits", None)
        by_log = _read(df, budget, weighted, split)
    for name in (*FIELDS, "weighted", "rows", "bits", "largest_bin_rows", "largest_bin_weight"):
        assert_array_equal(getattr(stats, name), getattr(by_log, name), err_msg=name)
    assert (stats.splits, stats.groups) == (by_log.splits, by_log.groups)
    assert stats.bound_statement() == by_log.bound_statement()

    assert stats.bits == level
    want = expected(df, level, weighted, split)
    assert_array_equal(stats.score, want["score"])
    assert_array_equal(np.asarray(stats.groups)[stats.group], want["group"])
    names = {c: s for s, c in SPLIT_CODE.items()}
    assert_array_equal(np.asarray(stats.splits)[stats.split], want["split"].map(names))
    for name in ("pos_rows", "neg_rows", "pos_weight", "neg_weight"):
        assert_array_equal(getattr(stats, name), want[name], err_msg=name)
    if level is not None:  # the bound: the largest bin holding more than one score of positive weight
        pooled = want["lo_pos"] < want["hi_pos"]
        assert stats.largest_bin_rows == (want["pos_rows"] + want["neg_rows"])[pooled].max()
        assert stats.largest_bin_weight == (want["pos_weight"] + want["neg_weight"])[pooled].max()


@pytest.mark.parametrize("weighted", [False, True])
def test_the_pooled_passes_read_the_bits_estimate_only_levels_that_decide_and_sort_nothing_in_numpy(
    weighted, monkeypatch
):
    # every bin is read from the float's bits (a subnormal's from its logarithm), cast once per row
    # for all the levels estimated. Before: the fitting pass took FLOOR(LOG2(.)) at four levels (the
    # coarsest, taken anyway when nothing finer fits, too), so did the stats query, and its rows
    # came unordered, to be sorted by np.lexsort
    df = nested(weighted)
    queries: list[str] = []
    real = DuckDBEngine.sql_arrow

    def recorded(self, text):
        queries.append(text)
        return real(self, text)

    def no_sort(*args, **kwargs):
        raise AssertionError("the statistics were sorted in numpy")

    monkeypatch.setattr(DuckDBEngine, "sql_arrow", recorded)
    monkeypatch.setattr(np, "lexsort", no_sort)
    stats = _read(df, 100, weighted, False)
    assert stats.bits == binning.LEVELS[0]
    assert len(queries) == 3  # validate and estimate the scores; estimate the bins; count per bin
    assert queries[1].count("approx_count_distinct(") == len(binning.LEVELS) - 1
    bits = DuckDBEngine.float_bits
    assert queries[1].count(bits.format("a")) == 1  # each score's bits cast once for every level
    assert bits.format("ABS(s)") in queries[2]  # (the logarithm is left for subnormal scores only)
