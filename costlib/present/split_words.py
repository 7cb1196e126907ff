"""What a split column makes of the rows, in words, for the Data page: which rows the pages fit
cutoffs on and which they judge them on (`Dataset.purpose_rows` decides), said where the split
is not the usual train and test rows. How a recommendation was judged is
`costlib.present.words.split_sentence`."""

from __future__ import annotations

import numpy as np

from costlib.core.dataset import Dataset

#: a split without test rows (train and validation rows, say): every page fits and judges on
#: every row, as without a split
NO_TEST_ROWS = (
    "There are no test rows, so cutoffs are fitted on every row and judged by cross-fitting (each row by a "
    "cutoff fitted without it), as without a split."
)
#: a split of test rows alone: nothing is left to fit on apart from them
ONLY_TEST_ROWS = (
    "Every row is a test row, so cutoffs are fitted on every row and judged by cross-fitting (each row by a "
    "cutoff fitted without it), as without a split."
)
#: test rows and validation rows, no train rows: the validation rows fit, the test rows judge
NO_TRAIN_ROWS = "There are no train rows, so cutoffs are fitted on the validation rows and judged on the test rows."


def split_use_sentence(ds: Dataset) -> str | None:
    """Where the split is not train and test rows, the rows cutoffs are fitted and judged on; None
    with train and test rows, without a split column, or without a model's scores to cut.

    >>> from costlib.core.dataset import ColumnMapping
    >>> ds = Dataset(name="d", fingerprint="", n_rows=3, mapping=ColumnMapping(split="s"),
    ...              scores={"m": np.array([0.1, 0.5, 0.9])}, split=np.array(["train", "validation", "train"]))
    >>> split_use_sentence(ds) == NO_TEST_ROWS
    True
    """
    if ds.split is None or not ds.scores:
        return None
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    if np.array_equal(fit, judge):  # the pages cross-fit on every row
        return ONLY_TEST_ROWS if ds.has_role("test") else NO_TEST_ROWS
    return None if ds.has_role("train") else NO_TRAIN_ROWS
