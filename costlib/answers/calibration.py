"""The answer of the Calibration page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from costlib import value
from costlib.answers.remembering import compute_now
from costlib.answers.value_k import KChoice, judged_cases, value_k
from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.calibration import (
    ECE_RESAMPLES,
    MIN_BIN_CASES,
    BinnedScores,
    apply_temperature,
    brier_score,
    calibration_advice,
    fit_temperature,
    group_calibration,
)
from costlib.core import settings
from costlib.core.dataset import Dataset
from costlib.core.escaping import shorten
from costlib.present import calibration_group_words as gw
from costlib.present import calibration_money as cm
from costlib.present import calibration_words as cw
from costlib.present import words
from costlib.present.amounts import percent
from costlib.present.calibration_figures import reliability_diagram
from costlib.stats.bootstrap import paired_difference_interval
from costlib.value.contract import row_values


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
    judged: tuple = ()  # (labels, scores, rescaled scores, groups) of the judged rows, in row order; () without groups
    rows: tuple = ()  # (labels, scores, rescaled scores) of the judged rows; () without a temperature
    on_test: bool = True  # the judged rows are test rows (else every row: no test rows to judge on)


def calibration_fit(ds: Dataset, model: str) -> CalibrationFit:
    """Fit the temperature on the calibration rows (`calibration_rows`; the judged rows themselves,
    every row, where none are held out from them) and judge both scores on the judged rows."""
    fit_rows, judge = temperature_rows(ds), ds.purpose_rows("judge")
    fit_on = calibration_rows(ds) or "same"
    y, p = ds.y[judge], ds.scores[model][judge]
    t = fit_temperature(ds.y[fit_rows], ds.scores[model][fit_rows])
    p_cal = apply_temperature(p, t) if np.isfinite(t) else p
    groups = ds.groups[judge] if ds.groups is not None else None
    return CalibrationFit(
        model=model,
        fit_on=fit_on,
        t=t,
        binned=BinnedScores.of(y, p),
        binned_cal=BinnedScores.of(y, p_cal),
        brier=(brier_score(y, p), brier_score(y, p_cal)),
        before=value.value_sweep(y, p),
        after=value.value_sweep(y, p_cal),
        judged=(y, p, p_cal, groups) if groups is not None and len(set(groups.tolist())) > 1 else (),
        rows=(y, p, p_cal) if np.isfinite(t) else (),
        on_test=ds.has_role("test"),
    )


def rescale_gain(fit: CalibrationFit, k: float) -> tuple[float, float]:
    """The 95% interval (low, high) of what rescaling adds to the worth per case at τ* = k/(k+1)
    (in units of a right answer), on the judged rows: each row's worth rescaled less its worth as
    given (1 right, -k wrong, 0 handed over), the rows resampled in pairs with the rescaling held
    (`stats.bootstrap.paired_difference_interval`, seeded). (NaN, NaN) without a temperature, or
    when it was fitted on the judged rows themselves: an interval there would flatter it."""
    if not fit.rows or fit.fit_on == "same":
        return math.nan, math.nan
    y, p, p_cal = fit.rows
    iv = paired_difference_interval(*(row_values(y, scores, k=k) for scores in (p_cal, p)))
    return float(iv.low), float(iv.high)


@dataclass(frozen=True, eq=False)
class GroupsShown:
    """The Calibration page's section on each group at one number of bins.

    sentence  the least calibrated group, and whether its gap is beyond the noise
              (`calibration_group_words.group_sentence`)
    table     each group's cases, error, 95% interval, chance level and error after rescaling
    figure    each group's reliability curve (the groups with enough cases)
    method    how the intervals were made, in words
    note      the sentence on bins too small to read in the groups' curves, or None
    """

    sentence: str
    table: pd.DataFrame
    figure: object
    method: str
    note: str | None


@dataclass(frozen=True, eq=False)
class Reliability:
    """The Calibration page at one number of bins: the verdict, the numbers, the reliability
    diagram and the sentence on its bins too small to read, the worth at τ* before and after,
    the caption that says where k comes from, and each group's calibration (None without groups)."""

    verdict: words.Verdict
    metrics: tuple[dict, ...]  # keyword arguments of each metric, in order
    figure: object  # the reliability diagram
    table: pd.DataFrame  # worth at tau* before and after
    caption: str
    note: str | None = None  # the bins too small to read
    groups: GroupsShown | None = None


def reliability(
    fit: CalibrationFit,
    *,
    bins: int,
    chance: float,
    choice,
    worth: float,
    unit: str,
    volume: float | None = None,
    groups: GroupsShown | None = None,
    gain: tuple[float, float] = (math.nan, math.nan),
    same_rows: str | None = None,
    costs: CostsPick | None = None,
) -> Reliability:
    """What the Calibration page shows at `bins` bins (`CalibrationAnswer.at`): `chance` is
    `fit.binned.ece_by_chance(bins)`, `choice` the k the Value page reads (`answers.value_k.KChoice`),
    `volume` the cases a month, `groups` the section on each group (`group_section`), `gain` the
    interval of what rescaling adds at that k (`rescale_gain`), `same_rows` why the rescaling is fitted on
    the rows it is judged on (`CalibrationAnswer.warning`; None where it is not), `costs` Costs & groups'
    recommendation at the prices (`costs_pick`; None: not known). The verdict is the worth's
    (`calibration_words.rescale_verdict`, after Costs & groups' verdict where that does not ship the model),
    with the calibration's own under it."""
    model, t = fit.model, fit.t
    ece_before, ece_after = fit.binned.ece(bins), fit.binned_cal.ece(bins)
    advice = calibration_advice(t, ece_before, ece_after, chance)
    widest = widest_band(fit.binned, bins)
    probabilities = cw.calibration_verdict(model, advice, t, fit.fit_on, ece_before, ece_after, chance, widest)
    metrics = cw.error_metrics(t, ece_before, ece_after, fit.brier)
    curves = [(cw.AS_GIVEN.format(model=model), *fit.binned.bins(bins))]
    if np.isfinite(t):
        curves.append((cw.RESCALED.format(model=model, t=t), *fit.binned_cal.bins(bins)))
    figure = reliability_diagram(curves, least=MIN_BIN_CASES, title=cw.DIAGRAM_TITLE.format(model=model), bands=bins)
    note = cw.small_bins_note({c[0]: c[3] for c in curves}, MIN_BIN_CASES)
    k = choice.k
    vt = pd.concat(
        [value.value_table({"before": fit.before}, k=k), value.value_table({"after": fit.after}, k=k)],
        ignore_index=True,
    )
    c = cm.worth_table(choice, worth, unit)
    digits, _, ends = cw.worth_digits(  # at the decimals the answer says them at, a month at the same precision
        vt.loc[1, "value at tau*"] * worth,
        vt.loc[0, "value at tau*"] * worth,
        low=gain[0] * worth,
        high=gain[1] * worth,
        fit_on=fit.fit_on,
    )
    table = pd.DataFrame(
        {
            c["probabilities"]: [cm.AS_GIVEN_ROW, cm.RESCALED_ROW],
            c["at_cutoff"]: vt["value at tau*"].map(  # at the decimals the answer says them at
                lambda x: cw.worth_said(x * worth, volume, unit, digits=digits, beside=ends)
            ),
            c["handed"]: vt["reject rate at tau*"].map(percent),
            c["at_best"]: vt["value at best tau"].map(  # the same decimals: "$0.465 ($4,650)", not "($4,647)"
                lambda x: cw.worth_said(x * worth, volume, unit, digits=digits, beside=ends)
            ),
        }
    )
    verdict = cw.rescale_verdict(
        model,
        probabilities,
        advice,
        before=vt.loc[0, "value at tau*"] * worth,
        after=vt.loc[1, "value at tau*"] * worth,
        low=gain[0] * worth,
        high=gain[1] * worth,
        fit_on=fit.fit_on,
        unit=unit,
        volume=volume,
        cutoff=cm.value_cutoff(k),
        priced=cm.wrong_price(choice, worth, unit),
        errors=(ece_before, ece_after),
        same_rows=same_rows,
        costs=costs,
    )
    # which question the verdict answers, beside it, so that it is not read as Costs & groups' decision
    verdict = words.Verdict(
        verdict.kind, verdict.headline, (*verdict.details, cw.question_sentence(worth, unit)), verdict.asides
    )
    caption = cm.worth_caption(choice, worth=worth, unit=unit, volume=volume, on_test=fit.on_test)
    return Reliability(verdict, metrics, figure, table, caption, note, groups)


def widest_band(binned: BinnedScores, bins: int) -> tuple[float, float] | None:
    """(mean predicted, observed) of the band furthest from the diagonal among those of at least
    `MIN_BIN_CASES` cases (the diagram's bands read as points, not hollow markers); None without one."""
    predicted, observed, counts = binned.bins(bins)
    read = np.flatnonzero(counts >= MIN_BIN_CASES)
    if read.size == 0:
        return None
    i = read[np.argmax(np.abs(observed[read] - predicted[read]))]
    return float(predicted[i]), float(observed[i])


def group_section(fit: CalibrationFit, bins: int) -> GroupsShown | None:
    """Each group's calibration at `bins` bins (`calibration.group_calibration` on the judged
    rows, its bootstrap seeded), the error after rescaling, and each group's reliability curve;
    None when the data has fewer than two groups."""
    if not fit.judged:
        return None
    y, p, p_cal, groups = fit.judged
    gc = group_calibration(y, p, groups, n_bins=bins)
    names = np.asarray(groups, dtype=object).astype(str)
    read = [g.group for g in gc.by_group if not g.too_few]
    rescaled = {g: BinnedScores.of(y[names == g], p_cal[names == g]).ece(bins) for g in read}
    curves = [(g, *BinnedScores.of(y[names == g], p[names == g]).bins(bins)) for g in read]
    title = gw.GROUP_DIAGRAM_TITLE.format(model=fit.model)
    figure = reliability_diagram(curves, least=MIN_BIN_CASES, title=title, fade_after_first=False, bands=bins)
    return GroupsShown(
        sentence=gw.group_sentence(gc, MIN_CLASS_ROWS, on_test=fit.on_test),
        table=pd.DataFrame(gw.group_rows(gc, rescaled, on_test=fit.on_test)),
        figure=figure,
        method=gw.GROUP_METHOD.format(
            bins=bins, resamples=ECE_RESAMPLES, least=MIN_CLASS_ROWS, cases=cw.cases_word(fit.on_test)
        ),
        note=cw.small_bins_note({c[0]: c[3] for c in curves}, MIN_BIN_CASES),
    )


@dataclass(frozen=True, eq=False)
class CalibrationAnswer:
    """What the Calibration page shows for one model at one price book, worth, k and unit: the
    temperature fitted and both scores judged up front (`fit`, remembered per data set and model),
    the k the Value page reads (`choice`), the warning when nothing is held out to fit on, and
    the reliability at a number of bins on request (`at`; its chance ECE and each group's
    calibration remembered per model and bins).

    fit       `CalibrationFit` of the model
    choice    `answers.value_k.KChoice`: k from the price book unless the Value slider moved it
    warning   when the temperature is fitted on the rows it is judged on, why (`calibration_words.same_rows_warning`),
              else None
    picked    which model is checked and why first (`calibration_words.picked_sentence`), or None
    money     which cutoff and which money the page reads, and why not Costs & groups' (`calibration_money.money_note`)
    costs     Costs & groups' recommendation at the prices (`costs_pick`), or None: the answer agrees with its
              verdict on shipping (`calibration_words.rescale_verdict`)
    """

    fit: CalibrationFit
    choice: KChoice
    worth: float
    unit: str
    warning: str | None
    remember: object = compute_now
    volume: float | None = None
    picked: str | None = None
    money: str = ""
    costs: CostsPick | None = None

    def at(self, bins: int) -> Reliability:
        """The page at `bins` equal-width bins (`reliability`); the chance ECE of the model's
        scores (`BinnedScores.ece_by_chance`) is remembered under "ece_by_chance", (model, bins),
        each group's calibration (`group_section`, a bootstrap) under "group_calibration", and the
        interval of what rescaling adds at the answer's k (`rescale_gain`, a bootstrap) under
        "rescale_gain", (model, k)."""
        fit = self.fit
        chance = self.remember("ece_by_chance", (fit.model, bins), lambda: fit.binned.ece_by_chance(bins))
        groups = (
            self.remember("group_calibration", (fit.model, bins), lambda: group_section(fit, bins))
            if fit.judged
            else None
        )
        k = self.choice.k
        gain = self.remember("rescale_gain", (fit.model, k), lambda: rescale_gain(fit, k))
        return reliability(
            fit,
            bins=bins,
            chance=chance,
            choice=self.choice,
            worth=self.worth,
            unit=self.unit,
            volume=self.volume,
            groups=groups,
            gain=gain,
            same_rows=self.warning,
            costs=self.costs,
        )


def calibration_answer(
    ds: Dataset,
    model: str,
    *,
    names: Sequence,
    costs: Mapping,
    worth: float = 1.0,
    moved_k: float | None = None,
    unit: str = "",
    volume: float | None = None,
    remember=compute_now,
    pick: CostsPick | None = None,
) -> CalibrationAnswer:
    """The Calibration page's answer for `model` on `ds` at the price book `costs` ({group:
    (c_fp, c_fn)} for the groups `names`), a right answer worth `worth` and k the prices' unless
    the Value slider moved it (`moved_k`; `answers.value_k.value_k`), said in `unit`, a month
    of `volume` cases. `pick`: Costs & groups' recommendation at these prices (`costs_pick`; None: not
    known): the model it judges cheapest and whether it ships it, said beside the model checked (with two
    models or more: with one there is no pick to say), and its verdict on shipping said first in the answer
    where it does not ship the model checked.

    `remember(name, key, compute)` returns ``compute()``, remembered under (name, key): the page
    passes its memo, so that the judged cases are counted once per groups, the temperature fitted
    once per model and the chance ECE and each group's bootstrap computed once per model and bins
    (moving the bins back, the prices, the worth or the unit never fits the temperature again).
    """
    cases = remember("judged_cases", tuple(names), lambda: judged_cases(ds, names))
    choice = value_k(costs, cases, worth, moved_k, settings.K.high)
    fit = remember("calibration_fit", (model,), lambda: calibration_fit(ds, model))
    split = ds.split is not None
    same = fit.fit_on == "same"
    warning = cw.same_rows_warning(split=split, test_rows=split and ds.has_role("test")) if same else None
    elkan = choice.c_fp + choice.c_fn > 0 and not (choice.per_group or choice.moved)
    money = cm.money_note(
        choice, worth=worth, unit=unit, costs_cutoff=choice.c_fp / (choice.c_fp + choice.c_fn) if elkan else None
    )
    picked = (
        None
        if pick is None or len(ds.scores) < 2  # one model: nothing picked among models
        else cw.picked_sentence(model, pick.model, ships=pick.ships, verdict=pick.verdict, keep=pick.keep)
    )
    return CalibrationAnswer(fit, choice, worth, unit, warning, remember, volume, picked, money, pick)


class CostsPick(NamedTuple):
    """What Costs & groups' recommendation says at the prices (`costs_pick`), read from it, not made again:
    the model it judges cheapest, whether its verdict ships it, that verdict (`rules.VERDICTS`) and the
    no-model choice it keeps where it does not ship (a `rules` name such as "flag nobody")."""

    model: str
    ships: bool
    verdict: str
    keep: str


def costs_pick(models: Mapping, costs: Mapping, *, resamples: int, share: float | None = None, remember=compute_now):
    """Costs & groups' recommendation at the price book `costs` within the review limit `share`
    (`answers.costs.costs_answer`, remembered under the same key as on that page, so a visit to either
    makes it once), as a `CostsPick`, with one model too (its verdict on shipping it); None without a model."""
    from costlib.answers.costs import costs_answer

    if not models:
        return None
    rec = costs_answer(models, costs, resamples=resamples, share=share, remember=remember).rec
    return CostsPick(rec.model, rec.ship_model, rec.verdict, rec.baseline)


def calibration_rows(ds: Dataset) -> str | None:
    """The held-out rows a temperature is fitted on, the same on every page: with test rows to
    judge it on, "validation", else "train" (rows other than the judged ones); else None, nothing
    held out from the judged rows: no split, only test rows, or no test rows (the judged rows are
    then every row, `Dataset.purpose_rows`, validation and train rows included, so a temperature
    fitted on the validation rows would be judged on the rows that fitted it)."""
    if not ds.has_role("test"):
        return None
    return "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else None


def temperature_rows(ds: Dataset) -> np.ndarray:
    """The rows a temperature is fitted on, on every page: the calibration rows
    (`Dataset.purpose_rows`) where they are held out from the judged rows (`calibration_rows`),
    else the judged rows themselves (every row: fitted and judged on the same rows, and said so)."""
    return ds.purpose_rows("calibrate" if calibration_rows(ds) else "judge")


def calibration_advice_line(ds: Dataset, model: str, *, bins: int = 10) -> str | None:
    """The calibration advice for `model` (`calibration.calibration_advice`, the one test), in
    one sentence for the Value and Costs pages; None when its scores are not probabilities."""
    if not ds.probabilities or model not in ds.scores:
        return None
    fit = calibration_fit(ds, model)
    chance = fit.binned.ece_by_chance(bins)
    advice = calibration_advice(fit.t, fit.binned.ece(bins), fit.binned_cal.ece(bins), chance)
    where = f"fitted on the {fit.fit_on} rows" if fit.fit_on != "same" else "fitted and judged on the same rows"
    advice_text = cw.ADVICE[advice]  # the Calibration page's own sentence: lower case after the colon
    return f"Calibration of {shorten(model)} (rescaling {where}; Calibration page): " + (
        advice_text[:1].lower() + advice_text[1:]
    )
