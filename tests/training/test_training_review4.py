"""Train with costs, review 4: the honesty benchmark's figures when a design ships nothing."""

from __future__ import annotations


def test_figures_count_no_false_ships_when_one_interval_ships_nothing(training_honesty_bench):
    """With few data sets the corrected interval can ship nothing while the plain one ships: its
    false ships are then 0, not ``int('')`` (pandas reads the shipped ways as text, and the empty
    sum of a text column is the empty string: the benchmark crashed)."""
    rows = [
        {"data_set": r, "interval": name, "method": "weighted", "change": 0.01, "low": -0.02, "high": 0.04,
         "shipped": "weighted" if name == "plain" and r == 1 else None}
        for r in (1, 2)
        for name in ("corrected", "plain")
    ]  # fmt: skip
    got = training_honesty_bench.figures(rows, {"standard": 0.0, "weighted": 0.0})
    assert got["corrected"]["false_ships"] == 0 and got["corrected"]["ship_rate"] == 0.0
    assert got["plain"]["false_ships"] == 1 and got["plain"]["ship_rate"] == 0.5
    assert got["corrected"]["data_sets"] == got["plain"]["data_sets"] == 2


def test_figures_count_a_false_ship(training_honesty_bench):
    """One data set ships a way that is truly no cheaper: one false ship."""
    rows = [
        {"data_set": r, "interval": "corrected", "method": "weighted", "change": -0.1, "low": -0.2, "high": -0.01,
         "shipped": "weighted" if r == 1 else None}
        for r in (1, 2)
    ]  # fmt: skip
    got = training_honesty_bench.figures(rows, {"standard": 0.0, "weighted": 0.02})["corrected"]
    assert got["false_ships"] == 1 and got["ship_rate"] == 0.5


def _verdict_texts(price: float = 1.0) -> list[str]:
    """The verdict of each kind (ship, not clearly better) in full: headline and the lines under it."""
    import pandas as pd

    from costlib.present.training_words import training_verdict_of

    out = []
    for low, high in ((-0.38, -0.24), (-0.2, 0.05)):
        s = pd.DataFrame({"method": ["standard", "weighted"], "seeds": [10, 10], "nec": [0.10, 0.09],
                          "nec_change": [0.0, -0.1], "nec_change_low": [0.0, low],
                          "nec_change_high": [0.0, high], "error_rate": [0.10, 0.12]})  # fmt: skip
        v = training_verdict_of(s, price=price, unit="$", volume=1000)
        out.append(" ".join([v.headline, *v.details]))
    return out


TECHNICAL_NAMES = ("Nadeau", "Bengio", "decision boundary", "resampled t")


def test_the_verdict_and_the_predictability_sentence_read_plain():
    """What is read first names no method by its authors and no "decision boundary" (review 4):
    the caveat under the verdict points at the technical terms, the predictability sentence says
    "a different decision"."""
    from costlib.present.training_words import predictability_sentence

    said = [*_verdict_texts(), *(predictability_sentence(r2, r2 - 0.02, r2 + 0.02) for r2 in (0.01, 0.1, 0.5))]
    for text in said:
        assert not [w for w in TECHNICAL_NAMES if w in text], text
    assert any("(the technical terms say how)" in text for text in said[:2])
    assert "a different decision" in predictability_sentence(0.5, 0.4, 0.6)


def test_the_technical_names_are_in_the_terms_box():
    """The names taken out of the first read are in the box of technical terms, each once."""
    from costlib.present.training_terms import TRAIN_TERMS

    box = " ".join(TRAIN_TERMS)
    for name in ("Nadeau and Bengio", "decision boundary", "corrected resampled t interval"):
        assert box.count(name) == 1, name


def test_a_one_row_file_is_one_row():
    """c_hugeline.csv read as one row: "Your file: c_hugeline.csv (1 rows)." said one row."""
    from costlib.present.training_words import your_file_sentence

    assert your_file_sentence("c_hugeline.csv", 1) == "Your file: c_hugeline.csv (1 row)."
    assert your_file_sentence("t.csv", 2_000) == "Your file: t.csv (2,000 rows)."
