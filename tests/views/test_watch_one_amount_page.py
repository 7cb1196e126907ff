"""The Watch page by weeks on its built-in year: the headline's "$0.082 per case more" and a paragraph's "estimated
to save about $0.085 per case" under it, two near-equal amounts of mostly the same weeks; now one."""

from tests.views.apptest_support import open_app, texts


def test_the_weeks_answer_says_one_amount():
    at = open_app("compas", "views/watch.py")
    at.selectbox[0].set_value("weeks").run()
    said = texts(at)
    assert "Refit: since week of 2026-07-13 the shipped cutoff has cost about $0.0" in said
    assert "estimated to save about" not in said
