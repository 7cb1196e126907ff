"""The cost chart draws the model the page recommends (review 74, item 1).

On the offensive-language sample a false negative moved from $3 to $15 made the headline
recommend "score_nb", while "Curve of the model" kept "score_lr" (a keyed selectbox keeps its
state over its `index`) and the chart's star marked score_lr's "best single cutoff", cheaper than
the headline's cost. A price move that changes the recommended model now moves the chart to it;
a model the reader picked by hand stays only while the recommendation is the same one.
"""

from __future__ import annotations

from tests.views.apptest_support import assert_no_exception, figure, open_app, verdict_box

TITLE = "Cost per case against the cutoff, {model} (test rows)"


def _shown(at) -> str:
    """The model in "Curve of the model", after checking that the chart draws that one."""
    model = at.selectbox(key="curve_model").value
    assert figure(at, 0).layout["title"]["text"] == TITLE.format(model=model)
    return model


def _move_fn(at, price: float) -> None:
    at.select_slider(key="s_c_fn").set_value(price).run()
    assert_no_exception(at)


def test_a_price_move_that_changes_the_recommended_model_moves_the_chart_to_it():
    at = open_app("offensive", "views/costs.py")
    before = _shown(at)
    assert f"“{before}”" in verdict_box(at)
    _move_fn(at, 15.0)
    after = _shown(at)
    assert f"“{after}”" in verdict_box(at), (after, verdict_box(at))
    assert after != before  # the move changed the recommendation (else the test proves nothing)
    _move_fn(at, 3.0)  # and back: the chart follows the recommendation again
    assert _shown(at) == before


def test_a_model_picked_by_hand_stays_until_the_recommendation_changes():
    at = open_app("offensive", "views/costs.py")
    recommended = _shown(at)
    other = next(m for m in at.selectbox(key="curve_model").options if m != recommended)
    at.selectbox(key="curve_model").set_value(other).run()
    _move_fn(at, 5.0)  # the same model recommended: the reader's pick stays
    assert f"“{recommended}”" in verdict_box(at) and _shown(at) == other
    _move_fn(at, 15.0)  # the recommendation moves (to the model picked)
    assert f"“{other}”" in verdict_box(at) and _shown(at) == other
    _move_fn(at, 3.0)  # and moves back: the chart follows it, the earlier pick is spent
    assert f"“{recommended}”" in verdict_box(at) and _shown(at) == recommended
