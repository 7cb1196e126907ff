"""Before the outcomes arrive: a period's cost, refit and alert from its scores, under both
readings of them, judged as honestly as the measured periods are.

Scores alone cannot always tell two changes apart, so every period with cases whose outcome is
not known yet is read both ways:

- **the base rate moved** (label shift, the reading that alerts): the cases of each class look
  as they did when the policy was fitted, only their proportion changed. The new base rate is
  the fixed point of Saerens, Latinne and Decaestecker's EM (`costlib.watch.shift`), each score
  is moved to it, and refitting means moving the shipped cutoffs with it: a case is flagged when
  its moved probability is at least the shipped cutoff, so every cutoff's odds are divided by the
  change in the base rate's odds (``logit t' = logit t + logit train_prior - logit prior``). That
  refit is fitted on nothing but the base rate, so the period's own rows do not flatter it: when
  the base rate has not moved it is the shipped cutoff, and the regret is zero. Under a review
  limit the moved cutoffs are raised together until they fit it;
- **the cases changed and the model stayed calibrated** (covariate shift, as NannyML's CBPE
  assumes): each score is the probability of its case as it is, the base rate is their mean and
  the shipped cost-optimal cutoff stays right (its regret is zero).

The rows whose outcome is known count with their outcomes in both readings (and in the EM, as
probabilities 0 and 1), so a partly labelled period combines what is measured with the estimate
for the rest. The intervals resample the period (the Poisson bootstrap on cells of equal group,
outcome and score), draw the base rate the scores are calibrated to again (the fitting rows' mean
score, from its standard error), and repeat the EM and the refit in each resample. The
refit is judged as a measured period's is, on cases it was not fitted on: the refit of one
resample is judged on the next (`_judged_refits`), so its own noise counts against it and the
judge's uncertainty is in the interval (judged on the resample it was fitted on, a refit would
always look like a saving, since moving a cutoff towards the moved probabilities' best always
is one); the regret is the mean of those judgements. A cost's interval also draws the outcomes
still to come from each reading's probabilities, so that it covers what the outcomes will show.
An alert fires when the whole 95% interval of the base-rate reading's regret is above zero, or
when the scores fit no mixture of the fitting rows' classes (`costlib.watch.reference`): then
the model itself may have changed. Without resamples the regret is the plug-in (the refit
judged at the estimate it was fitted on), and nothing alerts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from costlib.binary.capacity import at_random
from costlib.stats.intervals import percentile_interval
from costlib.watch.groups import GroupCounts, group_readings, summed_by_group
from costlib.watch.shift import move_to_prior, prior_fixed_points

HOLDS, FAILS, UNTESTED = "holds", "fails", "untested"
CHUNK = 100  # resamples judged at once
MAX_CELLS = 4096  # cells per group and kind of row in a resample (quantile buckets beyond: the interval only)
SHIFT_NOISE = 1e-9  # a shift of the log-odds below this is the EM's rounding, not a move of the base rate
EXACT_TELL = 5000  # up to this many outcomes the count is searched exactly (binomial)
TELL_Z = 1.6448536269514722  # each reading named rightly with at most a 5% error, told apart at the midpoint


# ---------------------------------------------------------------------------------------
# Moving probabilities and cutoffs to a new base rate


def logit(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(x) - np.log1p(-x)


def _moved(s: np.ndarray, q: np.ndarray, pi) -> np.ndarray:
    """(b, m) probabilities `s` moved from the base rate `pi` to `q` (b,), one row per resample."""
    pis = np.broadcast_to(np.asarray(pi, dtype=np.float64), q.shape)
    return move_to_prior(s[None, :], q[:, None], pis[:, None])


def moved_cutoff(t: float, shift: float) -> float:
    """A probability cutoff `t` whose log-odds are raised by `shift` (the ends 0 and 1, and
    +-inf, stay where they are).

    >>> round(moved_cutoff(0.25, math.log(3)), 4)  # odds 1:3 times 3 is 1:1
    0.5
    """
    t = float(t)
    if not 0.0 < t < 1.0 or shift == 0:
        return t
    z = math.log(t) - math.log1p(-t) + float(shift)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    return math.exp(z) / (1.0 + math.exp(z))


def _keys(s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Each cell's log-odds above its group's cutoff: the cell is flagged by the cutoffs moved by
    a shift d iff its key is at least d (+inf: flagged by every moved cutoff, -inf: by none)."""
    with np.errstate(invalid="ignore"):
        key = logit(s) - logit(np.clip(t, 1e-300, 1.0))
    key = np.where(np.isnan(key), -np.inf, key)
    key = np.where(t <= 0, np.inf, key)  # a cutoff of 0 or -inf flags everyone, moved or not
    key = np.where(t == 1, np.where(s >= 1, np.inf, -np.inf), key)
    return np.where(t > 1, -np.inf, key)  # above 1 (+inf: nobody) no probability reaches it


# ---------------------------------------------------------------------------------------
# Cells: rows of one group, kind (no outcome yet, positive, negative) and score


@dataclass(frozen=True)
class Cells:
    score: np.ndarray
    group: np.ndarray  # index into the group names
    kind: np.ndarray  # 0: no outcome yet, 1: a positive, 2: a negative
    count: np.ndarray

    @property
    def em_p(self) -> np.ndarray:
        """What each cell gives the EM: its score, or its outcome when known."""
        return np.where(self.kind == 0, self.score, np.where(self.kind == 1, 1.0, 0.0))


def make_cells(scores: np.ndarray, codes: np.ndarray, labels: np.ndarray) -> Cells:
    kind = np.where(np.isnan(labels), 0, np.where(labels == 1, 1, 2))
    order = np.lexsort((scores, kind, codes))
    s, k, g = scores[order], kind[order], codes[order]
    new = np.ones(s.size, dtype=bool)
    new[1:] = (s[1:] != s[:-1]) | (k[1:] != k[:-1]) | (g[1:] != g[:-1])
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, s.size)).astype(np.float64)
    return Cells(s[starts], g[starts], k[starts], counts)


def compress(cells: Cells, keep: np.ndarray, limit: int = MAX_CELLS) -> Cells:
    """At most `limit` cells per group and kind: consecutive cells in buckets of equal size, each
    at its cases' mean score, with a bucket boundary at every score in `keep` (the shipped
    cutoffs stay exact). The cells as they are when they are few."""
    from costlib.watch.reference import bucket_ends

    parts = []
    for g in np.unique(cells.group):
        for k in (0, 1, 2):
            sel = np.flatnonzero((cells.group == g) & (cells.kind == k))
            if sel.size == 0:
                continue
            if sel.size <= limit:
                parts.append((cells.score[sel], np.full(sel.size, g), np.full(sel.size, k), cells.count[sel]))
                continue
            ends = bucket_ends(cells.count[sel], limit)
            cuts = np.searchsorted(cells.score[sel], keep, side="left") - 1  # the last cell below each kept score
            ends = np.unique(np.concatenate((ends, cuts[(cuts >= 0) & (cuts < sel.size - 1)])))
            starts = np.concatenate(([0], ends[:-1] + 1))
            count = np.add.reduceat(cells.count[sel], starts)
            score = np.add.reduceat(cells.count[sel] * cells.score[sel], starts) / count
            parts.append((score, np.full(count.size, g), np.full(count.size, k), count))
    s, g, k, c = (np.concatenate(x) for x in zip(*parts, strict=True))
    return Cells(s, g, k, c)


# ---------------------------------------------------------------------------------------
# One period judged under one reading, for many resamples at once


@dataclass(frozen=True)
class Setting:
    """What a period is judged against, per cell of `cells`."""

    cells: Cells
    shipped: np.ndarray  # bool: flagged by the shipped cutoff
    keys: np.ndarray  # `_keys`
    c_fp: np.ndarray
    c_fn: np.ndarray
    capacity: float | None
    random_share: float | None


def _setting(cells: Cells, cut: np.ndarray, c_fp: np.ndarray, c_fn: np.ndarray, capacity, random_share) -> Setting:
    t = cut[cells.group]
    return Setting(
        cells, cells.score >= t, _keys(cells.score, t), c_fp[cells.group], c_fn[cells.group], capacity, random_share
    )


def _cap_shift(keys: np.ndarray, w: np.ndarray, cap: float) -> np.ndarray:
    """(b,) the smallest shift of the cutoffs' log-odds whose flagged share of each row of `w` is
    at most `cap` (+inf when even the cases flagged by every cutoff are more)."""
    order = np.argsort(-keys, kind="stable")
    k = keys[order]
    last = np.append(k[1:] != k[:-1], True)  # the last cell of each run of equal keys
    cum = np.cumsum(w[:, order], axis=1)[:, last]
    fits = cum <= cap * w.sum(axis=1, keepdims=True) * (1 + 1e-12)
    j = fits.sum(axis=1) - 1  # fits is True then False along the keys
    return np.where(j >= 0, k[last][np.maximum(j, 0)], np.inf)


def _shipped_cells(st: Setting, w, flagged_cost: np.ndarray, missed_cost: np.ndarray) -> np.ndarray:
    """(b, m) each cell's cost under the shipped policy, weights `w`: its cutoffs, or its random share
    (that share of each cell flagged)."""
    if st.random_share is not None:
        return w * at_random(st.random_share, missed_cost, flagged_cost)
    return w * np.where(st.shipped, flagged_cost, missed_cost)


def _moved_flags(st: Setting, shift: np.ndarray) -> np.ndarray:
    """(b, m) whether the refit flags each cell: the shipped cutoffs with their log-odds moved by
    `shift` (b,), the shipped flags where there is no move."""
    return np.where((shift == 0)[:, None], st.shipped[None, :], st.keys[None, :] >= shift[:, None])


def _judge(st: Setting, w: np.ndarray, pi, *, shifted: bool, rng=None) -> dict:
    """The reading (`shifted`: the base rate moved; else calibrated scores) of the cells under
    weights `w` (b, m) and fitting rows' base rate `pi` (b,): arrays (b,) of the base rate (of
    all cases, and of those without an outcome), the shipped and refitted costs per case, their
    difference (the regret), the shift of the cutoffs' log-odds and, for a random share, the
    share the refit flags; ``"spent"`` (b, m), each cell's cost under the shipped policy, and
    (`shifted`) ``"positive"`` (b, m), its positives (expected where the outcome is not known); with
    `rng`, ``"drawn"``: the shipped cost once the outcomes still to come are drawn, and (`shifted`)
    ``"drawn_positive"`` (b, m), each cell's positives so drawn."""
    c = st.cells
    b = w.shape[0]
    unknown = c.kind == 0
    if shifted:
        q = prior_fixed_points(c.em_p, w, pi)
        p = _moved(c.score, q, pi)
    else:  # the scores as they are, the same in every resample: each cell's costs are made once, not per row
        p = c.score
    total = w.sum(axis=1)
    flagged_cost = np.where(unknown, (1.0 - p) * st.c_fp, np.where(c.kind == 2, st.c_fp, 0.0))
    missed_cost = np.where(unknown, p * st.c_fn, np.where(c.kind == 1, st.c_fn, 0.0))
    share = None
    spent = _shipped_cells(st, w, flagged_cost, missed_cost)
    shipped = spent.sum(axis=1)
    if st.random_share is not None:
        r = st.random_share
        nobody = np.sum(w * missed_cost, axis=1)
        refit = np.minimum(nobody, shipped) if shifted else shipped
        shift = np.zeros(b)
        share = np.where(refit < shipped, 0.0, r)
    else:
        shift, refit = np.zeros(b), shipped
        if shifted:
            pis = np.broadcast_to(np.asarray(pi, dtype=np.float64), (b,))
            with np.errstate(invalid="ignore"):
                shift = logit(pis) - logit(q)
            shift = np.where(np.abs(shift) < SHIFT_NOISE, 0.0, shift)  # the EM's last bits: no move
            if st.capacity is not None:
                shift = np.maximum(shift, _cap_shift(st.keys, w, st.capacity))
            refit = np.sum(w * np.where(_moved_flags(st, shift), flagged_cost, missed_cost), axis=1)
    w_unknown = np.where(unknown, w, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {
            "base_rate": np.sum(w * np.where(unknown, p, c.em_p), axis=1) / total,
            "unknown_rate": np.sum(w_unknown * p, axis=1) / w_unknown.sum(axis=1),
            "shipped": shipped / total,
            "refit": refit / total,
            "shift": shift,
            "share": share,
            "spent": spent,
            "flagged_cost": flagged_cost,
            "missed_cost": missed_cost,
        }
    if shifted:  # each cell's positives, for its groups' rates (`_groups`: the base-rate reading's only)
        out["positive"] = w * np.where(unknown, p, c.kind == 1)
    out["regret"] = out["shipped"] - out["refit"]
    if rng is not None:
        pos = rng.binomial(np.round(w).astype(np.int64), np.clip(p, 0.0, 1.0)) if unknown.any() else np.zeros(w.shape)
        drawn_f = np.where(unknown, (w - pos) * st.c_fp, w * flagged_cost)
        drawn_n = np.where(unknown, pos * st.c_fn, w * missed_cost)
        drawn = _shipped_cells(st, 1.0, drawn_f, drawn_n).sum(axis=1)
        if shifted:
            out["drawn_positive"] = np.where(unknown, pos, w * (c.kind == 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out["drawn"] = drawn / total
    return out


# ---------------------------------------------------------------------------------------
# A period's estimate


@dataclass(frozen=True)
class Reading:
    """One reading of a period's scores.

    base_rate   the period's base rate under it (outcomes where known)
    cost        cost per case of the shipped policy; low, high: its 95% interval, covering the
                outcomes still to come
    regret      what the refit would save per case (zero under the calibrated reading); its interval
    refit       {group: cutoff} the refit ships (the shipped cutoffs moved to the base rate)
    refit_share for a policy that flags a random share: the share the refit flags (0: nobody)
    by_group    {group: (cases, share flagged, cost per case)} of the shipped policy
    groups      each group's rates and cost per case with their 95% intervals, the outcomes still to
                come drawn as for `cost` (`watch.groups.group_readings`; the base-rate reading's only)
    """

    base_rate: float
    cost: float
    cost_low: float
    cost_high: float
    regret: float
    regret_low: float
    regret_high: float
    refit: dict
    refit_share: float | None
    by_group: dict
    groups: dict = field(default_factory=dict)

    @property
    def alert(self) -> bool:
        return bool(math.isfinite(self.regret_low) and self.regret_low > 0)


@dataclass(frozen=True)
class Estimate:
    """A period's label-free judgement: both readings, the label-shift test and the alert.

    assumption         HOLDS (the scores fit a change of the base rate), FAILS (they fit no
                       mixture of the fitting rows' classes) or UNTESTED (no reference)
    p_value            the label-shift test's p-value (NaN untested)
    outcomes_to_tell   outcomes of the period's cases without one, drawn at random, that tell the
                       two readings' base rates apart (each named rightly 95% of the time); None
                       when they agree on the base rate
    """

    label_shift: Reading
    calibrated: Reading
    flagged: float
    assumption: str
    p_value: float
    outcomes_to_tell: int | None

    @property
    def alert(self) -> bool:
        return self.assumption == FAILS or self.label_shift.alert

    @property
    def readings_agree(self) -> bool:
        """Whether both readings give one verdict (the calibrated one never asks for a refit)."""
        return not self.label_shift.alert

    @property
    def bracket(self) -> tuple[float, float]:
        """The cost per case of the shipped policy under either reading, intervals included."""
        lows = [r.cost_low for r in (self.label_shift, self.calibrated)]
        highs = [r.cost_high for r in (self.label_shift, self.calibrated)]
        if not all(math.isfinite(x) for x in lows + highs):
            return math.nan, math.nan
        return min(lows), max(highs)


def reference_prior(policy: Mapping) -> tuple[float | None, float]:
    """(base rate, its standard error) that a policy's scores are calibrated to, as the EM reads
    it: the mean score of its fitting rows when the policy records them (then the EM of those rows
    is that very base rate, so that cases like them read as no shift, calibrated or not), else its
    base rate of outcomes; None without either."""
    ref = policy.get("reference")
    if ref:
        return float(ref["mean_score"]), float(ref["score_sd"]) / math.sqrt(max(1, int(ref["rows"])))
    base = policy.get("base_rate")
    if base is None:
        return None, 0.0
    rows = (policy.get("data") or {}).get("n_rows") or 0
    return float(base), math.sqrt(base * (1 - base) / rows) if rows else 0.0


def binomial_tails(k: np.ndarray, n: np.ndarray, p: float) -> tuple[np.ndarray, np.ndarray]:
    """(P(X <= k), P(X > k)) for X binomial of `n` trials at `p`, each whole `k` in [0, n):
    what ``scipy.stats.binom.cdf`` and ``binom.sf`` return there, from the functions they call
    (SciPy's own binomial distribution functions, in ``scipy.special``), without importing
    ``scipy.stats`` (a quarter of a second or more on the first Watch answer of a server);
    from ``scipy.stats.binom`` itself on a SciPy without them.

    >>> [round(float(x), 4) for x in binomial_tails(np.array([1.0]), np.array([3]), 0.5)[0]]
    [0.5]
    """
    try:
        from scipy.special._ufuncs import _binom_cdf, _binom_sf
    except ImportError:  # pragma: no cover - another SciPy: its public distribution, the same numbers
        from scipy.stats import binom

        return binom.cdf(k, n, p), binom.sf(k, n, p)
    return _binom_cdf(k, n, p), _binom_sf(k, n, p)


def outcomes_to_tell(q1: float, q2: float) -> int | None:
    """Outcomes drawn at random that tell a base rate `q1` from `q2`: the fewest for which the
    share of positives among them, cut at the midpoint, names the right one with at most a 5%
    error either way (binomial, exact up to `EXACT_TELL`; the normal approximation starts the
    search, and is the answer beyond). None when the two are equal.

    >>> outcomes_to_tell(0.2, 0.4)
    62
    """
    if not (math.isfinite(q1) and math.isfinite(q2)) or abs(q1 - q2) < 1e-9:
        return None
    low, high = sorted((q1, q2))
    mid = (low + high) / 2
    spread = math.sqrt(low * (1 - low)) + math.sqrt(high * (1 - high))
    guess = max(1, math.ceil((TELL_Z * spread / (high - low)) ** 2))
    if guess > EXACT_TELL:  # more outcomes than a month has: the approximation says enough
        return guess
    m = np.arange(max(1, guess // 2), 3 * guess + 20)
    cut = np.floor(mid * m)  # at most this many positives: the lower base rate
    wrong_high = binomial_tails(cut, m, high)[0]  # the higher one, read as the lower
    wrong_low = binomial_tails(cut, m, low)[1]  # the lower one, read as the higher
    fits = np.flatnonzero((wrong_high <= 0.05) & (wrong_low <= 0.05))
    return int(m[fits[0]]) if fits.size else guess


def estimate_period(
    scores,
    groups,
    labels,
    *,
    costs: Mapping,
    cutoffs: Mapping,
    train_prior: float,
    train_prior_se: float = 0.0,
    reference: Mapping | None = None,
    capacity: float | None = None,
    random_share: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> Estimate:
    """The label-free `Estimate` of one period (the module docstring).

    `scores` are probabilities; `labels` 0/1 with NaN where the outcome is not known yet;
    `costs` and `cutoffs` map each group of `groups` to its prices and shipped cutoff;
    `train_prior` is the base rate the scores are calibrated to (`reference_prior`) and
    `train_prior_se` its standard error (each resample draws it again); `reference` the policy's
    record of its fitting rows (`costlib.watch.reference`), whose classes test the reading;
    `capacity` a share of the period's cases the refit may flag at most."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    g = np.asarray(groups, dtype=object)
    names = sorted(set(g.tolist()), key=str)
    codes = np.searchsorted(np.array(names, dtype=object), g) if len(names) > 1 else np.zeros(s.size, dtype=np.int64)
    cut = np.array([float(cutoffs[n]) for n in names])
    c_fp = np.array([float(costs[n][0]) for n in names])
    c_fn = np.array([float(costs[n][1]) for n in names])
    cells = make_cells(s, codes, y)
    setting = _setting(cells, cut, c_fp, c_fn, capacity, random_share)
    k = len(names)
    pi = np.array([float(train_prior)])
    point = {shifted: _judge(setting, cells.count[None, :], pi, shifted=shifted) for shifted in (True, False)}
    draws = {True: [], False: []}
    saves, counted = [], []
    if n_resamples:
        boot = compress(cells, cut[np.isfinite(cut)])
        boot_setting = _setting(boot, cut, c_fp, c_fn, capacity, random_share)
        rng = np.random.default_rng([int(seed), 31])
        for start in range(0, int(n_resamples), CHUNK):
            b = min(CHUNK, int(n_resamples) - start)
            w = rng.poisson(boot.count, size=(b, boot.count.size)).astype(np.float64)
            pis = np.clip(rng.normal(float(train_prior), float(train_prior_se), size=b), 1e-6, 1 - 1e-6)
            for shifted in (True, False):
                draws[shifted].append(_judge(boot_setting, w, pis, shifted=shifted, rng=rng))
            saves.append(_judged_refits(boot_setting, w, draws[True][-1]))
            counted.append(summed_by_group(w, boot_setting.shipped, draws[True][-1]["drawn_positive"], boot.group, k))
    readings = {}
    for shifted in (True, False):
        pt = point[shifted]
        regret = float(pt["regret"][0])
        if draws[shifted]:
            cost_iv = percentile_interval(np.concatenate([d["drawn"] for d in draws[shifted]]))
        else:
            cost_iv = (math.nan, math.nan)
        regret_iv = (math.nan, math.nan)
        if saves and shifted:
            honest = np.concatenate(saves)
            regret, regret_iv = float(np.mean(honest)), percentile_interval(honest)
        elif saves:
            regret_iv = (0.0, 0.0)
        shift = float(pt["shift"][0])
        refit = {n: moved_cutoff(float(t), shift) for n, t in zip(names, cut, strict=True)}
        share = None if pt["share"] is None else float(pt["share"][0])
        readings[shifted] = Reading(
            float(pt["base_rate"][0]),
            float(pt["shipped"][0]),
            *cost_iv,
            regret,
            *regret_iv,
            refit,
            share,
            _by_group(setting, pt["spent"][0], names),
            _groups(setting, pt["positive"], counted, names, c_fp, c_fn, random_share) if shifted else {},
        )
    if reference is not None and n_resamples:
        from costlib.watch.reference import SHIFT_LEVEL, label_shift_test

        p_value, _ = label_shift_test(reference, s, n_resamples=min(int(n_resamples), 1000), seed=seed)
        assumption = UNTESTED if math.isnan(p_value) else FAILS if p_value < SHIFT_LEVEL else HOLDS
    else:
        p_value, assumption = math.nan, UNTESTED
    tell = outcomes_to_tell(float(point[True]["unknown_rate"][0]), float(point[False]["unknown_rate"][0]))
    flagged = float(np.mean(s >= cut[codes])) if random_share is None else float(random_share)
    return Estimate(readings[True], readings[False], flagged, assumption, float(p_value), tell)


def _judged_refits(st: Setting, w: np.ndarray, draw: dict) -> np.ndarray:
    """(b,) what each resample's refit saves per case when it is judged on another resample (the
    next one, whose weights `w` and probabilities `draw` has): fitted on one draw of the period
    and judged on another, the refit's own noise counts against it, as a measured period's
    cross-fitted refit's does, and the judge's uncertainty is inside the interval. (Judged on the
    draw it was fitted on, a refit from a base rate that has not moved would always look like a
    saving: moving a cutoff towards the moved probabilities' best always does.)"""
    judge_w = np.roll(w, -1, axis=0)
    f_cost, m_cost = np.roll(draw["flagged_cost"], -1, axis=0), np.roll(draw["missed_cost"], -1, axis=0)
    shipped = _shipped_cells(st, judge_w, f_cost, m_cost).sum(axis=1)
    if st.random_share is not None:
        refit = np.where(draw["share"] == 0, np.sum(judge_w * m_cost, axis=1), shipped)
    else:
        refit = np.sum(judge_w * np.where(_moved_flags(st, draw["shift"]), f_cost, m_cost), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (shipped - refit) / judge_w.sum(axis=1)


def _groups(st: Setting, positive: np.ndarray, counted: list, names: list, c_fp, c_fn, random_share) -> dict:
    """`group_readings` of the shipped policy: its counts expected (`positive`, (1, m), each cell's
    expected positives), their intervals from the resamples' drawn counts (`counted`)."""
    point = summed_by_group(st.cells.count[None, :], st.shipped, positive, st.cells.group, len(names))
    point = GroupCounts(*(x[0] for x in (point.tp, point.fp, point.positives, point.negatives)))
    draws = None
    if counted:
        kinds = ("tp", "fp", "positives", "negatives")
        draws = GroupCounts(*(np.concatenate([getattr(c, a) for c in counted]) for a in kinds)).at_random(random_share)
    return group_readings(names, point.at_random(random_share), draws, c_fp, c_fn)


def _by_group(st: Setting, spent: np.ndarray, names: list) -> dict:
    """{group: (cases, share flagged, cost per case)} of the shipped policy from each cell's cost."""
    c = st.cells
    k = len(names)
    n = np.bincount(c.group, weights=c.count, minlength=k)
    cost = np.bincount(c.group, weights=spent, minlength=k)
    if st.random_share is not None:
        flagged = st.random_share * n
    else:
        flagged = np.bincount(c.group, weights=c.count * st.shipped, minlength=k)
    return {
        name: (float(n[i]), float(flagged[i] / n[i]), float(cost[i] / n[i])) for i, name in enumerate(names) if n[i] > 0
    }
