"""The notebook card shows hostile names as typed and bounded (issue 45): a 100,000-character
score column or group, control characters and right-to-left overrides, and LaTeX that Jupyter's
MathJax would otherwise typeset in HTML output."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import costlib
from costlib.core.escaping import MAX_CELL_CHARS
from costlib.present.notebook import MAX_SENTENCE_CHARS, NO_MATH, card, recommendation_card
from costlib.present.words import Verdict

N = 1200


def rows(score: str, group: object) -> pd.DataFrame:
    """Two models, the first named `score`, and a group column holding `group` for half the rows."""
    rng = np.random.default_rng(3)
    s = rng.random(N)
    g = np.where(rng.random(N) < 0.5, "plain", "x").astype(object)
    g[g == "x"] = group
    return pd.DataFrame(
        {
            "y": (rng.random(N) < s).astype(int),
            score: s,
            "flat": np.full(N, 0.5),
            "g": g,
            "split": np.where(rng.random(N) < 0.5, "train", "test"),
        }
    )


def both_cards(score: str, group: object, **kwargs) -> list[str]:
    a = costlib.audit(
        rows(score, group), label="y", score=[score, "flat"], group="g", split="split", c_fp=1, c_fn=2,
        n_resamples=20, **kwargs,
    )  # fmt: skip
    return [a._repr_html_(), recommendation_card(a.recommendation)]


def test_a_100000_character_score_column_and_group_are_cut_in_the_card():
    for html in both_cards("S" * 100_000, "G" * 100_000):
        runs = [len(m) for m in re.findall(r"S+|G+", html)]
        assert runs and max(runs) < MAX_CELL_CHARS  # the title named the whole column: 100,000 S
        assert "S" * (MAX_CELL_CHARS - 30) in html  # shown, cut
        assert len(html) < 20_000


def test_control_characters_and_right_to_left_overrides_show_as_question_marks():
    score, group = "sc\u202eore\x1b[31m\r\n", "a\x00b\u2066c\u200f"
    for html in both_cards(score, group):
        hidden = [ch for ch in html if ch in "\u202e\u2066\u200f\x00\x1b\r"]
        assert not hidden
        assert "sc?ore?[31m" in html  # the title shows the name as typed, each hidden character a "?"


def test_latex_in_a_name_is_left_as_text_by_jupyters_mathjax():
    for html in both_cards("$\\alpha$ \\(y\\)", "$x^2$"):
        assert html.startswith(f'<div class="costlib-card {NO_MATH}">')
        assert "$\\alpha$ \\(y\\)" in html  # shown as typed, in the card MathJax skips
        assert "tex2jax_ignore" in NO_MATH and "mathjax_ignore" in NO_MATH


def test_a_sentence_of_the_card_is_bounded():
    n = MAX_SENTENCE_CHARS + 10
    html = card("t", Verdict("success", "Q" * n, ("W" * n,)), "", notes=("Z" * n, "short"))
    for ch in "QWZ":  # each sentence cut to MAX_SENTENCE_CHARS, "…" included
        assert sum(len(m) for m in re.findall(f"{ch}+", html)) == MAX_SENTENCE_CHARS - 1
    assert '<p style="color:#555">short</p>' in html
