"""A page the data chosen does not fit answers for one built-in sample, the same on every page it
fits, says plainly why and which page answers for the data chosen, and says "not your data" only
when the data chosen was the reader's own file.

A first-time product manager chose Support tickets (three classes): Costs & groups and Find my
prices answered for COMPAS, Value and Calibration for Screening, and Calibration said "Checked:
score_overconfident, the model Costs & groups picks" while Costs & groups showed COMPAS; every
headline said "not your data" of a sample they had picked."""

from __future__ import annotations

import pytest

from costlib.loading.samples import SAMPLES
from costlib.present import labels, words
from costlib.present.words import SampleInstead, Verdict, on_sample
from tests.views.apptest_support import assert_no_exception, open_app, texts, unescape

TICKETS = SAMPLES["tickets"].title
COMPAS = SAMPLES["compas"].title
TWO_CLASS_PAGES = ["views/costs.py", "views/prices.py", "views/value.py", "views/calibration.py"]


def infos(at) -> list[str]:
    return [unescape(x.value) for x in at.info]


@pytest.mark.parametrize("page", TWO_CLASS_PAGES)
def test_three_classes_on_a_two_class_page_answer_for_one_sample_said_plainly(page):
    at = open_app("tickets", page)
    said = infos(at)
    assert (
        f"“{TICKETS}” has three classes and this page needs two; the Cost matrix page answers for it. "
        f"Shown here: the built-in sample “{COMPAS}”." in said
    ), said
    shown = texts(at)
    assert "not your data" not in shown  # the reader chose a sample: none of their data is set aside
    assert SAMPLES["screening"].title not in shown and "score_overconfident" not in shown, shown
    if page != "views/prices.py":  # the answer's first sentence names the sample (Find my prices asks first)
        assert any(s.split(": ", 1)[-1].startswith(f"on the built-in sample “{COMPAS}”, ") for s in said), said


def test_calibration_checks_the_model_costs_and_groups_shows():
    costs = open_app("tickets", "views/costs.py")
    calibration = open_app("tickets", "views/calibration.py")
    assert_no_exception(calibration)
    model = list(SAMPLES["compas"].mapping.scores)[0]
    assert model in texts(costs) and model in texts(calibration)


def test_two_classes_on_the_cost_matrix_point_to_costs_and_groups():
    at = open_app("compas", "views/matrix.py")
    assert (
        f"“{COMPAS}” lacks {labels.NEEDS['multiclass'][0]}, which this page needs; Costs & groups answers for it. "
        f"Shown here: the built-in sample “{TICKETS}”." in infos(at)
    ), infos(at)
    assert "not your data" not in texts(at)


def test_only_the_reader_s_own_file_is_called_not_theirs():
    ship = Verdict("success", "Ship the model: flag a case when s is at least 0.5.")
    assert on_sample(ship, COMPAS).headline == (
        f"Ship the model: on the built-in sample “{COMPAS}”, not your data, flag a case when s is at least 0.5."
    )
    instead = on_sample(ship, SampleInstead(COMPAS))
    assert instead.headline == f"Ship the model: on the built-in sample “{COMPAS}”, flag a case when s is at least 0.5."
    assert instead.kind == "info" and words.on_sample(ship, None) is ship
