"""The self-contained HTML report of an audit (`costlib.answers.audit.Audit`, named ``audit`` or
``a`` below: this module reads its attributes and imports nothing above ``present``).

Pure Python (no Streamlit). The steps are::

    models = {"score": decision.sweep_model(y, s, groups, fit=train, judge=test)}   # sort once
    audit = build_audit(models, {group: (c_fp, c_fn)}, unit="$", volume=10_000)    # price
    html = audit_html(audit)               # one file, opens offline (plotly.js embedded once)
    text = policy.policy_json(audit)       # the decision, for the system that applies it

`build_audit` (in `costlib.answers.audit`) reads sweeps only: the rows were sorted once, by
`sweep_model`; its intervals are the exact multinomial bootstrap of `costlib.stats.bootstrap`.
This module only shows the record: the tables come from `present.tables`, the words from
`present.words`, the figures from `present.cost_figures`, the HTML pieces (tables, charts, style)
from `present.report_html`.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.binary.fair_tightened import tolerance_points
from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.core import rules as R
from costlib.core.escaping import html_escape
from costlib.core.prices import elkan_threshold
from costlib.present import capacity_words
from costlib.present.amounts import plain_number
from costlib.present.cost_figures import (
    capacity_figure,
    cost_curve_figure,
    markers_frame,
    rule_bars_figure,
)
from costlib.present.costs_labels import COSTS_WORDS, GROUP_RATES_WHAT
from costlib.present.disparity_table import SMALL_GROUP_MARK, disparity_tables
from costlib.present.price_figures import (
    NET_BENEFIT_HOW,
    net_benefit_figure,
    net_benefit_title,
    sensitivity_figure,
    shipped_marks,
)
from costlib.present.report_charts import report_chart_text
from costlib.present.report_html import CSS, PRINT_SCRIPT, SCREEN_NOTE, HtmlFigures, paragraphs, table_html
from costlib.present.report_record import (
    data_caption,
    data_sentence,
    judged_sentence,
    questions_html,
    record_table,
    review_html,
    settings_table,
)
from costlib.present.tables import (
    CROSS_FIT_MEAN_WORDS,
    NOT_SEARCHED,
    NOT_SEARCHED_HELP,
    _fair_rows,
    count_cell,
    cutoff_cell,
    fair_prices,
    feasible_cells,
    group_rates_table,
    money_cell,
    rules_by_group_table,
    rules_overall_table,
    share_cell,
    within_cells,
)
from costlib.present.words import fitted_rows, judged_kind, judged_rows

__all__ = ["REPORT_SECTIONS", "audit_html"]

REPORT_SECTIONS = (
    "verdict",
    "capacity",
    "prices",
    "data",
    "settings",
    "rules",
    "fairness",
    "sensitivity",
    "net-benefit",
    "charts",
    "limitations",
    "review",
)
"""The report's sections (element ids) in their order: the answer (the verdict, and within a review
limit what the limit does), what it was judged on (the prices, the data), the settings and the record
(file, sha256, columns and values, rows judged), then the evidence; net benefit sits inside the
sensitivity section, under the same caveat."""
CREATED = (
    "Created {created} with costlib {version}. The settings, the file's columns and its fingerprint are in "
    "“Settings and record”."
)
LIMITATIONS = (
    "The prices are assumptions: they are the reviewer's statement of what a false positive and a false negative "
    "cost, not facts measured from the data. The sensitivity map shows how far they may move before the "
    "cheapest option changes; a decision should hold over the whole range of prices that are defensible.",
    f"The {R.rule_words(R.ELKAN)} (the price of a false positive as a share of both prices together) and net "
    "benefit (which weighs a false alarm by what the cutoff says it costs against a miss) assume calibrated scores; "
    "on a miscalibrated model they are wrong by as much as the calibration error. The cutoffs fitted on data "
    "(cost-optimal and fairness-constrained) do not need calibration, but they carry sampling error: read the "
    "intervals.",
    "Labels may be proxies: a recorded outcome (an arrest, a diagnosis, a complaint) measures what was "
    "observed, which may differ between groups from what happened. Costs and fairness rates computed against "
    "a proxy label inherit its bias.",
)

INTERVALS_LIMITATION = {
    "test": (
        "Intervals are 95% percentile bootstrap intervals. For the rules fitted on data (the best single cutoff "
        "and the best cutoff per group) each resample fits the cutoffs again on resampled train rows and judges "
        "them on resampled test rows, so the luck of picking the cheapest of many cutoffs is inside the interval; "
        "for the other rules the cutoffs are held and the test rows resampled within each group."
    ),
    "cross-fitted": (
        "The saving's interval of one cutoff for everyone is its cross-fitted estimate give or take its 95% margin of "
        "error, which counts both the rows' noise and how much one dealing of the rows into parts moves it. Each "
        "group's cost, the extra saving of per-group cutoffs and their saving against the choice without a model "
        "take the same form, their margin of error set between the rows' noise alone and that of a bootstrap that "
        "fits the cutoffs again on each resample (0.632 of the way), so the luck of picking the cheapest of many "
        "cutoffs is inside them. Where one cutoff for everyone, cross-fitted, flags everybody (or nobody), it is the "
        "choice without a model on those rows, and the extra saving of per-group cutoffs is their saving against "
        f"it, with one interval. For the rules not fitted on data ({R.rule_words(R.ELKAN)}, flag nobody, "
        "flag everyone) the cutoffs are held and the rows resampled within each group (95% percentile bootstrap)."
    ),
    "same": (
        "Intervals are 95% percentile bootstrap intervals of rules fitted and judged on the same rows: the fitted "
        "cutoffs are fitted again on each resample, but the estimates themselves flatter the model."
    ),
}
"""The Limitations item on how the intervals were made, by how the fitted rules were judged
(`words.judged_kind`): the same methods the verdict's details name (`words.split_sentence`)."""

POPULATION_LIMITATION = "No interval covers a change in the population after the data was collected."
TECHNICAL_NOTE = "Technical note: "
"""What opens a paragraph that holds a formula (`_technical_note`): the words around it say it plainly."""
LIMITATIONS_NOTE = (
    f"the {R.rule_words(R.ELKAN)} is c_fp / (c_fp + c_fn), with c_fp and c_fn the prices of a false positive "
    "and a false negative; net benefit weighs false alarms by the cutoff's odds, t / (1 − t)."
)
NET_BENEFIT_WORDS = (
    "Net benefit per case of flagging at each cutoff, on {rows}, against flagging everyone and flagging nobody "
    "(decision curve analysis): the share of cases rightly flagged, less the share wrongly flagged weighed by "
    "what a false alarm costs against a miss at that cutoff. Each cutoff stands for one pair of prices: at a "
    "cutoff of 0.2 a false alarm costs a quarter of a miss (0.2 against 0.8), at 0.5 as much as a miss. So each "
    "point is read at the prices its cutoff stands for. "
    + " ".join(NET_BENEFIT_HOW).removesuffix(".")
    + ": there the higher line does better. Below zero, flagging at that cutoff does worse than flagging nobody."
)
"""The net benefit chart's caption in the report, with the chart's own reading (`price_figures.NET_BENEFIT_HOW`,
the note over the plot): it said "Higher is better" beside a chart whose note says the highest point is not
the best cutoff (review)."""
DISPARITY_WORDS = (
    "Each group's number (a rate, or the cost per case) is divided by the reference group's: 1 means the two are "
    "the same, 0.8 that the group's is 80% of the reference group's. A group fails when that falls outside the "
    f"range each table's caption states. A group marked “{SMALL_GROUP_MARK.strip()}” is too small for a cutoff of "
    "its own (the best cutoff per group gives it the cutoff for everyone), but its numbers are its own. (The "
    "Aequitas fairness toolkit reads a disparity the same way.)"
)
"""What the report says above the disparities' tables, in plain words: it opened "Aequitas's reading: a
group's metric divided by the reference group's; a ratio outside the stated range fails" (review: jargon
to a product manager or an auditor)."""
NET_BENEFIT_NOTE = (
    "net benefit at cutoff t is TP/n − FP/n · t/(1 − t), with TP and FP the cases rightly and wrongly flagged "
    "at t and n all cases; a cutoff t stands for prices in the ratio c_fp : c_fn = t : (1 − t)."
)


def _technical_note(text: str) -> str:
    """A formula for a technical reader, labelled as such (`TECHNICAL_NOTE`) and set apart."""
    return f'<p class="meta technical-note">{html_escape(TECHNICAL_NOTE + text)}</p>'


def _without_limit(a, caveat: str) -> str:
    """`caveat` (the page's, `capacity_words`) under a review limit, where a section is about the
    answer without it; "" without a limit."""
    return caveat if a.recommendation.capacity is not None else ""


def _limitations(rec) -> tuple[str, ...]:
    """The Limitations section's paragraphs for a recommendation: the fixed ones, then how its
    intervals were made."""
    return (*LIMITATIONS, f"{INTERVALS_LIMITATION[judged_kind(rec)]} {POPULATION_LIMITATION}")


# ---------------------------------------------------------------------------------------
# Figures and HTML report


_FIGURES = {
    "sensitivity": lambda a: sensitivity_figure(
        a.maps.sensitivity,
        c_fp=a.mean_prices[0],
        c_fn=a.mean_prices[1],
        unit=a.unit,
        blended=not a.recommendation.prices.uniform,  # per-group prices: the mark is their average by cases
    ),
    "net_benefit": lambda a: net_benefit_figure(
        a.maps.net_benefit,
        price_threshold=elkan_threshold(*a.mean_prices) if sum(a.mean_prices) > 0 else None,
        title=net_benefit_title(judged_rows(a.recommendation)),
        blended=not a.recommendation.prices.uniform,  # per-group prices: the mark is their average by cases
        **shipped_marks(a.recommendation),  # what the answer ships, as the page marks it
    ),
    "cost_curve": lambda a: cost_curve_figure(
        a.curves,
        markers_frame(a.recommendation),
        unit=a.unit,
        title=f"Cost per case against the cutoff ({judged_rows(a.recommendation).removeprefix('the ')})",
        cap=a.recommendation.capacity,
    ),
    "rule_bars": lambda a: rule_bars_figure(a.results.by_group, unit=a.unit),
    "capacity": lambda a: capacity_figure(a.price_of_capacity, volume=a.volume, unit=a.unit),
}


def _figure_names(audit) -> list[str]:
    return [n for n in _FIGURES if n != "capacity" or audit.price_of_capacity is not None]


def audit_figure(audit, name: str = "cost_curve") -> go.Figure:
    """One of the report's Plotly figures (`audit_figures` names them); ValueError for another name."""
    names = _figure_names(audit)
    if name not in names:
        why = " (the capacity chart needs a review limit)" if name == "capacity" else ""
        raise ValueError(f"name must be one of {names}: got {name!r}{why}")
    return _FIGURES[name](audit)


def audit_figures(audit) -> dict:
    """The report's Plotly figures, built from the audit's computed arrays: the sensitivity map,
    net benefit, the cost curve, the rules' bars and, under a review limit, its price."""
    return {name: _FIGURES[name](audit) for name in _figure_names(audit)}


def shipped_row(rec: D.Recommendation) -> int | None:
    """The row of the rules table that holds what the verdict ships (None when it is not there)."""
    rules = list(rec.results.overall.index)
    return rules.index(rec.shipped_rule) if rec.shipped_rule in rules else None


def _capacity_html(a, figure, figs: dict) -> str:
    """The review limit: the answer within it beside the best without it, and the price of capacity."""
    if a.unlimited is None:
        return "<p>No review limit was set: the answer is the best cutoff whatever it flags.</p>"
    return (
        paragraphs(list(a.capacity_sentences))
        + f"<p>{html_escape(capacity_words.PRICE_WHAT)}</p>"
        + figure(figs["capacity"])
    )


GROUPS_BY_COLUMN = (
    "The groups are the intersections of the columns {columns}; the first table compares them, and each column's "
    "table compares its groups alone, each gathering the intersections that hold it, against that column's largest."
)
"""What the disparity tables are, when several group columns are audited."""


def _groups_sentence(a) -> str:
    """`GROUPS_BY_COLUMN` for an audit of several group columns."""
    return GROUPS_BY_COLUMN.format(columns=", ".join(f"“{c}”" for c, _ in a.column_disparities))


def _fit_and_judged(a) -> str:
    """'fitted on the train rows, judged on the test rows', or 'fitted and judged on all rows'."""
    fit, judged = fitted_rows(a.recommendation), judged_rows(a.recommendation)
    return f"fitted and judged on {fit}" if fit == judged else f"fitted on {fit}, judged on {judged}"


def _prices_table(a) -> pd.DataFrame:
    m = money_cell(a.unit)
    rows = []
    for g, (c_fp, c_fn) in a.costs.items():
        formula = elkan_threshold(c_fp, c_fn) if c_fp + c_fn > 0 else float("nan")
        rows.append(
            {
                "group": str(g),
                "false positive costs": m(c_fp),
                "false negative costs": m(c_fn),
                R.rule_words(R.ELKAN): plain_number(formula),
            }
        )
    return pd.DataFrame(rows)


def _data_tables(a) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows, positives, their share and the mean score per split (`audit.data_summary`); with weights,
    the cases by weight beside the rows, and the positives and their share by weight (as the Data page)."""

    def fmt(frame: pd.DataFrame) -> pd.DataFrame:
        by = " by weight" if (weighted := "cases_by_weight" in frame) else ""
        return pd.DataFrame(
            {
                **({"group": frame["group"].astype(str)} if "group" in frame else {}),
                "cases": [count_cell(x) for x in frame["n"]],
                **({"cases by weight": [count_cell(x) for x in frame["cases_by_weight"]]} if weighted else {}),
                f"positives{by}": [count_cell(x) for x in frame["positives"]],
                f"positive share{' (by weight)' if weighted else ''}": [share_cell(x) for x in frame["positive_share"]],
                "mean score": [plain_number(x) for x in frame["mean_score"]],
            }
        )

    by_group = a.data_summary
    overall = a.data_overall.reset_index()
    g = fmt(by_group)
    g.insert(0, "rows", by_group["split"].to_numpy())
    o = fmt(overall)
    o.insert(0, "rows", overall["split"].to_numpy())
    return g, o


def _fairness_tables_text(a) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The constrained rules' summary and their cutoffs and rates group by group, each figure on the
    rows the cutoffs are fitted on and on the rows they are judged on, named as `tables.FAIR_ROWS`
    names them ("train" and "test" only with a split)."""
    s = a.fairness_summary
    fit, judged = _fair_rows(s)
    over = {"summary": s, "results": a.results, "unit": a.unit, "capacity": a.recommendation.capacity}
    summary = pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in s["rule"]],
            "rate made equal": s["rate"],
            "feasible": feasible_cells(s),
            f"largest gap ({fit})": [share_cell(x) for x in s["spread_train"]],
            f"largest gap ({judged})": [share_cell(x) for x in s["spread_test"]],
            f"within tolerance ({judged})": within_cells(s),
            f"price per case ({fit})": fair_prices(prices=s["price_per_case_train"], **over),
            f"price per case ({judged})": fair_prices(prices=s["price_per_case_test"], **over),
        }
    )
    f = a.fairness
    long = pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in f["rule"]],  # as the table above names it: the criterion is not enough
            "group": f["group"].astype(str),
            "cutoff": [
                cutoff_cell(x, g, a.recommendation.lowest) for x, g in zip(f["threshold"], f["group"], strict=True)
            ],
            f"rate ({fit})": [share_cell(x) for x in f["rate_train"]],
            f"rate ({judged})": [share_cell(x) for x in f["rate_test"]],
        }
    )
    return summary, long


GROUP_RATES_OF = {
    True: " of what is recommended ({rule})",
    False: " of the model's best rule ({rule}), not what is recommended",
}
"""After the page's "Rates per group" (`COSTS_WORDS`), by whether the verdict ships the model:
the table holds the rates of the model's best rule (`Audit.group_rates`) either way."""
NO_MODEL_ALIKE = (
    "What is recommended, {rule}, does not use the model: {how}, so the groups' error rates are the same{when}, "
    "but a group's cost per case still depends on its share of positive cases and its prices."
)
"""Under the rates of the model's best rule, when the verdict keeps the choice without a model: the
same decision for every case makes the groups' error rates equal, not their costs (the disparities
below, of the model's best rule, differ and may fail). `NO_MODEL_HOW` says the decision."""
NO_MODEL_HOW = {
    R.EVERYONE: (
        "every case is flagged (every positive case is caught and every negative case is a false alarm)",
        "",
    ),
    R.NOBODY: ("no case is flagged (every positive case is missed and there is no false alarm)", ""),
    R.AT_RANDOM: ("every case has the same chance of being flagged, whatever its group", " on average"),
}
"""(how every case is decided, when the error rates are equal) of each no-model choice, in `NO_MODEL_ALIKE`."""


def no_model_alike(rule: str) -> str:
    """`NO_MODEL_ALIKE` for the no-model choice `rule` (`rules.NOBODY`, `EVERYONE` or `AT_RANDOM`)."""
    how, when = NO_MODEL_HOW[rule]
    return NO_MODEL_ALIKE.format(rule=R.rule_words(rule), how=how, when=when)


def _group_rates_heading(rec) -> str:
    """The heading and the words over the rates per group (`Audit.group_rates`, the rates of the
    model's best rule `rec.rule`): what is recommended when the verdict ships the model, else the
    model's best rule, not what is recommended (`NO_MODEL_ALIKE` names what is). The words are the
    page's (`costs_labels.GROUP_RATES_WHAT`)."""
    heading = COSTS_WORDS["group_rates"] + GROUP_RATES_OF[rec.ship_model].format(rule=R.rule_words(rec.rule))
    words = [GROUP_RATES_WHAT.strip()]
    if not rec.ship_model:
        words.append(no_model_alike(rec.shipped_rule))
    return f"<h3>{html_escape(heading)}</h3>" + paragraphs([" ".join(words)])


DISPARITIES_OF_BEST = (
    "Like the rates above, these are the disparities of the model's best rule ({rule}), not of what is "
    "recommended ({shipped})."
)
"""Over the disparities (`Audit.disparities`, of the model's best rule) when the verdict keeps the choice
without a model."""


def _disparities_of(rec) -> str:
    """`DISPARITIES_OF_BEST` as a paragraph when the verdict does not ship the model's rule, else ""."""
    if rec.ship_model:
        return ""
    return paragraphs([DISPARITIES_OF_BEST.format(rule=R.rule_words(rec.rule), shipped=R.rule_words(rec.shipped_rule))])


def audit_html(audit) -> str:
    """A self-contained HTML audit report: no network is needed to open it.

    Sections (element ids) ``REPORT_SECTIONS``; plotly.js is embedded once; every user string
    (group, column, model and file names, the unit) is HTML-escaped, in tables, sentences
    and charts alike.

    For a reader with assistive technology (WCAG 2.2 AA, checked with axe-core by
    tests/e2e/test_report_accessibility.py): the language is set, headings go down one level
    at a time, tables have column headers (and captions where no heading names them), and every
    chart has its sentence as its caption and its numbers folded under it (`HtmlFigures` with
    `report_charts.report_chart_text`). Printed (`CSS`'s ``@media print``), what only a screen
    needs is hidden, each chart is drawn again at the page's width (`PRINT_SCRIPT`) and tables
    and charts are kept whole on a page.
    """
    figure = HtmlFigures(text=report_chart_text)
    figs = audit_figures(audit)
    a = audit
    title = f"Cost audit: {a.model_name}" + (f" on {a.data_name}" if a.data_name else "")
    data_groups, data_overall = _data_tables(a)
    fair_summary, fair_long = _fairness_tables_text(a)
    sensitivity = a.sensitivity
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html_escape(title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{html_escape(title)}</h1>",
        f'<p class="meta">{html_escape(CREATED.format(created=a.created, version=a.version))}</p>',
        f'<p class="meta screen-only">{html_escape(SCREEN_NOTE)}</p>',
        # the answer first, then what it was judged on (the prices, the data), then the record
        '<section id="verdict"><h2>Recommendation</h2>',
        f'<p class="verdict{" useless" if a.model_is_useless else ""}">{html_escape(a.verdict.headline)}</p>',
        paragraphs(a.verdict.details),
        ("<h3>Why not another rule?</h3>" + paragraphs(a.verdict.asides)) if a.verdict.asides else "",
        "</section>",
        '<section id="capacity"><h2>Review limit</h2>',
        _capacity_html(a, figure, figs),
        "</section>",
        '<section id="prices"><h2>Prices</h2>',
        table_html(_prices_table(a), caption="What a false positive and a false negative cost, per group"),
        questions_html(a),
        "</section>",
        '<section id="data"><h2>Data</h2>',
        data_sentence(a.recommendation),
        table_html(data_groups, caption=data_caption(a.recommendation)),
        "<h3>All groups together</h3>",
        table_html(data_overall),
        (("<h3>Notes</h3>" + paragraphs(a.notes)) if a.notes else ""),
        "</section>",
        '<section id="settings"><h2>Settings and record</h2>',
        table_html(settings_table(a), caption="The settings of this audit"),
        "<h3>What was judged</h3>",
        table_html(record_table(a)),
        "</section>",
        '<section id="rules"><h2>Rules</h2>',
        f"<p>{html_escape(judged_sentence(a.recommendation))} "
        "All groups together, with 95% intervals; the saving is measured against the cheaper decision "
        "without a model.</p>",
        table_html(
            rules_overall_table(a.recommendation, a.unit),
            highlight=shipped_row(a.recommendation),
            caption="Every rule, all groups together",
        ),
        "<h3>By group</h3>",
        table_html(
            rules_by_group_table(a.results, a.unit, lowest=a.recommendation.lowest),
            caption=CROSS_FIT_MEAN_WORDS if a.results.estimate == H.CROSS_FITTED else None,
        ),
        "</section>",
        '<section id="fairness"><h2>Fairness-constrained cutoffs</h2>',
        (
            _group_rates_heading(a.recommendation) + table_html(group_rates_table(*a.group_rates, MIN_CLASS_ROWS))
            if a.group_rates
            else ""
        ),
        (
            "<h3>Disparities against a reference group</h3>"
            + paragraphs([DISPARITY_WORDS])
            + _disparities_of(a.recommendation)
            + (f"<p>{html_escape(_groups_sentence(a))}</p>" if a.column_disparities else "")
            + "".join(table_html(table, caption=caption) for caption, table in disparity_tables(a))
            if a.disparities is not None
            else ""
        ),
        "<h3>Constrained rules</h3>",
        f"<p>Each constrained rule is the cheapest set of per-group cutoffs on the rows it is fitted on that keeps "
        f"every group's rate within {tolerance_points(a.fairness_tolerance)} of every other's (points of the rate, as "
        "the table's columns write it). Its price is what it costs beyond the best cutoff per group; on rows it was "
        "not fitted on the rates may drift apart again."
        + html_escape(_without_limit(a, capacity_words.FAIR_WITHOUT_LIMIT))
        + "</p>",
        table_html(fair_summary, caption="Each constrained rule")
        + (paragraphs([NOT_SEARCHED_HELP]) if set(fair_summary["feasible"]) & set(NOT_SEARCHED.values()) else "")
        if len(fair_summary)
        else "<p>No fairness criterion applies (one group, or none chosen).</p>",
        table_html(fair_long, caption="Each constrained rule's cutoff and rates, group by group")
        if len(fair_long)
        else "",
        "</section>",
        '<section id="sensitivity"><h2>Sensitivity to the prices</h2>',
        paragraphs([capacity_words.WITHOUT_LIMIT_NOTE] if a.recommendation.capacity is not None else []),
        f"<p>{html_escape(sensitivity)}</p>",
        f"<p>The map uses one price pair for everyone (each model at its best single cutoff {_fit_and_judged(a)}) "
        "and shows which option is cheapest at each pair.</p>",
        figure(figs["sensitivity"]),
        # inside the section, as on the page: the caveat above is about both charts
        '<section id="net-benefit"><h3>Net benefit</h3>',
        paragraphs([NET_BENEFIT_WORDS.format(rows=judged_rows(a.recommendation))]),
        _technical_note(NET_BENEFIT_NOTE),
        (
            figure(figs["net_benefit"])
            if len(a.maps.net_benefit)
            else "<p>Not shown: the scores are not probabilities.</p>"
        ),
        "</section>",
        "</section>",
        '<section id="charts"><h2>Charts</h2>',
        figure(figs["cost_curve"]),
        figure(figs["rule_bars"]),
        "</section>",
        '<section id="limitations"><h2>Limitations</h2>',
        paragraphs(_limitations(a.recommendation)),
        _technical_note(LIMITATIONS_NOTE),
        "</section>",
        '<section id="review"><h2>Review</h2>',
        review_html(),
        "</section>",
        "</main>",
        PRINT_SCRIPT,
        "</body></html>",
    ]
    return "\n".join(parts)
