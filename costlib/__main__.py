"""Command line: ``python -m costlib audit FILE --label COL --score COL --c-fp X --c-fn Y ...``

Prints the rules table (fitted on the train split, judged on the test split) and the
plain-words verdict; writes the HTML report and the JSON policy when asked. Exit codes:
0 ok; 1 with ``--fail-if-worse-than-nobody`` when the best rule is no cheaper than flagging
nobody; 2 for bad input or bad arguments (one sentence on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costlib.dataset import ColumnMapping
from costlib.errors import DataError

EXIT_OK, EXIT_WORSE_THAN_NOBODY, EXIT_BAD_INPUT = 0, 1, 2
SINGLE_GROUP = "everyone"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own usage errors: exit 2, no traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _price(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a price must be a number, got {text!r}") from None
    if not math.isfinite(x) or x < 0:
        raise argparse.ArgumentTypeError(f"a price must be a finite number at least 0, got {text!r}")
    return x


def _group_price(text: str) -> tuple[str, float]:
    group, sep, value = text.rpartition("=")
    if not sep or not group:
        raise argparse.ArgumentTypeError(f"expected GROUP=PRICE (for example Caucasian=8), got {text!r}")
    return group, _price(value)


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 10:
        raise argparse.ArgumentTypeError(f"expected at least 10, got {text!r}")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m costlib", description="costlib: what a classifier's mistakes cost.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    p = sub.add_parser("audit", help="rules table, verdict, HTML report and JSON policy for one scored file",
                       description="Fit every cutoff rule on the train rows, judge it on the test rows, print "
                                   "the rules table and the verdict.")
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file with one row per case")
    p.add_argument("--label", required=True, metavar="COL", help="binary label column")
    p.add_argument("--score", required=True, action="append", metavar="COL",
                   help="score column (higher = more likely positive); repeat to compare models in the "
                        "sensitivity map (the first one is audited)")
    p.add_argument("--scale", default="probability", choices=("probability", "logit", "raw"),
                   help="how to read the scores (default: probability)")
    p.add_argument("--group", metavar="COL", help="group column for per-group prices and the fairness audit")
    p.add_argument("--split", metavar="COL", help="column with train / test per row")
    p.add_argument("--positive", metavar="VALUE", help="the label value meaning positive, when labels are words")
    p.add_argument("--c-fp", required=True, type=_price, metavar="X", help="price of a false positive")
    p.add_argument("--c-fn", required=True, type=_price, metavar="Y", help="price of a false negative")
    p.add_argument("--c-fp-group", action="append", default=[], type=_group_price, metavar="GROUP=X",
                   help="price of a false positive for one group (repeatable)")
    p.add_argument("--c-fn-group", action="append", default=[], type=_group_price, metavar="GROUP=Y",
                   help="price of a false negative for one group (repeatable)")
    p.add_argument("--unit", default="", metavar="U", help='unit of the prices, e.g. "$" or "minutes"')
    p.add_argument("--volume", type=_price, metavar="N", help="cases a month (for the monthly saving)")
    p.add_argument("--tolerance", type=_price, default=0.05, metavar="T",
                   help="fairness tolerance: largest gap between groups' rates (default 0.05)")
    p.add_argument("--resamples", type=_positive_int, default=1000, metavar="N",
                   help="bootstrap resamples for the intervals (default 1000)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--report", metavar="OUT.html", help="write the self-contained HTML audit report here")
    p.add_argument("--policy", metavar="OUT.json", help="write the JSON policy file here")
    p.add_argument("--rule", default="cost-optimal", metavar="RULE",
                   help='rule whose cutoffs the policy records (default "cost-optimal")')
    p.add_argument("--fail-if-worse-than-nobody", action="store_true",
                   help="exit 1 when the best rule is no cheaper than flagging nobody")
    from costlib import aggregates

    aggregates.add_parser(sub)
    return parser


def _fmt(x, digits: int, *, blank_nan: bool = True) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "" if blank_nan else "varies"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{x:.{digits}f}"


def format_table(table: pd.DataFrame) -> str:
    """The rules table as fixed-width text, rounded for reading."""
    out = pd.DataFrame({
        "rule": table["rule"].astype(str),
        "group": table["group"].astype(str),
        "n": table["n"].map(lambda n: f"{n:,.0f}"),
        "threshold": table["threshold"].map(lambda t: _fmt(t, 4, blank_nan=False)),
        "flagged": table["flagged_rate"].map(lambda r: _fmt(r, 3)),
        "cost/100": table["cost_per_100"].map(lambda c: _fmt(c, 2)),
        "low": table["low"].map(lambda c: _fmt(c, 2)),
        "high": table["high"].map(lambda c: _fmt(c, 2)),
        "vs nobody": table["vs_nobody"].map(lambda c: _fmt(c, 2)),
        "vs low": table["vs_nobody_low"].map(lambda c: _fmt(c, 2)),
        "vs high": table["vs_nobody_high"].map(lambda c: _fmt(c, 2)),
        "fairness price": table["price_of_fairness_per_100"].map(lambda c: _fmt(c, 2)),
    })
    return out.to_string(index=False)


def _read(path: str):
    from costlib import loading

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise DataError(f'The file "{path}" cannot be read: {exc.strerror or exc}.') from None
    name = os.path.basename(path) or path
    return data, name, loading.read_table(data, name), loading.fingerprint(data)


def _prices(args, names: Sequence, column: str | None) -> dict:
    costs = {g: [args.c_fp, args.c_fn] for g in names}
    for flag, pairs, idx in (("--c-fp-group", args.c_fp_group, 0), ("--c-fn-group", args.c_fn_group, 1)):
        for group, price in pairs:
            if group not in costs:
                where = f'column "{column}"' if column else "the data (no --group column was given)"
                shown = ", ".join(f'"{g}"' for g in names)
                raise DataError(f'{flag} names the group "{group}", which is not in {where}; the groups are '
                                f"{shown}.")
            costs[group][idx] = price
    return {g: tuple(p) for g, p in costs.items()}


def run_audit(args) -> int:
    from costlib import loading
    from costlib.report import audit_html, build_audit, policy_json, sensitivity_sentence
    from costlib.sweep import threshold_sweep

    data, name, df, fp = _read(args.file)
    scores = list(dict.fromkeys(args.score))
    mapping = ColumnMapping(label=args.label, positive=args.positive, scores=tuple(scores), score_scale=args.scale,
                            group=args.group, split=args.split)
    ds = loading.prepare(df, mapping, name=name, fingerprint=fp)
    groups = ds.groups if ds.groups is not None else np.full(ds.n_rows, SINGLE_GROUP, dtype=object)
    notes = list(ds.notes)
    if args.split:
        train, test = ds.rows("train"), ds.rows("test")
        for role, mask in (("train", train), ("test", test)):
            if not mask.any():
                raise DataError(f'In "{name}", the split column "{args.split}" has no {role} rows; the audit '
                                "fits the rules on train rows and judges them on test rows.", column=args.split)
        other = int((~train & ~test).sum())
        if other:
            notes.append(f"{other:,} validation rows are not used by the audit.")
    else:
        train = test = np.ones(ds.n_rows, dtype=bool)
        print(f"warning: no --split column, so the rules are fitted and judged on the same {ds.n_rows:,} rows, "
              "which flatters the cost-optimal and fairness-constrained rules.", file=sys.stderr)
    names = sorted(set(groups.tolist()), key=str)
    costs = _prices(args, names, args.group)
    y, s = ds.y, ds.scores[scores[0]]
    sweeps = {c: (threshold_sweep(y[train], ds.scores[c][train]), threshold_sweep(y[test], ds.scores[c][test]))
              for c in scores}
    audit = build_audit(y[train], s[train], groups[train], y[test], s[test], groups[test], costs=costs,
                        unit=args.unit, volume=args.volume, fairness_tolerance=args.tolerance,
                        n_resamples=args.resamples, seed=args.seed, model_name=scores[0], data_name=name,
                        fingerprint=fp, n_rows=ds.n_rows, sensitivity_sweeps=sweeps, data_notes=notes)
    if args.rule not in audit.cutoffs:
        raise DataError(f'--rule "{args.rule}" is not one of the rules: ' + ", ".join(f'"{r}"' for r in audit.cutoffs)
                        + ".")
    policy = policy_json(audit, args.rule) if args.policy else None  # may refuse a rule with NaN cutoffs

    prices = "; ".join(f"{g}: c_fp {p[0]:g}, c_fn {p[1]:g}" for g, p in costs.items())
    split = (f"fitted on {int(train.sum()):,} train rows, judged on {int(test.sum()):,} test rows" if args.split
             else f"fitted and judged on all {ds.n_rows:,} rows")
    unit = f" (in {args.unit})" if args.unit else ""
    print(f"costlib audit of {scores[0]} on {name}: {ds.n_rows:,} rows, {split}.")
    print(f"Prices{unit}: {prices}.")
    print()
    print(format_table(audit.table))
    print()
    print(audit.verdict)
    for rule in audit.table.loc[audit.table["vs_nobody_note"] != "", "rule"]:
        print(f"{rule}: the rule is not distinguishable from flagging nobody on this data.")
    print(sensitivity_sentence(audit))
    for note in audit.notes:
        print(f"note: {note}", file=sys.stderr)
    try:
        if args.report:
            with open(args.report, "w", encoding="utf-8") as fh:
                fh.write(audit_html(audit))
            print(f"Report written to {args.report}.")
        if args.policy:
            with open(args.policy, "w", encoding="utf-8") as fh:
                fh.write(policy)
            print(f'Policy ("{args.rule}") written to {args.policy}.')
    except OSError as exc:
        raise DataError(f'The output file "{exc.filename}" cannot be written: {exc.strerror or exc}.') from None
    if args.fail_if_worse_than_nobody and audit.model_is_useless:
        return EXIT_WORSE_THAN_NOBODY
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "aggregate":
        from costlib import aggregates

        return aggregates.run(args)
    if args.command != "audit":
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return run_audit(args)
    except DataError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # costlib's own checks on illegal input: a sentence naming the argument
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
