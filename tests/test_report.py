"""The audit view, its HTML report and the JSON policy file (costlib.report)."""

from __future__ import annotations

import dataclasses
import json
import math
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib import RULES, threshold_sweep
from costlib.audit import FAIRNESS_CRITERIA
from costlib.costs import ALL_GROUPS
from costlib.errors import DataError
from costlib.loading import fingerprint
from costlib.report import (
    NOT_DISTINGUISHABLE,
    REPORT_SECTIONS,
    audit_html,
    build_audit,
    load_policy,
    policy_dict,
    policy_json,
)
from costlib.words import cost_verdict

SAMPLE = Path(__file__).resolve().parents[1] / "costlib" / "samples" / "compas.csv"
COSTS = {"African-American": (5.0, 3.0), "Caucasian": (8.0, 3.0), "Other": (5.0, 3.0)}
FAIR_RULES = tuple(f"fair: {c}" for c in FAIRNESS_CRITERIA)
TOL = 0.05
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def compas():
    df = pd.read_csv(SAMPLE)
    train, test = df[df["split"] == "train"], df[df["split"] == "test"]
    parts = {}
    for name, part in (("train", train), ("test", test)):
        parts[name] = (part["two_year_recid"].to_numpy(), part["p_recid"].to_numpy(), part["race"].to_numpy())
    return parts


@pytest.fixture(scope="module")
def audit(compas):
    return build_audit(*compas["train"], *compas["test"], costs=COSTS, unit="$", volume=1000, n_resamples=200,
                       fairness_tolerance=TOL, model_name="p_recid", data_name="compas.csv",
                       fingerprint=fingerprint(SAMPLE.read_bytes()), n_rows=6172)


@pytest.fixture(scope="module")
def report(audit):
    return audit_html(audit)


def _rate(sweep, j: int, criterion: str) -> float:
    """A criterion's rate at index j of one group's sweep, computed from its counts."""
    tp, fp, tn = sweep.tp[j], sweep.fp[j], sweep.tn[j]
    return {
        "demographic parity": (tp + fp) / sweep.total,
        "equal opportunity": tp / sweep.positives,
        "equal false positive rate": fp / sweep.negatives,
        "equal accuracy": (tp + tn) / sweep.total,
    }[criterion]


def _train_cost(y, s, g, cut: dict) -> float:
    """All-groups cost per case on these rows, from per-group sweeps."""
    total = 0.0
    for name in np.unique(g):
        sw = threshold_sweep(y[g == name], s[g == name])
        j = sw.index_at(cut[name])
        total += sw.fp[j] * COSTS[name][0] + sw.fn[j] * COSTS[name][1]
    return total / len(y)


# ---------------------------------------------------------------------------------------
# The audit value


def test_table_has_every_rule_and_group(audit):
    assert list(dict.fromkeys(audit.table["rule"])) == [*RULES, *FAIR_RULES]
    for _, part in audit.table.groupby("rule"):
        assert list(part["group"]) == ["African-American", "Caucasian", "Other", ALL_GROUPS]
    for col in ("low", "high", "vs_nobody", "vs_nobody_low", "vs_nobody_high", "vs_nobody_note",
                "price_of_fairness_per_100"):
        assert col in audit.table.columns


@pytest.mark.parametrize("criterion", list(FAIRNESS_CRITERIA))
def test_fair_rule_meets_its_constraint_on_train_and_costs_no_less(audit, compas, criterion):
    y, s, g = compas["train"]
    cut = audit.cutoffs[f"fair: {criterion}"]
    rates = []
    for name in np.unique(g):
        sw = threshold_sweep(y[g == name], s[g == name])
        rates.append(_rate(sw, sw.index_at(cut[name]), criterion))
    assert max(rates) - min(rates) <= TOL + 1e-9
    assert _train_cost(y, s, g, cut) >= _train_cost(y, s, g, audit.cutoffs["cost-optimal"]) - 1e-12
    summary = audit.fairness_summary.set_index("rule").loc[f"fair: {criterion}"]
    assert summary["price_per_100_train"] >= -1e-9
    assert summary["spread_train"] == pytest.approx(max(rates) - min(rates))


def test_cost_optimal_cutoffs_match_the_table(audit):
    rows = audit.table[(audit.table["rule"] == "cost-optimal") & (audit.table["group"] != ALL_GROUPS)]
    assert dict(zip(rows["group"], rows["threshold"], strict=True)) == audit.cutoffs["cost-optimal"]
    assert audit.cutoffs["cost-optimal"]["Caucasian"] == math.inf  # c_fp 8: flagging nobody is cheapest


def test_price_of_fairness_is_the_difference_of_all_group_costs(audit):
    totals = audit.all_groups()
    base = totals.loc["cost-optimal", "cost_per_100"]
    for rule in totals.index:
        assert totals.loc[rule, "price_of_fairness_per_100"] == pytest.approx(totals.loc[rule, "cost_per_100"] - base)
    assert totals.loc["cost-optimal", "price_of_fairness_per_100"] == 0


def test_intervals_contain_the_estimates(audit):
    t = audit.table.dropna(subset=["low", "high"])
    assert len(t) == len(audit.table)  # every rule is feasible on COMPAS at this tolerance
    assert (t["low"] <= t["cost_per_100"] + 1e-9).all()
    assert (t["cost_per_100"] <= t["high"] + 1e-9).all()
    totals = audit.all_groups()
    assert (totals["vs_nobody_low"] <= totals["vs_nobody"] + 1e-9).all()
    assert (totals["vs_nobody"] <= totals["vs_nobody_high"] + 1e-9).all()
    nobody = audit.all_groups().loc["flag nobody", "cost_per_100"]
    assert (totals["vs_nobody"] - (totals["cost_per_100"] - nobody)).abs().max() < 1e-9


def test_rules_indistinguishable_from_nobody_say_so(audit):
    totals = audit.all_groups().drop(index="flag nobody")
    undecided = (totals["vs_nobody_low"] <= 0) & (totals["vs_nobody_high"] >= 0)
    assert list(totals.index[undecided]) == list(totals.index[totals["vs_nobody_note"] == NOT_DISTINGUISHABLE])
    assert undecided.any() and not undecided.all()  # threshold 0.5 is a coin toss here, cost-optimal is not
    group_rows = audit.table[audit.table["group"] != ALL_GROUPS]
    assert (group_rows["vs_nobody_note"] == "").all()


def test_verdict_and_summaries(audit, compas):
    assert (audit.verdict, audit.model_is_useless) == cost_verdict(audit.table, unit="$", volume=1000)
    assert "cost-optimal" in audit.verdict and "a month" in audit.verdict
    summary = audit.data_summary.set_index(["split", "group"])
    for split in ("train", "test"):
        y, _, g = compas[split]
        for name in np.unique(g):
            row = summary.loc[(split, name)]
            assert row["n"] == (g == name).sum()
            assert row["positives"] == y[g == name].sum()
            assert row["positive_share"] == pytest.approx(y[g == name].mean())
        assert summary.loc[(split, ALL_GROUPS), "n"] == len(y)


def test_sensitivity_and_net_benefit(audit):
    grid = audit.sensitivity
    assert grid[["c_fp", "c_fn"]].drop_duplicates().shape[0] == 25 * 25
    assert set(grid["option"]) == {"flag nobody", "p_recid"}
    assert set(grid["best"]) == {"flag nobody", "p_recid"}  # the map has both regions
    mean_fp = (5 * 1588 + 8 * 1052 + 5 * 447) / 3087
    assert audit.mean_prices == pytest.approx((mean_fp, 3.0))
    leader, lo, hi = audit.ratio_range
    assert leader == "p_recid" and lo <= 3.0 / mean_fp <= hi
    assert {"p_recid", "flag everybody", "flag nobody"} == set(audit.net_benefit["option"])
    heat = audit.figures["sensitivity"]
    assert heat.data[0].type == "heatmap"
    assert [t.name for t in heat.data if t.type == "scatter"] == ["your prices"]
    bars = audit.figures["rule_bars"]
    assert {t.name for t in bars.data} == {*RULES, *FAIR_RULES}


# ---------------------------------------------------------------------------------------
# The HTML report


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.urls, self.scripts, self.tags = [], [], [], []
        self._in_script = False
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for key in ("src", "href", "action", "data", "poster"):
            if attrs.get(key):
                self.urls.append(attrs[key])
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)


def _parse(html: str) -> _Collect:
    p = _Collect()
    p.feed(html)
    p.close()
    return p


def test_report_has_every_section(report, audit):
    p = _parse(report)
    for section in REPORT_SECTIONS:
        assert section in p.ids, section
    text = " ".join(p.text)
    assert audit.verdict in text
    assert audit.fingerprint in text and audit.version in text and audit.created in text
    assert "The prices are assumptions" in text
    assert "calibrated" in text and "proxies" in text
    for rule in (*RULES, *FAIR_RULES):
        assert rule in text


def test_report_embeds_plotly_once_and_loads_nothing(report):
    p = _parse(report)
    big = [s for s in p.scripts if len(s) > 1_000_000]
    assert len(big) == 1  # plotly.js, once
    assert report.count("* plotly.js v") == 1
    assert p.scripts.count("") == 0
    assert sum("Plotly.newPlot" in s for s in p.scripts) == 4  # every chart drawn
    assert not [u for u in p.urls if u.lower().lstrip().startswith(("http:", "https:", "//"))]
    assert "link" not in p.tags and "iframe" not in p.tags


def test_report_escapes_user_strings():
    rng = np.random.default_rng(1)
    n = 120
    g = np.where(np.arange(n) % 2 == 0, HOSTILE, "b")
    s = rng.uniform(size=n)
    y = (rng.uniform(size=n) < s).astype(int)
    costs = {HOSTILE: (1.0, 2.0), "b": (1.0, 2.0)}
    a = build_audit(y[:60], s[:60], g[:60], y[60:], s[60:], g[60:], costs=costs, n_resamples=50,
                    model_name="<b>model</b>", data_name='<img src="x" onerror="alert(1)">', unit="<i>")
    html = audit_html(a)
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>model</b>" not in html and "<img" not in html
    assert HOSTILE in " ".join(_parse(html).text)  # escaped, so it reads back as text


# ---------------------------------------------------------------------------------------
# The policy file


@pytest.mark.parametrize("rule", ["cost-optimal", "flag nobody", "fair: demographic parity"])
def test_policy_round_trip(audit, rule):
    text = policy_json(audit, rule)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    back = load_policy(text)
    assert back["rule"] == rule
    assert back["prices"] == audit.costs
    assert back["thresholds"] == audit.cutoffs[rule]
    assert back["unit"] == "$" and back["volume"] == 1000
    assert back["data"]["sha256"] == audit.fingerprint == fingerprint(SAMPLE.read_bytes())
    assert back["data"]["n_rows"] == 6172
    assert back["costlib_version"] == audit.version
    assert back["abstain_bands"] == []
    assert back["verdict"] == audit.verdict


def test_policy_writes_inf_as_text(audit):
    d = policy_dict(audit, "flag nobody")
    assert {r["threshold"] for r in d["thresholds"]} == {"inf"}
    assert load_policy(policy_json(audit, "flag nobody"))["thresholds"]["Other"] == math.inf


def test_policy_abstain_bands_round_trip(audit):
    bands = [{"group": "Other", "low": 0.4, "high": 0.6}]
    assert load_policy(policy_json(audit, abstain_bands=bands))["abstain_bands"] == bands


def test_policy_refuses_unknown_or_nan_rules(audit):
    with pytest.raises(ValueError, match="rule must be one of"):
        policy_dict(audit, "no such rule")
    broken = dataclasses.replace(audit, cutoffs={**audit.cutoffs, "fair: equal accuracy": {
        "African-American": 0.5, "Caucasian": float("nan"), "Other": 0.5}})
    with pytest.raises(ValueError, match="Caucasian"):
        policy_dict(broken, "fair: equal accuracy")


def _edited(audit, **changes) -> str:
    d = policy_dict(audit)
    d.update(changes)
    return json.dumps(d)


@pytest.mark.parametrize("text, words", [
    ("", "not JSON"),
    ("this is not json", "not JSON"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
    ("[1, 2, 3]", "not a costlib policy"),
    ('{"prices": {"a": 1}}', "not a costlib policy"),
    ('{"schema": "something.else", "rule": "x"}', "not a costlib policy"),
])
def test_load_policy_rejects_garbage_and_foreign_json(text, words):
    with pytest.raises(DataError, match=words):
        load_policy(text)


def test_load_policy_rejects_bad_fields(audit):
    with pytest.raises(DataError, match="schema version 99"):
        load_policy(_edited(audit, schema_version=99))
    with pytest.raises(DataError, match="c_fp must be at least 0"):
        load_policy(_edited(audit, prices=[{"group": "Other", "c_fp": -1, "c_fn": 1}]))
    with pytest.raises(DataError, match="must be a number"):
        load_policy(_edited(audit, thresholds=[{"group": "Other", "threshold": "banana"}]))
    with pytest.raises(DataError, match="rule"):
        load_policy(_edited(audit, rule=None))
    with pytest.raises(DataError, match="sha256"):
        load_policy(_edited(audit, data={"name": "x", "sha256": "abc", "n_rows": 1}))
    with pytest.raises(DataError, match="no prices"):
        load_policy(_edited(audit, thresholds=[{"group": "Martian", "threshold": 0.5}]))
