"""How far a rule fitted on all rows moves with another draw of them (issue 43).

A cross-fitted estimate judges each row by cutoffs fitted without it: the folds' picks, not the
one shipped, which is fitted on all rows. Where the cost curve is flat near its best (little or no
signal) they are different picks, and the truth of the one shipped moves with the rows more than
the cross-fit's error says. Poisson resamples of the rows counted by level (`level_draws`, drawn
once and kept: a price move only prices them, `priced_refits`) refit the rule, and each refit is
priced on all the rows; `BOOT_SHARE` of their variance per case is how far the shipped rule moves
(its *moves*: the Value page's threshold, `value.recommendation`; its pair at separate prices,
`value.per_outcome.refit_spread`; the single cutoff for everyone, `single_cutoff_moves`).

How an interval holds them is one choice with two answers, each chosen by simulation
(`benchmarks/README.md`, "One rule for both pages: none exists"; `held_moves`):

- ``ADDED`` (the Value page): the rows' variance plus the moves. There the moves are often as large
  as the rows' error without signal, and anything less covers 0.909 to 0.93.
- ``AT_LEAST`` (the single cutoff's saving on Costs & groups): the larger of the two. There the
  moves are a quarter to a half of the rows' error where the signal is weak (adding them loses 3 to
  15 ships in 500 that pay) and bind without signal, where they lift the coverage from 0.86 to
  0.89 to 0.96.

No formula in the two parts gives both pages their figures: 17 were tried, and every one lies on
one curve between these two.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.binary import capacity as C
from costlib.binary.folds import SPLIT_BUDGET
from costlib.core.prices import Prices
from costlib.core.sweep import TIE_TOLERANCE, hull_best, hull_of

ADDED = "added"  # the rows' variance plus the moves
AT_LEAST = "at least"  # the larger of the two

BOOT_SHARE = 1 - math.exp(-1)  # 0.632: the share of distinct rows a resample holds


REFITS = 200  # Poisson resamples of `level_draws`, at most
MIN_REFITS = 20  # and at least: fewer than `REFITS` where levels x resamples would pass `folds.SPLIT_BUDGET`


def best_prefixes(
    drawn_right,
    drawn_wrong,
    right_worth,
    wrong_worth,
    *,
    max_left: float | None = None,
    max_taken: float | None = None,
    levels: np.ndarray | None = None,
) -> np.ndarray:
    """Per row of the drawn counts (resamples x levels, levels in the order a rule accepts them:
    descending confidence or score), how many levels the resample's best rule accepts: the prefix
    whose worth (`right_worth` a right row, `wrong_worth` a wrong one, against not accepting it) is
    largest, none (0) when none gains, ties to the shorter, as every threshold here is fitted.
    With `max_left`, only prefixes that leave at most that share of the resample's rows unaccepted
    (up to a relative `sweep.TIE_TOLERANCE` of them, as `value.within.rejected_within`): a cap on
    the cases handed over. With `max_taken`, only prefixes that accept at most that share of them
    (`capacity.cap_limit`): a cap on the cases flagged.

    With `levels` (the first column of each level, in order), the columns are entries of levels
    (one group's rows at one score, `single_cutoff_moves`), each with its own worths (arrays, one a
    column), summed by level (`np.add.reduceat`) before the prefixes are read.

    >>> best_prefixes(np.array([[5, 0, 1], [0, 0, 3]]), np.array([[0, 1, 6], [1, 0, 0]]), 1.0, -2.0)
    array([1, 3])
    >>> best_prefixes(np.array([[5, 0, 1], [0, 0, 3]]), np.array([[0, 1, 6], [1, 0, 0]]), 1.0, -2.0, max_left=0.2)
    array([3, 3])
    >>> best_prefixes(np.array([[5, 0, 1], [0, 0, 3]]), np.array([[0, 1, 6], [1, 0, 0]]), 1.0, -2.0, max_taken=0.2)
    array([0, 0])

    The first resample's first level split in two entries, the second worth 3 a right row:

    >>> best_prefixes(np.array([[2, 3, 0, 1]]), np.array([[0, 0, 1, 6]]), [1.0, 3.0, 1.0, 1.0], -2.0, levels=[0, 2, 3])
    array([1])
    """
    right, wrong = np.asarray(drawn_right), np.asarray(drawn_wrong)
    n_levels = right.shape[1] if levels is None else len(levels)
    sums = np.zeros((right.shape[0], n_levels + 1))  # the prefix of no level first, worth 0
    body = sums[:, 1:]  # written in place: a move prices millions of entries, and each copy costs as much
    if levels is None:
        np.multiply(right, right_worth, out=body, dtype=np.float64, casting="unsafe")
        body += np.multiply(wrong, wrong_worth, dtype=np.float64, casting="unsafe")
    else:
        worth = np.multiply(right, right_worth, dtype=np.float64, casting="unsafe")
        worth += np.multiply(wrong, wrong_worth, dtype=np.float64, casting="unsafe")
        np.add.reduceat(worth, levels, axis=1, out=body)
    np.cumsum(body, axis=1, out=body)
    if max_left is not None or max_taken is not None:
        taken = np.zeros_like(sums)  # rows accepted by each prefix
        rows = np.add(right, wrong, dtype=np.float64, casting="unsafe")
        taken[:, 1:] = rows if levels is None else np.add.reduceat(rows, levels, axis=1)
        np.cumsum(taken[:, 1:], axis=1, out=taken[:, 1:])
        total = taken[:, -1:].copy()
        if max_left is not None:
            sums[total - taken > max_left * total + TIE_TOLERANCE * total] = -np.inf  # leaves too many over
        if max_taken is not None:
            sums[taken > max_taken * total * (1.0 + C.CAP_TOLERANCE)] = -np.inf  # flags more than the cap
    return np.argmax(sums, axis=1)


def refits_for(levels: int) -> int:
    """How many resamples `level_draws` draws over `levels` levels: `REFITS`, fewer (`MIN_REFITS` at
    least) where levels x resamples would pass `folds.SPLIT_BUDGET`."""
    return int(np.clip(SPLIT_BUDGET // max(int(levels), 1), MIN_REFITS, REFITS))


def level_draws(right, wrong, *, seed, resamples: int | None = None) -> tuple:
    """The Poisson resamples of a rule's moves, drawn once from the rows counted by level (each
    row drawn a Poisson(1) number of times, so level i holds Poisson(right[i]) right rows and
    Poisson(wrong[i]) wrong ones): chunks of (drawn right, drawn wrong), resamples x levels, each
    chunk within `folds.SPLIT_BUDGET` entries, stored in the smallest whole type that holds them.
    They do not depend on the prices: a reader keeps them (`core.keeping.kept_on`) and a price move
    only prices them (`priced_refits`). `resamples` of them (None: `refits_for` the levels).

    >>> [(r.shape, r.dtype.name) for r, _ in level_draws([5, 0, 1], [0, 1, 6], seed=0)]
    [((200, 3), 'uint8')]
    """
    right, wrong = np.asarray(right, dtype=np.float64), np.asarray(wrong, dtype=np.float64)
    levels = max(right.size, 1)
    resamples = refits_for(levels) if resamples is None else int(resamples)
    rng = np.random.default_rng(seed)
    step = max(1, SPLIT_BUDGET // levels)
    chunks = []
    for m in (min(step, resamples - start) for start in range(0, resamples, step)):
        drawn = rng.poisson(right, (m, right.size)), rng.poisson(wrong, (m, right.size))
        most = max((int(d.max()) for d in drawn if d.size), default=0)
        kind = np.min_scalar_type(most)
        chunks.append(tuple(d.astype(kind) for d in drawn))
    return tuple(chunks)


def priced_refits(
    draws: tuple,
    right,
    wrong,
    right_worth,
    wrong_worth,
    *,
    max_left: float | None = None,
    max_taken: float | None = None,
    levels: np.ndarray | None = None,
) -> np.ndarray:
    """Per resample of `draws` (`level_draws` of the same `right`, `wrong` level counts), the worth
    on all the rows (a sum, not per case) of the prefix of levels the resample's best rule accepts
    (`best_prefixes`, within `max_left` or `max_taken` when given; `levels`: the counts are entries
    of levels, as there): one pass over the levels per resample, no draw and no sort."""
    right, wrong = np.asarray(right, dtype=np.float64), np.asarray(wrong, dtype=np.float64)
    worth = right * right_worth + wrong * wrong_worth
    all_rows = np.r_[0.0, np.cumsum(worth if levels is None else np.add.reduceat(worth, levels))]
    if not draws:
        return np.zeros(0)
    picks = (
        best_prefixes(r, w, right_worth, wrong_worth, max_left=max_left, max_taken=max_taken, levels=levels)
        for r, w in draws
    )
    return np.concatenate([all_rows[j] for j in picks])


def held_moves(se: float, moves: float, rule: str) -> float:
    """The standard error of a cross-fitted estimate whose rule, fitted on all rows, moves with
    them: the rows' `se` (fold-aware, `honest.row_se`) with the `moves` (a variance per case, this
    module's) held by `rule`, ``ADDED`` (``sqrt(se**2 + moves)``) or ``AT_LEAST``
    (``max(se, sqrt(moves))``); `se` itself where the moves are not finite.

    >>> held_moves(0.3, 0.16, ADDED), held_moves(0.3, 0.16, AT_LEAST), held_moves(0.5, 0.16, AT_LEAST)
    (0.5, 0.4, 0.5)
    """
    if not math.isfinite(moves):
        return se
    if rule == ADDED:
        return math.sqrt(se * se + moves)
    if rule == AT_LEAST:
        return max(se, math.sqrt(moves))
    raise ValueError(f"rule must be {ADDED!r} or {AT_LEAST!r}: got {rule!r}")


def single_cutoff_moves(ms, prices: Prices, *, capacity: float | None = None, seed: int = 0) -> float:
    """How far the single cutoff for everyone, fitted on `ms`'s fitting rows (a `ModelSweeps` of
    whole counts) at `prices` (each group's own), moves with them: `BOOT_SHARE` x the variance, per
    case, of the worth on all those rows of the cutoff each Poisson resample of them picks (a
    positive flagged is worth its group's c_fn, a negative -c_fp), within a `capacity` on the share
    flagged when given. NaN with fewer than two resamples or no rows.

    The rows are counted once by pooled score and group (`_entries`) and drawn once (`level_draws`),
    kept on `ms`: a price move only prices them. At one price for everyone and without a limit, the
    pick of each resample is read off its hull (`_resample_hulls`, kept instead of the draws: a move
    is one search per resample, not a pass over every score); per-group prices or a limit price the
    draws score by score (`priced_refits`). The two give the same picks but at a tie that
    rounding alone breaks, where the hull follows `sweep.best_indices`' rule and the scores' sums their
    own (`best_prefixes`).

    Two groups, one score level each and a shared one; whatever the draw, a rule that flags the
    first level alone (3 positives of group a) moves little:

    >>> from costlib.binary.model_sweeps import sweep_model
    >>> ms = sweep_model([1, 1, 1, 0, 0, 0, 1, 0], [0.9, 0.9, 0.9, 0.2, 0.5, 0.5, 0.5, 0.2], list("aaabbbab"))
    >>> from costlib.core.prices import prices_for
    >>> moves = single_cutoff_moves(ms, prices_for(ms.groups, (1.0, 1.0)))
    >>> 0.0 <= moves < 0.1
    True
    """
    right, wrong, group, levels = ms.kept(("single cutoff entries",), lambda: _entries(ms))
    total = float(ms.fit_pooled.total)
    c_fn, c_fp = np.asarray(prices.c_fn, dtype=np.float64), np.asarray(prices.c_fp, dtype=np.float64)
    cap = float(capacity) if C.binds(capacity) else None
    if cap is None and prices.uniform:
        hulls = ms.kept(("single cutoff hulls", int(seed)), lambda: _resample_hulls(_draws(ms, seed), levels))
        j = hull_picks(hulls, c_fn[0], c_fp[0])  # the pooled cutoffs' prefixes: priced on all rows at once
        worths = c_fn[0] * ms.fit_pooled.tp[j] - c_fp[0] * ms.fit_pooled.fp[j]
    else:
        worths = priced_refits(
            ms.kept(("single cutoff draws", int(seed)), lambda: _draws(ms, seed)),
            right,
            wrong,
            c_fn[group],
            -c_fp[group],
            max_taken=cap,
            levels=levels,
        )
    if worths.size < 2 or total <= 0:
        return float("nan")
    return BOOT_SHARE * float(np.var(worths / total, ddof=1))


def _draws(ms, seed: int) -> tuple:
    """The Poisson resamples of `ms`'s entries (`level_draws`) from `seed`: the same draws whether
    they are kept (per-group prices, a limit) or read once into hulls."""
    right, wrong, _, _ = ms.kept(("single cutoff entries",), lambda: _entries(ms))
    return level_draws(right, wrong, seed=[int(seed), 632])


def _resample_hulls(draws: tuple, levels: np.ndarray | None) -> tuple:
    """Per resample of `draws`, the `sweep.Hull` of its cumulative positives and negatives by score
    (`sweep.hull_of`: the prefixes that can be best at some price ratio, and where the next pays)."""
    hulls = []
    for drawn in draws:
        r, w = (np.asarray(d, dtype=np.float64) for d in drawn)
        if levels is not None:
            r, w = np.add.reduceat(r, levels, axis=1), np.add.reduceat(w, levels, axis=1)
        hulls.extend(hull_of(np.r_[0.0, np.cumsum(r[i])], np.r_[0.0, np.cumsum(w[i])]) for i in range(r.shape[0]))
    return tuple(hulls)


def hull_picks(hulls: tuple, c_fn: float, c_fp: float) -> np.ndarray:
    """Per resample hull (`_resample_hulls`), the prefix its best rule at these prices accepts: the
    vertex `sweep.best_indices` would choose on a sweep of the resample's rows (`sweep.hull_best`,
    its one tie rule: an edge is taken only where it pays beyond rounding; none where a positive is
    worth nothing).

    One positive, then one positive with 11 negatives: at 1.1 to 0.1 the second step ties (1.1
    against 11 x 0.1, which rounding puts 2e-16 apart), so it is not taken; at 1.2 to 0.1 it pays:

    >>> from costlib.core.sweep import hull_of
    >>> h = hull_of(np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.0, 11.0]))
    >>> hull_picks((h,), 1.1, 0.1).tolist(), hull_picks((h,), 1.2, 0.1).tolist()
    ([1], [2])
    """
    return np.array([hull_best(h, c_fp, c_fn) for h in hulls], dtype=np.int64)


def _entries(ms) -> tuple:
    """`ms`'s fitting rows counted by pooled score (highest first) and group: (positives, negatives,
    each entry's group index, the first entry of each score, None with one group, where an entry
    is a score), one entry per score and group that has rows there: each group's own levels, placed
    among the pooled ones (as many entries as the groups have levels, not groups x pooled levels)."""
    pooled = ms.fit_pooled
    if len(ms.groups) == 1:
        right, wrong = _whole(np.diff(pooled.tp)), _whole(np.diff(pooled.fp))
        return right, wrong, np.zeros(right.size, dtype=np.int8), None
    rising = pooled.thresholds[:0:-1]  # the pooled scores, lowest first
    parts = []
    for i, g in enumerate(ms.groups):
        sw = ms.fit[g]
        at = rising.size - 1 - np.searchsorted(rising, sw.thresholds[1:])  # its scores' pooled places
        parts.append((at, np.diff(sw.tp), np.diff(sw.fp), np.full(at.size, i)))
    at, right, wrong, group = (np.concatenate(x) for x in zip(*parts, strict=True))
    order = np.argsort(at, kind="stable")  # by score, then by group
    at = at[order]
    starts = np.flatnonzero(np.r_[True, at[1:] != at[:-1]])
    kind = np.min_scalar_type(len(ms.groups))
    return _whole(right[order]), _whole(wrong[order]), group[order].astype(kind), starts


def _whole(counts: np.ndarray) -> np.ndarray:
    """Whole counts (the sweeps' are, where `single_cutoff_moves` is asked) in the smallest whole
    type that holds them: they are kept for every price move."""
    return counts.astype(np.min_scalar_type(int(counts.max(initial=0))))
