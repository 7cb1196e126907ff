"""Labels read the wrong way round (`loading.direction`): a score column that ranks the chosen
positive class clearly below the other is noted when the data is loaded, never refused; a
column with no signal is not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.core.dataset import ColumnMapping
from costlib.loading import prepare, read_table
from costlib.loading.direction import MIN_CLASS_ROWS, is_reversal_note, rank_auc, reversed_scores
from costlib.present.labels import MAP_POSITIVE


def scored(n: int, auc_shift: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """0/1 labels and scores in [0, 1] that rise with the label by `auc_shift` (0: no signal)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, np.clip(0.5 + auc_shift * (y - 0.5) + rng.normal(0, 0.2, n), 0, 1)


def test_it_fires_on_reversed_labels():
    y, score = scored(2000, 0.3, seed=1)
    assert not reversed_scores(y, score)  # read the right way round
    assert reversed_scores(1 - y, score)  # the same data, the labels swapped


@pytest.mark.parametrize("seed", range(40))
def test_it_stays_quiet_on_no_signal_data_of_2000_rows(seed):
    y, score = scored(2000, 0.0, seed)
    assert not reversed_scores(y, score)
    assert not reversed_scores(1 - y, score)


def test_a_slightly_low_auc_on_many_rows_is_not_reversed_a_clearly_low_one_on_few_rows_is_not_either():
    y, score = scored(200_000, -0.03, seed=3)  # significant, but an AUC near one half: a weak model
    auc, z, _, _ = rank_auc(y, score)
    assert z < -3 and auc > 0.4
    assert not reversed_scores(y, score)
    few = np.array([1] * (MIN_CLASS_ROWS - 1) + [0] * 50)
    assert not reversed_scores(few, np.r_[np.zeros(MIN_CLASS_ROWS - 1), np.ones(50)])  # too few positives


def test_ties_count_half():
    auc, _, pos, neg = rank_auc(np.array([0, 1, 0, 1]), np.array([0.5, 0.5, 0.5, 0.5]))
    assert (auc, pos, neg) == (0.5, 2, 2)


def labels_12(n: int = 600, seed: int = 0) -> bytes:
    """Labels 1 and 2, the model scoring "2" (the positive class)."""
    y, score = scored(n, 0.4, seed)
    return pd.DataFrame({"label": y + 1, "score": score.round(4)}).to_csv(index=False).encode()


def test_prepare_notes_labels_1_and_2_read_the_wrong_way_round():
    df = read_table(labels_12(), "twelve.csv")
    wrong = prepare(
        df, ColumnMapping(label="label", positive="1", scores=("score",)), name="twelve.csv", fingerprint=""
    )
    notes = [n for n in wrong.notes if is_reversal_note(n)]
    assert notes == [
        'In "twelve.csv", the scores are lower for "1" than for "2": is "2" the positive class? '
        f'If so, pick it under "{MAP_POSITIVE}" above.'
    ]
    right = prepare(
        df, ColumnMapping(label="label", positive="2", scores=("score",)), name="twelve.csv", fingerprint=""
    )
    assert not any(is_reversal_note(n) for n in right.notes)
    assert right.y.mean() == pytest.approx((df["label"] == 2).mean())


def test_the_note_names_the_flag_on_the_command_line_and_the_columns_of_several_models():
    y, score = scored(600, 0.4, seed=2)
    frame = pd.DataFrame({"label": y + 1, "good": (1 - score).round(4), "bad": score.round(4)})
    mapping = ColumnMapping(label="label", positive="2", scores=("good", "bad"))
    ds = prepare(frame, mapping, name="two.csv", fingerprint="", flags={"positive": "--positive"})
    (note,) = [n for n in ds.notes if is_reversal_note(n)]
    assert note == (
        'In "two.csv", the scores in "good" are lower for "2" than for "1": is "1" the positive class? '
        'If so, choose it (--positive "1").'
    )


def test_0_1_labels_without_a_choice_ask_to_check_the_score():
    y, score = scored(600, 0.4, seed=4)
    frame = pd.DataFrame({"label": 1 - y, "score": score.round(4)})
    ds = prepare(frame, ColumnMapping(label="label", scores=("score",)), name="01.csv", fingerprint="")
    (note,) = [n for n in ds.notes if is_reversal_note(n)]
    assert note.endswith('Check that the score is the chance of "1", not of "0".')
    assert not any(is_reversal_note(n) for n in ds.notes if n != note)
