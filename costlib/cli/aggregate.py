"""``costlib aggregate SOURCE --label COL --score COL [--group COL] [--split COL] [--weight COL]
[--engine duckdb|spark] [--max-thresholds N] --out agg.parquet``: the sweeps' sufficient
statistics of a big source in one small Parquet file.

The command only reads its arguments, guards its output (`costlib.cli.outputs`) and writes what
`costlib.scale.aggregates.aggregate` computes. Exit 0 when the file is written, 2 with one
sentence on stderr for bad input.
"""

from __future__ import annotations

import argparse
import sys

from costlib.cli.outputs import check_outputs, write_atomic
from costlib.core.errors import DataError
from costlib.scale.aggregates import DEFAULT_MAX_THRESHOLDS, aggregate


def _positive_count(text: str) -> int:
    """`text` as a whole number of at least 1 (``_`` and ``,`` between digits allowed); argparse's error else."""
    try:
        n = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {text!r}")
    return n


def add_parser(subparsers) -> None:
    """Register ``aggregate`` on the ``python -m costlib`` sub-command parser."""
    p = subparsers.add_parser(
        "aggregate",
        help="write the sweeps' sufficient statistics (counts per group and score) of a big source to Parquet",
        description="Read a big source once (DuckDB or Spark) and write the counts per split, group and distinct "
        "score to a small Parquet file that costlib loads back as exact sweeps.",
    )
    p.add_argument(
        "source",
        metavar="SOURCE",
        help="Parquet or CSV path or glob (quote globs), or one SELECT query, which can only read (DuckDB SQL, or "
        "Spark SQL with --engine spark)",
    )
    p.add_argument("--label", required=True, metavar="COL", help="binary label column (0/1 or true/false)")
    p.add_argument("--score", required=True, metavar="COL", help="score column (higher = more likely positive)")
    p.add_argument("--group", metavar="COL", help="group column")
    p.add_argument("--split", metavar="COL", help="column with train / validation / test per row")
    p.add_argument("--weight", metavar="COL", help="non-negative case weights")
    p.add_argument(
        "--engine",
        choices=("duckdb", "spark"),
        default="duckdb",
        help="where to compute (default duckdb; spark runs locally unless a session is configured)",
    )
    p.add_argument(
        "--max-thresholds",
        type=_positive_count,
        default=DEFAULT_MAX_THRESHOLDS,
        metavar="N",
        help=f"keep every distinct score while there are at most N in all (default {DEFAULT_MAX_THRESHOLDS:,}); "
        "beyond that, pool scores into fine bins and state the bound in the file",
    )
    p.add_argument("--out", required=True, metavar="OUT.parquet", help="where to write the aggregate")


def run(args) -> int:
    """Run ``aggregate``: 0 when the file is written, 2 with one sentence on stderr for bad input."""
    try:
        check_outputs([args.source], {"--out": args.out}, engine=args.engine)  # before the rows are read
        if not str(args.out).lower().endswith((".parquet", ".pq", ".parq")) and not str(args.out).startswith("/dev/"):
            raise DataError(f'--out "{args.out}": an aggregate is a Parquet file; give it a name ending in .parquet.')
        agg = aggregate(
            args.source,
            label=args.label,
            score=args.score,
            group=args.group,
            weight=args.weight,
            split=args.split,
            engine=args.engine,
            max_thresholds=args.max_thresholds,
        )
        replaced = write_atomic(args.out, "--out", agg.to_parquet)
    except ValueError as exc:  # DataError included: a sentence naming the column or argument
        print(getattr(exc, "message", None) or str(exc), file=sys.stderr)
        return 2
    prov = agg.provenance
    groups = len(agg.stats.groups)
    splits = [s for s in agg.stats.splits if s]
    how = "exact: every distinct score is a threshold" if agg.exact else "scores pooled into fine bins"
    split_words = f" in splits {', '.join(splits)}" if splits else ""
    print(
        f"Wrote {args.out}: {prov['rows']:,} rows, {groups:,} {'group' if groups == 1 else 'groups'}{split_words}, "
        f"{agg.meta['thresholds']:,} thresholds ({how})."
        + (" It replaced the file that was there." if replaced else "")
    )
    if not agg.exact:
        print(agg.meta["bound"]["statement"])
    print(f"Fingerprint {prov['fingerprint']}.")
    return 0
