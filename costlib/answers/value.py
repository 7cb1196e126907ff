"""The Value page's answer (`ValueAnswer`, `value_answer`): the k in use, the recommendation
and its words computed up front, the sections on request.

Its parts have homes of their own: the k (which the Calibration page reads too) in
`costlib.answers.value_k`, the sweeps, figures and tables in `costlib.answers.value_sections`,
the numbers and sentences in `costlib.present.value_words`; the names the page and the tests
read are importable from here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from costlib import value
from costlib.answers.remembering import compute_now
from costlib.answers.value_k import (
    KChoice,
    judged_cases,
    outcome_prices,
    per_outcome_sentence,
    reject_value_of,
    value_k,
    value_k_sentence,
    worth_unit,
)
from costlib.answers.value_sections import (
    OutcomeSweeps,
    ValueSweeps,
    acceptance_table,
    calibrated_sweeps,
    classification_table,
    models_by_k,
    outcome_curves,
    outcome_sweeps,
    value_calibration_table,
    value_k_figure,
    value_outcome_figure,
    value_sweeps,
    value_tau_figure,
)
from costlib.core import settings
from costlib.core.dataset import Dataset
from costlib.loading.samples import is_sample
from costlib.present import labels as t
from costlib.present.value_limit_words import (
    LimitCost,
    answer_limit_cost,
    threshold_limit_cost,
    value_capacity_sentence,
)
from costlib.present.value_verdict import (
    lopsided_sentence,
    outcome_verdict,
    unset_prices_clause,
    value_verdict,
)
from costlib.present.value_words import (
    ACCEPTANCE_RULES_NOTE,
    CALIBRATION_VALUE_NOTE,
    CLASSIFICATION_NOTE,
    F1_HEADER,
    K_SEPARATE_NOTE,
    VALUE_CAP_NO_VOLUME,
    VALUE_VERDICT_MORE,
    WORTH_AFTER_RESCALING,
    WORTH_BEFORE_RESCALING,
    counts_only_value_sentence,
    no_calibration_note,
    separate_prices_detail,
    value_k_caption,
    value_lag_sentence,
    value_metrics,
    value_picked_sentence,
)

K_GRID = np.linspace(settings.K.low, settings.K.high, 201)  # the k axis of the chart of value against k


@dataclass(eq=False)
class ValueAnswer:
    """What the Value page shows at one price book, one worth of a right answer and of a case
    handed over, one k and one limit on the hand-overs: the answer computed up front, the
    sections below it on request (`tau_figure`, `one_price_figure`, `k_figure`, `acceptance_table`,
    `classification_table`, `calibration_table`, `calibration_advice`), everything that sorts
    the rows or fits remembered through `remember` (the sweeps once per data set, the
    recommendation once per k, worth of a hand-over and limit), so that a change of unit or
    volume only rewords the answer.

    choice      the k in use and the mean prices behind it (`KChoice`)
    rec         the recommendation (`value.recommend_value`, within the limit when there is one; at
                separate prices of the two mistakes and no limit, `outcome_rec`: each priced on its own)
    verdict     the page's one answer in words (`value_verdict.value_verdict`), and
                why its gain's interval is wider when its model is the best of several on the rows
                it is judged on (`value_picked_sentence`)
    metrics     the numbers under it (`value_metrics`)
    k_sentence  where k comes from (`value_k_sentence`)
    limit_note  what the limit on the hand-overs changes, or why it is not used (None without one)
    """

    ds: Dataset
    sweeps: ValueSweeps
    choice: KChoice
    rec: object
    k_rec: object  # the recommendation at k (`rec` too, unless the prices differ: `outcome_rec`)
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

    @property
    def k(self) -> float:
        return self.choice.k

    @property
    def threshold_limit_cost(self) -> LimitCost | None:
        """What the limit on the hand-overs costs the confidence threshold within it (the limit's box
        says it: `value_limit_words.threshold_limit_cost`); None without a limit."""
        return threshold_limit_cost(self.rec) if getattr(self.rec, "capacity", None) is not None else None

    @property
    def answer_limit_cost(self) -> LimitCost | None:
        """What the limit costs what the page says to do, the choice the verdict keeps or the threshold
        it ships (the headline says it: `value_limit_words.answer_limit_cost`); None without a limit."""
        return answer_limit_cost(self.rec) if getattr(self.rec, "capacity", None) is not None else None

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

    @property
    def apart(self) -> bool:
        """Whether the answer prices each mistake on its own (`separate_prices`): then the page's
        first chart is that rule's (`tau_figure`) and the chart at k folds under it (`one_price_figure`)."""
        return self.rec is not self.k_rec

    def tau_figure(self, model: str):
        """The page's first chart: worth per case against the confidence threshold of `model`, of
        the rule the answer uses. At separate prices (`apart`), each answer's threshold with the
        other's held at its fitted value, on the rows the answer is judged on (`value_outcome_figure`,
        the sweeps remembered per model, prices and worth of a hand-over); else at k (`one_price_figure`)."""
        if not self.apart:
            return self.one_price_figure(model)
        rec, r = self.rec, self.reject_value
        rows = kept_outcome_sweeps(self.ds, self.sweeps, self.remember)
        oc = self.remember(
            "value_outcome_curves",
            (model, rec.k_fp, rec.k_fn, r),
            lambda: outcome_curves(rows, rec, model, reject_value=r),
        )
        return value_outcome_figure(oc, rec, model, worth=self.worth, unit=self.unit)

    def one_price_figure(self, model: str):
        """Worth per case against the confidence threshold of `model` at k, one price for every
        wrong answer (`value_tau_figure`)."""
        return value_tau_figure(
            self.sweeps,
            self.k_rec,
            model,
            shipped=self.k_rec is self.rec,
            k=self.k,
            reject_value=self.reject_value,
            worth=self.worth,
            unit=self.unit,
        )

    def k_figure(self):
        """Which model is worth more at each k of `K_GRID`, your k marked; the values against k
        are remembered per worth of a hand-over (a k or a worth of a right answer only moves the
        mark and the scale)."""
        r = self.reject_value
        against = self.remember("value_k", (r,), lambda: models_by_k(self.sweeps, K_GRID, reject_value=r))
        return value_k_figure(against, k=self.k, worth=self.worth, unit=self.unit, reject_value=r)

    @property
    def k_caption(self) -> str:
        fit_role = self.sweeps.fit_role if self.sweeps.fit is not None else None  # `models_by_k` fits there
        return value_k_caption(self.worth, self.unit, fit_role, self.reject_value)

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
        worth, r = worth_unit(self.worth), self.reject_value
        return self.remember(
            "acceptance_rules",
            (k_tp, k_fp, k_fn, worth, r),
            lambda: acceptance_table(
                self.ds,
                kept_outcome_sweeps(self.ds, self.sweeps, self.remember),
                k_tp=k_tp,
                k_fp=k_fp,
                k_fn=k_fn,
                worth=worth,
                reject_value=r,
            ),
        )

    def classification_table(self) -> pd.DataFrame:
        """`classification_table` of every model at the mean prices."""
        c_fp, c_fn = self.choice.c_fp, self.choice.c_fn
        return self.remember(
            "classification", (c_fp, c_fn), lambda: classification_table(self.ds, c_fp=c_fp, c_fn=c_fn)
        )

    @property
    def no_validation_note(self) -> str:
        """Why there is no calibration section (`calibrates` False), true of this data's split."""
        return no_calibration_note(split=self.ds.split is not None, test_rows=self.ds.has_role("test"))

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
        """The tables' column headers in the user's unit, each {column: header}: "acceptance"
        (worth per case), "classification" (the price of the errors per case) and "calibration"."""
        return {
            "acceptance": {"value per case": t.in_unit(t.ACCEPTANCE_HEADER, self.unit)},
            "classification": {
                "cost-sensitive error": t.in_unit(t.CLASSIFICATION_HEADER, self.unit),
                "F1": F1_HEADER,
            },
            "calibration": {
                c: f"{c} ({self.unit or t.PER_CASE})" for c in (WORTH_BEFORE_RESCALING, WORTH_AFTER_RESCALING)
            },
        }

    handed_over_column = "handed over"  # the acceptance table's share handed over (shown as a percent)


def separate_prices(ds: Dataset, choice: KChoice, worth: float) -> bool:
    """Whether the page's answer prices each mistake on its own (`outcome_rec`): the two mean
    prices differ, k follows them (the slider not moved), a right answer has a worth and the data
    has its rows (an aggregate's counts keep the answer at k). Without a limit on the hand-overs
    only: under one, the answer at k is the page's (`value_answer`)."""
    same = bool(np.isclose(choice.c_fp, choice.c_fn, rtol=1e-9, atol=0.0))
    return not (same or choice.moved or not worth > 0 or ds.counts_only)


def outcome_rec(ds: Dataset, sweeps: ValueSweeps, choice: KChoice, *, worth: float, reject_value: float, remember):
    """The answer at separate prices (`value.per_outcome.recommend_sweeps`): the model's two
    answers each accepted from a confidence threshold fitted to the mean prices of a false positive
    and a false negative (`choice`), on the fitting rows with a split, else cross-fitted; the rows
    sorted once per data set (`kept_outcome_sweeps`)."""
    from costlib.value.per_outcome import recommend_sweeps

    rows = kept_outcome_sweeps(ds, sweeps, remember)
    return recommend_sweeps(
        rows.judge,
        rows.fit,
        k_fp=choice.c_fp / worth,
        k_fn=choice.c_fn / worth,
        reject_value=reject_value,
        fit_role=sweeps.fit_role,
    )


def kept_outcome_sweeps(ds: Dataset, sweeps: ValueSweeps, remember) -> OutcomeSweeps:
    """`outcome_sweeps` of `ds`, remembered once per data set through `remember` (a split where
    `sweeps` has one): the answer at separate prices and its chart price the same sorted rows."""
    return remember("value_outcome_sweeps", (), lambda: outcome_sweeps(ds, split=sweeps.fit is not None))


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
        lambda: value.recommend_value(
            sweeps.judge, k=k, reject_value=r, fit_sweeps=sweeps.fit, max_reject=share, fit_role=sweeps.fit_role
        ),
    )
    k_rec = rec
    apart = separate_prices(ds, choice, worth)
    # under a limit the answer prices both mistakes at their average: its headline and the limit's box say so
    averaged = (choice.c_fp, choice.c_fn) if apart and share is not None else None
    if share is None and apart:  # the answer prices each mistake on its own
        rec = remember(
            "value_outcome",
            (choice.c_fp, choice.c_fn, worth, r),
            lambda: outcome_rec(ds, sweeps, choice, worth=worth, reject_value=r, remember=remember),
        )
    if cap is not None and share is None:
        limit_note = VALUE_CAP_NO_VOLUME
    elif rec.capacity is not None:
        limit_note = value_capacity_sentence(rec, cap=cap, volume=volume, worth=worth, unit=unit, averaged=averaged)
    else:
        limit_note = None
    priced = unset_prices_clause(
        worth=worth,
        reject_worth=reject_worth,
        worth_default=settings.GAIN.default,
        reject_default=settings.REJECT_WORTH.default,
        unit=unit,
    )
    sample = is_sample(ds.fingerprint)  # a built-in sample's models are not the reader's
    lopsided = (  # under a limit at averaged prices the headline says how it prices them
        None
        if averaged is not None and rec.capacity is not None
        else lopsided_sentence(c_fp=choice.c_fp, c_fn=choice.c_fn, k=k, moved=choice.moved, unit=unit)
    )
    verdict = (
        outcome_verdict(rec, worth=worth, unit=unit, volume=volume, priced=priced, sample=sample)
        if rec is not k_rec
        else None
    )
    if verdict is not None:
        verdict = replace(
            verdict, details=(*verdict.details, separate_prices_detail(c_fp=choice.c_fp, c_fn=choice.c_fn, unit=unit))
        )
    verdict = verdict or value_verdict(
        rec,
        k=k,
        worth=worth,
        unit=unit,
        volume=volume,
        cap=cap if rec.capacity is not None else None,
        priced=priced,
        notes=(lopsided,) if lopsided else (),
        sample=sample,
        averaged=averaged if rec.capacity is not None else None,
    )
    picked = value_picked_sentence(rec, sample=sample)
    if picked:
        verdict = replace(verdict, details=(*verdict.details, picked))
    return ValueAnswer(
        ds=ds,
        sweeps=sweeps,
        choice=choice,
        rec=rec,
        k_rec=k_rec,
        worth=worth,
        reject_value=r,
        unit=unit,
        volume=volume,
        verdict=verdict,
        metrics=value_metrics(rec, worth=worth, unit=unit, volume=volume),
        k_sentence=value_k_sentence(choice, worth, unit) + (K_SEPARATE_NOTE if rec is not k_rec else ""),
        limit_note=limit_note,
        remember=remember,
    )
