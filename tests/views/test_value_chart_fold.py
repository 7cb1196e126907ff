"""The Value page's first chart draws the rule its answer uses. When the answer prices each mistake
on its own (separate prices), the first chart is that rule at the real prices (each answer's
threshold, the other's held), and the chart at k, one price for every wrong answer, folds below it
under a title that says so: as the page's first chart it showed, under "Ship the model … worth
$0.113 per case", a curve below $0 everywhere (k = 5.5 on COMPAS at $1 / $10), which a first-time
reader took for a contradiction."""

import json

from costlib.present.labels import ONE_PRICE_CHART
from tests.views.apptest_support import assert_no_exception, figure, open_app

APART = "at one price for every wrong answer"


def _titles(at) -> list[str]:
    titles = [figure(at, i).layout["title"]["text"] for i in range(len(at.get("plotly_chart")))]
    return [t for t in titles if t.startswith("Worth per case by confidence threshold")]


def _title(chart) -> str:
    return json.loads(chart.proto.spec)["layout"]["title"]["text"]


def test_at_separate_prices_the_first_chart_is_the_answers_rule_and_the_k_chart_folds_below():
    at = open_app("compas", "views/value.py", c_fp=1, c_fn=10)
    assert_no_exception(at)
    first, one_price = _titles(at)
    assert first == "Worth per case by confidence threshold, each mistake at its own price, p_recid (test rows)"
    assert one_price == f"Worth per case by confidence threshold {APART}, p_recid (test rows)"
    (fold,) = [e for e in at.expander if e.label == ONE_PRICE_CHART]
    assert [_title(c) for c in fold.get("plotly_chart")] == [one_price]


def test_the_k_chart_title_is_plain_and_first_when_one_price_is_the_answer():
    at = open_app("compas", "views/value.py", c_fp=3, c_fn=3)
    assert_no_exception(at)
    (title,) = _titles(at)
    assert APART not in title and title.endswith(", p_recid (test rows)")
    assert not [e for e in at.expander if e.label == ONE_PRICE_CHART]
