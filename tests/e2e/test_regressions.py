"""Bugs this suite found in the pages (fixed in ef1bfd0), kept as regression tests.

Each test reproduces the original report; the docstring says what went wrong.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from e2e_server import AppServer
from e2e_support import goto, grid_rows, nav, nav_titles, pick, step, upload, use_these_columns, wait_for_chart

pytestmark = pytest.mark.browser

TITLES = [
    "Data",
    "Costs & groups",
    "Find my prices",
    "Value",
    "Cost matrix",
    "Instance costs",
    "Calibration",
    "Train with costs",
    "Watch",
]


def test_deep_link_on_a_fresh_server_shows_the_app_navigation(new_page, chromium_path, tmp_path):
    """The first session on a fresh server that opened a deep link (/value, a shared ?k= link)
    showed Streamlit's auto-discovered pages/ list ('app, calibration, common, ...'; 'common' was
    a blank page), for ~1 s or for the whole session."""
    server = AppServer(tmp_path / "fresh-server.log").start()
    try:
        page = new_page()
        page.goto(server.url + "/value")
        seen = []
        for _ in range(300):  # watch the navigation from the first paint until a chart is drawn
            titles = nav_titles(page) + page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
            if titles and titles not in seen:
                seen.append(titles)
            if page.locator(".js-plotly-plot .main-svg").count():
                break
            page.wait_for_timeout(50)
        wait_for_chart(page)
        seen.append(nav_titles(page))
        assert all(t == TITLES for t in seen), seen
    finally:
        server.stop()


def test_inputs_have_plain_accessible_names(page, app_url):
    """Markdown-escaped widget labels put backslashes into the inputs' accessible names
    (a screen reader read 'Cost of a false positive \\(\\$\\)')."""
    goto(page, app_url + "/")
    nav(page, "Costs & groups")
    page.get_by_text("Different prices per group", exact=True).click()
    step(page)
    page.get_by_role("button", name="Type exact prices").click()
    step(page)
    names = page.locator("input[aria-label]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert not [n for n in names if "\\" in n], names
    assert page.get_by_label("False positive ($)", exact=True).count() == 1, names
    assert page.get_by_label("African-American: false positive ($)", exact=True).count() == 1, names
    sliders = page.get_by_role("slider").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert "Caucasian: a false negative costs" in sliders, sliders  # one pair of sliders per group
    # every number input is named by what its visible label says
    pairs = page.locator('[data-testid="stNumberInput"]').evaluate_all("""els => els.map(e => [
        e.querySelector('[data-testid="stWidgetLabel"]').innerText.trim(),
        e.querySelector('input').getAttribute('aria-label')])""")
    assert all(visible == name for visible, name in pairs), pairs


def test_a_replaced_upload_gets_a_fresh_column_mapping(new_page, app_url, tmp_path):
    """The mapping form kept the previous file's choices (score columns the new file does not
    have) in about one replaced upload in three; 'Use these columns' then loaded the new file
    without a score column and said 'Loaded'. Several tries, since it was intermittent."""
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 80)
    pd.DataFrame(
        {
            "label": y,
            "score_a": rng.uniform(0, 1, 80).round(3),
            "score_b": rng.uniform(0, 1, 80).round(3),
            "split": rng.choice(["train", "test"], 80),
        }
    ).to_csv(first, index=False)
    pd.DataFrame({"label": y, "model_score": rng.uniform(0, 1, 80).round(3)}).to_csv(second, index=False)
    box = "Score columns (one per model; higher = more likely positive)"
    for attempt in range(3):
        page = new_page()
        goto(page, app_url + "/")
        upload(page, first)
        use_these_columns(page)
        page.get_by_text("Loaded “first.csv”").wait_for()
        upload(page, second)
        page.wait_for_timeout(500)
        shown = page.locator('[data-testid="stMultiSelect"]', has=page.get_by_text(box, exact=True)).inner_text()
        split = page.get_by_role("combobox", name="Split column (optional: train / validation / test)").input_value()
        assert "model_score" in shown and "score_a" not in shown and split == "(none)", (
            f"attempt {attempt + 1}: the form for second.csv shows {shown!r}, split {split!r}"
        )
        use_these_columns(page)
        page.get_by_text("Loaded “second.csv”").wait_for()
        models = grid_rows(page, page.locator('[data-testid="stDataFrame"]', has_text="model (score column)"))
        assert [m["model (score column)"] for m in models] == ["model_score"], models
        page.context.close()


def test_unit_and_volume_survive_a_page_switch(page, app_url):
    """'Unit of your prices' and 'Cases per month' came up blank and 0 on the Value page after
    Costs & groups (widget ids differ per page), and the Value verdict lost the unit and the
    monthly figure."""
    goto(page, app_url + "/")
    nav(page, "Costs & groups")
    sidebar = page.locator('[data-testid="stSidebar"]')

    def settings():
        return (
            sidebar.get_by_label("Unit of your prices", exact=True).input_value(),
            sidebar.get_by_label("Cases per month", exact=True).input_value(),
        )

    assert settings() == ("$", "10000")
    nav(page, "Value")
    assert settings() == ("$", "10000")
    assert "a month)" in page.locator('[data-testid="stMainBlockContainer"]').inner_text()
    nav(page, "Costs & groups")
    assert settings() == ("$", "10000")


def test_links_in_user_text_are_not_links_anywhere(page, app_url, tmp_path):
    """A group named like a link became a clickable link: as an <a> in the Costs legend and
    ticks (Plotly renders HTML) and, auto-linked, in escaped Markdown sentences."""
    hostile = '<a href="https://example.org/x">Click to verify</a>'
    bare = "see https://example.org/y or www.example.org"
    rng = np.random.default_rng(3)
    n = 300
    p = rng.random(n).round(3)
    path = tmp_path / "links.csv"
    pd.DataFrame(
        {
            "label": (rng.random(n) < p).astype(int),
            "score": p,
            "grp": rng.choice([hostile, bare], n),
            "split": rng.choice(["train", "test"], n),
        }
    ).to_csv(path, index=False)
    goto(page, app_url + "/")
    upload(page, path)
    pick(page, "Group column (optional, for per-group prices)", "grp")
    use_these_columns(page)
    page.get_by_text("Loaded “links.csv”").wait_for()
    nav(page, "Costs & groups")
    page.get_by_text("Different prices per group", exact=True).click()
    step(page)
    wait_for_chart(page)
    links = page.locator('[data-testid="stMain"] a').evaluate_all("els => els.map(e => e.href)")
    assert not [h for h in links if "example.org" in h], links
    assert page.locator(".js-plotly-plot a").count() == 0
    assert "Click to verify" in page.locator('[data-testid="stMain"]').inner_text()  # shown, as text


def test_changing_the_unit_keeps_the_prices(page, app_url):
    """Typing a new unit in the sidebar set both price sliders to 0 (the sliders' labels carry
    the unit, so Streamlit made new sliders that started from their first stop), and the
    next change crashed the net-benefit chart on a division by zero."""
    goto(page, app_url + "/costs?data=screening", chart=True)
    unit = page.locator('[data-testid="stSidebar"]').get_by_label("Unit of your prices", exact=True)
    unit.fill("hours")
    unit.press("Enter")
    step(page, "after the unit")
    wait_for_chart(page)
    sliders = page.get_by_role("slider").evaluate_all("els => els.map(e => e.getAttribute('aria-valuetext'))")
    assert sliders[:2] == ["1.00 hours", "3.00 hours"], sliders
    volume = page.locator('[data-testid="stSidebar"]').get_by_label("Cases per month", exact=True)
    volume.fill("250000")
    volume.press("Enter")
    step(page, "after the volume")
    wait_for_chart(page)
    assert "c_fp=1&c_fn=3" in page.evaluate("location.href")
