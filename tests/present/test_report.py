"""The audit of one decision, its HTML report and the JSON policy file."""

from __future__ import annotations

import dataclasses
import html as _html
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib import threshold_sweep
from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.binary.decision import rule_verdict, sweep_model
from costlib.binary.fairness import FAIRNESS_CRITERIA
from costlib.core import rules as R
from costlib.core.errors import DataError
from costlib.core.rules import VERDICTS
from costlib.loading import fingerprint, safe_csv
from costlib.present import tables, words
from costlib.present.identity import model_identity
from costlib.present.policy import POLICY_SCHEMA_VERSION, load_policy, policy_dict, policy_json
from costlib.present.report import REPORT_SECTIONS, audit_html
from costlib.present.tables import fairness_overview_table, rules_numbers
from costlib.present.words import verdict_head

SAMPLE = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"
COSTS = {"African-American": (5.0, 3.0), "Caucasian": (8.0, 3.0), "Other": (5.0, 3.0)}
FAIR_RULES = tuple(f"fair: {c}" for c in FAIRNESS_CRITERIA)
STANDARD = (R.THRESHOLD_05, R.ELKAN, R.SINGLE, R.COST_OPTIMAL, R.NOBODY, R.EVERYONE)
TOL = 0.05
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def compas():
    df = pd.read_csv(SAMPLE)
    train, test = df[df["split"] == "train"], df[df["split"] == "test"]
    parts = {}
    for name, part in (("train", train), ("test", test)):
        parts[name] = (part["two_year_recid"].to_numpy(), part["p_recid"].to_numpy(), part["race"].to_numpy())
    parts["frame"] = df
    return parts


def _model(df: pd.DataFrame, score: str = "p_recid"):
    return sweep_model(
        df["two_year_recid"],
        df[score],
        df["race"],
        fit=(df["split"] == "train").to_numpy(),
        judge=(df["split"] == "test").to_numpy(),
        name=score,
    )


@pytest.fixture(scope="module")
def audit(compas):
    return build_audit(
        _model(compas["frame"]),
        COSTS,
        unit="$",
        volume=1000,
        n_resamples=200,
        fairness_tolerance=TOL,
        data_name="compas.csv",
        fingerprint=fingerprint(SAMPLE.read_bytes()),
        n_rows=6172,
        columns={"label": "two_year_recid", "group": "race", "split": "split"},
    )


@pytest.fixture(scope="module")
def report(audit):
    return audit_html(audit)


def _rate(sweep, j: int, criterion: str) -> tuple[float, ...]:
    """A criterion's rate(s) at index j of one group's sweep, computed from its counts."""
    tp, fp, tn = sweep.tp[j], sweep.fp[j], sweep.tn[j]
    return {
        "demographic parity": ((tp + fp) / sweep.total,),
        "equal opportunity": (tp / sweep.positives,),
        "equal false positive rate": (fp / sweep.negatives,),
        "equal accuracy": ((tp + tn) / sweep.total,),
        "equalized odds": (tp / sweep.positives, fp / sweep.negatives),
    }[criterion]


def _cost(y, s, g, cut: dict) -> float:
    """All-groups cost per case on these rows at per-group cutoffs, counted on the rows."""
    total = 0.0
    for name in np.unique(g):
        sel = g == name
        flagged = s[sel] >= cut[name]
        total += COSTS[name][0] * np.sum(flagged & (y[sel] == 0)) + COSTS[name][1] * np.sum(~flagged & (y[sel] == 1))
    return total / len(y)


# ---------------------------------------------------------------------------------------
# The audit value


def test_results_have_every_rule_and_group_and_keep_the_overall_apart(audit):
    by_group, overall = audit.results.by_group, audit.results.overall
    rules = list(dict.fromkeys(by_group["rule"]))
    # the standard rules, the fairness rules at the stated tolerance, then those fitted tighter where one may miss it
    assert rules[: len(STANDARD) + len(FAIR_RULES)] == [*STANDARD, *FAIR_RULES]
    assert all(
        r.startswith(tuple(FAIR_RULES)) and ("(fitted within " in r or r.endswith("(fitted exactly)"))
        for r in rules[len(STANDARD) + len(FAIR_RULES) :]
    )
    for _, part in by_group.groupby("rule"):
        assert list(part["group"]) == ["African-American", "Caucasian", "Other"]
    assert list(overall.index) == rules
    for col in ("low", "high", "vs_baseline", "vs_low", "vs_high"):
        assert col in overall.columns


def test_rules_numbers_export_plain_numbers_that_agree_with_the_results(audit):
    overall = audit.results.overall
    table = rules_numbers(audit.results)
    assert list(table["rule"]) == list(overall.index)
    saving = f"saving_per_case_vs_{audit.results.baseline}"
    for col in ("cost_per_case", "cost_low_95", saving, "saving_low_95", "saving_high_95"):
        assert pd.api.types.is_float_dtype(table[col]), col
    np.testing.assert_allclose(table[saving], -overall["vs_baseline"].to_numpy())
    ok = np.isfinite(table["saving_low_95"])
    assert (table["saving_low_95"][ok] <= table[saving][ok] + 1e-12).all()
    assert (table[saving][ok] <= table["saving_high_95"][ok] + 1e-12).all()
    # a spreadsheet reads the negative savings as numbers: no formula guard, no currency text
    text = safe_csv(table).decode()
    assert "'-" not in text and "$" not in text
    assert (table[saving] < 0).any()
    by_group = rules_numbers(audit.results, by_group=True)
    assert len(by_group) == len(audit.results.by_group)
    np.testing.assert_allclose(by_group["cost_per_case"], audit.results.by_group["cost_per_case"])


def test_fairness_overview_says_whether_the_test_gap_holds(audit):
    s = audit.fairness_summary
    view = fairness_overview_table(s, audit.results, "$", tolerance=TOL)
    assert list(view["rule"]) == [R.rule_words(r) for r in s["rule"]]
    within = view[f"within {100 * TOL:.3g}% on test"]
    for shown, feasible, gap, high in zip(within, s["feasible"], s["spread_test"], s["spread_test_high"], strict=True):
        if not (feasible and np.isfinite(gap)):
            assert shown == "–"
        elif high <= TOL + 1e-12:  # offered only when the gap's whole 95% interval is within the tolerance
            assert shown == "yes"
        else:
            assert shown == tables.FAIR_MAY_MISS.format(high=words.percent(high))
            assert shown.endswith(f"{100 * high:.1f}%")  # the gap column's upper end, not its excess over TOL
    assert not view.isna().any().any()
    for shown, x in zip(view["price of fairness per case"], s["price_per_case_test"], strict=True):
        assert shown == ("–" if not np.isfinite(x) else words.money(x, "$"))


def test_overall_costs_equal_the_rows(audit, compas):
    y, s, g = compas["test"]
    for rule, cut in audit.cutoffs.items():
        if any(math.isnan(t) for t in cut.values()):
            continue
        assert audit.results.overall.loc[rule, "cost_per_case"] == pytest.approx(_cost(y, s, g, cut))


@pytest.mark.parametrize("criterion", list(FAIRNESS_CRITERIA))
def test_fair_rule_meets_its_constraint_on_train_and_costs_no_less(audit, compas, criterion):
    y, s, g = compas["train"]
    cut = audit.cutoffs[f"fair: {criterion}"]
    rates = []
    for name in np.unique(g):
        sw = threshold_sweep(y[g == name], s[g == name])
        rates.append(_rate(sw, sw.index_at(cut[name]), criterion))
    rates = np.array(rates)  # (groups, rates)
    spread = float((rates.max(axis=0) - rates.min(axis=0)).max())
    assert spread <= TOL + 1e-9
    assert _cost(y, s, g, cut) >= _cost(y, s, g, audit.cutoffs["cost-optimal"]) - 1e-12
    summary = audit.fairness_summary.set_index("rule").loc[f"fair: {criterion}"]
    assert summary["price_per_case_train"] >= -1e-9
    assert summary["spread_train"] == pytest.approx(spread)


def test_cost_optimal_cutoffs_match_the_table(audit):
    rows = audit.results.by_group[audit.results.by_group["rule"] == "cost-optimal"]
    assert dict(zip(rows["group"], rows["threshold"], strict=True)) == audit.cutoffs["cost-optimal"]
    assert audit.cutoffs["cost-optimal"]["Caucasian"] == math.inf  # c_fp 8: flagging nobody is cheapest


def test_intervals_contain_the_estimates(audit):
    t = audit.results.by_group.dropna(subset=["low", "high"])
    assert len(t) == len(audit.results.by_group)  # every rule is feasible on COMPAS at this tolerance
    assert (t["low"] <= t["cost_per_case"] + 1e-9).all()
    assert (t["cost_per_case"] <= t["high"] + 1e-9).all()
    o = audit.results.overall
    assert (o["vs_low"] <= o["vs_baseline"] + 1e-9).all() and (o["vs_baseline"] <= o["vs_high"] + 1e-9).all()
    base = o.loc[audit.results.baseline, "cost_per_case"]
    assert (o["vs_baseline"] - (o["cost_per_case"] - base)).abs().max() < 1e-9


def test_recommendation_and_summaries(audit, compas):
    rec = audit.recommendation
    y, _, _ = compas["test"]
    # baseline: c_fn 3 per positive (flag nobody) against each group's c_fp per negative (flag everyone)
    n = len(y)
    g = compas["test"][2]
    nobody = 3.0 * y.sum() / n
    everyone = sum(COSTS[x][0] * np.sum((g == x) & (y == 0)) for x in COSTS) / n
    assert rec.baseline == ("flag nobody" if nobody <= everyone else "flag everyone")
    assert rec.baseline_cost == pytest.approx(min(nobody, everyone))
    assert rec.cost == pytest.approx(_cost(*compas["test"], rec.cutoffs))
    assert audit.verdict.headline and "a month" in audit.verdict.headline
    summary = audit.data_summary.set_index(["split", "group"])
    for split in ("train", "test"):
        y, _, g = compas[split]
        for name in np.unique(g):
            row = summary.loc[(split, name)]
            assert row["n"] == (g == name).sum()
            assert row["positives"] == y[g == name].sum()
            assert row["positive_share"] == pytest.approx(y[g == name].mean())
            assert row["mean_score"] == pytest.approx(compas[split][1][g == name].mean())
        assert audit.data_overall.loc[split, "n"] == len(y)


def test_a_group_named_like_a_total_is_just_a_group():
    rng = np.random.default_rng(4)
    n = 400
    g = rng.choice(["all groups", "all", "everyone"], n)
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    split = np.where(np.arange(n) % 2 == 0, "train", "test")
    ms = sweep_model(y, s, g, fit=split == "train", judge=split == "test")
    a = build_audit(ms, (1.0, 2.0), n_resamples=50)
    assert sorted(a.results.by_group["group"].unique()) == ["all", "all groups", "everyone"]
    assert len(a.results.overall) == len(a.rules)
    assert "all groups" in audit_html(a)


def test_sensitivity_and_net_benefit(audit):
    grid = audit.maps.sensitivity
    assert grid[["c_fp", "c_fn"]].drop_duplicates().shape[0] == 25 * 25
    assert set(grid["option"]) == {"flag nobody", "flag everyone", "p_recid"}
    assert {"flag nobody", "p_recid"} <= set(grid["best"])  # the map has both regions
    mean_fp = (5 * 1588 + 8 * 1052 + 5 * 447) / 3087
    assert audit.mean_prices == pytest.approx((mean_fp, 3.0))
    leader, lo, hi = audit.ratio_range
    assert lo <= 3.0 / mean_fp <= hi
    assert {"p_recid", "flag everyone", "flag nobody"} == set(audit.maps.net_benefit["option"])


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
    assert audit.verdict.headline in text
    assert audit.fingerprint in text and audit.version in text and audit.created in text
    assert "The prices are assumptions" in text
    assert "calibrated" in text and "proxies" in text
    for rule in (*STANDARD, *FAIR_RULES):
        assert R.rule_words(rule) in text
    for bad in ("e+0", "inf", "cost_per", "flagged_rate", "None"):  # no raw numbers or snake_case headers
        assert bad not in text, bad


def test_report_embeds_plotly_once_and_loads_nothing(report):
    p = _parse(report)
    big = [s for s in p.scripts if len(s) > 1_000_000]
    assert len(big) == 1  # plotly.js, once
    assert report.count("* plotly.js v") == 1
    assert p.scripts.count("") == 0
    assert sum("Plotly.newPlot" in s for s in p.scripts) == 4  # every chart drawn
    assert not [u for u in p.urls if u.lower().lstrip().startswith(("http:", "https:", "//"))]
    assert "link" not in p.tags and "iframe" not in p.tags


def test_report_marks_the_recommended_rule_and_aligns_numbers_right(report, audit):
    picked = re.findall(r'<tr class="pick">(.*?)</tr>', report)
    assert len(picked) == 1
    cells = re.findall(r'<td class="(num|txt)">(.*?)</td>', picked[0])
    assert cells[0] == ("txt", _html.escape(R.rule_words(audit.recommendation.rule)) + " (recommended)")
    money_cells = [text for kind, text in cells if text.startswith("$")]
    assert money_cells and all(kind == "num" for kind, text in cells if text.startswith("$"))


def test_report_escapes_user_strings():
    rng = np.random.default_rng(1)
    n = 120
    g = np.where(np.arange(n) % 2 == 0, HOSTILE, "b")
    s = rng.uniform(size=n)
    y = (rng.uniform(size=n) < s).astype(int)
    costs = {HOSTILE: (1.0, 2.0), "b": (1.0, 2.0)}
    fit = np.arange(n) < 60
    ms = sweep_model(y, s, g, fit=fit, judge=~fit, name="<b>model</b>")
    a = build_audit(ms, costs, n_resamples=50, data_name='<img src="x" onerror="alert(1)">', unit="<i>")
    html = audit_html(a)
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>model</b>" not in html and "<img" not in html and "<i>" not in html
    assert HOSTILE in " ".join(_parse(html).text)  # escaped, so it reads back as text
    decoder = json.JSONDecoder()
    traces = [decoder.raw_decode(sc, sc.index("[{"))[0] for sc in _parse(html).scripts if "Plotly.newPlot" in sc]
    assert len(traces) == 4
    shown = json.dumps(traces, ensure_ascii=False)
    assert "&lt;b&gt;model" in shown and "&lt;script&gt;" in shown
    assert "<script" not in shown and "<b>" not in shown and "<i>" not in shown


# ---------------------------------------------------------------------------------------
# The policy file


@pytest.mark.parametrize("rule", [None, "cost-optimal", "flag nobody", "flag everyone", "fair: demographic parity"])
def test_policy_round_trip(audit, rule):
    text = policy_json(audit, rule)
    raw = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    back = load_policy(text)
    rule = rule or audit.recommendation.rule
    assert back["rule"] == rule
    assert back["prices"] == audit.costs
    assert back["thresholds"] == audit.cutoffs[rule]
    assert back["unit"] == "$" and back["volume"] == 1000
    assert back["data"]["sha256"] == audit.fingerprint == fingerprint(SAMPLE.read_bytes())
    assert back["data"]["n_rows"] == 6172
    assert back["costlib_version"] == audit.version
    assert back["abstain_bands"] == [] and back["notes"] == []
    # the verdict describes the rule the policy records, which may not be the recommended one
    assert back["verdict"] == rule_verdict(audit.recommendation, rule)[0]
    assert back["verdict"] in VERDICTS and back["headline"].startswith(verdict_head(back["verdict"]))
    if rule == audit.recommendation.rule:
        assert back["headline"] == audit.verdict.headline
    # the contract's summary, its recommended block saying whether this file applies it (review 74)
    summary = audit.summary()
    applied = rule == audit.recommendation.rule
    assert raw["decision"] | {"recommended": summary["recommended"]} == summary
    assert {k: v for k, v in raw["decision"]["recommended"].items() if k not in ("applied", "not_applied")} == (
        summary["recommended"]
    )
    assert (
        raw["decision"]["recommended"]["applied"] is applied
        and ("not_applied" in raw["decision"]["recommended"]) != applied
    )
    assert raw["data"]["label"] == "two_year_recid" and raw["data"]["score"] == audit.recommendation.model
    assert back["review"] == {"reviewer": None, "date": None, "decision": None, "note": None}
    assert back["model_identity"] is None  # recorded only when given
    cost = raw["cost_per_case"]
    assert cost["estimate"] == pytest.approx(audit.results.overall.loc[rule, "cost_per_case"])
    assert cost["low_95"] <= cost["estimate"] <= cost["high_95"] and cost["judged_on"] == "test"


def test_policy_writes_inf_as_text(audit):
    d = policy_dict(audit, "flag nobody")
    assert {r["threshold"] for r in d["thresholds"]} == {"inf"}
    assert load_policy(policy_json(audit, "flag nobody"))["thresholds"]["Other"] == math.inf
    assert load_policy(policy_json(audit, "flag everyone"))["thresholds"]["Other"] == -math.inf


def test_policy_abstain_bands_round_trip(audit):
    bands = [{"group": "Other", "low": 0.4, "high": 0.6}]
    assert load_policy(policy_json(audit, abstain_bands=bands))["abstain_bands"] == bands


def test_policy_refuses_unknown_or_nan_rules(audit):
    with pytest.raises(ValueError, match="rule must be one of"):
        policy_dict(audit, "no such rule")
    results = dataclasses.replace(
        audit.results,
        cutoffs={
            **audit.cutoffs,
            "fair: equal accuracy": {"African-American": 0.5, "Caucasian": float("nan"), "Other": 0.5},
        },
    )
    broken = dataclasses.replace(audit, recommendation=dataclasses.replace(audit.recommendation, results=results))
    with pytest.raises(ValueError, match="Caucasian"):
        policy_dict(broken, "fair: equal accuracy")


def _edited(audit, **changes) -> str:
    d = policy_dict(audit)
    d.update(changes)
    return json.dumps(d)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "not JSON"),
        ("this is not json", "not JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        ("[1, 2, 3]", "not a costlib policy"),
        ('{"prices": {"a": 1}}', "not a costlib policy"),
        ('{"schema": "something.else", "rule": "x"}', "not a costlib policy"),
    ],
)
def test_load_policy_rejects_garbage_and_foreign_json(text, words):
    with pytest.raises(DataError, match=words):
        load_policy(text)


def test_load_policy_rejects_bad_fields(audit):
    with pytest.raises(DataError, match="schema version 99"):
        load_policy(_edited(audit, schema_version=99))
    with pytest.raises(DataError, match="c_fp must be from 0"):
        load_policy(_edited(audit, prices=[{"group": "Other", "c_fp": -1, "c_fn": 1}]))
    with pytest.raises(DataError, match="must be a number"):
        load_policy(_edited(audit, thresholds=[{"group": "Other", "threshold": "banana"}]))
    with pytest.raises(DataError, match="rule"):
        load_policy(_edited(audit, rule=None))
    with pytest.raises(DataError, match="sha256"):
        load_policy(_edited(audit, data={"name": "x", "sha256": "abc", "n_rows": 1}))
    with pytest.raises(DataError, match="no prices"):
        load_policy(_edited(audit, thresholds=[{"group": "Martian", "threshold": 0.5}]))


QUESTIONS = {"answers": [], "ratio_low": 1.0, "ratio_high": 4.0, "ratio_chosen": 2.0, "settled": "precise"}


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: "[" * 100_000, "nested too deeply"),
        (lambda d: {**d, "prices": [{"group": "Other", "c_fp": [1, 2], "c_fn": 1}]}, "must be a number"),
        (lambda d: {**d, "prices": [{"group": ["x"], "c_fp": 1, "c_fn": 1}]}, "group that is not a name"),
        (lambda d: {**d, "abstain_bands": 5}, '"abstain_bands" must be a list'),
        (
            lambda d: json.dumps(d).replace(
                f'"schema_version": {POLICY_SCHEMA_VERSION}', '"schema_version": ' + "9" * 5000
            ),
            "too long",
        ),
        (lambda d: {**d, "prices": [{"group": "Other", "c_fp": 1e12, "c_fn": 1}]}, "must be from 0 to"),
        # round three: a record for a group twice (the last won, silently), a lone surrogate (no page
        # or terminal can write it), a multiplier that underflows the chosen ratio to 0
        (lambda d: {**d, "prices": d["prices"] + d["prices"][:1]}, "a second time"),
        (lambda d: {**d, "thresholds": d["thresholds"] + d["thresholds"][:1]}, "a second time"),
        (lambda d: {**d, "rule": "\ud800"}, "lone surrogate"),
        (lambda d: {**d, "model": "m\ud800"}, "lone surrogate"),
        (lambda d: {**d, "price_questions": {**QUESTIONS, "group_multipliers": {"x": 5e-324}}}, "from 0.001 to 1000"),
    ],
)
def test_hostile_policies_get_a_sentence(audit, mutate, words):
    d = policy_dict(audit)
    out = mutate(d)
    text = out if isinstance(out, str) else json.dumps(out)
    with pytest.raises(DataError, match=words):
        load_policy(text)


def test_load_policy_reads_1e400_as_a_sentence_and_a_bom_as_nothing(audit):
    text = policy_json(audit)
    with pytest.raises(DataError, match="finite"):
        load_policy(text.replace('"c_fp": 5.0', '"c_fp": 1e400', 1))
    assert load_policy(b"\xef\xbb\xbf" + text.encode())["rule"] == audit.recommendation.rule


def test_a_unit_with_a_lone_surrogate_falls_back_with_a_note(audit):
    d = policy_dict(audit)
    saved = load_policy(json.dumps({**d, "unit": "\ud800"}))
    assert saved["unit"] == "$" and any("plain characters" in n for n in saved["notes"])


def test_out_of_range_settings_in_a_policy_fall_back_with_a_note(audit):
    d = policy_dict(audit)
    back = load_policy(json.dumps({**d, "unit": "x" * 500, "volume": 1e308, "fairness_tolerance": 5}))
    assert back["unit"] == "$" and back["volume"] == 10_000 and back["fairness_tolerance"] == 0.05
    assert len(back["notes"]) == 3 and all("instead" in n for n in back["notes"])


def test_a_test_gap_that_cannot_be_measured_is_not_called_out_of_tolerance(audit):
    s = audit.fairness_summary.copy()
    feasible = s.index[s["feasible"]][0]
    s.loc[feasible, "spread_test"] = np.nan  # e.g. a test group without positives for equal opportunity
    s.loc[feasible, "within_tolerance_on_test"] = False
    view = fairness_overview_table(s, audit.results, "$", tolerance=TOL)
    row = view.loc[feasible]
    assert row[f"within {100 * TOL:.3g}% on test"] == "–"
    assert row[tables.GAP_ON_TEST] == "–"


def test_a_cutoff_that_flags_everyone_reads_everyone_in_every_table():
    from costlib.present.tables import rules_by_group_table, rules_overall_table

    rng = np.random.default_rng(3)
    n = 600
    y = rng.random(n) < 0.5
    s = rng.random(n)  # no signal: at these prices the best cutoff flags everyone
    g = rng.choice(["a", "b"], n)
    fit = rng.random(n) < 0.5
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    rec = D.recommend(ms, (1.0, 500.0), n_resamples=0)  # a miss costs 500 false alarms: flag everyone
    overall = rules_overall_table(rec, "$").set_index("rule")
    single = overall.filter(like=R.rule_words(R.SINGLE), axis=0)["cutoff"].iloc[0]
    assert single == "everyone"
    by_group = rules_by_group_table(rec.results, "$", lowest=rec.lowest)
    cells = by_group[by_group["rule"] == R.rule_words(R.SINGLE)]["cutoff"]
    assert set(cells) == {"everyone"}  # not "≥ 0.0123" beside "everyone" in the overall table


@pytest.mark.parametrize("version", [1, 2])
def test_older_policy_versions_still_load(audit, version):
    """Version 2 kept the cost as cost_per_case inside cost_per_case; version 1 had neither the
    decision summary nor the cost. Both hold the prices and cutoffs, which is what is read."""
    new = json.loads(policy_json(audit))
    old = dict(new, schema_version=version)
    if version == 2:
        c = new["cost_per_case"]
        old["cost_per_case"] = {"cost_per_case": c["estimate"], "low": c["low_95"], "high": c["high_95"]}
    else:
        old = {k: v for k, v in old.items() if k not in ("decision", "cost_per_case")}
    back, now = load_policy(json.dumps(old)), load_policy(json.dumps(new))
    assert back["schema_version"] == version
    for key in ("rule", "prices", "thresholds", "unit", "volume"):
        assert back[key] == now[key], key


def test_the_break_even_range_is_exact_and_said_in_the_report(compas, audit, report):
    from costlib.binary.elicit import break_even_range
    from costlib.present.price_words import break_even_words

    sweep = _model(compas["frame"]).fit_pooled
    lo, hi = audit.break_even
    assert (lo, hi) == break_even_range(sweep) and 0 < lo < hi < math.inf
    # brute force on the fitting rows: inside the range the best cutoff beats both choices without a model
    for r in np.geomspace(lo / 4, hi * 4, 41):
        cost = sweep.fp + r * sweep.fn
        best = cost.min()
        beats = best < min(cost[0], cost[-1]) - 1e-9 * max(1.0, best)
        if lo * 1.0001 < r < hi / 1.0001:
            assert beats, r
        elif r < lo / 1.0001 or r > hi * 1.0001:
            assert not beats, r
    sentence = break_even_words(audit.break_even, audit.model_name)
    assert sentence in " ".join(_parse(report).text).replace("\n", " ")


def test_a_policy_ships_what_the_verdict_says_even_when_the_model_should_not_decide(compas):
    from costlib.binary import decision as D_

    for c_fn in (3.5, 4.0, 4.5, 6.0):
        a = build_audit(_model(compas["frame"]), (1.0, c_fn), n_resamples=200)
        policy = json.loads(policy_json(a))
        if a.recommendation.status == D_.WORSE:
            break
    else:
        pytest.fail("no price made the model worse than its baseline on COMPAS")
    assert "not" in a.verdict.headline.lower()
    base = a.recommendation.baseline
    assert policy["rule"] == base and policy["model_is_useless"]
    assert {t["threshold"] for t in policy["thresholds"]} == {"-inf" if base == R.EVERYONE else "inf"}
    assert policy["decision"]["recommended"]["rule"] == R.rule_words(a.recommendation.rule)  # the contract's summary
    assert load_policy(json.dumps(policy))["rule"] == base


def test_a_fairness_rule_met_by_flagging_everyone_says_it_is_equal_only_trivially(compas):
    audit = build_audit(_model(compas["frame"]), (1.0, 3.0), n_resamples=50)
    view = fairness_overview_table(
        audit.fairness_summary, audit.results, "$", tolerance=TOL, lowest=audit.recommendation.lowest
    )
    summary = audit.fairness_summary
    for i, (rule, cell) in enumerate(zip(summary["rule"], view["cutoffs"], strict=True)):
        cut = audit.results.cutoffs[rule]
        everyone = all(t <= audit.recommendation.lowest[g] for g, t in cut.items())
        trivial = everyone and summary["criterion"].iloc[i] != "equal accuracy"
        assert (cell == "everyone (trivially equal)") == trivial, (rule, cell)
        if trivial:  # the rate is equal on any rows it flags all of: its gap is 0, within any tolerance, every resample
            # too, so the cell is the gap alone
            assert summary["spread_test_high"].iloc[i] == 0 and summary["within_tolerance_on_test"].iloc[i]
            assert view.iloc[i, 1] == "0.0%" and view.iloc[i, 2] == "yes", view.iloc[i].tolist()
    assert "everyone (trivially equal)" in set(view["cutoffs"])  # demographic parity here


def test_the_report_says_what_it_judged_and_has_a_place_to_sign(report, audit):
    text = " ".join(_parse(report).text)
    d = audit.data_dictionary
    for words_ in ("What was judged", "label column", "two_year_recid", "positive value", "split column"):
        assert words_ in text
    assert d["score"] == "p_recid" and "score column (the model audited) p_recid" in re.sub(r"\s+", " ", text)
    assert "race" in text and "train rows: “train”" in text
    assert 'id="review"' in report
    from costlib.present.policy_records import REVIEW_FIELDS

    assert set(REVIEW_FIELDS) >= {"reviewer", "date", "decision"}
    for field in REVIEW_FIELDS:  # a row to sign and the policy's name for every field the policy keeps
        assert f"<th scope='row'>{field.capitalize()}</th>" in report
        assert f"review.{field}" in text
    assert "costlib sign POLICY" in text  # and how to sign it


def test_the_report_shows_each_groups_rates_with_intervals(report, audit):
    by_group, gaps = audit.group_rates
    assert list(by_group["group"]) == list(audit.groups)
    text = " ".join(_parse(report).text)
    assert "Rates per group of what is recommended" in text and "largest gap between groups" in text
    assert words.percent(gaps["gap"].iloc[0]) in text


def test_a_policy_records_the_no_model_choice_unless_the_verdict_ships():
    rng = np.random.default_rng(4)
    n = 800
    y, s, g = rng.integers(0, 2, n), rng.random(n), rng.choice(["a", "b"], n)
    a = build_audit(sweep_model(y, s, g), (1, 1), n_resamples=200)  # no signal: never shipped
    rec = a.recommendation
    assert not rec.ship_model and rec.shipped_rule == rec.baseline
    saved = policy_dict(a)
    assert saved["rule"] == rec.baseline and saved["verdict"] != R.SHIP
    from costlib.present.tables import rules_overall_table

    marked = [r for r in rules_overall_table(rec)["rule"] if r.endswith("(recommended)")]
    assert marked == [R.rule_words(rec.baseline) + " (recommended)"]


def test_the_models_identity_is_recorded_in_the_summary_report_and_policy(audit, tmp_path):
    artifact = tmp_path / "model.pkl"
    artifact.write_bytes(b"not unpickled: only hashed")
    identity = model_identity(model_id="churn <b>gbm</b> v3", model_file=artifact)
    named = dataclasses.replace(audit, model_identity=identity)
    assert (
        named.summary()["model_identity"]
        == identity
        == {
            "id": "churn <b>gbm</b> v3",
            "file": "model.pkl",
            "sha256": fingerprint(artifact.read_bytes()),
        }
    )
    text = policy_json(named)
    written = json.loads(text)
    assert list(written).index("model_identity") == list(written).index("model") + 1
    assert load_policy(text)["model_identity"] == identity
    page = audit_html(named)
    assert "churn &lt;b&gt;gbm&lt;/b&gt; v3" in page and "<b>gbm</b>" not in page
    assert identity["sha256"] in page
    bad = {**written, "model_identity": {**identity, "sha256": "xyz"}}
    with pytest.raises(DataError, match="model_identity.sha256"):
        load_policy(json.dumps(bad))


def test_under_a_review_limit_the_report_gives_no_saving_or_price_of_fairness_to_a_rule_over_it(compas):
    """review57, item 2: the report's tables say as the page does that a rule over the review limit
    has no saving and no price of fairness within it (they read as "being fair saves money")."""
    from costlib.present.report import _fairness_tables_text
    from costlib.present.tables import OVER_THE_LIMIT, rules_overall_table

    a = build_audit(_model(compas["frame"]), (1.0, 3.0), unit="$", n_resamples=50, fairness_tolerance=TOL, capacity=0.8)
    over = [D.over_capacity(a.results.overall, r, a.recommendation.capacity) for r in a.fairness_summary["rule"]]
    assert any(over) and not all(over)  # at 80%: the rules that flag everyone are over, two fairness rules within
    table = rules_overall_table(a.recommendation, "$")
    marked = table["rule"].str.endswith("(over your review limit)")
    assert marked.any() and set(table.loc[marked, table.columns[-2]]) == {"–"}
    assert set(table.loc[marked, table.columns[-1]]) == {"–"}
    summary, _ = _fairness_tables_text(a)
    for col in ("price per case (train)", "price per case (test)"):
        for shown, x in zip(summary[col], over, strict=True):
            assert (shown == OVER_THE_LIMIT) == x, (col, shown)
    text = " ".join(_parse(audit_html(a)).text)
    assert OVER_THE_LIMIT in text
