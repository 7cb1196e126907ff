"""Keyboard on the Value page's k slider (and the shared URL), and editing the cost matrix grid."""

from __future__ import annotations

import numpy as np
import pytest
from e2e_support import (
    chart_titles,
    full_screenshot,
    goto,
    grid_after,
    grid_rows,
    step,
    wait_for_url,
)
from playwright.sync_api import expect

from costlib import loading
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.multiclass import decision_cost, min_cost_decisions
from costlib.present.labels import ONE_PRICE_CHART
from tests.views.test_matrix_page import _reads_as

pytestmark = pytest.mark.browser


def k_slider(page):
    return page.get_by_role("slider").first


def value_title(page) -> str:
    # the worth chart is drawn after the page's first chart on a busy machine: wait for its title
    page.locator(".js-plotly-plot .gtitle", has_text="Worth per case by confidence threshold").first.wait_for()
    titles = [t for t in chart_titles(page) if t.startswith("Worth per case by confidence threshold")]
    assert titles, chart_titles(page)
    return titles[0]


SUBTITLE = ".js-plotly-plot .gtitle-subtitle"  # the chart at k says k in words under its title


def k_words(k: str) -> str:
    return f"cancels out {k} right answers"


def press_and_wait(page, key: str, k: str) -> None:
    k_slider(page).press(key)
    step(page, f"after {key}")
    page.locator(SUBTITLE, has_text=k_words(k)).first.wait_for()


def test_value_slider_keyboard_and_shared_url(page, new_page, app_url):
    goto(page, app_url + "/value?details=true", chart=True)  # with the sections that fall behind k
    # at $1 / $3 the answer prices each mistake on its own, and so does the first chart; the chart at
    # k folds under it, k following the prices: (1 + 3) / 2 over a right answer's 1
    assert "each mistake at its own price" in value_title(page)
    assert chart_titles(page)[0] == value_title(page)
    page.get_by_text(ONE_PRICE_CHART).first.click()
    page.locator(SUBTITLE, has_text=k_words("2")).first.wait_for()
    slider = k_slider(page)
    assert slider.get_attribute("aria-valuetext") == "2"

    slider.focus()
    # a moved k prices every wrong answer alike: the chart at k is the first again
    press_and_wait(page, "ArrowRight", "2.25")  # the options step by 0.25 above 2
    assert k_words("2.25") in page.locator(SUBTITLE).first.text_content()
    assert slider.get_attribute("aria-valuetext") == "2.25"
    wait_for_url(page, r"[?&]k=2\.25(&|$)")
    press_and_wait(page, "ArrowLeft", "2")
    press_and_wait(page, "ArrowLeft", "1.95")  # and by 0.05 below 2
    url = wait_for_url(page, r"[?&]k=1\.95(&|$)")
    assert slider.get_attribute("aria-valuetext") == "1.95"
    title = value_title(page)
    full_screenshot(page, "test_value_slider_keyboard_and_shared_url")
    # a k move redraws only the answer; the sections below say they were drawn for k = 2 until updated
    stale = page.get_by_text("still drawn for the earlier price: one wrong answer cancels out 2 right answers, with")
    stale.wait_for()
    page.get_by_role("button", name="Update them for this k").click()
    step(page, "after updating the sections below")
    stale.wait_for(state="detached")
    assert value_title(page) == title

    # The link, opened by someone else (a new context: no cookies, a new session), shows the same k.
    other = new_page()
    goto(other, url, chart=True)
    assert k_slider(other).get_attribute("aria-valuetext") == "1.95"
    assert value_title(other) == title
    full_screenshot(other, "test_value_slider_keyboard_and_shared_url-shared")


def tickets_policy_costs(c: np.ndarray, abstain: float = 1.0) -> dict[str, float]:
    """costlib's expected cost per case of each policy on the ticket sample's test rows."""
    sample = SAMPLES["tickets"]
    data = sample_bytes("tickets")
    ds = loading.prepare(
        loading.read_table(data, sample.filename),
        sample.mapping,
        name=sample.title,
        fingerprint=loading.fingerprint(data),
    )
    judge = ds.rows("test")
    y, p = ds.y_class[judge], ds.class_probs[judge]
    return {
        "most probable class": decision_cost(y, np.argmax(p, axis=1), c, abstain_cost=abstain),
        "cheapest decision": decision_cost(y, min_cost_decisions(p, c), c, abstain_cost=abstain),
        "cheapest decision, or hand over": decision_cost(
            y, min_cost_decisions(p, c, abstain_cost=abstain), c, abstain_cost=abstain
        ),
    }


def policy_costs(page) -> dict[str, str]:
    rows = grid_rows(page, page.locator('[data-testid="stDataFrame"]', has_text="uses the model").first)
    return {r["policy"]: r["cost per case"] for r in rows}


def edit_cell(page, grid, row: int, col: int, value: str) -> None:
    """Type `value` into data-row `row`, data-column `col` (0 = first column after the index)."""
    # to the middle of the window: scrolled back up only as far as needed (after reading a table below it),
    # the grid's first rows sit under the app's fixed top bar, which takes the click
    grid.evaluate("el => el.scrollIntoView({block: 'center'})")
    canvas = grid.locator('canvas[data-testid="data-grid-canvas"]')
    box = canvas.bounding_box()
    n_rows = int(grid.locator('table[role="grid"]').get_attribute("aria-rowcount"))
    row_h = box["height"] / n_rows  # header + rows, all the same height here
    page.mouse.click(box["x"] + 8, box["y"] + row_h * 1.5)  # the index cell of the first row
    selected = grid.locator('td[aria-selected="true"]').first
    expect(selected).to_have_attribute("id", "glide-cell-0-0")
    # one key at a time, each waited for: under load a key pressed before the grid has moved
    # the selection is lost, and the edit would land in another cell
    for r in range(1, row + 1):
        page.keyboard.press("ArrowDown")
        expect(selected).to_have_attribute("id", f"glide-cell-0-{r}")
    for c in range(1, col + 2):
        page.keyboard.press("ArrowRight")
        expect(selected).to_have_attribute("id", f"glide-cell-{c}-{row}")
    page.keyboard.press("Enter")  # opens the cell editor
    editor = page.locator("input.gdg-input, textarea.gdg-input").first
    editor.wait_for()
    editor.fill(value)
    page.keyboard.press("Enter")
    step(page, f"after editing cell ({row}, {col}) to {value}")


def test_cost_matrix_edit_changes_expected_cost(page, app_url):
    goto(page, app_url + "/matrix?data=tickets")  # its answer is a table; its heatmaps come on request
    editor = grid_after(page, "Prices")
    shown = grid_rows(page, editor)
    c = np.array([[float(r[k]) for k in r if k.startswith("decide ")] for r in shown])
    assert [r[""] for r in shown] == ["truth: billing", "truth: technical", "truth: security"]
    before = policy_costs(page)
    for name, cost in tickets_policy_costs(c).items():  # each at the column's one precision (the headline's)
        assert _reads_as(before[name], cost), (name, before[name], cost)
    assert len({len(v.partition(".")[2]) for v in before.values()}) == 1, before

    edit_cell(page, editor, row=2, col=1, value="50")  # truth security, decided technical: 10 -> 50
    c[2, 1] = 50.0
    step(page, "after editing the prices")
    wait_for_url(page, r"C=0%2C1%2C1%3B1%2C0%2C1%3B10%2C50%2C0")
    assert float(grid_rows(page, editor)[2]["decide technical"]) == 50.0
    after = policy_costs(page)
    assert after["most probable class"] != before["most probable class"]
    for name, cost in tickets_policy_costs(c).items():
        assert _reads_as(after[name], cost), (name, after[name], cost)
    full_screenshot(page, "test_cost_matrix_edit_changes_expected_cost")
