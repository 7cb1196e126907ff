"""Review 71 (items 1 and 2): the Calibration page's words on Costs & groups' pick, its question and its
cutoff, with no formula notation (a first-time product manager reads them)."""

from costlib.present import calibration_words as cw


def test_the_pick_is_the_model_judged_cheapest_and_whether_it_ships_is_said():
    ships = cw.picked_sentence("m", "m")
    kept = cw.picked_sentence("m", "m", ships=False, verdict="not clearly better", keep="flag nobody")
    assert "judges cheapest at your prices and ships" in ships
    assert "Costs & groups does not ship it" in kept and '("Not clearly better": it keeps flagging nobody)' in kept
    other = cw.picked_sentence("a", "m", ships=False, verdict="do not let the model decide", keep="flag everyone")
    assert other.startswith("Checked: a. At your prices Costs & groups judges m cheapest but does not ship it")
    assert '"Do not let the model decide": it keeps flagging everyone' in other
    assert cw.picked_sentence("m", None) is None
    for said in (ships, kept, other):
        assert "picks" not in said


def test_the_question_sentence_names_both_questions_in_plain_words():
    said = cw.question_sentence(2.5, "€")
    assert "worth €2.50" in said and "Costs & groups asks whether flagging cases" in said
    for notation in ("τ", "k =", "k/(k", "unit"):
        assert notation not in said


def test_the_money_note_and_caption_say_the_formula_in_words():
    note = cw.money_note(k=2.0, moved=False, costs_cutoff=0.25)
    assert "at least 0.6666 confident" in note  # `amounts.cutoff_number`, as every threshold of the app
    assert "not the cutoff from which Costs & groups flags a case (0.25 from your prices alone)" in note
    caption = cw.worth_caption(k=2.0, worth=1.0, per_group=False, unit="$", volume=None)
    assert "a wrong answer costs as much as 2 right answers are worth" in caption
    for text in (note, caption):
        assert "τ" not in text and "k =" not in text and "k/(k+1)" not in text


def test_at_equal_prices_the_note_says_the_two_cutoffs_are_the_same_number():
    # $1 a wrong answer, $1 a right one: the model answers from 0.5 and Costs & groups flags from 0.5
    note = cw.money_note(k=1.0, moved=False, costs_cutoff=0.5)
    assert "at least 0.5 confident" in note
    assert "is the same here as the cutoff from which Costs & groups flags a case (0.5 from your prices alone)" in note
    assert "is not the cutoff" not in note
    differs = cw.money_note(k=2.0, moved=False, costs_cutoff=0.25)
    assert "is not the cutoff from which Costs & groups flags a case (0.25 from your prices alone)" in differs
    assert "is not the cutoffs from which Costs & groups flags cases" in cw.money_note(
        k=1.0, moved=True, costs_cutoff=None
    )


def test_one_right_answer_is_singular_in_the_note_and_the_caption():
    note = cw.money_note(k=1.0, moved=False, costs_cutoff=0.5)
    caption = cw.worth_caption(k=1.0, worth=1.0, per_group=False, unit="$", volume=None)
    for text in (note, caption):
        assert "as much as 1 right answer is worth" in text and "1 right answers" not in text, text
    assert "as much as 1.5 right answers are worth" in cw.money_note(k=1.5, moved=True, costs_cutoff=None)


def test_the_default_worth_in_the_question_reads_in_the_unit_of_the_worth():
    said = cw.question_sentence(2.0, "minutes")
    assert "counted as worth 2.00 minutes (a setting of the Value page, left at 1.00 minutes unless" in said
    assert "left at $1.00 unless" in cw.question_sentence(1.0, "$")
