"""Command line: ``python -m costlib train FILE (--features COLS | --text COL) (--votes YES,NO |
--delta COL | --threshold COL,TAU | --rating COL,MID) [--methods ...] [--seeds N] [--json]``.

Trains the model family every chosen way (`costlib.compare_training`), then prints the table
of NEC and error rate per method with intervals, the change against standard training, how
predictable the costs are, and the verdict: the same numbers and words as the "Train with
costs" page. ``--json`` prints one JSON object instead. Exit codes: 0 ok; 2 for bad input or
bad arguments (one sentence on standard error, after the flag whose column it is about; never
a traceback), and for ``--mistake-price 0``: every mistake is then free and there is no answer
to give (the page's sentence, `training_page.NO_MISTAKE_PRICE`), so nothing is trained.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import pandas as pd

from costlib.cli.arguments import add_volume, bounded, unit
from costlib.cli.refusals import column_flags, refusal
from costlib.core import settings
from costlib.core.errors import DataError
from costlib.training.compare import METHODS

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def _columns(text: str) -> list[str]:
    cols = [c.strip() for c in text.split(",")]
    if not all(cols):
        raise argparse.ArgumentTypeError(f"expected column names separated by commas, got {text!r}")
    return cols


def _pair(kind: str):
    def parse(text: str) -> tuple[str, float]:
        column, sep, value = text.rpartition(",")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not sep or not column.strip() or not math.isfinite(number):
            raise argparse.ArgumentTypeError(
                f"expected COLUMN,{kind} with a finite number (for example score,0.5), got {text!r}"
            )
        return column.strip(), number

    return parse


def _votes(text: str) -> tuple[str, str]:
    cols = _columns(text)
    if len(cols) != 2:
        raise argparse.ArgumentTypeError(f"expected YES,NO: two vote columns separated by a comma, got {text!r}")
    return cols[0], cols[1]


def _seeds(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of seeds, got {text!r}") from None
    if not 1 <= n <= 1000:
        raise argparse.ArgumentTypeError(f"expected between 1 and 1000 seeds, got {text!r}")
    return n


def _random_state(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0, got {text!r}")
    return n


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n == 0:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of parallel fits other than 0 (-1: every core), got {text!r}"
        )
    return n


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the ``train`` command on `subparsers` (an argparse subparsers action)."""
    p = subparsers.add_parser(
        "train",
        help="train one model family seven ways with instance costs and compare them by NEC",
        description="Train standard, |delta|-weighted, upsampled, top-k% filtered and delta-regression models on "
        "the same splits and compare their normalized excess cost (NEC) and error rate on test rows.",
    )
    p.add_argument("file", metavar="FILE", help="CSV or Parquet file with one row per case")
    feats = p.add_mutually_exclusive_group(required=True)
    feats.add_argument(
        "--features",
        type=_columns,
        action="append",
        metavar="COLS",
        help="numeric feature columns, separated by commas (repeatable)",
    )
    feats.add_argument("--text", metavar="COL", help="one text column (TF-IDF of words and word pairs)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--votes", type=_votes, metavar="YES,NO", help="annotator vote columns: delta = ln((yes+1)/(no+1))"
    )
    src.add_argument("--delta", metavar="COL", help="a column holding delta itself (sign = label, size = price)")
    src.add_argument("--threshold", type=_pair("TAU"), metavar="COL,TAU", help="a measurement: delta = COL - TAU")
    src.add_argument("--rating", type=_pair("MID"), metavar="COL,MID", help="a rating: delta = COL - MID")
    p.add_argument(
        "--methods",
        nargs="+",
        type=_columns,
        metavar="METHOD",
        help=f"methods to compare, from {', '.join(METHODS)} (default: all)",
    )
    p.add_argument("--seeds", type=_seeds, default=10, metavar="N", help="number of seeds (default 10)")
    p.add_argument(
        "--random-state", type=_random_state, default=0, metavar="S", help="fixes every split and draw (default 0)"
    )
    p.add_argument(
        "--jobs", type=_jobs, default=-1, metavar="J", help="parallel fits (default -1: every core; -2: all but one)"
    )
    p.add_argument(
        "--mistake-price",
        type=bounded(settings.MISTAKE_PRICE),
        default=settings.MISTAKE_PRICE.default,
        metavar="P",
        help="what a mistake on a typical case (one of average |delta|) costs, in --unit (default 1)",
    )
    p.add_argument("--unit", default="", type=unit, metavar="U", help='unit of that price, e.g. "$" or "minutes"')
    add_volume(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    return p


def _fmt(x, digits: int = 4, *, sign: bool = False, percent: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if percent:
        return f"{100 * x:+.1f}%" if sign else f"{100 * x:.1f}%"
    return f"{x:.{digits}f}"


def share_kept(summary: pd.DataFrame, shares) -> list[float | None]:
    """Per row of `summary`: the share of the training rows its way kept (`training.kept`'s `shares`,
    {tdown method: (share asked, share kept)}), None for the other ways (no share names them).

    >>> share_kept(pd.DataFrame({"method": ["standard", "tdown30"]}), {"tdown30": (0.3, 0.88)})
    [None, 0.88]
    """
    shares = shares or {}
    return [float(shares[m][1]) if m in shares else None for m in summary["method"]]


def format_table(summary: pd.DataFrame, shares=None) -> str:
    """The summary as fixed-width text, rounded for reading, each way named as the page's chips and charts
    name it (`training_page.method_short`: "top 30% + ties: 88% kept" where keeping the costliest 30% and every
    case tied with them kept 88% of the training rows, `shares` being {tdown method: (share asked, share kept)},
    `training.kept`), left-aligned; ``--json`` keeps the codes ("tdown30") and each way's `share_kept`. The
    change's interval is the verdict's (`training_words.held_interval`: held for the pick of the cheapest way, as
    on the page's table and chart), so that no row reads cheaper beyond the noise where the verdict says it
    could be chance."""
    from costlib.present.training_page import method_short
    from costlib.present.training_words import HELD_HIGH, HELD_LOW, held_interval

    summary = held_interval(summary)
    names = [method_short(m, shares) for m in summary["method"].astype(str)]
    head = "method".ljust(max(map(len, names), default=0))  # a name in words reads from the left
    out = pd.DataFrame(
        {
            head: [name.ljust(len(head)) for name in names],
            "seeds": summary["seeds"].astype(int),
            "NEC": summary["nec"].map(_fmt),
            "low": summary["nec_low"].map(_fmt),
            "high": summary["nec_high"].map(_fmt),
            "error rate": summary["error_rate"].map(_fmt),
            "err low": summary["error_rate_low"].map(_fmt),
            "err high": summary["error_rate_high"].map(_fmt),
            "NEC vs standard": summary["nec_change"].map(lambda x: _fmt(x, sign=True, percent=True)),
            "chg low": summary[HELD_LOW].map(lambda x: _fmt(x, sign=True, percent=True)),
            "chg high": summary[HELD_HIGH].map(lambda x: _fmt(x, sign=True, percent=True)),
            "MAE of δ": summary["delta_mae"].map(_fmt),
        }
    )
    return out.to_string(index=False)


def _clean(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if hasattr(x, "item"):
        return _clean(x.item())
    return x


def _read(path: str):
    from costlib import loading

    data, name = loading.read_path(path)  # regular files only, size and holes checked, as for every command
    return name, loading.read_table(data, name), loading.fingerprint(data)


def _methods(groups) -> tuple[str, ...]:
    if not groups:
        return METHODS
    names = [m for group in groups for m in group]
    bad = [m for m in names if m not in METHODS]
    if bad:
        raise DataError(f'--methods: "{bad[0]}" is not a method; choose from {", ".join(METHODS)}.')
    return tuple(dict.fromkeys(names))


def compute(args):
    """(TrainingData, results, summary, predictability (mean, low, high), verdict (a `words.Verdict`),
    predictability sentence, shares kept by the ways of keeping the costliest cases, the summary held for the
    pick among the ways: the verdict's intervals, `training.summary.held_for_pick`)."""
    from costlib.answers.training import named_verdict, shipped_way
    from costlib.present.training_words import predictability_sentence
    from costlib.training import data as training_data
    from costlib.training.compare import compare_training, cost_predictability
    from costlib.training.kept import kept_of_results
    from costlib.training.summary import held_for_pick, predictability_interval, training_summary

    methods = _methods(args.methods)
    name, df, fp = _read(args.file)
    features = [c for group in (args.features or []) for c in group]
    data = training_data.from_table(
        df,
        name=name,
        fingerprint=fp,
        features=features,
        text=args.text,
        delta=args.delta,
        votes=args.votes,
        threshold=args.threshold,
        rating=args.rating,
    )
    results = compare_training(
        data.X, data.delta, methods=methods, seeds=args.seeds, random_state=args.random_state, n_jobs=args.jobs
    )
    summary = training_summary(results)
    held = held_for_pick(summary)  # the verdict's intervals, the table's too (`format_table`)
    r2 = cost_predictability(data.X, data.delta, seeds=args.seeds, random_state=args.random_state, n_jobs=args.jobs)
    pred = predictability_interval(r2["r2"])
    # the page's answer: a way of keeping the costliest cases named by the share it kept
    shares = kept_of_results(results)
    named = named_verdict(held, shares, price=args.mistake_price, unit=args.unit, volume=args.volume)
    sentence = predictability_sentence(*pred, shipped=shipped_way(held, named, shares))  # the page's, beside it
    return data, results, summary, pred, named, sentence, shares, held


def picked_of(verdict, held: pd.DataFrame) -> str:
    """The verdict's sentence on the pick among the ways (`training_words.picked_sentence`, one of its details on
    the page), or "" when it has none: one way, or a verdict that ships nothing and keeps no way in view."""
    from costlib.present.training_words import PICKED_AMONG, picked_sentence

    m = int(held[PICKED_AMONG].max()) if PICKED_AMONG in held and len(held) else 0
    return picked_sentence(m) if m > 1 and picked_sentence(m) in verdict.details else ""


def held_ends(verdict, held: pd.DataFrame) -> dict:
    """The way the verdict names and its change of NEC against standard training, with the interval held
    for the pick (`training.summary.held_for_pick`: the verdict's, not the table's own), for ``--json``."""
    from costlib.present.training_words import HELD_HIGH, HELD_LOW, PICKED_AMONG, named_way

    way = named_way(held) if verdict.kind != "info" else None
    if way is None:
        return {"method": None}
    r = held.set_index("method").loc[way]
    ends = {"nec_change": r["nec_change"], "nec_change_low": r[HELD_LOW], "nec_change_high": r[HELD_HIGH]}
    return {"method": way, **{k: _clean(v) for k, v in ends.items()}, "picked_among": int(r[PICKED_AMONG])}


def _column_flags(args) -> dict[str, str]:
    """{column: the flag that named it}, for the refusals about a column."""
    return column_flags(
        [
            ("--features", [c for group in (args.features or []) for c in group]),
            ("--text", args.text),
            ("--votes", args.votes),
            ("--delta", args.delta),
            ("--threshold", args.threshold and args.threshold[0]),
            ("--rating", args.rating and args.rating[0]),
        ]
    )


def run(args) -> int:
    """Run the ``train`` command; print the result; return the exit status."""
    from costlib.answers.instance import mistakes_free
    from costlib.present.training_page import NO_MISTAKE_PRICE, same_rows_notes
    from costlib.present.training_words import INTERVAL_NAME

    if mistakes_free(
        args.mistake_price
    ):  # every mistake free: no answer to give (the page's sentence), so nothing is trained
        print(f"--mistake-price: {NO_MISTAKE_PRICE}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        data, results, summary, pred, verdict, pred_words, shares, held = compute(args)
    except DataError as exc:
        print(refusal(exc, _column_flags(args)), file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # costlib's checks on illegal arguments: a sentence naming the argument
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    picked = picked_of(verdict, held)
    n_zero = int(results["n_zero_delta"].iloc[0])
    first = results.iloc[0]
    if args.json:
        out = {
            "data": {
                "file": data.name,
                "rows": data.n_rows,
                "rows_left_out_delta_zero": n_zero,
                "features": data.features,
                "delta": data.source,
                "n_train": int(first["n_train"]),
                "n_validation": int(first["n_validation"]),
                "n_test": int(first["n_test"]),
            },
            "settings": {
                "methods": summary["method"].tolist(),
                "seeds": int(args.seeds),
                "random_state": int(args.random_state),
                "interval": INTERVAL_NAME,
                "mistake_price": float(args.mistake_price),
                "unit": args.unit,
                "volume": args.volume,
            },
            "methods": [
                {**{k: _clean(v) for k, v in row.items()}, "share_kept": kept}
                # each way's own interval and the verdict's, held for the pick (`nec_change_held_*`), by name
                for row, kept in zip(held.to_dict(orient="records"), share_kept(held, shares), strict=True)
            ],
            "predictability": {
                "r2": _clean(pred[0]),
                "low": _clean(pred[1]),
                "high": _clean(pred[2]),
                "sentence": pred_words,
            },
            "verdict": {"headline": verdict.headline, "picked": picked or None, **held_ends(verdict, held)},
            "notes": [*data.notes, *same_rows_notes(results, shares)],
        }
        print(json.dumps(out, ensure_ascii=False))
        return EXIT_OK
    left_out = f"; {n_zero:,} rows with delta 0 left out" if n_zero else ""
    print(f"costlib train on {data.name}: {data.n_rows:,} rows{left_out}; {data.features}; delta from {data.source}.")
    print(
        f"Each of {args.seeds} seeds: {int(first['n_train']):,} train, {int(first['n_validation']):,} validation "
        f"(set aside), {int(first['n_test']):,} test rows, stratified; {INTERVAL_NAME}."
    )
    print()
    print(format_table(held, shares))
    print()
    print(pred_words)
    print(verdict.headline)
    if picked:  # why the intervals are wider than each way's own: the page's sentence
        print(picked)
    for note in [*data.notes, *same_rows_notes(results, shares)]:  # the page's notes, the same rows' too
        print(f"note: {note}", file=sys.stderr)
    return EXIT_OK
