"""Review 71, item 9: after six answers on COMPAS, Find my prices showed its finished answer ("Any
ratio from 4.6 to 5.7 gives the same decision ...") in a red error box, under a "Your answers"
heading that listed no answers. The settled answer is shown as settled (not an error), and the
heading lists each question with the answer given."""

from costlib.binary import elicit
from tests.views.apptest_support import assert_no_exception, open_app, unescape


def _settled(truth: float):
    at = open_app("compas", "views/prices.py")
    while at.session_state["_bracket"].settled is None:
        n = elicit.next_n(at.session_state["_bracket"])
        at.button(key="ans_miss" if truth > n else "ans_alarm").click().run()  # a miss costs `truth` alarms
        assert_no_exception(at)
    return at


def test_the_settled_answer_is_no_error_and_the_answers_are_listed():
    at = _settled(5.0)
    bracket = at.session_state["_bracket"]
    assert bracket.settled is not None and len(bracket.answers) == 6, bracket
    assert not [e.value for e in at.error]  # the reviewer's red box
    (settled,) = [unescape(e.value) for e in [*at.info, *at.success] if "gives the same decision" in unescape(e.value)]
    assert settled.startswith("Any ratio from 4.6 to 5.7 gives the same decision")
    headings = [h.value for h in at.subheader]
    assert "Your answers" in headings and "Which is worse?" not in headings
    said = "\n".join(unescape(m.value) for m in at.markdown)
    for i in range(1, len(bracket.answers) + 1):
        assert f"Question {i}: Which is worse: 1 × a missed case, or " in said
    assert said.count("You said: ") == 6
    assert (
        "Question 2: Which is worse: 1 × a missed case, or 32 × a false alarm? You said: 32 × a false alarm is worse."
        in said
    )
    assert (
        "Question 6: Which is worse: 1 × a missed case, or 4.6 × a false alarm? You said: 1 × a missed case is worse."
        in said
    )
