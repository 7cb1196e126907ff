"""The Value page's worth chart prices every wrong answer at k. When the answer prices each mistake
on its own (separate prices), the chart's title says so: under "Ship the model … worth $0.113 per
case" it showed a curve below $0 everywhere (k = 5.5 on COMPAS at $1 / $10), which a first-time
reader took for a contradiction."""

from tests.views.apptest_support import assert_no_exception, figure, open_app

APART = "at one price for every wrong answer"


def _title(at) -> str:
    titles = [figure(at, i).layout["title"]["text"] for i in range(len(at.get("plotly_chart")))]
    (title,) = [t for t in titles if t.startswith("Worth per case by confidence threshold")]
    return title


def test_the_k_chart_says_it_prices_every_wrong_answer_alike_when_the_answer_does_not():
    at = open_app("compas", "views/value.py", c_fp=1, c_fn=10)
    assert_no_exception(at)
    assert _title(at).startswith(f"Worth per case by confidence threshold {APART}, p_recid (k = 5.5")


def test_the_k_chart_title_is_plain_when_one_price_is_the_answer():
    at = open_app("compas", "views/value.py", c_fp=3, c_fn=3)
    assert_no_exception(at)
    assert APART not in _title(at)
