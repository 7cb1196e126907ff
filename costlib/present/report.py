"""The audit of one decision as one value, and a self-contained HTML report of it.

Pure Python (no Streamlit). The steps are::

    models = {"score": decision.sweep_model(y, s, groups, fit=train, judge=test)}   # sort once
    audit = build_audit(models, {group: (c_fp, c_fn)}, unit="$", volume=10_000)    # price
    html = audit_html(audit)               # one file, opens offline (plotly.js embedded once)
    text = policy.policy_json(audit)       # the decision, for the system that applies it

Every rule is fitted on the training rows and judged on the test rows; intervals are the
exact multinomial bootstrap of `costlib.binary.decision.cell_bootstrap`, stratified by group and
seeded. `build_audit` reads sweeps only: the rows were sorted once, by `sweep_model`.
The pieces it is made of are public too, so that the dashboard can compute them apart
(the live answer on every price move, the slower fairness search when asked):
`decision.recommend`, `fairness_rules`, `fairness_tables`, `price_maps`, `data_summary`.
"""

from __future__ import annotations

import html as _html
import math
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from costlib.binary import audit as _audit
from costlib.binary import decision as D
from costlib.core import rules as R
from costlib.present.figures import cost_curve_figure, net_benefit_figure, rule_bars_figure, sensitivity_figure
from costlib.present.policy import POLICY_SCHEMA, POLICY_SCHEMA_VERSION, load_policy, policy_dict, policy_json
from costlib.present.words import cutoffs_short, money, number, ratio_text

__all__ = [
    "POLICY_SCHEMA",
    "POLICY_SCHEMA_VERSION",
    "REPORT_SECTIONS",
    "Audit",
    "PriceMaps",
    "audit_html",
    "build_audit",
    "data_summary",
    "fairness_rules",
    "fairness_tables",
    "load_policy",
    "policy_dict",
    "policy_json",
    "price_maps",
    "sensitivity_sentence",
]

REPORT_SECTIONS = (
    "settings",
    "data",
    "verdict",
    "rules",
    "fairness",
    "sensitivity",
    "net-benefit",
    "charts",
    "limitations",
)
RATIO_LIMITS = _audit.RATIO_LIMITS  # the c_fn : c_fp range searched by audit.ratio_range
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
# Pieces: the price-independent maps, fairness, the data summary
# (the audit record and its pieces live in costlib.binary; re-exported for the callers)

from costlib.binary.audit import Audit, build_audit, data_summary, mean_prices  # noqa: E402, F401
from costlib.binary.fairness import fairness_rules, fairness_tables  # noqa: E402, F401
from costlib.binary.sensitivity import PriceMaps, price_maps, price_scale  # noqa: E402, F401


def sensitivity_sentence(
    ratio_range: tuple[str, float, float],
    mean: tuple[float, float],
    unit: str = "",
    *,
    blended: bool = False,
    break_even: tuple[float, float] | None = None,
    model: str = "the model",
) -> str:
    """Which option is the answer at the mean prices (`audit.sensitivity_grid`'s choice: the
    model cheapest on train, or the cheaper decision without a model on test) and over which
    c_fn : c_fp ratios it stays the answer; with `break_even` (`elicit.break_even_range` of
    `model` on its fitting rows), the exact ratios at which the model can pay at all."""
    leader, lo, hi = ratio_range
    c_fp, c_fn = mean
    ratio = c_fn / c_fp if c_fp > 0 else math.inf
    leader = f"“{R.rule_words(leader)}”" if leader in R.BASELINES else f"the model “{leader}” at its best single cutoff"
    low_edge, high_edge = lo <= RATIO_LIMITS[0] * (1 + 1e-9), hi >= RATIO_LIMITS[1] * (1 - 1e-9)
    if low_edge and high_edge:
        span = f"at every ratio from 1:{RATIO_LIMITS[1]:,.0f} to {RATIO_LIMITS[1]:,.0f}:1"
    elif high_edge:
        span = f"while a false negative costs at least {ratio_text(lo)} times a false positive"
    elif low_edge:
        span = f"while a false negative costs at most {ratio_text(hi)} times a false positive"
    else:
        span = f"while a false negative costs between {ratio_text(lo)} and {ratio_text(hi)} times a false positive"
    shown = ratio_text(ratio) if math.isfinite(ratio) else "infinitely many"
    which = "your prices, averaged over the groups by their test rows" if blended else "your prices"
    return (
        f"At {which} (a false negative costs {shown} times a false positive: "
        f"{money(c_fn, unit)} against {money(c_fp, unit)}), the answer is {leader}; it stays the answer {span}."
    ) + ("" if break_even is None else " " + break_even_words(break_even, model))


def break_even_words(break_even: tuple[float, float], model: str = "the model") -> str:
    """'On the train rows, where its cutoffs are fitted, “m” can beat both choices without a
    model only while a false negative costs between 0.45 and 12 times a false positive.'
    (exact: `elicit.break_even_range`)."""
    lo, hi = break_even
    shown = f"“{model}”"
    if math.isnan(lo):
        return f"On the rows its cutoffs are fitted on, {shown} never beats both choices without a model."
    return (
        f"On the rows its cutoffs are fitted on, {shown} can beat both choices without a model only while a false "
        "negative "
        f"costs between {ratio_text(lo)} and {ratio_text(hi)} times a false positive"
        + ("" if math.isfinite(hi) else " (at least that much, with no upper end)")
        + "."
    )


# ---------------------------------------------------------------------------------------
# Figures and HTML report


def audit_figures(audit: Audit) -> dict:
    """The report's Plotly figures, built from the audit's computed arrays."""
    from costlib.present.figures import markers_frame

    mp = audit.mean_prices
    return {
        "sensitivity": sensitivity_figure(audit.maps.sensitivity, c_fp=mp[0], c_fn=mp[1], unit=audit.unit),
        "net_benefit": net_benefit_figure(
            audit.maps.net_benefit, price_threshold=mp[0] / (mp[0] + mp[1]) if sum(mp) > 0 else None
        ),
        "cost_curve": cost_curve_figure(
            audit.curves,
            markers_frame(audit.recommendation),
            unit=audit.unit,
            title="Cost per case against the cutoff (test rows)",
        ),
        "rule_bars": rule_bars_figure(audit.results.by_group, unit=audit.unit),
    }


def _e(text) -> str:
    return _html.escape(str(text), quote=True)


def _fmt(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return number(int(x), 0)
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            return "–"
        if math.isinf(x):
            return "∞" if x > 0 else "−∞"
        return number(x, 2) if abs(x) >= 1e4 else f"{x:.4g}".replace("-", "\u2212")
    return str(x)


_NUMERIC_CELL = re.compile(r"^[−\-+]?[^\w\s]{0,3}\s?[\d.,]+|^[–∞−]+$|^≥ ")


def _numeric_column(cells: list[str]) -> bool:
    """A column reads as numbers (right-aligned) when every filled cell starts like one:
    '1,234', '$0.53', '−$0.02 to $0.04', '35.6%', '≥ 0.323', '–'."""
    filled = [c for c in cells if c and c != "–"]
    return bool(filled) and all(_NUMERIC_CELL.match(c) for c in filled)


def _row_of(rec: D.Recommendation) -> int | None:
    rules = list(rec.results.overall.index)
    return rules.index(rec.rule) if rec.rule in rules else None


def _table_html(frame: pd.DataFrame, *, highlight: int | None = None) -> str:
    """An escaped HTML table: text columns left-aligned, number columns right-aligned, and row
    `highlight` (the recommended rule) marked."""
    cells = {c: [_fmt(x) for x in frame[c]] for c in frame.columns}
    num = {c: _numeric_column(v) for c, v in cells.items()}
    head = "".join(f'<th class="{"num" if num[c] else "txt"}">{_e(str(c))}</th>' for c in frame.columns)
    rows = []
    for i in range(len(frame)):
        tds = "".join(f'<td class="{"num" if num[c] else "txt"}">{_e(cells[c][i])}</td>' for c in frame.columns)
        rows.append(f'<tr class="pick">{tds}</tr>' if i == highlight else f"<tr>{tds}</tr>")
    table = f'<table class="tbl"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return f'<div class="scroll">{table}</div>'


def _paragraphs(texts: Sequence[str]) -> str:
    return "".join(f"<p>{_e(t)}</p>" for t in texts)


class _Figures:
    """Renders figures in document order; the first one carries plotly.js, the rest reuse it."""

    def __init__(self):
        self.included = False

    def __call__(self, fig: go.Figure) -> str:
        out = pio.to_html(
            fig,
            full_html=False,
            include_plotlyjs=not self.included,
            config={"displaylogo": False, "responsive": True},
            default_height="520px",
        )
        self.included = True
        return f'<div class="fig">{out}</div>'


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:2rem auto;max-width:1200px;
color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
table.tbl{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
table.tbl th,table.tbl td{border:1px solid #ddd;padding:.2rem .5rem}
table.tbl .num{text-align:right;white-space:nowrap}table.tbl .txt{text-align:left}
table.tbl tr.pick td{background:#eaf2fb;font-weight:600}
.scroll{overflow-x:auto}
@media print{.scroll{overflow:visible}.fig{break-inside:avoid}}
table.tbl th{background:#f3f5f8}
.verdict{font-size:1.1rem;font-weight:600;padding:.6rem;border-left:4px solid #1f5fa8;background:#f3f7fc}
.useless{border-left-color:#d1495b;background:#fcf3f4}
.meta{color:#555;font-size:.85rem}.fig{margin:1rem 0}
"""


def _cutoff_cell(t: float, group=None, lowest: dict | None = None) -> str:
    """One group's cutoff as the other tables write it (`words.cutoffs_short`), with "none
    (infeasible)" where no cutoff meets a constraint."""
    if t is None or math.isnan(t):
        return "none (infeasible)"
    return cutoffs_short({group: float(t)}, grouped=False, lowest=lowest)


def _money_cell(unit: str):
    return lambda x: "–" if x is None or not np.isfinite(x) else money(float(x), unit)


def _share(x) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{100 * float(x):.1f}%"


def _count(x) -> str:
    return "–" if x is None or not np.isfinite(x) else number(float(x), 0 if float(x).is_integer() else 2)


def _iv(lo, hi, fmt) -> str:
    return "–" if not (np.isfinite(lo) and np.isfinite(hi)) else f"{fmt(lo)} to {fmt(hi)}"


def rules_overall_table(rec: D.Recommendation, unit: str = "") -> pd.DataFrame:
    """The rules, all groups together, as a person reads them (page, report and command line):
    each rule's cutoff, the recommended one marked."""
    results = rec.results
    o = results.overall
    m = _money_cell(unit)
    base = R.rule_words(results.baseline)
    return pd.DataFrame(
        {
            "rule": [R.rule_words(r) + (" (recommended)" if r == rec.rule else "") for r in o.index],
            "cutoff": [_one_or_per_group(results.cutoffs[r], rec.lowest, "see by group") for r in o.index],
            "flagged": [_share(x) for x in o["flagged_rate"]],
            "cost per case": [m(x) for x in o["cost_per_case"]],
            "95% interval": [_iv(a, b, m) for a, b in zip(o["low"], o["high"], strict=True)],
            f"saving against {base}": [m(-x) for x in o["vs_baseline"]],
            "95% interval of the saving": [_iv(-b, -a, m) for a, b in zip(o["vs_low"], o["vs_high"], strict=True)],
        }
    )


def rules_numbers(results: D.RuleResults, *, by_group: bool = False) -> pd.DataFrame:
    """The rules tables as numbers, for a spreadsheet: the rule in words beside its id, costs in
    the user's unit per case (savings positive), no currency signs or rounding."""
    if by_group:
        t = results.by_group.copy()
        t.insert(0, "rule_words", [R.rule_words(r) for r in t["rule"]])
        return t.rename(columns={"low": "cost_low_95", "high": "cost_high_95"})
    o = results.overall
    return pd.DataFrame(
        {
            "rule_words": [R.rule_words(r) for r in o.index],
            "rule": list(o.index),
            "n": o["n"].to_numpy(),
            "flagged_rate": o["flagged_rate"].to_numpy(),
            "false_positives": o["fp"].to_numpy(),
            "false_negatives": o["fn"].to_numpy(),
            "cost_per_case": o["cost_per_case"].to_numpy(),
            "cost_low_95": o["low"].to_numpy(),
            "cost_high_95": o["high"].to_numpy(),
            f"saving_per_case_vs_{results.baseline}": -o["vs_baseline"].to_numpy(),
            "saving_low_95": -o["vs_high"].to_numpy(),
            "saving_high_95": -o["vs_low"].to_numpy(),
        }
    )


def rules_by_group_table(results: D.RuleResults, unit: str = "", *, lowest: dict | None = None) -> pd.DataFrame:
    """Each rule's cutoff and cost in each group (report and page). `lowest` is
    `Recommendation.lowest`: a cutoff at or below a group's lowest fitted score reads "everyone",
    as in the overall table."""
    t = results.by_group
    m = _money_cell(unit)
    return pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in t["rule"]],
            "group": t["group"].astype(str),
            "cutoff": [_cutoff_cell(x, g, lowest) for x, g in zip(t["threshold"], t["group"], strict=True)],
            "cases": [_count(x) for x in t["n"]],
            "flagged": [_share(x) for x in t["flagged_rate"]],
            "false positives": [_count(x) for x in t["fp"]],
            "false negatives": [_count(x) for x in t["fn"]],
            "cost per case": [m(x) for x in t["cost_per_case"]],
            "95% interval": [_iv(a, b, m) for a, b in zip(t["low"], t["high"], strict=True)],
        }
    )


def _settings_table(a: Audit) -> pd.DataFrame:
    return pd.DataFrame(
        [
            ("data", a.data_name or "(unnamed)"),
            ("data fingerprint (sha256)", a.fingerprint or "(none)"),
            ("rows", number(a.n_rows, 0)),
            ("model (score column)", a.model_name),
            ("unit", a.unit or "(none)"),
            ("cases a month", number(a.volume, 0) if a.volume else "(not given)"),
            ("fairness tolerance", f"{a.fairness_tolerance:g}"),
            ("fairness criteria", ", ".join(a.criteria) or "(none)"),
            ("bootstrap resamples", number(a.n_resamples, 0)),
            ("seed", str(a.seed)),
            ("costlib version", a.version),
            ("created", a.created),
        ],
        columns=["setting", "value"],
    )


def _prices_table(a: Audit) -> pd.DataFrame:
    m = _money_cell(a.unit)
    rows = []
    for g, (c_fp, c_fn) in a.costs.items():
        formula = c_fp / (c_fp + c_fn) if c_fp + c_fn > 0 else float("nan")
        rows.append(
            {
                "group": str(g),
                "false positive costs": m(c_fp),
                "false negative costs": m(c_fn),
                "formula cutoff c_fp/(c_fp+c_fn)": "–" if math.isnan(formula) else f"{formula:.4g}",
            }
        )
    return pd.DataFrame(rows)


def _data_tables(a: Audit) -> tuple[pd.DataFrame, pd.DataFrame]:
    def fmt(frame: pd.DataFrame) -> pd.DataFrame:
        return pd.DataFrame(
            {
                **({"group": frame["group"].astype(str)} if "group" in frame else {}),
                "cases": [_count(x) for x in frame["n"]],
                "positives": [_count(x) for x in frame["positives"]],
                "positive share": [_share(x) for x in frame["positive_share"]],
                "mean score": ["–" if not np.isfinite(x) else f"{x:.4g}" for x in frame["mean_score"]],
            }
        )

    by_group = a.data_summary
    overall = a.data_overall.reset_index()
    g = fmt(by_group)
    g.insert(0, "rows", by_group["split"].to_numpy())
    o = fmt(overall)
    o.insert(0, "rows", overall["split"].to_numpy())
    return g, o


def _within(summary: pd.DataFrame) -> list[str]:
    """ "yes"/"no" per fairness rule, "–" where the test gap cannot be measured (a group without
    the cases the rate needs on the test rows) or no cutoffs meet the constraint."""
    return [
        ("yes" if w else "no") if f and np.isfinite(gap) else "–"
        for w, f, gap in zip(
            summary["within_tolerance_on_test"], summary["feasible"], summary["spread_test"], strict=True
        )
    ]


def fairness_overview_table(
    summary: pd.DataFrame, results: D.RuleResults, unit: str = "", *, tolerance: float, lowest: dict | None = None
) -> pd.DataFrame:
    """The fairness rules as the Costs page shows them: the gap on train and test, whether the
    test gap stays within the tolerance, the cost, the price of fairness and (last: the widest)
    the cutoffs."""
    m = _money_cell(unit)
    cost = results.overall["cost_per_case"]
    return pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in summary["rule"]],
            "largest gap (train → test)": [
                f"{_share(a)} → {_share(b)}" if np.isfinite(a) or np.isfinite(b) else "–"
                for a, b in zip(summary["spread_train"], summary["spread_test"], strict=True)
            ],
            f"within {100 * tolerance:.3g}% on test": _within(summary),
            "cost per case": [m(cost.get(r, np.nan)) for r in summary["rule"]],
            "price of fairness per case": [m(x) for x in summary["price_per_case_test"]],
            "cutoffs": [
                _trivially(_one_or_per_group(results.cutoffs[r], lowest)) if f else "no cutoffs meet it"
                for r, f in zip(summary["rule"], summary["feasible"], strict=True)
            ],
        }
    )


def _one_or_per_group(cutoffs: dict, lowest: dict | None = None, where: str = "table below") -> str:
    """A rule's cutoffs in one short cell: the cutoff when every group shares it, else a
    pointer to the table that lists them (`where`: a list of groups does not fit a cell)."""
    shown = cutoffs_short(cutoffs, grouped=True, lowest=lowest)
    return shown if " · " not in shown else f"one per group ({where})"


def _trivially(cell: str) -> str:
    """Flagging everyone (or nobody) in every group equalises most rates by doing nothing: say so."""
    return f"{cell} (trivially equal)" if cell in ("everyone", "nobody") else cell


def fairness_cutoffs_table(
    summary: pd.DataFrame, results: D.RuleResults, *, lowest: dict | None = None
) -> pd.DataFrame:
    """Each fairness rule's cutoff in each group: a row per rule, a column per group."""
    rows = []
    for rule, feasible in zip(summary["rule"], summary["feasible"], strict=True):
        cut = results.cutoffs[rule]
        rows.append(
            {
                "rule": R.rule_words(rule),
                **{str(g): _cutoff_cell(cut.get(g, math.nan), g, lowest) if feasible else "–" for g in cut},
            }
        )
    return pd.DataFrame(rows)


def _fairness_tables_text(a: Audit) -> tuple[pd.DataFrame, pd.DataFrame]:
    m = _money_cell(a.unit)
    s = a.fairness_summary
    summary = pd.DataFrame(
        {
            "rule": [R.rule_words(r) for r in s["rule"]],
            "rate made equal": s["rate"],
            "feasible": ["yes" if x else "no" for x in s["feasible"]],
            "largest gap (train)": [_share(x) for x in s["spread_train"]],
            "largest gap (test)": [_share(x) for x in s["spread_test"]],
            "within tolerance on test": _within(s),
            "price per case (train)": [m(x) for x in s["price_per_case_train"]],
            "price per case (test)": [m(x) for x in s["price_per_case_test"]],
        }
    )
    f = a.fairness
    long = pd.DataFrame(
        {
            "criterion": f["criterion"],
            "group": f["group"].astype(str),
            "cutoff": [
                _cutoff_cell(x, g, a.recommendation.lowest) for x, g in zip(f["threshold"], f["group"], strict=True)
            ],
            "rate (train)": [_share(x) for x in f["rate_train"]],
            "rate (test)": [_share(x) for x in f["rate_test"]],
        }
    )
    return summary, long


def _questions_html(a: Audit) -> str:
    """How the prices were chosen (Find my prices): the questions, the answers, the range."""
    q = a.price_questions
    if not q:
        return "<p>The prices were set directly, not from questions.</p>"
    answers = pd.DataFrame(
        [
            {
                "question": r.get("question", ""),
                "answer": {
                    "miss": "the miss is worse",
                    "alarm": "the false alarms are worse",
                    "same": "about the same",
                }.get(r.get("answer"), r.get("answer")),
            }
            for r in q.get("answers", [])
        ]
    )
    outcomes = q.get("outcomes", {})
    span = (
        f"{outcomes.get('miss', 'a miss')} costs between {ratio_text(q.get('ratio_low', math.nan))} and "
        f"{ratio_text(q.get('ratio_high', math.nan))} times {outcomes.get('false_alarm', 'a false alarm')}"
    )
    if q.get("in_force", True):
        text = (
            f"The prices come from {len(answers)} answers: {span}; the prices use the middle of that range, "
            f"{ratio_text(q.get('ratio_chosen', math.nan))}."
        )
    else:
        now = q.get("ratio_now")
        text = (
            f"{len(answers)} answers gave: {span} (middle {ratio_text(q.get('ratio_chosen', math.nan))}). The prices "
            "were then changed by hand"
            + (f" to a ratio of {ratio_text(now)}" if now is not None else "")
            + ", so they do not come from these answers."
        )
    multipliers = q.get("group_multipliers") or {}
    if any(m != 1.0 for m in multipliers.values()):
        miss = str(outcomes.get("miss", "a miss"))
        text += (
            f" {miss[:1].upper() + miss[1:]} was said to cost more or less in some groups: "
            + "; ".join(f"{g} × {ratio_text(float(m))}" for g, m in multipliers.items())
            + "."
        )
    return "<h3>How the prices were chosen</h3>" + _paragraphs([text]) + (_table_html(answers) if len(answers) else "")


def audit_html(audit: Audit) -> str:
    """A self-contained HTML audit report: no network is needed to open it.

    Sections (element ids) ``REPORT_SECTIONS``; plotly.js is embedded once; every user string
    (group, column, model and file names, the unit) is HTML-escaped, in tables, sentences
    and charts alike.
    """
    figure = _Figures()
    figs = audit_figures(audit)
    a = audit
    title = f"Cost audit: {a.model_name}" + (f" on {a.data_name}" if a.data_name else "")
    data_groups, data_overall = _data_tables(a)
    fair_summary, fair_long = _fairness_tables_text(a)
    sensitivity = a.sensitivity
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">costlib {_e(a.version)} · created {_e(a.created)} · data sha256 '
        f"{_e(a.fingerprint or '(none)')}</p>",
        '<section id="settings"><h2>Settings</h2>',
        _table_html(_settings_table(a)),
        "<h3>Prices per group</h3>",
        _table_html(_prices_table(a)),
        _questions_html(a),
        "</section>",
        '<section id="data"><h2>Data</h2>',
        "<p>Cases, positives and the mean score per group, on the training rows (where the cutoffs are fitted) "
        "and the test rows (where they are judged).</p>",
        _table_html(data_groups),
        "<h3>All groups together</h3>",
        _table_html(data_overall),
        (("<h3>Notes</h3>" + _paragraphs(a.notes)) if a.notes else ""),
        "</section>",
        '<section id="verdict"><h2>Recommendation</h2>',
        f'<p class="verdict{" useless" if a.model_is_useless else ""}">{_e(a.verdict.headline)}</p>',
        _paragraphs(a.verdict.details),
        ("<h3>Why not another rule?</h3>" + _paragraphs(a.verdict.asides)) if a.verdict.asides else "",
        "</section>",
        '<section id="rules"><h2>Rules</h2>',
        "<p>Each rule fitted on the training rows and judged on the test rows, all groups together, with 95% "
        "bootstrap intervals (test rows resampled within each group). The saving is measured against the cheaper "
        "decision without a model, on the same resamples.</p>",
        _table_html(rules_overall_table(a.recommendation, a.unit), highlight=_row_of(a.recommendation)),
        "<h3>By group</h3>",
        _table_html(rules_by_group_table(a.results, a.unit, lowest=a.recommendation.lowest)),
        "</section>",
        '<section id="fairness"><h2>Fairness-constrained cutoffs</h2>',
        f"<p>Each constrained rule is the cheapest set of per-group cutoffs on the training rows that keeps every "
        f"group's rate within {a.fairness_tolerance:g} of every other's. Its price is what it costs beyond the "
        "best cutoff per group; on the test rows the rates may drift apart again.</p>",
        _table_html(fair_summary)
        if len(fair_summary)
        else "<p>No fairness criterion applies (one group, or none chosen).</p>",
        _table_html(fair_long) if len(fair_long) else "",
        "</section>",
        '<section id="sensitivity"><h2>Sensitivity to the prices</h2>',
        f"<p>{_e(sensitivity)}</p>",
        "<p>The map uses one price pair for everyone (each model at its best single cutoff fitted on the training "
        "rows, judged on the test rows) and shows which option is cheapest at each pair.</p>",
        figure(figs["sensitivity"]),
        "</section>",
        '<section id="net-benefit"><h2>Net benefit</h2>',
        "<p>Decision curve on the test rows: net benefit TP/n − FP/n · t/(1 − t) of flagging at threshold t, "
        "against flagging everyone and flagging nobody. A threshold t stands for the price ratio "
        "c_fp : c_fn = t : (1 − t).</p>",
        (
            figure(figs["net_benefit"])
            if len(a.maps.net_benefit)
            else "<p>Not shown: the scores are not probabilities.</p>"
        ),
        "</section>",
        '<section id="charts"><h2>Charts</h2>',
        figure(figs["cost_curve"]),
        figure(figs["rule_bars"]),
        "</section>",
        '<section id="limitations"><h2>Limitations</h2>',
        _paragraphs(LIMITATIONS),
        "</section>",
        "</body></html>",
    ]
    return "\n".join(parts)
