"""Train with costs, code and statistics review: one home for each rule.

- the verdict the command line prints is `answers.training.named_verdict`'s: the copy in
  `training_words` (`training_verdict`, used by tests only, its docstring wrong) is gone;
- the change's interval is the delta method's on the ratio of the mean costs, its low end stopped
  at -100%: it never reads a saving of more than the whole cost (it went below -100% before);
- the terms box says so in one sentence, beside the corrected t interval;
- a price of 0 leaves every mistake free on Instance costs, Train with costs and `costlib train`
  through one predicate (`answers.instance.mistakes_free`), not five tests of `not price`.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.answers.instance import mistakes_free
from costlib.answers.training import named_verdict
from costlib.present import training_words
from costlib.present.training_page import NO_MISTAKE_PRICE
from costlib.present.training_terms import TRAIN_TERMS
from costlib.training.summary import ratio_interval

ROOT = Path(__file__).resolve().parents[2]


def test_the_verdict_has_one_home():
    assert not hasattr(training_words, "training_verdict")
    assert "training_verdict(" not in (ROOT / "costlib/cli/train.py").read_text().replace("named_verdict(", "")


def test_a_wide_change_interval_stays_above_minus_100_percent():
    # two seeds, standard 0.2 and 0.4, the way 0.1 and 0.3: R = 2/3, and the interval on R,
    # -1/3 -+ 1.4118, read -174.5% at its low end; it stops at -100%, its high end unchanged
    change, low, high = ratio_interval([0.1, 0.3], [0.2, 0.4])
    assert change == pytest.approx(-1 / 3)
    assert low == -1.0 and high == pytest.approx(-1 / 3 + 12.706205 * (2**0.5 / 9) / 2**0.5, abs=1e-5)
    narrow = ratio_interval([0.10, 0.11, 0.12], [0.20, 0.21, 0.22])  # a narrow one is the delta method's as it is
    assert -1 < narrow[1] < narrow[0] < narrow[2]
    assert narrow[0] - narrow[1] == pytest.approx(narrow[2] - narrow[0])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=2, max_size=12),
    st.lists(st.floats(0.01, 1.0), min_size=2, max_size=12),
    st.floats(0.0, 0.5),
)
def test_no_change_interval_claims_more_than_the_whole_cost(way, base, ratio):
    n = min(len(way), len(base))
    change, low, high = ratio_interval(way[:n], base[:n], test_to_train=ratio)
    assert change >= -1
    assert math.isnan(low) or -1 <= low <= change <= high


def test_the_terms_say_the_change_is_a_ratio_with_its_delta_method_interval():
    terms = " ".join(TRAIN_TERMS)
    assert "The change against standard training is a ratio" in terms
    assert "delta method" in terms and "−100%" in terms
    assert "delta method" in training_words.INTERVAL_NAME


FREE_RULE_HOMES = (
    "costlib/answers/training.py",
    "costlib/answers/instance.py",
    "costlib/cli/train.py",
    "views/train.py",
    "views/instance.py",
)


@pytest.mark.parametrize("path", FREE_RULE_HOMES)
def test_a_free_mistake_is_one_predicate_everywhere(path):
    tree = ast.parse((ROOT / path).read_text())
    own = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and "price" in ast.unparse(node.operand)
        and "(" not in ast.unparse(node.operand)
    ]
    assert not own, own  # `not price`, `not args.mistake_price`: the rule said again
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("mistakes_free")]
    assert calls, path


def test_the_predicate_and_its_answers():
    assert mistakes_free(0.0) and mistakes_free(0) and not mistakes_free(0.01) and not mistakes_free(1e-300)
    summary = pd.DataFrame({"method": ["standard"], "seeds": [2], "nec": [0.1]})
    assert named_verdict(summary, {}, price=0.0).headline == NO_MISTAKE_PRICE
