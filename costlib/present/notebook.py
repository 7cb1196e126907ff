"""How an answer shows itself in a notebook: Jupyter calls ``_repr_html_`` and draws what it
returns, so an `Audit` or a `Recommendation` left at the end of a cell shows its verdict
(coloured by its kind: ship, not clearly better, do not let the model decide) and its rules
table, the row it ships marked, in the manner of scikit-learn's Display objects. Every string
is HTML-escaped (`core.escaping.html_escape`): group, column and file names come from users.
It is shown as typed, in bounded length: control characters, line breaks and right-to-left
overrides each show as "?" (`core.escaping.display_name`), a name in the title or a table cell
takes at most `MAX_CELL_CHARS` characters and a sentence `MAX_SENTENCE_CHARS`, and the card is
marked for MathJax to leave alone (Jupyter typesets ``$...$`` in HTML output otherwise).
"""

from __future__ import annotations

from costlib.core.escaping import MAX_CELL_CHARS, display_name, html_escape

#: the verdict box's colours by `words.Verdict.kind`
COLOURS = {"success": ("#e8f5e9", "#1b5e20"), "warning": ("#fff8e1", "#8a6d00"), "error": ("#fdecea", "#b71c1c")}
STYLE = (
    "<style>.costlib-card table{border-collapse:collapse;font-size:.85rem}"
    ".costlib-card th,.costlib-card td{border:1px solid #ddd;padding:.2rem .5rem}"
    ".costlib-card td.num,.costlib-card th.num{text-align:right}.costlib-card th.txt{text-align:left}"
    ".costlib-card tr.pick{background:#eef4fb;"
    "font-weight:600}</style>"
)
#: the classes MathJax 2 and 3 (classic Notebook, JupyterLab) skip: a "$x$" in a name stays text
NO_MATH = "tex2jax_ignore mathjax_ignore"
#: the most characters of one sentence of the card (its names are already cut to MAX_CELL_CHARS)
MAX_SENTENCE_CHARS = 5_000


def shown(text, limit: int = MAX_SENTENCE_CHARS) -> str:
    """Text as the card shows it: hidden characters as "?" and at most `limit` characters
    (`display_name`), HTML-escaped.

    Examples
    --------
    >>> shown("<b>x\u202egnp.exe</b>")
    '&lt;b&gt;x?gnp.exe&lt;/b&gt;'
    >>> len(shown("a" * 100_000, 200))
    200
    """
    return html_escape(display_name(text, limit))


def card(title: str, verdict, table_html: str, notes=()) -> str:
    """An answer as HTML: its `title`, the `verdict` (`words.Verdict`: headline and details),
    the table (already escaped HTML) and `notes` (sentences)."""
    back, ink = COLOURS.get(verdict.kind, COLOURS["warning"])
    details = "".join(f"<p>{shown(d)}</p>" for d in verdict.details)
    notes_html = "".join(f'<p style="color:#555">{shown(n)}</p>' for n in notes)
    return (
        f'<div class="costlib-card {NO_MATH}">{STYLE}'
        f'<p style="font-weight:600;margin-bottom:.3rem">{shown(title)}</p>'
        f'<div style="background:{back};color:{ink};padding:.6rem .8rem;border-radius:.3rem">'
        f"<p><b>{shown(verdict.headline)}</b></p>{details}</div>{table_html}{notes_html}</div>"
    )


def _rules(rec, unit: str) -> str:
    """The rules table (`tables.rules_overall_table`) as HTML, the row the verdict ships marked,
    each text cell and column name shown as `shown` shows a name."""
    from costlib.present.report import shipped_row
    from costlib.present.report_html import table_html
    from costlib.present.tables import rules_overall_table

    table = rules_overall_table(rec, unit)
    table = table.map(lambda x: display_name(x, MAX_CELL_CHARS) if isinstance(x, str) else x)
    table.columns = [display_name(c, MAX_CELL_CHARS) for c in table.columns]
    return table_html(table, highlight=shipped_row(rec))


def recommendation_card(rec, *, unit: str = "", volume: float | None = None) -> str:
    """A `Recommendation` as HTML: its verdict (`words.recommendation_verdict`) and the rules table."""
    from costlib.present.words import recommendation_verdict

    verdict = recommendation_verdict(rec, unit=unit, volume=volume)
    return card(f"Which cutoff to ship: {display_name(rec.model, MAX_CELL_CHARS)}", verdict, _rules(rec, unit))


def audit_card(audit) -> str:
    """An `Audit` as HTML: its verdict, the rules table, and its notes."""
    model, data = (display_name(x, MAX_CELL_CHARS) for x in (audit.model_name, audit.data_name or ""))
    title = f"Cost audit: {model}" + (f" on {data}" if audit.data_name else "")
    return card(title, audit.verdict, _rules(audit.recommendation, audit.unit), audit.notes)
