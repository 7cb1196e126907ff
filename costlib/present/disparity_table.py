"""The disparities of one rule against a reference group (`binary.disparity`) as a table a
person reads, with its caption: the same on the page, in the report and on the command line."""

from __future__ import annotations

import math

import pandas as pd

from costlib.binary.disparity import lines_crossed
from costlib.core import rules as R
from costlib.core.escaping import shorten
from costlib.present.amounts import beside_interval, money, number, percent


def threshold_words(threshold: float) -> str:
    """The stated threshold by name: 'the four-fifths rule' at 0.8, else the range a ratio passes in.

    >>> threshold_words(0.8), threshold_words(0.9)
    ('the four-fifths rule', 'the disparity range 0.9 to 1.11')
    """
    if abs(threshold - 0.8) < 1e-12:
        return "the four-fifths rule"
    return f"the disparity range {threshold:.3g} to {1 / threshold:.3g}"


def ratio_shown(ratio: float, threshold: float, first: str | None = None) -> str:
    """A disparity ratio as shown (table and headline): `first` (default: 3 significant digits),
    unless that would put it on a line of the pass range [threshold, 1 / threshold] it is not on
    (as the line is written, or by its value): then the fewest significant digits that keep it
    off. A ratio exactly on a line (`disparity.ratio_passes`'s tolerance) is shown as the line.

    >>> ratio_shown(1.2547, 0.8), ratio_shown(0.80035, 0.8), ratio_shown(0.79996, 0.8)
    ('1.255', '0.8004', '0.79996')
    >>> ratio_shown(1.25, 0.8), ratio_shown(0.8, 0.8, "0.80"), ratio_shown(0.8049, 0.8, "0.80"), ratio_shown(3.72, 0.8)
    ('1.25', '0.80', '0.805', '3.72')
    """
    ratio = float(ratio)
    text = f"{ratio:.3g}" if first is None else first
    lines = [line for line in (threshold, 1 / threshold) if abs(ratio - line) > 1e-12 * line]  # not on it
    digits = 2  # the next tried: 3 significant digits
    while digits < 17 and any(_onto(text, ratio, line) for line in lines):
        digits += 1
        text = f"{ratio:.{digits}g}"
    return text


def ratio_with_interval(ratio: float, low: float, high: float, threshold: float) -> str:
    """A disparity ratio and its 95% interval, its ends at the ratio's decimals as shown
    (`ratio_shown`; more only where an end would read as the ratio, `amounts.beside_interval`),
    each end kept off a line of the pass range it is not on, as the ratio is: '1.28 (1.20 to
    1.38)', not '1.28 (1.2 to 1.38)'. The ratio alone without a finite interval.

    >>> ratio_with_interval(1.2813, 1.2, 1.3817, 0.8), ratio_with_interval(0.81, 0.79996, 0.9, 0.8)
    ('1.28 (1.20 to 1.38)', '0.810 (0.79996 to 0.900)')
    >>> ratio_with_interval(37.21, 12.3456, 80.04, 0.8), ratio_with_interval(1.5, float("nan"), 2.0, 0.8)
    ('37.2 (12.3 to 80.0)', '1.50')
    """
    text = ratio_shown(ratio, threshold, f"{float(ratio):#.3g}".rstrip("."))  # 3 digits, "1.20" not "1.2"
    if not (_finite(low) and _finite(high)):
        return text
    _, dot, tail = text.partition(".")
    # the ratio keeps its three digits, so its ends are never cut below them (`by_width` would: '0.689 (0.64 to 0.74)')
    digits = beside_interval(float(ratio), float(low), float(high), digits=len(tail) if dot else 0, by_width=False)

    def end(x: float) -> str:
        lines = [line for line in (threshold, 1 / threshold) if abs(x - line) > 1e-12 * line]
        d, shown = digits, f"{x:.{digits}f}"
        while d < 17 and any(_onto(shown, x, line) for line in lines):
            d += 1
            shown = f"{x:.{d}f}"
        return shown

    return f"{text} ({end(float(low))} to {end(float(high))})"


def _onto(text: str, ratio: float, line: float) -> bool:
    """Whether `text`, shown for `ratio` (not on `line`), reads as on the line or past it."""
    shown = float(text.replace(",", ""))
    return text == f"{line:.3g}" or shown == line or (shown < line) != (ratio < line)


def _finite(x) -> bool:
    return x is not None and math.isfinite(float(x))


def share_text(x: float, digits: int | None = None) -> str:
    """A share (a rate, or a difference of two) in percent with `digits` decimals (default 1): a
    negative one with the minus sign (U+2212), so that a spreadsheet does not read a formula, and
    one that rounds to 0 without a sign ('0.0%', never '−0.0%').

    >>> share_text(0.214), share_text(-0.0312, 2), share_text(-0.0004), share_text(-1e-18, 2)
    ('21.4%', '−3.12%', '0.0%', '0.00%')
    """
    d = 1 if digits is None else digits
    text = percent(float(x), d)
    if float(text.rstrip("%")) == 0:
        text = percent(0.0, d)
    return text.replace("-", "\u2212")


def rate_with_interval(x, low, high) -> str:
    """A rate and its 95% interval as every table of rates writes it (`share_text`): the rates per
    group and the fairness rules' largest gap (`tables`), Watch's groups (`watch_tables`). The rate
    alone when the interval is none or reads as the rate itself ("100.0% (100.0% to 100.0%)" says no
    more and widened the rates per group past the page); '–' without a rate.

    >>> rate_with_interval(0.123, 0.101, 0.145), rate_with_interval(0.0, 0.0, 0.369)
    ('12.3% (10.1% to 14.5%)', '0.0% (0.0% to 36.9%)')
    >>> rate_with_interval(1.0, 1.0, 1.0), rate_with_interval(0.2, float("nan"), 0.3), rate_with_interval(None, 0, 1)
    ('100.0%', '20.0%', '–')
    """
    if not _finite(x):
        return "–"
    cell = share_text(x)
    if not (_finite(low) and _finite(high)):
        return cell
    low, high = share_text(low), share_text(high)
    return cell if low == high == cell else f"{cell} ({low} to {high})"


def value_shown(metric: str, unit: str = ""):
    """How a value of `metric` is written, as `apart` takes it: ``shown(x, digits)``, money in
    `unit` for the cost per case (`amounts.money`, its own decimals when `digits` is None), else a
    share (`share_text`). The one writing of the headline's values and the disparities table's.

    >>> value_shown("cost per case", "$")(0.0159, None), value_shown("flagged rate")(0.000811, 2)
    ('$0.016', '0.08%')
    """
    if metric == "cost per case":
        return lambda x, digits: money(x, unit, digits=digits)
    return share_text


def apart_digits(first: float, second: float, shown_as) -> int | None:
    """The decimals `apart` writes two values with: None (`shown_as`'s own) when they read apart
    there, are equal or one is not finite; else the fewest from 2 on that tell them apart (at most 8).

    >>> apart_digits(0.000811, 0.001113, share_text), apart_digits(0.45, 0.214, share_text)
    (2, None)
    >>> apart_digits(-0.0003, 0.0, share_text)  # a difference of two rates, told from none
    2
    """
    if first == second or not (math.isfinite(first) and math.isfinite(second)):
        return None
    if shown_as(first, None) != shown_as(second, None):
        return None
    digits = 2
    while shown_as(first, digits) == shown_as(second, digits) and digits < 8:
        digits += 1
    return digits


def apart(first: float, second: float, shown_as) -> tuple[str, str]:
    """Two values as `shown_as(x, digits)` writes them, with the fewest decimals (from its own
    default on) that tell them apart when they differ (`apart_digits`): a failing disparity never
    sits beside two rates that read alike ('0.1% against 0.1%' is '0.08% against 0.11%'), nor
    does a row of the disparities table.

    >>> apart(0.000811, 0.001113, share_text)
    ('0.08%', '0.11%')
    >>> apart(0.45, 0.214, share_text)
    ('45.0%', '21.4%')
    """
    digits = apart_digits(first, second, shown_as)
    return shown_as(first, digits), shown_as(second, digits)


def _row_cells(r: dict, unit: str) -> tuple[str, str, str]:
    """(value, reference, difference with its interval) of one row of `disparity.Disparities.table`,
    as its metric is written (`value_shown`: money for cost per case, else a share,
    never '−0.0%'), '–' without one: the value and the reference's with the decimals that tell
    them apart when they differ, and the difference and its interval's ends with those that tell
    it from none, at least as many (`apart_digits`, the headline's)."""
    shown = value_shown(r["metric"], unit)
    pair = apart_digits(float(r["value"]), float(r["reference_value"]), shown)
    own = apart_digits(float(r["difference"]), 0.0, shown)
    digits = own if pair is None else pair if own is None else max(pair, own)

    def cell(x, d=pair) -> str:
        return shown(float(x), d) if _finite(x) else "–"

    diff = cell(r["difference"], digits)
    if not r["is_reference"] and _finite(r["difference_low"]) and _finite(r["difference_high"]):
        diff += f" ({cell(r['difference_low'], digits)} to {cell(r['difference_high'], digits)})"
    return cell(r["value"]), cell(r["reference_value"]), diff


PRICED_APART_WORDS = (
    "the prices differ by group, so cost per case compares mistakes priced differently: a “fails” there can come "
    "from the prices you set, not from how the model treats the groups"
)
"""Said in the disparities' caption when the price book differs by group (`Disparities.priced_apart`)."""
OUT_OF_HELP = (
    "The count a group's value is made of: its positives for the false negative rate, its negatives for the false "
    "positive rate, its cases for the flagged rate and the cost per case."
)
"""The page's help on the disparities' "out of" column; the caption says it too (`OUT_OF_WORDS`)."""
OUT_OF_WORDS = (
    "“out of”: a group's positives for the false negative rate, its negatives for the false positive rate, its cases "
    "for the flagged rate and the cost per case"
)
"""The disparities' caption on the "out of" column: its cells are bare counts, so that the table
fits the page at 1400 px."""
INTERVAL_WORDS = (
    "95% intervals from the same resamples as the costs, widened to what the group's own count allows, so that a "
    "small group with no mistakes does not read as certain to have none"
)
"""The disparities' caption on their intervals (`disparity.disparities`: each holds the group's own
counts' exact interval, `disparity_counts.own_intervals`), so that no group with no events reads
certain."""
WEIGHTED_WORDS = (
    "no intervals: the rows carry weights, which the resamples do not read, and a sum of weights is no count of "
    "cases to tell chance by, so no result here says whether it could be chance"
)
"""The disparities' caption on weighted rows (`disparity.Disparities.weighted`), instead of
`INTERVAL_WORDS` and `CHANCE_WORDS`: no result there reads "could be chance" or "too few cases"."""
DISPARITY_COLUMNS = {"out of": {"help": OUT_OF_HELP}}
"""The dashboard's headers of `disparity_table` (a Streamlit ``column_config`` as plain dicts)."""
BOTH_ZERO = "pass: both are 0"
"""The result cell of a group whose value and the reference group's are both 0: no ratio, no
difference, and nothing to fail (`disparity` says it at length in ``undefined``)."""


NO_MODEL_WORDS = (
    "“{rule}” flags {who} here, as the choice without a model does: these are the disparities of flagging {who}, "
    "not of the model's scores. Its rates are the same in every group by construction, and its cost per case "
    "differs between groups only because their shares of positives{prices} do. "
)
"""Opens the disparities' caption when the rule judged flags every case of every group, or none
(review 71, item 5: "best single cutoff" flagged everyone and its cost per case "fails")."""


def no_model_words(d) -> str:
    """`NO_MODEL_WORDS` when the rule of `d` (`disparity.Disparities`) is the choice without a model,
    flagging every case of every group or none by its cutoffs (`Disparities.no_model`, the one
    decision, on weighted rows too), else "": never read off the rates or their intervals, where a
    real cutoff can flag every judged case. "everyone" or "nobody" is read off the flagged rates.

    >>> from costlib.binary.disparity import disparities
    >>> args = dict(c_fp=1, c_fn=1, rule="best single cutoff")
    >>> no_model_words(disparities(["a", "b"], [5, 2], [5, 8], [0, 0], [10, 10], **args, decided=True))[:41]
    '“best single cutoff” flags everyone here,'
    >>> no_model_words(disparities(["a", "b"], [5, 2], [5, 8], [0, 0], [10, 10], **args))  # a real cutoff
    ''
    """
    t = d.table
    flagged = t.loc[t["metric"] == "flagged rate", "value"].dropna().astype(float)
    if not d.no_model or not len(flagged):
        return ""
    who = "everyone" if (flagged == 1.0).all() else "nobody" if (flagged == 0.0).all() else ""
    if not who:
        return ""
    prices = " and their prices" if d.priced_apart else ""  # a price book by group: its prices differ too
    return NO_MODEL_WORDS.format(rule=R.rule_words(d.rule), who=who, prices=prices)


def disparity_caption(d) -> str:
    """What the disparities table holds: the rule, the reference group and the threshold, and,
    when the groups are priced apart, that cost per case reads the prices too (`PRICED_APART_WORDS`),
    and when a pass rests on too few cases, what that means (`TOO_FEW_WORDS`); on weighted rows
    (`disparity.Disparities.weighted`) that there are no intervals to tell chance by (`WEIGHTED_WORDS`)."""
    hi = 1 / d.threshold
    weighted = getattr(d, "weighted", False)
    return (
        no_model_words(d)
        + f"Disparities of “{R.rule_words(d.rule)}” against the reference group “{shorten(d.reference)}” "
        f"({'the largest on the judged rows' if d.chosen == 'largest' else 'as chosen'}): each group's "
        f"metric divided by the reference group's passes {threshold_words(d.threshold)} between "
        f"{d.threshold:.3g} and {hi:.3g}; {OUT_OF_WORDS}; "
        + ("" if weighted else f"{INTERVAL_WORDS}; ")
        + (f"{PRICED_APART_WORDS}; " if d.priced_apart else "")
        + (WEIGHTED_WORDS if weighted else CHANCE_WORDS)
        + (f"; {TOO_FEW_WORDS}" if any(r["passes"] and d.rests_on_few(r) for r in d.table.to_dict("records")) else "")
    )


def count_text(count, *, averaged: bool = False) -> str:
    """A count as a cell (the one way every table writes a count: the disparities' "out of"
    here, `tables.count_cell` for the others, which this module cannot import: `tables` reads
    `words`, which reads this module): a whole count whole, '434' (also one a float sum left a
    hair off, 434.00000000000006); else an `averaged` count (a mean over the cross-fit's deals)
    with one decimal, '59.4', and a weighted one with up to two, '4.75', '123.5' (no trailing
    zero: '59.40' read as money); '–' without a count.

    >>> count_text(1204.0), count_text(434.00000000000006), count_text(247.99999999999997)
    ('1,204', '434', '248')
    >>> count_text(59.4, averaged=True), count_text(59.43, averaged=True), count_text(4.75), count_text(123.5)
    ('59.4', '59.4', '4.75', '123.5')
    >>> count_text(59.97, averaged=True), count_text(None), count_text(float("nan"))
    ('60', '–', '–')
    """
    if not _finite(count):
        return "–"
    x = float(count)
    digits = 1 if averaged else 2
    x = round(x, digits)
    if x.is_integer():
        return number(x, 0)
    return number(x, digits).rstrip("0")


COLUMN_ALONE = "Column “{column}” alone (its groups gather the intersections that hold them)"
"""The heading of one group column's disparities, when several group columns are audited."""


def column_caption(column: str, d) -> str:
    """The caption of one group column's disparities (`disparity.column_disparities`): which
    column, then what `disparity_caption` says of the table.

    >>> from costlib.binary.disparity import disparities
    >>> column_caption("sex", disparities(["F", "M"], [4, 1], [1, 1], [1, 4], [10, 10], c_fp=1, c_fn=1))[:35]
    'Column “sex” alone (its groups gath'
    """
    return COLUMN_ALONE.format(column=shorten(str(column))) + ": " + disparity_caption(d)


def column_tables(ms, rec, parts, columns, unit: str = "") -> list:
    """[(caption, table, numbers)] of each group column alone (`disparity.shipped_column_disparities`
    of the rule `rec` ships), as the Costs page shows them below the groups' table, each with its
    download (`disparity_numbers`); [] for one column."""
    from costlib.binary.disparity import shipped_column_disparities

    return [
        (column_caption(column, d), *disparity_view(d, unit))
        for column, d in shipped_column_disparities(ms, rec, parts, columns)
    ]


def disparity_tables(audit) -> list:
    """[(caption, table)] of an audit's disparities as a person reads them (the report, the command
    line): between the groups, then, with several group columns, each column alone."""
    out = []
    if audit.disparities is not None:
        out.append((disparity_caption(audit.disparities), disparity_table(audit.disparities, audit.unit)))
    for column, d in audit.column_disparities:
        out.append((column_caption(column, d), disparity_table(d, audit.unit)))
    return out


COULD_BE_CHANCE = "{result} (could be chance)"
"""A result whose ratio's 95% interval reaches past a line of the pass range (`disparity.lines_crossed`),
as the product words any interval that reaches past a line; short enough for the table's column,
whose caption says what it means (`CHANCE_WORDS`)."""
SMALL_GROUP_MARK = " (small group)"
"""Beside a group too small for a cutoff of its own (`words.pooled_sentence`): its numbers are its
own, its cutoff is everyone's."""
FAILS_BY_CHANCE = ", but that could be chance"
"""Said after "the four-fifths rule fails" in the headline's disparity sentence when that failure
could be chance (`disparity.Disparities.could_be_chance`), as the table says "fails (could be chance)"."""
CHANCE_WORDS = (
    "“could be chance”: the ratio's interval reaches past a line of that range, so new cases may say otherwise"
)
TOO_FEW = "{result} (too few cases)"
"""A pass resting on so few cases of the group's own (its "out of" count and the events among
them, against the reference group's value as it is) that a failure either way fits them as well
(`disparity.Disparities.rests_on_few`): it passes because there is nothing to see. A pass whose
interval reaches past both lines only with the reference group's own noise reads `COULD_BE_CHANCE`.
The caption says what it means (`TOO_FEW_WORDS`) when a row says it."""
TOO_FEW_WORDS = (
    "“too few cases”: the group's own cases (its “out of”, and the mistakes or flags among them) are so few that, "
    "even against the reference group's value as it is, they fit a failure either way as well"
)


def result_words(row: dict, threshold: float, *, chance: bool | None = None, few: bool = False) -> str:
    """The result cell of one group's ratio (a row of `disparity.Disparities.table` with a
    ratio): "pass" or "fails", read on the ratio itself, and `COULD_BE_CHANCE` when its 95%
    interval reaches past a line of the pass range to the other side (a pass whose interval
    reaches below `threshold` or above 1 / `threshold`; a failure whose interval reaches back
    into the range). `chance`, when given, is that reading already made
    (`disparity.Disparities.could_be_chance`, which also counts a failure resting on a handful of
    cases), so that the table says what the headline says. A pass that rests on too few cases to
    tell (`few`: `disparity.Disparities.rests_on_few`) says `TOO_FEW` instead.

    >>> row = {"passes": True, "ratio": 0.8003, "ratio_low": 0.766, "ratio_high": 0.836}
    >>> result_words(row, 0.8), result_words({**row, "ratio_low": 0.7, "ratio_high": 1.3}, 0.8)
    ('pass (could be chance)', 'pass (could be chance)')
    >>> result_words({**row, "passes": False, "ratio": 1.3, "ratio_low": 1.2, "ratio_high": 1.4}, 0.8)
    'fails (could be chance)'
    >>> result_words({**row, "ratio_low": 0.81}, 0.8), result_words(row, 0.8, few=True)
    ('pass', 'pass (too few cases)')
    """
    result = "pass" if row["passes"] else "fails"
    if few and row["passes"]:
        return TOO_FEW.format(result=result)
    if chance is None:
        chance = bool(lines_crossed(row["ratio"], row["ratio_low"], row["ratio_high"], threshold))
    return COULD_BE_CHANCE.format(result=result) if chance else result


def disparity_table(d, unit: str = "") -> pd.DataFrame:
    """Each group against the reference group, per metric (`disparity.Disparities`), as a person
    reads it (page, report and command line): the value and the count it is made of ("out of":
    `count_text`) beside the reference's value, the ratio and the difference with their 95%
    intervals, and pass, fails or why there is no ratio (`result_words`: "could be chance" where
    the ratio's interval reaches past a line of the pass range, "too few cases" where a pass rests
    on too few to tell). The values read apart when they differ, and no difference reads '−0.0%'
    (`_row_cells`)."""

    def ratio(x) -> str:
        return ratio_shown(x, d.threshold) if _finite(x) else "–"

    rows = []
    for r in d.table.to_dict("records"):
        value, reference, difference = _row_cells(r, unit)
        result = _result(d, r)
        rows.append(
            {
                "metric": r["metric"],
                "group": shorten(str(r["group"])) + (SMALL_GROUP_MARK if r["pooled"] else ""),
                "value": value,
                "out of": count_text(r.get("out_of")),
                "reference": reference,
                "ratio": ratio(r["ratio"])
                if r["is_reference"] or not _finite(r["ratio"])
                else ratio_with_interval(r["ratio"], r["ratio_low"], r["ratio_high"], d.threshold),
                "difference": difference,
                "result": result,
            }
        )
    return pd.DataFrame(
        rows, columns=["metric", "group", "value", "out of", "reference", "ratio", "difference", "result"]
    )


def _result(d, r: dict) -> str:
    """The result cell of one row of `d.table`: "reference", pass or fails (`result_words`), or
    why there is no ratio, a failure there with `COULD_BE_CHANCE` when `d.could_be_chance` says
    so (as the headline and the JSON do: the reference's 0 misses of 5 positives against 1 of 10)."""
    if r["is_reference"]:
        return "reference"
    if r["undefined"] and r["passes"] is True:
        return BOTH_ZERO
    if r["undefined"] and r["passes"] is False:
        failed = "fails: " + r["undefined"]
        return COULD_BE_CHANCE.format(result=failed) if d.could_be_chance(r) else failed
    if r["undefined"]:
        return r["undefined"]
    return result_words(r, d.threshold, chance=d.could_be_chance(r), few=d.rests_on_few(r))


def disparity_numbers(d, shown: pd.DataFrame) -> pd.DataFrame:
    """`shown` (`disparity_table` of `d`) as numbers, for a spreadsheet (the table's download): each
    share as a fraction (0.885, not "88.5%"), the cost per case in the user's unit without its sign,
    the ratio and the difference with their 95% bounds, the count each share is of, the group's full
    name, and the result in the table's words (read off `shown`, row for row) beside ``passes``
    (True, False or empty)."""
    t = d.table.copy()
    t["group"] = [str(g) for g in t["group"]]
    t["result"] = shown["result"].to_numpy()
    return t.rename(columns={"reference_value": "reference"})


def disparity_view(d, unit: str = "") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(`disparity_table`, `disparity_numbers`) of `d`: the table shown and its download."""
    shown = disparity_table(d, unit)
    return shown, disparity_numbers(d, shown)
