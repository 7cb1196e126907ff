"""The answer of the Calibration page."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.calibration import BinnedScores, apply_temperature, brier_score, calibration_advice, fit_temperature
from costlib.core.dataset import Dataset
from costlib.core.escaping import shorten
from costlib.present import figures, page_answers, words


@dataclass(frozen=True, eq=False)
class CalibrationFit:
    """One model's scores before and after temperature scaling (what a Bins move reads)."""

    model: str
    fit_on: str  # "validation", "train" or "same" (fitted on the judged rows)
    t: float  # the temperature (NaN when none could be fitted)
    binned: BinnedScores  # the judged scores, sorted once
    binned_cal: BinnedScores
    brier: tuple[float, float]  # before, after
    before: object  # value.value_sweep of the judged rows (a Sweep), before
    after: object  # and after


def calibration_fit(ds: Dataset, model: str) -> CalibrationFit:
    """Fit the temperature on the calibration rows and judge both scores on the judged rows."""
    fit_rows, judge = ds.purpose_rows("calibrate"), ds.purpose_rows("judge")
    fit_on = "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else "same"
    y, p = ds.y[judge], ds.scores[model][judge]
    t = fit_temperature(ds.y[fit_rows], ds.scores[model][fit_rows])
    p_cal = apply_temperature(p, t) if np.isfinite(t) else p
    return CalibrationFit(
        model=model,
        fit_on=fit_on,
        t=t,
        binned=BinnedScores.of(y, p),
        binned_cal=BinnedScores.of(y, p_cal),
        brier=(brier_score(y, p), brier_score(y, p_cal)),
        before=value.value_sweep(y, p),
        after=value.value_sweep(y, p_cal),
    )


NO_SPLIT_TO_CALIBRATE = (
    "No validation or train split: the temperature is fitted and judged on the same rows, which flatters "
    "it. Map a split column on the Data page."
)
BRIER_HELP = "Mean squared difference between probability and outcome (lower is better)."


@dataclass(frozen=True, eq=False)
class CalibrationAnswer:
    verdict: words.Verdict
    metrics: tuple[dict, ...]  # keyword arguments of each metric, in order
    figure: object  # the reliability diagram
    table: pd.DataFrame  # worth at tau* before and after
    caption: str


def calibration_answer(
    fit: CalibrationFit, *, bins: int, chance: float, choice, worth: float, unit: str
) -> CalibrationAnswer:
    """The Calibration page at `bins` bins: `chance` is `fit.binned.ece_by_chance(bins)`, `choice`
    the k the Value page reads (`answers.value.KChoice`)."""
    model, t = fit.model, fit.t
    ece_before, ece_after = fit.binned.ece(bins), fit.binned_cal.ece(bins)
    verdict = page_answers.calibration_verdict(model, t, fit.fit_on, ece_before, ece_after, ece_chance=chance)
    metrics = (
        {"label": "Temperature T", "value": f"{t:.3f}" if np.isfinite(t) else "none"},
        {
            "label": "ECE before",
            "value": f"{ece_before:.4f}",
            "help": "Expected calibration error: the average gap between the "
            "predicted probability and the observed share of positives, weighted by the cases in each bin.",
        },
        {
            "label": "ECE after",
            "value": f"{ece_after:.4f}",
            "delta": f"{ece_after - ece_before:+.4f}" if abs(ece_after - ece_before) >= 5e-5 else None,
            "delta_color": "inverse",
        },
        {"label": "Brier before", "value": f"{fit.brier[0]:.4f}", "help": BRIER_HELP},
        {"label": "Brier after", "value": f"{fit.brier[1]:.4f}", "help": BRIER_HELP},
    )
    curves = [(f"{model} (before)", *fit.binned.bins(bins))]
    if np.isfinite(t):
        curves.append((f"{model} (after T = {t:.2f})", *fit.binned_cal.bins(bins)))
    figure = figures.reliability_figure(curves, title=f"Reliability diagram, {model}")
    k = choice.k
    vt = pd.concat(
        [value.value_table({"before": fit.before}, k=k), value.value_table({"after": fit.after}, k=k)],
        ignore_index=True,
    )
    table = pd.DataFrame(
        {
            "probabilities": vt["model"],
            "worth per case at τ*": vt["value at tau*"].map(lambda x: words.money(x * worth, unit)),
            "handed over at τ*": vt["reject rate at tau*"].map(words.percent),
            "worth at the best τ (same rows)": vt["value at best tau"].map(lambda x: words.money(x * worth, unit)),
        }
    )
    gain = (vt.loc[1, "value at tau*"] - vt.loc[0, "value at tau*"]) * worth
    per_group = "; with prices per group, their mean weighted by each group's judged cases" if choice.per_group else ""
    caption = (
        f"At your prices (k = {k:.3g}, a right answer worth {words.money(worth, unit)}; set on Costs & groups and "
        f"Value{per_group}), calibration changes the worth per case at τ* = k/(k+1) by {words.money(gain, unit)}; "
        "the best value over all thresholds hardly moves, because the ranking is unchanged. Handing every case "
        "over is worth 0."
    )
    return CalibrationAnswer(verdict, metrics, figure, table, caption)


def calibration_rows(ds: Dataset) -> str | None:
    """The held-out rows a temperature is fitted on, the same on every page: "validation", else
    "train" (rows other than the judged ones), else None (no split: nothing is held out)."""
    return "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else None


def calibration_advice_line(ds: Dataset, model: str, *, bins: int = 10) -> str | None:
    """The calibration advice for `model` (`calibration.calibration_advice`, the one test), in
    one sentence for the Value and Costs pages; None when its scores are not probabilities."""
    if not ds.probabilities or model not in ds.scores:
        return None
    fit = calibration_fit(ds, model)
    chance = fit.binned.ece_by_chance(bins)
    advice = calibration_advice(fit.t, fit.binned.ece(bins), fit.binned_cal.ece(bins), chance)
    where = f"fitted on the {fit.fit_on} rows" if fit.fit_on != "same" else "fitted and judged on the same rows"
    advice_text = page_answers.calibration_advice_sentence(advice)  # a sentence of its own: lower case after the colon
    return f"Calibration of {shorten(model)} (temperature {where}; Calibration page): " + (
        advice_text[:1].lower() + advice_text[1:]
    )
