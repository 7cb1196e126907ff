"""Review 72 (items A.1 and A.2): the Calibration page prices every wrong answer at the average of the two
prices and says so, naming the Value page as where each mistake keeps its own price, so that its worth ($0.451
on the screening sample) is not read against Value's ($0.415) as a contradiction; and the confidence its worths
are read at is named as what it is, not as "the cutoff your prices set" (Costs & groups' cutoff from prices alone
is another number)."""

from costlib.answers.value_k import KChoice
from costlib.present import calibration_money as cm
from costlib.present import calibration_words as cw
from costlib.present.words import Verdict

DEFAULT = KChoice(1.0, 3.0, 2.0, 2.0, False, False)  # $1 and $3, a right answer worth $1: k = 2


def test_every_sentence_and_the_heading_say_a_wrong_answer_is_priced_at_the_average():
    note = cm.money_note(DEFAULT, worth=1.0, unit="$", costs_cutoff=0.25)
    assert "This page prices every wrong answer at $2.00, the average of your two prices." in note
    assert "The Value page prices each mistake at its own price instead ($1.00 a false positive, $3.00 a false " in note
    caption = cm.worth_caption(DEFAULT, worth=1.0, unit="$", volume=None)
    heading = cm.worth_table(DEFAULT, 1.0, "$")["at_cutoff"]
    assert "each wrong answer at $2.00, the average of your two prices" in caption
    assert heading == "worth at your prices' confidence, each wrong answer at $2.00 (the average of your two prices)"
    for said in (note, caption, heading):  # not "as much as 2 right answers are worth" at prices of $1 and $3
        assert "costs as much as" not in said and "right answers are worth" not in said


def test_the_value_page_is_named_only_where_it_prices_the_mistakes_apart():
    alike = cm.money_note(KChoice(2.0, 2.0, 2.0, 2.0, False, False), worth=1.0, unit="$", costs_cutoff=0.5)
    moved = cm.money_note(KChoice(1.0, 3.0, 2.0, 5.0, True, False), worth=1.0, unit="$", costs_cutoff=None)
    assert "its own price" not in alike and "its own price" not in moved
    assert "every wrong answer at $5.00, from the k set on the Value page" in moved
    capped = KChoice(30.0, 50.0, 40.0, 20.0, False, False)
    assert cm.wrong_price(capped, 1.0, "$") == "$20.00, the most this page counts"


def test_the_answer_names_the_confidence_and_the_price_it_reads_the_worth_at():
    v = cw.rescale_verdict(
        "m", Verdict("info", "x."), "keep", before=0.451, after=0.458, low=-0.009, high=0.025, fit_on="validation",
        unit="$", volume=10_000, cutoff=cm.value_cutoff(2.0), priced=cm.wrong_price(DEFAULT, 1.0, "$"),
    )  # fmt: skip
    assert (
        "at the confidence your prices ask for before the model answers (0.6666; each wrong answer at $2.00, the "
        "average of your two prices)" in v.headline
    )
    assert "cutoff your prices set" not in v.headline and "cutoff your prices set" not in cw.CALIBRATION_WHAT
