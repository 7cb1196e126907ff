"""What the Value page's sections are drawn from: every model's value sweep, made once per
data set (`value_sweeps`, from the rows or from the counts), the calibrated sweeps
(`calibrated_sweeps`), and the figures and tables below the answer that read them (worth
against the threshold and against k, the acceptance rules, the classification and calibration
tables).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.answers.audit import dataset_models
from costlib.answers.calibration import calibration_rows, temperature_rows
from costlib.binary import honest as H
from costlib.calibration import apply_temperature, fit_temperature
from costlib.core.dataset import Dataset
from costlib.core.escaping import plain
from costlib.core.ship import SAVES
from costlib.present import calibration_words as cw
from costlib.present import figures, page_answers
from costlib.present.labels import ALL_ROWS_FLATTER_THRESHOLD
from costlib.present.value_words import (
    FITTED_RULE,
    VALUE_K_AXIS,
    VALUE_K_CHART_APART,
    VALUE_K_TITLE,
    WORTH_AFTER_RESCALING,
    WORTH_BEFORE_RESCALING,
    formula_words,
    k_subtitle,
    outcome_baseline_label,
    outcome_chart_title,
    outcome_line_name,
    outcome_mark_label,
    outcome_marks_name,
)
from costlib.value.against_k import formula_threshold
from costlib.value.per_outcome import OUTCOME_NEGATIVE, OUTCOME_POSITIVE


@dataclass(frozen=True, eq=False)
class ValueSweeps:
    """Every model's value sweep on the judged rows, and on the fitting rows when there is a split."""

    judge: dict
    fit: dict | None
    fit_role: str = "train"  # the split role of the `fit` rows: "train", or "validation" without train rows


def value_sweeps(ds: Dataset) -> ValueSweeps:
    """The value sweeps of every score column: from the counts for an aggregate, else from the rows,
    on the judged rows and, where the rows fitted are others (`Dataset.purpose_rows`: the train
    rows, or the validation rows of a split without train rows), on the fitting rows too; None
    there when both are every row (the threshold's worth is then cross-fitted), as on Costs &
    groups."""
    if ds.counts_only:  # an aggregate file or a table read through DuckDB: the value sweeps come from the counts
        counted = dataset_models(ds)  # the counted sweeps
        split = all(ms.judged_on == "test" for ms in counted.values())
        judge = {m: value.value_sweep_from_counts(ms.judge_pooled) for m, ms in counted.items()}
        fit = {m: value.value_sweep_from_counts(ms.fit_pooled) for m, ms in counted.items()} if split else None
        role = next((ms.fit_role for ms in counted.values()), "train")
        return ValueSweeps(judge, fit, role)
    judged, fitted = ds.purpose_rows("judge"), ds.purpose_rows("fit")
    y = ds.y[judged]
    judge = {m: value.value_sweep(y, s[judged]) for m, s in ds.scores.items()}
    fit = None
    if not np.array_equal(fitted, judged):  # fitted on other rows than judged (`Dataset.purpose_rows`)
        fit = {m: value.value_sweep(ds.y[fitted], s[fitted]) for m, s in ds.scores.items()}
    # the fitting rows' role beside test rows, as `audit.dataset_models` names it for Costs & groups
    return ValueSweeps(judge, fit, "train" if ds.has_role("train") else "validation")


@dataclass(frozen=True, eq=False)
class CalibratedSweeps:
    """Each model's temperature, fitted on the held-out rows (validation, else train, as on the
    Calibration page: `calibration.calibration_rows`; "same", the judged rows themselves, where
    none are held out), and the judged rows' value sweep of its rescaled probabilities: made
    once per data set, so that a k move only reads them."""

    rows: str
    temperatures: dict
    sweeps: dict


def calibrated_sweeps(ds: Dataset) -> CalibratedSweeps:
    val, judge = temperature_rows(ds), ds.purpose_rows("judge")
    y = ds.y[judge]
    temps = {m: fit_temperature(ds.y[val], s[val]) for m, s in ds.scores.items()}
    cal = {
        m: value.value_sweep(y, apply_temperature(s[judge], temps[m]))
        for m, s in ds.scores.items()
        if np.isfinite(temps[m])
    }
    return CalibratedSweeps(calibration_rows(ds) or "same", temps, cal)


def value_calibration_table(
    cal: CalibratedSweeps, sweeps: ValueSweeps, *, k: float, reject_value: float, worth: float
) -> pd.DataFrame:
    """Each model's temperature and its worth at tau* (the formula threshold) before and after rescaling
    (`calibrated_sweeps`), named in words (`value_words.WORTH_BEFORE_RESCALING`)."""
    before = value.value_table(sweeps.judge, k=k, reject_value=reject_value).set_index("model")
    after = value.value_table(cal.sweeps, k=k, reject_value=reject_value).set_index("model")
    return (
        pd.DataFrame(
            {
                f"{cw.TEMPERATURE.lower()} (fitted on the {cal.rows} rows)": pd.Series(cal.temperatures),
                WORTH_BEFORE_RESCALING: before["value at tau*"] * worth,
                WORTH_AFTER_RESCALING: after["value at tau*"] * worth,
            }
        )
        .rename_axis("model")
        .reset_index()
    )


def value_tau_title(model: str, rec, *, apart: bool = False) -> str:
    """The Value chart's title: which rows its curve is drawn on (the test rows, or all rows where
    the worth the verdict states is cross-fitted, as on Costs & groups: `costs.cost_chart_title`);
    `apart`: the page's answer prices each mistake on its own, and the title says the chart does not.
    The k it is drawn at is its subtitle, in words (`value_words.k_subtitle`)."""
    rows = "test rows" if rec.judged_on == "test" else "all rows"
    if rec.judged_on != "test" and rec.estimate == H.CROSS_FITTED:
        rows = ALL_ROWS_FLATTER_THRESHOLD  # as on Costs & groups
    apart_words = f" {VALUE_K_CHART_APART}" if apart else ""
    return f"Worth per case by confidence threshold{apart_words}, {model} ({rows})"


def value_tau_figure(
    sweeps: ValueSweeps,
    rec,
    model: str,
    *,
    k: float,
    reject_value: float,
    worth: float,
    unit: str,
    shipped: bool = True,
):
    """Worth per case against the confidence threshold of `model`, with tau* and the best tau marked;
    with a limit on the cases handed over (`rec.capacity`), the star is the best within it and a
    hollow star marks the best without it when the limit binds. `shipped` False: the page's answer
    is not this chart's (separate prices, `value.outcome_rec`), so no threshold here is called the
    recommended one."""
    sweep = sweeps.judge[model]
    row = rec.models.set_index("model").loc[model]
    unlimited = None
    c = rec.capacity
    if c is not None and c.binding:
        free = c.unlimited.models.set_index("model").loc[model]
        if np.isfinite(free["tau"]) and free["tau"] != row["tau"]:
            unlimited = (float(free["tau"]), float(free["value"]) * worth)
    fig = figures.value_tau_figure(
        sweep.thresholds,
        value.sweep_value(sweep, k, reject_value) * worth,
        tau_star=formula_threshold(k, reject_value),  # a case handed over counted at its worth
        tau_opt=float(row["tau"]),
        value_opt=float(row["value"]) * worth,
        reject_value=reject_value * worth,
        label=model,
        title=value_tau_title(model, rec, apart=not shipped),
        fitted_on=page_answers.value_rows(rec)[0],
        shipped=shipped
        and rec.status == SAVES
        and model == rec.model,  # one the verdict does not ship is not "recommended"
        unit=unit,
        # under a limit, handing everything over does not fit: draw the choice without a model it leaves
        no_model=(rec.baseline, rec.baseline_value * worth) if rec.capacity is not None else None,
        unlimited=unlimited,
    )
    # k in words under the title, one line each at 1400 px ("(k = 2, test rows)" was notation, review 73)
    top = fig.layout.margin.t
    fig.update_layout(
        title_subtitle={"text": plain(k_subtitle(k)), "font": {"size": 12, "color": "#555"}},
        margin_t=(top if top is not None else 60) + 20,
    )
    return fig


@dataclass(frozen=True, eq=False)
class OutcomeCurves:
    """One model's per-outcome rule on the rows the answer at separate prices is judged on
    (`outcome_curves`): each answer's threshold swept with the other held (`curves`,
    `value.per_outcome.outcome_curves`, right answers per case), the pair held (the answer's own for
    its model, else that model's fitted as the answer fits its pair) and the pair's worth there."""

    curves: pd.DataFrame
    tau_pos: float
    tau_neg: float
    value: float


@dataclass(frozen=True, eq=False)
class OutcomeSweeps:
    """Every model's rows for the answer at separate prices, sorted once
    (`value.per_outcome.OutcomeSweep`): on the judged rows, and on the fitting rows when there is a
    split (None: the judged rows are fitted on, cross-fitted). Prices only reweight them."""

    judge: dict
    fit: dict | None


def outcome_sweeps(ds: Dataset, *, split: bool) -> OutcomeSweeps:
    """The `OutcomeSweeps` of every score column of `ds`, on its judged rows and, with a `split`,
    on its fitting rows (`Dataset.purpose_rows`, as `value_sweeps`)."""
    from costlib.value.per_outcome import outcome_sweep

    def of(rows):
        return {m: outcome_sweep(ds.y[rows], np.asarray(s, dtype=float)[rows]) for m, s in ds.scores.items()}

    return OutcomeSweeps(of(ds.purpose_rows("judge")), of(ds.purpose_rows("fit")) if split else None)


def outcome_curves(sweeps: OutcomeSweeps, rec, model: str, *, reject_value: float) -> OutcomeCurves:
    """`OutcomeCurves` of `model` at the prices of `rec` (a `value.per_outcome.OutcomeRecommendation`),
    on its judged rows (the test rows with a split, else all rows; `sweeps`, sorted once). With a
    split the pair's worth there is the answer's worth; without one the pair is fitted on these
    very rows and its worth here flatters it (the answer's is cross-fitted)."""
    from costlib.value.per_outcome import fit_thresholds, outcome_row_values, sweep_curves

    prices = {"k_tp": 1.0, "k_fp": float(rec.k_fp), "k_fn": float(rec.k_fn), "r": float(reject_value)}
    judged = sweeps.judge[model]
    if model == rec.model:
        t_pos, t_neg = float(rec.tau_pos), float(rec.tau_neg)
    else:  # fitted as the answer fits its model's pair (`answers.value.outcome_rec`)
        fitted = sweeps.fit[model] if rec.judged_on == "test" and sweeps.fit is not None else judged
        t_pos, t_neg = fit_thresholds(fitted, **prices)
    rows, _ = outcome_row_values(judged.y, judged.p, t_pos, t_neg, **prices)
    worth = float(rows.mean()) if rows.size else float("nan")
    return OutcomeCurves(sweep_curves(judged, t_pos, t_neg, **prices), t_pos, t_neg, worth)


def value_outcome_figure(oc: OutcomeCurves, rec, model: str, *, worth: float, unit: str):
    """The Value page's first chart when the answer prices each mistake on its own (`rec`, a
    `value.per_outcome.OutcomeRecommendation`): `model`'s worth per case against each answer's
    threshold, the other answer's held (`outcome_curves`), the pair marked in words, and the
    answer's best choice without the model at its worth; in the user's unit."""
    held = {OUTCOME_POSITIVE: oc.tau_pos, OUTCOME_NEGATIVE: oc.tau_neg}
    lines = []
    for answer in held:
        part = oc.curves[oc.curves["answer"] == answer]
        other = held[OUTCOME_NEGATIVE if answer == OUTCOME_POSITIVE else OUTCOME_POSITIVE]
        lines.append((outcome_line_name(answer, other), part["threshold"].to_numpy(), part["value"].to_numpy() * worth))
    at = oc.value * worth
    marks = [
        (outcome_mark_label(a, tau, at, unit, other_tau=held[b]), tau, at)
        for (a, tau), b in zip(held.items(), (OUTCOME_NEGATIVE, OUTCOME_POSITIVE), strict=True)
    ]
    recommended = rec.status == SAVES and model == rec.model  # one the verdict does not ship is not "recommended"
    return figures.value_outcome_figure(
        lines,
        marks,
        level=rec.baseline_value * worth,
        level_text=outcome_baseline_label(rec.baseline, rec.baseline_value * worth, unit),
        title=outcome_chart_title(model, judged_on=rec.judged_on, cross_fitted=rec.estimate == H.CROSS_FITTED),
        marks_name=outcome_marks_name(page_answers.value_rows(rec)[0], recommended=recommended),
        unit=unit,
    )


def models_by_k(sweeps: ValueSweeps, grid, *, reject_value: float) -> tuple[pd.DataFrame, object]:
    """(every model's value at each k of `grid`, the k where the ranking flips or None): the
    Value page's chart of `costlib.value.value_against_k` for every model at once."""
    long = pd.concat(
        [
            value.value_against_k(
                None,
                None,
                grid,
                reject_value=reject_value,
                sweep=sweeps.judge[m],
                fit_sweep=None if sweeps.fit is None else sweeps.fit[m],
            ).assign(model=m)
            for m in sweeps.judge
        ],
        ignore_index=True,
    )
    return long, value.ranking_flips(long, rule="tau*") if len(sweeps.judge) > 1 else None


def value_k_figure(against_k: tuple, *, k: float, worth: float, unit: str, reject_value: float = 0.0):
    """Which model is worth more at each k (`models_by_k`, at this worth of a case handed over), in
    the user's unit, your k marked."""
    long, flips = against_k
    fig = figures.value_k_figure(
        long.assign(value=long["value"] * worth),
        flips=flips,
        current_k=k,
        unit=unit,
        formula=formula_words(reject_value),
        title=VALUE_K_TITLE,
    )
    return fig.update_xaxes(title_text=VALUE_K_AXIS)  # k in words, not "how much worse ... is good"


def acceptance_table(
    ds: Dataset,
    rows: OutcomeSweeps,
    *,
    k_tp: float,
    k_fp: float,
    k_fn: float,
    worth: float,
    reject_value: float = 0.0,
) -> pd.DataFrame:
    """`value.acceptance_rules_table` on the judged rows, its value per case in the user's unit
    (k_* are in units of a right negative answer, which is worth `worth`), and, per model, the rule
    the page's answer uses at separate prices (`FITTED_RULE`, `value.per_outcome.outcome_table`:
    its thresholds fitted on the fitting rows, or cross-fitted without a split). In all three rows a
    case handed over is worth `reject_value` right answers, so they read side by side: the fitted
    rule's thresholds are fitted against it, the class thresholds are the paper's with it folded
    in ((k_fp + r)/(k_tp + k_fp) and (k_fn + r)/(1 + k_fn)), and the expected-value rule answers
    only when an answer's expected worth beats it. The fitted rule reads `rows`, each model's rows
    sorted once per data set (`OutcomeSweeps`, as the page's answer at separate prices)."""
    from costlib.value.per_outcome import sweeps_table

    judge = ds.purpose_rows("judge")
    scores = {m: s[judge] for m, s in ds.scores.items()}
    cs = value.acceptance_rules_table(ds.y[judge], scores, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, reject_value=reject_value)
    prices = {"k_tp": k_tp, "k_fp": k_fp, "k_fn": k_fn, "reject_value": reject_value}
    fitted = sweeps_table(rows.judge, rows.fit, **prices).assign(**{"acceptance rule": FITTED_RULE})
    order = {m: i for i, m in enumerate(ds.scores)}
    cs = pd.concat([fitted[list(cs.columns)], cs], ignore_index=True)
    cs = cs.sort_values("model", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)
    return cs.assign(**{"value per case": cs["value per case"] * worth})


def classification_table(ds: Dataset, *, c_fp: float, c_fn: float) -> pd.DataFrame:
    """`value.classification_table` of every model on the judged rows."""
    judge = ds.purpose_rows("judge")
    return value.classification_table(ds.y[judge], {m: s[judge] for m, s in ds.scores.items()}, k_fp=c_fp, k_fn=c_fn)
