"""A setting in the link survives a visit to any page until the user changes it.

A review found Costs & groups' ?fair=true&fair_tol=0.1&details=true and Calibration's ?bins=12 gone
from the address on the Data page: a move within the app drops the address's query and a page wrote
back only the settings it draws or reads, so a link copied on the Data page (or Value, Train with
costs, Watch...) lost them, and a link's setting that the page it opened did not read (?bins=12 on
/costs) was gone for good before its page read it: Calibration showed 10 bands. What the address
keeps is decided in one place, `views._ui.state.keep_link`, run before every page.
"""

from __future__ import annotations

import pytest

from tests.views.apptest_support import assert_no_exception, open_app

#: every key of the link (`costlib.core.settings.LINK_KEYS`) at a value away from its default, bar
#: those of other data (a reference group, a model, a cost matrix): a link to Costs & groups on Screening
LINK = {
    "data": "screening",
    "c_fp": "2",
    "c_fn": "7",
    "unit": "€",
    "volume": "5000",
    "cap_on": "true",
    "cap": "300",
    "value_cap_on": "true",
    "value_cap": "200",
    "resamples": "500",
    "fair": "true",
    "fair_tol": "0.1",
    "k": "4",
    "gain": "2",
    "reject_worth": "0.5",
    "mistake_price": "3",
    "details": "true",
    "bins": "12",
    "threshold": "0.4",
    "abstain_on": "false",
    "abstain": "2",
    "train_data": "predictable",
    "train_methods": "weighted",
    "train_seeds": "5",
}
OTHER_PAGES = [
    "views/data.py",
    "views/prices.py",
    "views/value.py",
    "views/matrix.py",
    "views/instance.py",
    "views/calibration.py",
    "views/train.py",
    "views/watch.py",
]


def navigate(at, page: str):
    """A click in the app's navigation: the browser drops the address's query, then the page runs."""
    at.query_params.clear()
    at.switch_page(page).run()
    assert_no_exception(at)
    return at


def lost(at) -> dict:
    """The link's settings the address no longer holds as the link gave them: {key: what it holds}."""
    return {k: at.query_params.get(k) for k, v in LINK.items() if at.query_params.get(k) != v}


def test_the_link_s_settings_stay_in_the_address_on_every_page_and_back():
    at = open_app(None, "views/costs.py", timeout=300, **LINK)
    assert lost(at) == {}
    for page in OTHER_PAGES:
        navigate(at, page)
        assert lost(at) == {}, page  # on HEAD, the Data page dropped fair, fair_tol, details, bins, ...
        navigate(at, "views/costs.py")
        assert lost(at) == {}, f"back from {page}"
    assert at.toggle(key="details").value is True
    assert at.number_input(key="fair_tol").value == pytest.approx(0.1)


def test_a_setting_the_landing_page_does_not_read_reaches_its_page():
    """?bins=12 in a link to the Data page: no page read it before Calibration, which showed 10."""
    at = open_app("screening", None, timeout=300, bins="12", fair_tol="0.1", details="true")
    navigate(at, "views/value.py")
    assert (at.query_params.get("bins"), at.query_params.get("fair_tol")) == ("12", "0.1")
    navigate(at, "views/calibration.py")
    assert at.slider(key="bins").value == 12
    navigate(at, "views/costs.py")
    assert at.number_input(key="fair_tol").value == pytest.approx(0.1)
    assert at.toggle(key="details").value is True


def test_a_changed_setting_is_kept_at_its_new_value_and_a_group_s_prices_leave_with_the_switch():
    at = open_app("screening", "views/costs.py", timeout=300, details="true", fair_tol="0.1")
    at.toggle(key="details").set_value(False).run()
    navigate(at, "views/data.py")
    assert (at.query_params.get("details"), at.query_params.get("fair_tol")) == ("false", "0.1")
    navigate(at, "views/calibration.py")
    assert at.query_params.get("details") == "false"
    at = open_app("compas", "views/costs.py", timeout=300, per_group="true", c_fp_0="5")
    assert at.query_params.get("c_fp_0") == "5"
    at.toggle(key="per_group").set_value(False).run()
    navigate(at, "views/value.py")
    assert at.query_params.get("per_group") == "false" and "c_fp_0" not in at.query_params
