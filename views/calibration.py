"""Calibration: are the probabilities what they say? Formula thresholds assume they are."""

import streamlit as st

from costlib import answers
from costlib.core import settings
from views._ui.data import group_names, model_picker
from views._ui.display import show_chart, show_live_table, show_metrics, show_verdict
from views._ui.memo import memo
from views._ui.page import live, setup
from views._ui.prices import stored_costs
from views._ui.state import keep, mirror, remembered, setting, setting_notes

ds, unit, volume = setup(
    "Calibration",
    "The formula cutoffs (c_fp/(c_fp+c_fn), τ* = k/(k+1)) assume calibrated probabilities: of the cases scored 0.7, "
    "about 70% are positive. Temperature scaling fits one number T on held-out rows and rescales the scores by it; "
    "the ranking (and accuracy) stays, the formula cutoffs become right.",
    needs="probabilities",
)
model = model_picker(ds)
names = group_names(ds)
worth = float(setting("worth", 1.0)) or 1.0
cases = memo("judged_cases", ds, tuple(names), lambda: answers.judged_cases(ds, names))
choice = answers.value_k(stored_costs(names), cases, worth, setting("k"), settings.K.high)
fit = memo("calibration_fit", ds, (model,), lambda: answers.calibration_fit(ds, model))
if fit.fit_on == "same":
    st.warning(answers.NO_SPLIT_TO_CALIBRATE)


@live
def live_calibration() -> None:
    """The bins in, the reliability and its verdict out: reruns alone when the bins move."""
    bins_key = remembered("bins", int(settings.BINS.default))  # from the link through its bound, said when out
    setting_notes()
    bins = st.columns([1, 1])[0].slider(
        "Bins",
        min_value=int(settings.BINS.low),
        max_value=int(settings.BINS.high),
        key=bins_key,
        on_change=keep,
        args=("bins",),
        help="Equal-width bins of the predicted probability (scikit-learn's binning).",
    )
    mirror("bins")
    chance = memo("ece_by_chance", ds, (model, bins), lambda: fit.binned.ece_by_chance(bins))
    answer = answers.calibration_answer(fit, bins=bins, chance=chance, choice=choice, worth=worth, unit=unit)
    show_verdict(answer.verdict)
    show_metrics(answer.metrics)
    show_chart(answer.figure, key="reliability")
    show_live_table(answer.table, "value_before_after", key="cal_value")
    st.caption(answer.caption)


live_calibration()
