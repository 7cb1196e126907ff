"""Cost bounds on bins of scores: which bins may hold the cost-optimal cutoff.

From the cumulative counts at the bins' edges, every cutoff inside bin b costs at least
``L_b = c_fp * negatives above b + c_fn * (positives not above b and not in b)``, and the
cutoff at each bin's lowest score is a real cutoff whose cost is known exactly. Bins whose
lower bound is above the best known cost cannot hold the optimum (nor a cutoff tied with it,
which matters because ties go to the larger threshold): :func:`prune` drops them. A unit's
bins are its `Cells`; :func:`prune_all` prunes every unit's cells in place. Engine-free numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core.prices import mistakes_cost, no_model_costs
from costlib.core.sweep import tie_tolerance
from costlib.scale.binning import bin_top


def prune(pos, neg, *, c_fp: float, c_fn: float, alive=None, exact: bool = True) -> np.ndarray:
    """Which cells (bins, in descending score order) may hold the exact optimum or a tie with it.

    `pos` and `neg` are the weights of the positives and negatives in each cell; the cells
    cover all of one group's rows. `alive` says which cells can still be refined (the
    others are known losers, kept only for their counts); default all. Returns a boolean
    mask of the alive cells to keep. The mask never drops a cell that holds the cutoff
    :func:`costlib.core.sweep.argbest` picks on the exact sweep (the cheapest, ties to the
    larger threshold): a cell is dropped if even its lower bound ``L_b`` is above the best
    achievable cost plus argbest's tie tolerance, or if it lies entirely below an achievable
    cutoff (+inf or a cell's lowest score) that already costs no more than every lower
    bound. With ``exact=False`` (real-valued weights, summed in another order than in
    memory) both tests get a margin of 1e-8 of the largest cost.

    >>> prune([3, 1, 0, 0], [0, 1, 2, 5], c_fp=1, c_fn=1).tolist()  # the last cell's bound is 3 > 1
    [True, True, True, False]
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    alive = np.ones(pos.size, dtype=bool) if alive is None else np.asarray(alive, dtype=bool).copy()
    if pos.size == 0:
        return alive
    P, N = float(pos.sum()), float(neg.sum())
    total = P + N
    if total <= 0:
        return np.zeros(pos.size, dtype=bool)
    pos_above = np.concatenate(([0.0], np.cumsum(pos)[:-1]))
    neg_above = np.concatenate(([0.0], np.cumsum(neg)[:-1]))
    fn_low = P - pos_above - pos  # false negatives when every positive of the cell is flagged
    lower = mistakes_cost(neg_above, fn_low, c_fp, c_fn)  # the in-memory cost formula
    edge = mistakes_cost(neg_above + neg, fn_low, c_fp, c_fn)  # the cutoff at the cell's lowest score
    nobody, everyone = no_model_costs(P, N, c_fp, c_fn)
    err = 0.0 if exact else 1e-8 * (everyone + nobody)
    ub = min(nobody, float(edge.min()))
    ub_pc = ub / total
    keep = alive & (lower / total <= ub_pc + 2 * tie_tolerance(ub_pc) + 2 * err / total)  # twice: keep every tie
    floor = min(nobody, float(lower.min()))
    if nobody + 2 * err <= floor:  # flagging nobody is already as cheap as anything can be
        return np.zeros(pos.size, dtype=bool)
    first = np.flatnonzero(alive & (edge + 2 * err <= floor))
    if first.size:  # that cutoff is a global optimum: nothing below it can win the tie
        keep[first[0] + 1 :] = False
    return keep


@dataclass
class Cells:
    """One unit's cells in descending score order (dead cells stay for their counts)."""

    top: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    n: np.ndarray
    b: np.ndarray
    alive: np.ndarray

    @classmethod
    def from_frame(cls, f: pd.DataFrame) -> Cells:
        f = f.sort_values("top", ascending=False, kind="stable")
        alive = f["alive"].to_numpy(dtype=bool) if "alive" in f else np.ones(len(f), dtype=bool)
        return cls(
            f["top"].to_numpy(dtype=np.int64),
            *(f[c].to_numpy(dtype=np.float64) for c in ("pos", "neg", "n")),
            f["b"].to_numpy(dtype=np.int64),
            alive,
        )

    def frame(self, mask) -> pd.DataFrame:
        return pd.DataFrame(
            {"top": self.top[mask], "pos": self.pos[mask], "neg": self.neg[mask], "n": self.n[mask], "b": self.b[mask]}
        )


def cells_frame(frame: pd.DataFrame, key: str, bits: int) -> pd.DataFrame:
    """(key, b) rows with pos, neg, n and the order key `top` from per-label rows (y, b, n, w)."""
    frame = frame.assign(pos=np.where(frame["y"] == 1, frame["w"], 0.0), neg=np.where(frame["y"] == 0, frame["w"], 0.0))
    cells = frame.groupby([key, "b"], sort=False).agg(pos=("pos", "sum"), neg=("neg", "sum"), n=("n", "sum"))
    cells = cells.reset_index()
    cells = cells[cells["pos"] + cells["neg"] > 0]
    return cells.assign(top=bin_top(cells["b"].to_numpy(dtype=np.int64), bits))


def alive_cell(cells: Cells, bins: np.ndarray) -> np.ndarray:
    """For each bin of one unit's rows, the position of that alive cell in `cells`, or -1 (not alive)."""
    out = np.full(bins.size, -1, dtype=np.int64)
    alive = np.flatnonzero(cells.alive)
    if alive.size == 0:
        return out
    by_bin = np.argsort(cells.b[alive])
    keys = cells.b[alive][by_bin]
    at = np.minimum(np.searchsorted(keys, bins), keys.size - 1)
    hit = keys[at] == bins
    out[hit] = alive[by_bin][at[hit]]
    return out


def alive_index(state: dict, units: np.ndarray, bins: np.ndarray) -> np.ndarray:
    """For each (unit, bin), the position of that alive cell in its unit, or -1 (not alive)."""
    out = np.full(units.size, -1, dtype=np.int64)
    small = np.int16 if units.size == 0 or (units.min() >= 0 and units.max() < 2**15) else np.int64
    order = np.argsort(units.astype(small), kind="stable")  # a radix sort on 16-bit unit codes
    sorted_units = units[order]
    for u, cells in state.items():
        a, b = np.searchsorted(sorted_units, [u, u + 1])
        if a < b:
            out[order[a:b]] = alive_cell(cells, bins[order[a:b]])
    return out


def prune_all(state: dict, prices: dict, exact: bool) -> int:
    """Prune every unit's cells in place; the number of rows in the alive cells."""
    rows = 0
    for u, cells in state.items():
        c_fp, c_fn = prices[u]
        cells.alive = prune(cells.pos, cells.neg, c_fp=c_fp, c_fn=c_fn, alive=cells.alive, exact=exact)
        rows += int(cells.n[cells.alive].sum())
    return rows


__all__ = ["Cells", "alive_cell", "alive_index", "cells_frame", "prune", "prune_all"]
