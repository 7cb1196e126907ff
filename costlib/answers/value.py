"""The answer of the Value (and the k that Calibration reads too) page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.answers.remembering import compute_now
from costlib.calibration import apply_temperature, fit_temperature
from costlib.core import settings
from costlib.core.dataset import Dataset
from costlib.core.prices import prices_for
from costlib.loading.messages import plural
from costlib.present import figures, page_answers, words


def judged_cases(ds: Dataset, names: Sequence) -> list[float]:
    """Each group's judged cases (weighted when the data has weights), in the order of `names`.

    The weights the price book's mean gives the groups (`Prices.mean`): the same as the report's
    (a `ModelSweeps`' judged totals).
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


K_FROM_PRICES = "the k that follows from your prices"  # what a refused ?k= falls back to


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
    prices = prices_for(list(costs), dict(costs))
    c_fp, c_fn = prices.mean(cases)
    derived = value.k_from_prices(c_fp, c_fn, worth) if worth > 0 else k_max
    k = float(moved_k) if moved_k is not None else float(min(derived, k_max))
    return KChoice(c_fp, c_fn, derived, k, moved_k is not None, not prices.uniform)


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


def value_lag_sentence(drawn_k: float, drawn_worth: float, unit: str) -> str:
    """What the sections below Value's answer were drawn for, once a move has left them behind."""
    return (
        f"The chart of value against k and the tables below are still for k = {drawn_k:.3g}, a right answer "
        f"worth {words.money(drawn_worth, unit)}."
    )


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


def reject_value_of(reject_worth: float, worth: float) -> float:
    """A handed-over case's worth in units of a right answer's (0 when a right answer is worth 0)."""
    return reject_worth / worth if worth > 0 else 0.0


def worth_unit(worth: float) -> float:
    """The worth the per-outcome prices are counted in: a right answer's, or 1 when it is set to 0."""
    return float(worth) if worth > 0 else 1.0


def outcome_prices(choice: KChoice, worth: float) -> tuple[float, float]:
    """(k_fp, k_fn): the mean prices of a false positive and a false negative in units of
    `worth_unit(worth)`, the defaults of the per-outcome inputs."""
    unit_worth = worth_unit(worth)
    return float(choice.c_fp / unit_worth), float(choice.c_fn / unit_worth)


def per_outcome_sentence(choice: KChoice, worth: float, unit: str) -> str:
    worth = worth_unit(worth)  # the sentence names the worth the prices below are counted in
    return (
        "In units of a right negative answer (worth 1). From your prices: a false positive costs "
        f"{words.money(choice.c_fp, unit)} and a false negative {words.money(choice.c_fn, unit)}; with a right answer "
        f"worth {words.money(worth, unit)}, that is k_fp and k_fn below."
    )


@dataclass(frozen=True, eq=False)
class CalibratedSweeps:
    """Each model's temperature, fitted on the held-out rows (validation, else train, as on the
    Calibration page), and the judged rows' value sweep of its rescaled probabilities: made
    once per data set, so that a k move only reads them."""

    rows: str
    temperatures: dict
    sweeps: dict


def calibrated_sweeps(ds: Dataset) -> CalibratedSweeps:
    val, judge = ds.purpose_rows("calibrate"), ds.purpose_rows("judge")
    y = ds.y[judge]
    temps = {m: fit_temperature(ds.y[val], s[val]) for m, s in ds.scores.items()}
    cal = {
        m: value.value_sweep(y, apply_temperature(s[judge], temps[m]))
        for m, s in ds.scores.items()
        if np.isfinite(temps[m])
    }
    return CalibratedSweeps("validation" if ds.has_role("validation") else "train", temps, cal)


def value_calibration_table(
    cal: CalibratedSweeps, sweeps: ValueSweeps, *, k: float, reject_value: float, worth: float
) -> pd.DataFrame:
    """Each model's temperature and its worth at tau* before and after (`calibrated_sweeps`)."""
    before = value.value_table(sweeps.judge, k=k, reject_value=reject_value).set_index("model")
    after = value.value_table(cal.sweeps, k=k, reject_value=reject_value).set_index("model")
    return (
        pd.DataFrame(
            {
                f"temperature (fitted on the {cal.rows} rows)": pd.Series(cal.temperatures),
                "worth at τ* before": before["value at tau*"] * worth,
                "worth at τ* after": after["value at tau*"] * worth,
            }
        )
        .rename_axis("model")
        .reset_index()
    )


# the first number when the model's threshold does not ship: the worth of what the verdict keeps
VALUE_BASELINE_TILE = {
    value.HAND_OVER: "Worth per case, all to a person",
    value.ANSWER_ALL: "Worth per case, model answers all",
    value.HAND_AT_RANDOM: "Worth per case, random hand-overs",
}
VALUE_THRESHOLD_TILE = "Worth per case with the threshold"  # the model's confidence threshold, when it does not ship


def value_metrics(rec, *, worth: float, unit: str, volume: float) -> tuple[dict, ...]:
    """The Value page's numbers (keyword arguments of each metric), in the user's unit: what the
    verdict says to do first (`ValueRecommendation.kept` when the threshold does not ship), so that
    a verdict that does not ship it never shows its worth as the worth per case (as `costs_metrics`
    does on Costs & groups). No numbers when nothing could be valued."""
    from costlib.binary import decision as D

    if rec.status == D.NO_ANSWER:
        return ()
    month = {  # the threshold's worth a month; when it adds nothing, that of the choice it is
        "label": "Worth a month",
        "value": words.money(rec.value * worth * volume, unit) if volume else "set a volume",
        "help": f"Worth per case times {volume:,.0f} cases a month.",
    }
    kept = rec.kept
    if kept is not None:
        choice, kept_worth = kept
        first = {
            "label": VALUE_BASELINE_TILE[choice],
            "value": words.money(kept_worth * worth, unit),
            "help": f"What the verdict says to do: {page_answers.VALUE_BASELINES[choice]}, on the test rows.",
        }
        if rec.status == D.ADDS_NOTHING:  # the fitted threshold is itself that choice: nothing to compare
            return (
                first,
                month,
                {
                    "label": "Handed to a person",
                    "value": "100%" if choice == value.HAND_OVER else "0%",
                    "help": "What the verdict says to do hands every case to a person, or none.",
                },
            )
        more = "gain" if rec.gain >= 0 else "lose"
        return (
            first,
            {
                "label": VALUE_THRESHOLD_TILE,
                "value": words.money(rec.value * worth, unit),
                "help": "On the test rows, answering when the confidence is at least the threshold fitted on the "
                "train rows; the verdict does not ship it.",
            },
            {
                "label": f"It would {more} per case",
                "value": words.money(abs(rec.gain) * worth, unit),
                "help": "Not a gain you can count on: its 95% interval reaches zero or below (see the verdict)."
                if rec.status == D.UNCLEAR
                else "The threshold is worth no more than the choice the verdict keeps.",
            },
            {
                "label": f"It would {more} a month",
                "value": words.money(abs(rec.gain) * worth * volume, unit) if volume else "set a volume",
                "help": "The same a month, at your cases a month: nothing changes unless the threshold ships, and "
                "the verdict does not ship it.",
            },
        )
    return (
        {
            "label": "Worth per case",
            "value": words.money(rec.value * worth, unit),
            "help": "On the test rows, answering from the recommended confidence threshold.",
        },
        month,
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


VALUE_CAP_LABEL = "Limit hand-overs"
VALUE_CAP_NUMBER = "Hand-overs people can take a month"
VALUE_CAP_HELP = (
    "The people who take the handed-over cases are a queue with a size. With a limit, the answer is the best "
    "threshold that hands over at most this many of the cases a month (set under Cases per month)."
)
VALUE_CAP_NO_VOLUME = (
    "Set the cases per month (in the sidebar) to use the limit: it is a share of them. Until then the answer "
    "ignores it."
)


def _cases(x: float) -> str:
    return words.number(x, 0)


def value_capacity_sentence(rec, *, cap: float, volume: float, worth: float, unit: str) -> str:
    """What the limit of `cap` hand-overs a month changes (`rec.capacity`, from
    `value.recommend_value` with a cap), and what one more case a month people take is worth."""
    c = rec.capacity
    u = c.unlimited
    split = rec.judged_on == "test"
    on_fit, on_judged = (" on the train rows", " on the test rows") if split else ("", "")
    many = len(rec.models) > 1
    who_u = f"{u.model} " if many else ""
    who = rec.model if many else "the model"
    take = f"People can take {_cases(cap)} {plural(round(float(cap)), 'case', 'cases')} a month"
    if not c.binding:
        return (
            f"{take}, and the best threshold{on_fit} hands over "
            f"{_cases(c.unlimited_fit_reject_rate * volume)} a month ({who_u}at confidence ≥ {u.tau:.3f}): the limit "
            "does not bind, so the answer is the same as without it."
        )
    less = (u.value - rec.value) * worth * volume
    cost = (
        f"worth {words.money(less, unit)} less a month than without the limit{on_judged}"
        if less > 0
        else f"worth no less a month than without the limit{on_judged}"
    )
    within = (
        f"the best is to let {who} answer every case (no threshold that hands over so few does better): {cost}"
        if not c.fit_reject_rate > 0
        else f"let {who} answer at confidence ≥ {rec.tau:.3f}: {cost}"
    )
    lines = [
        f"{take}; the best threshold{on_fit} would hand over "
        f"{_cases(c.unlimited_fit_reject_rate * volume)} ({who_u}at confidence ≥ {u.tau:.3f}). Within "
        f"{_cases(cap)}, {within}."
    ]
    judged = rec.reject_rate * volume
    if split and judged > cap * (1 + 1e-9):
        lines.append(
            f"On the test rows that threshold hands over {_cases(judged)} a month, more than {_cases(cap)}: a "
            "threshold chosen on the train rows keeps the limit there, and other rows come out a little above or "
            "below it."
        )
    if np.isfinite(c.price):
        lines.append(
            f"Each extra case a month that people can take would be worth about {words.money(c.price * worth, unit)} "
            f"a month{on_fit}; the returns shrink as the limit grows."
            if c.price > 0
            else f"One more case a month that people can take would be worth nothing more{on_fit}."
        )
    return " ".join(lines)


def value_tau_figure(sweeps: ValueSweeps, rec, model: str, *, k: float, reject_value: float, worth: float, unit: str):
    """Worth per case against the confidence threshold of `model`, with tau* and the best tau marked;
    with a limit on the cases handed over (`rec.capacity`), the star is the best within it and a
    hollow star marks the best without it when the limit binds."""
    sweep = sweeps.judge[model]
    row = rec.models.set_index("model").loc[model]
    unlimited = None
    c = rec.capacity
    if c is not None and c.binding:
        free = c.unlimited.models.set_index("model").loc[model]
        if np.isfinite(free["tau"]) and free["tau"] != row["tau"]:
            unlimited = (float(free["tau"]), float(free["value"]) * worth)
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
        # under a limit, handing everything over does not fit: draw the choice without a model it leaves
        no_model=(rec.baseline, rec.baseline_value * worth) if rec.capacity is not None else None,
        unlimited=unlimited,
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


def value_k_figure(against_k: tuple, *, k: float, worth: float, unit: str):
    """Which model is worth more at each k (`models_by_k`), in the user's unit, your k marked."""
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
    "This data has no split, so no rows are held out from the judged rows to calibrate on. Map a split column "
    "(validation or train rows) on the Data page to see value before and after temperature scaling."
)


K_GRID = np.linspace(settings.K.low, settings.K.high, 201)  # the k axis of the chart of value against k
VALUE_VERDICT_MORE = "Why not the formula threshold?"  # the title of the verdict's details


@dataclass(eq=False)
class ValueAnswer:
    """What the Value page shows at one price book, one worth of a right answer and of a case
    handed over, one k and one limit on the hand-overs: the answer computed up front, the
    sections below it on request (`tau_figure`, `k_figure`, `acceptance_table`,
    `classification_table`, `calibration_table`, `calibration_advice`), everything that sorts
    the rows or fits remembered through `remember` (the sweeps once per data set, the
    recommendation once per k, worth of a hand-over and limit), so that a change of unit or
    volume only rewords the answer.

    choice      the k in use and the mean prices behind it (`KChoice`)
    rec         the recommendation (`value.recommend_value`, within the limit when there is one)
    verdict     the page's one answer in words (`page_answers.value_recommendation_verdict`)
    metrics     the numbers under it (`value_metrics`)
    k_sentence  where k comes from (`value_k_sentence`)
    limit_note  what the limit on the hand-overs changes, or why it is not used (None without one)
    """

    ds: Dataset
    sweeps: ValueSweeps
    choice: KChoice
    rec: object
    worth: float
    reject_value: float
    unit: str
    volume: float
    verdict: object
    metrics: tuple
    k_sentence: str
    limit_note: str | None
    remember: object

    verdict_more = VALUE_VERDICT_MORE
    acceptance_note = ACCEPTANCE_RULES_NOTE
    classification_note = CLASSIFICATION_NOTE
    calibration_note = CALIBRATION_VALUE_NOTE
    no_validation_note = NO_VALIDATION_NOTE

    @property
    def k(self) -> float:
        return self.choice.k

    @property
    def models(self) -> list:
        """The models whose curve can be drawn, in the data's order."""
        return list(self.sweeps.judge)

    @property
    def drawn_for(self) -> tuple:
        """(k, worth of a hand-over in right answers, worth of a right answer): what the sections
        below the answer depend on, to tell when a move has left them behind."""
        return (self.k, self.reject_value, self.worth)

    def lag_sentence(self, drawn: tuple | None) -> str | None:
        """What the sections below were drawn for (`drawn`, a `drawn_for`), when not for this
        answer; None when they are (or were not drawn)."""
        if drawn is None or tuple(drawn) == self.drawn_for:
            return None
        return value_lag_sentence(drawn[0], drawn[2], self.unit)

    def tau_figure(self, model: str):
        """Worth per case against the confidence threshold of `model` (`value_tau_figure`)."""
        return value_tau_figure(
            self.sweeps, self.rec, model, k=self.k, reject_value=self.reject_value, worth=self.worth, unit=self.unit
        )

    def k_figure(self):
        """Which model is worth more at each k of `K_GRID`, your k marked; the values against k
        are remembered per worth of a hand-over (a k or a worth of a right answer only moves the
        mark and the scale)."""
        r = self.reject_value
        against = self.remember("value_k", (r,), lambda: models_by_k(self.sweeps, K_GRID, reject_value=r))
        return value_k_figure(against, k=self.k, worth=self.worth, unit=self.unit)

    @property
    def k_caption(self) -> str:
        return value_k_caption(self.worth, self.unit)

    @property
    def counts_only_note(self) -> str | None:
        """Why the sections that need each case are not shown (None when the data has its rows)."""
        return counts_only_value_sentence(self.ds.name) if self.ds.counts_only else None

    @property
    def per_outcome_sentence(self) -> str:
        return per_outcome_sentence(self.choice, self.worth, self.unit)

    @property
    def outcome_defaults(self) -> tuple[float, float]:
        """(k_fp, k_fn) the per-outcome inputs start at: the mean prices in units of `worth_unit`."""
        return outcome_prices(self.choice, self.worth)

    def acceptance_table(self, *, k_tp: float, k_fp: float, k_fn: float) -> pd.DataFrame:
        """`acceptance_table` at these per-outcome prices (in units of `worth_unit`)."""
        worth = worth_unit(self.worth)
        return self.remember(
            "acceptance_rules",
            (k_tp, k_fp, k_fn, worth),
            lambda: acceptance_table(self.ds, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, worth=worth),
        )

    def classification_table(self) -> pd.DataFrame:
        """`classification_table` of every model at the mean prices."""
        c_fp, c_fn = self.choice.c_fp, self.choice.c_fn
        return self.remember(
            "classification", (c_fp, c_fn), lambda: classification_table(self.ds, c_fp=c_fp, c_fn=c_fn)
        )

    @property
    def calibrates(self) -> bool:
        """Whether rows are held out to calibrate on (else `no_validation_note` is the section)."""
        from costlib.answers.calibration import calibration_rows

        return bool(calibration_rows(self.ds))

    def calibration_table(self) -> pd.DataFrame:
        """`value_calibration_table` at this k (the temperatures fitted once per data set)."""
        k, r, worth = self.k, self.reject_value, worth_unit(self.worth)
        return self.remember(
            "value_calibration",
            (k, r, worth),
            lambda: value_calibration_table(
                self.remember("calibrated_sweeps", (), lambda: calibrated_sweeps(self.ds)),
                self.sweeps,
                k=k,
                reject_value=r,
                worth=worth,
            ),
        )

    def calibration_advice(self) -> list[str]:
        """Each model's calibration advice (`calibration.calibration_advice_line`), where there is one."""
        from costlib.answers.calibration import calibration_advice_line

        lines = (
            self.remember("calibration_advice", (m,), lambda m=m: calibration_advice_line(self.ds, m))
            for m in self.ds.scores
        )
        return [line for line in lines if line]

    @property
    def labels(self) -> dict:
        """The tables' column headers in the user's unit: "acceptance" (worth per case),
        "classification" (the price of the errors per case) and "calibration" ({column: header})."""
        your = self.unit or "your unit"
        return {
            "acceptance": f"worth per case ({your})",
            "classification": f"price of the errors per case ({your})",
            "calibration": {c: f"{c} ({self.unit or 'per case'})" for c in ("worth at τ* before", "worth at τ* after")},
        }


def value_answer(
    ds: Dataset,
    costs: Mapping,
    *,
    names: Sequence,
    worth: float,
    reject_worth: float,
    moved_k: float | None = None,
    cap: float | None = None,
    unit: str = "",
    volume: float = 0.0,
    remember=compute_now,
) -> ValueAnswer:
    """The Value page's answer on `ds` at the price book `costs` ({group: (c_fp, c_fn)} for the
    groups `names`), a right answer worth `worth` and a case handed over `reject_worth` (in the
    user's unit), k the prices' unless the slider moved it (`moved_k`), and at most `cap` cases
    a month handed over (None: no limit; without a `volume`, the cases a month, the limit is not
    used).

    `remember(name, key, compute)` returns ``compute()``, remembered under (name, key): the page
    passes its memo, so that the sweeps are made once per data set and the recommendation once
    per k, worth of a hand-over and limit (a change of unit or volume never sorts the rows again).
    """
    from costlib.present.capacity_words import cap_share

    cases = remember("judged_cases", tuple(names), lambda: judged_cases(ds, names))
    sweeps = remember("value_sweeps", (), lambda: value_sweeps(ds))
    choice = value_k(costs, cases, worth, moved_k, settings.K.high)
    k, r, share = choice.k, reject_value_of(reject_worth, worth), cap_share(cap, volume)
    rec = remember(
        "value_rec",
        (k, r, share),
        lambda: value.recommend_value(sweeps.judge, k=k, reject_value=r, fit_sweeps=sweeps.fit, max_reject=share),
    )
    if cap is not None and share is None:
        limit_note = VALUE_CAP_NO_VOLUME
    elif rec.capacity is not None:
        limit_note = value_capacity_sentence(rec, cap=cap, volume=volume, worth=worth, unit=unit)
    else:
        limit_note = None
    return ValueAnswer(
        ds=ds,
        sweeps=sweeps,
        choice=choice,
        rec=rec,
        worth=worth,
        reject_value=r,
        unit=unit,
        volume=volume,
        verdict=page_answers.value_recommendation_verdict(rec, k=k, worth=worth, unit=unit, volume=volume),
        metrics=value_metrics(rec, worth=worth, unit=unit, volume=volume),
        k_sentence=value_k_sentence(choice, worth, unit),
        limit_note=limit_note,
        remember=remember,
    )
