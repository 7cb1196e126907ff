"""How an answer shows itself in a notebook: Jupyter calls ``_repr_html_`` and draws what it
returns, so an `Audit` or a `Recommendation` left at the end of a cell shows its verdict
(coloured by its kind: ship, not clearly better, do not let the model decide) and its rules
table, the row it ships marked, in the manner of scikit-learn's Display objects. Every string
is HTML-escaped (`core.escaping.html_escape`): group, column and file names come from users.
"""

from __future__ import annotations

from costlib.core.escaping import html_escape

#: the verdict box's colours by `words.Verdict.kind`
COLOURS = {"success": ("#e8f5e9", "#1b5e20"), "warning": ("#fff8e1", "#8a6d00"), "error": ("#fdecea", "#b71c1c")}
STYLE = (
    "<style>.costlib-card table{border-collapse:collapse;font-size:.85rem}"
    ".costlib-card th,.costlib-card td{border:1px solid #ddd;padding:.2rem .5rem}"
    ".costlib-card td.num,.costlib-card th.num{text-align:right}.costlib-card th.txt{text-align:left}"
    ".costlib-card tr.pick{background:#eef4fb;"
    "font-weight:600}</style>"
)


def card(title: str, verdict, table_html: str, notes=()) -> str:
    """An answer as HTML: its `title`, the `verdict` (`words.Verdict`: headline and details),
    the table (already escaped HTML) and `notes` (sentences)."""
    back, ink = COLOURS.get(verdict.kind, COLOURS["warning"])
    details = "".join(f"<p>{html_escape(d)}</p>" for d in verdict.details)
    notes_html = "".join(f'<p style="color:#555">{html_escape(n)}</p>' for n in notes)
    return (
        f'<div class="costlib-card">{STYLE}<p style="font-weight:600;margin-bottom:.3rem">{html_escape(title)}</p>'
        f'<div style="background:{back};color:{ink};padding:.6rem .8rem;border-radius:.3rem">'
        f"<p><b>{html_escape(verdict.headline)}</b></p>{details}</div>{table_html}{notes_html}</div>"
    )


def _rules(rec, unit: str) -> str:
    """The rules table (`tables.rules_overall_table`) as HTML, the row the verdict ships marked."""
    from costlib.present.report import shipped_row, table_html
    from costlib.present.tables import rules_overall_table

    return table_html(rules_overall_table(rec, unit), highlight=shipped_row(rec))


def recommendation_card(rec, *, unit: str = "", volume: float | None = None) -> str:
    """A `Recommendation` as HTML: its verdict (`words.recommendation_verdict`) and the rules table."""
    from costlib.present.words import recommendation_verdict

    verdict = recommendation_verdict(rec, unit=unit, volume=volume)
    return card(f"Which cutoff to ship: {rec.model}", verdict, _rules(rec, unit))


def audit_card(audit) -> str:
    """An `Audit` as HTML: its verdict, the rules table, and its notes."""
    title = f"Cost audit: {audit.model_name}" + (f" on {audit.data_name}" if audit.data_name else "")
    return card(title, audit.verdict, _rules(audit.recommendation, audit.unit), audit.notes)
