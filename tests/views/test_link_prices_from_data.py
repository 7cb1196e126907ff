"""A shared link's prices hold wherever it lands, the Data page included (review 71, item 3):
`/?data=screening&c_fp=5&c_fn=1` opened on the Data page, then Costs & groups clicked at the top,
answered at 1:3 and its address said c_fp=1&c_fn=3 (the Data page never read the prices, and an
in-app move drops the address's query, so the link's prices were gone before a page read them).
Each group's prices (c_fp_0, c_fn_1, ...) and the switch that prices the groups apart likewise.
The Data page keeps the session's prices in its own address as the other pages do theirs."""

from __future__ import annotations

from tests.views.apptest_support import assert_no_exception, open_app, verdict_box


def navigate(at, page: str):
    """A click in the app's navigation: the browser drops the address's query (the session keeps
    the data chosen and every remembered setting), then the page runs."""
    at.query_params.clear()
    at.switch_page(page).run()
    assert_no_exception(at)
    return at


def test_prices_in_a_link_to_the_data_page_hold_on_costs_and_groups():
    at = open_app("screening", None, c_fp=5, c_fn=1)  # lands on the Data page
    assert (at.query_params["c_fp"], at.query_params["c_fn"]) == ("5", "1")
    navigate(at, "views/costs.py")
    assert at.select_slider(key="s_c_fp").value == 5.0 and at.select_slider(key="s_c_fn").value == 1.0
    assert (at.query_params["c_fp"], at.query_params["c_fn"]) == ("5", "1")
    direct = open_app("screening", "views/costs.py", c_fp=5, c_fn=1)  # the link opened on Costs & groups itself
    default = open_app("screening", "views/costs.py")
    assert verdict_box(at) == verdict_box(direct) != verdict_box(default)
    navigate(at, "views/data.py")  # and back: the Data page's own address keeps them
    assert (at.query_params["c_fp"], at.query_params["c_fn"]) == ("5", "1")
    assert at.query_params["data"] == "screening"


def test_each_groups_prices_in_a_link_to_the_data_page_hold_too():
    at = open_app("compas", None, per_group="true", c_fp_0=5, c_fn_1="7.5", c_fp=2, c_fn=10)
    assert {k: at.query_params[k] for k in ("per_group", "c_fp_0", "c_fn_1")} == {
        "per_group": "true",
        "c_fp_0": "5",
        "c_fn_1": "7.5",
    }
    navigate(at, "views/costs.py")
    assert at.toggle(key="per_group").value is True
    fp = [at.select_slider(key=f"s_c_fp_{i}").value for i in range(3)]
    fn = [at.select_slider(key=f"s_c_fn_{i}").value for i in range(3)]
    assert (fp, fn) == ([5.0, 2.0, 2.0], [10.0, 7.5, 10.0])  # a group the link does not price: everyone's pair
    assert (at.query_params["c_fp_0"], at.query_params["c_fn_1"], at.query_params["c_fp"]) == ("5", "7.5", "2")
    direct = open_app("compas", "views/costs.py", per_group="true", c_fp_0=5, c_fn_1="7.5", c_fp=2, c_fn=10)
    assert verdict_box(at) == verdict_box(direct)


def test_a_data_page_opened_without_prices_leaves_them_out_of_its_address():
    at = open_app("screening", None)
    assert not {"c_fp", "c_fn", "per_group"} & set(at.query_params)


def test_the_unit_volume_and_worth_in_a_link_to_the_data_page_hold_too():
    """The unit the prices are in, the cases a month and Value's worth of a right answer (which
    Calibration reads too) were dropped the same way: ?unit=€ gave $ on Costs & groups."""
    at = open_app("screening", None, unit="€", volume=500, gain=2)
    assert {k: at.query_params[k] for k in ("unit", "volume", "gain")} == {"unit": "€", "volume": "500", "gain": "2"}
    navigate(at, "views/costs.py")
    assert at.text_input(key="unit").value == "€" and at.number_input(key="volume").value == 500
    navigate(at, "views/value.py")
    assert at.number_input(key="gain").value == 2.0
    navigate(at, "views/data.py")  # back: its address keeps what was set, not every default the pages read
    assert {k: at.query_params.get(k) for k in ("unit", "volume", "gain", "cap")} == {
        "unit": "€",
        "volume": "500",
        "gain": "2",
        "cap": None,
    }
