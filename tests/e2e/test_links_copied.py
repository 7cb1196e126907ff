"""A page's copied address opens, in a fresh browser, on the answer the page showed.

A first-time product manager opened /costs?data=compas&c_fn=10 and clicked Value: its address
became /value?data=compas&unit=%24&volume=10000&..., without the prices, and opened in a fresh
browser it gave the default prices and the opposite verdict (Calibration's and Find my prices'
likewise). Every page whose answer reads a setting carries it in its address
(`views._ui.state.setting`, `views._ui.prices.stored_costs`)."""

from __future__ import annotations

import pytest
from e2e_support import current_url, goto, nav, set_number, step

from costlib.present import capacity_words
from costlib.present import labels as t

pytestmark = pytest.mark.browser

PATHS = {
    t.PAGE_COSTS: "/costs",
    t.PAGE_PRICES: "/prices",
    t.PAGE_VALUE: "/value",
    t.PAGE_CALIBRATION: "/calibration",
    t.PAGE_MATRIX: "/matrix",
    t.PAGE_INSTANCE: "/instance",
}
MAIN = '[data-testid="stMainBlockContainer"]'


def answer(page) -> list[str]:
    """What the page answers: its alert boxes (the verdict among them) and its captions (what
    Calibration checked, the money at these prices), in order, then what its boxes and sliders
    hold (Find my prices' price of a false alarm starts from the price book's)."""
    boxes = page.locator(f'{MAIN} [data-testid="stAlert"], {MAIN} [data-testid="stCaptionContainer"]')
    held = page.locator(f'{MAIN} input[type="number"], {MAIN} input[type="text"]').evaluate_all(
        "els => els.filter(e => !e.closest('[data-testid=\"stPopoverBody\"]')).map(e => e.value)"
    )  # not the exact prices' boxes: a popover opened once stays in the page
    slid = page.locator(f'{MAIN} [role="slider"]').evaluate_all("els => els.map(e => e.ariaValueText)")
    return [x.strip() for x in boxes.all_inner_texts()] + held + slid


def settled(page) -> list[str]:
    """`answer` once two readings a second apart agree (parts of a page draw after its run ends)."""
    before, now = None, answer(page)
    for _ in range(30):
        if now == before:
            return now
        page.wait_for_timeout(1000)
        step(page)
        before, now = now, answer(page)
    return now


def set_exact_prices(page, c_fp: float, c_fn: float) -> None:
    """Costs & groups' exact prices, typed as a person types them."""
    page.get_by_role("button", name=t.EXACT_PRICES).click()
    set_number(page, t.EXACT_FP, c_fp)
    set_number(page, t.EXACT_FN, c_fn)
    page.keyboard.press("Escape")
    step(page, "after the exact prices")


def opened_fresh(new_page, url: str) -> list[str]:
    fresh = new_page()  # a new context: a new session, nothing remembered
    goto(fresh, url)
    return settled(fresh)


@pytest.mark.parametrize("title", [t.PAGE_COSTS, t.PAGE_PRICES, t.PAGE_VALUE, t.PAGE_CALIBRATION])
def test_a_two_class_page_s_copied_address_gives_its_answer_at_the_prices_set_elsewhere(page, new_page, app_url, title):
    """Prices set on Costs & groups (a false negative 12 times a false alarm's price, a review limit
    that changes which of Screening's two models Costs & groups picks for Calibration), then the page
    opened from the navigation: its address, opened fresh, shows the same answer, which is not the
    answer at the default prices."""
    goto(page, app_url + "/costs?data=screening", chart=True)
    set_exact_prices(page, 0.5, 6)
    page.get_by_text(capacity_words.CAP_TOGGLE, exact=True).click()
    step(page, "after the review limit")
    set_number(page, capacity_words.CAP_LABEL, 600)
    if title != t.PAGE_COSTS:
        nav(page, title, chart=False, timeout=90)
    shown = settled(page)
    url = current_url(page)  # written by the run
    assert shown and opened_fresh(new_page, url) == shown, url
    assert opened_fresh(new_page, app_url + PATHS[title] + "?data=screening") != shown  # the prices matter


@pytest.mark.parametrize(
    ("title", "data", "price", "value"),
    [
        (t.PAGE_MATRIX, "tickets", t.HANDOVER_PRICE, 0.05),
        (t.PAGE_INSTANCE, "offensive", t.TYPICAL_MISTAKE, 0.01),
    ],
)
def test_a_page_s_own_price_is_in_its_copied_address_after_a_visit_elsewhere(
    page, new_page, app_url, title, data, price, value
):
    """Cost matrix's price of a hand-over and Instance costs' price of a mistake, set on the page,
    kept while Costs & groups is visited at other prices, are in the page's address when it is
    opened again from the navigation."""
    goto(page, app_url + PATHS[title] + f"?data={data}")
    set_number(page, price, value)
    nav(page, t.PAGE_COSTS, chart=False, timeout=90)
    set_exact_prices(page, 0.5, 6)
    nav(page, title, chart=False, timeout=90)
    shown = settled(page)
    url = current_url(page)
    assert shown and opened_fresh(new_page, url) == shown, url
    assert opened_fresh(new_page, app_url + PATHS[title] + f"?data={data}") != shown  # the price matters
