"""The score scales: how a score column is read before any cutoff is compared with it.

``probability`` scores are used as they are; ``logit`` scores (log-odds) are mapped by the
sigmoid, so that cutoffs, the 0.5 rule and Elkan's formula are all on probabilities; ``raw``
scores are any real numbers, used as they are (no probability rule applies to them). The
loader, the Watch report and the hand-off to a serving model read scores through `on_scale`
alone, so a cutoff means the same everywhere.
"""

from __future__ import annotations

import numpy as np

SCALES = ("probability", "logit", "raw")


def on_scale(values, scale: str) -> np.ndarray:
    """`values` (floats) on the scale the cutoffs are on: the sigmoid of log-odds (SciPy's
    ``expit``, exact to the last digit at both ends), else the values themselves.

    >>> on_scale([0.0, 2.0], "logit").round(4).tolist()
    [0.5, 0.8808]
    >>> on_scale([3.0], "raw").tolist()
    [3.0]
    """
    values = np.asarray(values, dtype=np.float64)
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}: got {scale!r}")
    if scale != "logit":
        return values
    from scipy.special import expit

    return expit(values)
