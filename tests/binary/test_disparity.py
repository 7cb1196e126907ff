"""Disparities against a reference group (issue 41, item 3): against the rows, and on COMPAS in
Aequitas's definitions (disparity = group metric / reference group metric)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.binary.disparity import DISPARITY_METRICS, THRESHOLD, rule_disparities
from costlib.core.errors import DataError

ROOT = Path(__file__).resolve().parents[2]


def _rows(seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 1500
    g = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    base = np.where(g == "a", 0.3, np.where(g == "b", 0.5, 0.4))
    y = (rng.random(n) < base).astype(int)
    score = np.clip(0.3 * y + rng.random(n) * 0.7 + np.where(g == "b", 0.1, 0.0), 0, 1).round(2)
    split = np.where(rng.random(n) < 0.5, "train", "test")
    return pd.DataFrame({"y": y, "score": score, "group": g, "split": split})


def _sweeps(df: pd.DataFrame, score: str = "score", label: str = "y", group: str = "group"):
    return D.sweep_model(
        df[label].to_numpy(),
        df[score].to_numpy(),
        df[group].to_numpy(),
        fit=(df["split"] == "train").to_numpy(),
        judge=(df["split"] == "test").to_numpy(),
        name=score,
    )


def _by_pandas(test: pd.DataFrame, cutoffs: dict, prices: dict) -> pd.DataFrame:
    """Each group's four metrics by a pandas groupby on the judged rows at the rule's cutoffs."""
    t = test.copy()
    t["flag"] = t["score"] >= t["group"].map(cutoffs)
    t["fp"] = t["flag"] & (t["y"] == 0)
    t["fn"] = ~t["flag"] & (t["y"] == 1)
    t["cost"] = t["fp"] * t["group"].map(lambda g: prices[g][0]) + t["fn"] * t["group"].map(lambda g: prices[g][1])
    out = t.groupby("group").agg(
        n=("y", "size"),
        flagged=("flag", "mean"),
        fp=("fp", "sum"),
        fn=("fn", "sum"),
        neg=("y", lambda s: (s == 0).sum()),
        pos=("y", "sum"),
        cost=("cost", "mean"),
    )
    return pd.DataFrame(
        {
            "flagged rate": out["flagged"],
            "false positive rate": out["fp"] / out["neg"],
            "false negative rate": out["fn"] / out["pos"],
            "cost per case": out["cost"],
            "n": out["n"],
        }
    )


@pytest.mark.parametrize("rule", ["cost-optimal", "threshold 0.5", "best single cutoff"])
@pytest.mark.parametrize("reference", [None, "c"])
def test_disparities_match_a_pandas_groupby_of_the_rows(rule, reference):
    df = _rows()
    prices = {"a": (1.0, 3.0), "b": (2.0, 3.0), "c": (1.0, 5.0)}
    ms = _sweeps(df)
    rec = D.recommend(ms, prices, n_resamples=50)
    d = rule_disparities(ms, rec.results, rule, rec.prices, reference=reference)
    want = _by_pandas(df[df["split"] == "test"], rec.results.cutoffs[rule], prices)
    ref = reference if reference is not None else want["n"].idxmax()  # default: the largest judged group
    assert d.reference == ref and d.chosen == ("largest" if reference is None else "given")
    assert set(d.table["metric"]) == set(DISPARITY_METRICS)
    for metric in DISPARITY_METRICS:
        got = d.table[d.table["metric"] == metric].set_index("group")
        assert_allclose(got["value"], want.loc[got.index, metric], rtol=1e-12)
        assert_allclose(got["reference_value"], want.loc[ref, metric], rtol=1e-12)
        assert_allclose(got["ratio"], want.loc[got.index, metric] / want.loc[ref, metric], rtol=1e-12)
        assert_allclose(got["difference"], want.loc[got.index, metric] - want.loc[ref, metric], atol=1e-12)
        ratio = want.loc[got.index, metric] / want.loc[ref, metric]
        assert got["passes"].tolist() == ((ratio >= THRESHOLD) & (ratio <= 1 / THRESHOLD)).tolist()
        others = got.drop(index=ref)  # the intervals hold their estimate (the same resamples as the costs)
        assert (others["ratio_low"] <= others["ratio"] + 1e-12).all()
        assert (others["ratio"] <= others["ratio_high"] + 1e-12).all()
        assert (others["difference_low"] <= others["difference"] + 1e-12).all()
        assert (others["difference"] <= others["difference_high"] + 1e-12).all()


def test_compas_ratios_follow_aequitas_definitions_by_hand():
    """Aequitas: pprev = flagged / group size, fpr = FP / (FP + TN), fnr = FN / (FN + TP);
    disparity = group metric / reference group metric (reference: Caucasian, as in Aequitas's
    COMPAS audit); a disparity outside [0.8, 1.25] fails."""
    df = pd.read_csv(ROOT / "costlib" / "samples" / "compas.csv")
    df = df.rename(columns={"two_year_recid": "y", "race": "group"})
    ms = _sweeps(df, score="p_recid")
    a = build_audit(ms, (1, 3), n_resamples=100, reference_group="Caucasian")
    d = a.disparities
    cut = a.cutoffs[d.rule]
    test = df[df["split"] == "test"]
    flag = test["p_recid"] >= test["group"].map(cut)
    y = test["y"] == 1
    hand = {}
    for g, rows in test.groupby("group"):
        f, yy = flag[rows.index], y[rows.index]
        tp, fp = (f & yy).sum(), (f & ~yy).sum()
        fn, tn = (~f & yy).sum(), (~f & ~yy).sum()
        hand[g] = {
            "flagged_rate": f.mean(),
            "false_positive_rate": fp / (fp + tn),
            "false_negative_rate": fn / (fn + tp),
        }
    block = a.summary()["disparities"]
    assert block["reference_group"] == "Caucasian" and block["threshold"] == 0.8
    assert block["pass_range"] == [0.8, 1.25]
    for key in ("flagged_rate", "false_positive_rate", "false_negative_rate"):
        for g in hand:
            want = hand[g][key] / hand["Caucasian"][key]
            got = block["metrics"][key][g]
            assert got["ratio"] == pytest.approx(want, rel=1e-9)
            assert got["pass"] == bool(0.8 <= want <= 1.25)
            lo, hi = got["ratio_interval"]
            assert lo <= got["ratio"] <= hi
    # African-American defendants without the outcome are wrongly flagged at 1.31 times the
    # Caucasian rate at this cutoff (82.7% against 63.2%): outside 1.25, a failure
    assert block["metrics"]["false_positive_rate"]["African-American"]["pass"] is False
    assert block["fails"] is True


def test_pooled_groups_are_reported_and_a_missing_rate_is_said():
    df = _rows()
    tiny = pd.DataFrame(  # a group with only positives on its judged rows and too few to fit
        {"y": [1, 1, 1, 0], "score": [0.9, 0.8, 0.3, 0.2], "group": "tiny", "split": ["test"] * 3 + ["train"]}
    )
    df = pd.concat([df, tiny], ignore_index=True)
    ms = _sweeps(df)
    rec = D.recommend(ms, (1, 3), n_resamples=30)
    assert "tiny" in rec.pooled
    d = rule_disparities(ms, rec.results, rec.rule, rec.prices, pooled=rec.pooled)
    rows = d.table[d.table["group"] == "tiny"].set_index("metric")
    assert rows["pooled"].all()
    cut = rec.results.cutoffs[rec.rule]["tiny"]  # its numbers are its own: its judged rows at its cutoff
    assert rows.loc["flagged rate", "value"] == pytest.approx(np.mean(np.array([0.9, 0.8, 0.3]) >= cut))
    fpr = rows.loc["false positive rate"]
    assert fpr["passes"] is None and "no negatives" in fpr["undefined"]
    block = d.record("rule")["metrics"]["false_positive_rate"]["tiny"]
    assert block["ratio"] is None and block["pass"] is None and "no negatives" in block["undefined"]


def test_an_unknown_reference_group_is_one_sentence():
    df = _rows()
    ms = _sweeps(df)
    rec = D.recommend(ms, (1, 3), n_resamples=0)
    with pytest.raises(DataError, match="not among the judged groups"):
        rule_disparities(ms, rec.results, rec.rule, rec.prices, reference="zzz")
