"""The watch report: a shipped policy's cutoffs, period by period, on newer cases (the command
line's ``watch`` and, later, the Watch page read it).

Per period: the cases, the cost per case at the shipped cutoffs (measured on the rows whose
outcome is known, else the label-free estimate with the period's base rate estimated by
Saerens, Latinne and Decaestecker's EM, which assumes calibrated scores and a shift in the base
rate only), the period's own best cutoff, the regret with its honest 95% interval
(`costlib.watch.alerts`) and an alert when all of that interval is above zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.binary.decision import SINGLE_GROUP, json_number
from costlib.core.errors import DataError
from costlib.watch.alerts import judge_period
from costlib.watch.periods import as_periods
from costlib.watch.shift import estimate_prior, move_to_prior

MSG_NO_BASE_RATE = (
    "The policy does not record the base rate its model was fitted at (policies before schema 5), so the periods "
    "without outcomes cannot be estimated: give the outcomes for them, or write the policy again with this costlib."
)
ASSUMPTION = (
    "Periods without outcomes are estimated from the scores: that assumes calibrated probabilities and a shift in "
    "the base rate only."
)


def labels_of(raw: pd.Series, name: str, column: str, positive=None) -> np.ndarray:
    """0/1 labels as floats, NaN where the outcome is not known yet (an empty cell). The label
    values are 0/1 (or true/false), or words with `positive` (the policy's ``data.positive``:
    that word is 1, the one other word 0)."""
    text = raw.astype("string").str.strip().str.lower()
    filled = text.notna() & (text != "")
    word = None if positive is None else str(positive).strip().lower()
    if word not in (None, "1", "true", "1.0"):
        seen = sorted(set(text[filled].unique().tolist()))
        others = [x for x in seen if x != word]
        if len(others) > 1:
            raise DataError(
                f'In "{name}", column "{column}" must hold two outcomes, "{positive}" (the policy\'s positive one) and '
                f"one other, or be empty where the outcome is not known yet: it holds {len(seen)} "
                f"({', '.join(repr(x) for x in seen[:4])}{', …' if len(seen) > 4 else ''}).",
                column=column,
            )
        return np.where(filled, (text == word).fillna(False).to_numpy(dtype=bool), np.nan).astype(np.float64)
    known = {"1": 1.0, "0": 0.0, "1.0": 1.0, "0.0": 0.0, "true": 1.0, "false": 0.0}
    out = text.map(lambda x: known.get(x, math.nan) if isinstance(x, str) and x != "" else math.nan)
    bad = filled & out.isna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(
            f'In "{name}", column "{column}" must hold 0 or 1 (or be empty where the outcome is not known yet): '
            f"row {i + 2} holds {raw.iloc[i]!r}.",
            column=column,
        )
    return out.to_numpy(dtype=np.float64)


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
    raises `DataError` naming its column."""
    for column in (time, score, label, group):
        if column is not None and column not in df.columns:
            shown = ", ".join(f'"{c}"' for c in list(df.columns)[:12])
            raise DataError(f'"{name}" has no column "{column}"; its columns are {shown}.', column=column)
    scores = pd.to_numeric(df[score], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(scores).all():
        i = int(np.flatnonzero(~np.isfinite(scores))[0])
        raise DataError(
            f'In "{name}", column "{score}" must hold numbers: row {i + 2} holds {df[score].iloc[i]!r}.', column=score
        )
    try:
        periods = as_periods(df[time].to_numpy(), freq, len(df))
    except ValueError as exc:
        raise DataError(f'In "{name}", column "{time}": {exc}.', column=time) from None
    groups = df[group].astype(str).to_numpy() if group else None
    thresholds = {str(g): t for g, t in policy["thresholds"].items()}
    prices = {str(g): p for g, p in policy["prices"].items()}
    if groups is None:
        if len(thresholds) != 1:
            raise DataError(
                f"The policy has cutoffs per group ({', '.join(map(str, thresholds))}): name the group column they "
                "are for."
            )
        only = next(iter(thresholds))
        groups = np.full(len(df), only, dtype=object)
    if group and set(thresholds) == {SINGLE_GROUP}:  # one cutoff for everybody: it applies to every group
        names = sorted(set(groups))
        thresholds = dict.fromkeys(names, thresholds[SINGLE_GROUP])
        prices = dict.fromkeys(names, prices[SINGLE_GROUP])
    unknown = sorted(set(groups) - set(thresholds))
    if unknown:
        raise DataError(f'The group "{unknown[0]}" is in "{name}" but not in the policy.', column=group)
    data = policy.get("data") or {}
    labels = labels_of(df[label], name, label, positive=data.get("positive")) if label else np.full(len(df), np.nan)
    base = policy.get("base_rate")
    cap = (policy.get("capacity") or {}).get("max_flagged")
    options = {"costs": prices, "cutoffs": thresholds, "capacity": cap, "random_share": policy.get("random_share")}
    codes, uniques = pd.factorize(periods, sort=True)
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        known = sel & ~np.isnan(labels)
        row = {"period": str(period), "n": int(sel.sum()), "labelled": int(known.sum())}
        if known.any():  # measured on the rows whose outcome is known
            j = judge_period(
                labels[known].astype(int), scores[known], groups[known], n_resamples=n_resamples, seed=seed, **options
            )
            rate = float(labels[known].mean())
        else:  # estimated: each case twice, a positive of weight p' and a negative of weight 1 - p'
            rate = _estimated_rate(scores[sel], base, name, score)
            moved = move_to_prior(scores[sel], rate, base)
            j = judge_period(
                np.repeat([1, 0], row["n"]),
                np.tile(scores[sel], 2),
                np.tile(groups[sel], 2),
                sample_weight=np.concatenate((moved, 1.0 - moved)),
                n_resamples=0,
                **options,
            )
        measured = known.any()
        regret = j.regret if measured else (max(0.0, j.shipped - j.best_cost) if j.best else math.nan)
        row.update(
            measured=bool(measured),
            cost_per_case=j.shipped,
            best_threshold=_cuts(j.best),
            regret_per_case=regret,
            regret_interval=[j.low, j.high],
            base_rate=rate,
            flagged_share=j.flagged,
            alert=j.alert,
            groups={
                str(g): {"n": json_number(n), "flagged_share": json_number(f), "cost_per_case": json_number(c)}
                for g, (n, f, c) in j.by_group.items()
            }
            if len(j.by_group) > 1
            else {},
        )
        rows.append(row)
    for row in rows:
        for key in ("cost_per_case", "regret_per_case", "base_rate", "flagged_share"):
            row[key] = json_number(row[key])
        row["regret_interval"] = [json_number(x) for x in row["regret_interval"]]
    return {
        "policy": {
            "rule": policy["rule"],
            "cutoffs": _cuts(thresholds),
            "unit": policy["unit"],
            "volume": policy["volume"],
            "capacity": cap,
            "random_share": policy.get("random_share"),
        },
        "data": {"file": name, "time": time, "score": score, "label": label, "group": group},
        "freq": freq,
        "periods": rows,
    }


def _cuts(cutoffs: dict) -> dict:
    """Cutoffs for JSON: null flags nobody (as in the decision summary), "-inf" flags everyone."""
    return {str(g): (None if t == math.inf else "-inf" if t == -math.inf else float(t)) for g, t in cutoffs.items()}


def _estimated_rate(s: np.ndarray, base: float | None, name: str, score: str) -> float:
    """The base rate of a period without outcomes (`estimate_prior`), or DataError when the
    policy has no base rate or the scores are not probabilities."""
    if base is None:
        raise DataError(MSG_NO_BASE_RATE)
    if s.size and (s.min() < 0 or s.max() > 1):
        raise DataError(
            f'In "{name}", column "{score}" is not a probability in [0, 1]: the periods without outcomes cannot be '
            "estimated from it.",
            column=score,
        )
    return estimate_prior(s, train_prior=base)
