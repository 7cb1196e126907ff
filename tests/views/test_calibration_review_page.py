"""The Calibration page after a product manager's review: it opens on the model Costs & groups
picks and says so, says up front which cutoff and money it reads, and draws keeping the
probabilities as they are in no alarm's red."""

from costlib.present import calibration_words as cw
from tests.views.apptest_support import open_app, texts, unescape


def _caption_texts(at) -> list[str]:
    return [unescape(c.value) for c in at.caption]


def test_screening_opens_on_the_model_costs_and_groups_picks_and_says_why():
    at = open_app("screening", "views/calibration.py")
    assert at.selectbox[0].value == "score_overconfident"
    captions = _caption_texts(at)
    assert cw.PICKED_FIRST.format(model="score_overconfident") in captions
    money = [c for c in captions if c.startswith("At your prices the model answers the cases")]
    assert len(money) == 1 and "0.6666" in money[0]


def test_a_link_naming_another_model_is_kept_and_told_which_one_costs_and_groups_picks():
    at = open_app("screening", "views/calibration.py", model="score_calibrated")
    assert at.selectbox[0].value == "score_calibrated"
    assert any(
        c.startswith("Checked: score_calibrated. At your prices Costs & groups judges score_overconfident cheapest")
        for c in _caption_texts(at)
    )


def test_keeping_compas_probabilities_is_not_drawn_in_red():
    at = open_app("compas", "views/calibration.py")
    assert not at.error, [e.value for e in at.error]
    said = texts(at)  # Costs & groups does not ship p_recid at $1 / $3: its verdict first, then the worth's answer
    assert cw.IF_USED.format(name="p_recid", what=cw.KEEP_THEM, body="")[:-1] in said


def test_the_picker_follows_costs_and_groups_pick_as_the_prices_move_until_a_model_is_chosen():
    at = open_app("offensive", "views/calibration.py")  # at $1 / $3 Costs & groups picks score_lr
    assert at.selectbox[0].value == "score_lr"
    at.switch_page("views/costs.py").run()
    at.select_slider(key="s_c_fn").set_value(10.0).run()  # misses dearer: it picks score_nb
    at.switch_page("views/calibration.py").run()
    assert at.selectbox[0].value == "score_nb"
    assert cw.PICKED_FIRST.format(model="score_nb") in _caption_texts(at)
    at.selectbox[0].set_value("score_lr").run()  # the visitor's choice stays when the prices move again
    at.switch_page("views/costs.py").run()
    at.select_slider(key="s_c_fn").set_value(20.0).run()
    at.switch_page("views/calibration.py").run()
    assert at.selectbox[0].value == "score_lr"
    assert any(
        c.startswith("Checked: score_lr. At your prices Costs & groups judges score_nb cheapest")
        for c in _caption_texts(at)
    )


def test_no_green_ship_beside_costs_and_groups_not_shipping_the_model():
    """A product manager at $5 a false flag and $1 a miss on screening: Costs & groups does not ship
    score_overconfident ("Not clearly better"), and this page's answer said a green "Ship the model with its
    probabilities rescaled" beside the caption that said so."""
    at = open_app("screening", "views/calibration.py", c_fp=5, c_fn=1)
    assert at.selectbox[0].value == "score_overconfident"
    assert not [b.value for b in at.success if "Ship the model" in unescape(b.value)]
    answer = [unescape(b.value) for b in at.info if unescape(b.value).startswith("Costs & groups does not ship")]
    assert len(answer) == 1 and "If score_overconfident is used all the same" in answer[0], answer
