"""The answer of the Calibration page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.answers.remembering import compute_now
from costlib.answers.value_k import KChoice, judged_cases, value_k
from costlib.calibration import BinnedScores, apply_temperature, brier_score, calibration_advice, fit_temperature
from costlib.core import settings
from costlib.core.dataset import Dataset
from costlib.core.escaping import shorten
from costlib.present import figures, page_answers, words
from costlib.present.amounts import money, percent
from costlib.present.labels import BRIER_HELP, NO_SPLIT_TO_CALIBRATE


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
    fit_on = calibration_rows(ds) or "same"
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


@dataclass(frozen=True, eq=False)
class Reliability:
    """The Calibration page at one number of bins: the verdict, the numbers, the reliability
    diagram, the worth at τ* before and after, and the caption that says where k comes from."""

    verdict: words.Verdict
    metrics: tuple[dict, ...]  # keyword arguments of each metric, in order
    figure: object  # the reliability diagram
    table: pd.DataFrame  # worth at tau* before and after
    caption: str


def reliability(fit: CalibrationFit, *, bins: int, chance: float, choice, worth: float, unit: str) -> Reliability:
    """What the Calibration page shows at `bins` bins (`CalibrationAnswer.at`): `chance` is
    `fit.binned.ece_by_chance(bins)`, `choice` the k the Value page reads (`answers.value_k.KChoice`)."""
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
            # the change of the two numbers as shown (0.0194 - 0.0169 reads +0.0025, not +0.0024); an
            # ASCII sign: Streamlit reads the arrow's direction from it
            "delta": f"{shown_change:+.4f}"
            if abs(shown_change := round(ece_after, 4) - round(ece_before, 4)) >= 5e-5
            else None,
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
            "worth per case at τ*": vt["value at tau*"].map(lambda x: money(x * worth, unit)),
            "handed over at τ*": vt["reject rate at tau*"].map(percent),
            "worth at the best τ (same rows)": vt["value at best tau"].map(lambda x: money(x * worth, unit)),
        }
    )
    gain = (vt.loc[1, "value at tau*"] - vt.loc[0, "value at tau*"]) * worth
    per_group = "; with prices per group, their mean weighted by each group's judged cases" if choice.per_group else ""
    caption = (
        f"At your prices (k = {k:.3g}, a right answer worth {money(worth, unit)}; set on Costs & groups and "
        f"Value{per_group}), calibration changes the worth per case at τ* = k/(k+1) by {money(gain, unit)}; "
        "the best value over all thresholds hardly moves, because the ranking is unchanged. Handing every case "
        f"over is worth {money(0.0, unit)}."
    )
    return Reliability(verdict, metrics, figure, table, caption)


@dataclass(frozen=True, eq=False)
class CalibrationAnswer:
    """What the Calibration page shows for one model at one price book, worth, k and unit: the
    temperature fitted and both scores judged up front (`fit`, remembered per data set and model),
    the k the Value page reads (`choice`), the warning when nothing is held out to fit on, and
    the reliability at a number of bins on request (`at`; its chance ECE remembered per model and
    bins).

    fit       `CalibrationFit` of the model
    choice    `answers.value_k.KChoice`: k from the price book unless the Value slider moved it
    warning   `NO_SPLIT_TO_CALIBRATE` when the temperature is fitted on the rows it is judged on, else None
    """

    fit: CalibrationFit
    choice: KChoice
    worth: float
    unit: str
    warning: str | None
    remember: object = compute_now

    def at(self, bins: int) -> Reliability:
        """The page at `bins` equal-width bins (`reliability`); the chance ECE of the model's
        scores (`BinnedScores.ece_by_chance`) is remembered under "ece_by_chance", (model, bins)."""
        fit = self.fit
        chance = self.remember("ece_by_chance", (fit.model, bins), lambda: fit.binned.ece_by_chance(bins))
        return reliability(fit, bins=bins, chance=chance, choice=self.choice, worth=self.worth, unit=self.unit)


def calibration_answer(
    ds: Dataset,
    model: str,
    *,
    names: Sequence,
    costs: Mapping,
    worth: float = 1.0,
    moved_k: float | None = None,
    unit: str = "",
    remember=compute_now,
) -> CalibrationAnswer:
    """The Calibration page's answer for `model` on `ds` at the price book `costs` ({group:
    (c_fp, c_fn)} for the groups `names`), a right answer worth `worth` and k the prices' unless
    the Value slider moved it (`moved_k`; `answers.value_k.value_k`), said in `unit`.

    `remember(name, key, compute)` returns ``compute()``, remembered under (name, key): the page
    passes its memo, so that the judged cases are counted once per groups, the temperature fitted
    once per model and the chance ECE computed once per model and bins (moving the bins, the
    prices, the worth or the unit never fits the temperature again).
    """
    cases = remember("judged_cases", tuple(names), lambda: judged_cases(ds, names))
    choice = value_k(costs, cases, worth, moved_k, settings.K.high)
    fit = remember("calibration_fit", (model,), lambda: calibration_fit(ds, model))
    warning = NO_SPLIT_TO_CALIBRATE if fit.fit_on == "same" else None
    return CalibrationAnswer(fit, choice, worth, unit, warning, remember)


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
