"""Headless AppTest of the Find my prices page: the questions lead to prices on Costs & groups."""

import pytest

import costlib
from tests.views.apptest_support import (
    assert_no_exception,
    open_app,
    sample_frame,
    texts,
)


def test_find_my_prices_conversation_with_going_back_lands_on_costs_with_the_bracket():
    from costlib.binary import elicit

    at = open_app("compas", "views/prices.py")
    at.text_input(key="name_miss").set_value("a missed reoffence").run()
    at.text_input(key="name_alarm").set_value("a needless detention").run()
    assert "Which is worse: 1 × a missed reoffence, or 1 × a needless detention?" in texts(at)
    at.button(key="ans_miss").click().run()  # 1 miss is worse than 1 alarm: r > 1
    assert_no_exception(at)
    b = at.session_state["_bracket"]
    assert (b.low, b.high) == (1.0, 1000.0)
    n = elicit.next_n(b)
    at.button(key="ans_alarm").click().run()  # n alarms are worse: r < n
    assert (at.session_state["_bracket"].low, at.session_state["_bracket"].high) == (1.0, n)
    at.button(key="ans_back").click().run()  # going back undoes only that answer
    assert at.session_state["_bracket"] == b
    truth = 4.0
    while at.session_state["_bracket"].settled is None:
        n = elicit.next_n(at.session_state["_bracket"])
        at.button(key="ans_miss" if truth > n else "ans_alarm").click().run()
        assert_no_exception(at)
    b = at.session_state["_bracket"]
    assert b.low <= truth <= b.high and len(b.answers) <= 6
    # the stop rule: one cutoff over the bracket, or the bracket is within a factor of 1.5
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    span = costlib.optimal_cutoffs_by_ratio(tr["two_year_recid"], tr["p_recid"], ratio_low=b.low, ratio_high=b.high)
    assert b.settled == "robust" and len(span) == 1 or b.high / b.low <= 1.5 + 1e-9
    at.button(key="use_prices").click().run()
    assert_no_exception(at)
    at.switch_page("views/costs.py").run()  # (AppTest does not follow st.switch_page by itself)
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.0
    assert at.select_slider(key="s_c_fn").value == pytest.approx(b.middle)
    assert "Your prices come from" in texts(at) and "a missed reoffence" in texts(at)
    assert at.session_state["_keep_price_questions"]["ratio_chosen"] == pytest.approx(b.middle)


def test_find_my_prices_group_question_prices_a_miss_differently_in_one_group():
    """The per-group question multiplies only that group's miss price; the alarm keeps its price."""
    at = open_app("compas", "views/prices.py")
    at.button(key="ans_miss").click().run()  # one answer is enough to use the prices
    assert_no_exception(at)
    middle = at.session_state["_bracket"].middle
    at.select_slider(key="mult_0").set_value(2.0).run()
    at.button(key="use_prices").click().run()
    assert_no_exception(at)
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert at.toggle(key="per_group").value is True
    groups = sorted(sample_frame("compas")["race"].unique().tolist(), key=str)
    assert len(groups) > 1
    for i in range(len(groups)):
        assert at.select_slider(key=f"s_c_fp_{i}").value == 1.0
        want = 2 * middle if i == 0 else middle
        assert at.select_slider(key=f"s_c_fn_{i}").value == pytest.approx(want)
    record = at.session_state["_keep_price_questions"]
    assert record["group_multipliers"][str(groups[0])] == 2.0
    assert all(record["group_multipliers"][str(g)] == 1.0 for g in groups[1:])


def test_the_range_label_sits_on_its_line_inside_the_chart():
    """Issue 44, item 5: "your range: 1.96 to 2.9..." ran off the chart's right edge. On the log
    axis Plotly drew the label at 10 to the power of the line's ratio (a line at 2.4 was
    labelled at 250; at 179, far off the chart). The label now sits on its line (at the log of
    its ratio) on the side toward the middle of the chart."""
    import numpy as np

    from tests.views.apptest_support import charts

    at = open_app("compas", "views/prices.py")
    for _ in range(2):  # a miss is worse than 1, then than 32 false alarms: the bracket is 32 to 1,000
        at.button(key="ans_miss").click().run()
        assert_no_exception(at)
    b = at.session_state["_bracket"]
    spec = next(c for c in charts(at) if "every price ratio" in c["layout"]["title"]["text"])
    layout = spec["layout"]
    assert layout["xaxis"]["type"] == "log"
    (note,) = [a for a in layout["annotations"] if a["text"].startswith("your range")]
    line = b.middle  # where "Use these prices" sets the price
    assert note["x"] == pytest.approx(np.log10(line))  # Plotly reads an annotation's x on a log axis as a log
    low, high = layout["xaxis"]["range"]
    assert low < note["x"] < high
    assert note["xanchor"] == "right"  # the line is right of the middle: its label runs left, into the chart


def test_before_any_answer_the_chart_marks_no_range():
    """Review 61: before any answer the "range" is every ratio on the axis, and the chart drew
    "your range: 0.001 to 1,000" on a line at 1, as if the person had said 1."""
    from tests.views.apptest_support import charts

    at = open_app("compas", "views/prices.py")
    spec = next(c for c in charts(at) if "every price ratio" in c["layout"]["title"]["text"])
    assert not [a for a in spec["layout"].get("annotations", []) if a["text"].startswith("your range")]
    assert not spec["layout"].get("shapes")
