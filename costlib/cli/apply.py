"""``costlib apply POLICY FILE [--score COL] [--group COL] [--id COL] --out DECISIONS.csv [--allow-unsigned]
[--json]``: the policy's decision for every case of a file (`costlib.handoff.policy.apply_policy`), once a
reviewer signed it off (`costlib.present.signing`).

The score and group columns default to the ones the policy was chosen on (its data
dictionary); a different score column is refused, as is a file whose scores are on another
scale. The decisions file has one row per case, in the file's order: ``row`` (the file's row,
the header being row 1), the case id (``--id``), the score, the group, the ``cutoff`` applied and
``flagged`` (``true`` or ``false``). A policy with randomised cutoffs draws each case in a band
from its id (`costlib.handoff.randomised`), and is refused without ``--id``. Exit 0 when written, 2
for bad input, a policy nobody signed off on among it (unsigned, unless ``--allow-unsigned``;
rejected, altered or sealed with another key, always).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import pandas as pd

from costlib.cli.outputs import check_outputs, write_atomic, written
from costlib.cli.refusals import column_flags, refusal
from costlib.cli.watch import add_policy_argument, sign_off_note
from costlib.core.errors import DataError
from costlib.core.rules import rule_words

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "apply",
        help="the policy's decision for every case of a file",
        description=__doc__.split("\n\n")[1],
    )
    add_policy_argument(p)
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file of the cases to decide, one row per case")
    p.add_argument("--score", metavar="COL", help="score column (default: the one the policy was chosen on)")
    p.add_argument(
        "--group",
        action="append",
        metavar="COL",
        help="group column (default: the policy's, when it has cutoffs per group); repeat it for a policy fitted on "
        "the intersections of several group columns (default: the policy's columns)",
    )
    p.add_argument(
        "--id",
        metavar="COL",
        help="case id column: a policy with randomised cutoffs draws each case's decision from its id",
    )
    p.add_argument("--out", required=True, metavar="DECISIONS.csv", help="where to write the decisions (CSV)")
    p.add_argument("--json", action="store_true", help="print a one-line JSON summary on standard output")
    return p


def decide(args) -> tuple[pd.DataFrame, dict, list[str]]:
    """(the decisions table, the summary, the groups the policy has no cutoff of its own for) of
    ``apply``; the summary lists the first 100 of those groups."""
    from costlib import loading
    from costlib.handoff.policy import decide, logit_cutoff, signed_cutoffs, unseen_groups
    from costlib.loading.frames import number_column, require_columns
    from costlib.loading.intersections import group_series

    check_outputs([args.policy, args.file], {"--out": args.out})
    # a policy file, or the short form {"rule", "cutoffs"} as a file (never signed), read once and its sign-off checked
    p = signed_cutoffs(args.policy, allow_unsigned=args.allow_unsigned)
    policy_name = loading.display_name(os.path.basename(args.policy))
    score = args.score or p.score
    if score is None:
        raise DataError("The policy does not name its score column: give it with --score COL.")
    columns = tuple(args.group or ()) or ((p.group_columns or (p.group,)) if p.one_cutoff is None else ())
    raw, name = loading.read_path(args.file)
    df = loading.read_table(raw, name)
    require_columns(df, name, (score, args.id))
    scores = number_column(df, name, score)
    groups = group_series(df, name, [c for c in columns if c is not None])  # several columns: their intersection
    group = None if groups is None else groups.name
    ids = None if args.id is None else df[args.id]
    # refuses another score or group column, and a randomised policy without ids
    flags, cut = decide(p, pd.Series(scores, name=score), groups=groups, case_ids=ids)
    out = pd.DataFrame({"row": np.arange(2, len(df) + 2)})
    if args.id is not None:
        out[args.id] = df[args.id].to_numpy()
    out[score] = df[score].to_numpy()
    if group:
        out[group] = df[group].to_numpy() if group in df.columns else groups.to_numpy()
    # the cutoff in the score's own units: log-odds for a policy on log-odds (the one that decides exactly alike)
    out["cutoff"] = [logit_cutoff(c) for c in cut] if p.scale == "logit" else cut
    out["flagged"] = np.where(flags, "true", "false")
    unseen = unseen_groups(p, groups)
    pooled_rows = int(groups.astype(str).isin(unseen).sum()) if unseen else 0
    summary = {
        "policy": {"file": policy_name, "rule": p.rule, "sign_off": p.sign_off.record()},
        "data": {
            "file": name,
            "sha256": loading.fingerprint(raw),
            "n_rows": len(df),
            "score": score,
            "group": group,
            "id": args.id,
        },
        "flagged": int(flags.sum()),
        "flagged_share": float(flags.mean()) if flags.size else None,
        "unseen_groups": unseen[:100],
        "pooled_cases": pooled_rows,
        "out": args.out,
    }
    return out, summary, unseen


def run(args) -> int:
    from costlib.core.escaping import safe_csv

    try:
        table, summary, unseen = decide(args)

        def write(path: str) -> None:
            with open(path, "wb") as fh:
                fh.write(safe_csv(table))

        replaced = write_atomic(args.out, "--out", write)
    except DataError as exc:
        flags = column_flags([("--score", args.score), ("--group", args.group), ("--id", args.id)])
        print(refusal(exc, flags), file=sys.stderr)
        return EXIT_BAD_INPUT
    summary["replaced"] = replaced
    if args.json:
        print(json.dumps(summary, allow_nan=False))
    else:
        n, k = summary["data"]["n_rows"], summary["flagged"]
        share = f" ({k / n:.1%})" if n else ""
        rule = rule_words(summary["policy"]["rule"])  # the policy's words for its rule, as its file and the report
        print(f'The policy "{rule}" flags {k:,} of {n:,} cases{share} in {summary["data"]["file"]}.')
        if summary["unseen_groups"]:
            from costlib.loading.messages import available

            print(
                f"{summary['pooled_cases']:,} cases are in groups the policy has no cutoff of its own for "
                f"({available(unseen, 5)}): they got its pooled cutoff."
            )
        print(written("Decisions", args.out, replaced))
    note = sign_off_note(summary["policy"]["sign_off"])
    if note:
        print(note, file=sys.stderr)
    return EXIT_OK
