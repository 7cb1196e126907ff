"""Labels read the wrong way round: a score column that ranks the positive class clearly below
the other one.

A model's score is higher the likelier the positive class. When a file's labels are 1 and 2 and
"1" is taken as positive while the model scores "2", every page judges a model that looks worse
than useless. `reversed_scores` tells such a column from one that merely has no signal: its AUC
(the chance that a positive row outscores a negative one, ties counted half) lies clearly below
one half (`REVERSED_AUC`) and far enough below it that chance alone would almost never put it
there (one-sided, `REVERSED_Z` standard errors of the Mann-Whitney statistic under no signal).

Pure: numbers in, a verdict out; the loader notes it (`preparing.prepare`), never refuses.
"""

from __future__ import annotations

import math
import re

import numpy as np

from costlib.loading.messages import NOTE_REVERSED_LABELS

REVERSED_AUC = 0.4  # a clear margin below one half
REVERSED_Z = -3.0  # one-sided: chance alone goes this far below in about 1 data set in 700
MIN_CLASS_ROWS = 20  # fewer rows of a class than this: no verdict
MAX_CHECK_ROWS = 200_000  # a larger table is checked on this many evenly spaced rows


def rank_auc(y: np.ndarray, score: np.ndarray) -> tuple[float, float, int, int]:
    """(AUC, z, positives, negatives) of `score` against the 0/1 labels `y`: the AUC with ties
    counted half (from the ranks: the Mann-Whitney U over positives times negatives) and its
    distance from one half in standard errors under no signal (no tie correction, which only
    widens the error: the z is the more cautious). NaN for both when a class is absent.

    >>> rank_auc(np.array([0, 0, 1, 1]), np.array([0.1, 0.2, 0.3, 0.4]))[:1]
    (1.0,)
    """
    y = np.asarray(y).astype(bool)
    pos, neg = int(y.sum()), int((~y).sum())
    if pos == 0 or neg == 0:
        return math.nan, math.nan, pos, neg
    from scipy.stats import rankdata  # not at import: loading stays light (tests/test_imports.py)

    ranks = rankdata(np.asarray(score, dtype=np.float64))
    u = float(ranks[y].sum()) - pos * (pos + 1) / 2
    auc = u / (pos * neg)
    sd = math.sqrt(pos * neg * (pos + neg + 1) / 12)
    return auc, (u - pos * neg / 2) / sd, pos, neg


def reversed_scores(y: np.ndarray, score: np.ndarray) -> bool:
    """Whether `score` ranks the rows whose label `y` is 1 clearly below the others: AUC below
    `REVERSED_AUC`, `REVERSED_Z` standard errors below one half, with `MIN_CLASS_ROWS` rows of
    each class at least. A table over `MAX_CHECK_ROWS` rows is judged on that many evenly
    spaced rows (the verdict needs no more, and a large upload pays no full sort for it)."""
    y, score = np.asarray(y), np.asarray(score)
    if len(y) > MAX_CHECK_ROWS:
        keep = np.linspace(0, len(y) - 1, MAX_CHECK_ROWS).astype(np.int64)
        y, score = y[keep], score[keep]
    finite = np.isfinite(score)
    auc, z, pos, neg = rank_auc(y[finite], score[finite])
    if min(pos, neg) < MIN_CLASS_ROWS:
        return False
    return auc < REVERSED_AUC and z < REVERSED_Z


_REVERSAL = re.compile(
    ".*".join(re.escape(part) for part in re.split(r"\{\w+\}", NOTE_REVERSED_LABELS)) + "$", re.DOTALL
)


def is_reversal_note(note: str) -> bool:
    """Whether the dataset note `note` is the loader's `NOTE_REVERSED_LABELS` (a warning, where
    other notes inform)."""
    return bool(_REVERSAL.match(note))
