"""The Train with costs page's "Ways of training" box shows every chosen way whole at 1400 px
(issue 44, item 5): the seven long names ("keeping the costliest 30% (tdown30)", ...) ran 1,470 px
in a box 840 px wide (measured in Chromium), and Streamlit keeps the chosen tags in one row, so
the last ones were cut ("keepin"). Each tag is held here to at least 5 px a character of its text
plus 36 px (its padding and its × button), against the box's 840 px."""

from __future__ import annotations

from apptest_support import open_app

from costlib.present.training_words import TRAIN_WORDS as WORDS

BOX_PX = 840
MIN_PX_PER_CHAR, TAG_EXTRA_PX = 5.0, 36


def methods_box(at):
    """The ways-of-training box, by its label: its key follows its names (`views._ui.training.methods_box_key`)."""
    return next(m for m in at.multiselect if m.label == WORDS["methods"])


def test_the_ways_of_training_are_named_in_words_not_code():
    at = open_app(None, "views/train.py")
    tags = methods_box(at).proto.options
    assert "upsampled" in tags and "top 30% + ties: 88.0% kept" in tags  # the share it keeps of the tweets
    assert not any(code in tag for tag in tags for code in ("p_up", "tdown"))


def test_every_way_of_training_fits_the_box_at_once():
    at = open_app(None, "views/train.py")
    box = methods_box(at)
    tags = [box.proto.options[i] for i in box.proto.default]  # every way is chosen on a first visit
    assert len(tags) == 7, tags
    width = sum(MIN_PX_PER_CHAR * len(t) + TAG_EXTRA_PX for t in tags)
    assert width <= BOX_PX, f"the tags {tags} take at least {width:.0f} px of {BOX_PX}"
