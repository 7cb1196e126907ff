"""The Watch page under "What Costs & groups recommends now" (review 3 of the Watch page, item 1):
it says which cutoff is watched (the data, where it is chosen, the model and its cutoff) instead
of pointing at a sidebar without data, and where the built-in year went, with a way back."""

from __future__ import annotations

from costlib import answers
from costlib.present import watch_labels as w
from costlib.present.labels import DATA_WORDS
from tests.views.apptest_support import assert_no_exception, open_app, texts, unescape


def test_the_recommended_cutoff_is_named_before_the_cases_and_the_sample_has_a_way_back():
    at = open_app("compas", "views/watch.py")
    at.radio(key="watch_which").set_value(w.FROM_COSTS).run()
    assert_no_exception(at)
    said = texts(at)
    assert "for the data in the sidebar" not in said  # the old words pointed at a sidebar with no data in it
    # the data it is fitted on is chosen in the sidebar's Data list: that list is there
    assert DATA_WORDS["data"] in [s.label for s in at.sidebar.selectbox]
    watched = next(line for line in said.splitlines() if line.startswith("The cutoff to watch: what Costs & groups"))
    assert f"the data chosen in the sidebar's {DATA_WORDS['data']} list" in watched
    assert 'model "' in watched and ("flag " in watched)  # the model and its cutoff, said
    assert w.NEEDS_CASES_NOW in said and w.SAMPLE_HIDDEN in said and not at.get("plotly_chart")
    # the way back to the built-in year
    [b for b in at.button if b.key == "watch_sample_now"][0].click().run()
    assert_no_exception(at)
    assert at.radio(key="watch_which").value == answers.FROM_FILE
    assert any(unescape(x.value).startswith("Refit: since 2026-07") for x in at.error)
