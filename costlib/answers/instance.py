"""The answer of the Instance costs page."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.escaping import plain
from costlib.instance import NecSweeps, nec_curve, nec_money, recommend_nec
from costlib.present import figures, page_answers, training_page, words
from costlib.present import labels as t
from costlib.present.amounts import cutoff_number, money, month_amount
from costlib.present.plotting import mark_x
from costlib.present.training_page import NO_MISTAKE_PRICE

#: the cutoff slider moves by about a thousandth of its range (0.001 on probabilities), so that a
#: key press moves it visibly; its start is read finer (down to a hundredth of the step) only where
#: rounding down to the step would flag more cases than the answer does
STEPS_PER_RANGE = 1000
FINER_STEPS = 2  # how many times a tenth of the step may be tried for the start
#: the characters of a chart title that one line holds in a half-width column at 1400 px (the curve sits
#: beside the histogram): about 70 at 13 px (the cross-fitted curve's 84 were cut after "...picked on")
HALF_COLUMN_TITLE = 60
LINE_PX = 20  # the top margin a second line of a title takes


def mistakes_free(price: float) -> bool:
    """Whether a mistake on a typical case priced `price` leaves every mistake free: each case's
    mistake costs `price` times its |delta| over a typical case's, so at 0 all cost 0 and there is
    nothing to choose (`training_page.NO_MISTAKE_PRICE`). The one test of that rule for Instance
    costs, Train with costs and ``costlib train``.

    >>> mistakes_free(0.0), mistakes_free(0.5)
    (True, False)
    """
    return price == 0


class AtCutoff(NamedTuple):
    """What the Instance costs page shows at the explored cutoff (`InstanceAnswer.at_cutoff`)."""

    figure: object  # the error rate beside the weighted error, every option
    overall: pd.DataFrame  # as shown: plain column names, money as text
    by_group: pd.DataFrame  # as shown, per group (empty without groups)
    overall_csv: pd.DataFrame  # `nec_table`'s columns, with the cost per case as a number
    by_group_csv: pd.DataFrame


@dataclass(frozen=True, eq=False)
class InstanceAnswer:
    """What the Instance costs page shows for one dataset (the price of a mistake and the cutoff
    slider aside: the sentences, the curve and the tables in money are read at them)."""

    rec: object  # instance.NecRecommendation
    sentence: str  # where each case's cost comes from, and how many judged cases are positive
    curves: pd.DataFrame  # threshold, NEC, model: NEC against the cutoff, every model
    delta: np.ndarray  # the judged rows' delta
    groups: np.ndarray | None  # the judged rows' groups
    necs: NecSweeps  # every model's sweeps, by group: a cutoff move reads these
    cutoff_range: tuple[float, float, float]  # (low, high, start) of the cutoff to explore
    cutoff_step: float  # the slider's step: a key press moves the cutoff by this
    cutoff_precision: float  # what the start is rounded to: the step, or finer where the step would flag more
    mapping: ColumnMapping  # where delta comes from (the terms' formula)
    typical: float  # the mean abs(delta) of the judged rows: a typical case's

    def verdict(self, price: float, unit: str = "", volume: float | None = None) -> words.Verdict:
        """The one answer, in money: a mistake on a typical case costs `price` (`page_answers.nec_verdict`);
        at a price of 0 every mistake is free and there is nothing to choose (`training_page.NO_MISTAKE_PRICE`)."""
        if mistakes_free(price):
            return words.Verdict("warning", NO_MISTAKE_PRICE)
        return page_answers.nec_verdict(self.rec, price=price, unit=unit, volume=volume)

    def terms(self, price: float, unit: str = "") -> tuple[str, ...]:
        """The technical terms, one sentence each (`page_answers.instance_terms`)."""
        return page_answers.instance_terms(
            self.mapping, self.typical, price=price, unit=unit, beside_label=_priced_beside_label(self.mapping)
        )

    @property
    def cutoff_format(self) -> str:
        """The slider's number format: as many decimals as its start needs ("%.3f" for 0.638,
        "%.4f" for 0.6381), at least as many as its step has."""
        return f"%.{_decimals(min(self.cutoff_step, self.cutoff_precision))}f"

    def figure(self, price: float = 1.0, unit: str = ""):
        """The cost per case against the cutoff, the recommendation marked (`instance_figure`)."""
        return instance_figure(self, price=price, unit=unit)

    def delta_figure(self, price: float = 1.0, unit: str = ""):
        """The histogram of what a mistake on each judged case costs in `unit` (`price` times its |delta|
        over a typical case's, the terms' reading), one series per class (and group), every amount from 0 up:
        drawn on request. It read delta itself, "-2 to 2" with no unit beside amounts in dollars (review 3),
        then a negative case's price below 0, "-$3", which read as a gain (review 71)."""
        cost = self.delta / self.typical * price if self.typical > 0 else self.delta
        fig = figures.delta_histogram(cost, groups=self.groups)
        return fig.update_xaxes(title_text=training_page.case_price_axis(unit))

    def at_cutoff(
        self, threshold: float, *, price: float = 1.0, unit: str = "", volume: float | None = None
    ) -> AtCutoff:
        """The figure and tables at another cutoff (`instance_cutoff`)."""
        return instance_cutoff(self, threshold, price=price, unit=unit, volume=volume)


def instance_answer(ds: Dataset) -> InstanceAnswer:
    """The recommended cutoff by NEC, the NEC curves and the sweeps to explore other cutoffs."""
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    delta = ds.delta[judge]
    groups = None if ds.groups is None else ds.groups[judge]
    rec = recommend_nec(ds.scores, ds.delta, fit=fit, judge=judge)
    judged = {m: s[judge] for m, s in ds.scores.items()}
    curves = []
    for m, s in judged.items():
        thresholds, nec = nec_curve(s, delta)
        curves.append(pd.DataFrame({"threshold": thresholds, "NEC": nec, "model": m}))
    lo = min(float(s.min()) for s in judged.values())
    hi = max(float(s.max()) for s in judged.values())
    low, high, step = cutoff_axis(lo, hi, probabilities=ds.probabilities)
    if np.isfinite(rec.threshold):
        start, precision = cutoff_start(judged[rec.model], float(np.clip(rec.threshold, lo, hi)), step, low=low)
    else:
        start, precision = round_down((lo + hi) / 2, step), step
    return InstanceAnswer(
        rec=rec,
        sentence=page_answers.instance_caption(
            ds.mapping,
            int((delta > 0).sum()),
            len(delta),
            rec.judged_on,
            int((delta == 0).sum()),
            beside_label=_priced_beside_label(ds.mapping),
        ),
        curves=pd.concat(curves, ignore_index=True),
        delta=delta,
        groups=groups,
        necs=NecSweeps.of(judged, delta, groups=groups),
        cutoff_range=(low, high, max(start, low)),
        cutoff_step=step,
        cutoff_precision=precision,
        mapping=ds.mapping,
        typical=float(np.mean(np.abs(delta))) if delta.size else float("nan"),
    )


def _priced_beside_label(mapping: ColumnMapping) -> bool:
    """Whether the cases' prices are a price column read beside a label column: its size the price,
    the label the column's (`loading.roles.priced_by_label`), so that the page's words say so
    (`page_answers.delta_source`).

    >>> _priced_beside_label(ColumnMapping(label="y", delta="p")), _priced_beside_label(ColumnMapping(delta="p"))
    (True, False)
    """
    return bool(mapping.delta and mapping.label)


def _decimals(step: float) -> int:
    """The decimals of a power-of-ten step: 3 for 0.001, 0 for 10."""
    return max(0, -math.floor(math.log10(step) + 1e-9))


def round_down(x: float, step: float) -> float:
    """`x` rounded down to a multiple of `step` (a power of ten), never above `x`.

    >>> round_down(0.63814, 0.001), round_down(0.638, 0.001), round_down(-1.2345, 0.01)
    (0.638, 0.638, -1.24)
    """
    k = math.floor(x / step)
    out = round(k * step, _decimals(step))
    if out > x:  # x / step read a hair above the multiple it is
        out = round((k - 1) * step, _decimals(step))
    if round((k + 1) * step, _decimals(step)) <= x:  # or a hair below the next one
        out = round((k + 1) * step, _decimals(step))
    return out


def cutoff_axis(lo: float, hi: float, *, probabilities: bool) -> tuple[float, float, float]:
    """(low, high, step) of the cutoff slider over scores from `lo` to `hi`: 0 to 1 at least for
    probabilities, the ends on the step's grid otherwise; the step the power of ten nearest below
    a `STEPS_PER_RANGE`-th of the range, so that a key press moves the cutoff visibly.

    >>> cutoff_axis(0.02, 0.97, probabilities=True)
    (0.0, 1.0, 0.001)
    >>> cutoff_axis(-3.214, 41.7, probabilities=False)
    (-3.22, 41.7, 0.01)
    """
    span = (max(hi, 1.0) - min(lo, 0.0)) if probabilities else hi - lo
    step = 10.0 ** math.floor(math.log10(span / STEPS_PER_RANGE)) if span > 0 else 0.001
    if probabilities:
        return min(lo, 0.0), max(hi, 1.0), step
    low = round_down(lo, step)
    high = -round_down(-hi, step)
    return low, high if high > low else low + step, step


def cutoff_start(scores: np.ndarray, threshold: float, step: float, *, low: float) -> tuple[float, float]:
    """(start, what it is rounded to) of the cutoff slider: `threshold` rounded down to `step`, so
    that every case the answer flags (score >= threshold) is flagged there too, and no other case
    of `scores` (the recommended model's judged scores), so that the table below reads the answer's
    numbers. Where rounding down to `step` would flag more cases, the start is rounded down to a
    tenth of it, at most `FINER_STEPS` times (past that it flags the few cases in between); the
    slider keeps its step, and a key press moves it to the next multiple of the step.

    >>> cutoff_start(np.array([0.2, 0.6372, 0.65]), 0.6381, 0.001, low=0.0)
    (0.638, 0.001)
    >>> cutoff_start(np.array([0.2, 0.6380, 0.65]), 0.6381, 0.001, low=0.0)
    (0.6381, 0.0001)
    """
    flagged = scores >= threshold
    for tried in range(FINER_STEPS + 1):
        start = max(round_down(threshold, step), low)
        if np.array_equal(scores >= start, flagged) or tried == FINER_STEPS:
            return start, step
        step = 10.0 ** (round(math.log10(step)) - 1)  # a tenth, exactly as written (0.0001)
    return start, step  # pragma: no cover - the loop returns


def instance_figure(answer: InstanceAnswer, *, price: float = 1.0, unit: str = ""):
    """The cost per case against the cutoff (NEC priced by `nec_money`), the recommendation marked."""
    rec = answer.rec
    curves = answer.curves.assign(cost=nec_money(answer.curves["NEC"], price))
    fig = figures.line_figure(
        curves,
        x="threshold",
        y="cost",
        color="model",
        title=t.INSTANCE_CURVE.format(rows=t.INSTANCE_ROWS[rec.estimate]),
        x_title=t.INSTANCE_CURVE_X,
        y_title=t.in_unit(t.COST_PER_CASE, unit),
        baseline=float(nec_money(rec.baseline_nec, price)),
        baseline_label=f"{rec.baseline} (no model): {money(float(nec_money(rec.baseline_nec, price)), unit)}",
    )
    fig = two_line_title(fig, t.INSTANCE_CURVE.format(rows=t.INSTANCE_ROWS[rec.estimate]))
    if not np.isfinite(rec.threshold):  # the pick flags nobody (or everyone): no cutoff on the scores to mark
        return fig
    return mark_x(fig, rec.threshold, text=f"recommended: {cutoff_number(rec.threshold)}")


def two_line_title(fig, title: str, *, width: int = HALF_COLUMN_TITLE):
    """`fig` with its `title` on two lines, broken before its bracket ("... against the cutoff" over
    "(all rows, which flatter ...)"), when it is longer than `width` characters (a half-width column at
    1400 px cut it), the top margin grown by a line; as it was otherwise. Read in words, the title is
    the same (`chart_text` reads the break as a space)."""
    head, sep, tail = title.partition(" (")
    if len(title) <= width or not sep:
        return fig
    line = plain(head) + "<br>" + plain("(" + tail)
    return fig.update_layout(title_text=line, margin_t=(fig.layout.margin.t or 0) + LINE_PX)


def instance_cutoff(
    answer: InstanceAnswer, threshold: float, *, price: float = 1.0, unit: str = "", volume: float | None = None
) -> AtCutoff:
    """Every model's error rate, weighted error and cost per case (and a month, at `volume`) at
    `threshold`, overall and by group, as shown and as the CSV has them."""
    overall, by_group = answer.necs.table(threshold)
    weights = answer.necs.relative_weights()  # by_group's rows: every option, each in the groups' order
    weights = np.tile(weights, len(by_group) // len(weights)) if len(weights) else weights
    money_column = t.in_unit(t.COST_PER_CASE, unit)
    overall_csv = overall.assign(**{money_column: nec_money(overall["NEC"], price)})
    by_group_csv = by_group.assign(
        **{money_column: nec_money(by_group["NEC"].to_numpy(float), price, relative_weight=weights)}
    )
    fig = figures.nec_error_figure(
        overall.assign(label=overall["option"]), title=t.INSTANCE_BARS.format(cutoff=cutoff_number(threshold))
    )
    # every cost per case and a month at the decimals the answer says its costs at (`page_answers.nec_shown`)
    digits, _, ends = page_answers.nec_shown(answer.rec, price)
    return AtCutoff(
        fig,
        _shown(overall_csv, money_column, unit, volume, shown_at={"digits": digits, "beside": ends}),
        _shown(by_group_csv, money_column, unit, None),  # a group's share of the month is not known here
        overall_csv,
        by_group_csv,
    )


def _shown(
    frame: pd.DataFrame, money_column: str, unit: str, volume: float | None, *, shown_at: dict | None = None
) -> pd.DataFrame:
    """A table as the page shows it: the columns in plain words, money as text (a month at `volume`). `shown_at`:
    the decimals the answer shows its costs at and the interval they are cut to (`page_answers.nec_shown`): each
    cost per case at them, its month as the amount reads (`amounts.month_figure`), so that the rows of the answer's
    model and of the choice without one read the answer's "$0.036 per case ($360 a month)", not "$0.036 | $364"; a
    cost those decimals would round to nothing reads at its own ("$0.0043 | $43", not "$0.00 | $0")."""
    cost = frame[money_column].to_numpy(float)
    out = frame[[c for c in t.INSTANCE_COLUMNS if c in frame]].rename(columns=t.INSTANCE_COLUMNS)
    shown_at = shown_at or {}
    digits = shown_at.get("digits")

    def at(x: float) -> dict:  # a cost the answer's decimals would round to nothing reads at its own
        return shown_at if digits is None or x == 0 or round(x, digits) != 0 else {}

    out[t.COST_PER_CASE] = [money(x, unit, digits=at(x).get("digits")) for x in cost]
    if volume:
        out[t.COST_A_MONTH] = [month_amount(x, volume, unit, **at(x)) for x in cost]
    return out
