"""A first-time user moves the price sliders on the default sample and reads one answer."""

from __future__ import annotations

import re

import pytest
from e2e_support import (
    alert_texts,
    data_choice,
    full_screenshot,
    goto,
    nav,
    set_number,
    step,
    wait_for_chart,
)

from costlib import answers, loading
from costlib.binary import decision
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import costs_labels, words
from costlib.present.amounts import shown_saving
from costlib.present.costs_labels import MODEL_COST

pytestmark = pytest.mark.browser

VOLUME = 10_000  # the page's default "Cases per month"
GROUPS = ("African-American", "Caucasian", "Other")


def sample_model(key: str, score: str) -> decision.ModelSweeps:
    """The sample's sweeps, built as the page builds them: fitted on train, judged on test."""
    sample = SAMPLES[key]
    data = sample_bytes(key)
    ds = loading.prepare(
        loading.read_table(data, sample.filename),
        sample.mapping,
        name=sample.title,
        fingerprint=loading.fingerprint(data),
    )
    return decision.sweep_model(
        ds.y, ds.scores[score], ds.groups, fit=ds.rows("train"), judge=ds.rows("test"), name=score
    )


def headline(costs, key: str = "compas", scores=("p_recid",)) -> tuple[str, decision.Recommendation]:
    models = {s: sample_model(key, s) for s in scores}
    rec = decision.recommend(models, costs, n_resamples=1000)
    verdict = answers.costs_verdict(rec, models[rec.model], unit="$", volume=VOLUME, sample=True)  # the sample's models
    return verdict.headline, rec


def answer(page) -> str:
    """The one answer box: the only alert that speaks of cost per case."""
    boxes = [t for t in alert_texts(page) if "per case" in t]
    assert len(boxes) == 1, boxes
    return boxes[0]


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]', has=page.locator('[data-testid="stMetricLabel"]', has_text=label))
    return box.locator('[data-testid="stMetricValue"]').first.inner_text().strip()


def price_slider(page, label: str):
    return page.locator('[data-testid="stSlider"]', has=page.get_by_text(label, exact=True)).get_by_role("slider")


def test_first_time_user_moves_the_price_slider(page, app_url):
    goto(page, app_url + "/")
    assert data_choice(page) == "Recidivism risk (COMPAS)"
    nav(page, "Costs & groups")
    first = page.get_by_role("slider").first
    assert first.get_attribute("aria-valuetext") == "$1.00"  # the first slider on the page is a price
    text, _ = headline((1.0, 3.0))
    assert answer(page) == text
    assert page.get_by_text("are still for the previous prices").count() == 0
    page.get_by_text(answers.COSTS_DETAILS.toggle, exact=True).click()  # the slower sections, on request
    step(page, "the details drawn")

    fn = price_slider(page, "A false negative costs")
    fn.focus()
    fn.press("ArrowLeft")  # $3.00 -> $2.50
    fn.press("ArrowLeft")  # -> $2.00
    fn.press("ArrowLeft")  # -> $1.50
    step(page, "after three key presses on the false-negative price")
    wait_for_chart(page)
    assert fn.get_attribute("aria-valuetext") == "$1.50"
    text, rec = headline((1.0, 1.5))
    assert answer(page) == text
    digits = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)[0]  # beside its interval
    assert metric(page, MODEL_COST) == words.money(rec.cost, "$", digits=digits)
    # the slower sections say which prices they are for, and catch up on request
    page.get_by_text("are still for the previous prices").wait_for()
    page.get_by_role("button", name="Update them for these prices").click()
    # the click's run may start after `step` has seen a quiet page (a loaded CI machine): wait for
    # the note to go, as a user would, then for the page to settle
    page.get_by_text("are still for the previous prices").wait_for(state="detached")
    step(page, "after updating the sections below")
    assert page.get_by_text("are still for the previous prices").count() == 0
    assert page.get_by_text("For your prices: a false positive costs $1.00 and a false negative $1.50.").count() >= 1
    full_screenshot(page, "test_first_time_user_moves_the_price_slider")


def test_the_downloads_follow_the_prices_on_screen(page, app_url):
    """The report and policy buttons sit outside the part a price move redraws (every element
    there is redrawn on each move): what they build when pressed is still the audit of the
    prices on screen, not of the prices the page was first drawn with."""
    import json
    from pathlib import Path

    goto(page, app_url + "/costs", chart=True)
    fn = price_slider(page, "A false negative costs")
    fn.focus()
    fn.press("ArrowLeft")  # $3.00 -> $2.50
    step(page, "after one key press on the false-negative price")
    wait_for_chart(page)
    assert fn.get_attribute("aria-valuetext") == "$2.50"
    text, rec = headline((1.0, 2.5))
    assert answer(page) == text
    with page.expect_download() as got:
        page.get_by_role("button", name="Download the policy (JSON)").click()
    saved = json.loads(Path(got.value.path()).read_text())
    assert {(p["c_fp"], p["c_fn"]) for p in saved["prices"]} == {(1.0, 2.5)}
    assert saved["verdict"] == rec.verdict and saved["headline"] == text
    with page.expect_download() as got:
        page.get_by_role("button", name="Download the audit report (HTML)").click()
    report = Path(got.value.path()).read_text()
    assert "$2.50" in report and text.split(":")[0] in report
    # every price at zero: no answer, so nothing to download; a price back, and both come back
    first = price_slider(page, "A false positive costs")
    for slider in (first, fn):
        slider.focus()
        slider.press("Home")
        step(page, "after a price goes to zero")
    page.get_by_text(costs_labels.ALL_PRICES_ZERO).wait_for()
    buttons = page.get_by_role("button", name=re.compile("^Download the (policy|audit report)"))
    assert buttons.count() == 0
    fn = price_slider(page, "A false negative costs")
    fn.focus()
    fn.press("ArrowRight")  # $0 -> $0.50
    step(page, "after a price moves up from zero")
    wait_for_chart(page)
    assert buttons.count() == 2
    with page.expect_download() as got:
        page.get_by_role("button", name="Download the policy (JSON)").click()
    saved = json.loads(Path(got.value.path()).read_text())
    moved = float(fn.get_attribute("aria-valuetext").removeprefix("$"))
    assert moved > 0 and {(p["c_fp"], p["c_fn"]) for p in saved["prices"]} == {(0.0, moved)}


def test_exact_prices_per_group(page, app_url):
    goto(page, app_url + "/costs", chart=True)
    page.get_by_text("Different prices per group", exact=True).click()
    step(page, "after turning on per-group prices")
    prices = {"African-American": (1.0, 4.0), "Caucasian": (2.0, 3.0), "Other": (1.5, 6.0)}
    page.get_by_role("button", name="Type exact prices").click()
    for g, (fp, fn) in prices.items():
        set_number(page, f"{g}: false positive", fp)
        set_number(page, f"{g}: false negative", fn)
    page.keyboard.press("Escape")
    wait_for_chart(page)
    text, rec = headline(prices)
    assert answer(page) == text
    digits = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)[0]  # beside its interval
    assert metric(page, MODEL_COST) == words.money(rec.cost, "$", digits=digits)
    for g, (fp, fn) in prices.items():
        assert price_slider(page, f"{g}: a false positive costs").get_attribute("aria-valuetext") == f"${fp:.2f}"
        assert price_slider(page, f"{g}: a false negative costs").get_attribute("aria-valuetext") == f"${fn:.2f}"
    full_screenshot(page, "test_exact_prices_per_group")


def test_expensive_false_positives_say_the_model_adds_nothing(page, app_url):
    goto(page, app_url + "/costs?data=compas&c_fp=20&c_fn=1", chart=True)
    text, rec = headline((20.0, 1.0))
    assert rec.status == decision.ADDS_NOTHING
    assert text in alert_texts(page)  # the error box's words, after its warning sign
    full_screenshot(page, "test_expensive_false_positives_say_the_model_adds_nothing")


def test_offensive_language_is_measured_against_flagging_everyone(page, app_url):
    goto(page, app_url + "/costs?data=offensive", chart=True)
    text, rec = headline((1.0, 3.0), key="offensive", scores=("score_lr", "score_nb"))
    assert rec.baseline == "flag everyone"
    assert answer(page) == text and "against flagging everyone" in text
    full_screenshot(page, "test_offensive_language_is_measured_against_flagging_everyone")


def test_the_report_and_the_policy_download_for_the_prices_on_screen(page, app_url, tmp_path):
    import json

    from costlib.binary.disparity import shipped_disparities
    from costlib.present.policy import disparities_record, load_policy

    goto(page, app_url + "/costs?data=compas&c_fp=2&c_fn=5", chart=True)
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the policy (JSON)").click()
    path = tmp_path / "policy.json"
    info.value.save_as(path)
    policy = load_policy(path.read_bytes())
    assert set(policy["prices"].values()) == {(2.0, 5.0)}
    text, rec = headline((2.0, 5.0))
    decision = json.loads(path.read_text())["decision"]
    record = decision.pop("data")
    # the file says whether it applies the recommended rule (review 74): it does exactly when the model ships
    assert decision["recommended"].pop("applied") is decision["ship_model"]
    decision["recommended"].pop("not_applied", None)
    expected = {**rec.summary(), "capacity": None, "within_capacity": None}  # no review limit on the page
    expected.pop("data")
    gaps = shipped_disparities(sample_model("compas", "p_recid"), rec)  # the record's disparities, as the audit's
    expected["disparities"] = json.loads(json.dumps(disparities_record(gaps)))  # with each rate's "out_of"
    assert {k: v for k, v in decision.items() if k != "n_rows"} == {k: v for k, v in expected.items() if k != "n_rows"}
    assert decision["n_rows"] == 6172  # the whole file, not only the rows fitted and judged
    assert record["label"] == "two_year_recid" and record["score"] == "p_recid" and record["group"] == "race"
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the audit report (HTML)").click()
    report = tmp_path / "report.html"
    info.value.save_as(report)
    html = report.read_text(encoding="utf-8")
    assert "Cost audit" in html and "The prices were set directly, not from questions." in html
    offline = page.context.new_page()
    offline.route(
        "**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_()
    )
    offline.goto(report.as_uri())
    offline.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
    assert offline.locator(".js-plotly-plot").count() == 4
    full_screenshot(offline, "test_the_report_offline")


# Every Plotly chart on the page: the margins it was given and the ones plotly.js drew it with.
CHART_MARGINS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const given = gd._fullLayout.margin, drawn = gd._fullLayout._size;
  return {title: (gd._fullLayout.title.text || ''), given: [given.l, given.r, given.t, given.b],
          drawn: [drawn.l, drawn.r, drawn.t, drawn.b]};
})"""


def test_a_price_move_draws_the_cost_chart_once(page, app_url):
    """What a price move costs the browser, by what it does rather than how long it takes
    (benchmarks/latency.py times it): the cost chart fits in the margins it is given, so
    plotly.js does not draw it a second time to widen them, which it does on every redraw whose
    tick labels or legend push past a margin."""
    goto(page, app_url + "/costs?data=compas", chart=True)
    fn = price_slider(page, "A false negative costs")
    for press in ("ArrowRight", "ArrowRight", "ArrowLeft"):
        fn.focus()
        fn.press(press)
        step(page, f"after {press} on the false-negative price")
        wait_for_chart(page)
        charts = page.evaluate(CHART_MARGINS)
        assert charts, "no chart drawn"
        for chart in charts:
            assert chart["drawn"] == chart["given"], chart
