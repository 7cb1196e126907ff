"""A first-time product manager's review of Find my prices, its words: the intro without the
conversation's jargon, the middle of the range said as what it is (the middle on a ratio scale),
and the cutoffs a range moves through read as English."""

from __future__ import annotations

from costlib.present import labels as t

JARGON = ("bracket", "ratio", "factor")


def test_the_intro_says_what_the_questions_do_in_plain_words():
    """ "A few such answers bracket the ratio between the two prices ... narrower than a factor of
    1.5": three words a first reader has to look up."""
    said = [word for word in JARGON if word in t.PRICES_WHAT.lower()]
    assert not said, (said, t.PRICES_WHAT)
    assert "how many times worse a missed case is than a false alarm" in t.PRICES_WHAT
    assert "1.5 times" in t.PRICES_WHAT


def test_the_button_says_which_middle_it_sets():
    """ "a miss to the middle of the bracket": 'bracket' is jargon, and a PM reads the middle of 32 to
    1,000 as 516, not 179."""
    assert "bracket" not in t.USE_PRICES_HELP
    assert "ratio scale" in t.USE_PRICES_HELP and "from 10 to 1,000 that is 100" in t.USE_PRICES_HELP
