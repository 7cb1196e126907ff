"""The share of the training rows that keeping the costliest K% really keeps.

`tdownK` keeps, within each class, every row whose cost is at or above the class's (100 - K)th
percentile: where many rows share a price (the tweets' votes give a few dozen distinct prices),
every row tied at the cut is kept, and "the costliest 30%" can keep 88% of the rows, the very
rows "the costliest 50%" keeps. A page names such a way by the share it keeps
(`present.training_page.method_short`), so that no name claims a share it does not keep.

The share is that of the training rows of the seeds compared (`kept_of_seeds`, from the prices alone,
before any training: the box of ways is named before it trains; `kept_of_results` reads the same from
the comparison's rows), never of every row: on 300 rows priced 1, 2 or 3, "the costliest 50%" keeps
79% of all the rows but 73% of the ten seeds' training rows, and the page named one way twice.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.training.compare import TDOWN, _check_seeds, training_rows, training_split


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


def kept_of_seeds(delta, seeds, *, methods=tuple(TDOWN), random_state: int = 0) -> dict[str, tuple[float, float]]:
    """{tdown method of `methods`: (share asked, share kept)} over the training rows of `seeds` (a
    number: seeds 0 .. seeds - 1, or the seed numbers) at `random_state`: the rows the way fits on
    over the training rows, summed over the seeds, as `kept_of_results` reads them from
    `compare_training`'s output for the same seeds, here from `delta` alone (a seed's split depends
    only on the labels, the seed and `random_state`). Rows priced 0 are left out, as there.

    >>> d = [1.0] * 30 + [2.0] * 30 + [3.0] * 30 + [-1.0] * 30 + [-2.0] * 30 + [-3.0] * 30
    >>> {m: (asked, round(kept, 3)) for m, (asked, kept) in kept_of_seeds(d, 3, methods=("tdown50",)).items()}
    {'tdown50': (0.5, 0.674)}
    """
    d = np.asarray(delta, dtype=np.float64).ravel()
    d = d[d != 0]
    wanted = [m for m in methods if m in TDOWN]
    if not d.size or not wanted:
        return {}
    fit, train = dict.fromkeys(wanted, 0), 0
    for seed in _check_seeds(seeds):
        rows = training_split(d > 0, seed=seed, random_state=random_state)[0]
        train += rows.size
        for m in wanted:
            fit[m] += training_rows(m, d[rows] > 0, np.abs(d[rows]))[0].size
    return {m: (TDOWN[m] / 100, fit[m] / train) for m in wanted}
