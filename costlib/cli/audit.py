"""The ``audit`` command: ``python -m costlib audit FILE --label COL --score COL --c-fp X --c-fn Y ...``

Prints the recommendation in words and the rules table (fitted on the train split, judged
on the test split); with ``--json``, exactly one JSON object, the decision summary of the
contract, and nothing else on standard output. Writes the HTML report and the JSON policy
when asked. Exit codes: 0 ok; 1 only with ``--fail-if-worse-than-nobody`` when the model
should not decide (no cheaper than the best decision without it), or with
``--fail-unless-ship`` when the verdict is not "ship the model", or with ``--fail-if-disparity``
when a disparity of the recommended rule against the reference group fails the four-fifths
rule (`binary.disparity`); 2 for bad input or bad
arguments (one sentence on stderr, after the flag it is about; never a traceback).

The audit itself (the sweeps, the report, the policy) is imported when the command runs, so
that registering the command costs nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import warnings
from collections.abc import Sequence

from costlib.cli.arguments import add_volume, bounded, unit
from costlib.cli.audit_models import group_columns, memory_models, scan_models
from costlib.cli.outputs import check_outputs, write_text, written
from costlib.cli.refusals import MSG_BIG_DATA, MSG_OUT_OF_MEMORY, column_flags, refusal
from costlib.core import link, settings
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.rules import rule_words

EXIT_OK, EXIT_FAILED_CHECK, EXIT_BAD_INPUT = 0, 1, 2  # 1: a --fail-if-... or --fail-unless-ship check failed
MSG_NEEDS_GROUP = "{flag} compares groups, so it needs --group COL."
MSG_UNKNOWN_GROUP = '{flag} names the group "{group}", which is not in {where}; the groups are {shown}.'


def add_bootstrap_flags(p) -> None:
    """``--resamples N`` and ``--seed S``, the bootstrap's two flags (audit and watch)."""
    p.add_argument(
        "--resamples",
        type=bounded(settings.RESAMPLES),
        default=1000,
        metavar="N",
        help="bootstrap resamples for the intervals (default 1000)",
    )
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="bootstrap seed (default 0)")


_price = bounded(settings.PRICE)
MSG_LIMIT_NEEDS_VOLUME = (
    "--max-flagged {n:g} is a number of cases a month: give --volume (the cases a month) too, or give the limit "
    "as a share of the cases from 0 to 1."
)


MSG_LIMIT_FRACTION = (
    "With --volume, --max-flagged is a whole number of cases a month: got {n:g}. For that share of the cases, "
    "give --max-flagged {cases:,.0f}, or leave out --volume."
)


def _limit(text: str) -> float:
    """--max-flagged: cases a month or a share; which one is decided with --volume (`capacity_of`)."""
    value, problem = settings.check(dataclasses.replace(settings.CAPACITY, integer=False), text)
    if problem:
        raise argparse.ArgumentTypeError(problem.split(";")[0])
    return float(value)


def capacity_of(args) -> float | None:
    """The review limit of --max-flagged as a share of the cases (None: no limit)."""
    from costlib.present.capacity_words import cap_share

    if args.max_flagged is None:
        return None
    if args.volume:
        if not float(args.max_flagged).is_integer():
            raise DataError(MSG_LIMIT_FRACTION.format(n=args.max_flagged, cases=args.max_flagged * args.volume))
        return cap_share(args.max_flagged, args.volume)
    if args.max_flagged > 1:
        raise DataError(MSG_LIMIT_NEEDS_VOLUME.format(n=args.max_flagged))
    return float(args.max_flagged)


def _group_price(text: str) -> tuple[str, float]:
    group, sep, value = text.rpartition("=")
    if not sep or not group:
        raise argparse.ArgumentTypeError(f"expected GROUP=PRICE (for example Caucasian=8), got {text!r}")
    return group, _price(value)


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number from 0, got {text!r}") from None
    if not 0 <= n < 2**32:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number from 0 to {2**32 - 1}, got {text!r}")
    return n


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the ``audit`` command on `subparsers` (an argparse subparsers action)."""
    p = subparsers.add_parser(
        "audit",
        help="rules table, verdict, HTML report and JSON policy for one scored file",
        description="Fit every cutoff rule on the train rows, judge it on the test rows, print "
        "the rules table and the verdict.",
    )
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file with one row per case")
    p.add_argument("--label", required=True, metavar="COL", help="binary label column")
    p.add_argument(
        "--score",
        required=True,
        action="append",
        metavar="COL",
        help="score column (higher = more likely positive); repeat to compare models: the audit "
        'recommends the one cheapest on the fitting rows (the JSON names it in "model") and the '
        "sensitivity map shows them all",
    )
    p.add_argument(
        "--scale",
        default="probability",
        choices=("probability", "logit", "raw"),
        help="how to read the scores (default: probability)",
    )
    p.add_argument(
        "--group",
        action="append",
        metavar="COL",
        help="group column for per-group prices and the fairness audit; repeat it (--group race --group sex) to "
        'audit the intersections ("African-American × Male"): the groups, the per-group prices and the cutoffs '
        "are the intersections, and the disparities are reported for them and for each column alone",
    )
    p.add_argument("--split", metavar="COL", help="column with train / test per row")
    p.add_argument(
        "--weight",
        metavar="COL",
        help="column of case weights: each row stands for that many cases, and every count and cost is by "
        "weight, as on the dashboard (which reads a column named weight by itself); without it each row counts once",
    )
    p.add_argument("--positive", metavar="VALUE", help="the label value meaning positive, when labels are words")
    p.add_argument("--c-fp", required=True, type=_price, metavar="X", help="price of a false positive")
    p.add_argument("--c-fn", required=True, type=_price, metavar="Y", help="price of a false negative")
    p.add_argument(
        "--c-fp-group",
        action="append",
        default=[],
        type=_group_price,
        metavar="GROUP=X",
        help="price of a false positive for one group (repeatable); with several --group columns, GROUP is an "
        'intersection, e.g. "Caucasian × Female"',
    )
    p.add_argument(
        "--c-fn-group",
        action="append",
        default=[],
        type=_group_price,
        metavar="GROUP=Y",
        help="price of a false negative for one group (repeatable); with several --group columns, GROUP is an "
        "intersection",
    )
    p.add_argument("--unit", default="", type=unit, metavar="U", help='unit of the prices, e.g. "$" or "minutes"')
    add_volume(p)
    p.add_argument(
        "--max-flagged",
        type=_limit,
        metavar="N",
        help="review limit: at most N cases flagged a month (with --volume), or a share of the cases from 0 to 1; "
        "the answer is then the cheapest cutoff within it",
    )
    p.add_argument(
        "--tolerance",
        type=bounded(settings.TOLERANCE),
        default=0.05,
        metavar="T",
        help="fairness tolerance: largest gap between groups' rates, 0 to 0.5 (default 0.05)",
    )
    add_bootstrap_flags(p)
    p.add_argument("--report", metavar="OUT.html", help="write the self-contained HTML audit report here")
    p.add_argument("--policy", metavar="OUT.json", help="write the JSON policy file here")
    p.add_argument(
        "--model-id",
        metavar="TEXT",
        help="the model's identity (a registry name, version or run id), recorded in the policy and the JSON",
    )
    p.add_argument(
        "--model-file",
        metavar="PATH",
        help="the model's saved file: its sha256 is recorded in the policy and the JSON (the file is hashed, "
        "never loaded)",
    )
    p.add_argument(
        "--rule", metavar="RULE", help="rule whose cutoffs the policy records (default: the recommended rule)"
    )
    p.add_argument(
        "--engine",
        choices=("duckdb", "spark"),
        help="read FILE where it lives (a Parquet or CSV path or glob) with DuckDB or Spark instead of "
        "loading it into memory: exact, and memory does not grow with the rows",
    )
    p.add_argument(
        "--json", action="store_true", help="print only the decision summary, as one JSON object, on standard output"
    )
    p.add_argument(
        "--fail-if-worse-than-nobody",
        action="store_true",
        help="exit 1 when the model should not decide: no cheaper than the best choice without it",
    )
    p.add_argument(
        "--fail-unless-ship",
        action="store_true",
        help='exit 1 unless the verdict is "ship the model": the whole 95%% interval of the saving is above zero',
    )
    p.add_argument(
        "--reference-group",
        metavar="NAME",
        help="the group every other is compared with in the disparities (default: the largest group on the "
        "judged rows); needs --group. With several --group columns it names an intersection: the values joined "
        'by " × " in the order of the --group flags, e.g. "Caucasian × Female"; each column alone is compared '
        "with its largest group",
    )
    p.add_argument(
        "--disparity-threshold",
        type=bounded(settings.DISPARITY),
        default=settings.DISPARITY.default,
        metavar="R",
        help="a disparity passes when the group's metric divided by the reference group's lies in R to 1/R, "
        "0.5 to 1 (default 0.8, the four-fifths rule: 0.8 to 1.25); needs --group",
    )
    p.add_argument(
        "--fail-if-disparity",
        action="store_true",
        help="exit 1 when any disparity of the recommended rule fails the threshold (--disparity-threshold, "
        "default the four-fifths rule): a group's flagged rate, false positive rate, false negative rate or "
        "cost per case, divided by the reference group's, outside 0.8 to 1.25; needs --group (with several, "
        "the intersections' and each column's disparities)",
    )
    return p


def run(args) -> int:
    """Run the ``audit`` command; print the result; return the exit status."""
    try:
        return run_audit(args)
    except DataError as exc:
        print(refusal(exc, _column_flags(args), big_data=MSG_BIG_DATA), file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # costlib's own checks on illegal input: a sentence naming the argument
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except MemoryError:
        print(MSG_OUT_OF_MEMORY, file=sys.stderr)
        return EXIT_BAD_INPUT


def _column_flags(args) -> dict[str, str]:
    """{column: the flag that named it}, for the refusals about a column."""
    return column_flags(
        [
            ("--label", args.label),
            ("--score", args.score),
            ("--group", args.group),
            ("--split", args.split),
            ("--weight", args.weight),
        ]
    )


def format_table(audit) -> str:
    """The rules, all groups together and then by group, as fixed-width text."""
    from costlib.present.tables import rules_by_group_table, rules_overall_table

    return (
        rules_overall_table(audit.recommendation, audit.unit).to_string(index=False)
        + "\n\nBy group:\n"
        + rules_by_group_table(audit.results, audit.unit, lowest=audit.recommendation.lowest).to_string(index=False)
    )


def _prices(args, names: Sequence, columns: Sequence[str] | None) -> dict:
    """{group: (c_fp, c_fn)}: --c-fp and --c-fn for every group, the per-group flags for theirs (with
    several --group columns the groups are the intersections); DataError for a group not in the data."""
    costs = {g: [args.c_fp, args.c_fn] for g in names}
    columns = list(columns or ())
    for flag, pairs, idx in (("--c-fp-group", args.c_fp_group, 0), ("--c-fn-group", args.c_fn_group, 1)):
        for group, price in pairs:
            if group not in costs:
                if len(columns) > 1:
                    where = "the intersections of the columns " + " × ".join(f'"{c}"' for c in columns)
                else:
                    where = f'column "{columns[0]}"' if columns else "the data (no --group column was given)"
                shown = ", ".join(f'"{g}"' for g in names)
                raise DataError(MSG_UNKNOWN_GROUP.format(flag=flag, group=group, where=where, shown=shown))
            costs[group][idx] = price
    return {g: tuple(p) for g, p in costs.items()}


def audit_settings(args, names: Sequence, columns: Sequence[str] | None = None) -> link.Settings:
    """The flags as the dashboard's settings (`link.Settings`) for the groups `names`: the prices
    (`_prices`), unit, volume, resamples, tolerance, reference group and the review limit given in
    cases (with --volume). DataError for a per-group flag naming a group not in the data."""
    book = settings.price_book((args.c_fp, args.c_fn), list(_prices(args, names, columns).values()))
    cases = args.max_flagged is not None and args.volume and float(args.max_flagged).is_integer()
    limit = {"review_limit_on": True, "review_limit": int(args.max_flagged)} if cases else {}
    kept = {k: getattr(args, k) for k in ("unit", "volume", "resamples", "tolerance", "reference_group")}
    return dataclasses.replace(link.Settings().with_price_book(book), **kept, **limit)


def run_audit(args) -> int:
    """`audit`: the models' sweeps (from the rows in memory, or with --engine where FILE
    lives), then one audit, one printout, the report and the policy."""
    from costlib.answers.audit import build_audit, data_columns
    from costlib.present.identity import model_identity
    from costlib.present.policy import policy_json
    from costlib.present.report import audit_html

    for flag, on in (
        ("--reference-group", args.reference_group is not None),
        ("--fail-if-disparity", args.fail_if_disparity),
        ("--disparity-threshold", args.disparity_threshold != settings.DISPARITY.default),
    ):
        if on and not args.group:
            raise DataError(MSG_NEEDS_GROUP.format(flag=flag))
    inputs = [args.file] + ([args.model_file] if args.model_file else [])
    check_outputs(inputs, {"--report": args.report, "--policy": args.policy}, engine=args.engine)  # first
    identity = model_identity(model_id=args.model_id, model_file=args.model_file)  # before the work, refused first
    scores = list(dict.fromkeys(args.score))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = None  # with several --group columns: each intersection's value in each (`Dataset.group_parts`)
        if args.engine:
            from costlib import loading

            models, n_rows, name, notes, fp = scan_models(args, scores)  # one --group at most (`audit_models`)
            header = f"{n_rows:,} rows, read with {args.engine}"
            if fp:  # one file: named as the in-memory path names it
                name = loading.display_name(os.path.basename(args.file))
        else:
            models, n_rows, name, fp, notes, header, parts = memory_models(args, scores)
        names = list(next(iter(models.values())).groups)
        if args.reference_group is not None:
            from costlib.binary.disparity import check_reference

            check_reference(names, args.reference_group)  # refused before the work
        costs = _prices(args, names, group_columns(args))
        share = capacity_of(args)
        audit = build_audit(
            models,
            costs,
            unit=args.unit,
            volume=args.volume,
            fairness_tolerance=args.tolerance,
            n_resamples=args.resamples,
            seed=args.seed,
            data_name=name,
            fingerprint=fp,
            n_rows=n_rows,
            data_notes=notes,
            columns=data_columns(
                ColumnMapping(
                    label=args.label,
                    positive=args.positive,
                    group=group_columns(args),
                    split=args.split,
                    weight=args.weight,
                ),
                scale=args.scale if not args.engine else None,
            ),
            group_parts=parts,
            capacity=share,
            capacity_cases=args.max_flagged if args.volume else None,
            model_identity=identity,
            reference_group=args.reference_group,
            disparity_threshold=args.disparity_threshold,
        )
    notes = list(audit.notes) + [str(w.message) for w in caught if str(w.message) not in audit.notes]
    from costlib.present.policy import default_rule, randomised_rules

    rule = args.rule or default_rule(audit)  # what the verdict says to apply, as the page's policy
    rules = [*audit.cutoffs, *randomised_rules(audit)]  # a randomised fairness rule's policy records its bands
    if rule not in rules:
        raise DataError(f'--rule "{rule}" is not one of the rules: ' + ", ".join(f'"{r}"' for r in rules) + ".")
    try:
        # refused here, before anything is written
        policy = policy_json(audit, rule) if args.policy else None
    except DataError:  # a policy its own reader would refuse (a group name too long): the writer's sentence
        raise
    except ValueError as exc:  # a rule with no cutoff for some group (NaN) cannot be a policy
        raise DataError(f"--rule: {exc}; choose another rule.") from None
    rule_name = f'Policy ("{rule_words(rule)}")'  # the policy's words for its rule, as apply says it
    done = []
    for what, flag, path, text in (
        ("Report", "--report", args.report, lambda: audit_html(audit)),
        (rule_name, "--policy", args.policy, lambda: policy),
    ):
        if path:
            try:
                done.append((path, write_text(path, flag, text()), what))
            except DataError as exc:  # say what was written before it: a half-done run is not silent
                before = "; ".join(written(w, p, r).rstrip(".") for p, r, w in done)
                raise DataError(exc.message + (f" (Before it: {before}.)" if before else "")) from None
    if args.json:
        summary = audit.summary()
        print(json.dumps(summary, allow_nan=False))
        for path, replaced, what in done:
            if replaced:
                print(f"note: {written(what, path, replaced)}", file=sys.stderr)
    else:
        _print_text(args, audit, name, header, costs, identity)
        for path, replaced, what in done:
            print(written(what, path, replaced))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if args.fail_if_worse_than_nobody and audit.model_is_useless:
        return EXIT_FAILED_CHECK
    if args.fail_unless_ship and not audit.recommendation.ship_model:
        return EXIT_FAILED_CHECK
    if args.fail_if_disparity and audit.disparities_fail:
        return EXIT_FAILED_CHECK
    return EXIT_OK


def record_line(d: dict) -> str:
    """What the audit judged, in one line (the record's data dictionary)."""
    split = f'split "{d["split"]}" (train "{d["train"]}", test "{d["test"]}")' if d["split"] else "no split"
    weight = f', weight "{d["weight"]}"' if d.get("weight") else ""
    if d.get("group_columns"):
        group = "groups the intersections of " + " × ".join(f'"{c}"' for c in d["group_columns"])
    else:
        group = f'group "{d["group"]}"' if d["group"] else "no group"
    return (
        f'Judged: label "{d["label"]}" (positive: {d["positive"]}), score "{d["score"]}" ({d["scale"]}), '
        f"{group}, {split}{weight}; sha256 {d['sha256'] or '(not computed)'}."
    )


def _print_text(args, audit, name: str, header: str, costs: dict, identity: dict | None = None) -> None:
    from costlib.present.identity import identity_line

    models = ", ".join(audit.recommendation.models["model"])
    prices = "; ".join(f"{g}: c_fp {p[0]:g}, c_fn {p[1]:g}" for g, p in costs.items())
    unit = f" (in {args.unit})" if args.unit else ""
    print(f"costlib audit of {models} on {name}: {header}.")
    print(record_line(audit.data_dictionary))
    if identity is not None:
        print(identity_line(identity))
    print(f"Prices{unit}: {prices}.")
    print()
    print(audit.verdict.headline)
    for line in (*audit.verdict.details, *audit.verdict.asides):
        print(f"  {line}")
    if audit.unlimited is not None:
        within, price = audit.capacity_sentences
        print()
        print(f"Review limit: {within}")
        print(f"  {price}")
    print()
    print(format_table(audit))
    from costlib.present.disparity_table import disparity_tables

    for caption, table in disparity_tables(audit):  # the groups', then with several --group columns each one's
        print()
        print(caption + ":")
        print(table.to_string(index=False))
    print()
    print(audit.sensitivity)
