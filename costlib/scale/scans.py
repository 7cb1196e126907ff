"""Exact answers beyond memory: the cost sweep's answers from files, a query or a cluster.

The functions here take a *source* (a Parquet or CSV path or glob, a DuckDB query string, a
pandas DataFrame or pyarrow Table, or with ``engine="spark"`` a ``pyspark.sql.DataFrame``)
and the column roles by name, and return exactly what the in-memory functions return on
the same rows: thresholds and counts equal, not close (with real-valued weights the sums
are added in another order, so costs agree to rounding).

- `scan_optimal_thresholds`: each group's cost-optimal cutoff, found without holding the rows
  by bin, bound and refine (:mod:`costlib.scale.refining`);
- `scan_group_costs`: each group's costs at given cutoffs, in one pass (:mod:`costlib.scale.judging`);
- `scan_compare_rules`: the rules table, fitted on the train rows and judged on the test rows;
- `scan_grouped_sweep`: every group's exact sweep, from the counts per distinct score
  (:mod:`costlib.scale.score_stats`).

Every one of them opens the source as a view of normalised, checked rows (:mod:`costlib.scale.rows`)
through an engine, DuckDB or Spark (:mod:`costlib.scale.engines`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.binary.costs import RULE_COLUMNS, RULES, rule_cutoffs
from costlib.core import validation as v
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.scale.binning import LEVELS
from costlib.scale.judging import cost_table, cutoff_values, judge, key_array, typed_keys
from costlib.scale.pruning import cells_frame
from costlib.scale.refining import Pass1, optimal_units
from costlib.scale.rows import SPLIT_CODE, Roles, Scan, group_order, validate, with_scan
from costlib.scale.score_stats import score_stats

OPTIMAL_COLUMNS = ["group", "threshold", "cost_per_case"]
MSG_NO_SPLIT_ROWS = (
    'In {source}, the split column "{column}" has no {role} rows; the rules are fitted on the train rows and '
    "judged on the test rows."
)
MSG_COSTS = "costs must be a (c_fp, c_fn) pair or a mapping from each group to a (c_fp, c_fn) pair: got {value!r}"


def _price_pairs(costs, names: list) -> dict:
    """{name: (c_fp, c_fn)} for every group name, validated like costlib.binary.costs."""
    if isinstance(costs, Mapping):
        missing = [g for g in names if g not in costs]
        if missing:
            raise ValueError(v.MSG_MISSING_GROUP.format(name="costs", group=missing[0], present=list(names)))
        out = {}
        for g in names:
            pair = costs[g]
            try:
                a, b = pair
            except (TypeError, ValueError):
                raise ValueError(MSG_COSTS.format(value=pair)) from None
            out[g] = (v.as_price(a, f"costs[{g!r}] c_fp"), v.as_price(b, f"costs[{g!r}] c_fn"))
        return out
    try:
        a, b = costs
    except (TypeError, ValueError):
        raise ValueError(MSG_COSTS.format(value=costs)) from None
    pair = (v.as_price(a, "costs c_fp"), v.as_price(b, "costs c_fn"))
    return {g: pair for g in names}


def _fit(scan: Scan, p1: Pass1, costs, role: str) -> tuple[dict, list]:
    """({group: (threshold, cost_per_case)}, group names in order) fitted on the rows of split `role`."""
    mine = p1.units_of(role)
    names = group_order([p1.units.g[u] for u in mine])
    by_name = {p1.units.g[u]: u for u in mine}
    prices = _price_pairs(costs, [scan.group_name(g) for g in names])
    wanted = {by_name[g]: prices[scan.group_name(g)] for g in names}
    cells = cells_frame(p1.frame[p1.frame["unit"].isin(mine)], "unit", LEVELS[0])
    found = optimal_units(scan, p1.units, cells, wanted, p1.exact)
    return {g: found[by_name[g]] for g in names}, names


def scan_optimal_thresholds(source, *, label, score, costs, group=None, weight=None, engine="duckdb") -> pd.DataFrame:
    """Each group's exact cost-optimal cutoff, computed where the rows live.

    Returns a DataFrame with columns ``group, threshold, cost_per_case``, one row per group
    in sorted order (without `group`: one row, group ``None``). Each threshold and cost is
    what :func:`costlib.optimal_threshold` returns on that group's rows: the cutoff (flag
    iff score >= it) minimising ``(FP * c_fp + FN * c_fn) / n`` over every distinct score
    and ``+inf`` (flag nobody), ties to the larger threshold. A group with one class gets
    NaN and a :class:`costlib.DegenerateWarning`.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    group, weight : str, optional
        Column names of the group and of non-negative case weights.
    engine : {"duckdb", "spark"}

    Raises
    ------
    ValueError
        Illegal arguments; :class:`costlib.core.errors.DataError` (a ValueError) for a missing
        column, labels that are not binary, missing or non-finite scores, negative weights,
        with a sentence naming the column.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8), (0, 0.65), (1, 0.9)) t(y, p)"
    >>> scan_optimal_thresholds(q, label="y", score="p", costs=(1, 3)).round(4).to_dict("records")
    [{'group': None, 'threshold': 0.35, 'cost_per_case': 0.3333}]
    """
    _price_pairs(costs, [])  # the prices are checked before any pass over the rows
    roles = Roles(label=label, score=score, group=group, weight=weight)

    def body(scan):
        found, names = _fit(scan, Pass1.run(scan), costs, "")
        return pd.DataFrame(
            {
                "group": [scan.group_name(g) for g in names],
                "threshold": [found[g][0] for g in names],
                "cost_per_case": [found[g][1] for g in names],
            },
            columns=OPTIMAL_COLUMNS,
        )

    return with_scan(source, engine, roles, body)


def scan_group_costs(source, *, label, score, group, costs, thresholds, weight=None, engine="duckdb") -> pd.DataFrame:
    """Cost per 100 cases per group at given cutoffs, computed where the rows live (one pass).

    Returns what :func:`costlib.group_costs` returns on the same rows: one row per group
    (sorted) with columns ``group, n, threshold, flagged_rate, fp, fn, cost_per_100``;
    ``cost_per_100 = 100 * (fp * c_fp + fn * c_fn) / n``. `thresholds` maps each group to
    its cutoff (flag iff score >= it; ``inf`` flags nobody). With ``group=None`` the one
    group is ``None`` and `thresholds` may be a single number.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    group : str or None
        Column name of the group; None treats all rows as one group, named ``None``.
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    thresholds : mapping or float
        ``{group: cutoff}`` with an entry for every group in the rows; a single number when
        `group` is None.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    pandas.DataFrame
        Columns ``group, n, threshold, flagged_rate, fp, fn, cost_per_100``, one row per group
        in sorted order; ``n`` is an int count without weights and the total weight with them.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column,
        `costs` neither a pair nor a mapping, a missing group or a price that is not a finite
        number in [0, 1e100], `thresholds` not a mapping, lacking a group or holding a cutoff
        that is not a number); :class:`costlib.core.errors.DataError` (a ValueError) for a
        missing column, a column of the wrong type, labels that are not binary, missing or
        non-finite scores, negative or non-finite weights or missing groups, with a sentence
        naming the column.

    Warns
    -----
    DegenerateWarning
        When a group's cutoff is NaN; its row is then NaN.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.1, 'a'), (1, 0.8, 'a'), (1, 0.3, 'b'), (0, 0.6, 'b')) t(y, p, g)"
    >>> t = scan_group_costs(q, label="y", score="p", group="g", costs=(1, 2), thresholds={"a": 0.5, "b": 0.5})
    >>> t["group"].tolist(), t["fp"].tolist(), t["fn"].tolist(), t["cost_per_100"].tolist()
    (['a', 'b'], [0.0, 1.0], [0.0, 1.0], [0.0, 150.0])
    """
    _price_pairs(costs, [])  # the prices are checked before any pass over the rows
    roles = Roles(label=label, score=score, group=group, weight=weight)

    def body(scan):
        wanted = list(thresholds) if isinstance(thresholds, Mapping) else [None]
        keys, orig = typed_keys(wanted, scan.group_kind)
        cut_in = thresholds if isinstance(thresholds, Mapping) else {None: thresholds}

        def as_float(x):
            try:
                return float(x)
            except (TypeError, ValueError):
                return np.nan

        frame = judge(scan, [[as_float(cut_in[k]) for k in orig]], key_array(keys, scan.group_kind))
        validate(scan, frame)
        data_names = group_order(frame["g"].tolist())
        shown = [scan.group_name(g) for g in data_names]
        prices = _price_pairs(costs, shown)
        cut = cutoff_values(thresholds, shown)
        return cost_table(frame, 0, data_names, shown, prices, cut, scan.weighted)

    return with_scan(source, engine, roles, body)


def scan_compare_rules(
    source, *, label, score, costs, group=None, split=None, weight=None, engine="duckdb"
) -> pd.DataFrame:
    """The rules table of :func:`costlib.compare_rules`, fitted on the train rows and judged on the test rows.

    `split` names the column saying which rows are train and test (the split names the
    Data page accepts: train/training/fit, validation/val/..., test/testing/holdout/eval;
    validation rows are not used). Without it the rules are fitted and judged on the same
    rows, which flatters the cost-optimal rule. One row per (rule, group), rules in the
    order ``threshold 0.5, elkan, cost-optimal, flag nobody``; columns
    ``rule, group, threshold, flagged_rate, cost_per_100``. Equal to
    ``compare_rules((y_train, s_train, g_train), (y_test, s_test, g_test), costs=costs)``
    on the same rows (with weights: `compare_rules` on the weighted rows).

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    group : str, optional
        Column name of the group; None treats all rows as one group, named ``None``.
    split : str, optional
        Column name of the split (train / validation / test); None fits and judges on all rows.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    pandas.DataFrame
        Columns ``rule, group, threshold, flagged_rate, cost_per_100``, one row per (rule,
        group) of the test rows, costs judged on the test rows.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column,
        `costs` neither a pair nor a mapping, a missing group or a price that is not a finite
        number in [0, 1e100]); :class:`costlib.core.errors.DataError` (a ValueError) for a
        missing column, a column of the wrong type, labels that are not binary, missing or
        non-finite scores, negative or non-finite weights, missing groups, split values that
        are not split names, or no train or no test rows, with a sentence naming the column.

    Warns
    -----
    DegenerateWarning
        When a test group has no train rows or one class only in them (its cost-optimal
        cutoff is NaN), or both of a group's prices are 0 (its Elkan cutoff is NaN).

    Examples
    --------
    >>> q = ("SELECT * FROM (VALUES (0, 0.3, 'a', 'train'), (1, 0.6, 'a', 'train'), (0, 0.2, 'b', 'train'), "
    ...      "(1, 0.7, 'b', 'train'), (0, 0.4, 'a', 'test'), (1, 0.5, 'a', 'test'), (1, 0.9, 'b', 'test'), "
    ...      "(0, 0.8, 'b', 'test')) t(y, p, g, s)")
    >>> scan_compare_rules(q, label="y", score="p", group="g", split="s", costs=(1, 3))
                rule group  threshold  flagged_rate  cost_per_100
    0  threshold 0.5     a       0.50           0.5           0.0
    1  threshold 0.5     b       0.50           1.0          50.0
    2          elkan     a       0.25           1.0          50.0
    3          elkan     b       0.25           1.0          50.0
    4   cost-optimal     a       0.60           0.0         150.0
    5   cost-optimal     b       0.70           1.0          50.0
    6    flag nobody     a        inf           0.0         150.0
    7    flag nobody     b        inf           0.0         150.0
    """
    _price_pairs(costs, [])  # the prices are checked before any pass over the rows
    roles = Roles(label=label, score=score, group=group, weight=weight, split=split)

    def body(scan):
        train, test = ("train", "test") if split else ("", "")
        p1 = Pass1.run(scan)
        units = p1.units
        for role in dict.fromkeys((train, test)):
            if role not in units.sp:
                raise DataError(MSG_NO_SPLIT_ROWS.format(source=scan.source, column=shorten(split), role=role))
        test_units = p1.units_of(test)
        test_names = group_order([units.g[u] for u in test_units])
        found, train_names = _fit(scan, p1, costs, train)
        shown_test = [scan.group_name(g) for g in test_names]
        optimal = {scan.group_name(g): found[g][0] for g in train_names}
        pairs = _price_pairs(costs, shown_test)
        cutoffs = rule_cutoffs(shown_test, costs=pairs, optimal=optimal)
        by_name = {units.g[u]: u for u in test_units}
        keys = units.group_keys([by_name[g] for g in test_names])
        sets = [[float(cutoffs[r][scan.group_name(g)]) for g in test_names] for r in RULES]
        where = f"WHERE r.sp = {SPLIT_CODE[test]}"
        judged = judge(scan, sets, keys, where)
        frames = []
        for i, rule in enumerate(RULES):
            table = cost_table(judged, i, test_names, shown_test, pairs, cutoffs[rule], scan.weighted)
            table.insert(0, "rule", rule)
            frames.append(table[RULE_COLUMNS])
        return pd.concat(frames, ignore_index=True)

    return with_scan(source, engine, roles, body)


def scan_grouped_sweep(source, *, label, score, group=None, weight=None, split=None, engine="duckdb"):
    """Every group's exact sweep, computed where the rows live (one pass, grouped by score).

    Returns a :class:`costlib.core.sweep.GroupedSweep` equal (thresholds and counts) to
    ``grouped_sweep(y, s, g, sample_weight=w)`` on the same rows; without `group` its one
    group is ``None``. With `split`, a dict from each split present (``"train"``,
    ``"validation"``, ``"test"``, in that order) to the GroupedSweep of its rows. Memory
    grows with the number of distinct scores (that is the size of the answer), not rows.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    group : str, optional
        Column name of the group; None treats all rows as one group, named ``None``.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    split : str, optional
        Column name of the split (train / validation / test); None sweeps all rows together.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    GroupedSweep or dict
        Without `split`, the GroupedSweep of all rows; with it, ``{split: GroupedSweep}``
        for each split present.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column);
        :class:`costlib.core.errors.DataError` (a ValueError) for a missing column, a column of
        the wrong type, labels that are not binary, missing or non-finite scores, negative or
        non-finite weights, missing groups or split values that are not split names, with a
        sentence naming the column.

    Warns
    -----
    DegenerateWarning
        When there are no rows (without `split`); the sweep is then empty.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.2, 'a'), (1, 0.9, 'a'), (0, 0.5, 'b')) t(y, p, g)"
    >>> gs = scan_grouped_sweep(q, label="y", score="p", group="g")
    >>> gs.groups, gs["a"].thresholds.tolist(), gs["a"].tp.tolist(), gs["a"].fp.tolist()
    (('a', 'b'), [inf, 0.9, 0.2], [0.0, 1.0, 2.0], [0.0, 0.0, 1.0])
    >>> q = "SELECT * FROM (VALUES (0, 0.2, 'train'), (1, 0.7, 'train'), (1, 0.9, 'test')) t(y, p, s)"
    >>> {k: gs[None].thresholds.tolist() for k, gs in scan_grouped_sweep(q, label="y", score="p", split="s").items()}
    {'train': [inf, 0.7, 0.2], 'test': [inf, 0.9]}
    """
    stats = score_stats(source, label=label, score=score, group=group, weight=weight, split=split, engine=engine)
    return stats.as_sweeps(split is not None)


__all__ = ["scan_compare_rules", "scan_group_costs", "scan_grouped_sweep", "scan_optimal_thresholds"]
