"""What first-time users met on Costs & groups in a real browser: with "Different prices per
group" on, "Type exact prices" read "False positive 0 / False negative 0" beside a page computing
with $1 and $3 (a box in a popover never opened was drawn from the last run's default, 0)."""

from __future__ import annotations

import pytest
from e2e_support import goto, step

from costlib.present import labels as t

pytestmark = pytest.mark.browser


def test_exact_prices_show_the_prices_in_use_with_prices_per_group(page, app_url):
    goto(page, app_url + "/costs?data=compas", chart=True)
    page.get_by_text(t.PER_GROUP, exact=True).click()  # before the popover was ever opened
    step(page, "after turning on per-group prices")
    page.get_by_role("button", name=t.EXACT_PRICES).click()
    step(page, "after opening the exact prices")
    body = page.locator('[data-testid="stPopoverBody"]')
    shown = {i.get_attribute("aria-label"): i.input_value() for i in body.locator("input").all()}
    assert shown[t.in_unit(t.EXACT_FP, "$")] == "1" and shown[t.in_unit(t.EXACT_FN, "$")] == "3", shown
    for g in ("African-American", "Caucasian", "Other"):
        assert shown[t.in_unit(t.GROUP_EXACT_FP.format(group=g), "$")] == "1", shown
        assert shown[t.in_unit(t.GROUP_EXACT_FN.format(group=g), "$")] == "3", shown
    assert t.EXACT_EVERYONE_UNUSED in body.inner_text()  # what the first pair sets, with the groups' on
