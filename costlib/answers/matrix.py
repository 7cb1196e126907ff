"""The answer of the Cost matrix page."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.answers.calibration import calibration_rows, temperature_rows
from costlib.core.dataset import Dataset
from costlib.core.escaping import plain
from costlib.multiclass import HAND_OVER, confusion, recommend_matrix
from costlib.present import figures, matrix_words, page_answers, words
from costlib.present.amounts import column_digits, money, money_digits, month_amount, month_interval, percent
from costlib.present.labels import COST_A_MONTH, COST_PER_CASE, NO_VOLUME, in_unit


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


@dataclass(frozen=True, eq=False)
class MatrixAnswer:
    """What the Cost matrix page shows at one matrix and one price of handing over; the heatmaps
    of a policy are drawn on request (`heatmaps`), as the page's details ask for them.

    rec                  `multiclass.MatrixRecommendation` on the judged rows
    verdict              the page's one answer (`page_answers.matrix_verdict`)
    metrics              the three metrics (cost per case, best without the model, saving a month)
    table                the policies compared, as read
    export               the same table as its CSV has it: numbers, the unit in the headers
    policies_with_model  the policies a heatmap can show (those that use the model)
    """

    rec: object
    verdict: words.Verdict
    metrics: tuple[dict, ...]
    table: pd.DataFrame
    export: pd.DataFrame
    policies_with_model: list[str]
    ds: Dataset
    c_mat: np.ndarray
    handover_price: float
    unit: str

    def policy_option(self, policy: str) -> str:
        """A policy as the heatmaps' choice names it: the recommended one says so."""
        return f"{policy} (recommended)" if policy == self.rec.policy else policy

    def heatmaps(self, policy: str):
        """(confusion heatmap, cost contribution heatmap, caption) of `policy` on the judged rows."""
        return matrix_heatmaps(self.ds, self.rec, policy, self.c_mat, self.handover_price, self.unit)


def judged_on(ds: Dataset) -> str:
    """The rows the page judges: "test" with test rows (`Dataset.purpose_rows`), else "all"."""
    return "test" if ds.has_role("test") else "all"


def rows_sentence(ds: Dataset, rec) -> str:
    """Which rows the page judges and which it picks the choice without a model on, and what that
    choice is (`rec`, a `multiclass.MatrixRecommendation`: the one class to decide for every case,
    or handing every case over where that costs less), in words."""
    n_fit, n_judged = int(temperature_rows(ds).sum()), int(ds.purpose_rows("judge").sum())
    one_class = next((p for p in rec.table.loc[~rec.table["uses the model"], "policy"] if p != HAND_OVER), None)
    return matrix_words.matrix_rows_sentence(
        n_judged,
        int(ds.n_rows),
        judged_on(ds),
        calibration_rows(ds),
        n_fit,
        one_class=one_class,
        handed_over=rec.baseline == HAND_OVER,
    )


def matrix_recommendation(ds: Dataset, c_mat: np.ndarray, abstain_cost: float | None):
    """`multiclass.recommend_matrix` on the judged rows, the one decision for everyone without a
    model picked on the calibration rows where they are held out from the judged rows, else on the
    judged rows themselves (`calibration.temperature_rows`, as the Calibration page fits its
    temperature: without test rows every row is judged, so none is held out)."""
    judge, fit = ds.purpose_rows("judge"), temperature_rows(ds)
    return recommend_matrix(
        ds.y_class[judge],
        ds.class_probs[judge],
        c_mat,
        class_names=list(ds.class_names),
        abstain_cost=abstain_cost,
        y_fit=ds.y_class[fit],
    )


def matrix_answer(
    ds: Dataset,
    c_mat: np.ndarray,
    abstain_cost: float | None,
    *,
    handover_price: float,
    unit: str = "",
    volume: float = 0.0,
) -> MatrixAnswer:
    """The Cost matrix page's answer: the recommendation at `c_mat` (handing a case to a person
    at `abstain_cost`, None: never), its verdict, metrics and table.

    `handover_price` is the price the heatmaps' caption names for the cases handed over (the
    page's input, also when handing over is off).
    """
    rec = matrix_recommendation(ds, c_mat, abstain_cost)
    said = page_answers.matrix_verdict(rec, unit=unit, volume=volume, judged_on=judged_on(ds))
    return MatrixAnswer(
        rec=rec,
        verdict=dataclasses.replace(
            said, details=(*said.details, rows_sentence(ds, rec))
        ),  # which rows, as other pages
        metrics=matrix_metrics(rec, unit=unit, volume=volume, judged_on=judged_on(ds)),
        table=matrix_table(rec, unit, volume),
        export=matrix_export(rec, unit, volume),
        policies_with_model=matrix_policies_with_model(rec),
        ds=ds,
        c_mat=np.asarray(c_mat, dtype=float),
        handover_price=float(handover_price),
        unit=unit,
    )


def matrix_metrics(rec, *, unit: str, volume: float, judged_on: str = "test") -> tuple[dict, ...]:
    """The Cost matrix page's numbers: the policy's cost per case and the best choice without the
    model's, at the decimals their difference needs (`shown_saving`, as the answer says them), each
    a month in its help, and the saving a month (what the model costs more a month, below zero)
    with its 95% interval under it (the saving's per case times the cases a month)."""
    said = matrix_words.matrix_saving(rec)  # dearer or not as the headline says it, its figures turned round
    # a month as the per-case amounts read, at the precision their decimals carry (`month_figure`)
    ends = (said.low, said.high)
    shown = month_interval(*ends, volume, unit, digits=said.digits) if volume else ""
    iv = f"95% interval {shown}" if shown and all(map(math.isfinite, ends)) else None
    month = month_amount(said.shown, volume, unit, digits=said.digits, beside=ends, month_of=said.exact)
    saving = {
        "label": matrix_words.EXTRA_A_MONTH if said.dearer else matrix_words.SAVING_A_MONTH,
        "value": month or NO_VOLUME,
        "help": matrix_words.saving_tile_help(said.dearer, volume),
    }
    if iv:  # under the amount, in grey: an interval, not a change
        saving.update(delta=iv, delta_color="off", delta_arrow="off")
    shown_at = {"digits": said.digits, "beside": ends}  # the tiles' decimals: their months read at them
    return (
        {
            "label": matrix_words.COST_TILE,
            "value": money(rec.cost, unit, digits=said.digits),
            "help": matrix_words.cost_tile_help(rec.policy, judged_on, rec.cost, volume, unit, shown_at=shown_at),
        },
        {
            "label": matrix_words.BASELINE_TILE,
            "value": money(rec.baseline_cost, unit, digits=said.digits),
            "help": matrix_words.baseline_tile_help(rec.baseline, rec.baseline_cost, volume, unit, shown_at=shown_at),
        },
        saving,
    )


def matrix_export(rec, unit: str, volume: float = 0.0) -> pd.DataFrame:
    """The policies compared as numbers, for the CSV (`downloads.csv_table` writes it): costs in
    `unit` per case and a month (at `volume`, none without one), shares from 0 to 1, the cases
    handed over a month, whether each uses the model."""
    table = rec.table
    out = table[["policy", "uses the model"]].copy()
    out[in_unit(COST_PER_CASE, unit)] = table["cost per case"].astype(float)
    if volume:
        out[in_unit(COST_A_MONTH, unit)] = table["cost per case"].astype(float) * volume
    out[matrix_words.HANDED_SHARE] = table["handed over"].astype(float)
    if volume:
        out[matrix_words.HANDED_A_MONTH] = table["handed over"].astype(float) * volume
    out[matrix_words.ACCURACY] = table["accuracy of answers"].astype(float)
    return out


def matrix_table(rec, unit: str, volume: float = 0.0) -> pd.DataFrame:
    """The policies compared, as read: money per case and a month (at `volume`), percents, cases
    handed over a month, yes/no (`matrix_export`'s numbers in words).

    Every cost per case at the decimals the headline and the tiles say the two costs at (`matrix_saving`:
    `shown_saving`, cut to the saving's interval), its month as theirs (the amount as shown times the
    cases, `month_figure`), so that the recommended policy's row reads what the headline says: a first
    read found "$0.44 per case ($4,400 a month)" above a row "$0.437 | $4,370". Without those decimals
    (no saving to show), one precision for the column all the same (`column_digits`)."""
    numbers = matrix_export(rec, unit, volume)
    out = numbers[["policy"]].assign(**{"uses the model": numbers["uses the model"].map({True: "yes", False: "no"})})
    said = matrix_words.matrix_saving(rec)
    costs = numbers[in_unit(COST_PER_CASE, unit)]
    digits = said.digits
    if digits is None:
        digits = column_digits((), digits=[money_digits(x) for x in costs if math.isfinite(x)])
    out[COST_PER_CASE] = costs.map(lambda x: money(x, unit, digits=digits))
    if volume:
        shown_at = {"digits": said.digits, "beside": (said.low, said.high)}  # as the tiles' months (`at_volume`)
        out[COST_A_MONTH] = costs.map(lambda x: month_amount(x, volume, unit, **shown_at))
    out[matrix_words.HANDED_SHARE] = numbers[matrix_words.HANDED_SHARE].map(percent)
    if volume:
        out[matrix_words.HANDED_A_MONTH] = numbers[matrix_words.HANDED_A_MONTH].map(lambda x: f"{x:,.0f}")
    out[matrix_words.ACCURACY] = numbers[matrix_words.ACCURACY].map(percent)
    return out


def matrix_policies_with_model(rec) -> list[str]:
    """The policies that use the model (those a heatmap can show), the recommended one first: the
    heatmaps open on what the page says to ship."""
    uses = rec.table.set_index("policy")["uses the model"]
    shown = [x for x in rec.decisions if uses.loc[x]]
    return sorted(shown, key=lambda x: x != rec.policy)


def matrix_heatmaps(ds: Dataset, rec, policy: str, c_mat: np.ndarray, abstain_cost: float, unit: str):
    """(confusion heatmap, cost contribution heatmap, caption) of `policy` on the judged rows."""
    names = list(ds.class_names)
    y = ds.y_class[ds.purpose_rows("judge")]
    decided = rec.decisions[policy]
    conf = confusion(y, decided, len(names))
    n = len(y)
    confusion_fig = figures.heatmap_figure(conf, names, title=matrix_words.CONFUSION_TITLE, colorbar="cases")
    cost_fig = figures.heatmap_figure(
        conf * c_mat / max(n, 1),
        names,
        title=matrix_words.COST_CELLS_TITLE,
        colorbar=unit or "cost",
        cell_text=lambda x: money(x, unit),
    )
    for fig in (confusion_fig, cost_fig):  # the policy under the short title: one line each at 1400 px
        # and as the map's name: its text alternative's series column read "heatmap" in every row (review),
        # and nothing in it said which policy the map shows
        fig.update_traces(name=plain(policy), selector={"type": "heatmap"})
        top = fig.layout.margin.t
        fig.update_layout(
            title_subtitle={"text": plain(policy), "font": {"size": 12, "color": "#555"}},
            margin_t=(top if top is not None else 60) + 20,
        )
    caption = matrix_words.heatmap_caption(int((decided < 0).sum()), abstain_cost, unit)
    return confusion_fig, cost_fig, caption
