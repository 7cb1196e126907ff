"""Which points of a curve are worth drawing: a chart cannot show more points than it has
pixels, so a curve of a million distinct scores is thinned to the few per pixel column that
show every step and every extreme (`thin_index`), for the figures (`present.plotting`) and the
cost curves a slider redraws (`binary.model_sweeps.cost_curves`). What is computed from the
curves is never thinned: only what is drawn.
"""

from __future__ import annotations

import hashlib

import numpy as np

from costlib.core.bounded import BoundedLRU


def thin_index(y: np.ndarray, max_points: int, x: np.ndarray | None = None) -> np.ndarray:
    """Positions of at most about `max_points` points of the curve `y` worth drawing.

    A chart cannot show more points than it has pixels: the curve is cut into
    ``max_points // 4`` buckets and each keeps its first, last, lowest and highest point, so
    every step and every extreme stays visible. NaN is never lowest or highest. With no more
    than `max_points` points, all of them.

    Without `x` the buckets hold as many consecutive points each. With `x` (the points'
    positions along the axis, in drawing order) they are equal stretches of x, a pixel column
    each when there are as many buckets as the chart has columns (M4, Jugel et al. 2014): what
    is left out lies within one column, where scores are dense, and every point is kept where
    they are sparse, so a curve drawn as steps shows no stairs that are not in the data. A
    point whose x is not finite is a bucket of its own. A quarter of the points go to buckets of
    consecutive points, the rest to the stretches of x: a few far-out scores (raw scores are
    allowed) squeeze the rest of the axis into a few columns, which a zoom, or the same points
    drawn against the cases flagged, would otherwise show as a handful of points.

    >>> thin_index(np.arange(10.0), 100).size
    10
    >>> y = np.array([5.0, 1.0, 4.0, 2.0, 3.0, 9.0, 7.0, 6.0, 8.0, 0.5])
    >>> x = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 1.0])
    >>> thin_index(y, 8, x=x).tolist()  # two columns: x below 0.5, and from 0.5
    [0, 1, 4, 5, 9]
    """
    y = np.asarray(y, dtype=float)
    n = y.size
    if n <= max_points:
        return np.arange(n)
    buckets = max(1, max_points // 4)
    if x is not None:
        by_x = _thin_by_x(y, np.asarray(x, dtype=float), buckets - buckets // 4)
        return np.union1d(by_x, thin_index(y, max(4, max_points // 4)))
    size = -(-n // buckets)
    padded = np.full(buckets * size, np.nan)
    padded[:n] = y
    padded = padded.reshape(buckets, size)
    rows = np.arange(buckets) * size
    lowest = rows + np.argmin(np.where(np.isnan(padded), np.inf, padded), axis=1)
    highest = rows + np.argmax(np.where(np.isnan(padded), -np.inf, padded), axis=1)
    return np.unique(np.clip(np.concatenate((rows, rows + size - 1, lowest, highest)), 0, n - 1))


def _thin_by_x(y: np.ndarray, x: np.ndarray, buckets: int) -> np.ndarray:
    """`thin_index` over `buckets` equal stretches of x: each run of consecutive points in one
    stretch keeps its first, last, lowest and highest point (the first of equals; NaN never)."""
    starts, ends, run = _runs(x, buckets)
    nan = np.isnan(y)
    # each run's first lowest and first highest, in one pass each (no sort: a price move thins
    # every line of the cost chart; two lexsorts took 3.1 ms on 10,000 points of one per run)
    low = _first_least(np.where(nan, np.inf, y), starts, run)
    high = _first_least(np.where(nan, np.inf, -y), starts, run)
    return np.unique(np.concatenate((starts, ends, low, high)))


def _runs_nbytes(runs: tuple[np.ndarray, ...]) -> int:
    """The bytes the arrays of one `_runs` answer hold."""
    return sum(a.nbytes for a in runs)


# (x's bytes' digest, its dtype and size, buckets) -> `_runs`; a server's sessions share it, each on its own thread
_RUNS = BoundedLRU(weigh=_runs_nbytes)
_RUNS_KEPT = 32  # at most so many runs remembered,
_RUNS_BYTES = 64 * 2**20  # of at most so many bytes in all
_RUNS_FROM = 4096  # a shorter x is cut again each time: looking it up would cost about as much


def _runs(x: np.ndarray, buckets: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, ends, run) of the runs of consecutive points of `x` in one of `buckets` equal
    stretches of x (a non-finite x: a stretch of its own): each run's first and last position,
    and each position's run.

    They depend on x alone, and a curve's x (a sweep's thresholds) stays while a price moves
    its y: a long x's runs are remembered by its content (`_RUNS`), so a price move reuses them.
    The arrays returned are read-only: they are shared.
    """
    key = None
    if x.size >= _RUNS_FROM:
        digest = hashlib.blake2b(np.ascontiguousarray(x).view(np.uint8), digest_size=16).digest()
        key = (digest, x.dtype.str, x.size, buckets)
        hit = _RUNS.get(key)
        if hit is not None:
            return hit
    finite = np.isfinite(x)
    col = np.full(x.size, -1, dtype=np.int64)  # a non-finite x: a column of its own
    if finite.any():
        lo, hi = float(x[finite].min()), float(x[finite].max())
        width = (hi - lo) / buckets if hi > lo else 1.0
        col[finite] = np.minimum(((x[finite] - lo) / width).astype(np.int64), buckets - 1)
    change = np.flatnonzero(col[1:] != col[:-1]) + 1
    starts = np.concatenate(([0], change))
    ends = np.concatenate((change - 1, [x.size - 1]))
    run = np.repeat(np.arange(starts.size, dtype=np.int32 if starts.size < 2**31 else np.int64), ends - starts + 1)
    for array in (starts, ends, run):
        array.flags.writeable = False
    runs = (starts, ends, run)
    if key is not None:
        _RUNS.put(key, runs, max_entries=_RUNS_KEPT, max_bytes=_RUNS_BYTES)
    return runs


def _first_least(v: np.ndarray, starts: np.ndarray, run: np.ndarray) -> np.ndarray:
    """Position of the first least value of `v` in each run (runs begin at `starts`; `run`
    numbers each position's run)."""
    at = np.flatnonzero(v == np.minimum.reduceat(v, starts)[run])
    keep = np.empty(at.size, dtype=bool)
    keep[:1] = True
    keep[1:] = run[at[1:]] != run[at[:-1]]
    return at[keep]
