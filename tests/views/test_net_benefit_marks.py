"""Costs & groups' net benefit chart marks what the answer ships, as the page answers it now: the
recommended model's cutoff (named when several models are drawn), or the line of the no-model
choice the answer keeps. The price maps are remembered by the prices alone; the mark is this run's."""

from __future__ import annotations

import json
import re

from costlib.core import rules as R
from tests.views.apptest_support import assert_no_exception, open_app, texts


def _net_benefit(at) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if c.key == "net_benefit_chart").proto.spec)


def test_the_net_benefit_chart_marks_the_recommended_cutoff_of_the_model_that_ships():
    at = open_app("screening", "views/costs.py", details="true")
    assert_no_exception(at)
    shipped = re.search(r"Ship the model .*?flag a case when its score is at least ([0-9]+\.[0-9]+)", texts(at))
    assert shipped, texts(at)[:400]
    notes = [a["text"] for a in _net_benefit(at)["layout"]["annotations"]]
    assert [n for n in notes if re.fullmatch(rf"recommended cutoff of score_\w+: {shipped.group(1)}", n)], notes
    assert "your prices (1 : 3): 0.25" in notes


def test_a_no_model_answer_names_its_line_on_the_net_benefit_chart():
    at = open_app("compas", "views/costs.py", details="true")  # at 1 : 3 the answer keeps flagging everyone
    assert_no_exception(at)
    spec = _net_benefit(at)
    assert f"{R.rule_words(R.EVERYONE)} (no model, recommended)" in [t["name"] for t in spec["data"]]
    assert not [a for a in spec["layout"]["annotations"] if a["text"].startswith("recommended cutoff")]
