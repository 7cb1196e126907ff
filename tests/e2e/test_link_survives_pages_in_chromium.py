"""In the browser: a link's settings stay in the address on every page until the user changes them.

/costs?...&fair=true&fair_tol=0.1&details=true&bins=12, then Data in the navigation: the address
read /?data=screening&c_fp=..., without the fairness switch, its tolerance, the details switch or the
score bands (a move within the app drops the query, and the Data page wrote back only the prices,
unit and volume), and Calibration then showed 10 bands, not the link's 12. `views._ui.state.keep_link`
keeps them (tests/views/test_link_survives_pages.py checks every key on every page).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
from e2e_support import current_url, nav, step, wait_for_chart

from costlib.present import calibration_words as cw
from costlib.present import labels as t
from costlib.present.details_words import COSTS_DETAILS

pytestmark = pytest.mark.browser

LINK = {
    "data": "screening",
    "c_fn": "7",
    "fair": "true",
    "fair_tol": "0.1",
    "details": "true",
    "bins": "12",
    "gain": "2",
    "abstain_on": "false",
    "train_seeds": "5",
}
MAIN = '[data-testid="stMainBlockContainer"]'


def lost(page) -> dict:
    """The link's settings the address no longer holds as the link gave them: {key: what it holds}."""
    held = dict(parse_qsl(urlparse(current_url(page)).query))
    return {k: held.get(k) for k, v in LINK.items() if held.get(k) != v}


def settled_lost(page) -> dict:
    """`lost` once the page's run has written its address (it is rewritten as the run goes)."""
    step(page)
    for _ in range(20):
        if not (gone := lost(page)):
            return gone
        page.wait_for_timeout(250)
    return gone


def test_a_link_s_settings_outlive_the_data_page_and_reach_their_own_page(page, app_url):
    page.goto(app_url + "/costs?" + urlencode(LINK))
    page.locator(f"{MAIN} h1").first.wait_for(timeout=120_000)
    wait_for_chart(page, timeout=120)  # a first answer on a fresh server can take longer than a click's
    assert settled_lost(page) == {}
    nav(page, t.PAGE_DATA, chart=False)
    assert settled_lost(page) == {}  # on HEAD: fair, fair_tol, details, bins, abstain_on, train_seeds gone
    nav(page, t.PAGE_CALIBRATION, chart=True, timeout=90)
    assert settled_lost(page) == {}
    bands = page.locator('[data-testid="stSlider"]', has=page.get_by_text(cw.BINS, exact=True)).get_by_role("slider")
    assert bands.get_attribute("aria-valuetext") == "12"  # the link's score bands, not the default 10
    nav(page, t.PAGE_COSTS, chart=True, timeout=60)
    assert settled_lost(page) == {}
    toggles = page.locator(f'{MAIN} [data-testid="stCheckbox"] input[type="checkbox"]').evaluate_all(
        "els => els.map(e => [e.closest('label').innerText.trim(), e.checked])"
    )
    assert [COSTS_DETAILS.toggle, True] in toggles, toggles  # the link's details switch, on
