"""A review limit's switch in a link (?cap_on=..., ?value_cap_on=...) that is not "true" or
"false" (issue 45): the page says the link's value was refused and runs without a limit, as it
does for a price or a limit out of range, instead of turning the limit off without a word."""

from __future__ import annotations

import pytest

from costlib.core.settings import LINK_WORDS
from tests.views.apptest_support import open_app
from views._ui.limit import NO_LIMIT


@pytest.mark.parametrize(
    ("page", "sample", "key", "raw"),
    [
        ("views/costs.py", "compas", "cap", "yes"),
        ("views/costs.py", "compas", "cap", "<script>" * 600),
        ("views/value.py", "screening", "value_cap", "1"),
    ],
)
def test_a_limit_switch_that_is_not_true_or_false_is_refused_with_a_sentence(page, sample, key, raw):
    at = open_app(sample, page, timeout=180, **{f"{key}_on": raw, key: "500"})
    said = [w.value.replace("\\", "") for w in at.warning]  # the sentences are Markdown-escaped
    shown = raw[:40] + ("…" if len(raw) > 40 else "")
    name = LINK_WORDS["review_limit_on" if key == "cap" else "handover_limit_on"]  # as the page names it
    refusal = f"The link's {name} “{shown}” is not one this page can use, so {NO_LIMIT} is used instead."
    assert refusal in said, said
    assert at.toggle(key=f"{key}_on").value is False and at.query_params[f"{key}_on"] == "false"
    assert "<script>" not in "".join(w.value for w in at.warning)  # shown escaped


def test_a_limit_switch_in_any_case_still_turns_the_limit_on():
    at = open_app("compas", "views/costs.py", cap_on=" TRUE ", cap="500")
    assert at.toggle(key="cap_on").value is True and at.query_params["cap"] == "500"
    assert not [w.value for w in at.warning if "cap_on" in w.value]


def test_a_per_group_switch_that_is_not_true_or_false_is_refused_with_a_sentence():
    """?per_group= is read by the same rule as a limit's switch: "yes" was off without a word."""
    at = open_app("compas", "views/costs.py", per_group="yes")
    said = [w.value.replace("\\", "") for w in at.warning]
    assert (
        "The link's different prices per group “yes” is not one this page can use, so one price for every group "
        "is used instead." in said
    )
    assert at.toggle(key="per_group").value is False
    at = open_app("compas", "views/costs.py", per_group="True")  # any case still reads
    assert at.toggle(key="per_group").value is True
