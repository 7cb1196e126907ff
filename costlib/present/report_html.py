"""The HTML pieces of a self-contained report: escaped tables (`table_html`), paragraphs, charts
with their sentence and their numbers folded under them (`HtmlFigures`), the page's style (`CSS`)
and the script that fits the charts to a printed page (`PRINT_SCRIPT`).

Every user string is HTML-escaped here (`costlib.core.escaping.html_escape`);
`costlib.present.report.audit_html` puts the pieces together.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.core.escaping import html_escape
from costlib.present.amounts import number
from costlib.present.chart_text import chart_text, words

if TYPE_CHECKING:
    import plotly.graph_objects as go


def _fmt(x) -> str:
    if x is None:
        return "–"
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


#: Between two blocks of text the report's HTML has a line break: a browser sets blocks apart anyway, but
#: the report turned into text without its styles (by a tool, a mail client, the golden files) ran one
#: block's last sentence into the next one's first ("...from cutoff 0.51 on.The numbers behind ...").
BLOCK_BREAK = "\n"


_NUMERIC_CELL = re.compile(r"^[−\-+]?[^\w\s]{0,3}\s?[\d.,]+|^[–∞−]+$|^≥ ")


def _numeric_column(cells: list[str]) -> bool:
    """A column reads as numbers (right-aligned) when every filled cell starts like one:
    '1,234', '$0.53', '−$0.02 to $0.04', '35.6%', '≥ 0.323', '–'."""
    filled = [c for c in cells if c and c != "–"]
    return bool(filled) and all(_NUMERIC_CELL.match(c) for c in filled)


def table_html(frame: pd.DataFrame, *, highlight: int | None = None, caption: str | None = None) -> str:
    """An escaped HTML table: its column headers marked as such (``scope="col"``, so that a
    screen reader names each cell's column), text columns left-aligned, number columns
    right-aligned, row `highlight` (the recommended rule) marked, and `caption` (what the table
    holds, where no heading right above says it) as its caption; a line apart from the text around
    it (`BLOCK_BREAK`)."""
    cells = {c: [_fmt(x) for x in frame[c]] for c in frame.columns}
    num = {c: _numeric_column(v) for c, v in cells.items()}
    head = "".join(
        f'<th scope="col" class="{"num" if num[c] else "txt"}">{html_escape(str(c))}</th>' for c in frame.columns
    )
    rows = []
    for i in range(len(frame)):
        tds = "".join(
            f'<td class="{"num" if num[c] else "txt"}">{html_escape(cells[c][i])}</td>' for c in frame.columns
        )
        rows.append(f'<tr class="pick">{tds}</tr>' if i == highlight else f"<tr>{tds}</tr>")
    title = f"<caption>{html_escape(caption)}</caption>{BLOCK_BREAK}" if caption else ""
    body = BLOCK_BREAK.join(rows)  # a row a line, the caption a line of its own
    table = f'<table class="tbl">{title}<thead><tr>{head}</tr></thead>{BLOCK_BREAK}<tbody>{body}</tbody></table>'
    return f'{BLOCK_BREAK}<div class="scroll">{table}</div>{BLOCK_BREAK}'


def paragraphs(texts: Sequence[str]) -> str:
    """Each text as an escaped paragraph, a line apart (`BLOCK_BREAK`)."""
    return "".join(f"{BLOCK_BREAK}<p>{html_escape(t)}</p>{BLOCK_BREAK}" for t in texts)


NUMBERS = "The numbers behind “{title}”"  # the summary of a chart's folded table
SCREEN_NOTE = (
    "Hover over a chart for its values. Under each chart, a sentence says what it shows, and its numbers are "
    "folded under it as a table. Printed, each chart keeps its sentence and fits the page."
)
PRINT_WIDTH_PX = 680  # a chart's width in print: A4 or Letter less 12 mm margins is at least 703 px


class HtmlFigures:
    """Renders figures in document order; the first one carries plotly.js, the rest reuse it.

    Each chart is a ``<figure>``: the chart, its sentence as the caption that describes it, and
    the numbers behind it as a table folded under it (`present.chart_text`: the same text
    alternative the app gives; `text`: another maker of it, as the report's
    `report_charts.report_chart_text`).
    """

    def __init__(self, text=chart_text):
        self.included = False
        self.count = 0
        self.text = text

    def __call__(self, fig: go.Figure) -> str:
        import plotly.io as pio  # Plotly loads when a chart is drawn, not when the report's pieces are imported

        out = pio.to_html(
            fig,
            full_html=False,
            include_plotlyjs=not self.included,
            config={"displaylogo": False, "responsive": True},
            default_height="520px",
        )
        self.included = True
        self.count += 1
        alt = self.text(fig)
        title = words(fig.layout.title.text) or "the chart"
        said = f"chart-{self.count}-words"
        note = f'<p class="meta">{html_escape(alt.note)}</p>' if alt.note else ""
        parts = (  # each block a line apart (`BLOCK_BREAK`): the sentence is not run into the summary
            f'<figure class="chart"><div class="fig" aria-describedby="{said}">{out}</div>',
            f'<figcaption id="{said}">{html_escape(alt.sentence)}</figcaption>',
            f"<details><summary>{html_escape(NUMBERS.format(title=title))}</summary>",
            note,
            f"{table_html(alt.table, caption=NUMBERS.format(title=title))}</details></figure>",
        )
        return BLOCK_BREAK + BLOCK_BREAK.join(p for p in parts if p) + BLOCK_BREAK


# In print, each chart is drawn again at the page's width (Plotly draws at its box's width, and a
# page is narrower than a screen), and back at the window's width after.
PRINT_SCRIPT = f"""<script>(function () {{
  function fit(on) {{
    document.querySelectorAll(".js-plotly-plot").forEach(function (gd) {{
      Plotly.relayout(gd, on ? {{width: {PRINT_WIDTH_PX}, autosize: false}} : {{width: null, autosize: true}});
    }});
  }}
  window.matchMedia("print").addEventListener("change", function (e) {{ fit(e.matches); }});
  window.addEventListener("beforeprint", function () {{ fit(true); }});
  window.addEventListener("afterprint", function () {{ fit(false); }});
}})();</script>"""


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
table.review{border-collapse:collapse;margin:.5rem 0}table.review th{text-align:left;padding:.6rem 1rem .6rem 0}
table.review td.blank{border-bottom:1px solid #444;min-width:24rem}
table.tbl caption{text-align:left;font-weight:600;padding:.2rem 0}
figure.chart{margin:1rem 0}figure.chart figcaption{margin:.3rem 0;max-width:60rem}
details{margin:.3rem 0}summary{cursor:pointer;color:#1a4f8b}
summary:focus-visible{outline:2px solid #1a4f8b;outline-offset:2px}
@page{margin:12mm}
@media print{
body{max-width:none;margin:0;padding:0;font-size:10pt;color:#000}
.screen-only,details,details>summary,.modebar-container{display:none!important}
table.tbl,figure,.verdict,table.review{break-inside:avoid}
thead{display:table-header-group}tr{break-inside:avoid}h2,h3{break-after:avoid}
.fig{max-width:100%;overflow:hidden}
a[href^="http"]::after{content:" (" attr(href) ")"}
}
"""
