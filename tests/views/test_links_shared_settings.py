"""A page reads from its link the settings another page's widget sets, and writes them back: a
copied Calibration link carries the prices, Value's worth of a right answer and Costs & groups'
review limit and resamples it read, and a fresh session opened on it reads them (it read the worth
only from the session: a link's gain=2 was ignored and the answer was the one at $1.00)."""

from __future__ import annotations

from tests.views.apptest_support import open_app, texts


def test_calibration_reads_the_settings_of_other_pages_from_its_link_and_keeps_them_there():
    at = open_app("screening", "views/calibration.py", gain="2", c_fn="8", cap_on="true", cap="300", resamples="500")
    said = texts(at)
    assert "what a right answer is worth ($2.00)" in said  # the link's worth
    assert "prices every wrong answer at $4.50" in said  # (1 + 8) / 2: the average of the link's prices (review 72)
    linked = {k: at.query_params[k] for k in ("gain", "c_fp", "c_fn", "per_group", "cap_on", "cap", "resamples")}
    assert linked == {
        "gain": "2",
        "c_fp": "1",
        "c_fn": "8",
        "per_group": "false",
        "cap_on": "true",
        "cap": "300",
        "resamples": "500",
    }
    at = open_app("screening", "views/calibration.py")
    assert "what a right answer is worth ($1.00)" in texts(at)
    assert "c_fp" in at.query_params and "cap" not in at.query_params  # no limit: its number is not in the link


def test_pages_that_do_not_use_the_prices_leave_them_out_of_their_address():
    for sample, page in (("tickets", "views/matrix.py"), ("offensive", "views/instance.py")):
        at = open_app(sample, page)
        assert not {"c_fp", "c_fn", "per_group", "gain", "resamples"} & set(dict(at.query_params)), page
