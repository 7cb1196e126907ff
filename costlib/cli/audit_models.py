"""The models' sweeps of the ``audit`` command: from FILE read into memory (`memory_models`, through
the same `loading.prepare` and `answers.audit.dataset_models` as the dashboard), or computed where
FILE lives with ``--engine`` (`scan_models`)."""

from __future__ import annotations

import sys

from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError

FLAGS = {"positive": "--positive", "score_scale": "--scale"}
"""The flags of the `ColumnMapping` settings that the loader's sentences ask for (`loading.prepare`)."""
MSG_SPLIT_ROLE = (
    'the split column "{split}" has no {role} rows; the audit fits the rules on train rows '
    "and judges them on test rows."
)
MSG_SAME_COLUMN = '{a} and {b} name the same column "{column}"; with --engine each needs a column of its own.'
MSG_ENGINE_GROUPS = (
    "--group is given {k} times ({columns}): the intersections of several group columns are read from the rows "
    "in memory, so leave out --engine or give one --group."
)
MSG_ENGINE_WEIGHT = (
    "--weight is not available with --engine: weighted rows are judged row by row, in memory; leave out --engine."
)
MSG_WEIGHT_IGNORED = (
    'note: column "{column}" is not read as case weights: each row counts once here, while the dashboard '
    "counts each row by it; to count the cases as the dashboard does, give --weight {flag}."
)


def _read(path: str):
    from costlib import loading

    data, name = loading.read_path(path)  # regular files only, size checked; DataError otherwise
    return data, name, loading.read_table(data, name), loading.fingerprint(data)


def scan_models(args, scores: list[str]) -> tuple[dict, int, str, list[str], str]:
    """The models' sweeps computed by DuckDB or Spark where FILE lives (no rows in memory), and
    FILE's sha256 (`loading.file_fingerprint`): every score and the hash from one version of
    FILE (`snapshot.consistent`), so the report's sha256 is that of the rows counted."""
    from costlib import loading
    from costlib.scale.snapshot import consistent

    def scan():
        return (*_scan_sweeps(args, scores), loading.file_fingerprint(args.file))

    (models, n, notes, fp), _ = consistent(args.file, scan)
    return models, n, str(args.file), notes, fp


def _scan_sweeps(args, scores: list[str]) -> tuple[dict, int, list[str]]:
    from costlib.binary.model_sweeps import model_from_sweeps
    from costlib.scale.aggregates import DEFAULT_MAX_THRESHOLDS
    from costlib.scale.bigdata import scan_sweeps

    if args.positive:
        raise DataError("--positive is not available with --engine: the label column must hold 0/1 (or true/false).")
    if args.weight:
        raise DataError(MSG_ENGINE_WEIGHT)
    group = group_columns(args)
    if len(group) > 1:
        raise DataError(MSG_ENGINE_GROUPS.format(k=len(group), columns=", ".join(f'"{c}"' for c in group)))
    group = group[0] if group else None
    named = [
        ("--label", args.label),
        *(("--score", c) for c in scores),
        ("--group", group),
        ("--split", args.split),
    ]
    named = [(flag, c) for flag, c in named if c]
    for i, (a, column) in enumerate(named):
        for b, other in named[i + 1 :]:
            if other == column:
                raise DataError(MSG_SAME_COLUMN.format(a=a, b=b, column=column))
    models, n, notes = {}, 0, []
    for c in scores:
        sweeps, bound = scan_sweeps(
            args.file,
            label=args.label,
            score=c,
            group=group,
            split=args.split,
            engine=args.engine,
            max_thresholds=DEFAULT_MAX_THRESHOLDS,
        )
        if bound:
            notes.append(f"{c}: {bound}")
        if args.split:
            missing = [role for role in ("train", "test") if role not in sweeps]
            if missing:
                sentence = MSG_SPLIT_ROLE.format(split=args.split, role=missing[0])
                raise DataError(sentence[:1].upper() + sentence[1:], column=args.split)
            fit, judge = sweeps["train"], sweeps["test"]
            n = int(round(sum(float(g.positives.sum() + g.negatives.sum()) for g in sweeps.values())))
        else:
            fit, judge = sweeps, None
            n = int(round(float(fit.positives.sum() + fit.negatives.sum())))
        models[c] = model_from_sweeps(fit, judge, name=c)
    return models, n, notes


def group_columns(args) -> tuple[str, ...]:
    """The --group columns, in the order given, each once (several: their intersections)."""
    return tuple(dict.fromkeys(args.group or ()))


def memory_models(args, scores: list[str]):
    """(models, rows, name, fingerprint, notes, header, group parts) from FILE read into memory;
    the group parts (`Dataset.group_parts`) are None unless several --group columns are given."""
    from costlib import loading
    from costlib.answers.audit import dataset_models

    data, name, df, fp = _read(args.file)
    mapping = ColumnMapping(
        label=args.label,
        positive=args.positive,
        scores=tuple(scores),
        score_scale=args.scale,
        group=group_columns(args),
        split=args.split,
        weight=args.weight,
    )
    ds = loading.prepare(df, mapping, name=name, fingerprint=fp, flags=FLAGS)
    if not args.weight:
        _say_weight_ignored(df, mapping)
    notes = list(ds.notes)
    if args.split:
        for role in ("train", "test"):
            if not ds.has_role(role):
                sentence = MSG_SPLIT_ROLE.format(split=args.split, role=role)
                raise DataError(f'In "{name}", {sentence}', column=args.split)
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")  # the train and test rows, else every row
    if args.split:
        other = int((~fit & ~judge).sum())
        if other:
            notes.append(f"{other:,} validation rows are not used by the audit.")
        header = (
            f"{ds.n_rows:,} rows, fitted on {int(fit.sum()):,} train rows, judged on {int(judge.sum()):,} test rows"
        )
    else:
        header = f"{ds.n_rows:,} rows, fitted and judged on all {ds.n_rows:,} rows"
        print(
            f"note: no --split column, so the fitted cutoffs are judged by cross-fitting on the {ds.n_rows:,} rows "
            "(each row by a cutoff fitted without it).",
            file=sys.stderr,
        )
    return dataset_models(ds, scores), ds.n_rows, name, fp, notes, header, ds.group_parts


def _say_weight_ignored(df, mapping: ColumnMapping) -> None:
    """One note on stderr when the dashboard's guess (`loading.guess_mapping`) would read a column of
    `df` as case weights and no flag names that column: here each row counts once."""
    import shlex

    from costlib import loading

    column = loading.guess_mapping(df).weight
    named = {mapping.label, *mapping.scores, *mapping.group_columns, mapping.split}
    if column and column not in named:
        print(MSG_WEIGHT_IGNORED.format(column=column, flag=shlex.quote(column)), file=sys.stderr)
