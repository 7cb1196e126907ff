"""Bidirectional controls and right-to-left text in user strings (costlib.core.escaping).

A reviewer's upload with the group "Team\u202eA" made the Costs & groups caption read
"(4203.0 ≤ :A" for the cutoff 0.3024 (U+202E reverses everything after it), a column named
"score\u202e" made an error read "…21 wor" for row 12, and a plain Arabic group name made
"≥ 0.3217" read "0.3217 ≤". Every escape shows the controls as "?" (closed isolates excepted:
they are how text is kept in place) and isolates right-to-left text; text without either is
left character for character as it was.
"""

from __future__ import annotations

import html
import re
import sys
import unicodedata

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core import escaping as E
from costlib.core.escaping import BIDI_CONTROLS, FSI, PDI

CONTROLS = sorted(BIDI_CONTROLS)
RTL_LETTERS = "عربيفارسیשלום"
# user text: ASCII, controls, right-to-left letters and digits, Arabic digits and marks, emoji
USER_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=32, max_codepoint=126),
        st.sampled_from(CONTROLS + list(RTL_LETTERS) + ["٣", "\u064e", "🍎", "≥", " ", "\n"]),
    ),
    max_size=60,
)
ALIKE = st.sampled_from(["🍎", "🍊", "$x$", "*x*", "·x·", "a" * 60])  # names a label could show alike
ASCII = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80)


def one_option(text: str) -> str:
    return E.option_names([text, "other"])(text)


def csv_cell(text: str) -> str:
    return pd.read_csv(pd.io.common.StringIO(E.safe_csv(pd.DataFrame({"c": [text]})).decode()), dtype=str)["c"][0]


ESCAPES = {
    "md_escape": E.md_escape,
    "label": E.label,
    "plain": E.plain,
    "html_escape": E.html_escape,
    "shorten": E.shorten,
    "isolate": E.isolate,
    "option_names": one_option,
    "display_name": E.display_name,
    "distinct_labels": lambda t: E.distinct_labels([t, "x"])[0],
    "markdown_cells": lambda t: E.markdown_cells(pd.DataFrame({"c": [t]}))["c"][0],
    "safe_cells": lambda t: E.safe_cells(pd.DataFrame({"c": [t]}))["c"][0],
}


def depths(text: str) -> list[int]:
    """The isolate depth at each character (an FSI counts inside, its PDI outside)."""
    out, depth = [], 0
    for ch in text:
        depth += ch == FSI
        out.append(depth)
        depth -= ch == PDI and depth > 0
    return out


def only_closed_isolates(text: str) -> bool:
    """No bidirectional control but FSI ... PDI pairs, each closed, none closed twice."""
    depth = 0
    for ch in text:
        if ch in BIDI_CONTROLS - {FSI, PDI}:
            return False
        depth += (ch == FSI) - (ch == PDI)
        if depth < 0:
            return False
    return depth == 0


def test_every_right_to_left_character_is_in_the_blocks_looked_at():
    rtl = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.bidirectional(chr(c)) in E._RTL]
    assert rtl and all(E._RTL_BLOCKS.match(ch) for ch in rtl)


@pytest.mark.parametrize("name", ESCAPES)
@settings(max_examples=150, deadline=None)
@given(text=USER_TEXT)
def test_no_escaped_user_text_holds_a_bidi_control_but_closed_isolates(name, text):
    out = ESCAPES[name](text)
    assert only_closed_isolates(out), repr(out)
    if not any(unicodedata.bidirectional(ch) in E._RTL for ch in text) and FSI not in text:
        assert not BIDI_CONTROLS & set(out), repr(out)  # nothing added where nothing reads right to left


@pytest.mark.parametrize("name", ESCAPES)
@settings(max_examples=150, deadline=None)
@given(text=USER_TEXT)
def test_a_user_string_cannot_reorder_the_number_after_it(name, text):
    """Whatever a user's string holds, the app's "≥ 0.3217" after it is outside every isolate,
    and no right-to-left letter of a sentence is left outside one."""
    if name in ("safe_cells", "markdown_cells"):
        return  # a cell is alone in its box
    out = E.md_escape(ESCAPES[name](text) + " ≥ 0.3217") if name != "html_escape" else E.html_escape(text + " ≥ 0.3217")
    tail = "≥ 0\\.3217" if name != "html_escape" else "≥ 0.3217"
    assert out.endswith(tail) and depths(out)[-len(tail)] == 0, repr(out)
    d = depths(out)
    assert all(d[i] for i, ch in enumerate(out) if unicodedata.bidirectional(ch) in E._RTL), repr(out)


@settings(max_examples=300, deadline=None)
@given(text=ASCII)
def test_ascii_names_are_escaped_as_before(text):
    """The escapes as they were before right-to-left text was isolated (golden files of ordinary
    data must not change)."""
    short = text if len(text) <= 200 else text[:199] + "…"
    assert E.shorten(text) == short
    assert E.isolate(text) == short
    assert E.plain(text) == short.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert E.html_escape(text) == html.escape(text, quote=True)
    md = re.sub(r"(?i)(://|www\.|@)", lambda m: m.group(0)[0] + E.WORD_JOINER + m.group(0)[1:], text)
    assert E.md_escape(text) == "".join("\\" + ch if ch in E._MD_SPECIAL else ch for ch in md)
    lab = re.sub(r"[^\w\s\-',;/%?.×…]", "·", text if len(text) <= 40 else text[:39] + "…")
    assert E.label(text) == re.sub(r"(?i)www\.", lambda m: m.group(0)[0] + E.WORD_JOINER + m.group(0)[1:], lab)
    assert one_option(text) == short or text == "other"


def test_the_reviewers_strings():
    # the override of "Team\u202eA" reversed the caption's cutoff and price
    assert E.md_escape("Team\u202eA: ≥ 0.3024") == "Team?A\\: ≥ 0\\.3024"
    assert E.label("Team\u202eA") == "Team?A" and E.plain("Team\u202eA $0.0011") == "Team?A $0.0011"
    assert E.html_escape("Team\u202eA") == "Team?A"
    # the column "score\u202e" in the loader's sentence (its values quoted through shorten)
    column = E.shorten("score\u202e")
    assert E.md_escape(f"Column “{column}” holds inf in row 12") == "Column “score?” holds inf in row 12"
    # an Arabic group: isolated whole as a value, by its letters in a sentence
    assert E.isolate("فريق 2") == f"{FSI}فريق 2{PDI}"
    assert E.md_escape("فريق ≥ 0.3217") == f"{FSI}فريق{PDI} ≥ 0\\.3217"
    # two groups in one cell of the rules table: the cutoff between them stays outside
    assert E.plain("عربي: ≥ 0.62 · فارسی: ≥ 0.4") == f"{FSI}عربي{PDI}: ≥ 0.62 · {FSI}فارسی{PDI}: ≥ 0.4"
    # a mark over the last letter stays with it
    assert E.md_escape("عربيَ 1") == f"{FSI}عربيَ{PDI} 1"


def test_isolating_twice_or_cutting_an_isolated_value_keeps_one_closed_isolate():
    once = E.isolate("عربي" * 100)
    assert E.isolate(once) == once and E.shorten(once) == once
    cut = E.shorten(once, 20)
    assert cut == FSI + ("عربي" * 5)[:19] + "…" + PDI
    assert E.md_escape(E.label("عربي")) == E.label("عربي")  # nothing to escape, isolated once


def test_csv_cells_keep_the_data_but_controls_and_stay_spreadsheet_safe():
    df = pd.DataFrame({"g\u202e": ["\u202e=1+1", "Team\u202eA", "עברית", "=SUM(A1)", "\u200f-2"], "x": [1, 2, 3, 4, 5]})
    got = pd.read_csv(pd.io.common.StringIO(E.safe_csv(df).decode()), dtype=str)
    assert list(got.columns) == ["g?", "x"]
    assert got["g?"].tolist() == ["?=1+1", "Team?A", "עברית", "'=SUM(A1)", "?-2"]
    shown = E.safe_cells(df)
    assert shown.iloc[:, 0].tolist() == ["?=1+1", "Team?A", "עברית", "'=SUM(A1)", "?-2"]
    assert all(not BIDI_CONTROLS & set(c) for c in got["g?"])


@settings(max_examples=200, deadline=None)
@given(names=st.lists(USER_TEXT | ALIKE, unique=True, max_size=6))
def test_the_labels_of_one_set_are_distinct(names):
    shown = E.distinct_labels(names)
    assert len(set(shown)) == len(shown)
    assert all(only_closed_isolates(s) for s in shown)


def test_groups_that_read_alike_get_labels_told_apart():
    assert E.distinct_labels(["🍎", "🍊"]) == ["🍎", "🍊"]  # emoji are shown, not "·"
    assert E.distinct_labels(["$x$", "*x*", "B"]) == ["·x·", "·x· (2)", "B"]
    assert E.distinct_labels(["Group A", "Group B"]) == ["Group A", "Group B"]
    long = ["a" * 60 + "1", "a" * 60 + "2"]
    assert E.distinct_labels(long) == ["a" * 39 + "…", "a" * 35 + "… (2)"]


def test_the_price_sliders_of_groups_that_read_alike_are_told_apart():
    from streamlit.testing.v1 import AppTest

    def page():
        from views._ui.prices import price_book

        price_book(["$x$", "*x*", "🍎", "🍊"], "$")

    at = AppTest.from_function(page)
    at.query_params["per_group"] = "true"
    at.run(timeout=30)
    assert not at.exception
    shown = [s.label for s in at.select_slider]
    assert shown == [
        f"{g}: a false {kind} costs" for g in ["·x·", "·x· (2)", "🍎", "🍊"] for kind in ("positive", "negative")
    ]
