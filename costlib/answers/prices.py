"""The answer of the Find my prices page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import pandas as pd

from costlib.binary import elicit
from costlib.core import link, settings
from costlib.core.settings import link_key, price_book
from costlib.present import words
from costlib.present.amounts import ratio_text
from costlib.present.labels import ALARM_NAME, MISS_NAME, question_sentence


def mistake_names(miss: str, alarm: str) -> tuple[str, str]:
    """The two mistakes in the user's words (the defaults when left empty)."""
    return miss.strip() or MISS_NAME, alarm.strip() or ALARM_NAME


def bracket_table(table: pd.DataFrame, sweep, names: tuple[str, str]) -> pd.DataFrame:
    """The cutoffs in play (`robust.settle`'s table) as read: a ratio range and the cutoff."""
    lowest = None if sweep.lowest_score is None else {"": sweep.lowest_score}
    return table.assign(
        ratio=[
            f"{ratio_text(lo)} to {ratio_text(hi)}"
            for lo, hi in zip(table["ratio_low"], table["ratio_high"], strict=True)
        ],
        cutoff=[words.cutoffs_short({"": t}, grouped=False, lowest=lowest) for t in table["threshold"]],
    )[["ratio", "cutoff"]].rename(
        columns={"ratio": f"{names[0]} costs … times {names[1]}", "cutoff": "best cutoff (train rows)"}
    )


def _answered_book(bracket, sweep, *, money: float, unit: str, names: Sequence, multipliers: Mapping):
    """(the price book the answers set, by setting name (`link.price_book`), the record of the
    questions)."""
    c_fp = float(money) if money > 0 else 1.0
    c_fn = min(c_fp * bracket.middle, settings.PRICE_MAX)
    book = price_book(
        (c_fp, c_fn),
        [(c_fp, min(c_fn * multipliers.get(g, 1.0), settings.PRICE_MAX)) for g in names],
        per_group=any(m != 1.0 for m in multipliers.values()),
    )
    record = elicit.record(bracket, cutoffs=elicit.pieces(sweep, bracket.low, bracket.high), money=c_fp, unit=unit)
    if book["per_group"]:
        record["group_multipliers"] = {str(g): m for g, m in multipliers.items()}
    return book, record


def prices_from_answers(bracket, sweep, *, money: float, unit: str, names: Sequence, multipliers: Mapping) -> dict:
    """The settings the answers set, under the link's keys (`link.price_book_link`): a false alarm
    at `money` (1 when 0), a miss at the middle of the bracket, each group's miss times its
    multiplier, and the record of the questions (``"price_questions"``)."""
    book, record = _answered_book(bracket, sweep, money=money, unit=unit, names=names, multipliers=multipliers)
    out = {link_key(name): value for name, value in book.items()}
    out["price_questions"] = record
    return out


def settings_from_answers(
    bracket, sweep, *, money: float, unit: str, names: Sequence, multipliers: Mapping, base: link.Settings | None = None
) -> link.Settings:
    """The settings `base` (default: `Settings()`) with the price book and the record of the
    questions the answers set (what `prices_from_answers` gives, as one `link.Settings`)."""
    book, record = _answered_book(bracket, sweep, money=money, unit=unit, names=names, multipliers=multipliers)
    base = link.Settings() if base is None else base
    return replace(base.with_price_book(book), price_questions=record)


#: the fields `settings_from_answers` sets
ANSWERED_FIELDS = ("c_fp", "c_fn", "per_group", "group_prices", "price_questions")


@dataclass(frozen=True, eq=False)
class PricesAnswer:
    """What the Find my prices page shows after the answers so far.

    bracket   the answers' `elicit.Bracket`, settled as "robust" when one cutoff and one verdict
              hold over all of it (`robust.settle`): the page keeps this one
    question  (N, sentence, the button saying a miss is worse, the one saying N false alarms
              are) while the questions go on, else None
    verdict   what the answers mean for the decision (`price_words.bracket_verdict`)
    table     the cutoffs in play over the bracket, as read
    figure    the best cutoff against the ratio, the bracket marked
    said      each question answered and the answer given (`price_words.answers_said`), shown
              under "Your answers"
    sweep     the sweep the cutoffs are fitted on (the recommended model's fitting rows), which
              `prices_from_answers` reads
    """

    bracket: elicit.Bracket
    question: tuple | None
    verdict: words.Verdict
    table: pd.DataFrame
    figure: object
    sweep: object
    said: tuple[str, ...] = ()


def prices_answer(
    models: Mapping,
    costs,
    bracket: elicit.Bracket,
    *,
    names: tuple[str, str],
    resamples: int,
    money: float,
    unit: str = "",
    volume=None,
    sample: bool = False,
) -> PricesAnswer:
    """The Find my prices page's answer at `bracket` (its mistakes called `names` now, see
    `mistake_names`): on the model the price book `costs`
    recommends (fitted cutoffs only: the questions are about the ratio, not the interval), the
    cutoffs in play over the bracket, whether the verdict holds across it (judged with
    `resamples` resamples, cached by bracket), the next question and the verdict. `sample`: the
    data is a built-in sample (`loading.samples.is_sample`), whose models are not the reader's."""
    from costlib.binary import decision, robust
    from costlib.present import price_words
    from costlib.present.price_figures import ratio_pieces_figure

    bracket = replace(bracket, names=tuple(names))
    rec = decision.recommend(models, costs, n_resamples=0)
    sweep = models[rec.model].fit_pooled  # the cutoffs are fitted on these rows
    bracket, table, span = robust.settle(bracket, sweep, models, n_resamples=resamples)
    # the span's flips are located to a ten-thousandth (`robust.cached_span`): one number from every range and page
    question = None
    if bracket.settled is None:
        n = elicit.next_n(bracket)
        q, worse_miss, worse_alarm = elicit.question(bracket, n)
        question = (n, question_sentence(bracket, q), worse_miss, worse_alarm)
    figure = ratio_pieces_figure(
        elicit.pieces(sweep, *elicit.RANGE),
        low=bracket.low,
        high=bracket.high,
        names=bracket.names,
        lowest=sweep.lowest_score,
        rows=words.fitted_rows(rec).removeprefix("the "),
        model=rec.model,  # whose cutoffs: the title names the model, as the cost chart's does
    )
    return PricesAnswer(
        bracket=bracket,
        question=question,
        verdict=price_words.bracket_verdict(
            bracket,
            table,
            sweep=sweep,
            price=money,
            unit=unit,
            volume=volume,
            span=span,
            at_middle=(  # what Costs & groups will answer, read where the verdict says it (not mid-questions)
                decision.recommend(models, (money, money * bracket.middle), n_resamples=resamples)
                if bracket.settled is not None or len(table) == 1
                else None
            ),
            sample=sample,
        ),
        table=bracket_table(table, sweep, bracket.names),
        figure=figure,
        sweep=sweep,
        said=price_words.answers_said(bracket),
    )
