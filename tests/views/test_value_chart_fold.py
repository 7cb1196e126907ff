"""The Value page's worth chart prices every wrong answer at k. When the answer prices each mistake
on its own (separate prices), the chart is folded under a title that says so: drawn open under
"Ship the model … worth $0.113 per case" it showed a curve below $0 everywhere (k = 5.5 on COMPAS
at $1 / $10), which a first-time reader took for a contradiction."""

from tests.views.apptest_support import assert_no_exception, chart_keys, open_app


def _folded(at) -> list[str]:
    return [e.label for e in at.expander if "at one price for every wrong answer" in e.label]


def test_the_k_chart_is_folded_and_named_when_the_answer_prices_each_mistake_on_its_own():
    at = open_app("compas", "views/value.py", c_fp=1, c_fn=10)
    assert_no_exception(at)
    assert "value_tau_chart" in chart_keys(at)
    (title,) = _folded(at)
    assert title == "The same model at one price for every wrong answer (k = 5.5): worth by confidence threshold"


def test_the_k_chart_is_open_when_one_price_is_the_answer():
    at = open_app("compas", "views/value.py", c_fp=3, c_fn=3)
    assert_no_exception(at)
    assert "value_tau_chart" in chart_keys(at) and _folded(at) == []
