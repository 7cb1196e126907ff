"""The rules and fairness tables as a person reads them, shared by the Costs page, the audit
report and the command line.

Each table is a DataFrame of text cells (money in the user's unit, shares in percent, "–"
where there is nothing to show); `rules_numbers` is the same rules table as plain numbers,
for a spreadsheet. The one-cell formatters (`cutoff_cell`, `money_cell`, `share_cell`,
`count_cell`, `within_cells`) are public so that the report's own tables write cells the
same way.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.binary.fair_search import GROUP_WITHOUT_RATE, TOO_MANY_PAIRS
from costlib.binary.fair_tightened import tolerance_points
from costlib.binary.judged_rules import RuleResults
from costlib.core import rules as R
from costlib.present.amounts import column_digits, money, money_digits, number, percent, percent_between, shown_saving
from costlib.present.disparity_table import count_text, rate_with_interval
from costlib.present.words import cutoffs_short


def cutoff_cell(t: float, group=None, lowest: dict | None = None) -> str:
    """One group's cutoff as the other tables write it (`words.cutoffs_short`), with "none
    (infeasible)" where no cutoff meets a constraint."""
    if t is None or math.isnan(t):
        return "none (infeasible)"
    return cutoffs_short({group: float(t)}, grouped=False, lowest=lowest)


def money_cell(unit: str):
    """A formatter of money cells in `unit`: '$0.53', '−$0.02', or '–' where there is no amount
    (its second argument: the decimals, as `money`'s)."""
    return lambda x, digits=None: "–" if x is None or not np.isfinite(x) else money(float(x), unit, digits=digits)


def share_cell(x) -> str:
    """A share as a cell: '35.6%', or '–' where there is no share."""
    return "–" if x is None or not np.isfinite(x) else percent(x)


def count_cell(x, *, averaged: bool = False) -> str:
    """A count as a cell (`disparity_table.count_text`): '1,234', a weighted count with up to two
    decimals ('4.75'), an `averaged` one (over the cross-fit) with one ('59.4'), or '–'."""
    return count_text(x, averaged=averaged)


def _expected(x, rule: str, averaged: bool = False) -> str:
    """A count as a cell (`averaged`: over the cross-fit); flagging at random has expected counts:
    'about 151'."""
    if rule == R.AT_RANDOM and x is not None and np.isfinite(x):
        return "about " + number(round(float(x)), 0)
    return count_cell(x, averaged=averaged)


CROSS_FIT_MEAN = "{count} (mean)"
"""The header of a count column whose counts are cross-fitted (no split): each fitted rule's count
is the mean over the ways of dealing the rows into parts, so it need not be whole ('59.4'); short,
so that the table by group fits the page at 1400 px (the report's caption, `CROSS_FIT_MEAN_WORDS`,
says over what)."""
CROSS_FIT_MEAN_WORDS = (
    "Each rule in each group. No rows are set aside for testing, so the fitted rules' false positives and false "
    "negatives are cross-fitted: each a mean over the ways of dealing the rows into parts, which need not be whole."
)
"""The caption of the table by group in the report when its counts are cross-fitted (`CROSS_FIT_MEAN`)."""


def _interval_cell(lo, hi, fmt) -> str:
    return "–" if not (np.isfinite(lo) and np.isfinite(hi)) else f"{fmt(lo)} to {fmt(hi)}"


def rules_overall_table(rec: D.Recommendation, unit: str = "") -> pd.DataFrame:
    """The rules, all groups together, as a person reads them (page, report and command line):
    each rule's cutoff, the recommended one marked. A rule over the review limit is marked so,
    and its saving is "–": its cost is what it would cost if it could be carried out, but no
    saving can be had from it within the limit (review57: a reader took the largest saving,
    of a rule over the limit, for one on offer)."""
    results = rec.results
    o = results.overall
    m = money_cell(unit)
    base = R.rule_words(results.baseline)
    over = [_over_the_limit(o, r, rec.capacity) for r in o.index]
    # each saving at the decimals the headline reads it at (`amounts.shown_saving`: no more than its
    # interval's width warrants, never half as much again as it is): a last read found the best
    # cutoff's "$0.00" here beside the headline's "$0.002 per case more" (COMPAS at $3 / $10)
    said = [
        shown_saving(c - v, c, -b, -a) if np.isfinite(v) else (None, None)
        for c, v, a, b in zip(o["cost_per_case"], o["vs_baseline"], o["vs_low"], o["vs_high"], strict=True)
    ]
    # one column, one precision: every saving at the finest decimals any row's needs (`column_digits`), so
    # that the column reads evenly, not "$0.11" above "$0.004"
    d = column_digits((), digits=[x for x, _ in said])
    apart = [d] * len(said)
    # a saving at its own decimals is the difference of the two costs as shown (`shown_saving`), not the saving
    # rounded on its own; the model's best rule reads the headline's own figure, at its decimals (a first read
    # found "$0.358" in the row the headline said "saves $0.357 per case" of: Screening, $1 / $3)
    savings = [-v if x != d else s for v, (x, s) in zip(o["vs_baseline"], said, strict=True)]
    said_at, saving = _headline_saving(rec) if np.isfinite(rec.cost) else (None, None)
    if rec.rule in o.index and said_at == d:  # finer where another row needs it: one column, one precision
        savings[list(o.index).index(rec.rule)] = saving
    return pd.DataFrame(
        {
            "rule": [
                R.rule_words(r)
                + (" (recommended)" if r == rec.shipped_rule else "")
                + (" (over your review limit)" if x else "")
                for r, x in zip(o.index, over, strict=True)
            ],
            "cutoff": [
                f"a random {percent(rec.capacity)}"
                if r == R.AT_RANDOM
                else _one_or_per_group(results.cutoffs[r], rec.lowest)
                for r in o.index
            ],
            "flagged": [share_cell(x) for x in o["flagged_rate"]],
            **_cost_columns(o, m),
            # a saving and its interval beside it at one number of decimals (`apart`, above)
            f"saving against {base}": ["–" if x else m(v, d) for v, d, x in zip(savings, apart, over, strict=True)],
            "95% interval of the saving": [
                "–" if x else _interval_cell(-b, -a, lambda y, d=d: m(y, d))
                for a, b, d, x in zip(o["vs_low"], o["vs_high"], apart, over, strict=True)
            ],
        }
    )


def _headline_saving(rec: D.Recommendation) -> tuple[int, float]:
    """(decimals, saving) of the model's best rule as the answer's headline says them
    (`words.recommendation_verdict`): `amounts.shown_saving` of its cost against the choice without a model,
    cut to the saving's interval, so that the rules table reads the same figure."""
    return shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)


def rules_overall_columns(results: RuleResults) -> dict:
    """The dashboard's headers of `rules_overall_table` (a Streamlit ``column_config`` as plain
    dicts): the long headers shortened, what they leave out in the column's help, so that the
    table fits the page without scrolling sideways."""
    base = R.rule_words(results.baseline)
    return {
        "cutoff": {"help": f"“{PER_GROUP}”: each group's cutoff is in the table by group."},
        f"saving against {base}": {
            "label": "saving",
            "help": f"What the rule saves per case against {base}; “–” for a rule over your review limit, "
            "which your team could not carry out.",
        },
        "95% interval of the saving": {"label": "saving's 95% interval"},
    }


def rules_numbers(results: RuleResults, *, by_group: bool = False) -> pd.DataFrame:
    """The rules tables as numbers, for a spreadsheet: the rule in words beside its id, costs in
    the user's unit per case (savings positive), no currency signs or rounding."""
    if by_group:
        t = results.by_group.copy()
        t.insert(0, "rule_words", [R.rule_words(r) for r in t["rule"]])
        return t.rename(columns={"low": "cost_low_95", "high": "cost_high_95"})
    o = results.overall
    return pd.DataFrame(
        {
            "rule_words": [R.rule_words(r) for r in o.index],
            "rule": list(o.index),
            "n": o["n"].to_numpy(),
            "flagged_rate": o["flagged_rate"].to_numpy(),
            "false_positives": o["fp"].to_numpy(),
            "false_negatives": o["fn"].to_numpy(),
            "cost_per_case": o["cost_per_case"].to_numpy(),
            "cost_low_95": o["low"].to_numpy(),
            "cost_high_95": o["high"].to_numpy(),
            f"saving_per_case_vs_{results.baseline}": -o["vs_baseline"].to_numpy(),
            "saving_low_95": -o["vs_high"].to_numpy(),
            "saving_high_95": -o["vs_low"].to_numpy(),
        }
    )


def rules_by_group_table(results: RuleResults, unit: str = "", *, lowest: dict | None = None) -> pd.DataFrame:
    """Each rule's cutoff and cost in each group (report and page). `lowest` is
    `Recommendation.lowest`: a cutoff at or below a group's lowest fitted score reads "everyone",
    as in the overall table. Cross-fitted (no split), the counts of mistakes are means over the
    deals: their headers say so (`CROSS_FIT_MEAN`) and they keep one decimal when not whole."""
    t = results.by_group
    m = money_cell(unit)
    crossed = results.estimate == H.CROSS_FITTED  # the fitted rules' counts are means over the deals

    def counts(name: str) -> str:
        return CROSS_FIT_MEAN.format(count=name) if crossed else name

    return pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in t["rule"]],
            "group": t["group"].astype(str),
            "cutoff": [
                "at random" if r == R.AT_RANDOM else cutoff_cell(x, g, lowest)
                for r, x, g in zip(t["rule"], t["threshold"], t["group"], strict=True)
            ],
            "cases": [count_cell(x) for x in t["n"]],
            "flagged": [share_cell(x) for x in t["flagged_rate"]],
            counts("false positives"): [_expected(x, r, crossed) for x, r in zip(t["fp"], t["rule"], strict=True)],
            counts("false negatives"): [_expected(x, r, crossed) for x, r in zip(t["fn"], t["rule"], strict=True)],
            **_cost_columns(t, m),
        }
    )


def _cost_columns(t: pd.DataFrame, m) -> dict:
    """The cost per case and its 95% interval of each row of `t`, both columns at one precision: the finest
    any row's cost needs (`amounts.column_digits`), so that "$1.37" does not stand above "$0.784"."""
    d = column_digits((), digits=[money_digits(x) for x in t["cost_per_case"] if x is not None and np.isfinite(x)])
    return {
        "cost per case": [m(x, d) for x in t["cost_per_case"]],
        "95% interval": [_interval_cell(a, b, lambda y: m(y, d)) for a, b in zip(t["low"], t["high"], strict=True)],
    }


FAIR_WITHIN_HELP = (
    "Yes only when the gap's 95% interval, on rows the cutoffs were not fitted on (the test rows, or each fold "
    "judged by cutoffs fitted on the others), stays within the tolerance; otherwise how large the gap may be "
    "(the interval's upper end)."
)
FAIR_NO_INTERVAL = "cannot say (no interval)"
FAIR_MAY_MISS = "no: may reach {high}"  # the gap's 95% interval's upper end, under a header "within 5%"
GAP_ON_TEST = "largest gap on test"
FAIR_ROWS = {H.TEST: ("train", "test"), H.CROSS_FITTED: ("fitting rows", "cross-fitted")}
"""How the fairness tables name, in their headers, the rows a constrained rule's cutoffs are fitted
on and the rows they are judged on, by how it was judged (the summary's ``estimate``): with a split
the train and test rows; without one all rows, the cutoffs as fitted on them, and cross-fitted (each
row judged by cutoffs fitted without it), never "train" and "test" (review: a file without a split
read "largest gap (test)")."""
FAIR_CROSS_FITTED_NOTE = (
    "The constrained rules' flagged share, cost, saving and largest gap are cross-fitted: each row is judged by "
    "the rule fitted without it (on the other parts of the rows), so they can differ from what the cutoffs "
    "shown, fitted on all rows, do on those rows."
)
FAIR_DRIFT_NOTE = (
    "“{rule}”: the cutoffs shown flag {on_all} of the cases on all rows, but fitted without each part of the "
    "rows it flags {cross}{who}; its numbers are those of the rule refitted, not of these cutoffs."
)
FAIR_NEARLY = {"everyone": " (nearly everyone)", "nobody": " (nearly nobody)"}


def fair_cross_fitted_notes(crossed: bool, drifted: list) -> list[str]:
    """The notes under an audit's constrained rules when their numbers are cross-fitted
    (`fairness.cross_fitted_drift`: `crossed`, and the rules whose flagged share on all rows and
    cross-fitted differ, `drifted`): that they are (`FAIR_CROSS_FITTED_NOTE`), and, by name, each
    rule whose refitted cutoffs flag another share than those shown (`FAIR_DRIFT_NOTE`)."""
    if not crossed:
        return []
    notes = [FAIR_CROSS_FITTED_NOTE]
    for rule, on_all, cross in drifted:
        # "nearly" only short of all or none, beside a share that does not read as all or none ('99.96%')
        who = FAIR_NEARLY["everyone"] if 0.99 <= cross < 1 else FAIR_NEARLY["nobody"] if 0 < cross <= 0.01 else ""
        on_all, cross = percent_between(on_all), percent_between(cross)
        notes.append(FAIR_DRIFT_NOTE.format(rule=R.rule_words(rule), on_all=on_all, cross=cross, who=who))
    return notes


FAIR_ROWS_HELD = ("fitting rows", "judged rows")  # cutoffs held where judged (``estimate`` "cutoffs held")


def _fair_rows(summary: pd.DataFrame) -> tuple[str, str]:
    """(fitted, judged): the words of `FAIR_ROWS` for a fairness summary (`fairness.fairness_tables`),
    for the report's headers "largest gap (fitting rows)", "rate (cross-fitted)"."""
    estimates = set(summary["estimate"]) if "estimate" in summary else set()
    for estimate in (H.TEST, H.CROSS_FITTED):
        if estimate in estimates:
            return FAIR_ROWS[estimate]
    return FAIR_ROWS_HELD


def fairness_overview_columns(tolerance: float) -> dict:
    """The dashboard's headers of `fairness_overview_table`, as `rules_overall_columns`."""
    return {
        GAP_ON_TEST: {
            "label": "largest gap",  # between groups, as its help says: the full words clipped the cutoffs column
            "help": "The largest gap between groups in the rate the rule equalises, on rows its cutoffs were not "
            "fitted on, with its 95% interval (which repeats the fit on every resample).",
        },
        _within(tolerance): {"label": f"within {tolerance_points(tolerance)}", "help": FAIR_WITHIN_HELP},
        "price of fairness per case": {
            "label": "price of fairness",
            "help": "Per case, beyond the best cutoff per group, on rows the cutoffs were not fitted on. "
            f"“{OVER_THE_LIMIT}”: the rule flags more cases than your team can review, so it has no price "
            "within your limit.",
        },
        "cutoffs": {"help": f"“{PER_GROUP}”: each group's cutoff is in the table below. {NOT_SEARCHED_HELP}"},
    }


def _within(tolerance: float) -> str:
    return f"within {tolerance_points(tolerance)} on test"  # as the rules' names write a tolerance


def within_cells(summary: pd.DataFrame) -> list[str]:
    """Per fairness rule: "yes" when the 95% interval of its judged gap stays within the
    tolerance (``within_tolerance_on_test``), else how large the gap may be (`FAIR_MAY_MISS`:
    the interval's upper end, the same figure as the gap column's "to"; not the points above
    the tolerance, which a reader took for the gap itself), or `FAIR_NO_INTERVAL`; "–" where
    the judged gap cannot be measured (a group without the cases the rate needs) or no cutoffs
    meet the constraint."""
    high = summary.get("spread_test_high", summary["spread_test"] * np.nan)
    out = []
    for w, f, gap, h in zip(
        summary["within_tolerance_on_test"], summary["feasible"], summary["spread_test"], high, strict=True
    ):
        if not (f and np.isfinite(gap)):
            out.append("–")
        elif w:
            out.append("yes")
        elif np.isfinite(h):
            out.append(FAIR_MAY_MISS.format(high=share_cell(h)))
        else:
            out.append(FAIR_NO_INTERVAL)
    return out


def fairness_overview_table(
    summary: pd.DataFrame,
    results: RuleResults,
    unit: str = "",
    *,
    tolerance: float,
    lowest: dict | None = None,
    capacity: float | None = None,
) -> pd.DataFrame:
    """The fairness rules as the Costs page shows them: the gap on rows the cutoffs were not
    fitted on with its 95% interval, whether it stays within the tolerance, the price of fairness
    (`OVER_THE_LIMIT` instead when the rule flags more than a review limit `capacity`: the rules
    are fitted without it, and a price beside the best rule within it read as fairness saving
    money) and (last: the widest) the cutoffs. The gap on the fitting rows and each rule's cost
    are in the CSV (`fairness_tables`' summary): the page has room for five columns."""
    return pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in summary["rule"]],
            GAP_ON_TEST: [
                rate_with_interval(b, lo, hi)
                for b, lo, hi in zip(
                    summary["spread_test"],
                    summary.get("spread_test_low", summary["spread_test"] * np.nan),
                    summary.get("spread_test_high", summary["spread_test"] * np.nan),
                    strict=True,
                )
            ],
            _within(tolerance): within_cells(summary),
            "price of fairness per case": fair_prices(summary, results, summary["price_per_case_test"], unit, capacity),
            "cutoffs": [
                (
                    FAIR_RANDOMISED
                    if r not in results.cutoffs
                    else _trivially(_one_or_per_group(results.cutoffs[r], lowest), t)
                )
                if f
                else NOT_SEARCHED.get(why, NO_CUTOFFS)
                for r, f, t, why in zip(
                    summary["rule"],
                    summary["feasible"],
                    summary["trivially_equal"],
                    _not_searched(summary),
                    strict=True,
                )
            ],
        }
    )


NO_CUTOFFS = "no cutoffs meet it"  # a fairness rule's cutoffs cell when the search found none
NOT_SEARCHED = {  # ... when the search was not run (`fair_search.FairCutoffs.not_searched`): not "no cutoffs meet it"
    TOO_MANY_PAIRS: "not searched: too many scores",  # short: the page's column has room for about 30 characters
    GROUP_WITHOUT_RATE: "not searched: a rate is missing",
}
NOT_SEARCHED_HELP = (
    f"“{NOT_SEARCHED[TOO_MANY_PAIRS]}”: equalized odds is searched exactly over every pair of rate windows, and "
    "these scores have so many distinct values that the pairs are too many to search: round or bin the scores. "
    f"“{NOT_SEARCHED[GROUP_WITHOUT_RATE]}”: a group has none of the cases the rate is a share of (no positives, or "
    "no negatives), so there is nothing to equalise."
)


def _not_searched(summary: pd.DataFrame) -> list:
    """Per fairness rule, why its cutoffs were not searched for ("" when they were; a summary
    without the column is one of rules all searched)."""
    return list(summary["not_searched"]) if "not_searched" in summary else [""] * len(summary)


def feasible_cells(summary: pd.DataFrame) -> list[str]:
    """Per fairness rule, whether cutoffs meet it, as the report's "feasible" column says it: "yes",
    "no" (the search found none), or the page's words for a search that was not run (`NOT_SEARCHED`:
    "not searched: too many scores" is not a "no")."""
    return [
        "yes" if f else NOT_SEARCHED.get(why, "no")
        for f, why in zip(summary["feasible"], _not_searched(summary), strict=True)
    ]


PER_GROUP = "one per group"  # a rule's cutoff cell when the groups' cutoffs differ
OVER_THE_LIMIT = "over the limit"  # a fairness rule's price when it flags more than the review limit
#: a randomised rule's cutoff cell (`fair_random`): a band per group, flagged at a probability
FAIR_RANDOMISED = "randomised bands, by case id"


def _one_or_per_group(cutoffs: dict, lowest: dict | None = None) -> str:
    """A rule's cutoffs in one short cell: the cutoff when every group shares it, else
    `PER_GROUP` (a list of groups does not fit a cell; the table by group lists them, and the
    page's column help says so)."""
    shown = cutoffs_short(cutoffs, grouped=True, lowest=lowest)
    return shown if " · " not in shown else PER_GROUP


def _over_the_limit(overall: pd.DataFrame, rule: str, capacity: float | None) -> bool:
    """Whether `rule` is judged (a row of `overall`) and flags more than the review limit
    `capacity` allows (`decision.over_capacity`). A randomised fairness rule is not a row:
    the share it flags is not judged, so it is not called over."""
    return rule in overall.index and D.over_capacity(overall, rule, capacity)


def fair_prices(summary: pd.DataFrame, results: RuleResults, prices, unit: str, capacity: float | None) -> list[str]:
    """The fairness rules' prices as cells (`prices`: a column of `summary`, e.g.
    ``price_per_case_test``), `OVER_THE_LIMIT` for a rule over the review limit `capacity`:
    its price is measured beside the best rule within the limit, which it is not one of (page
    and report)."""
    m = money_cell(unit)
    return [
        OVER_THE_LIMIT if _over_the_limit(results.overall, r, capacity) else m(x)
        for r, x in zip(summary["rule"], prices, strict=True)
    ]


def _trivially(cell: str, marked: str) -> str:
    """A rule that flags everyone (or nobody) in every group equalises the rate of its criterion by
    doing nothing (its gap is 0): say so. `marked` is the summary's `trivially_equal` ("everyone",
    "nobody" or ""), decided once by `fairness.fairness_tables` on the fitting and judged rows."""
    return f"{marked} (trivially equal)" if marked else cell


EVERY_GROUP = "every group"  # the group cell of a fairness rule without cutoffs, in `fairness_cutoffs_table`


def fairness_cutoffs_table(summary: pd.DataFrame, results: RuleResults, *, lowest: dict | None = None) -> pd.DataFrame:
    """Each fairness rule's cutoff in each group: a row per rule and group, each rule's groups
    together (a column per group was cut off at 1400 px with six race × sex groups, "Other ×
    Female" among them, and a column per rule with the rules fitted tighter beside the stated
    ones); a rule whose search found no cutoffs, or was not run, is one row, "–" for
    `EVERY_GROUP` (the table above says why)."""
    rows = []
    for rule, feasible in zip(summary["rule"], summary["feasible"], strict=True):
        if rule not in results.cutoffs:  # randomised: its bands are in the long table (`fairness_tables`)
            continue
        name, cut = R.rule_words(rule), results.cutoffs[rule]
        if not feasible:
            rows.append({"rule": name, "group": EVERY_GROUP, "cutoff": "–"})
            continue
        rows += [{"rule": name, "group": str(g), "cutoff": cutoff_cell(t, g, lowest)} for g, t in cut.items()]
    return pd.DataFrame(rows, columns=["rule", "group", "cutoff"])


def small_group_note() -> str:
    """The rates table's note beside a group with fewer than `group_rates_table`'s `minimum`
    positives or negatives on the rows the cutoffs are fitted on: its rates are a guess, as the
    words over the table say ("read its rates as a guess"). Short, and without the count: it is a
    cell of a table of eight columns that must fit the page at 1400 px ("fewer than 20 positives
    or negatives: a guess" took 279 px and pushed the table past it, clipped at "fewer than 20
    p…"); the column's help (`group_rates_columns`) says how few and on which rows.

    >>> small_group_note()
    'a guess'
    """
    return "a guess"


def group_rates_columns(minimum: int) -> dict:
    """The dashboard's headers of `group_rates_table`: the note's column says which rows."""
    return {
        "note": {
            "help": f"A group with fewer than {minimum} positives or negatives on the rows the cutoffs are fitted "
            "on: its rates are a guess."
        }
    }


def group_rates_table(by_group: pd.DataFrame, gaps: pd.DataFrame, minimum: int) -> pd.DataFrame:
    """Per-group rates of one rule with 95% intervals (`fairness.group_rates`), beside the cases,
    positives and negatives they are counted on (a true positive rate is a share of the positives,
    a false positive rate of the negatives), the largest gap between the groups as the last row,
    and a note beside a group too small to read."""
    from costlib.binary.fairness import GROUP_RATES

    rows = []
    for d in by_group.to_dict("records"):
        rows.append(
            {
                "group": str(d["group"]),
                "cases": count_cell(d["n"]),
                "positives": count_cell(d["positives"]),
                "negatives": count_cell(d["negatives"]),
                **{rate: rate_with_interval(d[rate], d[f"{rate} low"], d[f"{rate} high"]) for rate in GROUP_RATES},
                "note": small_group_note() if d["small"] else "",
            }
        )
    gap = {g["rate"]: rate_with_interval(g["gap"], g["low"], g["high"]) for g in gaps.to_dict("records")}
    rows.append({"group": LARGEST_GAP, "cases": "", "positives": "", "negatives": "", **gap, "note": ""})
    return pd.DataFrame(rows)


LARGEST_GAP = "largest gap between groups"


def group_rates_numbers(by_group: pd.DataFrame, gaps: pd.DataFrame) -> pd.DataFrame:
    """`group_rates_table` as numbers, for a spreadsheet (its download): each rate as a fraction
    with its 95% bounds, the counts it is made of, ``small`` where a group is too small to read,
    and the largest gap between the groups as the last row, its rates the gaps.

    >>> by = pd.DataFrame({"group": ["a"], "n": [3], "positives": [1], "negatives": [2], "small": [True],
    ...                    "flagged rate": [0.5], "flagged rate low": [0.2], "flagged rate high": [0.8]})
    >>> gaps = pd.DataFrame({"rate": ["flagged rate"], "gap": [0.1], "low": [0.0], "high": [0.3]})
    >>> group_rates_numbers(by, gaps)[["group", "flagged rate", "flagged rate high"]].to_dict("list")
    {'group': ['a', 'largest gap between groups'], 'flagged rate': [0.5, 0.1], 'flagged rate high': [0.8, 0.3]}
    """
    gap = {"group": LARGEST_GAP}
    for g in gaps.to_dict("records"):
        gap.update({g["rate"]: g["gap"], f"{g['rate']} low": g["low"], f"{g['rate']} high": g["high"]})
    groups = by_group.assign(group=[str(x) for x in by_group["group"]])
    return pd.concat([groups, pd.DataFrame([gap])], ignore_index=True)
