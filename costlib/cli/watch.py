"""``python -m costlib watch POLICY FILE --time COL --score COL [--label COL] [--group COL]
[--freq M|W|D] [--volume N] [--allow-unsigned] [--json]``: is the cutoff a policy ships still the
right one, period by period?

Per period: the cases, the cost per case at the shipped cutoffs (measured on the rows whose
outcome is known, else the label-free estimate with the period's share of positive cases estimated
by Saerens, Latinne and Decaestecker's EM, which assumes calibrated scores and a change in that
share only), the period's own best cutoff, the regret with its honest 95% interval
(`costlib.watch.alerts`) and an alert when all of that interval is above zero. Exit 0 without
alerts, 1 with any (so a scheduled job can page someone), 2 for bad input, a policy nobody signed
off on among it (`costlib.present.signing`: unless ``--allow-unsigned`` for an unsigned one).

The text ends as the Watch page's answer does: its headline, then what to ship instead and the
candidate not chosen (`costlib.answers.watch.what_to_ship`, weighing the refit on the latest
periods with outcomes at the same ``--resamples`` and ``--seed``); its amounts a month are at ``--volume``
cases a month and name it, as the page's are at its sidebar's, else at the policy's. ``--json`` prints
the report alone.
"""

from __future__ import annotations

import argparse
import json
import sys

from costlib.cli.arguments import add_volume
from costlib.cli.audit import add_bootstrap_flags
from costlib.cli.refusals import column_flags, refusal
from costlib.core.errors import DataError

EXIT_OK, EXIT_ALERT, EXIT_BAD_INPUT = 0, 1, 2


def add_policy_argument(p) -> None:
    """The ``POLICY`` argument of the commands that read a policy file (watch, apply), and
    ``--allow-unsigned`` (`costlib.present.signing`)."""
    p.add_argument(
        "policy", metavar="POLICY", help="the policy file (JSON) written by audit --policy or the Costs page"
    )
    p.add_argument(
        "--allow-unsigned",
        action="store_true",
        help="use a policy whose sign-off cannot be checked: unsigned, or signed while COSTLIB_SIGNING_KEY is unset "
        "(a rejected or altered policy, or one sealed with another key, is refused all the same)",
    )


def sign_off_note(record: dict) -> str | None:
    """The note a command prints (on standard error) when it used a policy whose sign-off it
    could not check (``--allow-unsigned``); None for a policy signed and checked."""
    from costlib.present.signing import SIGNED

    return None if record["state"] == SIGNED else f"note: {record['sentence']}"


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "watch",
        help="is a shipped policy's cutoff still the right one, period by period",
        description=__doc__.split("\n\n")[1],
    )
    add_policy_argument(p)
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file of newer cases, one row per case")
    p.add_argument("--time", required=True, metavar="COL", help="date column: when each case was decided")
    p.add_argument("--score", required=True, metavar="COL", help="score column the policy's cutoffs apply to")
    p.add_argument("--label", metavar="COL", help="outcome column (0/1); empty where the outcome is not known yet")
    p.add_argument("--group", metavar="COL", help="group column, for a policy with cutoffs per group")
    p.add_argument("--freq", choices=("M", "W", "D"), default="M", help="periods: months (default), weeks or days")
    add_volume(p, help="cases a month, for the amounts a month (default: the policy's cases a month)")
    add_bootstrap_flags(p)
    p.add_argument("--json", action="store_true", help="print one JSON object on standard output")
    return p


def run(args) -> int:
    try:
        report, policy, cases = _watched(args)
        refit = None if args.json else _refit(args, report, policy, cases)
    except DataError as exc:
        flags = column_flags(
            [("--time", args.time), ("--score", args.score), ("--label", args.label), ("--group", args.group)]
        )
        print(refusal(exc, flags), file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        _print_text(report, policy, refit, volume=args.volume)
    note = sign_off_note(report["policy"]["sign_off"])
    if note:
        print(note, file=sys.stderr)
    for note in input_notes(args, report, policy, cases):
        print(f"note: {note}", file=sys.stderr)
    return EXIT_ALERT if any(p["alert"] for p in report["periods"]) else EXIT_OK


def input_notes(args, report: dict, policy: dict, cases) -> tuple[str, ...]:
    """What the Watch page says of these inputs before its answer, on standard error: a score
    column other than the one the policy was fitted on (`answers.watch_inputs.score_column_words`)
    and a cutoff probability scores can never reach or always pass (`cutoff_words`)."""
    from costlib.answers.watch_inputs import cutoff_words, score_column_words

    name = report["data"]["file"]
    column = score_column_words(policy, list(cases.columns), args.score, name=name, label="--score")
    return (*((column,) if column else ()), *cutoff_words(policy))


def watch(args) -> dict:
    """The report of ``watch`` as JSON-ready data (`costlib.watch.report.watch_report`), with
    the files it read."""
    return _watched(args)[0]


def _refit(args, report: dict, policy: dict, cases):
    """The refit on the latest periods with outcomes when the Watch page offers it (at these
    resamples and seed, and ``--volume`` as the page's sidebar; `costlib.answers.watch.refit_inputs`),
    else None; a sentence (DataError, ValueError) when the cases do not fit the policy."""
    from costlib.answers.watch import refit_inputs, refit_offered

    if not refit_offered(report):
        return None
    columns = {"time": args.time, "score": args.score, "label": args.label, "group": args.group}
    return refit_inputs(
        policy, cases, name=report["data"]["file"], columns=columns, report=report,
        volume=args.volume, n_resamples=args.resamples, seed=args.seed,
    )  # fmt: skip


def _watched(args):
    """(report, policy, cases): the report of `watch`, the policy as read and the table of cases."""
    from costlib import loading
    from costlib.present.policy import load_policy
    from costlib.present.signing import checked_text
    from costlib.present.signing import policy_name as named
    from costlib.watch.report import watch_report

    data, policy_name = loading.read_path(args.policy, table=False)  # load_policy says what is wrong
    policy = load_policy(data)
    sign_off = checked_text(data, allow_unsigned=args.allow_unsigned, what=named(args.policy))
    raw, name = loading.read_path(args.file)
    cases = loading.read_table(raw, name)
    report = watch_report(
        policy,
        cases,
        name=name,
        time=args.time,
        score=args.score,
        label=args.label,
        group=args.group,
        freq=args.freq,
        n_resamples=args.resamples,
        seed=args.seed,
    )
    report["policy"]["file"] = policy_name
    report["policy"]["sign_off"] = sign_off.record()
    report["data"]["sha256"] = loading.fingerprint(raw)
    return report, policy, cases


def _print_text(report: dict, policy: dict, refit=None, *, volume: float | None = None) -> None:
    """The report as text: a line per period, the one answer once `refit` (or None) is weighed,
    and what to ship, in the Watch page's words (`costlib.answers.watch.ship_choice`,
    `what_to_ship`), their amounts a month at `volume` (``--volume``) as the page's at its sidebar's."""
    from costlib.answers.watch import ship_choice, what_to_ship
    from costlib.present.amounts import money, percent
    from costlib.present.watch_tables import how_measured, period_label
    from costlib.present.watch_words import (
        FITS,
        no_model_act,
        saving_said,
        scores_check,
        too_few_text,
        watch_verdict,
    )

    unit = report["policy"]["unit"] or ""
    periods = report["periods"]
    print(f"costlib watch of {report['policy']['file']} on {report['data']['file']}: {len(periods)} periods.")
    for p in periods:
        if p["too_few"]:
            cost = f"; cost per case {money(p['cost_per_case'], unit)}" if p["cost_per_case"] is not None else ""
            print(
                f"  {period_label(p['period'])}: {p['n']:,} cases, {p['labelled']:,} with outcomes{cost}; "
                f"{too_few_text(p)}"
            )
            continue
        flag = f"  ALERT ({p['alert_basis']})" if p["alert"] else ""
        rate = f"{percent(p['base_rate'])} of the cases positive" if p["base_rate"] is not None else "share positive –"
        other = ""
        if not p["measured"]:
            cal = p["readings"]["calibrated"]
            other = (
                f"; if the cases changed instead: cost per case {money(cal['cost_per_case'], unit)}, "
                f"{percent(cal['base_rate'])} of the cases positive; {FITS}: {scores_check(p)}"
            )
        instead = f"{no_model_act(p)} instead" if p["no_model"] else "its own best cutoff"
        saves = saving_said(
            p["regret_per_case"], *p["regret_interval"], unit, line=True
        )  # a negative saving: costs more
        print(
            f"  {period_label(p['period'])}: {p['n']:,} cases, {p['labelled']:,} with outcomes; cost per case "
            f"{money(p['cost_per_case'], unit)} ({how_measured(p)}); flagged {percent(p['flagged_share'])}; "
            f"{instead} {saves}; {rate}{other}{flag}"
        )
    verdict = watch_verdict(report, unit=unit, choice=ship_choice(report, refit), volume=volume)
    print(verdict.headline)
    for line in what_to_ship(report, policy, refit, volume=volume):
        print(line)
    if any(not p["measured"] for p in periods):
        from costlib.watch.report import ASSUMPTION

        print(f"note: {ASSUMPTION}", file=sys.stderr)
