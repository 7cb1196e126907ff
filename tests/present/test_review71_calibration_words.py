"""Review 71 (items 1 and 2): the Calibration page's words on Costs & groups' pick, its question and its
cutoff, with no formula notation (a first-time product manager reads them)."""

from costlib.answers.value_k import KChoice
from costlib.present import calibration_money as cm
from costlib.present import calibration_words as cw


def test_the_pick_is_the_model_judged_cheapest_and_whether_it_ships_is_said():
    ships = cw.picked_sentence("m", "m")
    kept = cw.picked_sentence("m", "m", ships=False, verdict="not clearly better", keep="flag nobody")
    assert "judges cheapest at your prices and ships" in ships
    assert "it does not ship it" in kept and "Not clearly better" not in kept  # the answer above says its verdict
    other = cw.picked_sentence("a", "m", ships=False, verdict="do not let the model decide", keep="flag everyone")
    assert other.startswith("Checked: a. At your prices Costs & groups judges m cheapest but does not ship it")
    assert "Do not let the model decide" not in other
    assert cw.picked_sentence("m", None) is None
    for said in (ships, kept, other):
        assert "picks" not in said


def test_the_question_sentence_names_both_questions_in_plain_words():
    said = cw.question_sentence(2.5, "€")
    assert "worth €2.50" in said and "Costs & groups asks whether flagging cases" in said
    for notation in ("τ", "k =", "k/(k", "unit"):
        assert notation not in said


def _k(c_fp=1.0, c_fn=3.0, k=2.0, *, moved=False, per_group=False):
    """A `KChoice` as `answers.value_k.value_k` makes it: k the mean price over a $1 right answer."""
    return KChoice(c_fp, c_fn, (c_fp + c_fn) / 2, k, moved, per_group)


def test_the_money_note_and_caption_say_the_formula_in_words():
    note = cm.money_note(_k(), worth=1.0, unit="$", costs_cutoff=0.25)
    assert "at least 0.6666 confident" in note  # `amounts.cutoff_number`, as every threshold of the app
    assert "not the cutoff from which Costs & groups flags a case (0.25 from your prices alone)" in note
    caption = cm.worth_caption(_k(), worth=1.0, unit="$", volume=None)
    assert "each wrong answer at $2.00, the average of your two prices" in caption
    for text in (note, caption):
        assert "τ" not in text and "k =" not in text and "k/(k+1)" not in text


def test_at_equal_prices_the_note_says_the_two_cutoffs_are_the_same_number():
    # $1 a wrong answer, $1 a right one: the model answers from 0.5 and Costs & groups flags from 0.5
    note = cm.money_note(_k(1.0, 1.0, 1.0), worth=1.0, unit="$", costs_cutoff=0.5)
    assert "at least 0.5 confident" in note
    assert "is the same here as the cutoff from which Costs & groups flags a case (0.5 from your prices alone)" in note
    assert "is not the cutoff" not in note
    differs = cm.money_note(_k(), worth=1.0, unit="$", costs_cutoff=0.25)
    assert "is not the cutoff from which Costs & groups flags a case (0.25 from your prices alone)" in differs
    assert "is not the cutoffs from which Costs & groups flags cases" in cm.money_note(
        _k(1.0, 1.0, 1.0, moved=True), worth=1.0, unit="$", costs_cutoff=None
    )


def test_the_default_worth_in_the_question_reads_in_the_unit_of_the_worth():
    said = cw.question_sentence(2.0, "minutes")
    assert "counted as worth 2.00 minutes (a setting of the Value page, left at 1.00 minutes unless" in said
    assert "left at $1.00 unless" in cw.question_sentence(1.0, "$")
