"""A mistake that costs 0 is free: Instance costs and Train with costs say there is nothing to choose
instead of "Ship the model ... saves $0.00 per case" (review 3)."""

from costlib.present import training_page
from tests.views.apptest_support import assert_no_exception, open_app, unescape


def _boxes(at) -> list[str]:
    return [unescape(x.value) for x in [*at.success, *at.warning, *at.error, *at.info]]


def _at_zero(at):
    at.number_input(key="mistake_price").set_value(0.0).run()
    assert_no_exception(at)
    return _boxes(at)


def test_instance_costs_at_a_price_of_0_has_nothing_to_choose():
    at = open_app("offensive", "views/instance.py")
    assert any(b.startswith("Ship the model") for b in _boxes(at))  # at $1, an answer
    shown = _at_zero(at)
    assert training_page.NO_MISTAKE_PRICE in shown, shown
    assert not any("Ship the model" in b or "$0.00" in b for b in shown), shown
    assert not at.get("plotly_chart")  # no cost curve at $0: the page stops under the sentence


def test_train_with_costs_at_a_price_of_0_has_nothing_to_choose():
    at = open_app(None, "views/train.py", timeout=180)  # the precomputed tweets: no training here
    verdicts = ("Ship the model", "Not clearly better")  # the tweets' verdict: since 665c25e the pick is held
    assert any(b.startswith(verdicts) for b in _boxes(at))
    shown = _at_zero(at)
    assert training_page.NO_MISTAKE_PRICE in shown, shown
    assert not any(b.startswith(verdicts) or "$0.00" in b for b in shown), shown
    assert not at.dataframe  # no table of costs per case at $0.00
