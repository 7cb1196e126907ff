"""Review 61, item 1: with the shuffled synthetic control the Seeds box showed 1 over "Trained 10
seeds here", and pressing Train and compare at the number shown said "run at least 2 seeds (10 is
the default)". The box had been written once into the session; after "Your own table" stopped the
page before the form, the server still held 10 while the browser drew the box afresh at its bare
default, the lowest it allows. The box shows what runs, and its default is the default seeds.

What a browser draws is read from the element sent to it (its value where the server sets one,
else its default), not from AppTest's own copy of the server's state, which held 10 all along."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from costlib.core import settings
from costlib.present import training_words
from tests.views.apptest_support import assert_no_exception, open_app, unescape

PAGE = "views/train.py"
SUBMIT = "Train and compare"
DEFAULT = int(settings.SEEDS.default)


def drawn(at: AppTest) -> int:
    """The number a browser shows in the Seeds box it draws afresh (one it kept shows what was typed)."""
    proto = at.number_input(key="train_seeds").proto
    return int(proto.value if proto.set_value else proto.default)


def choose(at: AppTest, data: str) -> AppTest:
    at.radio(key="train_data").set_value(data).run()
    assert_no_exception(at)
    return at


def press(at: AppTest, seeds: int) -> AppTest:
    """Train and compare at `seeds`, the number in the box as a browser sends it."""
    at.number_input(key="train_seeds").set_value(seeds)
    next(b for b in at.button if b.label == SUBMIT).click().run()
    assert_no_exception(at)
    return at


def said(at: AppTest) -> str:
    return " ".join(unescape(x.value) for x in (*at.caption, *at.warning, *at.success, *at.error, *at.info))


def test_the_default_seeds_are_valid_and_the_box_starts_at_them():
    assert DEFAULT >= 2  # one seed gives no interval: the default must give one
    at = open_app(None, PAGE, timeout=300)
    assert drawn(at) == DEFAULT
    assert at.number_input(key="train_seeds").proto.default == DEFAULT


def test_after_your_own_table_the_box_shows_the_seeds_that_ran_and_pressing_train_there_keeps_them():
    at = open_app(None, PAGE, timeout=300)
    choose(at, "upload")  # the page stops before the form: no Seeds box on this run
    assert not [n for n in at.number_input if n.key == "train_seeds"]
    choose(at, "unpredictable")
    assert f"Trained {DEFAULT} seeds here" in said(at)
    assert drawn(at) == DEFAULT  # was 1: the box's bare default, over "Trained 10 seeds"
    press(at, drawn(at))
    assert training_words.ONE_SEED not in said(at)
    assert "1-seed means" not in " ".join(c.proto.spec for c in at.get("plotly_chart"))


def test_seeds_sent_are_kept_in_the_box_across_a_stop_before_the_form():
    at = choose(open_app(None, PAGE, timeout=300), "unpredictable")
    press(at, 3)  # the browser holds what was typed
    assert at.number_input(key="train_seeds").value == 3
    choose(at, "upload")
    choose(at, "unpredictable")
    assert drawn(at) == 3 and at.number_input(key="train_seeds").value == 3
    assert "over 3 seeds" in said(at) or "3-seed means" in " ".join(c.proto.spec for c in at.get("plotly_chart"))
