"""Costs & groups: the reviewer picks the group every other is compared with; the disparities
table, the headline and the downloaded record all use it, and a link keeps it."""

from __future__ import annotations

from costlib import answers
from costlib.binary import decision as D
from tests.views.apptest_support import assert_no_exception, compas_model, open_app, unescape, verdict_box


def _disparity_table(at):
    return [t.value for t in at.dataframe if "ratio" in " ".join(map(str, t.value.columns)).lower()][0]


def test_a_chosen_reference_group_is_the_one_compared_with_everywhere():
    at = open_app("compas", "views/costs.py", details="true")
    assert_no_exception(at)
    picker = at.selectbox(key="disparity_reference_pick")
    assert picker.value == "" and "the largest group" in picker.format_func(picker.value)  # by default
    _, ms = compas_model()
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=1000)
    default = answers.costs_verdict(rec, ms, unit="$", volume=10_000).headline
    assert verdict_box(at) == default and "in group “African-American”" in default  # the largest
    picker.set_value("Caucasian").run()
    assert_no_exception(at)
    assert at.query_params["disparity_reference"] == "Caucasian"
    want = answers.costs_verdict(rec, ms, unit="$", volume=10_000, reference="Caucasian").headline
    assert verdict_box(at) == want != default and "in group “Caucasian”" in want
    shown = _disparity_table(at)
    reference_rows = shown[shown["result"] == "reference"]
    assert set(map(unescape, reference_rows["group"].astype(str))) == {"Caucasian"}
    assert set(reference_rows["value"]) == set(shown["reference"])  # every row is read against it
    record = at.session_state["_costs_audit"]["build"]()  # what the report and policy buttons write
    assert record.disparities.reference == "Caucasian" and record.verdict.headline == want


def test_a_link_naming_no_group_falls_back_to_the_largest():
    at = open_app("compas", "views/costs.py", details="true", disparity_reference="Martians")
    assert_no_exception(at)
    assert at.selectbox(key="disparity_reference_pick").value == ""
    assert at.query_params.get("disparity_reference") is None
    notes = " ".join(unescape(w.value) for w in at.warning)
    assert "“Martians” is not one this page can use, so the largest group" in notes and "None" not in notes


def test_a_link_naming_a_group_is_the_reference_from_the_first_answer():
    at = open_app("compas", "views/costs.py", disparity_reference="Caucasian")
    assert_no_exception(at)
    _, ms = compas_model()
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=1000)
    assert verdict_box(at) == answers.costs_verdict(rec, ms, unit="$", volume=10_000, reference="Caucasian").headline
