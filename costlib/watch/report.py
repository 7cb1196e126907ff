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

from costlib.binary.decision import json_number
from costlib.core.errors import DataError
from costlib.watch.alerts import judge_period
from costlib.watch.periods import as_periods
from costlib.watch.shift import estimate_prior, expected_cost_unlabelled, move_to_prior

MSG_NO_BASE_RATE = (
    "The policy does not record the base rate its model was fitted at (policies before schema 5), so the periods "
    "without outcomes cannot be estimated: give the outcomes for them, or write the policy again with this costlib."
)
ASSUMPTION = (
    "Periods without outcomes are estimated from the scores: that assumes calibrated probabilities and a shift in "
    "the base rate only."
)


def labels_of(raw: pd.Series, name: str, column: str) -> np.ndarray:
    """0/1 labels as floats, NaN where the outcome is not known yet."""
    text = raw.astype("string").str.strip().str.lower()
    known = {"1": 1.0, "0": 0.0, "1.0": 1.0, "0.0": 0.0, "true": 1.0, "false": 0.0}
    out = text.map(lambda x: known.get(x, math.nan) if isinstance(x, str) and x != "" else math.nan)
    bad = text.notna() & (text != "") & out.isna()
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
    unknown = sorted(set(groups) - set(thresholds))
    if unknown:
        raise DataError(f'The group "{unknown[0]}" is in "{name}" but not in the policy.', column=group)
    labels = labels_of(df[label], name, label) if label else np.full(len(df), np.nan)
    per_group = len(set(thresholds.values())) > 1  # the policy ships cutoffs per group: its refit is per group
    base = policy.get("base_rate")
    codes, uniques = pd.factorize(periods, sort=True)
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        known = sel & ~np.isnan(labels)
        g, s = groups[sel], scores[sel]
        row = {"period": str(period), "n": int(sel.sum()), "labelled": int(known.sum())}
        if known.sum() and len(set(labels[known])) == 1:  # outcomes of one class: the cost is measured, no best
            row.update(
                measured=True,
                cost_per_case=_shipped_cost(labels[known], scores[known], groups[known], prices, thresholds),
                best_threshold={},
                regret_per_case=None,
                regret_interval=[None, None],
                base_rate=float(labels[known].mean()),
                alert=False,
            )
        elif known.sum():
            j = judge_period(
                labels[known].astype(int),
                scores[known],
                groups[known],
                costs=prices,
                cutoffs=thresholds,
                n_resamples=n_resamples,
                seed=seed,
            )
            row.update(
                measured=True,
                cost_per_case=j.shipped,
                best_threshold=_cuts(j.best),
                regret_per_case=j.regret,
                regret_interval=[j.low, j.high],
                base_rate=float(labels[known].mean()),
                alert=j.alert,
            )
        else:
            if base is None:
                raise DataError(MSG_NO_BASE_RATE)
            if s.size and (s.min() < 0 or s.max() > 1):
                raise DataError(
                    f'In "{name}", column "{score}" is not a probability in [0, 1]: the periods without outcomes '
                    "cannot be estimated from it.",
                    column=score,
                )
            prior = estimate_prior(s, train_prior=base)
            spent = best_spent = 0.0
            best = {}
            if not per_group:  # one cutoff for everybody, as the policy ships: the best one on the moved p
                best, best_spent = _best_single_expected(s, g, prices, prior, base)
            for name_g in sorted(set(g)):
                m = g == name_g
                c_fp, c_fn = prices[name_g]
                spent += m.sum() * expected_cost_unlabelled(
                    s[m], cutoff=thresholds[name_g], c_fp=c_fp, c_fn=c_fn, prior=prior, train_prior=base
                )
                if not per_group:
                    continue
                # the best cutoff on the moved probabilities: flag when p' >= c_fp / (c_fp + c_fn)
                tau = c_fp / (c_fp + c_fn) if c_fp + c_fn > 0 else 1.0
                moved = move_to_prior(s[m], prior, base)
                best[name_g] = float(np.min(s[m][moved >= tau])) if (moved >= tau).any() else math.inf
                best_spent += m.sum() * expected_cost_unlabelled(
                    s[m], cutoff=best[name_g], c_fp=c_fp, c_fn=c_fn, prior=prior, train_prior=base
                )
            row.update(
                measured=False,
                cost_per_case=spent / sel.sum(),
                best_threshold=_cuts(best),
                regret_per_case=max(0.0, (spent - best_spent) / sel.sum()),
                regret_interval=[None, None],
                base_rate=prior,
                alert=False,
            )
        rows.append(row)
    for row in rows:
        for key in ("cost_per_case", "regret_per_case", "base_rate"):
            row[key] = None if row[key] is None else json_number(row[key])
        row["regret_interval"] = [json_number(x) for x in row["regret_interval"]]
    return {
        "policy": {
            "rule": policy["rule"],
            "cutoffs": _cuts(thresholds),
            "unit": policy["unit"],
            "volume": policy["volume"],
        },
        "data": {"file": name, "time": time, "score": score, "label": label, "group": group},
        "freq": freq,
        "periods": rows,
    }


def _cuts(cutoffs: dict) -> dict:
    """Cutoffs for JSON: null flags nobody (as in the decision summary), "-inf" flags everyone."""
    return {str(g): (None if t == math.inf else "-inf" if t == -math.inf else float(t)) for g, t in cutoffs.items()}


def _best_single_expected(s, g, prices: Mapping, prior: float, base: float) -> tuple[dict, float]:
    """({group: cutoff}, total expected cost) of the best cutoff for everybody on probabilities
    moved to `prior` (each group at its prices): one sort, cumulative sums, ties to the larger
    cutoff."""
    moved = move_to_prior(s, prior, base)
    c_fp = np.array([prices[x][0] for x in g], dtype=np.float64)
    c_fn = np.array([prices[x][1] for x in g], dtype=np.float64)
    order = np.argsort(-s, kind="stable")
    s_o = s[order]
    alarm = np.concatenate(([0.0], np.cumsum((1 - moved[order]) * c_fp[order])))  # flagging the first k
    miss = np.concatenate(([0.0], np.cumsum(moved[order] * c_fn[order])))
    cost = alarm + (miss[-1] - miss)  # k flagged, the rest missed
    ends = np.concatenate(([0], np.flatnonzero(np.diff(s_o) != 0) + 1, [s_o.size]))  # whole blocks of equal scores
    k = ends[int(np.argmin(cost[ends]))]
    cut = float(s_o[k - 1]) if k > 0 else math.inf
    return dict.fromkeys(sorted(set(g)), cut), float(cost[k])


def _shipped_cost(y, s, g, prices: Mapping, cutoffs: Mapping) -> float:
    """Cost per case of the shipped cutoffs on labelled rows (each group at its prices)."""
    total = 0.0
    for name in set(g):
        m = g == name
        c_fp, c_fn = prices[name]
        flagged = s[m] >= cutoffs[name]
        total += float(np.sum(flagged & (y[m] == 0)) * c_fp + np.sum(~flagged & (y[m] == 1)) * c_fn)
    return total / len(y)
