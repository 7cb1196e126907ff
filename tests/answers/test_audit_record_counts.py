"""The audit's JSON record as a fairness-auditor review read it: ``n`` is the rows judged whatever
their weights (with a weight column the cases they stand for are ``cases_by_weight``, and the
report's data table says both), and every disparity carries the count its rate is a share of, so a
reviewer can recompute it from the record alone."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.binary.disparity import out_of
from costlib.present.report import _data_tables


def _rows(seed: int = 0, n: int = 600):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 3)
    g = np.where(rng.random(n) < 0.5, "a", "b")
    w = rng.integers(1, 9, n).astype(float)
    train = rng.random(n) < 0.5
    return y, s, g, w, train


def _audit(ms, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_audit(ms, (1, 3), n_resamples=20, criteria=["demographic parity"], **kwargs)


@pytest.fixture(scope="module")
def weighted():
    y, s, g, w, train = _rows()
    ms = D.sweep_model(y, s, g, fit=train, judge=~train, sample_weight=w, name="s")
    return _audit(ms, columns={"label": "y", "group": "g", "split": "split", "weight": "w"}), (g, w, train)


def test_n_counts_the_rows_judged_and_the_cases_by_weight_are_named_apart(weighted):
    audit, (g, w, train) = weighted
    out = json.loads(json.dumps(audit.summary(), allow_nan=False))
    assert out["n"] == out["n_judged"] == int((~train).sum())  # rows, not the 1,219 cases they stand for
    assert isinstance(out["n"], int) and isinstance(out["n_rows"], int)
    assert out["n_rows"] == len(train)  # every row is a train or a test row here
    assert out["cases_by_weight"] == pytest.approx(w[~train].sum())
    keys = list(out)
    assert keys.index("cases_by_weight") == keys.index("n_judged") + 1
    assert audit.policy()["decision"]["n"] == out["n"]  # the policy carries the same summary


def test_the_report_says_the_rows_and_the_cases_by_weight(weighted):
    audit, (g, w, train) = weighted
    by_group, overall = _data_tables(audit)
    test = overall.set_index("rows").loc["test"]
    assert test["cases"] == f"{(~train).sum():,}"
    assert test["cases by weight"] == f"{w[~train].sum():,.0f}"
    a = by_group[(by_group["rows"] == "train") & (by_group["group"] == "a")].iloc[0]
    assert a["cases"] == f"{(train & (g == 'a')).sum():,}"
    assert a["cases by weight"] == f"{w[train & (g == 'a')].sum():,.0f}"
    assert "positives by weight" in overall.columns


def test_without_weights_the_record_has_no_cases_by_weight():
    y, s, g, _w, train = _rows()
    audit = _audit(D.sweep_model(y, s, g, fit=train, judge=~train, name="s"))
    out = audit.summary()
    assert out["n"] == out["n_judged"] == int((~train).sum()) and "cases_by_weight" not in out
    assert "cases by weight" not in _data_tables(audit)[1].columns


def test_each_disparity_carries_the_count_its_rate_is_a_share_of(weighted):
    for audit in (weighted[0], _audit(D.sweep_model(*_rows()[:3], name="s"))):
        block = json.loads(json.dumps(audit.summary(), allow_nan=False))["disparities"]
        assert block["out_of"] == {
            "flagged_rate": "cases",
            "false_positive_rate": "negatives",
            "false_negative_rate": "positives",
            "cost_per_case": "cases",
        }
        judged = audit.sweeps.judge
        counts = {
            str(grp): out_of(judged[grp].positives, 0, judged[grp].total) for grp in audit.sweeps.groups
        }  # positives as tp, no fn: out_of's positives are tp + fn
        for metric, words in (
            ("flagged rate", "flagged_rate"),
            ("false positive rate", "false_positive_rate"),
            ("false negative rate", "false_negative_rate"),
        ):
            for grp, row in block["metrics"][words].items():
                assert row["out_of"] == pytest.approx(float(counts[grp][metric])), (metric, grp)
                assert list(row)[:2] == ["value", "out_of"]
                assert isinstance(row["out_of"], int) or audit.sweeps.weighted  # a count of rows is a whole number
        fnr = block["metrics"]["false_negative_rate"]["b"]
        missed = fnr["value"] * fnr["out_of"]  # the rate recomputed from the record: a whole number of misses
        assert missed == pytest.approx(round(missed), abs=1e-6)
