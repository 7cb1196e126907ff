"""Headless AppTest across the pages: every page draws its charts on every sample, the sections read
second come on request, the data choice and an upload reach every page, hostile names are escaped
everywhere, and one verdict is worded the same on the page, the report, the policy and the JSON."""

import json

import numpy as np
import pandas as pd
import pytest

from costlib import answers
from costlib.binary import decision as D
from costlib.loading.samples import SAMPLES
from costlib.present import words
from costlib.present.amounts import shown_saving
from costlib.present.costs_labels import MODEL_COST
from costlib.present.labels import FALLS_BACK
from tests.views.apptest_support import (
    USE_COLUMNS,
    assert_no_exception,
    chart_keys,
    charts,
    metric,
    mk,
    open_app,
    texts,
    unescape,
    verdict_box,
)

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
    assert (FALLS_BACK in texts(at)) == fallback
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
    assert FALLS_BACK not in texts(at)


def test_a_unit_k_or_resamples_from_a_link_that_cannot_be_used_falls_back_with_a_note():
    at = open_app("compas", "views/costs.py", unit="x" * 500, resamples="12")
    assert_no_exception(at)
    notes = "\n".join(unescape(w.value) for w in at.warning)
    assert (
        "The link's unit of your prices “" + "x" * 40 + "…” is not one this page can use, so $ is used instead."
        in notes
    )
    assert (
        "The link's number of bootstrap resamples “12” is not one this page can use, so 1000 is used instead." in notes
    )
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


def test_data_page_switches_sample_and_the_choice_follows_to_other_pages():
    at = open_app("compas", "views/data.py")
    at.button(key="use_tickets").click().run()
    assert_no_exception(at)
    assert at.query_params["data"] == "tickets"
    at.switch_page("views/matrix.py").run()
    assert [t for t in at.dataframe if "cost per case" in t.value.columns]  # its answer, on the tickets
    assert FALLS_BACK not in texts(at)


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
    submit = [b for b in at.button if b.label == USE_COLUMNS][0]
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
    digits = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)[0]  # beside its interval
    assert metric(at, MODEL_COST) == words.money(rec.cost, "$", digits=digits)
    assert verdict_box(at) == answers.costs_verdict(rec, ms, unit="$", volume=10_000).headline


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
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
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


def test_raw_scores_are_refused_by_the_probability_pages_with_a_sentence():
    rng = np.random.default_rng(9)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 100), "margin": rng.normal(0, 3, 100).round(3)})
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("raw.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.multiselect(key=mk(at, "scores")).set_value(["margin"])
    at.radio(key=mk(at, "scale")).set_value("raw")
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_no_exception(at)
    for page in ("views/value.py", "views/calibration.py"):
        at.switch_page(page).run()
        assert_no_exception(at)
        assert "scores that are probabilities" in texts(at)  # and it draws on a sample that has them
    at.switch_page("views/costs.py").run()  # cost pages take any real score
    assert "cost_chart" in chart_keys(at)
    assert FALLS_BACK not in texts(at)


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
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    at.switch_page("views/costs.py").run()
    at.toggle(key="details").set_value(True).run()
    assert_no_exception(at)
    shown = [t.value for t in at.dataframe if "group" in t.value.columns]
    cells = {str(c) for table in shown for c in table["group"]}
    assert evil not in cells and "'" + evil in cells


def test_calibration_advice_is_one_sentence_on_calibration_value_and_costs():
    """The one calibration test: the Calibration page's advice at its default bins, the Value
    page and the Costs page say the same thing about the same rows."""
    from costlib import loading
    from costlib.loading.samples import SAMPLES, sample_bytes

    sample = SAMPLES["screening"]
    data = sample_bytes("screening")
    ds = loading.prepare(loading.read_table(data, sample.filename), sample.mapping, name="s", fingerprint="f")
    cal = open_app("screening", "views/calibration.py")
    cal.selectbox(key="model").set_value("score_overconfident").run()
    line = answers.calibration_advice_line(ds, "score_overconfident")
    # Calibration answers whether rescaling is worth it at the prices; the line elsewhere says what
    # the probabilities are and sends there, without an order its "not clearly better" contradicts
    assert "Calibration page's answer" in line and "use the rescaled" not in line.lower()
    reason = line.split("): ", 1)[0]
    assert "too confident" in texts(cal) and reason.startswith("Calibration of score_overconfident")
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
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
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
