"""The HTML report's structure for assistive technology, without a browser (the browser suite runs
axe-core on it: tests/e2e/test_report_accessibility.py): a language, headings in order, column
headers, and every chart with its sentence and its numbers (issue 38, item 4)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from costlib.present.chart_text import chart_text
from costlib.present.report import audit_figures, audit_html
from costlib.present.report_html import CSS
from tests.present.test_report import audit, compas  # noqa: F401 (fixtures)


class _Outline(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings, self.th, self.figures, self.stack = [], [], [], []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "th":
            self.th.append(attrs.get("scope"))
        if tag == "figure":
            self.figures.append({"caption": "", "tables": 0})
            self.inside = True
        if tag in ("figcaption", "summary"):
            self.stack.append(tag)
        if tag == "table" and self.inside:
            self.figures[-1]["tables"] += 1

    def handle_endtag(self, tag):
        if tag == "figure":
            self.inside = False
        if self.stack and tag == self.stack[-1]:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "figcaption":
            self.figures[-1]["caption"] += data


def test_the_report_has_its_language_headings_in_order_and_column_headers(audit):  # noqa: F811
    html = audit_html(audit)
    outline = _Outline()
    outline.feed(html)
    assert '<html lang="en">' in html
    levels = outline.headings
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels  # no level skipped
    assert outline.th and set(outline.th) <= {"col", "row"}, set(outline.th)


def test_every_chart_has_its_sentence_as_caption_and_its_numbers_folded_under_it(audit):  # noqa: F811
    html = audit_html(audit)
    outline = _Outline()
    outline.feed(html)
    figures = audit_figures(audit)
    assert len(outline.figures) == len(figures)
    for shown, fig in zip(outline.figures, figures.values(), strict=True):
        assert shown["caption"] == chart_text(fig).sentence and shown["tables"] == 1
    assert html.count("<details>") == len(figures)


def test_the_report_has_a_print_stylesheet():
    printed = CSS[CSS.index("@media print") :]
    for rule in (".screen-only", "details", ".modebar-container", "break-inside:avoid", "attr(href)"):
        assert rule in printed, rule
