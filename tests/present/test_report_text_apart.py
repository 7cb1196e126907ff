"""The report's text read without its styles (by a tool, a mail client, the golden files) ran one block's last
sentence into the next one's first: "...from cutoff 0.51 on.The numbers behind “Net benefit ...”" (a chart's
sentence into the summary of its folded numbers), and paragraph into paragraph ("...would change
nothing.Cutoffs are fitted ..."). A browser sets the blocks apart; the HTML now has a line break between them
too (`report_html.BLOCK_BREAK`)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pandas as pd

from costlib.present.report_html import NUMBERS, paragraphs, table_html
from tests.present.test_report import audit, compas, report  # noqa: F401 (fixtures)

# a sentence's full stop with the next sentence's first letter right after it, no space or line between
RUN_TOGETHER = re.compile(r"[a-z%)”\d]\.[A-Z“]")


class _Text(HTMLParser):
    """Every text node of a page as it is, joined: what a tool that ignores the tags reads (scripts and
    styles left out)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def text_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


def test_no_sentence_of_the_report_runs_into_the_next(report):  # noqa: F811
    text = text_of(report)
    runs = [text[max(m.start() - 40, 0) : m.end() + 30] for m in RUN_TOGETHER.finditer(text)]
    assert not runs, runs
    summaries = [m.start() for m in re.finditer(re.escape(NUMBERS.split("{")[0]), text)]
    assert summaries and all(text[i - 1].isspace() for i in summaries), "a summary runs on from the text before it"


def test_paragraphs_and_tables_are_a_line_apart():
    frame = pd.DataFrame({"rule": ["flag nobody", "flag everyone"], "cost": [0.5, 0.25]})
    text = text_of(paragraphs(["One.", "Two."]) + table_html(frame, caption="Costs.") + paragraphs(["Three."]))
    lines = [line for line in text.splitlines() if line]
    assert lines[:3] == ["One.", "Two.", "Costs."], lines
    assert lines[-1] == "Three." and not RUN_TOGETHER.search(text), lines


BLOCKS = {"h1", "h2", "h3", "h4", "p", "table", "caption", "tr", "li", "ul", "ol", "summary", "details", "section"}


class _Joins(HTMLParser):
    """Where a block element starts or ends between two text nodes with no space on either side: a
    tool that ignores the tags reads the two as one word ("... reference groupEach group's ...")."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.joins: list[str] = []
        self._last = ""
        self._block = False
        self._skip = 0

    def _tag(self, tag):
        self._skip += {"script": 1, "style": 1}.get(tag, 0)
        self._block |= tag in BLOCKS

    def handle_starttag(self, tag, attrs):
        self._tag(tag)

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style")
        self._block |= tag in BLOCKS

    def handle_data(self, data):
        if self._skip or not data:
            return
        if self._block and self._last and not self._last[-1].isspace() and not data[0].isspace():
            self.joins.append(self._last[-30:] + "|" + data[:30])
        self._last, self._block = data, False


def test_no_block_of_the_report_runs_into_the_next(report):  # noqa: F811
    from costlib.present.report_record import review_html

    for html in (report, review_html()):
        joins = _Joins()
        joins.feed(html)
        assert not joins.joins, joins.joins
