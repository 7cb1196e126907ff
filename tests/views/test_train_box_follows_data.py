"""Train with costs: the "Ways of training" box is named for the data chosen, and keeps its ways
when the data changes (a product manager's review).

The box's names hold this data's figures ("top 30% + ties: 88.0% kept" on the tweets). Streamlit
keeps a multiselect's choices by the names shown, under its key: after choosing the synthetic
control, the box still showed the tweets' three names (with their 88%), and pressing "Train and
compare" dropped those three ways without a word ("The cheapest of the 3 ways..."). The box is now
keyed by its names (`views._ui.training.methods_box_key`): new names are a new box, seeded with the
ways chosen before, each under its new name."""

from __future__ import annotations

from costlib.present import training_page
from costlib.present.training_words import TRAIN_WORDS as WORDS
from costlib.training.compare import METHODS
from costlib.training.data import synthetic_sample
from costlib.training.kept import kept_of_seeds
from tests.views.apptest_support import assert_no_exception, open_app, texts

PAGE = "views/train.py"


def methods_box(at):
    boxes = [m for m in at.multiselect if m.label == WORDS["methods"]]
    assert len(boxes) == 1, [m.key for m in boxes]
    return boxes[0]


def test_another_datas_box_shows_its_own_names_and_keeps_every_way_when_sent():
    at = open_app(None, PAGE, timeout=300)
    tweets = methods_box(at)
    assert "top 30% + ties: 88.0% kept" in tweets.options
    at.radio(key="train_data").set_value("predictable").run(timeout=300)
    assert_no_exception(at)
    shares = kept_of_seeds(synthetic_sample(predictable=True).delta, 10, random_state=0)
    names = [training_page.method_short(m, shares) for m in METHODS]
    box = methods_box(at)
    assert list(box.options) == names and not any("88" in n for n in box.options), box.options
    assert box.key != tweets.key  # a new box: the browser shows no name of the tweets' box
    assert box.value == list(METHODS)  # every way kept, under its new name
    assert [box.options[i] for i in box.proto.default] == names
    next(b for b in at.button if b.label == WORDS["submit"]).click().run(timeout=600)
    assert_no_exception(at)
    assert methods_box(at).value == list(METHODS)
    said = texts(at)
    assert "The cheapest of the 6 ways of training with costs" in said, said


def test_ways_left_out_stay_left_out_when_the_names_change():
    at = open_app(None, PAGE, timeout=300)
    chosen = ["standard", "tdown30", "regression"]
    methods_box(at).set_value(chosen)
    at.number_input(key="train_seeds").set_value(2)
    next(b for b in at.button if b.label == WORDS["submit"]).click().run(timeout=600)
    assert_no_exception(at)
    assert methods_box(at).value == chosen
    at.radio(key="train_data").set_value("predictable").run(timeout=300)
    assert_no_exception(at)
    box = methods_box(at)
    assert box.value == chosen and "top 30%" in box.options, (box.value, box.options)
