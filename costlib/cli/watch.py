"""``python -m costlib watch POLICY FILE --time COL --score COL [--label COL] [--group COL]
[--freq M|W|D] [--json]``: is the cutoff a policy ships still the right one, period by period?

Per period: the cases, the cost per case at the shipped cutoffs (measured on the rows whose
outcome is known, else the label-free estimate with the period's base rate estimated by
Saerens, Latinne and Decaestecker's EM, which assumes calibrated scores and a shift in the base
rate only), the period's own best cutoff, the regret with its honest 95% interval
(`costlib.watch.alerts`) and an alert when all of that interval is above zero. Exit 0 without
alerts, 1 with any (so a scheduled job can page someone), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
import pandas as pd

from costlib.cli.audit import _bounded, _seed
from costlib.core import settings
from costlib.core.errors import DataError

EXIT_OK, EXIT_ALERT, EXIT_BAD_INPUT = 0, 1, 2
MSG_NO_BASE_RATE = (
    "The policy does not record the base rate its model was fitted at (policies before schema 5), so the periods "
    "without outcomes cannot be estimated: give --label for them, or write the policy again with this costlib."
)
ASSUMPTION = (
    "Periods without outcomes are estimated from the scores: that assumes calibrated probabilities and a shift in "
    "the base rate only."
)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "watch",
        help="is a shipped policy's cutoff still the right one, period by period",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument(
        "policy", metavar="POLICY", help="the policy file (JSON) written by audit --policy or the Costs page"
    )
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file of newer cases, one row per case")
    p.add_argument("--time", required=True, metavar="COL", help="date column: when each case was decided")
    p.add_argument("--score", required=True, metavar="COL", help="score column the policy's cutoffs apply to")
    p.add_argument("--label", metavar="COL", help="outcome column (0/1); empty where the outcome is not known yet")
    p.add_argument("--group", metavar="COL", help="group column, for a policy with cutoffs per group")
    p.add_argument("--freq", choices=("M", "W", "D"), default="M", help="periods: months (default), weeks or days")
    p.add_argument(
        "--resamples",
        type=_bounded(settings.RESAMPLES),
        default=1000,
        metavar="N",
        help="bootstrap resamples (default 1000)",
    )
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object on standard output")
    return p


def run(args) -> int:
    try:
        report = watch(args)
    except DataError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        _print_text(report)
    return EXIT_ALERT if any(p["alert"] for p in report["periods"]) else EXIT_OK


def _labels(raw: pd.Series, name: str, column: str) -> np.ndarray:
    """0/1 labels as floats, NaN where the outcome is not known yet."""
    text = raw.astype("string").str.strip().str.lower()
    known = {"1": 1.0, "0": 0.0, "1.0": 1.0, "0.0": 0.0, "true": 1.0, "false": 0.0}
    out = text.map(lambda x: known.get(x, math.nan) if isinstance(x, str) and x != "" else math.nan)
    bad = text.notna() & (text != "") & out.isna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(
            f'In "{name}", column "{column}" must hold 0 or 1 (or be empty where the outcome is not known yet): '
            f"row {i + 2} holds {raw.iloc[i]!r}."
        )
    return out.to_numpy(dtype=np.float64)


def watch(args) -> dict:
    """The report of ``watch`` as JSON-ready data."""
    from costlib import loading
    from costlib.present.policy import load_policy
    from costlib.watch.alerts import judge_period
    from costlib.watch.periods import as_periods
    from costlib.watch.shift import estimate_prior, expected_cost_unlabelled, move_to_prior

    data, policy_name = loading.read_path(args.policy)
    policy = load_policy(data)
    raw, name = loading.read_path(args.file)
    df = loading.read_table(raw, name)
    for flag, column in (
        ("--time", args.time),
        ("--score", args.score),
        ("--label", args.label),
        ("--group", args.group),
    ):
        if column is not None and column not in df.columns:
            shown = ", ".join(f'"{c}"' for c in list(df.columns)[:12])
            raise DataError(f'{flag}: "{name}" has no column "{column}"; its columns are {shown}.')
    scores = pd.to_numeric(df[args.score], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(scores).all():
        i = int(np.flatnonzero(~np.isfinite(scores))[0])
        raise DataError(f'--score: In "{name}", column "{args.score}" must hold numbers: row {i + 2} holds '
                        f"{df[args.score].iloc[i]!r}.")  # fmt: skip
    try:
        periods = as_periods(df[args.time].to_numpy(), args.freq, len(df))
    except ValueError as exc:
        raise DataError(f'--time: In "{name}", column "{args.time}": {exc}.') from None
    groups = df[args.group].astype(str).to_numpy() if args.group else None
    thresholds = {str(g): t for g, t in policy["thresholds"].items()}
    prices = {str(g): p for g, p in policy["prices"].items()}
    if groups is None:
        if len(thresholds) != 1:
            raise DataError(
                f"The policy has cutoffs per group ({', '.join(map(str, thresholds))}): give --group, the column they "
                "are for."
            )
        only = next(iter(thresholds))
        groups = np.full(len(df), only, dtype=object)
    unknown = sorted(set(groups) - set(thresholds))
    if unknown:
        raise DataError(f'--group: the group "{unknown[0]}" is in "{name}" but not in the policy.')
    labels = _labels(df[args.label], name, args.label) if args.label else np.full(len(df), np.nan)
    base = policy.get("base_rate")
    codes, uniques = pd.factorize(periods, sort=True)
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        known = sel & ~np.isnan(labels)
        g, s = groups[sel], scores[sel]
        row = {"period": str(period), "n": int(sel.sum()), "labelled": int(known.sum())}
        if known.sum() and len(set(labels[known])) == 2:
            j = judge_period(
                labels[known].astype(int),
                scores[known],
                groups[known],
                costs=prices,
                cutoffs=thresholds,
                n_resamples=args.resamples,
                seed=args.seed,
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
                raise DataError(f'--score: "{args.score}" is not a probability in [0, 1]: it cannot be estimated.')
            prior = estimate_prior(s, train_prior=base)
            spent = best_spent = 0.0
            best = {}
            for name_g in sorted(set(g)):
                m = g == name_g
                c_fp, c_fn = prices[name_g]
                spent += m.sum() * expected_cost_unlabelled(
                    s[m], cutoff=thresholds[name_g], c_fp=c_fp, c_fn=c_fn, prior=prior, train_prior=base
                )
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
            row[key] = _num(row[key])
        row["regret_interval"] = [_num(x) for x in row["regret_interval"]]
    return {
        "policy": {
            "file": policy_name,
            "rule": policy["rule"],
            "cutoffs": _cuts(thresholds),
            "unit": policy["unit"],
            "volume": policy["volume"],
        },
        "data": {"file": name, "sha256": loading.fingerprint(raw), "time": args.time, "score": args.score},
        "freq": args.freq,
        "periods": rows,
    }


def _num(x):
    return None if x is None or not math.isfinite(float(x)) else float(f"{float(x):.12g}") + 0.0


def _cuts(cutoffs: dict) -> dict:
    return {str(g): (None if t == math.inf else float(t)) for g, t in cutoffs.items()}


def _print_text(report: dict) -> None:
    from costlib.present.amounts import money

    unit = report["policy"]["unit"] or ""
    periods = report["periods"]
    print(f"costlib watch of {report['policy']['file']} on {report['data']['file']}: {len(periods)} periods.")
    for p in periods:
        how = "measured" if p["measured"] else "estimated"
        iv = p["regret_interval"]
        iv_text = f" (95% interval {money(iv[0], unit)} to {money(iv[1], unit)})" if iv[0] is not None else ""
        flag = "  ALERT" if p["alert"] else ""
        print(
            f"  {p['period']}: {p['n']:,} cases, {p['labelled']:,} with outcomes; cost per case "
            f"{money(p['cost_per_case'], unit)} ({how}); refitting would save {money(p['regret_per_case'], unit)} "
            f"per case{iv_text}; base rate {p['base_rate']:.3f}{flag}"
        )
    alerts = [p for p in periods if p["alert"]]
    if alerts:
        first = alerts[0]
        print(
            f"Refit: since {first['period']} the shipped cutoff costs {money(first['regret_per_case'], unit)} per case "
            f"more than the period's best ({money(first['regret_per_case'] * first['n'], unit)} over its "
            f"{first['n']:,} cases), beyond the noise."
        )
    else:
        print("Keep the cutoff: no period costs more than its own best beyond the noise.")
    if any(not p["measured"] for p in periods):
        print(f"note: {ASSUMPTION}", file=sys.stderr)
