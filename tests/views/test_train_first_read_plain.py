"""Train with costs: what a first-time reader reads first is in plain words, the technical terms in the
box of terms (review 3: "Seeds (random 80/10/10 splits)", "(R²: 1 fully, ≤ 0 not at all)", "44,319 TF-IDF
word and word-pair features", "ln((offensive or hateful votes + 1) / (neither votes + 1))")."""

from tests.views.apptest_support import assert_no_exception, open_app, unescape

JARGON = ("80/10/10", "R²", "TF-IDF", "ln((", "≤")


def test_the_first_read_of_train_is_plain_and_the_terms_keep_the_technical_words():
    at = open_app(None, "views/train.py", timeout=180)
    assert_no_exception(at)
    captions = [unescape(c.value) for c in at.caption]
    first = [
        *captions[:4],  # the intro, the sample's source and content note, what the data is made of
        *(w.label for w in at.number_input),
        *(m.label for m in at.metric),
    ]
    for text in first:
        assert not any(j in text for j in JARGON), text
    data = next(c for c in captions if c.startswith("24,783 rows"))
    assert "44,319 words and word pairs as features" in data and "the more the annotators agree" in data, data
    terms = next(e for e in at.expander if e.label.startswith("What the technical terms mean"))
    technical = " ".join(unescape(m.value) for m in terms.markdown)
    assert "44,319 TF-IDF word and word-pair features" in technical
    assert "ln((offensive or hateful votes + 1) / (neither votes + 1))" in technical
    seeds = at.number_input(key="train_seeds")
    assert "80% to train on, 10% set aside and 10% to test on" in seeds.help
