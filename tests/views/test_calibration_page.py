"""Headless AppTest of the Calibration page: the fitted temperature, at every number of bins."""

import numpy as np
import pytest

import costlib
from costlib.calibration import MIN_BIN_CASES
from costlib.present import calibration_words as cw
from tests.views.apptest_support import (
    assert_no_exception,
    figure,
    metric,
    open_app,
    sample_frame,
)


def test_calibration_page_reports_the_fitted_temperature():
    at = open_app("screening", "views/calibration.py", model="score_overconfident")
    df = sample_frame("screening")
    val = df[df["split"] == "validation"]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    assert metric(at, cw.TEMPERATURE) == f"{t:.3f}"
    at.slider(key="bins").set_value(15).run()
    assert_no_exception(at)
    te = df[df["split"] == "test"]
    ece = costlib.expected_calibration_error(te["label"], te["score_overconfident"], n_bins=15)
    assert metric(at, cw.ERROR_BEFORE) == f"{ece:.4f}"


@pytest.mark.parametrize("sample", ["compas", "screening", "offensive"])
def test_calibration_page_at_every_bins_value(sample):
    from sklearn.calibration import calibration_curve

    at = open_app(sample, "views/calibration.py")
    df = sample_frame(sample)
    te = df[df["split"] == "test"]
    label, score = {
        "compas": ("two_year_recid", "p_recid"),
        "screening": ("label", "score_overconfident"),  # the model Costs & groups picks at the default prices
        "offensive": ("label", "score_lr"),
    }[sample]
    for bins in range(5, 31):
        at.slider(key="bins").set_value(bins).run()
        assert_no_exception(at)
        observed, predicted = calibration_curve(te[label], te[score], n_bins=bins)
        where = np.searchsorted(np.linspace(0, 1, bins + 1)[1:-1], te[score], side="left")
        counts = np.bincount(where, minlength=bins)
        read = counts[counts > 0] >= MIN_BIN_CASES  # the bins with enough cases to read: on the line
        trace = figure(at, 0).data[1]  # the model before rescaling (trace 0 is the diagonal)
        np.testing.assert_allclose(np.asarray(trace.x, dtype=float), predicted[read])
        np.testing.assert_allclose(np.asarray(trace.y, dtype=float), observed[read])


def test_the_calibration_page_answers_in_the_sidebars_money_per_case_and_month():
    """Review: "Calibration has no ship verdict". Its first box is now one of the three verdicts on
    what rescaling adds at the prices' cutoff, in the sidebar's unit, per case and a month."""
    from tests.views.apptest_support import unescape

    at = open_app("compas", "views/calibration.py", unit="€", volume=2000)
    boxes = [unescape(x.value) for x in [*at.success, *at.warning, *at.error, *at.info]]
    # the three verdicts on rescaling, or (where Costs & groups does not ship the model) its verdict first
    heads = ("Ship the model with its probabilities rescaled: ", "Not clearly better: ", cw.DO_NOT_RESCALE + ": ")
    heads += ("Costs & groups does not ship p_recid: ",)
    answers = [b for b in boxes if b.startswith(heads)]
    assert len(answers) == 1, boxes
    assert "€0." in answers[0] and "per case (€" in answers[0] and "a month)" in answers[0]
    # the worth before and after is said once, in the answer, not again in the caption under the table
    captions = " ".join(unescape(c.value) for c in at.caption)
    assert "rescaling changes the worth" not in captions
