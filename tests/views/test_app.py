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
import costlib.binary.fairness
from costlib import answers, value
from costlib.binary import decision as D
from costlib.loading.samples import SAMPLES
from costlib.present import words
from costlib.value import value_sweep, value_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SAMPLE_DIR = Path(__file__).resolve().parents[2] / "costlib" / "samples"
PAGES = [
    "views/data.py",
    "views/costs.py",
    "views/value.py",
    "views/matrix.py",
    "views/instance.py",
    "views/calibration.py",
]
# Which pages draw charts for which sample (the others explain which sample to use instead).
MAIN_CHARTS = {  # what a first visit draws; ON_REQUEST too with ?details=true (the sections read second)
    "views/costs.py": {"cost_chart"},
    "views/value.py": {"value_tau_chart"},
    "views/calibration.py": {"reliability"},
    "views/matrix.py": set(),
    "views/instance.py": {"nec_bar", "nec_curve"},
}
ON_REQUEST = {
    "views/costs.py": {"sensitivity_chart", "net_benefit_chart"},
    "views/value.py": {"value_k_chart"},
    "views/calibration.py": set(),
    "views/matrix.py": {"confusion_chart", "contribution_chart"},
    "views/instance.py": {"delta_hist"},
}
CHARTS = {
    "compas": ["views/costs.py", "views/value.py", "views/calibration.py"],
    "screening": ["views/costs.py", "views/value.py", "views/calibration.py"],
    "tickets": ["views/matrix.py"],
    "offensive": ["views/costs.py", "views/value.py", "views/calibration.py", "views/instance.py"],
}


@pytest.fixture(autouse=True)
def _full_errors():
    config.set_option("client.showErrorDetails", "full")
    yield


def open_app(sample: str, page: str | None = None, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = sample
    for key, raw in params.items():
        at.query_params[key] = str(raw)
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
    """What a reader sees of Markdown source whose user text was backslash-escaped (the
    invisible word joiners that keep links from being auto-linked read as nothing)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace(words.WORD_JOINER, "")


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def figure(at: AppTest, i: int):
    """Chart i as a Plotly figure, its typed arrays ({"dtype", "bdata"}) decoded to numpy."""
    import base64
    from types import SimpleNamespace

    def decode(x):
        if isinstance(x, dict) and "bdata" in x:
            return np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
        return x

    spec = json.loads(at.get("plotly_chart")[i].proto.spec)
    traces = [SimpleNamespace(**{k: decode(v) for k, v in t.items()}) for t in spec["data"]]
    return SimpleNamespace(data=traces, layout=spec["layout"])


def mk(at: AppTest, role: str) -> str:
    """The mapping widget's key for the file currently uploaded (see views/data.py)."""
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
def test_every_page_shows_its_charts_on_every_sample(sample, page):
    at = open_app(sample, page)
    if page == "views/data.py":
        assert not chart_keys(at)
        return
    assert MAIN_CHARTS[page] <= chart_keys(at)
    assert not ON_REQUEST[page] & chart_keys(at), "the sections read second are drawn on request"
    if page == "views/matrix.py":  # its answer is a table: every policy, with and without the model
        policies = [d.value for d in at.dataframe if "uses the model" in d.value.columns]
        assert policies and set(policies[0]["uses the model"]) == {"yes", "no"}
    fallback = page not in CHARTS[sample]
    # a page that cannot use this sample draws on one that fits, says so and offers the switch
    assert ("so the charts below use the built-in sample" in texts(at)) == fallback
    assert any(b.key == "fallback_switch" for b in at.button) == fallback


@pytest.mark.parametrize("page", [p for p in PAGES if p != "views/data.py"])
def test_the_sections_read_second_come_on_request_for_every_page(page):
    """One setting for every page (?details=true, off on a first visit): the toggle draws a
    page's sections read second and writes the choice into the link, and a link with it opens
    the page with them."""
    sample = {"views/matrix.py": "tickets", "views/instance.py": "offensive"}.get(page, "compas")
    at = open_app(sample, page)
    assert not ON_REQUEST[page] & chart_keys(at)
    if ON_REQUEST[page]:
        at.toggle(key="details").set_value(True).run()
        assert_no_exception(at)
        assert ON_REQUEST[page] <= chart_keys(at) and at.query_params["details"] == "true"
    linked = open_app(sample, page, details="true")
    assert (MAIN_CHARTS[page] | ON_REQUEST[page]) <= chart_keys(linked)


def test_the_fallback_button_switches_the_whole_app():
    at = open_app("compas", "views/matrix.py")
    at.button(key="fallback_switch").click().run()
    assert_no_exception(at)
    assert at.query_params["data"] == "tickets"
    assert "so the charts below use" not in texts(at)


def compas_model(split: bool = True):
    df = sample_frame("compas")
    fit = (df["split"] == "train").to_numpy() if split else None
    judge = (df["split"] == "test").to_numpy() if split else None
    return df, D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge, name="p_recid")


def verdict_box(at: AppTest) -> str:
    boxes = [x.value for x in (*at.success, *at.warning, *at.error) if "per case" in unescape(x.value)]
    assert len(boxes) == 1, boxes  # exactly one answer on the page
    return unescape(boxes[0])


def test_costs_page_moving_c_fn_moves_the_answer_and_it_equals_costlib():
    at = open_app("compas", "views/costs.py")
    df, ms = compas_model()
    tr = df[df["split"] == "train"]

    def expected(c_fn):
        t, _ = costlib.optimal_threshold(tr["two_year_recid"], tr["p_recid"], c_fp=1.0, c_fn=c_fn)
        rec = D.recommend(ms, (1.0, c_fn), n_resamples=1000)
        assert set(rec.cutoffs.values()) == {t}  # one cutoff for everyone: the optimum on the fit rows
        return t, rec, words.recommendation_verdict(rec, unit="$", volume=10_000)

    t1, rec1, v1 = expected(3.0)
    assert verdict_box(at) == v1.headline
    assert metric(at, "Cost per case" if rec1.ship_model else "The model's best cutoff") == words.money(rec1.cost, "$")
    curve1 = np.asarray(figure(at, 0).data[0].y, dtype=float)
    at.select_slider(key="s_c_fn").set_value(1.0).run()
    assert_no_exception(at)
    t2, rec2, v2 = expected(1.0)
    assert t2 != t1 and v2.headline != v1.headline
    assert verdict_box(at) == v2.headline
    assert f"at least {t2:.4g}" in v2.headline
    assert metric(at, "Cost per case" if rec2.ship_model else "The model's best cutoff") == words.money(rec2.cost, "$")
    assert not np.array_equal(np.asarray(figure(at, 0).data[0].y, dtype=float), curve1)
    assert at.query_params["c_fn"] == "1"


def test_a_price_move_writes_only_the_moved_price_to_the_link(monkeypatch):
    """Every write of a query parameter is a message the browser acts on (it rewrites the
    address and tells the page's host), whether or not the value changed: a run rewrites only
    what changed."""
    from streamlit.runtime.state.query_params import QueryParams

    at = open_app("compas", "views/costs.py")
    sent = []
    send = QueryParams._send_query_param_msg
    monkeypatch.setattr(QueryParams, "_send_query_param_msg", lambda self: (sent.append(dict(self)), send(self)))
    at.select_slider(key="s_c_fn").set_value(5.0).run()
    assert_no_exception(at)
    assert len(sent) == 1, sent
    assert sent[0]["c_fn"] == "5" and at.query_params["c_fn"] == "5"


def test_exact_prices_typed_in_the_popover_reach_the_slider_and_the_link():
    at = open_app("compas", "views/costs.py")
    at.number_input(key="n_c_fp").set_value(1.7).run()
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.7
    assert at.query_params["c_fp"] == "1.7"
    _, ms = compas_model()
    rec = D.recommend(ms, (1.7, 3.0), n_resamples=1000)
    assert metric(at, "Cost per case") == words.money(rec.cost, "$")


def test_offensive_verdict_is_measured_against_flag_everyone():
    at = open_app("offensive", "views/costs.py")
    box = verdict_box(at)
    assert "against flagging everyone" in box and "flagging nobody" not in box


def test_the_picked_model_keeps_its_cost_curve_when_the_prices_move():
    """The cost chart is made before the inputs are drawn, from what they hold (views/costs.py,
    `answer_ahead`): a model picked in "Curve of the model" and the x axis of cases flagged stay
    on the chart through a price move, and the curve is that model's at the new prices."""
    at = open_app("screening", "views/costs.py")
    models = list(at.selectbox(key="curve_model").options)
    recommended = at.selectbox(key="curve_model").value
    other = next(m for m in models if m != recommended)
    at.selectbox(key="curve_model").set_value(other).run()
    at.toggle(key="cost_x_flagged").set_value(True).run()
    at.select_slider(key="s_c_fn").set_value(7.5).run()
    assert_no_exception(at)
    title = figure(at, 0).layout["title"]["text"]
    assert other in title and "cases flagged a month" in title, title
    at.toggle(key="cost_x_flagged").set_value(False).run()
    at.select_slider(key="s_c_fn").set_value(5.0).run()
    title = figure(at, 0).layout["title"]["text"]
    assert other in title and "against the cutoff" in title, title
    sample = SAMPLES["screening"]
    frame = sample_frame("screening")
    fit, judge = (frame[sample.mapping.split] == v for v in ("train", "test"))
    ms = D.sweep_model(
        frame[sample.mapping.label], frame[other], frame[sample.mapping.group], fit=fit, judge=judge, name=other
    )
    curves = D.cost_curves(ms, D.prices_for(ms.groups, (1.0, 5.0)), max_points=costlib.present.figures.MAX_POINTS)
    everyone = curves[curves["line"].isna() & np.isfinite(curves["threshold"])]
    drawn = figure(at, 0).data[0]
    assert drawn.name == "everyone, one cutoff"
    assert np.isin(np.asarray(drawn.y, dtype=float), everyone["cost_per_case"].to_numpy()).all()


def test_costs_page_per_group_prices():
    at = open_app("compas", "views/costs.py")
    at.toggle(key="per_group").set_value(True).run()
    groups = sorted(sample_frame("compas")["race"].unique())
    at.select_slider(key="s_c_fp_0").set_value(5.0).run()
    at.select_slider(key="s_c_fp_1").set_value(7.5).run()
    assert_no_exception(at)
    costs = {g: (1.0, 3.0) for g in groups}
    costs[groups[0]] = (5.0, 3.0)
    costs[groups[1]] = (7.5, 3.0)
    _, ms = compas_model()
    rec = D.recommend(ms, costs, n_resamples=1000)
    assert metric(at, "Cost per case") == words.money(rec.cost, "$")
    assert verdict_box(at) == words.recommendation_verdict(rec, unit="$", volume=10_000).headline
    # by brute force on the rows: the best one cutoff on train at each group's prices, priced on test
    df = sample_frame("compas")
    c_fp, c_fn = (
        df["race"].map({g: c[0] for g, c in costs.items()}),
        df["race"].map({g: c[1] for g, c in costs.items()}),
    )

    def cost(rows, t):
        flagged, y = rows["p_recid"] >= t, rows["two_year_recid"] == 1
        return float((c_fp[rows.index] * (flagged & ~y) + c_fn[rows.index] * (~flagged & y)).sum() / len(rows))

    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    candidates = sorted(set(tr["p_recid"]) | {np.inf}, reverse=True)
    best = min(candidates, key=lambda t: (round(cost(tr, t), 12), -t))  # ties to the larger cutoff
    assert rec.rule == "best single cutoff" and set(rec.cutoffs.values()) == {best}
    assert metric(at, "Cost per case") == words.money(cost(te, best), "$")


def test_when_the_model_adds_nothing_the_page_says_so_once():
    at = open_app("compas", "views/costs.py", c_fp=20, c_fn=1)
    assert at.select_slider(key="s_c_fp").value == 20
    box = verdict_box(at)
    assert box.startswith("Do not let the model decide: its cheapest cutoff") and "flags nobody" in box
    assert len(at.error) == 1


def test_a_price_from_a_link_is_bounded_like_its_slider():
    at = open_app("compas", "views/costs.py", c_fp="1e308", c_fn="nan")
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.0 and at.select_slider(key="s_c_fn").value == 3.0
    notes = "\n".join(unescape(w.value) for w in at.warning)
    assert "a price must be a number from 0 to 1,000,000,000: got 1e308" in notes


def test_a_typed_price_goes_into_the_link_whole():
    """A link reproduces the view: a price with more than six digits is not rounded on its way
    into the URL (it was written with %g: 1234567 became 1.23457e+06)."""
    at = open_app("compas", "views/costs.py", c_fp="1234567", c_fn="0.125")
    assert at.query_params["c_fp"] == "1234567" and at.query_params["c_fn"] == "0.125"
    at.number_input(key="n_c_fn").set_value(2.0000001).run()
    assert_no_exception(at)
    assert at.query_params["c_fn"] == "2.0000001"


def test_a_unit_k_or_resamples_from_a_link_that_cannot_be_used_falls_back_with_a_note():
    at = open_app("compas", "views/costs.py", unit="x" * 500, resamples="12")
    assert_no_exception(at)
    notes = "\n".join(unescape(w.value) for w in at.warning)
    assert "The link's unit “" + "x" * 40 + "…” is not one this page can use, so $ is used instead." in notes
    assert "The link's resamples “12” is not one this page can use, so 1000 is used instead." in notes
    at = open_app("compas", "views/value.py", k="55")
    assert_no_exception(at)
    assert "The link's k “55” is not one this page can use" in "\n".join(unescape(w.value) for w in at.warning)


def test_no_page_names_two_different_best_rules():
    """Every page has one answer box; no other text on it calls a different rule the best."""
    for sample, page in (
        ("compas", "views/costs.py"),
        ("screening", "views/costs.py"),
        ("screening", "views/value.py"),
        ("tickets", "views/matrix.py"),
        ("offensive", "views/instance.py"),
    ):
        at = open_app(sample, page)
        boxes = [x for x in (*at.success, *at.warning, *at.error) if "per case" in x.value or "NEC" in x.value]
        assert len(boxes) == 1, (sample, page, [b.value for b in boxes])
        others = texts(at).replace(unescape(boxes[0].value), "")
        for phrase in ("Cheapest rule", "is the best", "best rule", "worth the most"):
            assert phrase not in others, (sample, page, phrase)


def test_value_page_k_follows_the_prices_and_its_slider_moves_the_answer():
    at = open_app("screening", "views/value.py", c_fp=1, c_fn=5)
    df = sample_frame("screening")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    models = ("score_calibrated", "score_overconfident")
    # k from the prices: a wrong answer costs (1 + 5) / 2 = 3 and a right one earns 1, so k = 3
    assert at.select_slider(key="k").value == 3.0
    assert "k = 3 follows from your prices" in texts(at)

    def expected(k):
        sweeps = {m: value_sweep(te["label"], te[m]) for m in models}
        fits = {m: value_sweep(tr["label"], tr[m]) for m in models}
        rec = value.recommend_value(sweeps, k=k, fit_sweeps=fits)
        tau, _ = costlib.optimal_value(tr["label"], tr[rec.model], k=k)
        assert rec.tau == tau and rec.value == pytest.approx(
            costlib.value_score(te["label"], te[rec.model], k=k, tau=tau).value
        )
        return rec

    rec = expected(3.0)
    assert metric(at, "Worth per case") == words.money(rec.value, "$")
    at.select_slider(key="k").set_value(8.0).run()
    assert_no_exception(at)
    rec8 = expected(8.0)
    assert metric(at, "Worth per case") == words.money(rec8.value, "$")
    assert at.query_params["k"] == "8"
    assert "k = 8" in charts(at)[0]["layout"]["title"]["text"]
    at.button(key="k_reset").click().run()
    assert at.select_slider(key="k").value == 3.0


def test_value_page_baseline_is_the_better_of_handing_over_and_answering_everything():
    at = open_app("screening", "views/value.py", c_fp=1, c_fn=1)  # k = 1
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    # answering everything with the recommended model: value 2 * accuracy - 1 (k = 1); handing over: 0
    box = verdict_box(at)
    assert ("letting the model answer every case" in box) or ("handing every case to a person" in box)
    acc = {m: np.mean((te[m] >= 0.5) == te["label"]) for m in ("score_calibrated", "score_overconfident")}
    # the sentence prices the better of the two: answering all (2 * accuracy - 1 with k = 1) or 0
    assert any(f"against {words.money(max(2 * a - 1, 0.0), '$')} per case" in box for a in acc.values()), box


def test_value_page_acceptance_rules_use_the_price_book():
    at = open_app("screening", "views/value.py", c_fp=2, c_fn=4, details="true")
    at.number_input(key="k_tp").set_value(3.0).run()
    assert_no_exception(at)
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    cs = [t.value for t in at.dataframe if "acceptance rule" in t.value.columns][0]
    for rule, shown in value.ACCEPTANCE_WORDS.items():
        got = cs[(cs["model"] == "score_calibrated") & (cs["acceptance rule"] == shown)]["value per case"].iloc[0]
        want = costlib.cost_sensitive_value(
            te["label"], te["score_calibrated"], k_tp=3.0, k_fp=2.0, k_fn=4.0, rule=rule
        ).value
        assert got == pytest.approx(want, abs=1e-12)


def test_value_page_per_outcome_prices_say_the_worth_they_are_counted_in():
    """A right answer worth 0 cannot be the unit of the per-outcome prices: they are counted in
    units of 1, and the sentence above them says so (it said "worth $0.00" beside k_fp = c_fp / 1)."""
    for gain, unit_worth in (("2", 2.0), ("0", 1.0)):
        at = open_app("screening", "views/value.py", c_fp=3, c_fn=5, gain=gain, details="true")
        assert at.number_input(key="k_fp").value == pytest.approx(3.0 / unit_worth)
        assert at.number_input(key="k_fn").value == pytest.approx(5.0 / unit_worth)
        assert f"with a right answer worth {words.money(unit_worth, '$')}, that is k_fp" in texts(at)


def test_value_page_before_and_after_calibration_uses_the_validation_split():
    at = open_app("screening", "views/value.py", details="true")
    df = sample_frame("screening")
    val, te = df[df["split"] == "validation"], df[df["split"] == "test"]
    comp = [t.value for t in at.dataframe if "temperature (fitted on the validation rows)" in t.value.columns][0]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    row = comp[comp["model"] == "score_overconfident"].iloc[0]
    assert row["temperature (fitted on the validation rows)"] == pytest.approx(t)
    after = value_table({"m": value_sweep(te["label"], costlib.apply_temperature(te["score_overconfident"], t))}, k=2.0)
    assert row["worth at τ* after"] == pytest.approx(after["value at tau*"].iloc[0])  # a right answer is worth $1


def edit_matrix(at: AppTest, row: int, col: str, value: float) -> None:
    at.session_state["cost_matrix"] = {"edited_rows": {row: {col: value}}, "added_rows": [], "deleted_rows": []}
    at.run()


def _matrix_cost(at: AppTest, policy: str) -> str:
    table = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    return table[table["policy"] == policy]["cost per case"].iloc[0]


def test_cost_matrix_edit_changes_expected_cost():
    at = open_app("tickets", "views/matrix.py", abstain_on="false")
    df = sample_frame("tickets")
    te = df[df["split"] == "test"]
    names = ["billing", "technical", "security"]
    y = te["true_class"].map(names.index).to_numpy()
    p = te[[f"p_{n}" for n in names]].to_numpy()
    c = np.ones((3, 3)) - np.eye(3)
    c[2, :] = [10, 10, 0]
    d = costlib.min_cost_decisions(p, c)
    got = _matrix_cost(at, "cheapest decision")
    assert got == words.money(float(np.mean(c[y, d])), "$")

    edit_matrix(at, 0, "decide technical", 4.0)
    assert_no_exception(at)
    c[0, 1] = 4.0
    d = costlib.min_cost_decisions(p, c)
    got2 = _matrix_cost(at, "cheapest decision")
    assert got2 == words.money(float(np.mean(c[y, d])), "$") and got2 != got
    assert at.query_params["C"].startswith("0,4,1;")


def test_instance_page_recommends_the_nec_optimal_cutoff_fitted_on_train():
    at = open_app("offensive", "views/instance.py")
    df = sample_frame("offensive")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    d_tr = costlib.delta_from_votes(tr["n_yes"], tr["n_no"])
    d_te = costlib.delta_from_votes(te["n_yes"], te["n_no"])
    best = {}
    for m in ("score_lr", "score_nb"):
        t, nec = costlib.optimal_threshold(d_tr > 0, tr[m], c_fp=1, c_fn=1, sample_weight=np.abs(d_tr))
        best[m] = (nec, t)
    model = min(best, key=lambda m: best[m][0])
    t = best[model][1]
    nec = costlib.normalized_excess_cost(te[model] >= t, d_te)
    assert f"at least {t:.4g}" in verdict_box_nec(at) and f"NEC {nec:.3f}" in verdict_box_nec(at)
    at.slider(key="threshold").set_value(0.8).run()
    assert_no_exception(at)
    overall = [t.value for t in at.table if "NEC" in t.value.columns][0]
    overall = overall.set_index(overall["option"].map(unescape))  # its cells are Markdown, escaped
    # the table on screen shows what costlib gives, to the digit it shows
    assert overall.loc["score_lr", "NEC"] == f"{costlib.normalized_excess_cost(te['score_lr'] >= 0.8, d_te):.4f}"
    assert f"at least {t:.4g}" in verdict_box_nec(at)  # the answer does not move with the explored cutoff


def verdict_box_nec(at: AppTest) -> str:
    boxes = [unescape(x.value) for x in (*at.success, *at.warning, *at.error) if "NEC" in x.value]
    assert len(boxes) == 1
    return boxes[0]


def test_calibration_page_reports_the_fitted_temperature():
    at = open_app("screening", "views/calibration.py", model="score_overconfident")
    df = sample_frame("screening")
    val = df[df["split"] == "validation"]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    assert metric(at, "Temperature T") == f"{t:.3f}"
    at.slider(key="bins").set_value(15).run()
    assert_no_exception(at)
    te = df[df["split"] == "test"]
    ece = costlib.expected_calibration_error(te["label"], te["score_overconfident"], n_bins=15)
    assert metric(at, "ECE before") == f"{ece:.4f}"


@pytest.mark.parametrize("sample", ["compas", "screening", "offensive"])
def test_calibration_page_at_every_bins_value(sample):
    from sklearn.calibration import calibration_curve

    at = open_app(sample, "views/calibration.py")
    df = sample_frame(sample)
    te = df[df["split"] == "test"]
    label, score = {
        "compas": ("two_year_recid", "p_recid"),
        "screening": ("label", "score_calibrated"),
        "offensive": ("label", "score_lr"),
    }[sample]
    for bins in range(5, 31):
        at.slider(key="bins").set_value(bins).run()
        assert_no_exception(at)
        observed, predicted = calibration_curve(te[label], te[score], n_bins=bins)
        trace = figure(at, 0).data[1]  # the model before rescaling (trace 0 is the diagonal)
        np.testing.assert_allclose(np.asarray(trace.x, dtype=float), predicted)
        np.testing.assert_allclose(np.asarray(trace.y, dtype=float), observed)


def test_data_page_switches_sample_and_the_choice_follows_to_other_pages():
    at = open_app("compas", "views/data.py")
    at.button(key="use_tickets").click().run()
    assert_no_exception(at)
    assert at.query_params["data"] == "tickets"
    at.switch_page("views/matrix.py").run()
    assert [t for t in at.dataframe if "cost per case" in t.value.columns]  # its answer, on the tickets
    assert "so the charts below use" not in texts(at)


def test_upload_csv_maps_columns_and_every_page_uses_it():
    rng = np.random.default_rng(3)
    n = 400
    p = rng.random(n)
    y = np.where(rng.random(n) < p, "yes", "no")
    frame = pd.DataFrame(
        {
            "outcome": y,
            "model_a": p.round(4),
            "segment": rng.choice(["north", "south"], n),
            "split": rng.choice(["train", "test"], n),
        }
    )
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("preds.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert_no_exception(at)
    at.selectbox(key=mk(at, "positive")).set_value("yes")
    submit = [b for b in at.button if b.label == "Use these columns"][0]
    submit.click().run()
    assert_no_exception(at)
    assert "Loaded “preds.csv”" in texts(at)
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert "cost_chart" in chart_keys(at)
    yy = (y == "yes").astype(int)
    tr = (frame["split"] == "train").to_numpy()
    ms = D.sweep_model(yy, p.round(4), frame["segment"], fit=tr, judge=~tr)
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=1000)
    assert metric(at, "Cost per case") == words.money(rec.cost, "$")
    assert verdict_box(at) == words.recommendation_verdict(rec, unit="$", volume=10_000).headline


def test_broken_upload_is_a_sentence_and_the_previous_data_stays():
    at = open_app("compas", "views/data.py")
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
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert "cost_chart" in chart_keys(at)  # COMPAS is still loaded


def test_costs_page_fairness_rules_equal_costlib_and_can_be_switched_off():
    at = open_app("compas", "views/costs.py", details="true")
    table = [t.value for t in at.dataframe if "price of fairness per case" in t.value.columns][0]
    assert list(table["rule"]) == [f"fair: {c}" for c in costlib.binary.fairness.FAIRNESS_CRITERIA]
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    costs = {g: (1.0, 3.0) for g in tr["race"].unique()}
    fc = costlib.binary.fairness.fair_thresholds(
        tr["two_year_recid"], tr["p_recid"], tr["race"], costs=costs, criterion="equal opportunity", tolerance=0.05
    )
    shown = table.set_index("rule").loc["fair: equal opportunity", "cutoffs"]
    assert shown == "one per group (table below)"  # a list of groups does not fit the cell
    per_group = [t.value for t in at.dataframe if "Caucasian" in t.value.columns][0].set_index("rule")
    lowest = tr.groupby("race")["p_recid"].min().to_dict()
    for g, t in fc.thresholds.items():
        want = words.cutoffs_short({g: t}, grouped=False, lowest=lowest)
        assert per_group.loc["fair: equal opportunity", g] == want, g
    # its price: the fair rule's test cost minus the best cutoffs per group's, counted on the rows
    te = df[df["split"] == "test"]
    opt = costlib.cost_optimal_thresholds(tr["two_year_recid"], tr["p_recid"], tr["race"], costs=costs)

    def cost(cut):
        t = te["race"].map(cut).to_numpy()
        flagged = te["p_recid"].to_numpy() >= t
        y = te["two_year_recid"].to_numpy()
        return (np.sum(flagged & (y == 0)) + 3 * np.sum(~flagged & (y == 1))) / len(te)

    price = table.set_index("rule").loc["fair: equal opportunity", "price of fairness per case"]
    assert price == words.money(cost(fc.thresholds) - cost(opt), "$")
    at.toggle(key="fair").set_value(False).run()
    assert not [t for t in at.dataframe if "price of fairness per case" in t.value.columns]


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "![x](http://example.invalid/x.png)",
    "$x^2$",
    ":red[boom]",
    '<a href="https://example.org/x">Click to verify</a>',
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_are_escaped_everywhere_they_are_shown(hostile):
    rng = np.random.default_rng(5)
    n = 200
    p = rng.random(n).round(3)
    frame = pd.DataFrame(
        {
            "label": (rng.random(n) < p).astype(int),
            hostile: p,
            "grp": rng.choice([hostile, "plain"], n),
            "split": rng.choice(["train", "test"], n),
            "n_yes": rng.integers(0, 4, n),  # votes: the Instance page's tables name the model and groups
            "n_no": rng.integers(0, 4, n),
        }
    )
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload(f"{hostile}.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.multiselect(key=mk(at, "scores")).set_value([hostile])
    at.selectbox(key=mk(at, "group")).set_value("grp")
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    tables_seen = []
    for page in PAGES[1:]:
        at.switch_page(page).run()
        assert_no_exception(at)
        shown = [m.value for m in at.markdown] + [x.value for x in at.caption] + [x.value for x in at.success]
        shown += [x.value for x in at.error] + [x.value for x in at.info] + [x.value for x in at.warning]
        for source in shown:
            # every markup character of the user's text reaches the renderer escaped
            assert hostile not in source
        for table in at.table:  # st.table renders its cells as Markdown too
            cells = [*map(str, table.value.columns), *table.value.astype(str).to_numpy().ravel().tolist()]
            assert not [c for c in cells if hostile in c], page
            tables_seen.append(page)
        for chart in charts(at):
            text = json.dumps(chart, ensure_ascii=False)
            assert "<script" not in text and "<img" not in text and "<a " not in text, page
    assert "views/instance.py" in tables_seen  # its tables show the user's model and group names


def test_md_escape_round_trips_through_unescape():
    for text in HOSTILE + ["a_b*c", "plain words 3.5", "\\\\"]:
        assert unescape(words.md_escape(text)) == text


def test_a_policy_without_a_unit_keeps_the_persons_unit_and_its_tolerance_is_restored():
    from costlib.answers.audit import build_audit
    from costlib.present.policy import policy_dict

    df, ms = compas_model()
    audit = build_audit(ms, (1.0, 3.0), unit="€", n_resamples=50, fairness_tolerance=0.12)
    saved = {k: v for k, v in policy_dict(audit).items() if k != "unit"}
    at = open_app("compas", "views/costs.py")
    at.text_input(key="unit").input("minutes").run()
    at.file_uploader(key="policy_upload").upload("p.json", json.dumps(saved).encode(), "application/json").run()
    assert_no_exception(at)
    assert at.text_input(key="unit").value == "minutes"  # not replaced by nothing
    said = texts(at)
    assert "Restored the prices and the fairness tolerance of the policy" in said, said
    assert float(at.session_state["_keep_fair_tol"]) == 0.12


def test_policy_download_restores_the_prices_in_a_fresh_session():
    from costlib.answers.audit import build_audit
    from costlib.present.policy import policy_json

    df, ms = compas_model()
    groups = sorted(df["race"].unique())
    costs = {g: (5.0 if g == "African-American" else 7.5, 3.0) for g in groups}
    audit = build_audit(ms, costs, unit="€", volume=2500, n_resamples=100)
    at = open_app("compas", "views/costs.py")
    at.file_uploader(key="policy_upload").upload("policy.json", policy_json(audit).encode(), "application/json").run()
    assert_no_exception(at)
    said = texts(at)
    assert "Restored the prices, the unit, the cases a month and the fairness tolerance of the policy" in said, said
    assert at.toggle(key="per_group").value is True
    assert [at.select_slider(key=f"s_c_fp_{i}").value for i in range(3)] == [costs[g][0] for g in groups]
    assert at.text_input(key="unit").value == "€"
    rec = D.recommend(ms, costs, n_resamples=1000)
    assert metric(at, "Cost per case") == words.money(rec.cost, "€")


def test_a_foreign_or_hostile_policy_file_is_a_sentence():
    for bad in (
        b'{"hello": 1}',
        b"[" * 100_000,
        b'\xef\xbb\xbf{"schema": "costlib.policy", "schema_version": ' + b"9" * 5000 + b"}",
    ):
        at = open_app("compas", "views/costs.py")
        at.file_uploader(key="policy_upload").upload("policy.json", bad, "application/json").run()
        assert_no_exception(at)
        assert any("policy" in unescape(e.value).lower() for e in at.error)


def test_cost_matrix_says_when_the_model_is_no_better_than_no_model():
    at = open_app("tickets", "views/matrix.py", abstain_on="false")
    # every decision costs 1 whatever the truth: a model cannot beat deciding the same for everyone
    at.session_state["cost_matrix"] = {
        "edited_rows": {
            0: {"decide billing": 1.0},
            1: {"decide technical": 1.0},
            2: {"decide billing": 1.0, "decide technical": 1.0, "decide security": 1.0},
        },
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert_no_exception(at)
    assert "Do not let the model decide: at these prices its best policy" in texts(at)
    table = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    assert table["policy"].str.startswith("always decide").any()
    assert not table["policy"].str.contains("hand every case").any()


def test_unit_volume_and_data_choice_survive_page_switches():
    at = open_app("compas", "views/costs.py")
    at.text_input(key="unit").set_value("€").run()
    at.number_input(key="volume").set_value(2500).run()
    at.switch_page("views/value.py").run()
    assert_no_exception(at)
    assert at.text_input(key="unit").value == "€"
    assert at.number_input(key="volume").value == 2500
    assert at.query_params["unit"] == "€" and at.query_params["volume"] == "2500"
    assert "a month)" in texts(at) and "€" in texts(at)
    at.switch_page("views/costs.py").run()
    assert at.text_input(key="unit").value == "€"
    assert at.selectbox(key="data").value == "compas"


def test_a_new_upload_gets_fresh_mapping_widgets_seeded_from_its_own_columns():
    at = open_app("compas", "views/data.py")
    first = pd.DataFrame({"label": [0, 1, 0, 1] * 10, "old_score": np.linspace(0, 1, 40)})
    second = pd.DataFrame({"label": [1, 0] * 20, "new_score": np.linspace(1, 0, 40)})
    at.file_uploader(key="uploader").upload("a.csv", first.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["old_score"]
    at.file_uploader(key="uploader").upload("b.csv", second.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["new_score"]
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    assert list(at.session_state["upload_dataset"].scores) == ["new_score"]


def test_without_a_group_column_the_cutoff_is_not_worded_as_flag_everyone():
    at = open_app("offensive", "views/costs.py")
    box = verdict_box(at)
    assert "flag a case when its score is at least" in box
    assert "flags everyone at a score" not in box and "fitted on the all rows" not in texts(at)


def test_raw_scores_are_refused_by_the_probability_pages_with_a_sentence():
    rng = np.random.default_rng(9)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 100), "margin": rng.normal(0, 3, 100).round(3)})
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("raw.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.multiselect(key=mk(at, "scores")).set_value(["margin"])
    at.radio(key=mk(at, "scale")).set_value("raw")
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_no_exception(at)
    for page in ("views/value.py", "views/calibration.py"):
        at.switch_page(page).run()
        assert_no_exception(at)
        assert "scores that are probabilities" in texts(at)  # and it draws on a sample that has them
    at.switch_page("views/costs.py").run()  # cost pages take any real score
    assert "cost_chart" in chart_keys(at)
    assert "so the charts below use" not in texts(at)


def test_find_my_prices_conversation_with_going_back_lands_on_costs_with_the_bracket():
    from costlib.binary import elicit

    at = open_app("compas", "views/prices.py")
    at.text_input(key="name_miss").set_value("a missed reoffence").run()
    at.text_input(key="name_alarm").set_value("a needless detention").run()
    assert "Which is worse: 1 × a missed reoffence, or 1 × a needless detention?" in texts(at)
    at.button(key="ans_miss").click().run()  # 1 miss is worse than 1 alarm: r > 1
    assert_no_exception(at)
    b = at.session_state["_bracket"]
    assert (b.low, b.high) == (1.0, 1000.0)
    n = elicit.next_n(b)
    at.button(key="ans_alarm").click().run()  # n alarms are worse: r < n
    assert (at.session_state["_bracket"].low, at.session_state["_bracket"].high) == (1.0, n)
    at.button(key="ans_back").click().run()  # going back undoes only that answer
    assert at.session_state["_bracket"] == b
    truth = 4.0
    while at.session_state["_bracket"].settled is None:
        n = elicit.next_n(at.session_state["_bracket"])
        at.button(key="ans_miss" if truth > n else "ans_alarm").click().run()
        assert_no_exception(at)
    b = at.session_state["_bracket"]
    assert b.low <= truth <= b.high and len(b.answers) <= 6
    # the stop rule: one cutoff over the bracket, or the bracket is within a factor of 1.5
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    span = costlib.optimal_cutoffs_by_ratio(tr["two_year_recid"], tr["p_recid"], ratio_low=b.low, ratio_high=b.high)
    assert b.settled == "robust" and len(span) == 1 or b.high / b.low <= 1.5 + 1e-9
    at.button(key="use_prices").click().run()
    assert_no_exception(at)
    at.switch_page("views/costs.py").run()  # (AppTest does not follow st.switch_page by itself)
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.0
    assert at.select_slider(key="s_c_fn").value == pytest.approx(b.middle)
    assert "Your prices come from" in texts(at) and "a missed reoffence" in texts(at)
    assert at.session_state["_keep_price_questions"]["ratio_chosen"] == pytest.approx(b.middle)


def test_costs_page_offers_the_questions_before_the_sliders():
    at = open_app("compas", "views/costs.py")
    links = [p.proto.label for p in at.get("page_link")]
    assert "Not sure about your prices? Answer a few questions" in links


def test_tables_show_formula_cells_neutralised_so_the_toolbar_export_is_safe_too():
    rng = np.random.default_rng(6)
    n = 200
    p = rng.random(n).round(3)
    evil = '=HYPERLINK("http://example.invalid","x")'
    frame = pd.DataFrame(
        {
            "label": (rng.random(n) < p).astype(int),
            "score": p,
            "grp": rng.choice([evil, "plain"], n),
            "split": rng.choice(["train", "test"], n),
        }
    )
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("f.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.selectbox(key=mk(at, "group")).set_value("grp")
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    at.switch_page("views/costs.py").run()
    at.toggle(key="details").set_value(True).run()
    assert_no_exception(at)
    shown = [t.value for t in at.dataframe if "group" in t.value.columns]
    cells = {str(c) for table in shown for c in table["group"]}
    assert evil not in cells and "'" + evil in cells


def test_find_my_prices_group_question_prices_a_miss_differently_in_one_group():
    """The per-group question multiplies only that group's miss price; the alarm keeps its price."""
    at = open_app("compas", "views/prices.py")
    at.button(key="ans_miss").click().run()  # one answer is enough to use the prices
    assert_no_exception(at)
    middle = at.session_state["_bracket"].middle
    at.select_slider(key="mult_0").set_value(2.0).run()
    at.button(key="use_prices").click().run()
    assert_no_exception(at)
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert at.toggle(key="per_group").value is True
    groups = sorted(sample_frame("compas")["race"].unique().tolist(), key=str)
    assert len(groups) > 1
    for i in range(len(groups)):
        assert at.select_slider(key=f"s_c_fp_{i}").value == 1.0
        want = 2 * middle if i == 0 else middle
        assert at.select_slider(key=f"s_c_fn_{i}").value == pytest.approx(want)
    record = at.session_state["_keep_price_questions"]
    assert record["group_multipliers"][str(groups[0])] == 2.0
    assert all(record["group_multipliers"][str(g)] == 1.0 for g in groups[1:])


def test_calibration_advice_is_one_sentence_on_calibration_value_and_costs():
    """The one calibration test: the Calibration page's advice at its default bins, the Value
    page and the Costs page say the same thing about the same rows."""
    from costlib import answers, loading
    from costlib.loading.samples import SAMPLES, sample_bytes

    sample = SAMPLES["screening"]
    data = sample_bytes("screening")
    ds = loading.prepare(loading.read_table(data, sample.filename), sample.mapping, name="s", fingerprint="f")
    cal = open_app("screening", "views/calibration.py")
    cal.selectbox(key="model").set_value("score_overconfident").run()
    line = answers.calibration_advice_line(ds, "score_overconfident")
    assert line.split("): ", 1)[1] in texts(cal)
    assert line in texts(open_app("screening", "views/value.py", details="true"))
    costs = open_app("screening", "views/costs.py", details="true")
    lines = [answers.calibration_advice_line(ds, m) for m in ("score_calibrated", "score_overconfident")]
    assert any(x in texts(costs) for x in lines)  # the recommended model's advice


@pytest.mark.parametrize("seed, signal, split", [(0, 0.0, False), (1, 0.0, True), (2, 0.5, False), (3, 2.0, True)])
def test_one_verdict_on_the_page_the_report_the_policy_and_the_json(seed, signal, split, tmp_path, capsys):
    """Random data (no, weak or clear signal; with and without a split) at random prices: the
    Costs page, the report, the policy and ``--json`` give the same verdict."""
    from costlib.__main__ import main

    rng = np.random.default_rng(seed)
    n = 600
    y = rng.integers(0, 2, n)
    p = 1 / (1 + np.exp(-(signal * (2 * y - 1) + rng.normal(0, 1, n))))
    frame = pd.DataFrame({"outcome": y, "model_a": p.round(4), "segment": rng.choice(["north", "south"], n)})
    if split:
        frame["split"] = rng.choice(["train", "test"], n)
    c_fp, c_fn = (float(x) for x in rng.choice([1, 2, 3], 2))
    at = open_app("compas", "views/data.py", c_fp=c_fp, c_fn=c_fn)
    at.file_uploader(key="uploader").upload("preds.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert (at.select_slider(key="s_c_fp").value, at.select_slider(key="s_c_fn").value) == (c_fp, c_fn)
    page = verdict_box(at)

    path, report, policy = tmp_path / "preds.csv", tmp_path / "r.html", tmp_path / "p.json"
    frame.to_csv(path, index=False)
    args = ["audit", str(path), "--label", "outcome", "--score", "model_a", "--group", "segment"]
    args += ["--split", "split"] if split else []
    args += ["--c-fp", str(c_fp), "--c-fn", str(c_fn), "--json", "--report", str(report), "--policy", str(policy)]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    verdict = summary["verdict"]
    head = words.verdict_head(verdict)
    assert page.startswith((head + ":", head + " with")), (page, verdict)
    saved = json.loads(policy.read_text())
    assert saved["verdict"] == verdict and saved["decision"]["verdict"] == verdict
    assert saved["headline"].startswith(head)
    assert 'class="verdict' in report.read_text() and f">{head}" in report.read_text()
    if signal == 0.0:
        assert verdict != "ship the model"  # no signal: never told to ship
    if signal == 2.0:
        assert verdict == "ship the model"


def test_the_slower_costs_sections_are_drawn_on_request_and_the_link_keeps_the_choice():
    folded = open_app("compas", "views/costs.py")
    assert chart_keys(folded) == {"cost_chart"} and answers.COSTS_DETAILS.folded in texts(folded)
    assert not [t for t in folded.dataframe if "price of fairness per case" in t.value.columns]
    folded.toggle(key="details").set_value(True).run()
    assert_no_exception(folded)
    assert {"sensitivity_chart", "net_benefit_chart"} <= chart_keys(folded)
    assert folded.query_params["details"] == "true"
    linked = open_app("compas", "views/costs.py", details="true")
    assert {"sensitivity_chart", "net_benefit_chart"} <= chart_keys(linked)


def test_a_link_with_an_abstain_price_past_its_bound_gets_a_sentence_not_an_exception():
    at = open_app("tickets", "views/matrix.py", abstain="1e308")
    assert_no_exception(at)
    assert any("abstain" in unescape(w.value) and "1e308" in unescape(w.value) for w in at.warning)
    assert at.number_input(key="abstain").value == 1.0
    kept = open_app("tickets", "views/matrix.py", abstain="2.5")
    assert kept.number_input(key="abstain").value == 2.5 and kept.query_params["abstain"] == "2.5"
