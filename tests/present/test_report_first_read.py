"""The downloaded report as a first-time product manager reads it (review 61, COMPAS, a review
limit of 2,000 cases a month, a false negative at $6):

1. the Sensitivity section said "at these prices the model is not worth using" under a verdict
   that ships the model, without the page's caveat that the section is about the answer without
   the review limit;
2. the report opened with settings tables and a sha256 before the answer;
3. program notation leaked into what a reader reads: "review capacity 1e+04", "466.8" cases,
   "TP/n − FP/n · t/(1 − t)" and "c_fp : c_fn" outside a labelled technical note.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.answers.audit import build_audit
from costlib.binary.decision import sweep_model
from costlib.loading import fingerprint
from costlib.present.capacity_words import FAIR_WITHOUT_LIMIT, WITHOUT_LIMIT_NOTE
from costlib.present.report import REPORT_SECTIONS, audit_html
from tests.present.test_report import _model  # the COMPAS model split into train and test rows

SAMPLE = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"
COLUMNS = {"label": "two_year_recid", "group": "race", "split": "split"}
#: program notation: exponents, missing or infinite values, Python's booleans and None
NOTATION = re.compile(r"\d(?:\.\d+)?e[+\-−]?\d|\bnan\b|\bNaN\b|\binf\b|\bNone\b|\bTrue\b|\bFalse\b")
FORMULA = ("TP/n", "FP/n", "c_fp", "c_fn", "t/(1 − t)", "t / (1 − t)")


class _Sections(HTMLParser):
    """The visible text of each section (scripts and styles left out), in document order, and the
    text of each paragraph marked as a technical note."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.order: list[str] = []
        self.text: dict[str, str] = {"": ""}
        self.notes: list[str] = []
        self.skip = 0
        self.open: list[str] = []  # the sections open, innermost last
        self.in_note = False
        self.first_tags: list[str] = []  # the tags before the first section

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
        if tag == "section":
            self.open.append(attrs.get("id", ""))
            self.order.append(attrs.get("id", ""))
            self.text.setdefault(self.open[-1], "")
        elif not self.order:
            self.first_tags.append(tag)
        if tag == "p" and "technical-note" in (attrs.get("class") or ""):
            self.in_note = True
            self.notes.append("")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag == "section" and self.open:
            self.open.pop()
        if tag == "p":
            self.in_note = False

    def handle_data(self, data):
        if self.skip:
            return
        for section in self.open or [""]:  # a nested section's text is its parent's too
            self.text[section] = self.text.get(section, "") + " " + data
        if self.in_note:
            self.notes[-1] += data


def _sections(html: str) -> _Sections:
    p = _Sections()
    p.feed(html)
    p.close()
    return p


@pytest.fixture(scope="module")
def frame():
    return pd.read_csv(SAMPLE)


@pytest.fixture(scope="module")
def limited(frame):
    """Review 61's audit: $1 a false positive, $6 a false negative, 10,000 cases a month, a review
    limit of 2,000: the model ships within the limit, and without it flagging everyone is cheapest."""
    return build_audit(
        _model(frame),
        (1.0, 6.0),
        unit="$",
        volume=10_000,
        n_resamples=200,
        data_name="Recidivism risk (COMPAS)",
        fingerprint=fingerprint(SAMPLE.read_bytes()),
        n_rows=len(frame),
        capacity=0.2,
        capacity_cases=2000,
        columns=COLUMNS,
    )


@pytest.fixture(scope="module")
def limited_html(limited):
    return audit_html(limited)


def test_the_sections_about_the_answer_without_the_limit_say_so_as_the_page_does(limited, limited_html):
    """Item 1: the verdict ships the model within the limit while the sensitivity sentence says the
    model is not worth using (without the limit, flagging everyone is cheapest): the report carries
    the page's caveat (`capacity_words.WITHOUT_LIMIT_NOTE`) over that section, net benefit inside
    it, and the fairness section's (`FAIR_WITHOUT_LIMIT`) over the constrained rules."""
    assert limited.verdict.headline.startswith("Ship the model")
    assert "not worth using" in limited.sensitivity
    s = _sections(limited_html)
    sensitivity = " ".join(s.text["sensitivity"].split())
    assert WITHOUT_LIMIT_NOTE in sensitivity
    assert sensitivity.index(WITHOUT_LIMIT_NOTE) < sensitivity.index("not worth using")  # read before it
    assert " ".join(s.text["net-benefit"].split()) in sensitivity  # net benefit sits under the same caveat
    assert FAIR_WITHOUT_LIMIT.strip() in " ".join(s.text["fairness"].split())


def test_without_a_limit_the_caveats_are_not_said(frame):
    a = build_audit(_model(frame), (1.0, 6.0), unit="$", volume=10_000, n_resamples=50, columns=COLUMNS)
    text = " ".join(" ".join(_sections(audit_html(a)).text.values()).split())
    assert WITHOUT_LIMIT_NOTE not in text and FAIR_WITHOUT_LIMIT.strip() not in text


def test_the_answer_comes_first_then_what_it_was_judged_on_then_the_record(limited, limited_html):
    """Item 2: the verdict opens the report (no table and no sha256 before it), then the prices
    and the data it was judged on, then the settings and the record, which keep every field."""
    s = _sections(limited_html)
    top = [x for x in s.order if x in REPORT_SECTIONS]
    assert top == list(REPORT_SECTIONS)
    assert REPORT_SECTIONS[:5] == ("verdict", "capacity", "prices", "data", "settings")
    before = limited_html.split('<section id="verdict">', 1)[0]
    assert "<table" not in before and limited.fingerprint not in before
    assert "table" not in s.first_tags
    verdict = " ".join(s.text["verdict"].split())
    assert verdict.startswith("Recommendation " + limited.verdict.headline)
    for detail in limited.verdict.details:
        assert detail in verdict
    record = " ".join(s.text["settings"].split())
    d = limited.data_dictionary
    for kept in (
        limited.fingerprint,
        d["label"],
        d["score"],
        d["group"],
        d["split"],
        "positive value 1",
        "rows 6,172",
        "3,085 train rows",
        "3,087 test rows",
        "review limit 2,000 cases a month",
        "bootstrap resamples 200",
        limited.version,
        limited.created,
    ):
        assert kept in record, kept


def _technical_free(s: _Sections) -> str:
    text = " ".join(" ".join(s.text[k] for k in s.order if k).split())
    for note in s.notes:
        text = text.replace(" ".join(note.split()), "")
    return text


def test_a_reader_meets_no_program_notation_and_formulas_only_in_a_technical_note(limited_html):
    """Item 3: '1e+04' (the capacity chart's mark), formulas in the net benefit's words and the
    limitations; the formulas stay, labelled, in technical notes."""
    s = _sections(limited_html)
    text = _technical_free(s)
    assert not NOTATION.findall(text), NOTATION.findall(text)
    assert not [f for f in FORMULA if f in text]
    assert s.notes and all(n.strip().startswith("Technical note") for n in s.notes)
    assert any("TP/n" in n for n in s.notes)
    assert "where more capacity stops saving (one cutoff for everybody) at review capacity 10,000" in text


def test_cases_a_month_are_whole_numbers(limited_html):
    """Item 3: the capacity chart's numbers gave review capacity as '466.8' cases a month (a share
    of the fitting rows times the cases a month): whole numbers, as the page's sentences say them."""
    table = limited_html.split("The numbers behind “Cost against review capacity", 2)[2]
    table = table.split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows]
    cases = [c[1] for c in cells if c]
    assert len(cases) > 5
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", c) for c in cases), cases
    assert "10,000" in cases


@pytest.mark.parametrize("how", ["no volume", "no split", "raw scores", "tiny price"])
def test_no_program_notation_in_other_audits(frame, how):
    """The same check on audits that reach other paths: a limit as a share (no volume), no split
    (cross-fitted), scores that are not probabilities (means past 10,000), a price ratio of 1 to
    100,000 (the cutoff from prices alone 0.00001). With raw scores only the report's own tables
    are read: a cutoff past 10,000 is written by `words` (the page's and the command line's words)."""
    df = frame.copy()
    options: dict = {"unit": "$", "n_resamples": 50, "columns": COLUMNS}
    costs = (1.0, 3.0)
    if how == "no volume":
        options["capacity"] = 0.2
    if how == "no split":
        df = df.drop(columns="split")
        options["columns"] = {"label": "two_year_recid", "group": "race"}
    if how == "raw scores":
        df["p_recid"] = df["p_recid"] * 100_000
    if how == "tiny price":
        costs = (0.001, 100.0)
    if "split" in df:
        model = _model(df)
    else:
        model = sweep_model(df["two_year_recid"], df["p_recid"], df["race"], name="p_recid")
    a = build_audit(model, costs, volume=None if how == "no volume" else 12_000, **options)
    s = _sections(audit_html(a))
    if how == "raw scores":
        text = " ".join(" ".join(s.text[k] for k in ("prices", "data", "settings")).split())
        assert "mean score" in text and "51,280" in text  # the mean score of the first group's train rows, whole
    else:
        text = _technical_free(s)
    assert not NOTATION.findall(text), (how, NOTATION.findall(text)[:5])
    assert not [f for f in FORMULA if f in text]
    assert np.isfinite(a.recommendation.saving)
