"""Disparities and costs of an audit on several group columns (issue 41, item 2), held against a
pandas groupby of the rows: per intersection group (counts, rates, costs) and per column alone
(each column's groups gather the intersections that hold them, each decided by its own cutoff
and priced at its own prices), with the largest group of each column as its reference."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.answers.audit import build_audit, data_columns, dataset_models
from costlib.binary.disparity import THRESHOLD, column_disparities, ratio_passes
from costlib.core import rules as R
from costlib.core.dataset import ColumnMapping

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "costlib" / "samples" / "compas.csv"
COLUMNS = ("race", "sex")


@pytest.fixture(scope="module")
def audited():
    df = pd.read_csv(SAMPLE)
    mapping = ColumnMapping(label="two_year_recid", scores=("p_recid",), group=COLUMNS, split="split")
    ds = loading.prepare(df, mapping, name="compas.csv", fingerprint="")
    models = dataset_models(ds, ["p_recid"])
    # prices differ by intersection, so a column's cost per case is not one price times its counts
    costs = {g: (1.0 + i, 3.0 + 2 * (i % 2)) for i, g in enumerate(models["p_recid"].groups)}
    audit = build_audit(
        models, costs, n_resamples=60, seed=1, columns=data_columns(mapping), group_parts=ds.group_parts
    )
    return df, ds, models["p_recid"], audit, costs


def _rows(df, audit, costs, rule):
    """The judged rows with their intersection, their cutoff under `rule`, flag, mistakes and cost."""
    t = df[df["split"] == "test"].copy()
    t["key"] = t["race"] + " × " + t["sex"]
    cut = audit.cutoffs[rule]
    t["flag"] = t["p_recid"].to_numpy() >= t["key"].map(cut).to_numpy(dtype=float)
    t["fp"] = t["flag"] & (t["two_year_recid"] == 0)
    t["fn"] = ~t["flag"] & (t["two_year_recid"] == 1)
    t["tp"] = t["flag"] & (t["two_year_recid"] == 1)
    t["cost"] = t["fp"] * t["key"].map(lambda g: costs[g][0]) + t["fn"] * t["key"].map(lambda g: costs[g][1])
    t["pos"] = t["two_year_recid"] == 1
    return t


def _by(t, column):
    g = t.groupby(column, sort=False)
    out = pd.DataFrame(
        {"n": g.size(), "flag": g["flag"].sum(), "fp": g["fp"].sum(), "fn": g["fn"].sum(), "tp": g["tp"].sum()}
    )
    out["pos"] = g["pos"].sum()
    out["cost"] = g["cost"].sum()
    return pd.DataFrame(
        {
            "n": out["n"],
            "flagged rate": out["flag"] / out["n"],
            "false positive rate": out["fp"] / (out["n"] - out["pos"]),
            "false negative rate": out["fn"] / out["pos"],
            "cost per case": out["cost"] / out["n"],
            "fp": out["fp"],
            "fn": out["fn"],
        }
    )


@pytest.mark.parametrize("rule", [R.COST_OPTIMAL, R.SINGLE])
def test_each_intersection_group_counts_rates_and_costs_as_a_groupby(audited, rule):
    df, _, _, audit, costs = audited
    want = _by(_rows(df, audit, costs, rule), "key")
    got = audit.results.by_group.query("rule == @rule").set_index("group")
    assert set(got.index) == set(want.index) and len(want) == 6
    for g, w in want.iterrows():
        assert got.loc[g, "n"] == w["n"]
        np.testing.assert_allclose(got.loc[g, ["fp", "fn"]].to_numpy(float), w[["fp", "fn"]].to_numpy(float))
        np.testing.assert_allclose(got.loc[g, "flagged_rate"], w["flagged rate"])
        np.testing.assert_allclose(got.loc[g, "cost_per_case"], w["cost per case"])


@pytest.mark.parametrize("rule", [R.COST_OPTIMAL, R.SINGLE])
def test_each_column_alone_is_a_groupby_of_its_rows(audited, rule):
    df, ds, ms, audit, costs = audited
    rows = _rows(df, audit, costs, rule)
    found = column_disparities(ms, audit.results, rule, audit.recommendation.prices, ds.group_parts, COLUMNS)
    assert [c for c, _ in found] == list(COLUMNS)
    for column, d in found:
        want = _by(rows, column)
        reference = want["n"].idxmax()  # each column against its own largest group
        assert d.reference == reference and d.chosen == "largest"
        for metric in ("flagged rate", "false positive rate", "false negative rate", "cost per case"):
            table = d.table[d.table["metric"] == metric].set_index("group")
            assert set(table.index) == set(want.index)
            np.testing.assert_allclose(table["value"].to_numpy(float), want.loc[table.index, metric].to_numpy(float))
            ratio = want[metric] / want.loc[reference, metric]
            np.testing.assert_allclose(table["ratio"].to_numpy(float), ratio.loc[table.index].to_numpy(float))
            diff = want[metric] - want.loc[reference, metric]
            np.testing.assert_allclose(table["difference"].to_numpy(float), diff.loc[table.index].to_numpy(float))
            assert list(table["passes"]) == [ratio_passes(r, THRESHOLD) for r in ratio.loc[table.index]]
            # intervals from the resamples, summed over the intersections a group gathers
            others = table[~table["is_reference"]]
            assert np.isfinite(others[["ratio_low", "ratio_high"]].to_numpy(float)).all()


def test_the_audit_reports_every_column_and_the_intersections(audited):
    _, _, _, audit, _ = audited
    assert len(audit.disparities.table["group"].unique()) == 6  # the intersections
    assert [c for c, _ in audit.column_disparities] == list(COLUMNS)
    s = audit.summary()
    assert s["data"]["group"] == "race × sex" and s["data"]["group_columns"] == ["race", "sex"]
    assert set(s["disparities_by_column"]) == set(COLUMNS)
    sex = s["disparities_by_column"]["sex"]
    assert sex["reference_group"] == "Male" and set(sex["metrics"]["flagged_rate"]) == {"Male", "Female"}
    assert set(s["disparities"]["metrics"]["flagged_rate"]) == set(audit.groups)


def test_a_failing_column_fails_the_audit_even_when_the_intersections_pass(audited):
    _, _, _, audit, _ = audited
    sex = dict(audit.column_disparities)["sex"]
    passing = dataclasses.replace(audit.disparities, table=audit.disparities.table.assign(passes=True))
    failing = dataclasses.replace(sex, table=sex.table.assign(passes=False))
    assert not dataclasses.replace(audit, disparities=passing, column_disparities=()).disparities_fail
    assert dataclasses.replace(audit, disparities=passing, column_disparities=(("sex", failing),)).disparities_fail


def test_the_headline_speaks_of_a_failing_column_when_the_intersections_pass(audited):
    from costlib.binary.disparity import said_disparities

    _, _, _, audit, _ = audited
    sex = dict(audit.column_disparities)["sex"]
    passing = dataclasses.replace(audit.disparities, table=audit.disparities.table.assign(passes=True))
    failing = dataclasses.replace(sex, table=sex.table.assign(passes=False))
    assert said_disparities(passing, (("race", passing), ("sex", failing))) is failing
    assert said_disparities(audit.disparities, (("sex", failing),)) is (
        audit.disparities if audit.disparities.fails else failing
    )
    assert said_disparities(passing, ()) is passing and said_disparities(None, ()) is None


def test_the_page_and_the_record_show_the_same_column_tables(audited):
    from costlib.present.disparity_table import column_tables, disparity_tables

    _, ds, ms, audit, _ = audited
    page = column_tables(ms, audit.recommendation, ds.group_parts, COLUMNS)
    record = disparity_tables(audit)
    assert len(record) == 3 and [c for c, _, _ in page] == [c for c, _ in record[1:]]
    for (_, a, numbers), (_, b) in zip(page, record[1:], strict=True):
        pd.testing.assert_frame_equal(a, b)
        assert list(numbers["result"]) == list(a["result"])  # the download says what the table says
    assert column_tables(ms, audit.recommendation, None, ("race",)) == []
