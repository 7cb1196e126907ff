"""When the recommendation fails, the price inputs are still on screen to move away from it
(the Costs page makes its recommendation before it draws them: views/costs.py)."""

from __future__ import annotations

from costlib.binary import decision
from tests.views.apptest_support import open_app


def test_a_failing_recommendation_leaves_the_prices_on_screen(monkeypatch):
    at = open_app("compas", "views/costs.py")

    def fails(*args, **kwargs):
        raise RuntimeError("the recommendation failed")

    monkeypatch.setattr(decision, "recommend", fails)
    at.select_slider(key="s_c_fn").set_value(7.5).run()
    assert len(at.exception) == 1  # the failure is shown
    assert at.select_slider(key="s_c_fn").value == 7.5  # drawn before the failure is shown
    assert at.select_slider(key="s_c_fp").value == 1.0
