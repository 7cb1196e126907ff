"""Randomised cutoffs in a policy, drawn reproducibly from each case's id.

A randomised cutoff (as fairlearn's ThresholdOptimizer makes them) is a pair per group: a case
whose score is at least the group's cutoff is flagged; one whose score lies in ``[low,
cutoff)`` is flagged with probability ``p``. A policy records them beside its cutoffs, in the
field ``"randomised"``: ``{group: {"low": ..., "p": ...}}`` (the short form) or a list of
records ``{"group", "low", "p"}`` (a policy file). A group without a record is decided by its
cutoff alone.

The draw is a hash of the case's id, never a random number generator's state: the id read as
the loader reads a cell (1, 1.0 and "1" are one id), its UTF-8 text hashed with BLAKE2b (not
Python's salted ``hash()``), read as a number u in [0, 1), and the case flagged where u < p.
The same id gets the same decision on any machine, in any order, in any batch; over many ids
a share p of the band is flagged.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.loading.messages import q

DRAW_KEY = b"costlib.randomised.v1"  # the hash's key: a policy's draws never change with the costlib version
MSG_NEEDS_IDS = (
    "The policy has randomised cutoffs (group {group}: a case scored from {low:g} up to its cutoff {high:g} is "
    "flagged with probability {p:.4g}), and each such case is drawn from its id: give each case's id (case_ids=... "
    "in Python, --id COL on the command line)."
)
MSG_ID_LENGTH = "There are {n_scores:,} scores but {n_ids:,} case ids: give one id per case."
MSG_ID_MISSING = (
    "The case id of case {number:,} (counting from 1; in a file, row {row:,} with the header as row 1) is missing: "
    "every case needs an id to draw its randomised decision."
)
MSG_ID_REPEATED = (
    "The case id {id} is given to cases {first:,} and {second:,} (counting from 1): ids must name one case each "
    "(the same id always gets the same draw)."
)
MSG_IN_ESTIMATOR = (
    "The policy has randomised cutoffs, drawn from each case's id, which a scikit-learn model's predict does not "
    "get: decide these cases with apply_policy(..., case_ids=...) or costlib apply --id COL."
)


def draws(case_ids, n: int) -> np.ndarray:
    """(n,) numbers in [0, 1), one per case, from its id alone (the module docstring).
    DataError for a missing id, a repeated one or another count of ids than `n`.

    >>> float(draws(["case-1"], 1)[0]) == float(draws(pd.Series(["case-1"]), 1)[0])
    True
    >>> bool(draws([7], 1)[0] == draws(["7"], 1)[0] == draws([7.0], 1)[0])
    True
    """
    from costlib.present.policy_fields import group_name

    ids = case_ids if isinstance(case_ids, pd.Series) else pd.Series(np.asarray(case_ids, dtype=object).ravel())
    column = None if ids.name is None else str(ids.name)  # a named column: the CLI puts its flag before the sentence
    if len(ids) != n:
        raise DataError(MSG_ID_LENGTH.format(n_scores=n, n_ids=len(ids)), column=column)
    out = np.empty(n)
    seen: dict = {}
    for i, x in enumerate(ids.tolist()):
        missing = x is None or x is pd.NA or x is pd.NaT or (isinstance(x, float) and math.isnan(x))
        text = None if missing else group_name(x)
        if not text or not str(text).strip():
            raise DataError(MSG_ID_MISSING.format(number=i + 1, row=i + 2), column=column)
        if text in seen:
            raise DataError(MSG_ID_REPEATED.format(id=q(text), first=seen[text] + 1, second=i + 1), column=column)
        seen[text] = i
        digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8, key=DRAW_KEY).digest()
        out[i] = int.from_bytes(digest, "big") / 2.0**64
    return out


def randomised_flags(scores: np.ndarray, cut: np.ndarray, low: np.ndarray, p: np.ndarray, case_ids) -> np.ndarray:
    """Flags of a randomised policy: ``score >= cut``, or ``low <= score < cut`` and the case's
    draw (`draws`) below ``p``; arrays per case (a group without a band: ``p`` 0)."""
    band = (scores >= low) & (scores < cut) & (p > 0)
    flags = scores >= cut
    if band.any():
        u = draws(case_ids, scores.size)
        flags = flags | (band & (u < p))
    return flags
