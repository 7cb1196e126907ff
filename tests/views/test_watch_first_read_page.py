"""The Watch page as a first-time reader meets it (review 56, items 12 and 16): whose "a month"
its monthly amounts are, what the refit button puts in place of the sidebar's settings (said
before the click), the sample's command in a block cut only between its arguments, and the
refit chart's axis in the unit."""

from __future__ import annotations

import json

from costlib.answers.watch import shipped_policy
from costlib.present.labels import VOLUME_LABEL
from tests.views.apptest_support import open_app, texts


def test_the_page_says_whose_month_and_what_the_refit_puts_in_place_of_the_sidebar():
    at = open_app("compas", "views/watch.py")
    (yours,) = [int(n.value) for n in at.sidebar.number_input if n.label == VOLUME_LABEL]  # 10,000 at first
    month = shipped_policy()["volume"]  # the built-in policy's: what the refit's page opens at
    assert yours != month
    said = texts(at)
    # one volume on the page, the sidebar's, named in the headline (review 140): no second month to set apart
    assert f"a month at your {yours:,} cases a month)" in said
    assert "A month here is" not in said and "not your" not in said
    # before the click: the settings it puts in place of yours, and the sidebar's volume changing
    assert f"the policy's prices, unit, review limit and {month:,} cases a month (in place of yours)" in said
    # said where the button is pressed, in a box of its own (54ff9e2), not inside the long caption
    assert f"This button also changes your settings, on every page: {VOLUME_LABEL} from {yours:,} to {month:,}" in said
    # the command in a block of its own, every line continued but the last
    (code,) = [c.value for c in at.code if "costlib watch" in c.value]
    assert code.count(" \\\n") == len(code.splitlines()) - 1 >= 1
    chart = json.loads(next(c for c in at.get("plotly_chart") if c.key == "watch_refit_chart").proto.spec)
    assert chart["layout"]["yaxis"]["title"]["text"] == "cost per case ($)"  # the policy's unit, as other charts
