"""Spark's pooled statistics equal DuckDB's at every level: Spark takes the logarithm of each score
where DuckDB reads its bits, and sorts the statistics in numpy where DuckDB sorts them in the query.
The budgets and data are those of tests/scale/test_score_stats_passes.py."""

from __future__ import annotations

import pyarrow as pa
import pytest
from numpy.testing import assert_array_equal

from costlib.scale.spark import quiet_spark, spark_session
from tests.scale.test_score_stats_passes import BUDGETS, FIELDS, _read, nested

pytestmark = pytest.mark.xdist_group("spark")


@pytest.fixture(scope="module")
def spark():
    return spark_session("local[2]")


@pytest.mark.parametrize("budget", list(BUDGETS)[:-1])
def test_spark_pools_the_scores_into_the_same_bins_as_duckdb(spark, budget):
    df = nested(weighted=True, split=True)
    level = BUDGETS[budget]
    budget = budget * 2 if budget else budget  # with a split, as in test_score_stats_passes
    duck = _read(df, budget, True, True)
    with quiet_spark():
        sdf = spark.createDataFrame(pa.Table.from_pandas(df, preserve_index=False))
    got = _read(sdf, budget, True, True, engine="spark")
    assert got.bits == duck.bits == level
    for name in (*FIELDS, "rows", "largest_bin_rows", "largest_bin_weight"):
        assert_array_equal(getattr(got, name), getattr(duck, name), err_msg=name)
    assert (got.splits, got.groups) == (duck.splits, duck.groups)
    assert got.bound_statement() == duck.bound_statement()
