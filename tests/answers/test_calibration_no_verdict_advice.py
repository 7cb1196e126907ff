"""Review: with no verdict on rescaling (fitted and judged on the same rows), the Calibration
page's answer always ended "To get a verdict, map a split column on the Data page", also where a
split column was mapped, under a warning that said to give that column test rows. The answer now
names the reason that holds and its fix, read from the warning (`same_rows_warning`, the one
place that decides): no split column, a split column without test rows, a split column of test
rows only (nothing left to fit on)."""

from __future__ import annotations

import pytest

from costlib.answers.calibration import calibration_answer
from costlib.present import calibration_words as cw
from tests.answers.split_support import screening_dataset, screening_frame

MODEL = "score_overconfident"


def _answer(ds):
    answer = calibration_answer(ds, MODEL, names=[""], costs={"": (1.0, 2.0)}, unit="$", volume=1000.0)
    return answer, answer.at(10).verdict.headline


def _fix(head: str) -> str:
    """What the answer says after the worths: its way to a verdict."""
    assert head.startswith("No verdict on rescaling: it is fitted on the same cases it is checked on"), head
    return head.split("both read on the cases the rescaling was fitted on. ", 1)[1]


@pytest.fixture(scope="module")
def frame():
    return screening_frame()


def test_without_a_split_column_the_answer_says_to_map_one(frame):
    answer, head = _answer(screening_dataset(frame, split=False))
    assert answer.warning == cw.same_rows_warning(split=False, test_rows=False)
    fix = _fix(head)
    assert fix.startswith("To get a verdict, map a split column on the Data page that keeps some cases apart"), fix
    assert "test rows" not in fix and '"validation"' not in fix


def test_a_split_column_without_test_rows_is_told_to_get_test_rows_not_to_map_a_split(frame):
    """The review's case: a split column of train rows only; the warning above said to give it
    test rows, the answer under it to map a split column, which is mapped."""
    answer, head = _answer(screening_dataset(frame.assign(split="train")))
    assert answer.warning == cw.NO_TEST_ROWS_TO_CALIBRATE
    fix = _fix(head)
    assert "map a split column" not in fix, fix
    assert fix.startswith("Your split column has no test rows to check the rescaling on: to get a verdict, ")
    assert 'mark some rows "test" in that column of your file and upload it again on the Data page' in fix


def test_a_split_column_of_test_rows_only_is_told_to_get_rows_to_fit_on(frame):
    answer, head = _answer(screening_dataset(frame.assign(split="test")))
    assert answer.warning == cw.ONLY_TEST_ROWS_TO_CALIBRATE
    fix = _fix(head)
    assert "map a split column" not in fix, fix
    assert fix.startswith("Every row of your split column is a test row, so none is left to fit the rescaling on")
    assert 'mark some rows "validation" or "train" in that column' in fix
    assert fix.endswith("fitted on them and checked on the test rows.")


def test_a_split_of_train_and_validation_rows_reads_as_one_without_test_rows(frame):
    """Validation rows are rows to fit on, not to check on: still no test rows, the same fix."""
    answer, head = _answer(screening_dataset(frame.assign(split=frame["split"].replace({"test": "validation"}))))
    assert answer.warning == cw.NO_TEST_ROWS_TO_CALIBRATE
    assert _fix(head) == cw.TO_GET_VERDICT[cw.NO_TEST_ROWS_TO_CALIBRATE]


def test_each_reason_has_its_own_way_to_a_verdict():
    """`same_rows_warning` decides; every sentence it can give has its fix, and no two fixes are alike."""
    reasons = {cw.same_rows_warning(split=s, test_rows=t) for s, t in ((False, False), (True, False), (True, True))}
    assert reasons == set(cw.TO_GET_VERDICT) and len(set(cw.TO_GET_VERDICT.values())) == 3


def test_the_warning_and_the_answer_give_one_fix_for_a_split_without_held_out_rows():
    """A last read: the warning said "Give the split column test rows on the Data page", which the Data
    page cannot do, while the answer under it said to mark rows in the file and upload it again."""
    from costlib.present import value_words as vw

    for warning in (cw.NO_TEST_ROWS_TO_CALIBRATE, cw.ONLY_TEST_ROWS_TO_CALIBRATE):
        for said in (warning, cw.TO_GET_VERDICT[warning]):
            assert "in the split column of your file" in said or "in that column of your file" in said, said
            assert "upload it again" in said and "Give the split column" not in said, said
    for note in (vw.NO_TEST_ROWS_NOTE, vw.ONLY_TEST_ROWS_NOTE):  # the Value page's words for the same cases
        assert "upload it again" in note and "Give the split column" not in note, note
