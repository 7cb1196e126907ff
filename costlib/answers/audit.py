"""The audit of one decision as one record: `Audit`, computed from cached sweeps by `build_audit`.

The record holds the recommendation (every rule fitted on the training rows and judged on the
test rows, with the exact multinomial bootstrap intervals of `costlib.stats.bootstrap`), the
fairness-constrained rules (`binary.fairness`), the price maps and the ratio range
(`binary.sensitivity`) and the data summary. `build_audit` reads sweeps only: the rows were
sorted once, by `decision.sweep_model`. It is the answer of the Costs page and of the audit
command; its numbers come from `costlib.binary`, its words from `costlib.present.words`, and
`costlib.present.report` and `costlib.present.policy` show it as HTML and as a policy file.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from costlib.answers.audit_rows import fitted_roles, row_counts, rows_in
from costlib.answers.remembering import compute_now
from costlib.binary import decision as D
from costlib.binary.disparity import (
    THRESHOLD,
    said_disparities,
    shipped_column_disparities,
    shipped_disparities,
)
from costlib.binary.elicit import break_even_range
from costlib.binary.fair_search import FAIRNESS_CRITERIA, MSG_CRITERION
from costlib.binary.fairness import cross_fitted_drift, fairness_results, group_rates
from costlib.binary.judged_rules import RuleResults
from costlib.binary.model_sweeps import ModelSweeps, cost_curves, sweep_model
from costlib.binary.sensitivity import PriceMaps, price_maps, price_scale, ratio_range
from costlib.core import rules as R
from costlib.core import settings
from costlib.core import validation as v
from costlib.core.json_numbers import json_cut, json_number
from costlib.core.prices import Prices
from costlib.core.ship import ADDS_NOTHING, NO_ANSWER, WORSE
from costlib.loading.samples import is_sample
from costlib.present.costs_labels import NO_CUTOFF_NOTE, SCORES_NOT_PROBABILITIES_NOTE
from costlib.present.price_words import sensitivity_sentence
from costlib.present.tables import fair_cross_fitted_notes
from costlib.present.words import Verdict, judged_rows, recommendation_verdict
from costlib.watch.reference import reference_record

__all__ = ["Audit", "build_audit", "data_summary", "dataset_models", "mean_prices"]


def audit_criteria(chosen) -> tuple[str, ...]:
    """The fairness criteria an audit of a session's settings `chosen` (`core.link.Settings`)
    reads: those chosen (every one of `fairness.FAIRNESS_CRITERIA` until some are) while the
    fairness rules are on, else none.

    >>> from costlib.core.link import Settings
    >>> audit_criteria(Settings(fairness=True, criteria=["equal accuracy"])), audit_criteria(Settings())
    (('equal accuracy',), ())
    """
    if not chosen.fairness:
        return ()
    return tuple(FAIRNESS_CRITERIA if chosen.criteria is None else chosen.criteria)


def data_summary(ms: ModelSweeps) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(by_group, overall): rows ``n`` (`row_counts`, NaN when unknown), positives, positive share and
    mean score per split (the fitting rows named by their role, ``ModelSweeps.fit_role``, and the
    test rows; "all" where both are every row); by_group has ``split, group, ...``, overall is
    indexed by split. With weights,
    ``cases_by_weight`` is the cases the rows stand for, and the rest is by weight, as every cost."""
    rows, overall = [], []
    splits = (
        ((ms.fit_role, "fit", ms.fit, ms.fit_pooled), ("test", "judge", ms.judge, ms.judge_pooled))
        if ms.judged_on == "test"
        else (("all", "fit", ms.fit, ms.fit_pooled),)
    )

    def counts(sw, n) -> dict:
        return {
            "n": math.nan if n is None else n,
            **({"cases_by_weight": sw.total} if ms.weighted else {}),
            "positives": sw.positives,
            "positive_share": v.safe_divide(sw.positives, sw.total),
            "mean_score": sw.mean_score(),
        }

    for split, purpose, grouped, pooled in splits:
        n = row_counts(ms, purpose)
        for g in grouped.groups:
            rows.append({"split": split, "group": g, **counts(grouped[g], None if n is None else n[g])})
        overall.append({"split": split, **counts(pooled, None if n is None else sum(n.values()))})
    return pd.DataFrame(rows), pd.DataFrame(overall).set_index("split")


# ---------------------------------------------------------------------------------------
# The audit value


@dataclass(frozen=True, eq=False)
class Audit:
    """Everything one audit shows, computed from cached sweeps (see the module docstring).

    Its fields::

        recommendation    `decision.Recommendation` (its ``results`` judge every rule, fairness
                          rules included, on the test rows, by group and overall apart)
        verdict           `words.Verdict`: the one answer in words
        fairness          long format ``criterion, group, threshold, rate_train, rate_test``
        fairness_summary  per criterion (see `fairness_tables`)
        data_summary      ``split, group, n, positives, positive_share, mean_score``
        data_overall      the same per split, for all groups together
        maps              `PriceMaps`: the sensitivity map and net benefit
        curves            `decision.cost_curves` of the recommended model (test rows)
        ratio_range       (leader, low, high) of `sensitivity.ratio_range` at `mean_prices`
        mean_prices       (c_fp, c_fn) weighted by the test rows of each group
        break_even        (low, high) `elicit.break_even_range` of the recommended model on the
                          fitting rows: the c_fn : c_fp ratios at which it beats both decisions
                          without a model (exact)
        notes             sentences on degenerate input (a group with one class, an infeasible
                          constraint)
    """

    recommendation: D.Recommendation
    verdict: Verdict
    costs: dict
    unit: str
    volume: float | None
    fairness_tolerance: float
    criteria: tuple[str, ...]
    n_resamples: int
    seed: int
    data_name: str
    fingerprint: str
    n_rows: int
    created: str
    version: str
    fairness: pd.DataFrame
    fairness_summary: pd.DataFrame
    data_summary: pd.DataFrame
    data_overall: pd.DataFrame
    maps: PriceMaps
    ratio_range: tuple[str, float, float]
    mean_prices: tuple[float, float]
    curves: pd.DataFrame = field(default_factory=pd.DataFrame)
    notes: tuple[str, ...] = ()
    price_questions: dict | None = None
    break_even: tuple[float, float] = (math.nan, math.nan)
    columns: dict = field(default_factory=dict)  # `data_columns`: which column played which role
    group_rates: tuple = ()  # `fairness.group_rates` of the recommended rule: (by group, gaps)
    capacity_cases: float | None = None  # the review limit in cases a month, as given (None: a share or no limit)
    unlimited: D.Recommendation | None = None  # under a capacity: the recommendation without it
    price_of_capacity: object = None  # under a capacity: `capacity.PriceOfCapacity`
    limit: object = None  # under a capacity: `capacity.Limit` (what the limit does, on the fitting rows)
    base_rate: float = math.nan  # the share of positives on the fitting rows (the label-free watch starts there)
    reference: dict | None = (
        None  # the fitting rows' scores by class (`watch.reference`): what Watch holds cases against
    )
    model_identity: dict | None = None  # `present.identity.model_identity`: which model, beside its score column
    disparities: object = None  # `disparity.Disparities` of the recommended rule (None: one group)
    column_disparities: tuple = ()  # with several group columns: (column, `disparity.Disparities`) each alone
    sweeps: object = None  # the recommended model's `ModelSweeps`: what another rule's disparities are read from
    # constrained rules whose numbers, cross-fitted, are another rule's: (rule, flagged on all rows, cross-fitted)
    # (`fairness.cross_fitted_drift`); a policy never ships them as "ship the model" (`present.policy.policy_dict`)
    drifted: tuple = ()

    @property
    def data_dictionary(self) -> dict:
        """What the record judged: the file and its sha256, the label column and its positive
        value, the audited score column and its scale, the group and split columns (and the
        split's values the cutoffs were fitted and judged on, `audit_rows.fitted_roles`: None
        both where every row was, a split without test rows) and the weight column (None: each
        row counts once). With several group columns, ``group`` is the name of their intersection
        ("race × sex", `intersection_key`) and ``group_columns`` lists them.
        The positive value is the loader's text of a cell (`costlib.present.policy_fields.group_name`: 1,
        1.0 and "1" are "1"), the form cases are matched by, so that the page, the command line,
        the JSON and the policy name it alike."""
        from costlib.present.policy_fields import group_name

        c = self.columns
        split = c.get("split")
        train, test = fitted_roles(self.recommendation) if split else (None, None)
        several = {"group_columns": list(c["group_columns"])} if c.get("group_columns") else {}
        return {
            "file": self.data_name,
            "sha256": self.fingerprint,
            "label": c.get("label"),
            "positive": group_name(c.get("positive", 1)),
            "score": self.model_name,
            "scale": c.get("scale"),
            "group": c.get("group"),
            **several,
            "split": split,
            "train": c.get("train", train),
            "test": c.get("test", test),
            "weight": c.get("weight"),
        }

    def summary(self) -> dict:
        """The decision summary (``--json``), with this record's data dictionary; under a
        capacity, the answer is the one within it, and the ``capacity`` and
        ``within_capacity`` blocks say what the cap is, what the best cutoff without it would
        flag and cost, and what more capacity would save. With two groups or more, the
        ``disparities`` block (`present.policy.disparities_record`) of the recommended rule; with
        a weight column, ``n`` and ``n_judged`` count the judged rows and ``cases_by_weight`` the
        cases they stand for (`_rows_judged`)."""
        out = self._rows_judged(self.recommendation.summary(self.data_dictionary, self.n_rows))
        out["capacity"] = self.capacity_record
        out["within_capacity"] = self.within_capacity
        if self.model_identity is not None:
            out["model_identity"] = dict(self.model_identity)
        from costlib.present.policy import disparities_record  # the block with the counts each rate is a share of

        if self.disparities is not None:  # with two groups or more (as ``model_identity``: only when there is one)
            out["disparities"] = disparities_record(self.disparities)
        if self.column_disparities:  # with several group columns: each column alone, beside their intersection
            out["disparities_by_column"] = {str(column): disparities_record(d) for column, d in self.column_disparities}
        return out

    def _rows_judged(self, out: dict) -> dict:
        """The decision summary `out` with weights: ``n`` and ``n_judged`` the judged rows (`row_counts`;
        null when unknown), and after them ``cases_by_weight``, the cases those rows stand for, which every
        cost per case is a share of. Without weights the rows are the cases: `out` as it was."""
        if (ms := self.sweeps) is None or not ms.weighted:
            return out
        n, shown = None if (counted := row_counts(ms, "judge")) is None else sum(counted.values()), {}
        for key, value in out.items():
            shown[key] = n if key in ("n", "n_judged") else value
            if key == "n_judged":
                shown["cases_by_weight"] = json_number(self.recommendation.n_judged)
        return shown

    @property
    def disparities_fail(self) -> bool:
        """True when the verdict ships the model and a disparity of its rule fails its threshold:
        between the groups (the intersections, with several group columns) or between the groups
        of one column. A verdict that keeps the choice without a model ships no rule of the model
        (what is applied flags every group alike), so its rule's disparities fail nothing."""
        return bool(self.recommendation.ship_model) and any(d.fails for d in self.all_disparities)

    @property
    def all_disparities(self) -> tuple:
        """The recommended rule's disparities: between the groups, then per group column."""
        first = () if self.disparities is None else (self.disparities,)
        return first + tuple(d for _, d in self.column_disparities)

    @property
    def capacity_record(self) -> dict | None:
        """The review limit: ``{"max_flagged": share, "cases_per_month": N or None}`` (None: no limit)."""
        share = self.recommendation.capacity
        if share is None:
            return None
        return {"max_flagged": json_number(share), "cases_per_month": self.capacity_cases}

    @property
    def within_capacity(self) -> dict | None:
        """The answer within the cap beside the one without it (None without a cap)."""
        rec, free, price, limit = self.recommendation, self.unlimited, self.price_of_capacity, self.limit
        if rec.capacity is None or free is None or limit is None:
            return None
        return {
            "binding": limit.binding,
            "flagged_share": json_number(limit.within_flagged),
            "flagged_share_judged": json_number(limit.within_judged),
            "unlimited": {
                "rule": R.rule_words(free.rule),
                "cutoffs": {str(g): json_cut(t) for g, t in free.cutoffs.items()},
                "cost_per_case": json_number(free.cost),
                "flagged_share": json_number(limit.unlimited_flagged),
                "verdict": free.verdict,
            },
            "extra_cost_per_case": json_number(rec.cost - free.cost),
            "gap_per_case": json_number(rec.capacity_gap),
            # the figures the sentence states (`capacity_words.price_sentence`): the change of the
            # answer's cost per case made again at the limit + 1 and + 100 cases a month, + 1%; 0 when
            # the answer made again is no cheaper on the judged rows (`Limit.more_saves`)
            "saving_per_extra_case": json_number(limit.more_saves(1 / self.volume)) if self.volume else None,
            "saving_per_100_extra_cases": json_number(limit.more_saves(100 / self.volume)) if self.volume else None,
            "saving_per_extra_percent": json_number(limit.more_saves(0.01)),
            "enough_share": json_number(price.enough) if price is not None else None,
        }

    @property
    def capacity_sentences(self) -> tuple[str, str]:
        """What the record says of its review limit (`capacity_words.limit_sentences`); empty without one."""
        if self.limit is None:
            return "", ""
        from costlib.present.capacity_words import limit_sentences

        return limit_sentences(
            self.recommendation, self.unlimited, self.limit, self.price_of_capacity, volume=self.volume, unit=self.unit
        )

    @property
    def results(self) -> RuleResults:
        return self.recommendation.results

    @property
    def cutoffs(self) -> dict:
        return self.results.cutoffs

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(self.cutoffs)

    @property
    def model_name(self) -> str:
        return self.recommendation.model

    @property
    def sensitivity(self) -> str:
        """How much the prices matter, in words (`sensitivity_sentence` for this audit)."""

        return sensitivity_sentence(
            self.ratio_range,
            self.mean_prices,
            self.unit,
            blended=not self.recommendation.prices.uniform,
            break_even=self.break_even,
            model=self.model_name,
            judged=judged_rows(self.recommendation),
            kept=None if self.recommendation.ship_model else self.recommendation.baseline,
            rec=self.recommendation,
        )

    @property
    def groups(self) -> tuple:
        return self.recommendation.prices.groups

    @property
    def model_is_useless(self) -> bool:
        return self.recommendation.status in (WORSE, ADDS_NOTHING, NO_ANSWER)

    def _repr_html_(self) -> str:
        """In a notebook: the verdict and the rules table (`present.notebook.audit_card`)."""
        from costlib.present.notebook import audit_card

        return audit_card(self)

    def policy(self, rule: str | None = None) -> dict:
        """The policy file's content for `rule` (default: what the verdict says to ship), as
        `present.policy.policy_dict` writes it: hand it to `apply_policy` or `policy_estimator`,
        or save it with ``json.dump``."""
        from costlib.present.policy import policy_dict

        return policy_dict(self, rule)

    def figure(self, name: str = "cost_curve"):
        """One of the report's Plotly figures: ``"cost_curve"`` (default), ``"rule_bars"``,
        ``"sensitivity"``, ``"net_benefit"`` or, under a review limit, ``"capacity"``."""
        from costlib.present.report import audit_figure

        return audit_figure(self, name)


def mean_prices(ms: ModelSweeps, prices: Prices) -> tuple[float, float]:
    """c_fp and c_fn averaged over the groups, weighted by their judged rows (`Prices.mean`)."""
    return prices.mean([ms.judge[g].total for g in ms.groups])


def build_audit(
    models: ModelSweeps | Mapping[str, ModelSweeps],
    costs,
    *,
    unit: str = "",
    volume: float | None = None,
    fairness_tolerance: float = 0.05,
    criteria: Sequence[str] = tuple(FAIRNESS_CRITERIA),
    n_resamples: int = 1000,
    seed: int = 0,
    data_name: str = "",
    fingerprint: str = "",
    n_rows: int | None = None,
    data_notes: Sequence[str] = (),
    created: str | None = None,
    maps: PriceMaps | None = None,
    price_questions: Mapping | None = None,
    columns: Mapping | None = None,
    capacity: float | None = None,
    capacity_cases: float | None = None,
    model_identity: Mapping | None = None,
    reference_group=None,
    disparity_threshold: float = THRESHOLD,
    group_parts: Mapping | None = None,
) -> Audit:
    """Compute one audit from cached sweeps: the recommendation, every rule with intervals,
    fairness-constrained cutoffs, the price maps and the data summary.

    Parameters
    ----------
    models : ModelSweeps or {name: ModelSweeps}
        One or more models' sweeps (`decision.sweep_model`): the rows are not read again.
    costs : (c_fp, c_fn) or {group: (c_fp, c_fn)}
    unit, volume : the unit of the prices and the cases a month (for the sentences)
    fairness_tolerance : float
        Largest gap allowed between groups' rates in a fairness-constrained rule.
    criteria : the fairness criteria (keys of `fairness.FAIRNESS_CRITERIA`)
    n_resamples, seed : the bootstrap
    maps : PriceMaps, optional
        Reuse price maps computed earlier (they do not depend on the prices).
    price_questions : dict, optional
        `elicit.record` of the questions that set the prices (shown in the report).
    columns : dict, optional
        `data_columns`: which column played which role (the record's data dictionary).
    capacity, capacity_cases : optional
        A review limit: the largest share of the cases that may be flagged (the answer is then
        the one within it, `decision.recommend`), and the cases a month it was given as.
    model_identity : dict, optional
        Which model was judged (`costlib.present.identity.model_identity`: the identity the user
        gave and its file's sha256), recorded beside the score column in the summary, the
        report and the policy.
    reference_group : str, optional
        The group every other is compared with in the disparities (`disparity.rule_disparities`)
        of the recommended rule; None: the largest group on the judged rows.
    disparity_threshold : float
        tau: a disparity ratio (group / reference) passes inside [tau, 1 / tau] (four-fifths: 0.8).
    group_parts : dict, optional
        With several group columns (``columns["group_columns"]``, `data_columns`), each group's
        value in each of them (`Dataset.group_parts`): the groups are their intersections, and the
        disparities are reported for each column alone too (`disparity.column_disparities`, each
        against its largest group), in ``column_disparities``.

    Returns
    -------
    Audit
        Degenerate input (a group with one class, an infeasible constraint) gives NaN rows
        and a sentence in ``notes``, never an exception.
    """
    from costlib import __version__

    if isinstance(models, ModelSweeps):
        models = {models.name: models}
    criteria = tuple(criteria)
    for c in criteria:
        if c not in FAIRNESS_CRITERIA:
            raise ValueError(MSG_CRITERION.format(valid=list(FAIRNESS_CRITERIA), value=c))
    tol = v.as_price(fairness_tolerance, "fairness_tolerance")
    if volume is not None:
        volume = float(v.as_price(volume, "volume"))
    notes: list[str] = list(data_notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = D.recommend(models, costs, n_resamples=0, seed=seed, capacity=capacity)
        ms = models[first.model]
        prices = first.prices
        fair = fairness_results(
            ms,
            prices,
            criteria=criteria,
            tolerance=tol,
            n_resamples=n_resamples,
            seed=seed,
            capacity=capacity,
            picked_among=len(models),
        )
        rec = dataclasses.replace(fair.recommendation, models=first.models)
        crossed, drifted = cross_fitted_drift(ms, fair.judged)
        notes.extend(fair_cross_fitted_notes(crossed, drifted))
        unlimited = price = limit = None
        if rec.capacity is not None:  # the answer without the limit, as the page shows it beside
            from costlib.binary.capacity import limit_facts, price_of_capacity

            unlimited = D.recommend(models, costs, n_resamples=n_resamples, seed=seed)
            price = price_of_capacity(ms, prices, rec.capacity)
            limit = limit_facts(models, rec, unlimited)
        long, summary = fair.fairness, fair.summary
        if maps is None:
            mp = mean_prices(ms, prices)
            maps = price_maps(models, scale=price_scale(*mp))
        mp = mean_prices(ms, prices)
        leader = ratio_range(maps.train, maps.test, c_fp=mp[0], c_fn=mp[1])
        by_group, overall = data_summary(ms)
    for w_ in caught:
        if issubclass(w_.category, v.DegenerateWarning):
            notes.append(str(w_.message))
        else:
            warnings.warn_explicit(w_.message, w_.category, w_.filename, w_.lineno)
    partial = rec.results.by_group.groupby("rule", sort=False)["cost_per_case"].apply(lambda c: bool(c.isna().any()))
    for rule in partial.index[partial.to_numpy()]:
        notes.append(NO_CUTOFF_NOTE.format(rule=R.rule_words(rule)))
    if not all(m.probabilities for m in models.values()):
        notes.append(SCORES_NOT_PROBABILITIES_NOTE)
    unit, _ = settings.check_unit(unit or "", default="")
    gaps = shipped_disparities(ms, rec, reference=reference_group, threshold=disparity_threshold)
    by_column = shipped_column_disparities(
        ms, rec, group_parts, tuple((columns or {}).get("group_columns") or ()), threshold=disparity_threshold
    )
    return Audit(
        recommendation=rec,
        verdict=recommendation_verdict(
            rec,
            unit=unit,
            volume=volume,
            disparities=said_disparities(gaps, by_column),
            sample=is_sample(str(fingerprint)),  # a built-in sample's models are not the reader's
        ),
        costs=prices.as_dict(),
        unit=unit,
        volume=volume,
        fairness_tolerance=tol,
        criteria=criteria,
        n_resamples=int(n_resamples),
        seed=int(seed),
        data_name=str(data_name),
        fingerprint=str(fingerprint),
        n_rows=int(n_rows if n_rows is not None else rows_in(ms)),
        created=created or _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        version=__version__,
        fairness=long,
        fairness_summary=summary,
        data_summary=by_group,
        data_overall=overall,
        maps=maps,
        ratio_range=leader,
        mean_prices=mp,
        curves=cost_curves(ms, prices),
        notes=tuple(dict.fromkeys(notes)),
        drifted=tuple(drifted),
        price_questions=dict(price_questions) if price_questions else None,
        break_even=break_even_range(ms.fit_pooled),
        columns={"scale": "probability" if ms.probabilities else "raw", **dict(columns or {})},
        group_rates=group_rates(ms, rec.results, rec.rule) if len(ms.groups) > 1 else (),
        capacity_cases=float(capacity_cases) if capacity_cases is not None and rec.capacity is not None else None,
        unlimited=unlimited,
        price_of_capacity=price,
        limit=limit,
        base_rate=float(ms.fit_pooled.positives / ms.fit_pooled.total) if ms.fit_pooled.total > 0 else math.nan,
        reference=reference_record(ms.fit_pooled) if ms.probabilities and not ms.weighted else None,
        model_identity=None if model_identity is None else dict(model_identity),
        disparities=gaps,
        column_disparities=by_column,
        sweeps=ms,
    )


def data_columns(mapping, *, scale: str | None = None) -> dict:
    """The roles of a `ColumnMapping` that a record names (`Audit.data_dictionary`): with several
    group columns, ``group`` names their intersection ("race × sex") and ``group_columns`` lists them."""
    from costlib.loading.intersections import intersection_key

    several = mapping.group_columns if len(mapping.group_columns) > 1 else ()
    return {
        "label": mapping.label,
        "positive": mapping.positive if mapping.positive is not None else 1,
        "scale": scale or mapping.score_scale,
        "group": intersection_key(several) if several else mapping.group,
        **({"group_columns": list(several)} if several else {}),
        "split": mapping.split,
        "weight": mapping.weight,
    }


def dataset_models(ds, scores: Sequence[str] | None = None, *, remember=compute_now) -> dict:
    """{score column: `decision.sweep_model`} of a loaded `Dataset`: fitted on its fitting rows,
    judged on its judging rows (`Dataset.purpose_rows`: the train rows, or the validation rows
    without train rows, and the test rows; every row both without test rows, or without a split),
    the fitting rows' role named (``fit_role``: "train" or "validation").

    Parameters
    ----------
    ds : Dataset
    scores : the score columns (None: every one; a counted dataset's, every model it counted)
    remember : ``remember(name, key, compute)``
        Each model's sweep is remembered under ``("model_sweeps", (column,))`` (a page's memo:
        sorted once per data set and model); the default computes them now.

    Returns
    -------
    dict
        A counted dataset (`Dataset.counts_only`: an aggregate, or a table read where it
        lies) has no rows to sort: its sweeps are the counted ones, `Dataset.sweeps`.
    """
    if ds.counts_only:
        return dict(ds.sweeps) if scores is None else {c: ds.sweeps[c] for c in scores}
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    role = "train" if ds.has_role("train") else "validation"  # the fitting rows' role, beside test rows

    def sweep(c):
        return sweep_model(
            ds.y,
            ds.scores[c],
            ds.groups,
            fit=fit,
            judge=judge,
            name=c,
            sample_weight=ds.weight,
            probabilities=ds.probabilities,
            fit_role=role,
        )

    return {c: remember("model_sweeps", (c,), lambda c=c: sweep(c)) for c in (ds.scores if scores is None else scores)}
