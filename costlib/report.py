"""The audit view as one value, a self-contained HTML report of it, and a JSON policy file.

Pure Python (no Streamlit). The steps are:

    audit = build_audit(y_tr, s_tr, g_tr, y_te, s_te, g_te, costs={group: (c_fp, c_fn)})
    html = audit_html(audit)                 # one file, opens offline (plotly.js embedded once)
    text = policy_json(audit, "cost-optimal")
    policy = load_policy(text)               # prices, unit, volume, rule and thresholds back

Every rule is fitted on the training rows and judged on the test rows; intervals are the
exact multinomial bootstrap of `costlib.audit`, stratified by group and seeded.

Policy files. JSON has no infinity: a cutoff of +inf ("flag nobody") is written as the
string ``"inf"`` and read back as ``float("inf")``. A rule with a NaN cutoff (an infeasible
fairness constraint) cannot be written as a policy. Prices and cutoffs are lists of records
``{"group": ..., ...}`` so that group names keep their JSON type.
"""

from __future__ import annotations

import datetime as _dt
import html as _html
import json
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from costlib import _validation as v
from costlib import audit as _audit
from costlib.costs import (
    ALL_GROUPS,
    cost_optimal_thresholds,
    elkan_threshold,
    group_cost_curves,
    price_of_fairness,
    rule_cutoffs,
    rules_table,
)
from costlib.errors import DataError
from costlib.figures import cost_by_group_figure, net_benefit_figure, rule_bars_figure, sensitivity_figure
from costlib.sweep import Sweep, group_codes, grouped_sweep, threshold_sweep
from costlib.words import cost_verdict, cutoff, money

__all__ = [
    "POLICY_SCHEMA",
    "POLICY_SCHEMA_VERSION",
    "REPORT_SECTIONS",
    "Audit",
    "audit_html",
    "build_audit",
    "load_policy",
    "policy_dict",
    "policy_json",
    "sensitivity_sentence",
]

FAIR_PREFIX = "fair: "
COST_OPTIMAL = "cost-optimal"
NOBODY = "flag nobody"
NOT_DISTINGUISHABLE = "the rule is not distinguishable from flagging nobody on this data"
POLICY_SCHEMA = "costlib.policy"
POLICY_SCHEMA_VERSION = 1
REPORT_SECTIONS = ("settings", "data", "verdict", "rules", "fairness", "sensitivity", "net-benefit", "charts",
                   "limitations")
SENSITIVITY_GRID = np.geomspace(0.1, 100.0, 25)
RATIO_LIMITS = (1e-3, 1e3)  # the c_fn : c_fp range searched by audit.ratio_range
NET_BENEFIT_THRESHOLDS = np.round(np.linspace(0.01, 0.99, 99), 10)
LIMITATIONS = (
    "The prices are assumptions: they are the reviewer's statement of what a false positive and a false negative "
    "cost, not facts measured from the data. The sensitivity map shows how far they may move before the "
    "cheapest option changes; a decision should hold over the whole range of prices that are defensible.",
    "Formula thresholds (Elkan's c_fp / (c_fp + c_fn) and the net-benefit odds) assume calibrated scores; "
    "on a miscalibrated model they are wrong by as much as the calibration error. The cost-optimal and "
    "fairness-constrained cutoffs are fitted on the training rows and judged on the test rows, so they do not "
    "need calibration, but they carry sampling error: read the intervals.",
    "Labels may be proxies: a recorded outcome (an arrest, a diagnosis, a complaint) measures what was "
    "observed, which may differ between groups from what happened. Costs and fairness rates computed against "
    "a proxy label inherit its bias.",
    "Intervals are 95% percentile bootstrap intervals over the test rows, resampled within each group; they "
    "do not cover the uncertainty of fitting the cutoffs on the training rows, nor a change in the population.",
)


# ---------------------------------------------------------------------------------------
# The audit value


@dataclass(frozen=True, eq=False)
class Audit:
    """Everything one audit view shows. Tables are pandas DataFrames; figures are Plotly.

    table          the rules table (``costs.RULES_TABLE_COLUMNS``) with ``low``, ``high`` (interval of
                   cost per 100), ``vs_nobody``, ``vs_nobody_low``, ``vs_nobody_high`` (paired
                   difference against flagging nobody, on the "all groups" rows), ``vs_nobody_note``
                   and ``price_of_fairness_per_100`` (this row's cost per 100 minus the same row
                   under the cost-optimal rule; on the "all groups" row, the rule's price)
    cutoffs        {rule: {group: cutoff}} for every rule in the table
    fairness       long format ``criterion, group, threshold, rate_train, rate_test``
    fairness_summary  per criterion: rate, tolerance, feasible, spreads, train costs, price
    data_summary   ``split, group, n, positives, positive_share, mean_score``
    sensitivity    `audit.sensitivity_grid` over ``SENSITIVITY_GRID`` x ``SENSITIVITY_GRID``
    ratio_range    (leader, low, high) of `audit.ratio_range` at `mean_prices`
    mean_prices    (c_fp, c_fn) weighted by the test rows of each group
    net_benefit    `audit.net_benefit_curves` on the test rows (empty when scores are not in [0, 1])
    figures        {"sensitivity", "net_benefit", "cost_by_group", "rule_bars"}: Plotly figures
    notes          sentences on degenerate input (a group with one class, an infeasible constraint)
    """

    costs: dict
    unit: str
    volume: float | None
    fairness_tolerance: float
    criteria: tuple[str, ...]
    n_resamples: int
    seed: int
    model_name: str
    data_name: str
    fingerprint: str
    n_rows: int
    created: str
    version: str
    groups: tuple
    table: pd.DataFrame
    cutoffs: dict
    verdict: str
    model_is_useless: bool
    fairness: pd.DataFrame
    fairness_summary: pd.DataFrame
    data_summary: pd.DataFrame
    sensitivity: pd.DataFrame
    ratio_range: tuple[str, float, float]
    mean_prices: tuple[float, float]
    net_benefit: pd.DataFrame
    figures: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(self.cutoffs)

    def all_groups(self) -> pd.DataFrame:
        """The "all groups" row of every rule, indexed by rule."""
        return self.table[self.table["group"] == ALL_GROUPS].set_index("rule")


def _arrays(y, s, g, which: str):
    y_arr, s_arr = v.binary_pair(y, s)
    g_arr = np.asarray(g, dtype=object)
    if g_arr.ndim != 1 or len(g_arr) != len(y_arr):
        raise ValueError(f"g_{which} must be 1-D with one group per row ({len(y_arr)}): got shape {g_arr.shape}")
    return y_arr.astype(np.int8), s_arr, g_arr


def _rate(y: np.ndarray, flagged: np.ndarray, criterion: str) -> float:
    y = y.astype(bool)
    if criterion == "demographic parity":
        num, den = flagged.sum(), y.size
    elif criterion == "equal opportunity":
        num, den = (flagged & y).sum(), y.sum()
    elif criterion == "equal false positive rate":
        num, den = (flagged & ~y).sum(), (~y).sum()
    elif criterion == "equal accuracy":
        num, den = (flagged == y).sum(), y.size
    else:
        raise ValueError(_audit.MSG_CRITERION.format(valid=list(_audit.FAIRNESS_CRITERIA), value=criterion))
    return float(num / den) if den else float("nan")


def _group_rates(y, s, g, thresholds: Mapping, criterion: str) -> dict:
    out = {}
    for name, t in thresholds.items():
        sel = g == name
        if not sel.any() or (math.isnan(float(t)) or float(t) == -math.inf):
            out[name] = float("nan")
            continue
        out[name] = _rate(y[sel], s[sel] >= float(t), criterion)
    return out


def _cost_per_100(y, s, g, costs: Mapping, thresholds: Mapping) -> float:
    """All-groups cost per 100 with per-group prices and cutoffs; NaN if any cutoff is NaN."""
    names = group_codes(g, len(y))[1]
    if any(math.isnan(float(thresholds.get(name, math.nan))) for name in names):
        return float("nan")
    if len(y) == 0:
        return float("nan")
    return 100.0 * float(_audit.row_costs(y, s, g, costs=costs, thresholds=thresholds).mean())


def _spread(rates: Mapping) -> float:
    vals = [r for r in rates.values() if np.isfinite(r)]
    return float(max(vals) - min(vals)) if vals else float("nan")


def _summary(y, s, g, split: str) -> pd.DataFrame:
    frame = pd.DataFrame({"group": g, "y": y.astype(np.int64), "s": s})
    out = frame.groupby("group", sort=True).agg(n=("y", "size"), positives=("y", "sum"), mean_score=("s", "mean"))
    out.loc[ALL_GROUPS] = [len(y), int(y.sum()), float(s.mean()) if len(s) else np.nan]
    out = out.reset_index(names="group")
    out["positive_share"] = v.safe_divide(out["positives"].to_numpy(float), out["n"].to_numpy(float))
    out.insert(0, "split", split)
    return out[["split", "group", "n", "positives", "positive_share", "mean_score"]]


def build_audit(y_train, s_train, g_train, y_test, s_test, g_test, *, costs: Mapping, unit: str = "",
                volume: float | None = None, fairness_tolerance: float = 0.05,
                criteria: Sequence[str] = tuple(_audit.FAIRNESS_CRITERIA), n_resamples: int = 1000, seed: int = 0,
                model_name: str = "score", data_name: str = "", fingerprint: str = "", n_rows: int | None = None,
                sensitivity_sweeps: Mapping[str, tuple[Sweep, Sweep]] | None = None,
                data_notes: Sequence[str] = (), created: str | None = None) -> Audit:
    """Compute one audit view: every rule fitted on train and judged on test, with intervals.

    `costs` maps every group (train and test) to ``(c_fp, c_fn)``. The rules are those of
    ``costs.RULES`` plus one fairness-constrained rule per criterion, named ``"fair: <criterion>"``
    (`audit.fair_thresholds` on the training rows, all groups' rates within `fairness_tolerance`).
    `sensitivity_sweeps` ({name: (train_sweep, test_sweep)}) replaces the pooled sweep of this
    model in the sensitivity map and the net-benefit curves (to compare several models).
    Degenerate input (a group with one class, an infeasible constraint) gives NaN rows and a
    sentence in `Audit.notes`, never an exception.
    """
    from costlib import __version__

    y_tr, s_tr, g_tr = _arrays(y_train, s_train, g_train, "train")
    y_te, s_te, g_te = _arrays(y_test, s_test, g_test, "test")
    if len(y_tr) == 0 or len(y_te) == 0:
        raise ValueError(f"build_audit needs training and test rows: got {len(y_tr)} and {len(y_te)}")
    criteria = tuple(criteria)
    for c in criteria:
        if c not in _audit.FAIRNESS_CRITERIA:
            raise ValueError(_audit.MSG_CRITERION.format(valid=list(_audit.FAIRNESS_CRITERIA), value=c))
    tol = v.as_price(fairness_tolerance, "fairness_tolerance")
    names = group_codes(g_te, len(y_te), "g_test")[1]
    all_names = tuple(sorted(set(names) | set(group_codes(g_tr, len(y_tr), "g_train")[1]), key=str))
    missing = [name for name in all_names if name not in costs]
    if missing:
        raise ValueError(v.MSG_MISSING_GROUP.format(name="costs", group=missing[0], present=list(all_names)))
    costs = {name: (v.as_price(costs[name][0], f"costs[{name!r}] c_fp"),
                    v.as_price(costs[name][1], f"costs[{name!r}] c_fn")) for name in all_names}

    notes: list[str] = list(data_notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        train, test = (y_tr, s_tr, g_tr), (y_te, s_te, g_te)
        optimal = cost_optimal_thresholds(*train, costs=costs)
        cutoffs = dict(rule_cutoffs(names, costs=costs, optimal=optimal))
        fair_fits = {}
        for c in criteria:
            fit = _audit.fair_thresholds(*train, costs=costs, criterion=c, tolerance=tol)
            fair_fits[c] = fit
            cutoffs[FAIR_PREFIX + c] = {name: fit.thresholds.get(name, float("nan")) for name in names}
        extra = {rule: cut for rule, cut in cutoffs.items() if rule.startswith(FAIR_PREFIX)}
        table = rules_table(train, test, costs=costs, extra_cutoffs=extra)
        per_group = table[table["group"] != ALL_GROUPS]
        partial = per_group.groupby("rule", sort=False)["cost_per_100"].apply(lambda c: bool(c.isna().any()))
        for rule in partial.index[partial.to_numpy()]:
            notes.append(f'The rule "{rule}" has no cutoff for some group, so its all-groups cost is not shown.')
        intervals = _audit.group_costs_with_intervals(*test, costs=costs, cutoffs=cutoffs, n_resamples=n_resamples,
                                                      seed=seed)
        table = table.merge(intervals.drop(columns="cost_per_100"), on=["rule", "group"], how="left")
        table["vs_nobody_note"] = ""
        undecided = (table["group"] == ALL_GROUPS) & (table["rule"] != NOBODY) & (
            table["vs_nobody_low"] <= 0) & (table["vs_nobody_high"] >= 0)
        table.loc[undecided, "vs_nobody_note"] = NOT_DISTINGUISHABLE
        table["price_of_fairness_per_100"] = price_of_fairness(table, reference=COST_OPTIMAL)

        fairness, summary = _fairness_tables(train, test, costs, cutoffs, fair_fits, table, tol)

        if sensitivity_sweeps is None:
            sensitivity_sweeps = {model_name: (threshold_sweep(y_tr, s_tr), threshold_sweep(y_te, s_te))}
        train_sweeps = {k: pair[0] for k, pair in sensitivity_sweeps.items()}
        test_sweeps = {k: pair[1] for k, pair in sensitivity_sweeps.items()}
        grid = _audit.sensitivity_grid(train_sweeps, test_sweeps, c_fp_values=SENSITIVITY_GRID,
                                       c_fn_values=SENSITIVITY_GRID)
        weight = pd.Series(g_te).value_counts()
        w = np.array([weight.get(name, 0) for name in names], dtype=float)
        mean_fp = float(np.average([costs[n][0] for n in names], weights=w))
        mean_fn = float(np.average([costs[n][1] for n in names], weights=w))
        leader = _audit.ratio_range(train_sweeps, test_sweeps, c_fp=mean_fp, c_fn=mean_fn)
        probabilities = all(bool(np.all((sw.thresholds[1:] >= 0) & (sw.thresholds[1:] <= 1)))
                            for sw in test_sweeps.values())
        nb = (_audit.net_benefit_curves(test_sweeps, NET_BENEFIT_THRESHOLDS) if probabilities
              else pd.DataFrame(columns=["threshold", "option", "net_benefit"]))
        verdict, useless = cost_verdict(table, unit=unit, volume=volume)
        curves = group_cost_curves(grouped_sweep(*test), costs)
    for w_ in caught:
        if issubclass(w_.category, v.DegenerateWarning):
            notes.append(str(w_.message))
        else:
            warnings.warn_explicit(w_.message, w_.category, w_.filename, w_.lineno)
    if not probabilities:
        notes.append("The scores are not all in [0, 1], so net benefit (which reads a score as a probability) "
                     "is not shown.")

    markers = table[(table["group"] != ALL_GROUPS) & (table["rule"] != NOBODY)][
        ["group", "rule", "threshold", "cost_per_100"]]
    figures = {
        "sensitivity": sensitivity_figure(grid, c_fp=mean_fp, c_fn=mean_fn, unit=unit),
        "net_benefit": net_benefit_figure(nb, price_threshold=elkan_threshold(mean_fp, mean_fn)),
        "cost_by_group": cost_by_group_figure(
            curves, markers, unit=unit, title="Cost per 100 cases against the threshold (test rows)"),
        "rule_bars": rule_bars_figure(table, unit=unit),
    }
    data_summary = pd.concat([_summary(*train, "train"), _summary(*test, "test")], ignore_index=True)
    return Audit(
        costs=costs, unit=str(unit or ""), volume=volume, fairness_tolerance=tol, criteria=criteria,
        n_resamples=int(n_resamples), seed=int(seed), model_name=str(model_name), data_name=str(data_name),
        fingerprint=str(fingerprint), n_rows=int(n_rows if n_rows is not None else len(y_tr) + len(y_te)),
        created=created or _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"), version=__version__,
        groups=names, table=table, cutoffs=cutoffs, verdict=verdict, model_is_useless=bool(useless),
        fairness=fairness, fairness_summary=summary, data_summary=data_summary, sensitivity=grid,
        ratio_range=leader, mean_prices=(mean_fp, mean_fn), net_benefit=nb, figures=figures,
        notes=tuple(dict.fromkeys(notes)),
    )


def _fairness_tables(train, test, costs, cutoffs, fair_fits, table, tol):
    y_tr, s_tr, g_tr = train
    y_te, s_te, g_te = test
    opt_train = _cost_per_100(*train, costs, cutoffs[COST_OPTIMAL])
    totals = table[table["group"] == ALL_GROUPS].set_index("rule")
    long, rows = [], []
    for c in fair_fits:
        rule = FAIR_PREFIX + c
        cut = cutoffs[rule]
        rate_tr = _group_rates(y_tr, s_tr, g_tr, cut, c)
        rate_te = _group_rates(y_te, s_te, g_te, cut, c)
        for name in cut:
            long.append({"criterion": c, "group": name, "threshold": cut[name], "rate_train": rate_tr[name],
                         "rate_test": rate_te[name]})
        feasible = all(math.isfinite(float(t)) or float(t) == math.inf for t in cut.values())
        train_cost = _cost_per_100(*train, costs, cut) if feasible else float("nan")
        spread_te = _spread(rate_te)
        rows.append({
            "rule": rule,
            "rate": _audit.FAIRNESS_CRITERIA[c],
            "tolerance": tol,
            "feasible": feasible,
            "spread_train": _spread(rate_tr),
            "spread_test": spread_te,
            "within_tolerance_on_test": bool(spread_te <= tol + 1e-12) if feasible else False,
            "cost_per_100_train": train_cost,
            "cost_optimal_per_100_train": opt_train,
            "price_per_100_train": train_cost - opt_train,
            "price_per_100_test": float(totals.loc[rule, "price_of_fairness_per_100"]),
        })
    return pd.DataFrame(long), pd.DataFrame(rows)


def sensitivity_sentence(audit: Audit) -> str:
    """Which option is cheapest at the mean prices and over which c_fn : c_fp ratios it stays so."""
    leader, lo, hi = audit.ratio_range
    c_fp, c_fn = audit.mean_prices
    ratio = c_fn / c_fp if c_fp > 0 else math.inf
    low_edge, high_edge = lo <= RATIO_LIMITS[0] * (1 + 1e-9), hi >= RATIO_LIMITS[1] * (1 - 1e-9)
    if low_edge and high_edge:
        span = f"at every ratio c_fn : c_fp from {RATIO_LIMITS[0]:g} to {RATIO_LIMITS[1]:g}"
    elif high_edge:
        span = f"while the ratio c_fn : c_fp is at least {lo:.3g}"
    elif low_edge:
        span = f"while the ratio c_fn : c_fp is at most {hi:.3g}"
    else:
        span = f"while the ratio c_fn : c_fp lies between {lo:.3g} and {hi:.3g}"
    return (f"At the case-weighted mean prices (c_fp {money(c_fp, audit.unit)}, c_fn {money(c_fn, audit.unit)}, "
            f"a ratio c_fn : c_fp of {ratio:.3g}) the cheapest option on the test rows is {leader}; it stays the "
            f"cheapest {span}.")


# ---------------------------------------------------------------------------------------
# Figures


# ---------------------------------------------------------------------------------------
# HTML report


def _e(text) -> str:
    return _html.escape(str(text), quote=True)


def _fmt(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            return "–"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{x:.4g}"
    return str(x)


def _table_html(frame: pd.DataFrame) -> str:
    body = frame.to_html(escape=True, index=False, na_rep="–", border=0, classes="tbl",
                         formatters={c: _fmt for c in frame.columns})
    return f'<div class="scroll">{body}</div>'


def _paragraphs(texts: Sequence[str]) -> str:
    return "".join(f"<p>{_e(t)}</p>" for t in texts)


class _Figures:
    """Renders figures in document order; the first one carries plotly.js, the rest reuse it."""

    def __init__(self):
        self.included = False

    def __call__(self, fig: go.Figure) -> str:
        out = pio.to_html(fig, full_html=False, include_plotlyjs=not self.included,
                          config={"displaylogo": False, "responsive": True}, default_height="520px")
        self.included = True
        return f'<div class="fig">{out}</div>'


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:2rem auto;max-width:1200px;
color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
table.tbl{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
table.tbl th,table.tbl td{border:1px solid #ddd;padding:.2rem .5rem;text-align:right;white-space:nowrap}
.scroll{overflow-x:auto}
table.tbl th{background:#f3f5f8}
.verdict{font-size:1.1rem;font-weight:600;padding:.6rem;border-left:4px solid #1f5fa8;background:#f3f7fc}
.useless{border-left-color:#d1495b;background:#fcf3f4}
.meta{color:#555;font-size:.85rem}.fig{margin:1rem 0}
"""


def audit_html(audit: Audit) -> str:
    """A self-contained HTML audit report: no network is needed to open it.

    Sections (element ids) ``REPORT_SECTIONS``; plotly.js is embedded once; every user string
    (group, column, model and file names) is HTML-escaped.
    """
    figure = _Figures()
    a = audit
    unit = a.unit

    settings = pd.DataFrame([
        ("data", a.data_name or "(unnamed)"),
        ("data fingerprint (sha256)", a.fingerprint or "(none)"),
        ("rows", a.n_rows),
        ("model (score column)", a.model_name),
        ("unit", unit or "(none)"),
        ("cases a month", a.volume if a.volume else "(not given)"),
        ("fairness tolerance", a.fairness_tolerance),
        ("fairness criteria", ", ".join(a.criteria) or "(none)"),
        ("bootstrap resamples", a.n_resamples),
        ("seed", a.seed),
        ("costlib version", a.version),
        ("created", a.created),
    ], columns=["setting", "value"])
    prices = pd.DataFrame([{"group": g, "c_fp": p[0], "c_fn": p[1], "elkan threshold": elkan_threshold(*p)}
                           for g, p in a.costs.items()])

    rules = a.table.drop(columns=["vs_nobody_note"])
    notes = [f"{r}: {NOT_DISTINGUISHABLE}." for r in a.table.loc[a.table["vs_nobody_note"] != "", "rule"]]
    leader_text = sensitivity_sentence(a)
    title = f"Cost audit: {a.model_name}" + (f" on {a.data_name}" if a.data_name else "")

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">costlib {_e(a.version)} · created {_e(a.created)} · data sha256 '
        f"{_e(a.fingerprint or '(none)')}</p>",
        '<section id="settings"><h2>Settings</h2>', _table_html(settings),
        "<h3>Prices per group</h3>", _table_html(prices), "</section>",
        '<section id="data"><h2>Data</h2>',
        "<p>Cases, positives and the mean score per group, on the training rows (where the cutoffs are fitted) "
        "and the test rows (where they are judged).</p>",
        _table_html(a.data_summary),
        (("<h3>Notes</h3>" + _paragraphs(a.notes)) if a.notes else ""),
        "</section>",
        '<section id="verdict"><h2>Verdict</h2>',
        f'<p class="verdict{" useless" if a.model_is_useless else ""}">{_e(a.verdict)}</p>',
        _paragraphs(notes), "</section>",
        '<section id="rules"><h2>Rules</h2>',
        "<p>Each rule's cutoff per group, fitted on the training rows and judged on the test rows. "
        "<em>low</em> and <em>high</em> bound cost per 100 (95% bootstrap interval); <em>vs_nobody</em> is the "
        "paired difference against flagging nobody (negative: the rule saves money), with its interval; "
        "<em>price_of_fairness_per_100</em> is the row's cost per 100 minus the same row under the cost-optimal "
        "rule.</p>",
        _table_html(rules), "</section>",
        '<section id="fairness"><h2>Fairness-constrained cutoffs</h2>',
        f"<p>Each constrained rule is the cheapest set of per-group cutoffs on the training rows that keeps every "
        f"group's rate within {a.fairness_tolerance:g} of every other's. Its price is what it costs beyond the "
        "cost-optimal rule; on the test rows the rates may drift apart again.</p>",
        _table_html(a.fairness_summary) if len(a.fairness_summary) else "<p>No fairness criterion was chosen.</p>",
        _table_html(a.fairness) if len(a.fairness) else "",
        "</section>",
        '<section id="sensitivity"><h2>Sensitivity to the prices</h2>',
        f"<p>{_e(leader_text)}</p>",
        "<p>The map uses one price pair for everyone (the pooled model at its cost-optimal cutoff fitted on the "
        "training rows, judged on the test rows) and shows which option is cheapest at each pair.</p>",
        figure(a.figures["sensitivity"]), "</section>",
        '<section id="net-benefit"><h2>Net benefit</h2>',
        "<p>Decision curve on the test rows: net benefit TP/n − FP/n · t/(1 − t) of flagging at threshold t, "
        "against flagging everybody and flagging nobody. A threshold t stands for the price ratio "
        "c_fp : c_fn = t : (1 − t).</p>",
        (figure(a.figures["net_benefit"]) if len(a.net_benefit)
         else "<p>Not shown: the scores are not probabilities.</p>"),
        "</section>",
        '<section id="charts"><h2>Charts</h2>',
        figure(a.figures["cost_by_group"]), figure(a.figures["rule_bars"]),
        "</section>",
        '<section id="limitations"><h2>Limitations</h2>', _paragraphs(LIMITATIONS), "</section>",
        "</body></html>",
    ]
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------
# Policy files


def _json_number(x: float):
    x = float(x)
    if x == math.inf:
        return "inf"
    if not math.isfinite(x):
        raise ValueError(f"a policy cannot hold the cutoff {x!r}")
    return x


def _json_value(x):
    """A group name or setting as plain JSON (numpy scalars to Python)."""
    return x.item() if isinstance(x, np.generic) else x


def policy_dict(audit: Audit, rule: str = COST_OPTIMAL, *, abstain_bands: Sequence[Mapping] = ()) -> dict:
    """The policy that `rule` sets, as JSON-ready data (see the module docstring for +inf).

    Raises ValueError for a rule the audit does not have or whose cutoffs are NaN.
    """
    if rule not in audit.cutoffs:
        raise ValueError(f"rule must be one of {list(audit.cutoffs)}: got {rule!r}")
    cut = audit.cutoffs[rule]
    bad = [g for g, t in cut.items() if math.isnan(float(t))]
    if bad:
        raise ValueError(f"the rule {rule!r} has no cutoff for group {bad[0]!r} (NaN): it cannot be a policy")
    total = audit.all_groups().loc[rule]
    bands = [{"group": _json_value(b["group"]), "low": float(b["low"]), "high": float(b["high"])}
             for b in abstain_bands]
    return {
        "schema": POLICY_SCHEMA,
        "schema_version": POLICY_SCHEMA_VERSION,
        "costlib_version": audit.version,
        "created": audit.created,
        "data": {"name": audit.data_name, "sha256": audit.fingerprint, "n_rows": audit.n_rows},
        "model": audit.model_name,
        "unit": audit.unit,
        "volume": audit.volume,
        "prices": [{"group": _json_value(g), "c_fp": float(p[0]), "c_fn": float(p[1])}
                   for g, p in audit.costs.items()],
        "rule": rule,
        "thresholds": [{"group": _json_value(g), "threshold": _json_number(t), "meaning": cutoff(float(t))}
                       for g, t in cut.items()],
        "abstain_bands": bands,
        "fairness_tolerance": audit.fairness_tolerance,
        "test_cost_per_100": {k: (None if pd.isna(total[k]) else float(total[k]))
                              for k in ("cost_per_100", "low", "high")},
        "verdict": audit.verdict,
        "model_is_useless": audit.model_is_useless,
    }


def policy_json(audit: Audit, rule: str = COST_OPTIMAL, *, abstain_bands: Sequence[Mapping] = ()) -> str:
    """`policy_dict` as indented JSON text (strict: no NaN or Infinity tokens)."""
    return json.dumps(policy_dict(audit, rule, abstain_bands=abstain_bands), indent=2, allow_nan=False,
                      ensure_ascii=False) + "\n"


def _bad(reason: str) -> DataError:
    return DataError(f"This is not a usable costlib policy file: {reason}.")


def _number(value, where: str, *, allow_inf: bool = False, minimum: float | None = None) -> float:
    if allow_inf and value == "inf":
        return math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(f"{where} must be a number, got {value!r}")
    x = float(value)
    if not math.isfinite(x):
        raise _bad(f"{where} must be a finite number, got {value!r}")
    if minimum is not None and x < minimum:
        raise _bad(f"{where} must be at least {minimum:g}, got {value!r}")
    return x


def _records(policy: dict, key: str) -> list:
    items = policy.get(key)
    if not isinstance(items, list) or not all(isinstance(r, dict) and "group" in r for r in items):
        raise _bad(f'"{key}" must be a list of records with a "group" field')
    return items


def load_policy(text: str | bytes) -> dict:
    """Read a policy file back: the `policy_dict` fields, with ``prices`` as {group: (c_fp, c_fn)}
    and ``thresholds`` as {group: float} (``"inf"`` restored to +inf).

    Raises DataError with a sentence for text that is not JSON, JSON that is not a costlib
    policy, a newer schema version, or a field of the wrong kind.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise _bad("it is not UTF-8 text") from None
    try:
        policy = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno}: {exc.msg})" if isinstance(exc, json.JSONDecodeError) else ""
        raise _bad(f"it is not JSON{where}") from None
    if not isinstance(policy, dict) or policy.get("schema") != POLICY_SCHEMA:
        raise _bad(f'it is JSON but not a costlib policy (it has no "schema": "{POLICY_SCHEMA}" field)')
    version = policy.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _bad(f'"schema_version" must be a whole number from 1, got {version!r}')
    if version > POLICY_SCHEMA_VERSION:
        raise _bad(f"it has schema version {version}, newer than this costlib reads ({POLICY_SCHEMA_VERSION}); "
                   "upgrade costlib")
    rule = policy.get("rule")
    if not isinstance(rule, str) or not rule:
        raise _bad('"rule" must name the rule that produced the cutoffs')
    data = policy.get("data", {})
    if not isinstance(data, dict):
        raise _bad('"data" must be a record with "name", "sha256" and "n_rows"')
    sha = data.get("sha256", "")
    if not isinstance(sha, str) or (sha and (len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha))):
        raise _bad(f'"data.sha256" must be 64 lower-case hex digits, got {sha!r}')
    prices = {}
    for i, r in enumerate(_records(policy, "prices")):
        where = f'prices[{i}] (group "{r["group"]}")'
        prices[r["group"]] = (_number(r.get("c_fp"), where + " c_fp", minimum=0.0),
                              _number(r.get("c_fn"), where + " c_fn", minimum=0.0))
    thresholds = {}
    for i, r in enumerate(_records(policy, "thresholds")):
        thresholds[r["group"]] = _number(r.get("threshold"), f'thresholds[{i}] (group "{r["group"]}")',
                                         allow_inf=True)
    missing = [g for g in thresholds if g not in prices]
    if missing:
        raise _bad(f'the group "{missing[0]}" has a cutoff but no prices')
    bands = []
    for i, b in enumerate(policy.get("abstain_bands") or []):
        if not isinstance(b, dict) or "group" not in b:
            raise _bad(f"abstain_bands[{i}] must be a record with group, low and high")
        low = _number(b.get("low"), f"abstain_bands[{i}] low")
        high = _number(b.get("high"), f"abstain_bands[{i}] high")
        if low > high:
            raise _bad(f"abstain_bands[{i}] has low {low:g} above high {high:g}")
        bands.append({"group": b["group"], "low": low, "high": high})
    volume = policy.get("volume")
    if volume is not None:
        volume = _number(volume, '"volume"', minimum=0.0)
    unit = policy.get("unit", "")
    if not isinstance(unit, str):
        raise _bad(f'"unit" must be text, got {unit!r}')
    out = dict(policy)
    out.update({"rule": rule, "prices": prices, "thresholds": thresholds, "abstain_bands": bands,
                "volume": volume, "unit": unit, "data": {"name": data.get("name", ""), "sha256": sha,
                                                         "n_rows": data.get("n_rows")}})
    return out
