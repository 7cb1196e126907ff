"""The answer of each dashboard page, built from costlib's public functions.

A page reads its widgets, makes one call here for what it shows, and draws it: no formula and
no sentence is made in a page. Each function returns plain objects (tables, figures,
`words.Verdict`, sentences), so the same answer can be checked without Streamlit.

- Instance costs: `instance_answer` (per dataset) and `instance_cutoff` (per cutoff);
- Calibration: `calibration_fit` (per dataset and model) and `calibration_answer`;
- Value and Calibration: `mean_price` and `value_k`, the k that follows from the price book;
- Value: `value_sweeps` and the page's sentences;
- Cost matrix: `default_matrix`, `read_matrix`, `matrix_text` and the page's sentences;
- Train with costs: `training_verdict_kind`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.binary import audit, elicit
from costlib.calibration import BinnedScores, apply_temperature, brier_score, fit_temperature
from costlib.core import rules as R
from costlib.core import settings
from costlib.core.dataset import Dataset
from costlib.core.prices import prices_for
from costlib.instance import NecSweeps, delta_source_words, nec_curve, recommend_nec
from costlib.multiclass import confusion, recommend_matrix
from costlib.present import figures, report, words
from costlib.training import words as training_words

# ---------------------------------------------------------------------------------------
# Instance costs


@dataclass(frozen=True, eq=False)
class InstanceAnswer:
    """What the Instance costs page shows for one dataset (the cutoff slider aside)."""

    rec: object  # instance.NecRecommendation
    verdict: words.Verdict
    sentence: str  # where delta comes from, and how many judged cases are positive
    curves: pd.DataFrame  # threshold, NEC, model: NEC against the cutoff, every model
    delta: np.ndarray  # the judged rows' delta
    groups: np.ndarray | None  # the judged rows' groups
    necs: NecSweeps  # every model's sweeps, by group: a cutoff move reads these
    cutoff_range: tuple[float, float, float]  # (low, high, start) of the cutoff to explore


def instance_answer(ds: Dataset) -> InstanceAnswer:
    """The recommended cutoff by NEC, the NEC curves and the sweeps to explore other cutoffs."""
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    delta = ds.delta[judge]
    groups = None if ds.groups is None else ds.groups[judge]
    rec = recommend_nec(ds.scores, ds.delta, fit=fit, judge=judge)
    sentence = (
        f"δ comes from {delta_source_words(ds.mapping)}. Positive (δ > 0) for "
        f"{int((delta > 0).sum()):,} of {len(delta):,} judged cases."
    )
    judged = {m: s[judge] for m, s in ds.scores.items()}
    curves = []
    for m, s in judged.items():
        thresholds, nec = nec_curve(s, delta)
        curves.append(pd.DataFrame({"threshold": thresholds, "NEC": nec, "model": m}))
    lo = min(float(s.min()) for s in judged.values())
    hi = max(float(s.max()) for s in judged.values())
    start = float(np.clip(rec.threshold, lo, hi)) if np.isfinite(rec.threshold) else (lo + hi) / 2
    low_end = min(lo, 0.0) if ds.probabilities else lo
    high_end = max(hi, 1.0) if ds.probabilities else hi
    # the slider starts at the recommended cutoff, rounded down to its step (0.0001) so that every
    # case the answer flags (score >= cutoff) is flagged there too and the table matches it
    return InstanceAnswer(
        rec=rec,
        verdict=words.nec_verdict(rec),
        sentence=sentence,
        curves=pd.concat(curves, ignore_index=True),
        delta=delta,
        groups=groups,
        necs=NecSweeps.of(judged, delta, groups=groups),
        cutoff_range=(low_end, high_end, max(math.floor(start * 1e4) / 1e4, low_end)),
    )


def instance_figures(answer: InstanceAnswer):
    """(NEC against the cutoff with the recommendation marked, the histogram of delta)."""
    rec = answer.rec
    fig = figures.line_figure(
        answer.curves,
        x="threshold",
        y="NEC",
        color="model",
        title="NEC against the cutoff (test rows)",
        x_title="cutoff (flag a case when its score is at least this)",
        y_title="NEC",
        baseline=rec.baseline_nec,
        baseline_label=f"{rec.baseline} (no model): {rec.baseline_nec:.3f}",
    )
    figures.mark_x(fig, rec.threshold, text=f"recommended: {rec.threshold:.3g}")
    return fig, figures.delta_histogram(answer.delta, groups=answer.groups)


def instance_cutoff(answer: InstanceAnswer, threshold: float):
    """(figure, table overall, table by group): every model's NEC and error rate at `threshold`."""
    overall, by_group = answer.necs.table(threshold)
    fig = figures.nec_error_figure(
        overall.assign(label=overall["option"]), title=f"NEC beside the error rate at the cutoff {threshold:.2f}"
    )
    return fig, overall, by_group


# ---------------------------------------------------------------------------------------
# The k of Value and Calibration


def judged_cases(ds: Dataset, names: Sequence) -> list[float]:
    """Each group's judged cases (weighted when the data has weights), in the order of `names`.

    The weights `mean_price` gives the groups: the same as the report's (a `ModelSweeps`'
    judged totals).
    """
    if ds.counts_only:
        ms = next(iter(ds.sweeps.values()))
        return [float(ms.judge[g].total) for g in names]
    judge = ds.purpose_rows("judge")
    w = np.ones(int(judge.sum())) if ds.weight is None else np.asarray(ds.weight, dtype=float)[judge]
    if ds.groups is None:
        return [float(w.sum())] * len(names)
    counts = pd.Series(w).groupby(pd.Series(ds.groups[judge], dtype=object)).sum()
    return [float(counts.get(g, 0.0)) for g in names]


def mean_price(costs: Mapping, cases: Sequence[float] | None = None) -> tuple[float, float]:
    """c_fp and c_fn of the price book `costs` ({group: (c_fp, c_fn)}), averaged over the groups
    weighted by their judged `cases` (`Prices.mean`); the prices themselves when every group has
    the same.

    >>> mean_price({"a": (1.0, 3.0), "b": (3.0, 1.0)}, [3, 1])
    (1.5, 2.5)
    >>> mean_price({"a": (2.0, 7.0), "b": (2.0, 7.0)}, [3, 1])
    (2.0, 7.0)
    """
    prices = prices_for(list(costs), dict(costs))
    if prices.uniform:
        return float(prices.c_fp[0]), float(prices.c_fn[0])
    return prices.mean(cases)


@dataclass(frozen=True)
class KChoice:
    """The k a page uses: from the price book (`derived`), unless the Value slider moved it."""

    c_fp: float  # the mean prices behind `derived`
    c_fn: float
    derived: float  # k that follows from the prices (not capped)
    k: float  # the k in use
    moved: bool  # True when `k` is the slider's, not the prices'
    per_group: bool  # True when the prices differ by group (then c_fp and c_fn are their means)


def value_k(costs: Mapping, cases: Sequence[float] | None, worth: float, moved_k, k_max: float) -> KChoice:
    """k = the mean price of a wrong answer over the worth of a right one, at most `k_max`
    (`value.k_from_prices`); `moved_k` (the slider's value, or None) wins when given.

    >>> value_k({"": (1.0, 3.0)}, None, 1.0, None, 20.0).k
    2.0
    """
    c_fp, c_fn = mean_price(costs, cases)
    derived = value.k_from_prices(c_fp, c_fn, worth) if worth > 0 else k_max
    k = float(moved_k) if moved_k is not None else float(min(derived, k_max))
    per_group = not prices_for(list(costs), dict(costs)).uniform
    return KChoice(c_fp, c_fn, derived, k, moved_k is not None, per_group)


def _mean_words(choice: KChoice) -> str:
    return ", each averaged over the groups weighted by their judged cases" if choice.per_group else ""


def value_k_sentence(choice: KChoice, worth: float, unit: str) -> str:
    """Where the Value page's k comes from, in words."""
    c_fp, c_fn = choice.c_fp, choice.c_fn
    return (
        f"k = {choice.derived:.3g} follows from your prices: a wrong answer costs on average "
        f"{words.money((c_fp + c_fn) / 2, unit)} (the mean of a false positive's {words.money(c_fp, unit)} and a false "
        f"negative's {words.money(c_fn, unit)}{_mean_words(choice)}, set on Costs & groups) and a right answer earns "
        f"{words.money(worth, unit)}."
        + ("" if not choice.moved else f" You moved the slider to k = {choice.k:g}.")
        + (
            f" Your prices are lopsided (a false negative costs {words.ratio_text(c_fn / c_fp)} times a false "
            "positive): k averages them, and “Separate prices per outcome” below prices each mistake on its own."
            if c_fp > 0 and not 0.5 <= c_fn / c_fp <= 2
            else ""
        )
        + " Unlike Costs & groups, a case here can be handed to a person, so the two pages can answer differently."
    )


# ---------------------------------------------------------------------------------------
# Calibration


@dataclass(frozen=True, eq=False)
class CalibrationFit:
    """One model's scores before and after temperature scaling (what a Bins move reads)."""

    model: str
    fit_on: str  # "validation", "train" or "same" (fitted on the judged rows)
    t: float  # the temperature (NaN when none could be fitted)
    binned: BinnedScores  # the judged scores, sorted once
    binned_cal: BinnedScores
    brier: tuple[float, float]  # before, after
    before: object  # value.ValueSweep of the judged rows, before
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
    fit: CalibrationFit, *, bins: int, chance: float, choice: KChoice, worth: float, unit: str
) -> CalibrationAnswer:
    """The Calibration page at `bins` bins: `chance` is `fit.binned.ece_by_chance(bins)`."""
    model, t = fit.model, fit.t
    ece_before, ece_after = fit.binned.ece(bins), fit.binned_cal.ece(bins)
    verdict = words.calibration_verdict(model, t, fit.fit_on, ece_before, ece_after, ece_chance=chance)
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


# ---------------------------------------------------------------------------------------
# Train with costs


def training_verdict_kind(summary: pd.DataFrame) -> str:
    """The colour of the training verdict: "success" when a way of training with costs beats
    standard training beyond the noise (its whole interval of NEC change is below 0), else "info"."""
    better = summary.loc[summary["method"] != "standard", "nec_change_high"].lt(0).any()
    return "success" if better else "info"


# ---------------------------------------------------------------------------------------
# Value


@dataclass(frozen=True, eq=False)
class ValueSweeps:
    """Every model's value sweep on the judged rows, and on the fitting rows when there is a split."""

    judge: dict
    fit: dict | None


def value_sweeps(ds: Dataset) -> ValueSweeps:
    """The value sweeps of every score column: from the counts for an aggregate, else from the rows."""
    if ds.counts_only:  # an aggregate file or a table read through DuckDB: the value sweeps come from the counts
        counted = dict(ds.sweeps)
        split = all(ms.judged_on == "test" for ms in counted.values())
        judge = {m: value.value_sweep_from_counts(ms.judge_pooled) for m, ms in counted.items()}
        fit = {m: value.value_sweep_from_counts(ms.fit_pooled) for m, ms in counted.items()} if split else None
        return ValueSweeps(judge, fit)
    judged, fitted = ds.purpose_rows("judge"), ds.purpose_rows("fit")
    y = ds.y[judged]
    judge = {m: value.value_sweep(y, s[judged]) for m, s in ds.scores.items()}
    fit = None
    if ds.has_role("train") and ds.has_role("test"):
        fit = {m: value.value_sweep(ds.y[fitted], s[fitted]) for m, s in ds.scores.items()}
    return ValueSweeps(judge, fit)


def value_lag_sentence(drawn_k: float) -> str:
    return f"The chart of value against k and the tables below are still for k = {drawn_k:.3g}."


def value_k_caption(worth: float, unit: str) -> str:
    return (
        f"Worth per case when a right answer earns {words.money(worth, unit)}. Solid: each model at its best "
        "threshold (fitted on train when there is a split); dotted: at the formula threshold τ* = k/(k+1), which "
        "trusts the probabilities; dashed: hand everything over. The black dotted line is your k."
    )


def counts_only_value_sentence(name: str) -> str:
    return (
        f"“{name}” holds counts, not rows: separate prices per outcome, the models side by side at the cutoff "
        "0.5 and calibration need each case's score and label, so they are not shown for it."
    )


def per_outcome_sentence(choice: KChoice, worth: float, unit: str) -> str:
    return (
        "In units of a right negative answer (worth 1). From your prices: a false positive costs "
        f"{words.money(choice.c_fp, unit)} and a false negative {words.money(choice.c_fn, unit)}; with a right answer "
        f"worth {words.money(worth, unit)}, that is k_fp and k_fn below."
    )


def value_calibration_table(ds: Dataset, sweeps: ValueSweeps, *, k: float, reject_value: float, worth: float):
    """Each model's temperature (fitted on the validation rows) and its worth at tau* before and after."""
    val, judge = ds.purpose_rows("calibrate"), ds.purpose_rows("judge")
    y = ds.y[judge]
    temps = {m: fit_temperature(ds.y[val], s[val]) for m, s in ds.scores.items()}
    cal = {
        m: value.value_sweep(y, apply_temperature(s[judge], temps[m]))
        for m, s in ds.scores.items()
        if np.isfinite(temps[m])
    }
    before = value.value_table(sweeps.judge, k=k, reject_value=reject_value).set_index("model")
    after = value.value_table(cal, k=k, reject_value=reject_value).set_index("model")
    return (
        pd.DataFrame(
            {
                "temperature (fitted on validation)": pd.Series(temps),
                "worth at τ* before": before["value at tau*"] * worth,
                "worth at τ* after": after["value at tau*"] * worth,
            }
        )
        .rename_axis("model")
        .reset_index()
    )


def value_metrics(rec, *, worth: float, unit: str, volume: float) -> tuple[dict, ...]:
    """The Value page's four numbers (keyword arguments of each metric), in the user's unit."""
    return (
        {
            "label": "Worth per case",
            "value": words.money(rec.value * worth, unit),
            "help": "On the test rows, answering from the recommended confidence threshold.",
        },
        {
            "label": "Worth a month",
            "value": words.money(rec.value * worth * volume, unit) if volume else "set a volume",
            "help": f"Worth per case times {volume:,.0f} cases a month.",
        },
        {
            "label": "Gain per case",
            "value": words.money(rec.gain * worth, unit),
            "help": f"Against {rec.baseline}: the better of handing every case to a person and letting the model "
            "answer every case.",
        },
        {
            "label": "Handed to a person",
            "value": f"{rec.reject_rate:.0%}",
            "help": "Share of cases whose confidence is below the recommended threshold.",
        },
    )


def value_tau_figure(sweeps: ValueSweeps, rec, model: str, *, k: float, reject_value: float, worth: float, unit: str):
    """Worth per case against the confidence threshold of `model`, with tau* and the best tau marked."""
    sweep = sweeps.judge[model]
    row = rec.models.set_index("model").loc[model]
    return figures.value_tau_figure(
        sweep.thresholds,
        value.sweep_value(sweep, k, reject_value) * worth,
        tau_star=value.value_threshold(k),
        tau_opt=float(row["tau"]),
        value_opt=float(row["value"]) * worth,
        reject_value=reject_value * worth,
        label=model,
        title=f"Worth per case against the confidence threshold, {model} (k = {k:.3g}, test rows)",
        unit=unit,
    )


def value_against_k(sweeps: ValueSweeps, grid, *, reject_value: float) -> tuple[pd.DataFrame, object]:
    """(every model's value at each k of `grid`, the k where the ranking flips or None)."""
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


def value_k_figure(against_k: tuple, *, k: float, worth: float, unit: str):
    """Which model is worth more at each k (`value_against_k`), in the user's unit, your k marked."""
    long, flips = against_k
    return figures.value_k_figure(long.assign(value=long["value"] * worth), flips=flips, current_k=k, unit=unit)


def acceptance_table(ds: Dataset, *, k_tp: float, k_fp: float, k_fn: float, worth: float) -> pd.DataFrame:
    """`value.acceptance_rules_table` on the judged rows, its value per case in the user's unit
    (k_* are in units of a right negative answer, which is worth `worth`)."""
    judge = ds.purpose_rows("judge")
    cs = value.acceptance_rules_table(
        ds.y[judge], {m: s[judge] for m, s in ds.scores.items()}, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn
    )
    return cs.assign(**{"value per case": cs["value per case"] * worth})


def classification_table(ds: Dataset, *, c_fp: float, c_fn: float) -> pd.DataFrame:
    """`value.classification_table` of every model on the judged rows."""
    judge = ds.purpose_rows("judge")
    return value.classification_table(ds.y[judge], {m: s[judge] for m, s in ds.scores.items()}, k_fp=c_fp, k_fn=c_fn)


ACCEPTANCE_RULES_NOTE = (
    "“By class thresholds” answers a positive when p ≥ k_fp/(k_tp + k_fp) and a negative when "
    "1 − p ≥ k_fn/(1 + k_fn); “by expected value” takes, case by case, the action whose expected value is "
    "highest. They differ when a right positive is worth more than a right negative."
)
CLASSIFICATION_NOTE = (
    "Accuracy, F1 and the price of the errors per case use the cutoff 0.5 and ignore the reject option, "
    "so they can rank models differently from value."
)
CALIBRATION_VALUE_NOTE = (
    "Worth per case. Temperature scaling keeps each model's ranking but fixes what τ* = k/(k+1) assumes: "
    "calibrated probabilities."
)
NO_VALIDATION_NOTE = (
    "This data has no validation split, so there is nothing held out to calibrate on. Map a split column "
    "with 'validation' rows on the Data page to see value before and after temperature scaling."
)


# ---------------------------------------------------------------------------------------
# Cost matrix


def default_matrix(names: Sequence[str]) -> np.ndarray:
    """Every mistake costs 1; in the tickets sample a missed security ticket costs 10.

    >>> default_matrix(["a", "security"]).tolist()
    [[0.0, 1.0], [10.0, 0.0]]
    """
    names = list(names)
    c = np.ones((len(names), len(names))) - np.eye(len(names))
    if "security" in names:  # the sample's story: a missed security ticket is expensive
        c[names.index("security"), :] = 10.0
        c[names.index("security"), names.index("security")] = 0.0
    return c


MATRIX_CELLS_REFUSED = (
    "Every price must be a number of 0 or more; empty or negative cells are not allowed. "
    "The last valid matrix is used until this is fixed."
)


def matrix_prices_caption(unit: str) -> str:
    return (
        f"Rows: the true class. Columns: the decision. Prices in {unit or 'your unit'}; the diagonal is "
        "usually 0. Edit a cell to reprice."
    )


def matrix_answer(ds: Dataset, c_mat: np.ndarray, abstain_cost: float | None):
    """`multiclass.recommend_matrix` on the judged rows (the abstain price fitted on the calibration rows)."""
    judge, fit = ds.purpose_rows("judge"), ds.purpose_rows("calibrate")
    return recommend_matrix(
        ds.y_class[judge],
        ds.class_probs[judge],
        c_mat,
        class_names=list(ds.class_names),
        abstain_cost=abstain_cost,
        y_fit=ds.y_class[fit],
    )


def matrix_metrics(rec, *, unit: str, volume: float) -> tuple[dict, ...]:
    return (
        {"label": "Cost per case", "value": words.money(rec.cost, unit), "help": f"“{rec.policy}” on the test rows."},
        {
            "label": "Best without the model",
            "value": words.money(rec.baseline_cost, unit),
            "help": f"“{rec.baseline}”.",
        },
        {
            "label": "Saving a month",
            "value": words.money(rec.saving * volume, unit) if volume else "set a volume",
            "help": f"Saving per case times {volume:,.0f} cases a month.",
        },
    )


def matrix_table(rec, unit: str) -> pd.DataFrame:
    """The policies compared, as read (money, percents, yes/no)."""
    return rec.table.assign(
        **{
            "cost per case": rec.table["cost per case"].map(lambda x: words.money(x, unit)),
            "handed over": rec.table["handed over"].map(words.percent),
            "accuracy of answers": rec.table["accuracy of answers"].map(words.percent),
            "uses the model": rec.table["uses the model"].map({True: "yes", False: "no"}),
        }
    )


def matrix_policies_with_model(rec) -> list[str]:
    """The policies that use the model (those a heatmap can show)."""
    uses = rec.table.set_index("policy")["uses the model"]
    return [x for x in rec.decisions if uses.loc[x]]


def matrix_heatmaps(ds: Dataset, rec, policy: str, c_mat: np.ndarray, abstain_cost: float, unit: str):
    """(confusion heatmap, cost contribution heatmap, caption) of `policy` on the judged rows."""
    names = list(ds.class_names)
    y = ds.y_class[ds.purpose_rows("judge")]
    decided = rec.decisions[policy]
    conf = confusion(y, decided, len(names))
    n = len(y)
    confusion_fig = figures.heatmap_figure(conf, names, title=f"Confusion ({policy})", colorbar="cases")
    cost_fig = figures.heatmap_figure(
        conf * c_mat / max(n, 1), names, title="Cost contribution per case (N·C / n)", colorbar=unit or "cost"
    )
    caption = (
        f"Cases handed over ({(decided < 0).sum():,}) are priced separately at "
        f"{words.money(abstain_cost, unit)} each and are not in the heatmaps."
    )
    return confusion_fig, cost_fig, caption


def training_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The training table as read: four decimals for shares and errors, a percent for changes (a
    decrease with the minus sign U+2212, which no spreadsheet reads as a formula), "–" where a
    number does not apply (standard training's change against itself, a classifier's δ error).
    The CSV download keeps every digit."""
    out = frame.copy()
    itself = frame["method"].eq("standard") if "method" in frame else pd.Series(False, index=frame.index)
    for col in frame.columns:
        if col.startswith("nec_change"):
            cells = [f"{x:.1%}".replace("-", "\u2212") if pd.notna(x) else "–" for x in frame[col]]
            out[col] = ["–" if same else c for same, c in zip(itself, cells, strict=True)]
        elif col.startswith(("nec", "error_rate", "delta_mae")):
            out[col] = [f"{x:.4f}" if pd.notna(x) else "–" for x in frame[col]]
    if "method" in out:
        out["method"] = [training_words.method_label(m) for m in out["method"]]
    return out.rename(columns=training_words.COLUMN_WORDS)


# ---------------------------------------------------------------------------------------
# Costs & groups


def costs_metrics(rec, *, unit: str, volume: float) -> tuple[dict, ...]:
    """The Costs & groups page's four numbers (keyword arguments of each metric)."""
    base = R.rule_words(rec.baseline)
    flagged = rec.results.overall.loc[rec.rule, "flagged_rate"]
    return (
        {
            "label": "Cost per case",
            "value": words.money(rec.cost, unit),
            "help": "On the judged (test) rows, with the recommended cutoff.",
        },
        {
            "label": "Best without the model",
            "value": words.money(rec.baseline_cost, unit),
            "help": f"Per case, {base}: the cheaper of flagging nobody and flagging everyone.",
        },
        {
            "label": "Saving per case",
            "value": words.money(rec.saving, unit),
            "help": f"Against {base}, the cheaper choice without a model.",
        },
        {
            "label": "Saving a month",
            "value": words.money(rec.saving * volume, unit) if volume else "set a volume",
            "help": f"Saving per case times {volume:,.0f} cases a month (set in the sidebar). The recommended "
            f"cutoff flags {flagged:.1%} of cases.",
        },
    )


def price_questions_sentence(models: Mapping, rec, record: Mapping | None, costs: Mapping) -> str | None:
    """What the answers on Find my prices say about the cutoff, while they still set the prices (else None)."""
    if not (record and elicit.in_force(record, costs)["in_force"]):
        return None
    fitted = models[rec.model].fit_pooled
    span = elicit.pieces(fitted, record["ratio_low"], record["ratio_high"])
    lowest = float(fitted.thresholds[-1]) if fitted.thresholds.size > 1 else None
    return words.answers_sentence(record, span, lowest_score=lowest)


def audit_maker(models: Mapping, costs: Mapping, ds: Dataset, **options):
    """A function that builds the full audit (`report.build_audit`) at these prices, for the
    downloads: everything it needs is given now (a download's callable runs where the
    session's state cannot be read)."""
    frozen = dict(costs)

    def build() -> report.Audit:
        return report.build_audit(
            models,
            frozen,
            data_name=ds.name,
            fingerprint=ds.fingerprint,
            n_rows=ds.n_rows,
            data_notes=ds.notes,
            **options,
        )

    return build


def policy_restored_sentence(saved: Mapping, fingerprint: str) -> str:
    """What restoring the downloaded policy `saved` did, on the data of `fingerprint`."""
    same = saved["data"].get("sha256") == fingerprint
    return (
        f"Restored the prices of the policy (rule “{R.rule_words(saved['rule'])}”)."
        + (
            ""
            if same
            else " The policy was made on other data (its fingerprint differs), so the cutoffs shown are "
            "refitted on this data."
        )
        + "".join(" " + n for n in saved["notes"])
    )


REPORT_AND_POLICY = (
    "The report is one HTML file that opens offline: settings, data per group, the recommendation, every "
    "rule with intervals, fairness-constrained cutoffs, the sensitivity map and the limitations. The "
    "policy is a JSON file with the prices, what to ship (the recommended cutoffs, or the choice without a "
    "model when the answer says the model should not decide) and the data fingerprint, for the system that "
    "applies the decisions."
)
INTERVAL_MEANING = (
    "**95% interval**: the range the cost (or saving) would fall in for 95 of 100 new samples like "
    "the test rows (bootstrap: the test rows resampled with replacement within each group). A saving "
    "whose interval includes zero could be chance."
)


def rule_meanings(rec) -> list[str]:
    """One Markdown line per rule of `rec` (fairness rules aside): its name in bold and what it does."""
    return [
        f"**{words.md_escape(R.rule_words(rule))}**: {words.md_escape(R.rule_help(rule))}"
        for rule in rec.results.overall.index
        if not R.is_fair(rule)
    ]


@dataclass(frozen=True, eq=False)
class Sensitivity:
    """How much the prices matter: the sentence, the maps and the prices they are drawn at."""

    sentence: str
    maps: object  # report.PriceMaps
    mean_prices: tuple[float, float]

    def sensitivity_figure(self, unit: str, bracket):
        return figures.sensitivity_figure(
            self.maps.sensitivity, c_fp=self.mean_prices[0], c_fn=self.mean_prices[1], unit=unit, bracket=bracket
        )

    def net_benefit_figure(self):
        """The net benefit figure, or None when the scores are not probabilities."""
        if not len(self.maps.net_benefit):
            return None
        mp = self.mean_prices
        return figures.net_benefit_figure(
            self.maps.net_benefit, price_threshold=mp[0] / (mp[0] + mp[1]) if sum(mp) > 0 else None
        )


NET_BENEFIT_NEEDS_PROBABILITIES = "Net benefit reads a score as a probability; these scores are not probabilities."


def price_maps(models: Mapping, rec):
    """The price maps of every model around the mean prices of `rec` (`report.price_maps`)."""
    mp = report.mean_prices(models[rec.model], rec.prices)
    return report.price_maps(models, scale=report.price_scale(*mp))


def sensitivity(models: Mapping, rec, maps, *, unit: str, break_even) -> Sensitivity:
    """How much the prices matter at `rec`'s prices; `break_even` is `elicit.break_even_range` of the model."""
    mp = report.mean_prices(models[rec.model], rec.prices)
    leader = audit.ratio_range(maps.train, maps.test, c_fp=mp[0], c_fn=mp[1])
    sentence = report.sensitivity_sentence(
        leader, mp, unit, blended=not rec.prices.uniform, break_even=break_even, model=rec.model
    )
    return Sensitivity(sentence, maps, mp)


# ---------------------------------------------------------------------------------------
# Find my prices

MISS_NAME, ALARM_NAME = "a missed case", "a false alarm"


def mistake_names(miss: str, alarm: str) -> tuple[str, str]:
    """The two mistakes in the user's words (the defaults when left empty)."""
    return miss.strip() or MISS_NAME, alarm.strip() or ALARM_NAME


def question_sentence(bracket, question: str) -> str:
    return f"Question {len(bracket.answers) + 1}: {question}"


def group_multiplier_label(miss: str, group) -> str:
    return f"{words.label(miss)} in {words.label(group)} is … as one elsewhere"


def bracket_table(table: pd.DataFrame, sweep, names: tuple[str, str]) -> pd.DataFrame:
    """The cutoffs in play (`elicit.settle_if_robust`'s table) as read: a ratio range and the cutoff."""
    lowest = {"": float(sweep.thresholds[-1])} if sweep.thresholds.size > 1 else None
    return table.assign(
        ratio=[
            f"{words.ratio_text(lo)} to {words.ratio_text(hi)}"
            for lo, hi in zip(table["ratio_low"], table["ratio_high"], strict=True)
        ],
        cutoff=[words.cutoffs_short({"": t}, grouped=False, lowest=lowest) for t in table["threshold"]],
    )[["ratio", "cutoff"]].rename(
        columns={"ratio": f"{names[0]} costs … times {names[1]}", "cutoff": "best cutoff (train rows)"}
    )


def prices_from_answers(bracket, sweep, *, money: float, unit: str, names: Sequence, multipliers: Mapping) -> dict:
    """The settings the answers set: a false alarm at `money` (1 when 0), a miss at the middle of
    the bracket, each group's miss times its multiplier, and the record of the questions."""
    c_fp = float(money) if money > 0 else 1.0
    c_fn = min(c_fp * bracket.middle, settings.PRICE_MAX)
    per_group = any(m != 1.0 for m in multipliers.values())
    out = {"c_fp": c_fp, "c_fn": c_fn, "per_group": per_group}
    for i, g in enumerate(names):
        out[f"c_fp_{i}"] = c_fp
        out[f"c_fn_{i}"] = min(c_fn * multipliers.get(g, 1.0), settings.PRICE_MAX)
    record = elicit.record(bracket, cutoffs=elicit.pieces(sweep, bracket.low, bracket.high), money=c_fp, unit=unit)
    if per_group:
        record["group_multipliers"] = {str(g): m for g, m in multipliers.items()}
    out["price_questions"] = record
    return out


# ---------------------------------------------------------------------------------------
# Data


def classes_sentence(class_names: Sequence[str]) -> str:
    """'Classes: a, b, c'."""
    return "Classes: " + ", ".join(class_names)


def previous_upload_sentence(name: str, what: str = "file") -> str:
    """The upload `name` still in use after a new one failed (`what`: "file" or "data")."""
    return f"Your previous {what}, “{name}”, is still loaded."


def fix_offer(fix: str) -> str:
    """The tick box that applies a `DataError`'s fix."""
    return f"Fix it: {fix} (tick, then press “Use these columns” again)"


def data_folder_sentence(n_files: int) -> str:
    return f"Files in this server's data folder ({n_files}), read where they lie through DuckDB:"
