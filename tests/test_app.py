"""Headless AppTest of every page: it runs, a widget moves, the number shown equals costlib's."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

import costlib
from costlib import words
from costlib.costs import ALL_GROUPS, rules_table
from costlib.samples_registry import SAMPLES
from costlib.value import value_sweep, value_table

APP = str(Path(__file__).resolve().parents[1] / "app.py")
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "costlib" / "samples"
PAGES = ["pages/data.py", "pages/costs.py", "pages/value.py", "pages/matrix.py", "pages/instance.py",
         "pages/calibration.py"]
# Which pages draw charts for which sample (the others explain which sample to use instead).
MAIN_CHARTS = {
    "pages/costs.py": {"cost_chart", "rule_bars", "sensitivity_chart", "net_benefit_chart"},
    "pages/value.py": {"value_tau_chart", "value_k_chart"},
    "pages/calibration.py": {"reliability"},
    "pages/matrix.py": {"confusion_chart", "contribution_chart"},
    "pages/instance.py": {"nec_bar", "delta_hist", "nec_curve"},
}
CHARTS = {
    "compas": ["pages/costs.py", "pages/value.py", "pages/calibration.py"],
    "screening": ["pages/costs.py", "pages/value.py", "pages/calibration.py"],
    "tickets": ["pages/matrix.py"],
    "offensive": ["pages/costs.py", "pages/value.py", "pages/calibration.py", "pages/instance.py"],
}


@pytest.fixture(autouse=True)
def _full_errors():
    config.set_option("client.showErrorDetails", "full")
    yield


def open_app(sample: str, page: str | None = None, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = sample
    for key, value in params.items():
        at.query_params[key] = str(value)
    at.run()
    if page:
        at.switch_page(page).run()
    assert_no_exception(at)
    return at


def assert_no_exception(at: AppTest) -> None:
    messages = [e.message for e in at.exception]
    assert not messages, messages


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [x.value for x in at.success] + [x.value for x in at.error]
    parts += [x.value for x in at.info] + [x.value for x in at.warning] + [x.value for x in at.caption]
    return unescape("\n".join(parts))


def unescape(markdown: str) -> str:
    """What a reader sees of Markdown source whose user text was backslash-escaped."""
    return re.sub(r"\\(.)", r"\1", markdown)


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def mk(at: AppTest, role: str) -> str:
    """The mapping widget's key for the file currently uploaded (see pages/data.py)."""
    return f"map_{role}_{at.session_state['_mapping_for'][:12]}"


def chart_keys(at: AppTest) -> set[str]:
    return {c.key for c in at.get("plotly_chart")}


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}: {[m.label for m in at.metric]}")


def sample_frame(key: str) -> pd.DataFrame:
    return pd.read_csv(SAMPLE_DIR / SAMPLES[key].filename)


@pytest.mark.parametrize("sample", list(SAMPLES))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_every_sample(sample, page):
    at = open_app(sample, page)
    if page in CHARTS[sample]:
        assert MAIN_CHARTS[page] <= chart_keys(at)
    else:
        assert not chart_keys(at)
    if page not in CHARTS[sample] and page != "pages/data.py":
        # A page that cannot use this sample says which sample to use instead.
        assert "Try the sample" in texts(at)


def compas_rules(costs):
    df = sample_frame("compas")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    return rules_table((tr["two_year_recid"], tr["p_recid"], tr["race"]),
                       (te["two_year_recid"], te["p_recid"], te["race"]), costs=costs)


def test_costs_page_numbers_equal_costlib_and_move_with_prices():
    at = open_app("compas", "pages/costs.py")
    groups = sorted(sample_frame("compas")["race"].unique())
    before = metric(at, "Cost-optimal cost per 100 cases")
    expected = compas_rules({g: (1.0, 3.0) for g in groups})
    row = expected[(expected["rule"] == "cost-optimal") & (expected["group"] == ALL_GROUPS)].iloc[0]
    assert before == words.money(row["cost_per_100"], "$")

    at.number_input(key="c_fp").set_value(2.0).run()
    assert_no_exception(at)
    after = metric(at, "Cost-optimal cost per 100 cases")
    expected = compas_rules({g: (2.0, 3.0) for g in groups})
    row = expected[(expected["rule"] == "cost-optimal") & (expected["group"] == ALL_GROUPS)].iloc[0]
    assert after == words.money(row["cost_per_100"], "$")
    assert after != before
    sentence, useless = words.cost_verdict(expected, unit="$", volume=10_000)
    assert not useless
    assert sentence in texts(at)
    table = at.dataframe[0].value
    opt = table[(table["rule"] == "cost-optimal") & (table["group"] != ALL_GROUPS)]
    exp_opt = expected[(expected["rule"] == "cost-optimal") & (expected["group"] != ALL_GROUPS)]
    np.testing.assert_allclose(opt["cost_per_100"].to_numpy(), exp_opt["cost_per_100"].to_numpy())
    assert list(opt["threshold"]) == [words.cutoff(t) for t in exp_opt["threshold"]]


def test_costs_page_per_group_prices():
    at = open_app("compas", "pages/costs.py")
    at.toggle(key="per_group").set_value(True).run()
    groups = sorted(sample_frame("compas")["race"].unique())
    at.number_input(key="c_fp_0").set_value(5.0).run()
    at.number_input(key="c_fp_1").set_value(8.0).run()
    assert_no_exception(at)
    costs = {g: (1.0, 3.0) for g in groups}
    costs[groups[0]] = (5.0, 3.0)
    costs[groups[1]] = (8.0, 3.0)
    expected = compas_rules(costs)
    row = expected[(expected["rule"] == "cost-optimal") & (expected["group"] == ALL_GROUPS)].iloc[0]
    assert metric(at, "Cost-optimal cost per 100 cases") == words.money(row["cost_per_100"], "$")


def test_flag_nobody_verdict_when_prices_make_the_model_useless():
    at = open_app("compas", "pages/costs.py", c_fp=20, c_fn=1)
    assert at.number_input(key="c_fp").value == 20
    assert "should not be making these decisions" in texts(at)
    assert len(at.error) == 1


def test_value_page_k_slider_moves_the_value_and_matches_costlib():
    at = open_app("screening", "pages/value.py")
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    model = "score_calibrated"

    tr = df[df["split"] == "train"]

    def expected(k):
        # tau* on the test rows; the best threshold is fitted on train and judged on test
        r = costlib.value_score(te["label"], te[model], k=k)
        tau, _ = costlib.optimal_value(tr["label"], tr[model], k=k)
        best = costlib.value_score(te["label"], te[model], k=k, tau=tau).value
        return r, tau, best

    r, _, best = expected(2.0)
    assert metric(at, "Value per case at τ* = k/(k+1)") == f"{r.value:.4f}"
    assert metric(at, "Value per case at the best threshold") == f"{best:.4f}"
    assert "k = 2," in charts(at)[0]["layout"]["title"]["text"]

    at.select_slider(key="k").set_value(5.0).run()
    assert_no_exception(at)
    r5, _, best5 = expected(5.0)
    assert metric(at, "Value per case at τ* = k/(k+1)") == f"{r5.value:.4f}"
    assert metric(at, "Value per case at the best threshold") == f"{best5:.4f}"
    assert r5.value != r.value
    assert "k = 5," in charts(at)[0]["layout"]["title"]["text"]


def test_value_page_cost_sensitive_rules_side_by_side():
    at = open_app("screening", "pages/value.py")
    at.number_input(key="k_tp").set_value(3.0).run()
    assert_no_exception(at)
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    cs = [t.value for t in at.dataframe if "rule" in t.value.columns][0]
    for rule in ("paper", "bayes"):
        got = cs[(cs["model"] == "score_calibrated") & (cs["rule"] == rule)]["value per case"].iloc[0]
        want = costlib.cost_sensitive_value(te["label"], te["score_calibrated"], k_tp=3.0, k_fp=2.0, k_fn=2.0,
                                            rule=rule).value
        assert got == pytest.approx(want, abs=1e-12)


def test_value_page_before_and_after_calibration_uses_the_validation_split():
    at = open_app("screening", "pages/value.py")
    df = sample_frame("screening")
    val, te = df[df["split"] == "validation"], df[df["split"] == "test"]
    comp = [t.value for t in at.dataframe if "temperature (fitted on validation)" in t.value.columns][0]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    row = comp[comp["model"] == "score_overconfident"].iloc[0]
    assert row["temperature (fitted on validation)"] == pytest.approx(t)
    after = value_table({"m": value_sweep(te["label"], costlib.apply_temperature(te["score_overconfident"], t))},
                        k=2.0)
    assert row["value at tau* after"] == pytest.approx(after["value at tau*"].iloc[0])


def edit_matrix(at: AppTest, row: int, col: str, value: float) -> None:
    at.session_state["cost_matrix"] = {"edited_rows": {row: {col: value}}, "added_rows": [], "deleted_rows": []}
    at.run()


def test_cost_matrix_edit_changes_expected_cost():
    at = open_app("tickets", "pages/matrix.py")
    before = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    df = sample_frame("tickets")
    te = df[df["split"] == "test"]
    names = ["billing", "technical", "security"]
    y = te["true_class"].map(names.index).to_numpy()
    p = te[[f"p_{n}" for n in names]].to_numpy()
    c = np.ones((3, 3)) - np.eye(3)
    c[2, :] = [10, 10, 0]
    d = costlib.min_cost_decisions(p, c)
    want = float(np.mean(c[y, d]))
    got = before[before["policy"] == "cheapest decision"]["expected cost per case"].iloc[0]
    assert got == pytest.approx(want)

    edit_matrix(at, 0, "decide technical", 4.0)
    assert_no_exception(at)
    after = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    c[0, 1] = 4.0
    d = costlib.min_cost_decisions(p, c)
    want2 = float(np.mean(c[y, d]))
    got2 = after[after["policy"] == "cheapest decision"]["expected cost per case"].iloc[0]
    assert got2 == pytest.approx(want2)
    assert got2 != pytest.approx(got)
    assert at.query_params["C"].startswith("0,4,1;")


def test_instance_page_threshold_moves_nec():
    at = open_app("offensive", "pages/instance.py")
    df = sample_frame("offensive")
    te = df[df["split"] == "test"]
    delta = costlib.delta_from_votes(te["n_yes"], te["n_no"])

    def nec(t):
        return costlib.normalized_excess_cost(te["score_lr"] >= t, delta)

    assert f"NEC {nec(0.5):.3f}" in texts(at)
    at.slider(key="threshold").set_value(0.8).run()
    assert_no_exception(at)
    assert "At threshold 0.80" in texts(at)
    table = [t.value for t in at.dataframe if "NEC" in t.value.columns][0]
    got = table[(table["model"] == "score_lr") & (table["group"] == "all")]["NEC"].iloc[0]
    assert got == pytest.approx(nec(0.8))


def test_calibration_page_reports_the_fitted_temperature():
    at = open_app("screening", "pages/calibration.py", model="score_overconfident")
    df = sample_frame("screening")
    val = df[df["split"] == "validation"]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    assert metric(at, "Temperature T") == f"{t:.3f}"
    at.slider(key="bins").set_value(15).run()
    assert_no_exception(at)
    te = df[df["split"] == "test"]
    ece = costlib.expected_calibration_error(te["label"], te["score_overconfident"], n_bins=15)
    assert metric(at, "ECE before") == f"{ece:.4f}"


def test_data_page_switches_sample_and_the_choice_follows_to_other_pages():
    at = open_app("compas", "pages/data.py")
    at.button(key="use_tickets").click().run()
    assert_no_exception(at)
    assert at.query_params["data"] == "tickets"
    at.switch_page("pages/matrix.py").run()
    assert MAIN_CHARTS["pages/matrix.py"] <= chart_keys(at)


def test_upload_csv_maps_columns_and_every_page_uses_it():
    rng = np.random.default_rng(3)
    n = 400
    p = rng.random(n)
    y = np.where(rng.random(n) < p, "yes", "no")
    frame = pd.DataFrame({"outcome": y, "model_a": p.round(4), "segment": rng.choice(["north", "south"], n),
                          "split": rng.choice(["train", "test"], n)})
    at = open_app("compas", "pages/data.py")
    at.file_uploader(key="uploader").upload("preds.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert_no_exception(at)
    at.selectbox(key=mk(at, "positive")).set_value("yes")
    submit = [b for b in at.button if b.label == "Use these columns"][0]
    submit.click().run()
    assert_no_exception(at)
    assert "Loaded “preds.csv”" in texts(at)
    at.switch_page("pages/costs.py").run()
    assert_no_exception(at)
    assert "cost_chart" in chart_keys(at)
    yy = (y == "yes").astype(int)
    tr, te = frame["split"] == "train", frame["split"] == "test"
    expected = rules_table((yy[tr], p.round(4)[tr], frame["segment"][tr]),
                           (yy[te], p.round(4)[te], frame["segment"][te]),
                           costs={"north": (1.0, 3.0), "south": (1.0, 3.0)})
    row = expected[(expected["rule"] == "cost-optimal") & (expected["group"] == ALL_GROUPS)].iloc[0]
    assert metric(at, "Cost-optimal cost per 100 cases") == words.money(row["cost_per_100"], "$")


def test_broken_upload_is_a_sentence_and_the_previous_data_stays():
    at = open_app("compas", "pages/data.py")
    bad = b"label,score\n1,0.3\n0,high\n1,0.9\n0,n/a\n"
    at.file_uploader(key="uploader").upload("broken.csv", bad, "text/csv").run()
    assert_no_exception(at)
    at.multiselect(key=mk(at, "scores")).set_value(["score"])
    submit = [b for b in at.button if b.label == "Use these columns"][0]
    submit.click().run()
    assert_no_exception(at)
    msg = unescape("\n".join(e.value for e in at.error))
    assert "broken.csv" in msg and '"score"' in msg
    assert re.search(r"rows? 2", msg)
    assert "Traceback" not in texts(at)
    at.switch_page("pages/costs.py").run()
    assert_no_exception(at)
    assert "cost_chart" in chart_keys(at)  # COMPAS is still loaded


def test_costs_page_fairness_rows_intervals_and_price_of_fairness():
    at = open_app("compas", "pages/costs.py")
    table = [t.value for t in at.dataframe if "rule" in t.value.columns and "cutoff" not in t.value.columns
             and "price_of_fairness_per_100" in t.value.columns][0]
    rules = list(dict.fromkeys(table["rule"]))
    assert rules[:4] == list(costlib.RULES)
    assert {f"fair: {c}" for c in costlib.audit.FAIRNESS_CRITERIA} <= set(rules)
    totals = table[table["group"] == ALL_GROUPS].set_index("rule")["cost_per_100"]
    pof = table[table["group"] == ALL_GROUPS].set_index("rule")["price_of_fairness_per_100"]
    for rule in rules:
        if rule.startswith("fair"):
            assert pof[rule] == pytest.approx(totals[rule] - totals["cost-optimal"])
        else:  # only a fairness rule has a price of fairness
            assert np.isnan(pof[rule])
    # the fair cutoffs shown are costlib's, fitted on train
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    fc = costlib.audit.fair_thresholds(tr["two_year_recid"], tr["p_recid"], tr["race"],
                                       costs={g: (1.0, 3.0) for g in tr["race"].unique()},
                                       criterion="demographic parity", tolerance=0.05)
    shown = table[table["rule"] == "fair: demographic parity"].set_index("group")["threshold"]
    for g, t in fc.thresholds.items():
        assert shown[g] == words.cutoff(t)
    intervals = table["95% interval"]
    assert intervals.str.match(r"^\[-?[\d.]+, -?[\d.]+\]$").all()
    at.toggle(key="fair").set_value(False).run()
    table = [t.value for t in at.dataframe if "price_of_fairness_per_100" in t.value.columns][0]
    assert not table["rule"].str.startswith("fair").any()


HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "![x](http://example.invalid/x.png)",
           "$x^2$", ":red[boom]"]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_are_escaped_everywhere_they_are_shown(hostile):
    rng = np.random.default_rng(5)
    n = 200
    p = rng.random(n).round(3)
    frame = pd.DataFrame({"label": (rng.random(n) < p).astype(int), hostile: p,
                          "grp": rng.choice([hostile, "plain"], n), "split": rng.choice(["train", "test"], n)})
    at = open_app("compas", "pages/data.py")
    at.file_uploader(key="uploader").upload(f"{hostile}.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.multiselect(key=mk(at, "scores")).set_value([hostile])
    at.selectbox(key=mk(at, "group")).set_value("grp")
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    for page in PAGES[1:3]:
        at.switch_page(page).run()
        assert_no_exception(at)
        shown = [m.value for m in at.markdown] + [x.value for x in at.caption] + [x.value for x in at.success]
        shown += [x.value for x in at.error] + [x.value for x in at.info] + [w.label for w in at.number_input]
        for source in shown:
            # every markup character of the user's text reaches the renderer escaped
            assert hostile not in source
        assert any(unescape(s).find(hostile) >= 0 for s in shown) or page == "pages/value.py"
        for chart in charts(at):
            assert "<script" not in json.dumps(chart["layout"].get("title", ""))


def test_md_escape_round_trips_through_unescape():
    for text in HOSTILE + ["a_b*c", "plain words 3.5", "\\\\"]:
        assert unescape(words.md_escape(text)) == text


def test_policy_download_restores_the_view_in_a_fresh_session():
    from costlib.report import build_audit, policy_json

    df = sample_frame("compas")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    groups = sorted(df["race"].unique())
    costs = {g: (5.0 if g == "African-American" else 8.0, 3.0) for g in groups}
    audit = build_audit(tr["two_year_recid"], tr["p_recid"], tr["race"], te["two_year_recid"], te["p_recid"],
                        te["race"], costs=costs, unit="€", volume=2500, n_resamples=100)
    text = policy_json(audit, "elkan")
    at = open_app("compas", "pages/costs.py")
    at.file_uploader(key="policy_upload").upload("policy.json", text.encode(), "application/json").run()
    assert_no_exception(at)
    assert "Restored the prices and the rule “elkan”" in texts(at)
    assert at.toggle(key="per_group").value is True
    assert [at.number_input(key=f"c_fp_{i}").value for i in range(3)] == [costs[g][0] for g in groups]
    assert at.text_input(key="unit").value == "€"
    assert at.selectbox(key="policy_rule").value == "elkan"
    expected = compas_rules(costs)
    row = expected[(expected["rule"] == "cost-optimal") & (expected["group"] == ALL_GROUPS)].iloc[0]
    assert metric(at, "Cost-optimal cost per 100 cases") == words.money(row["cost_per_100"], "€")


def test_a_foreign_policy_file_is_a_sentence():
    at = open_app("compas", "pages/costs.py")
    at.file_uploader(key="policy_upload").upload("policy.json", b'{"hello": 1}', "application/json").run()
    assert_no_exception(at)
    assert any("policy" in unescape(e.value).lower() for e in at.error)


def test_cost_matrix_says_when_the_model_is_no_better_than_no_model():
    at = open_app("tickets", "pages/matrix.py", abstain_on="false")
    # every decision costs 1 whatever the truth: a model cannot beat deciding the same for everyone
    at.session_state["cost_matrix"] = {
        "edited_rows": {0: {"decide billing": 1.0}, 1: {"decide technical": 1.0},
                        2: {"decide billing": 1.0, "decide technical": 1.0, "decide security": 1.0}},
        "added_rows": [], "deleted_rows": []}
    at.run()
    assert_no_exception(at)
    assert "the model should not decide these cases" in texts(at)
    table = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    assert table["policy"].str.startswith("no model: always decide").any()
    assert not table["policy"].str.contains("hand every case").any()


def test_unit_volume_and_data_choice_survive_page_switches():
    at = open_app("compas", "pages/costs.py")
    at.text_input(key="unit").set_value("€").run()
    at.number_input(key="volume").set_value(2500).run()
    at.switch_page("pages/value.py").run()
    assert_no_exception(at)
    assert at.text_input(key="unit").value == "€"
    assert at.number_input(key="volume").value == 2500
    assert at.query_params["unit"] == "€" and at.query_params["volume"] == "2500"
    assert "a month at 2,500 cases a month" in texts(at)
    at.switch_page("pages/costs.py").run()
    assert at.text_input(key="unit").value == "€"
    assert at.selectbox(key="data").value == "compas"


def test_a_new_upload_gets_fresh_mapping_widgets_seeded_from_its_own_columns():
    at = open_app("compas", "pages/data.py")
    first = pd.DataFrame({"label": [0, 1, 0, 1] * 10, "old_score": np.linspace(0, 1, 40)})
    second = pd.DataFrame({"label": [1, 0] * 20, "new_score": np.linspace(1, 0, 40)})
    at.file_uploader(key="uploader").upload("a.csv", first.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["old_score"]
    at.file_uploader(key="uploader").upload("b.csv", second.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["new_score"]
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    assert list(at.session_state["upload_dataset"].scores) == ["new_score"]


def test_costs_page_states_the_cost_optimal_cutoffs_in_words():
    at = open_app("compas", "pages/costs.py")
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    cut = costlib.cost_optimal_thresholds(tr["two_year_recid"], tr["p_recid"], tr["race"],
                                          costs={g: (1.0, 3.0) for g in tr["race"].unique()})
    sentence = words.cutoffs_sentence("cost-optimal", dict(sorted(cut.items())))
    assert sentence in texts(at)
    assert "flags African-American at a score of" in sentence


def test_value_page_names_the_model_worth_most_at_this_k():
    at = open_app("screening", "pages/value.py", k="8.0")
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    tr = df[df["split"] == "train"]
    best = {m: costlib.value_score(te["label"], te[m], k=8.0,
                                   tau=costlib.optimal_value(tr["label"], tr[m], k=8.0)[0]).value
            for m in ("score_calibrated", "score_overconfident")}
    star = {m: costlib.value_score(te["label"], te[m], k=8.0).value for m in best}
    shown = texts(at)
    assert f"At k = 8, {max(best, key=best.get)} is worth the most" in shown
    if max(star, key=star.get) != max(best, key=best.get):
        assert f"{max(star, key=star.get)} is worth more" in shown


def test_raw_scores_are_refused_by_the_probability_pages_with_a_sentence():
    rng = np.random.default_rng(9)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 100), "margin": rng.normal(0, 3, 100).round(3)})
    at = open_app("compas", "pages/data.py")
    at.file_uploader(key="uploader").upload("raw.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.multiselect(key=mk(at, "scores")).set_value(["margin"])
    at.radio(key=mk(at, "scale")).set_value("raw")
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    for page in ("pages/value.py", "pages/calibration.py"):
        at.switch_page(page).run()
        assert_no_exception(at)
        assert "scores that are probabilities" in texts(at)
        assert not chart_keys(at)
    at.switch_page("pages/costs.py").run()  # cost pages take any real score
    assert "cost_chart" in chart_keys(at)
