"""A product manager who cannot state prices answers a few questions and lands on Costs."""

from __future__ import annotations

import re

import pytest
from e2e_support import alert_texts, full_screenshot, goto, step, wait_for_chart

from costlib.binary import elicit

pytestmark = pytest.mark.browser


def test_answer_the_questions_and_land_on_costs_with_the_prices_set(page, app_url):
    goto(page, app_url + "/costs", chart=True)
    page.get_by_text("Not sure about your prices? Answer a few questions").click()
    page.locator('[data-testid="stMainBlockContainer"] h1', has_text="Find my prices").wait_for()
    wait_for_chart(page)
    page.get_by_label("A missed case is", exact=True).fill("a missed fraud")
    page.get_by_label("A missed case is", exact=True).press("Enter")
    step(page)
    truth, b = 6.0, elicit.Bracket()
    for _ in range(8):
        # the question asked now, not one of "Your answers" listed under it ("Question 1: Which is worse ... You said")
        text = (
            page.locator('[data-testid="stMarkdown"]', has_text="Which is worse").filter(has_not_text="You said").first
        )
        if not text.count():
            break
        n = elicit.next_n(b)
        assert "a missed fraud" in text.inner_text()
        choice = elicit.MISS if truth > n else elicit.ALARM
        page.get_by_role(
            "button",
            name=re.compile(
                r"^1 × a missed fraud is worse$" if choice == elicit.MISS else r"× a false alarm is worse$"
            ),
        ).click()
        step(page, "after an answer")
        b = elicit.answer(b, n, choice)
    full_screenshot(page, "test_find_my_prices-answered")
    page.get_by_role("button", name="Use these prices").click()
    page.locator('[data-testid="stMainBlockContainer"] h1', has_text="Costs & groups").wait_for()
    wait_for_chart(page)
    assert any("Your prices come from" in t for t in alert_texts(page)), alert_texts(page)
    fn = page.locator('[data-testid="stSlider"]', has=page.get_by_text("A false negative costs", exact=True))
    shown = float(fn.get_by_role("slider").get_attribute("aria-valuetext").lstrip("$").replace(",", ""))
    assert b.low <= shown <= b.high or abs(shown - b.middle) / b.middle < 0.01
    full_screenshot(page, "test_find_my_prices-costs")
