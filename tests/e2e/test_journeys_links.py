"""Links to a page: every page opens at its own address, the Data page included.

The Data page was Streamlit's default page, which Streamlit serves at "/" only: a link to
/data (its url_path) opened a "Page not found" dialog over the default page.
"""

from __future__ import annotations

import re

import pytest
from e2e_support import current_url, data_choice, goto, nav, nav_titles, wait_for_url

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


def title(page) -> str:
    return page.locator('[data-testid="stMainBlockContainer"] h1').first.inner_text().strip()


def assert_found(page) -> None:
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0


@pytest.mark.parametrize(
    ("path", "sample"),
    [
        ("/data", "COMPAS"),
        ("/data?data=tickets", "ticket"),
        ("/", "COMPAS"),
        ("/?data=offensive", "ffensive"),
    ],
)
def test_the_data_page_opens_at_its_own_address_and_at_the_root(page, app_url, path, sample):
    goto(page, app_url + path)
    assert_found(page)
    assert title(page) == "Data"
    assert nav_titles(page) == TITLES  # the second entry of the Data page is not in the navigation
    assert sample.lower() in data_choice(page).lower()
    where, _, query = path.partition("?")
    url = wait_for_url(page, re.escape(app_url + where) + r"(\?|$)")  # the address stays as it was opened
    assert query in url
    page.reload()
    page.locator('[data-testid="stMainBlockContainer"] h1').first.wait_for()
    assert_found(page)
    assert title(page) == "Data"


def test_a_deep_link_to_another_page_keeps_its_settings_and_the_navigation_reaches_the_data_page(page, app_url):
    goto(page, app_url + "/costs?data=compas&c_fp=20&c_fn=1", chart=True)
    assert_found(page)
    assert title(page) == "Costs & groups"
    assert re.search(r"c_fp=20(&|$)", wait_for_url(page, r"/costs\?"))
    nav(page, "Data", chart=False)
    assert_found(page)
    assert title(page) == "Data" and "data=compas" in current_url(page)


def test_back_from_a_link_to_the_app_leaves_the_app(page, app_url):
    """A redirect from / to /data would add a history entry: Back would land on / and be sent
    to /data again, never leaving the app."""
    page.goto("data:text/html,<h1>before</h1>")
    goto(page, app_url + "/?data=tickets")
    page.go_back()
    page.wait_for_url("data:**")
    assert page.locator("h1").inner_text() == "before"
