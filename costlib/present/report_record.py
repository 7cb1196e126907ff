"""The record of an audit in the report (`costlib.present.report.audit_html`): the settings, what
was judged (the file, its sha256, its columns and values, the rules compared, the rows fitted and
judged), how the prices were chosen, the data's words, and the place to sign.

These are the audit trail a fairness reviewer re-runs an audit from: the report shows them after
the answer and what it was judged on, and keeps every one of them.
"""

from __future__ import annotations

import math

import pandas as pd

from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.core import rules as R
from costlib.present.amounts import number, percent, plain_number, ratio_text
from costlib.present.identity import identity_text
from costlib.present.policy_records import REVIEW_FIELDS
from costlib.present.report_html import BLOCK_BREAK, paragraphs, table_html
from costlib.present.signing import SIGN_COMMAND
from costlib.present.words import fitted_rows, ratio_between, split_sentence

__all__ = [
    "GROUP_COLUMNS",
    "REVIEW_NOTE",
    "data_caption",
    "data_sentence",
    "judged_sentence",
    "questions_html",
    "record_table",
    "review_html",
    "settings_table",
]


def settings_table(a) -> pd.DataFrame:
    return pd.DataFrame(
        [
            ("data", a.data_name or "(unnamed)"),
            ("data fingerprint (sha256)", a.fingerprint or "(none)"),
            ("rows", number(a.n_rows, 0)),
            ("model (score column)", a.model_name),
            ("unit", a.unit or "(none)"),
            ("cases a month", number(a.volume, 0) if a.volume else "(not given)"),
            ("review limit", _limit_text(a)),
            ("fairness tolerance", plain_number(a.fairness_tolerance)),
            ("fairness criteria", ", ".join(a.criteria) or "(none)"),
            ("bootstrap resamples", number(a.n_resamples, 0)),
            ("seed", str(a.seed)),
            ("costlib version", a.version),
            ("created", a.created),
        ],
        columns=["setting", "value"],
    )


def _limit_text(a) -> str:
    record = a.capacity_record
    if record is None:
        return "(none)"
    share = percent(record["max_flagged"])
    n = record["cases_per_month"]
    return f"{number(n, 0)} cases a month ({share} of the cases)" if n is not None else f"{share} of the cases"


GROUP_COLUMNS = "{columns}: the groups are their intersections (“a × b”)"
"""The record's line for several group columns."""


def record_table(a) -> pd.DataFrame:
    """What the audit judged: the data dictionary, the rules compared and the groups pooled."""
    d = a.data_dictionary
    rec = a.recommendation
    split = d["split"]
    rows = [
        ("file", d["file"] or "(unnamed)"),
        ("sha256", d["sha256"] or "(not computed)"),
        ("label column", d["label"] or "(not named)"),
        ("positive value", str(d["positive"])),
        ("score column (the model audited)", d["score"]),
        *([("model identity", identity_text(a.model_identity))] if a.model_identity else []),
        ("score scale", d["scale"] or "(not named)"),
        (
            ("group columns", GROUP_COLUMNS.format(columns=", ".join(f"“{c}”" for c in d["group_columns"])))
            if d.get("group_columns")
            else ("group column", d["group"] or "(none: everyone is one group)")
        ),
        (
            "split column",
            (
                f"{split} (train rows: “{d['train']}”, test rows: “{d['test']}”)"
                if d["test"] is not None
                else f"{split} (no test rows: every row is fitted and judged, the fitted rules cross-fitted)"
            )
            if split
            else "(none: fitted rules are cross-fitted)",
        ),
        ("weight column", d.get("weight") or "(none: each row counts once)"),
        ("models compared", ", ".join(map(str, rec.models["model"]))),
        ("rules compared", ", ".join(R.rule_words(r) for r in rec.results.overall.index)),
        (
            "groups given the cutoff for everyone",
            ", ".join(map(str, rec.pooled)) + f" (fewer than {MIN_CLASS_ROWS} positives or negatives on the fit rows)"
            if rec.pooled
            else "(none)",
        ),
        ("how the fitted rules were judged", judged_sentence(rec)),
    ]
    return pd.DataFrame(rows, columns=["what", "value"])


def data_sentence(rec) -> str:
    """The report's words over the data per group: where the cutoffs are fitted and judged."""
    if rec.judged_on == "test":  # the rows that fitted: train, or validation without train rows (`fit_role`)
        return (
            f"<p>Cases, positives and the mean score per group, on {fitted_rows(rec)} (where the cutoffs are "
            "fitted) and the test rows (where they are judged).</p>"
        )
    return (
        "<p>Cases, positives and the mean score per group, on all rows: no rows are set aside for testing, so the "
        "cutoffs are fitted and judged on all rows (the recommendation says how).</p>"
    )


def data_caption(rec) -> str:
    return f"Each group on {fitted_rows(rec)} and the test rows" if rec.judged_on == "test" else "Each group, all rows"


def judged_sentence(rec) -> str:
    return split_sentence(
        rec.judged_on,
        rec.n_fit,
        rec.n_judged,
        rec.estimate,
        rule=rec.rule,
        weighted=rec.weighted,
        fit_role=rec.fit_role,
    )


REVIEW_NOTE = (
    "To be filled in by the reviewer who signs this audit. The policy file keeps the same fields ({fields}), so "
    "the system that applies the cutoffs can check that the policy was signed; the reviewer signs it with {sign}."
)
"""Over the report's place to sign; the fields are the policy's (`policy_records.REVIEW_FIELDS`)."""


def review_html() -> str:
    """The place to sign: one row per field of the policy's review (`REVIEW_FIELDS`), named as the
    sentence over it names them."""
    cells = "".join(
        f"<tr><th scope='row'>{field.capitalize()}</th><td class='blank'>&nbsp;</td></tr>" for field in REVIEW_FIELDS
    )
    fields = ", ".join(f"review.{field}" for field in REVIEW_FIELDS)
    note = paragraphs([REVIEW_NOTE.format(fields=fields, sign=SIGN_COMMAND)])
    return f"{note}<table class='review'>{cells}</table>{BLOCK_BREAK}"


def questions_html(a) -> str:
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
    span = ratio_between(
        outcomes.get("miss", "a miss"),
        outcomes.get("false_alarm", "a false alarm"),
        q.get("ratio_low", math.nan),
        q.get("ratio_high", math.nan),
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
    return (
        "<h3>How the prices were chosen</h3>"
        + paragraphs([text])
        + (table_html(answers, caption="The questions and the answers") if len(answers) else "")
    )
