"""The answer of the Costs & groups page."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from costlib.answers import audit
from costlib.answers.remembering import compute_now
from costlib.binary import elicit, robust
from costlib.binary.sensitivity import price_maps as binary_maps
from costlib.binary.sensitivity import price_scale, ratio_range
from costlib.core import escaping
from costlib.core import rules as R
from costlib.core.dataset import Dataset
from costlib.core.escaping import md_escape
from costlib.core.ship import UNCLEAR
from costlib.present import price_figures, price_words, words
from costlib.present.amounts import money, month_amount, shown_saving
from costlib.present.cost_figures import capacity_figure, cost_curve_figure, markers_frame
from costlib.present.costs_labels import MODEL_COST
from costlib.present.labels import ALL_ROWS_FLATTER
from costlib.present.plotting import MAX_POINTS


def costs_metrics(rec, *, unit: str, volume: float | None) -> tuple[dict, ...]:
    """The Costs & groups page's four numbers (keyword arguments of each metric), each one
    thing under every verdict: the model's cost per case at its best cutoff (within a review
    limit, if one is set), the cost of the cheaper choice without a model, and what the model
    saves against it per case and a month (below zero: it costs more). Whether to ship the model
    is the verdict above them; under a verdict that does not ship it, each tile's help says so."""
    base = R.rule_words(rec.baseline)
    flagged = rec.results.overall.loc[rec.rule, "flagged_rate"]
    estimate = "cross-fitted on all rows" if rec.estimate == "cross-fitted" else "on the judged (test) rows"
    choices = (
        "the cheaper of flagging nobody and flagging cases at random up to your review limit"
        if rec.capacity is not None
        else "the cheaper of flagging nobody and flagging everyone"
    )
    kept = "" if rec.ship_model else " The verdict does not ship the model: nothing changes unless it ships."
    # not a saving anyone gets unless the verdict ships it, nor one to count on when its interval reaches zero
    saves = "saves" if rec.ship_model else ("might save" if rec.status == UNCLEAR else "would save")
    unsure = (
        " Not a saving you can count on: its 95% interval reaches zero or below (see the verdict)."
        if not rec.ship_model and rec.saving >= 0
        else ""
    )
    # the two costs at the decimals their difference needs, and the saving as their difference shown (the
    # answer's, at the decimals of the saving's interval beside it: `words.recommendation_verdict`)
    ends = (getattr(rec, "saving_low", math.nan), getattr(rec, "saving_high", math.nan))  # none: not computed
    digits, saving = shown_saving(rec.baseline_cost, rec.cost, *ends)
    dearer = saving < 0  # said as what the model costs more, not as a saving below zero
    what = "costs more" if dearer else saves
    sign = -1 if dearer else 1
    # the month of the saving as the tile above reads it, at the precision its decimals carry (`month_figure`)
    month = month_amount(sign * saving, volume, unit, digits=digits, beside=ends, month_of=sign * rec.saving)
    return (
        {
            "label": MODEL_COST,
            "value": money(rec.cost, unit, digits=digits),
            "help": f"At the model's best cutoff, {estimate}; it flags {flagged:.1%} of cases.{kept}",
        },
        {
            "label": "Cost per case without a model",
            "value": money(rec.baseline_cost, unit, digits=digits),
            "help": f"Per case, {base}: {choices}.",
        },
        {
            "label": f"The model {what} per case",
            "value": money(sign * saving, unit, digits=digits),
            "help": f"Against {base}, the cheaper choice without a model: the difference of the two costs.{unsure}",
        },
        {
            "label": f"The model {what} a month",
            "value": month or "set a volume",
            "help": f"The {'extra cost' if dearer else 'saving'} per case times {volume:,.0f} cases a month (set in "
            f"the sidebar).{kept}"
            if volume
            else "Set how many cases you decide a month in the sidebar to see this.",
        },
    )


def cost_chart_title(model: str, rec, *, by_flagged: bool = False) -> str:
    """The Costs chart's title: what its x axis reads and which rows its curves are drawn on."""
    against = "cases flagged a month" if by_flagged else "the cutoff"
    if rec.judged_on == "test":
        return f"Cost per case against {against}, {model} (test rows)"
    return f"Cost per case against {against}, {model} ({ALL_ROWS_FLATTER})"


def price_questions_sentence(
    models: Mapping, rec, record: Mapping | None, costs: Mapping, *, n_resamples: int = 0
) -> str | None:
    """What the answers on Find my prices say about the cutoff and the verdict, while they
    still set the prices (else None)."""
    if not (record and elicit.in_force(record, costs)["in_force"]):
        return None
    fitted = models[rec.model].fit_pooled
    table = elicit.pieces(fitted, record["ratio_low"], record["ratio_high"])
    span = None
    if len(table) == 1 and n_resamples:
        span = robust.cached_span(models, record["ratio_low"], record["ratio_high"], n_resamples=n_resamples)
    sentence = price_words.answers_sentence(record, table, lowest_score=fitted.lowest_score, span=span)
    if rec.capacity is not None:
        from costlib.present.capacity_words import ANSWERS_WITHOUT_LIMIT

        sentence += " " + ANSWERS_WITHOUT_LIMIT
    return sentence


def session_options(chosen, costs: Mapping, groups, *, cap: int | None = None, volume: float | None = None) -> dict:
    """`audit.build_audit`'s keywords that a session's settings `chosen` (`core.link.Settings`)
    give at the price book `costs`: the fairness criteria (`audit.audit_criteria`), the
    bootstrap's resamples, the fairness tolerance, the price questions in force at these prices
    (`elicit.in_force`: None when the prices moved off their answers), the reference group
    (`chosen_reference`: None, the largest, when it is not one of `groups`), and the review
    limit `cap` in cases a month as a share of `volume` (`capacity_words.limit_in_force`: a
    limit of every case is no limit, and then neither is its count in the record).

    >>> from costlib.core.link import Settings
    >>> got = session_options(Settings(reference_group="z", resamples=200), {}, ["a"], cap=400, volume=1000)
    >>> got["reference_group"], got["n_resamples"], got["capacity"], got["capacity_cases"]
    (None, 200, 0.4, 400)
    >>> session_options(Settings(), {}, ["a"], cap=1000, volume=1000)["capacity_cases"] is None
    True
    """
    from costlib.present.capacity_words import limit_in_force

    share, _ = limit_in_force(cap, volume)
    return {
        "criteria": audit.audit_criteria(chosen),
        "n_resamples": int(chosen.resamples),
        "fairness_tolerance": float(chosen.tolerance),
        "price_questions": elicit.in_force(chosen.price_questions, costs),
        "reference_group": chosen_reference(chosen.reference_group, groups),
        "capacity": share,
        "capacity_cases": cap if share is not None else None,
    }


def audit_maker(models: Mapping, costs: Mapping, ds: Dataset, chosen=None, *, cap: int | None = None, **options):
    """A function that builds the full audit (`audit.build_audit`) at these prices, for the
    downloads: everything it needs is given now (a download's callable runs where the
    session's state cannot be read).

    Parameters
    ----------
    models, costs, ds : the models' sweeps, the price book and the data set they come from
    chosen : core.link.Settings, optional
        A session's settings: the audit reads what `session_options` says they give (with the
        review limit `cap`, cases a month, None: no limit, and ``options["volume"]``).
    options : `audit.build_audit`'s keywords (they win over what `chosen` gives)
    """
    frozen = dict(costs)
    if chosen is not None:
        groups = next(iter(models.values())).groups
        options = {**session_options(chosen, costs, groups, cap=cap, volume=options.get("volume")), **options}

    def build() -> audit.Audit:
        return audit.build_audit(
            models,
            frozen,
            data_name=ds.name,
            fingerprint=ds.fingerprint,
            n_rows=ds.n_rows,
            data_notes=ds.notes,
            columns=audit.data_columns(ds.mapping) if ds.mapping.label else None,
            group_parts=ds.group_parts,
            **options,
        )

    return build


def policy_restored_sentence(saved: Mapping, fingerprint: str) -> str:
    """What restoring the downloaded policy `saved` did, on the data of `fingerprint`."""
    same = saved["data"].get("sha256") == fingerprint
    restored = ["the prices"]
    restored += ["the unit"] if saved.get("unit_given", True) else []
    restored += ["the cases a month"] if saved.get("volume") is not None else []
    restored += ["the review limit"] if saved.get("capacity") is not None else []
    restored += ["the fairness tolerance"] if saved.get("fairness_tolerance") is not None else []
    restored += ["the price questions"] if saved.get("price_questions") else []
    listed = ", ".join(restored[:-1]) + " and " + restored[-1] if len(restored) > 1 else restored[0]
    return (
        f"Restored {listed} of the policy (rule “{R.rule_words(saved['rule'])}”)."
        + (
            ""
            if same
            else " The policy was made on other data (its fingerprint differs), so the cutoffs shown are "
            "refitted on this data."
        )
        + "".join(" " + n for n in saved["notes"])
    )


def rule_meanings(rec) -> list[str]:
    """One Markdown line per rule of `rec` (fairness rules aside): its name in bold and what it does."""
    return [
        f"**{md_escape(R.rule_words(rule))}**: {md_escape(R.rule_help(rule))}"
        for rule in rec.results.overall.index
        if not R.is_fair(rule)
    ]


@dataclass(frozen=True, eq=False)
class Sensitivity:
    """How much the prices matter: the sentence, the maps and the prices they are drawn at."""

    sentence: str
    maps: object  # sensitivity.PriceMaps
    mean_prices: tuple[float, float]
    judged: str = "the test rows"  # the rows the maps compare the options on (`words.judged_rows`)
    blended: bool = False  # the groups have prices of their own: `mean_prices` is their average by cases

    def sensitivity_figure(self, unit: str, bracket):
        return price_figures.sensitivity_figure(
            self.maps.sensitivity,
            c_fp=self.mean_prices[0],
            c_fn=self.mean_prices[1],
            unit=unit,
            bracket=bracket,
            blended=self.blended,
        )

    def net_benefit_figure(self, rec=None):
        """The net benefit figure, or None when the scores are not probabilities; with `rec` (the
        page's recommendation, whose cutoffs move with the review limit while these maps do not),
        what it ships is marked: its cutoffs, or the line of the no-model choice it keeps."""
        if not len(self.maps.net_benefit):
            return None
        mp = self.mean_prices
        return price_figures.net_benefit_figure(
            self.maps.net_benefit,
            price_threshold=mp[0] / (mp[0] + mp[1]) if sum(mp) > 0 else None,
            title=price_figures.net_benefit_title(self.judged),
            blended=self.blended,
            **price_figures.shipped_marks(rec),
        )


def questions_bracket(record: Mapping | None, costs: Mapping) -> tuple[float, float] | None:
    """The c_fn : c_fp bracket the price questions' `record` gave, to mark on the sensitivity
    map while the prices `costs` are still theirs (`elicit.in_force`); else None."""
    now = elicit.in_force(record, costs)
    return (now["ratio_low"], now["ratio_high"]) if now and now["in_force"] else None


def every_price_zero(costs: Mapping) -> bool:
    """Whether every price of the book ``{group: (c_fp, c_fn)}`` is 0: then there is no answer
    to give, only `costs_labels.ALL_PRICES_ZERO`.

    >>> every_price_zero({"a": (0.0, 0.0)}), every_price_zero({"a": (0.0, 0.0), "b": (0.0, 1.0)})
    (True, False)
    """
    return all(c_fp + c_fn == 0 for c_fp, c_fn in costs.values())


def fair_rule_choice(rule: str, within: bool) -> str:
    """A fairness rule as the policy picker offers it: its name, and a warning when its gap may
    not stay within the tolerance on rows it was not fitted on (the 95% interval's upper end)."""
    return R.rule_words(rule) + (
        "" if within else " (its gap may not stay within the tolerance on rows it was not fitted on)"
    )


def fair_policies_offered(summary, results, capacity: float | None) -> dict:
    """{fairness rule: whether its gap stays within the tolerance on the test rows} of the rules
    whose policy file Costs & groups offers (`fair_rule_choice` words each): the feasible ones
    within the review limit `capacity` (`capacity_words.within_limit`), and without a limit the
    randomised ones too (their file records the bands; the share they flag is not judged).
    The rules whose gap stays within the tolerance come first, so the picker's first choice is
    not one that fails.

    `summary` and `results` are `fairness.fairness_results`' ``summary`` and ``results``.
    """
    from costlib.present.capacity_words import within_limit

    offered = {
        rule: bool(within)
        for rule, feasible, within, randomised in zip(
            summary["rule"],
            summary["feasible"],
            summary["within_tolerance_on_test"],
            summary["randomised"],
            strict=True,
        )
        if feasible and (within_limit(results.overall, rule, capacity) or (randomised and capacity is None))
    }
    return dict(sorted(offered.items(), key=lambda item: not item[1]))  # stable: summary order otherwise


def pooled_note(rec) -> str:
    """ " " and which groups the best cutoff per group gives the cutoff for everyone, while the
    fairness rules below it give them a cutoff of their own (the fairness section's note), or ""."""
    from costlib.binary.folds import MIN_CLASS_ROWS

    return " " + words.pooled_sentence(rec.pooled, MIN_CLASS_ROWS, fairness=True) if rec.pooled else ""


def group_rates_view(ms, rec) -> tuple:
    """(shown, numbers): the per-group rates of the model's recommended rule (`fairness.group_rates`)
    as the table shows them, and as its download's numbers (`tables.group_rates_numbers`)."""
    from costlib.binary.fairness import group_rates
    from costlib.binary.folds import MIN_CLASS_ROWS
    from costlib.present.tables import group_rates_numbers, group_rates_table

    rates = group_rates(ms, rec.results, rec.rule)
    return group_rates_table(*rates, MIN_CLASS_ROWS), group_rates_numbers(*rates)


def costs_verdict(
    rec,
    ms,
    *,
    unit: str = "",
    volume: float | None = None,
    group_parts=None,
    group_columns=(),
    reference=None,
    sample: bool = False,
):
    """The Costs page's answer in words: `words.recommendation_verdict` of `rec`, with the sentence
    on the shipped rule's largest failing disparity as the report and the command line say it
    (`disparity.said_disparities`: the groups', else a group column's, with several group columns
    whose values per group are `group_parts`, `Dataset.group_parts`), each group compared with
    `reference` (None: the largest group on the judged rows). `sample`: the data is a built-in
    sample (`loading.samples.is_sample`), whose models are not the reader's."""
    from costlib.binary.disparity import said_disparities, shipped_column_disparities, shipped_disparities

    gaps = shipped_disparities(ms, rec, reference=reference)
    by_column = shipped_column_disparities(ms, rec, group_parts, tuple(group_columns))
    disparities = said_disparities(gaps, by_column)
    return words.recommendation_verdict(rec, unit=unit, volume=volume, disparities=disparities, sample=sample)


def chosen_reference(value, groups) -> object:
    """The reference group a person chose, when it is one of `groups`; else None (the largest).

    >>> chosen_reference("b", ["a", "b"]), chosen_reference("z", ["a", "b"]), chosen_reference(None, ["a"])
    ('b', None, None)
    """
    return value if value is not None and value in list(groups) else None


@dataclass(frozen=True)
class DisparitiesView:
    """The Costs page's disparities: the groups' table against the reference group (its caption,
    and the headline's sentence on the largest that fails, '' when none does), then with several
    group columns one table per column alone ([(caption, table, numbers)]); `numbers` is the
    groups' table's download (`disparity_table.disparity_numbers`)."""

    caption: str
    table: object
    sentence: str
    by_column: list
    numbers: object = None


def disparities_view(ms, rec, *, unit: str = "", reference=None, group_parts=None, group_columns=()):
    """`DisparitiesView` of the recommended rule (`disparity.shipped_disparities`, as the headline
    reads them; `reference` None: the largest group on the judged rows), the same captions and
    tables as the report and the command line."""
    from costlib.binary.disparity import shipped_disparities
    from costlib.present.disparity_table import column_tables, disparity_caption, disparity_view

    d = shipped_disparities(ms, rec, reference=reference)
    shown, numbers = disparity_view(d, unit)
    return DisparitiesView(
        disparity_caption(d) + ".",
        shown,
        words.said_disparity(rec, d, unit),
        [(c + ".", t, n) for c, t, n in column_tables(ms, rec, group_parts, tuple(group_columns), unit)],
        numbers,
    )


def criteria_help(criteria: Mapping[str, str]) -> str:
    """The criteria picker's help: what each rule makes equal across groups."""
    return "What each rule makes equal across groups: " + "; ".join(f"{c}: the {r}" for c, r in criteria.items()) + "."


def price_maps(models: Mapping, rec):
    """The price maps of every model around the mean prices of `rec` (`sensitivity.price_maps`)."""
    mp = audit.mean_prices(models[rec.model], rec.prices)
    return binary_maps(models, scale=price_scale(*mp))


def sensitivity_key(models: Mapping, rec, *, unit: str) -> tuple:
    """Everything `sensitivity` reads besides the maps and the break-even range (a page remembers
    those by the mean prices and the model): its answer changes only when this does, so a page's
    memo of it is keyed by this. The verdict's parts (the choice it keeps, the per-group cutoffs'
    saving: `price_words.sensitivity_sentence`) are text, so that a NaN end still finds its entry."""
    verdict = (rec.ship_model, rec.baseline, rec.rule, rec.grouped, rec.judged_on)
    saving = (rec.saving, rec.saving_low, rec.saving_high, rec.group_gain)
    mean = audit.mean_prices(models[rec.model], rec.prices)
    return mean, rec.model, unit, rec.prices.uniform, repr((verdict, saving))


def sensitivity(models: Mapping, rec, maps, *, unit: str, break_even) -> Sensitivity:
    """How much the prices matter at `rec`'s prices; `break_even` is `elicit.break_even_range` of the model."""
    mp = audit.mean_prices(models[rec.model], rec.prices)
    leader = ratio_range(maps.train, maps.test, c_fp=mp[0], c_fn=mp[1])
    sentence = price_words.sensitivity_sentence(
        leader,
        mp,
        unit,
        blended=not rec.prices.uniform,
        break_even=break_even,
        model=rec.model,
        judged=words.judged_rows(rec),
        kept=None if rec.ship_model else rec.baseline,
        rec=rec,
    )
    return Sensitivity(sentence, maps, mp, words.judged_rows(rec), blended=not rec.prices.uniform)


def price_caption(costs: dict, unit: str) -> str:
    """'For your prices: a false positive costs $1.00 and a false negative $3.00.' (or the prices per group)."""
    pairs = set(costs.values())
    if len(pairs) == 1:
        c_fp, c_fn = next(iter(pairs))
        fp, fn = money(c_fp, unit), money(c_fn, unit)
        return f"For your prices: a false positive costs {fp} and a false negative {fn}."
    return (
        "For your prices, which differ by group (false positive / false negative): "
        + "; ".join(
            f"{shown}: {money(a, unit)} / {money(b, unit)}"
            for shown, (a, b) in zip(escaping.distinct_labels(list(costs)[:4]), list(costs.values())[:4], strict=True)
        )
        + ("…" if len(costs) > 4 else "")
        + "."
    )


@dataclass(frozen=True)
class CapacityView:
    """The Costs page's capacity section: the cap beside the unlimited optimum, and the price of
    capacity (its sentence and chart)."""

    sentence: str
    price_sentence: str
    figure: object
    price: object


def capacity_view(models: Mapping, rec, unlimited, *, volume: float | None, unit: str) -> CapacityView:
    """`CapacityView` of a recommendation within a cap (`rec`) and the one without it."""
    from costlib.binary import capacity
    from costlib.present import capacity_words

    price = capacity.price_of_capacity(models[rec.model], rec.prices, rec.capacity)
    limit = capacity.limit_facts(models, rec, unlimited)
    within, price_words = capacity_words.limit_sentences(rec, unlimited, limit, price, volume=volume, unit=unit)
    return CapacityView(within, price_words, capacity_figure(price, volume=volume, unit=unit), price)


def prices_key(models: Mapping, costs: Mapping) -> tuple:
    """The identity of a price book for these models' groups (`Prices.key`): what a result that
    depends on the prices is remembered under."""
    from costlib.core.prices import prices_for

    return prices_for(next(iter(models.values())).groups, costs).key()


@dataclass(eq=False)
class CostsAnswer:
    """What the Costs & groups page shows at one price book, one review limit and one setting of
    the resamples: computed up front where every visit reads it, the rest on request (`shown`,
    `cost_chart`, `questions_sentence`), the recommendations remembered through `remember`.

    rec        the recommendation (within the review limit, when there is one)
    unlimited  the recommendation without the limit (None without a limit)
    capacity   the limit's section (`CapacityView`; None without a limit)
    verdict    the page's one answer in words (`costs_verdict`)
    metrics    the headline metrics (`costs_metrics`)
    """

    models: Mapping
    rec: object
    unlimited: object | None
    capacity: CapacityView | None
    verdict: object
    metrics: tuple
    unit: str
    volume: float | None
    resamples: int
    remember: object

    def questions_sentence(self, record: Mapping | None, costs: Mapping) -> str | None:
        """What the answers on Find my prices say, while they still set the prices `costs`."""
        return price_questions_sentence(self.models, self.rec, record, costs, n_resamples=self.resamples)

    def shown(self, model: str):
        """The recommendation of `model` alone (the page's "Curve of the model"), at these prices."""
        if model == self.rec.model:
            return self.rec
        return _recommend(
            {model: self.models[model]}, self.rec.prices.as_dict(), self.resamples, self.rec.capacity, self.remember
        )

    def cost_chart(self, model: str, *, by_flagged: bool = False, shipped=None):
        """`model`'s cost against the cutoff (or against the cases flagged a month, `by_flagged`,
        with a volume), its rules marked; `shipped` marks a cutoff handed over from Watch."""
        from costlib.binary.model_sweeps import cost_curves

        shown = self.shown(model)
        per_month = self.volume if by_flagged and self.volume else None
        return cost_curve_figure(
            cost_curves(self.models[model], self.rec.prices, max_points=MAX_POINTS),
            markers_frame(shown, self.models[model], self.unlimited if shown is self.rec else None),
            unit=self.unit,
            title=cost_chart_title(model, shown, by_flagged=per_month is not None),
            per_month=per_month,
            cap=self.rec.capacity,
            shipped=shipped,
        )


def _recommend(models: Mapping, costs: Mapping, resamples: int, capacity, remember):
    """`decision.recommend`, remembered under the models, the price book, the resamples and the limit."""
    from costlib.binary import decision

    key = (tuple(models), prices_key(models, costs), resamples, capacity)
    return remember(
        "recommend",
        key,
        lambda: decision.recommend(models, costs, n_resamples=resamples, capacity=capacity),
    )


def costs_answer(
    models: Mapping,
    costs: Mapping,
    *,
    resamples: int,
    share: float | None = None,
    unit: str = "",
    volume: float | None = None,
    remember=compute_now,
    group_parts=None,
    group_columns=(),
    reference=None,
    sample: bool = False,
) -> CostsAnswer:
    """The Costs & groups page's answer at the price book `costs` ({group: (c_fp, c_fn)}) within
    the review limit `share` (a share of the cases; None: no limit).

    `remember(name, key, compute)` returns ``compute()``, remembered under (name, key): the page
    passes its memo, so that a recommendation is made once per price book, limit and resamples
    (a change of unit or volume, which only rewords the answer, never resamples the rows again).
    With several group columns, `group_parts` (`Dataset.group_parts`) and `group_columns` let the
    verdict name a failing disparity of one column alone, as the record does; `reference` is the
    group the others are compared with (None: the largest); `sample`: the data is a built-in sample
    (`loading.samples.is_sample` of its fingerprint), whose models the answer names as the sample's.
    """
    rec = _recommend(models, costs, resamples, share, remember)
    unlimited = view = None
    if share is not None:
        unlimited = _recommend(models, costs, resamples, None, remember)
        view = capacity_view(models, rec, unlimited, volume=volume, unit=unit)
    return CostsAnswer(
        models=models,
        rec=rec,
        unlimited=unlimited,
        capacity=view,
        verdict=costs_verdict(
            rec,
            models[rec.model],
            unit=unit,
            volume=volume,
            group_parts=group_parts,
            group_columns=group_columns,
            reference=reference,
            sample=sample,
        ),
        metrics=costs_metrics(rec, unit=unit, volume=volume),
        unit=unit,
        volume=volume,
        resamples=resamples,
        remember=remember,
    )
