"""The watch report: a shipped policy's cutoffs, period by period, on newer cases (the command
line's ``watch`` and the Watch page read it).

Per period: the cases, the cost per case at the shipped cutoffs, the period's own best cutoff,
the regret with its honest 95% interval and an alert when all of that interval is above zero.
A period whose outcomes are all known is measured (`costlib.watch.alerts`); one with outcomes
still to come is estimated from its scores and the outcomes it has (`costlib.watch.estimate`:
both readings of the scores, the test of the base-rate reading against the policy's reference
rows, and an alert on the estimate). Each period says what its alert rests on
(``"alert_basis"``).

A period with fewer than `MIN_PERIOD_CASES` cases to judge (``"too_few"``) claims nothing: no
best cutoff, no regret, no interval, no alert. A measured period without an honest refit (one
class of outcome) is judged against the best choice without the model (``"no_model"``). The
dates are read by `periods.read_dates`, and more than `periods.MAX_PERIODS` periods are refused
before any is judged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.binary.model_sweeps import SINGLE_GROUP
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.core.json_numbers import json_number
from costlib.core.scales import on_scale
from costlib.watch.alerts import judge_period
from costlib.watch.estimate import estimate_period, reference_prior
from costlib.watch.periods import as_periods, too_many_periods
from costlib.watch.reference import calibrated

MEASURED, ESTIMATED = "measured", "estimated"
#: the fewest cases a period is judged on (those with outcomes when it is measured): as many as a
#: group needs of each class for a cutoff of its own (`binary.folds.MIN_CLASS_ROWS`); below it a
#: period says it has too few cases to judge and claims nothing
MIN_PERIOD_CASES = MIN_CLASS_ROWS
LABEL_SHIFT, CALIBRATED = "label_shift", "calibrated"
#: what only an estimated period has (null in a measured one)
ESTIMATE_KEYS = ("assumption", "assumption_p_value", "readings", "cost_bracket", "readings_agree", "outcomes_to_tell")

MSG_NO_BASE_RATE = (
    "The policy does not record the share of positive cases its model was fitted at (policies before schema 5), so "
    "the periods without outcomes cannot be estimated: give the outcomes for them, or write the policy again with "
    "this costlib."
)
ASSUMPTION = (
    "Periods without all their outcomes are estimated from the scores, read two ways: if only the share of positive "
    "cases moved (the cases of each kind look as they did; this reading alerts), and if the cases changed while the "
    "scores still match how often cases turn out positive (then the shipped cutoff stays right). Both assume the "
    "scores matched how often cases turned out positive where the policy was fitted."
)


def labels_of(raw: pd.Series, name: str, column: str, positive=None) -> np.ndarray:
    """0/1 labels as floats, NaN where the outcome is not known yet: an empty cell or one the
    Data page reads as missing ("NA", "null", ...). The cells are read as the loader reads a
    label (`loading.cells`): 0/1 or true/false, or two values of which `positive` (the policy's
    ``data.positive``, matched as the loader matches it: exactly, case-blind or as a number) is
    the positive one."""
    from costlib.loading.cells import NA_TOKENS, binary_default, categories, match_value

    codes, names = categories(raw, NA_TOKENS)
    if len(names) > 2:
        shown = ", ".join(repr(shorten(x)) for x in names[:4]) + (", …" if len(names) > 4 else "")
        raise DataError(
            f'In "{name}", column "{column}" must hold two outcomes (or be empty where the outcome is not known yet): '
            f"it holds {len(names)} ({shown}){_odd_rows(codes, names)}.",
            column=column,
        )
    given = positive is not None and str(positive).strip() != ""
    plain = not given or str(positive).strip().lower() in ("1", "1.0", "true")  # 0/1 or true/false labels
    chosen = match_value(str(positive).strip(), names) if given else None
    if chosen is None and plain:
        chosen = binary_default(names)
    if chosen is None and names:
        if not plain and len(names) == 1:
            chosen = ""  # every known outcome is the other one
        else:
            want = "0 or 1 (or true/false)" if plain else f'"{positive}" (the policy\'s positive outcome) and one other'
            raise DataError(
                f'In "{name}", column "{column}" must hold {want}, or be empty where the outcome is not known yet: '
                f"it holds {', '.join(repr(shorten(x)) for x in names)}.",
                column=column,
            )
    out = np.full(codes.size, np.nan)
    known = codes >= 0
    out[known] = (codes[known] == (names.index(chosen) if chosen in names else -2)).astype(np.float64)
    return out


def _odd_rows(codes: np.ndarray, names: list[str]) -> str:
    """'; besides '0' and '1', rows 7 and 11 ("2", "yes") hold others' ('row 7 ("2") holds another'
    for one): the rows (as a spreadsheet numbers them, `loading.messages.rows_phrase`: the first
    five) whose outcome is neither of the two most common, so that a file with a stray cell is
    corrected where it is wrong."""
    from costlib.loading.messages import file_row, plural, rows_phrase

    known = codes >= 0
    counts = np.bincount(codes[known].astype(np.int64), minlength=len(names))
    usual = np.sort(np.argsort(-counts, kind="stable")[:2])
    odd = np.flatnonzero(known & ~np.isin(codes, usual))
    cells = [names[int(codes[i])] for i in odd[:5]]
    pair = " and ".join(repr(shorten(names[int(k)])) for k in usual)
    hold = plural(odd.size, "holds another", "hold others")
    return f"; besides {pair}, {rows_phrase(file_row(odd), odd.size, cells)} {hold}"


def watch_report(
    policy: Mapping,
    df: pd.DataFrame,
    *,
    name: str,
    time: str,
    score: str,
    label: str | None = None,
    group: str | None = None,
    freq: str = "M",
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict:
    """The watch report of the cases `df` (named `name`) under `policy` (`present.policy.load_policy`),
    as JSON-ready data: ``{"policy", "data", "freq", "periods": [...]}``. A problem with the data
    raises `DataError` naming its column (and its first bad row), as do more periods than
    `periods.MAX_PERIODS`. Each period has ``"too_few"`` (fewer than `MIN_PERIOD_CASES` cases to
    judge: nothing judged) and ``"no_model"`` (None, or the choice without the model a measured
    period without an honest refit is judged against: ``"flag nobody"``, ...). Each case's cutoff
    and prices are `case_cutoffs`' (the hand-off's rule: groups by `loading.cells.canon`,
    one cutoff without a group column only from a policy for everyone)."""
    from costlib.loading.frames import group_column, number_column, require_columns

    require_columns(df, name, (time, score, label, group))
    scores = number_column(df, name, score)
    try:
        periods = as_periods(df[time], freq, len(df), where=lambda i: f"row {i + 2}")
    except ValueError as exc:
        raise DataError(f'In "{name}", column "{time}": {exc}.', column=time) from None
    codes, uniques = pd.factorize(periods, sort=True)
    too_many = too_many_periods(len(uniques), freq, name=name, column=time)
    if too_many:  # before any period is judged: each is resampled a thousand times
        raise DataError(too_many, column=time)
    groups = group_column(df[group], name, group) if group else None
    if groups is not None:
        from costlib.core.settings import MAX_GROUPS

        names, rows = np.unique(groups, return_counts=True)
        if names.size > MAX_GROUPS:  # the bound of every other way in: a table of 10,000 groups says nothing
            from costlib.scale.score_stats import too_many_groups

            raise too_many_groups(name, group, pd.Series(rows, index=names), MAX_GROUPS)
    data = policy.get("data") or {}
    scale = data.get("scale") or "probability"
    scores = on_scale(scores, scale)  # the policy's cutoffs are on the scale the loader read the scores on
    groups, thresholds, prices = case_cutoffs(policy, groups, len(df))
    unknown = sorted(set(groups) - set(thresholds))
    if unknown:
        raise DataError(f'The group "{shorten(unknown[0])}" is in "{name}" but not in the policy.', column=group)
    labels = labels_of(df[label], name, label, positive=data.get("positive")) if label else np.full(len(df), np.nan)
    capacity = policy.get("capacity") or {}
    options = {"costs": prices, "cutoffs": thresholds, "random_share": policy.get("random_share")}
    prior, prior_se = reference_prior(policy) if scale != "raw" else (None, 0.0)
    reference = policy.get("reference") if scale != "raw" else None
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        known = sel & ~np.isnan(labels)
        row = {"period": str(period), "n": int(sel.sum()), "labelled": int(known.sum())}
        row["capacity"] = cap = period_capacity(capacity, freq, row["n"])
        measured = known.sum() == sel.sum() or (prior is None and known.any())
        judged = int(known.sum()) if measured else row["n"]  # the cases its judgement would rest on
        row.update(too_few=judged < MIN_PERIOD_CASES, no_model=None)
        if row["too_few"]:  # too small to judge: nothing is claimed, not even an estimate from the scores
            row.update(_too_few(labels[known], scores[known], groups[known], cap, options, measured))
        elif measured:
            # measured: every outcome known (or no estimate is possible, and the known ones are all there is)
            j = judge_period(
                labels[known].astype(int),
                scores[known],
                groups[known],
                n_resamples=n_resamples,
                seed=seed,
                capacity=cap,
                **options,
            )
            row.update(
                measured=True,
                no_model=j.no_model,
                alert_basis=MEASURED,
                cost_per_case=j.shipped,
                best_threshold=_cuts(j.best),
                regret_per_case=j.regret,
                regret_interval=[j.low, j.high],
                base_rate=float(labels[known].mean()),
                flagged_share=j.flagged,
                alert=j.alert,
                groups=_group_rows(j.by_group, j.groups),
                **dict.fromkeys(ESTIMATE_KEYS),
            )
        else:  # outcomes still to come: the label-free estimate, with the known outcomes where there are some
            _check_estimable(scores[sel], prior, name, score, scale)
            e = estimate_period(
                scores[sel],
                groups[sel],
                labels[sel],
                train_prior=prior,
                train_prior_se=prior_se,
                reference=reference,
                capacity=cap,
                n_resamples=n_resamples,
                seed=seed,
                **options,
            )
            ls = e.label_shift
            row.update(
                measured=False,
                alert_basis=ESTIMATED,
                cost_per_case=ls.cost,
                best_threshold=_cuts({g: float(f"{t:.12g}") for g, t in ls.refit.items()}),
                regret_per_case=ls.regret,
                regret_interval=[ls.regret_low, ls.regret_high],
                base_rate=ls.base_rate,
                flagged_share=e.flagged,
                alert=e.alert,
                groups=_group_rows(ls.by_group, ls.groups),
                assumption=e.assumption,
                assumption_p_value=e.p_value,
                readings={LABEL_SHIFT: _reading(ls), CALIBRATED: _reading(e.calibrated)},
                cost_bracket=list(e.bracket),
                readings_agree=e.readings_agree,
                outcomes_to_tell=e.outcomes_to_tell,
            )
        rows.append(row)
    for row in rows:
        for key in ("cost_per_case", "regret_per_case", "base_rate", "flagged_share", "capacity", "assumption_p_value"):
            row[key] = json_number(row[key])
        for key in ("regret_interval", "cost_bracket"):
            if row[key] is not None:
                row[key] = [json_number(x) for x in row[key]]
    return {
        "policy": {
            "rule": policy["rule"],
            "cutoffs": _cuts(thresholds),
            "unit": policy["unit"],
            "volume": policy["volume"],
            "capacity": capacity.get("max_flagged"),
            "capacity_cases_per_month": capacity.get("cases_per_month"),
            "random_share": policy.get("random_share"),
            "base_rate": policy.get("base_rate"),
            "scale": scale,
        },
        "data": {"file": name, "time": time, "score": score, "label": label, "group": group},
        "reference": reference_summary(policy) if scale != "raw" else None,
        "freq": freq,
        "periods": rows,
    }


def _too_few(y: np.ndarray, s: np.ndarray, g: np.ndarray, cap, options: dict, measured: bool) -> dict:
    """A period with fewer than `MIN_PERIOD_CASES` cases to judge: no best cutoff, no
    regret, no interval, no alert and no estimate; a measured one says what its cases cost (a
    count, not a judgement)."""
    row = {
        "measured": bool(measured),
        "alert_basis": None,
        "cost_per_case": None,
        "best_threshold": {},
        "regret_per_case": None,
        "regret_interval": [None, None],
        "base_rate": None,
        "flagged_share": None,
        "alert": False,
        "groups": {},
        **dict.fromkeys(ESTIMATE_KEYS),
    }
    if measured and y.size:
        j = judge_period(y.astype(int), s, g, n_resamples=0, capacity=cap, **options)
        row.update(cost_per_case=j.shipped, base_rate=float(y.mean()), flagged_share=j.flagged)
    return row


def _cuts(cutoffs: dict) -> dict:
    """Cutoffs for JSON: null flags nobody (as in the decision summary), "-inf" flags everyone."""
    return {str(g): (None if t == math.inf else "-inf" if t == -math.inf else float(t)) for g, t in cutoffs.items()}


PERIOD_MONTHS = {"M": 1.0, "W": 7 / 30.4375, "D": 1 / 30.4375}  # a period's length in months (365.25 / 12 days)


def period_capacity(capacity: Mapping, freq: str, n: int) -> float | None:
    """The share of a period's `n` cases the policy's review limit lets it flag: the cases a
    month the team can review (for a week or a day, its part of a month) over the period's
    cases, at most 1; else the limit's share; None without a limit."""
    per_month = capacity.get("cases_per_month")
    if per_month is not None and n > 0:
        return min(1.0, float(per_month) * PERIOD_MONTHS[freq] / n)
    return capacity.get("max_flagged")


MSG_PRICES_PER_GROUP = (
    "The policy has one cutoff for everyone but prices per group ({groups}): name the group column they are for "
    "(--group COL on the command line)."
)


def case_cutoffs(policy: Mapping, groups: np.ndarray | None, n: int) -> tuple[np.ndarray, dict, dict]:
    """(each of the `n` cases' group, {group: cutoff}, {group: (c_fp, c_fn)}) under `policy`.

    `groups` is each case's group as the loader reads a cell (`loading.frames.group_column`), or
    None: the cases have no group column. Cases without groups get one cutoff only from a policy
    for everyone (`loading.policy_cutoffs.PolicyCutoffs.one_cutoff`: its one group is "everyone", or
    it records a pooled cutoff every group has), as `SINGLE_GROUP`, and only at one price: else
    DataError with the hand-off's sentence asking for the group column
    (`PolicyCutoffs.cutoff_without_groups`), or `MSG_PRICES_PER_GROUP`, each naming at most five
    groups."""
    from costlib.loading.cells import canon
    from costlib.loading.messages import available
    from costlib.loading.policy_cutoffs import loaded_cutoffs

    if groups is not None:
        thresholds, prices = for_groups(policy, sorted(set(groups)))
        return groups, thresholds, prices
    one = loaded_cutoffs(policy).cutoff_without_groups()  # else the sentence asking for the group column
    prices = {canon(g): tuple(c) for g, c in policy["prices"].items()}
    if len(set(prices.values())) > 1:
        raise DataError(MSG_PRICES_PER_GROUP.format(groups=available(list(prices), 5)))
    return (
        np.full(n, SINGLE_GROUP, dtype=object),
        {SINGLE_GROUP: one},
        {SINGLE_GROUP: next(iter(prices.values()))},
    )


def for_groups(policy: Mapping, names) -> tuple[dict, dict]:
    """({group: cutoff}, {group: (c_fp, c_fn)}) of `policy` for the groups `names` (text, as the
    loader reads a cell): the policy's groups are matched by the loader's rule for a cell
    (`loading.cells.canon`, which `present.policy.group_name` reads too: 1, 1.0 and "1" are the
    group "1"); a policy with one cutoff for everybody applies it, at its prices, to every group."""
    from costlib.loading.cells import canon

    thresholds = {canon(g): t for g, t in policy["thresholds"].items()}
    prices = {canon(g): p for g, p in policy["prices"].items()}
    if set(thresholds) == {SINGLE_GROUP} and set(names) != {SINGLE_GROUP}:
        return dict.fromkeys(names, thresholds[SINGLE_GROUP]), dict.fromkeys(names, prices[SINGLE_GROUP])
    return thresholds, prices


MSG_RAW_SCORES = (
    "The policy's scores are raw scores, not probabilities, so the periods without outcomes cannot be estimated "
    "from them: give the outcomes for those periods."
)


def _check_estimable(s: np.ndarray, prior: float | None, name: str, score: str, scale: str) -> None:
    """DataError when a period without all its outcomes cannot be estimated: raw scores, a policy
    without the base rate its scores are calibrated to, or scores that are not probabilities."""
    if scale == "raw":
        raise DataError(MSG_RAW_SCORES)
    if prior is None:
        raise DataError(MSG_NO_BASE_RATE)
    if s.size and (s.min() < 0 or s.max() > 1):
        raise DataError(
            f'In "{name}", column "{score}" is not a probability in [0, 1]: the periods without outcomes cannot be '
            "estimated from it.",
            column=score,
        )


def _group_rows(by_group: dict, readings: dict) -> dict:
    """{group: {"n", "flagged_share", "cost_per_case", and from `readings` (`watch.groups.group_readings`)
    "positives", "negatives" (expected where outcomes are to come), "false_positive_rate",
    "false_negative_rate", each rate's and the cost's ``"<name>_interval"`` and "small"}} for JSON;
    empty with one group."""
    from costlib.watch.groups import READINGS

    if len(by_group) <= 1:
        return {}
    rows = {}
    for g, (n, f, c) in by_group.items():
        r = readings.get(g, {})
        row = {"n": json_number(n), "flagged_share": json_number(f), "cost_per_case": json_number(c)}
        row.update({k: json_number(r.get(k)) for k in ("positives", "negatives", *READINGS[1:3])})
        row.update({f"{k}_interval": [json_number(x) for x in r.get(f"{k}_interval", (None, None))] for k in READINGS})
        rows[str(g)] = {**row, "small": bool(r.get("small", False))}
    return rows


def _reading(r) -> dict:
    """One reading of a period's scores (`estimate.Reading`) for JSON."""
    return {
        "base_rate": json_number(r.base_rate),
        "cost_per_case": json_number(r.cost),
        "cost_interval": [json_number(r.cost_low), json_number(r.cost_high)],
        "regret_per_case": json_number(r.regret),
        "regret_interval": [json_number(r.regret_low), json_number(r.regret_high)],
        "refit_cutoffs": _cuts(r.refit),
        "refit_random_share": r.refit_share,
        "alert": r.alert,
    }


def reference_summary(policy: Mapping) -> dict | None:
    """What the report says of the rows the policy was fitted on: their number, base rate, mean
    score and whether the scores were calibrated there (None when the policy does not record them)."""
    ref = policy.get("reference")
    if not ref:
        return None
    cal = ref.get("calibration") or {}
    return {
        "rows": ref["rows"],
        "base_rate": policy.get("base_rate"),
        "mean_score": json_number(ref["mean_score"]),
        "calibration_p_value": json_number(cal.get("p_value")),
        "calibrated": calibrated(ref),
    }
