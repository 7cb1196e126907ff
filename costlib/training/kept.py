"""The share of the training rows that keeping the costliest K% really keeps.

`tdownK` keeps, within each class, every row whose cost is at or above the class's (100 - K)th
percentile: where many rows share a price (the tweets' votes give a few dozen distinct prices),
every row tied at the cut is kept, and "the costliest 30%" can keep 88% of the rows, the very
rows "the costliest 50%" keeps. A page names such a way by the share it keeps
(`present.training_page.method_short`), so that no name claims a share it does not keep.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.training.compare import TDOWN, training_rows


def kept_of_results(results: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """{tdown method: (share asked, share kept)} of `compare_training`'s output: the rows fitted on
    over the training rows, summed over the seeds (methods without those counts are left out).

    >>> r = pd.DataFrame({"method": ["tdown30", "tdown30", "standard"], "seed": [0, 1, 0],
    ...                   "n_fit": [88, 86, 100], "n_train": [100, 100, 100]})
    >>> kept_of_results(r)
    {'tdown30': (0.3, 0.87)}
    """
    if not {"method", "n_fit", "n_train"} <= set(results.columns):
        return {}
    out = {}
    for method, k in TDOWN.items():
        rows = results[results["method"] == method]
        if len(rows) and rows["n_train"].sum() > 0:
            out[method] = (k / 100, float(rows["n_fit"].sum() / rows["n_train"].sum()))
    return out


def kept_of_delta(delta, methods=tuple(TDOWN)) -> dict[str, tuple[float, float]]:
    """{tdown method of `methods`: (share asked, share kept)} on every row of `delta` priced above 0
    (before a split: a seed's training rows keep about the same share).

    >>> kept_of_delta([1.0, 1.0, 1.0, 2.0, -1.0, -1.0, -1.0, -3.0], ("tdown50",))
    {'tdown50': (0.5, 1.0)}
    """
    d = np.asarray(delta, dtype=np.float64).ravel()
    d = d[d != 0]
    if not d.size:
        return {}
    return {m: (TDOWN[m] / 100, training_rows(m, d > 0, np.abs(d))[0].size / d.size) for m in methods if m in TDOWN}
