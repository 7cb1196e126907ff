"""The Value page's one answer: which model answers, from which confidence, and what it is
worth per case against the better of handing everything over and answering everything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.capacity import at_random
from costlib.binary.honest import hold_the_pick
from costlib.core import rules as R
from costlib.core import ship as S
from costlib.core import validation as v
from costlib.core.keeping import kept_on
from costlib.core.prices import no_model_choice
from costlib.core.sweep import TIE_TOLERANCE, Sweep, argbest, tie_tolerance
from costlib.stats.bootstrap import cell_bootstrap
from costlib.stats.intervals import percentile_interval
from costlib.value.against_k import formula_threshold
from costlib.value.contract import sweep_value, value_from_counts
from costlib.value.within import best_index_within, rejected_within, value_capacity_curve, value_of_capacity

HAND_OVER = "hand everything over"
ANSWER_ALL = "answer everything"
HAND_AT_RANDOM = "hand over at random"  # under a cap: a share up to it handed over without a model


def k_from_prices(c_fp, c_fn, gain) -> float:
    """k from the price book: the average price of a wrong answer over the worth of a right one.

    The Value page prices every wrong answer alike; ``(c_fp + c_fn) / 2`` is what a wrong
    answer costs when false positives and false negatives are equally common, and `gain` is
    what a right answer earns, in the same unit.

    >>> k_from_prices(1, 3, 1)
    2.0
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    gain = v.as_price(gain, "gain")
    if gain <= 0:
        v.warn_degenerate("a right answer is worth 0: k is infinite, so every answer loses")
        return float("inf")
    return (c_fp + c_fn) / 2.0 / gain


@dataclass(frozen=True, eq=False)
class ValueRecommendation:
    """The Value page's one answer: which model answers, from which confidence, and what it
    is worth per case against the better of handing everything over and answering everything.

    Values are in units of one right answer (multiply by its worth for money). ``status`` is
    one of `costlib.core.ship`'s SAVES, UNCLEAR, WORSE, ADDS_NOTHING, NO_ANSWER.
    """

    model: str
    tau: float
    value: float
    reject_rate: float
    baseline: str
    baseline_value: float
    gain: float
    gain_low: float
    gain_high: float
    status: str
    formula_value: float
    formula_gain_low: float
    formula_gain_high: float
    judged_on: str
    n_judged: float
    models: pd.DataFrame
    capacity: ValueCapacity | None = None  # with a cap on the cases handed over (`recommend_value`'s max_reject)
    # how the gain was read: "test" (picked on train), "cross-fitted" (no split: each fold judged by
    # the threshold picked on the others) or "same rows" (no split and no cross-fit: it flatters)
    estimate: str = "test"
    # how many models (with a value on the fitting rows) the shown one was picked among on the rows
    # it is judged on, whose pick its gain's interval holds (`honest.picked_z`); 1 with a split,
    # where the train rows pick it and the test rows judge it
    picked_among: int = 1
    # the best worth per case of any choice on the judged rows (every threshold of every model within
    # the limit, the choices without a model): below zero, every choice loses money
    best_choice_value: float = float("nan")
    # with a split: the role of the rows the threshold was fitted on, "train", or "validation" for a
    # split of test and validation rows (`Dataset.purpose_rows`; as `decision.Recommendation.fit_role`)
    fit_role: str = "train"
    # the threshold from prices alone, (k + r)/(k + 1) (`against_k.formula_threshold`), that `formula_value` reads
    formula_tau: float = float("nan")

    @property
    def kept(self) -> tuple[str, float] | None:
        """What the verdict keeps when the model's threshold does not ship, with its worth per
        case on the judged rows: (`HAND_OVER`, `ANSWER_ALL` or `HAND_AT_RANDOM`, worth). None when
        the threshold ships or nothing could be valued.

        When the reject option adds nothing, the fitted threshold itself hands every case over
        (tau inf) or accepts every answer, and that is what the verdict says to do, worth
        ``value`` (the baseline's worth when it is the baseline); otherwise it keeps the better
        choice without a threshold, the baseline.

        Under a limit on the hand-overs whose baseline is handing the limit's share over at random,
        a threshold that accepts every answer is itself worth less than that baseline (it is the
        baseline because it beats answering everything), so the verdict keeps the baseline: the
        answer never recommends less than the choice without a model it is judged against."""
        if self.status in (S.SAVES, S.NO_ANSWER):
            return None
        if self.status == S.ADDS_NOTHING and self.baseline != HAND_AT_RANDOM:
            choice = HAND_OVER if self.tau == np.inf else ANSWER_ALL
            # the baseline itself: its worth on the judged rows (``value`` can be the cross-fitted
            # estimate of thresholds the folds picked, or a threshold the judged rows fall below)
            return choice, self.baseline_value if choice == self.baseline else self.value
        return self.baseline, self.baseline_value

    @property
    def kept_value(self) -> float:
        """The worth per case of what the verdict says to do: the kept choice's, or the threshold's
        when it ships."""
        kept = self.kept
        return self.value if kept is None else kept[1]


@dataclass(frozen=True, eq=False)
class ValueCapacity:
    """What a cap on the cases handed to a person changes (`recommend_value` with `max_reject`).

    ``unlimited`` is the answer without the cap (no interval); ``binding`` says whether it hands
    over more than the cap on the fitting rows, where the thresholds are chosen. ``fit_reject_rate``
    and ``unlimited_fit_reject_rate`` are the two thresholds' shares handed over on those rows
    (the capped one's is within the cap there; on the judged rows it can come out a little
    above). ``price`` is `value_of_capacity` on the fitting rows of the recommended model: what
    one more case a month handed over is worth a month, in units of one right answer.
    """

    max_reject: float
    binding: bool
    unlimited: ValueRecommendation
    fit_reject_rate: float
    unlimited_fit_reject_rate: float
    price: float
    # the share the formula threshold (k + r)/(k + 1) hands over on the fitting rows: above `max_reject`, it
    # is not a choice within the limit
    formula_fit_reject_rate: float = float("nan")

    def breaks(self, share: float) -> bool:
        """Whether handing over `share` of the cases (on the fitting rows) is more than the limit."""
        return bool(share > self.max_reject + TIE_TOLERANCE)


def _grouped(sweep: Sweep):
    from costlib.core.sweep import GroupedSweep

    return GroupedSweep(
        ("all",),
        np.array([0, sweep.thresholds.size]),
        sweep.thresholds,
        sweep.tp,
        sweep.fp,
        np.array([sweep.positives]),
        np.array([sweep.negatives]),
    )


def _handed_over(sweep: Sweep) -> Sweep:
    """The value sweep `sweep` turned round: "flagging" is handing an answer over and a wrong
    answer is a positive, so that a cap on the cases handed over is a cap on the cases flagged
    (what the binary cross-fit fits within). Index i hands over the i least confident levels:
    the value sweep's index ``m - i`` (m its last), with thresholds minus the confidences.

    Two right answers at confidence 0.9, one right and one wrong at 0.6:

    >>> value = Sweep(np.array([np.inf, 0.9, 0.6]), np.array([0.0, 2.0, 3.0]), np.array([0.0, 0.0, 1.0]), 3.0, 1.0)
    >>> s = _handed_over(value)
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist(), s.positives, s.negatives
    ([inf, -0.6, -0.9], [0.0, 1.0, 1.0], [0.0, 1.0, 3.0], 1.0, 3.0)
    """
    return Sweep(
        np.concatenate(([np.inf], -sweep.thresholds[:0:-1])),
        sweep.negatives - sweep.fp[::-1],
        sweep.positives - sweep.tp[::-1],
        sweep.negatives,
        sweep.positives,
    )


def _cross_fitted_gain(sweep: Sweep, *, k: float, r: float, baseline: str, seed: int, cap: float | None = None):
    """(gain, low, high) per case of the threshold picked on the same rows as it is judged on,
    cross-fitted as the binary saving is (`binary.folds.repeated_cross_fit`: each fold judged by
    the threshold picked on the others, the mean over deals) with its fold-aware interval
    (`binary.honest.row_se`); None where that cannot be read (a reject value above 1 or below -k,
    weighted counts, a fold without both kinds of answer).

    Accepting an answer is "flagging" it: a wrong one accepted costs k + r against handing it
    over, a right one handed over costs 1 - r against accepting it, so the worth per case of a
    threshold is r + ((1 - r) * right - cost) / n, and its gain over handing everything over
    (flag nobody) or answering everything (flag everyone) is that baseline's cost minus its own.
    Under a `cap` below 1 on the share handed over, handing over is "flagging" (`_handed_over`,
    at prices 1 - r and k + r) and each fold's threshold is fitted within the cap
    (`binary.capacity`), against answering everything (flag nobody) or handing that share over at
    random (`capacity.at_random`). Ties between thresholds of equal worth on a fold's fitting rows
    then go to handing over fewer, where the shipped threshold hands over more.

    The gain is against `baseline`, the better of the two on these rows, i.e. the smaller of the
    two gains; the truth is against the truly better one, and the rows can pick the other (at
    300 answers, 70% right and k = 2, one data set in nine, where the interval of the gain against
    the rows' choice covered the truth 59 to 87% of the time). So the interval is the one of the
    smaller of the two gains: from the smaller of the two gains' lows to the smaller of their
    highs (each the gain +- 1.96 fold-aware standard errors against that baseline). Where one
    choice is clearly the better, its gain is well below the other's and the interval is that
    gain's own; where the two are close it spans both (issue 43, `benchmarks/honest.py
    --value-simulate`: 84 to 89% in those data sets, 93 to 96% over all at 300 answers).
    """
    from costlib.binary import folds as F
    from costlib.binary.honest import Z95, row_se
    from costlib.binary.refit_moves import ADDED, BOOT_SHARE, held_moves
    from costlib.core.prices import Prices, mistakes_cost, no_model_costs

    if r > 1.0 or k + r < 0.0 or sweep.total <= 1 or sweep.positives <= 0 or sweep.negatives <= 0:
        return None
    capped = cap is not None and cap < 1.0 - TIE_TOLERANCE
    turned, gs, index, deals = kept_on(sweep, ("value deals", capped, int(seed)), lambda: _deals(sweep, capped, seed))
    if deals is None:
        return None
    fit = sweep if turned is None else turned
    prices = Prices(("all",), np.array([1.0 - r if capped else k + r]), np.array([k + r if capped else 1.0 - r]))
    cf = F.repeated_cross_fit(gs, fit, index, deals, prices, capacity=cap if capped else None)
    if not cf.fitted:
        return None
    c = cf.single
    n = np.array([float(sweep.total)])
    cost = float(np.sum(mistakes_cost(c["fp"], c["fn"], prices.c_fp, prices.c_fn))) / n[0]
    nobody, everyone = no_model_costs(fit.positives, fit.negatives, prices.c_fp[0], prices.c_fn[0])
    if capped:  # flag nobody: answer everything; flag at random: hand the cap's share over at random
        gains = {R.NOBODY: nobody / n[0] - cost, R.AT_RANDOM: at_random(cap, nobody, everyone) / n[0] - cost}
        rule = R.NOBODY if baseline == ANSWER_ALL else R.AT_RANDOM
    else:
        gains = {R.NOBODY: nobody / n[0] - cost, R.EVERYONE: everyone / n[0] - cost}
        rule = R.NOBODY if baseline == HAND_OVER else R.EVERYONE
    # the threshold shipped is picked on all rows, another pick than the folds': how far its worth moves
    # with the rows (`refit_moves.priced_refits` of the sweep's levels' draws, each resample's pick within the
    # cap, shrunk by `BOOT_SHARE`), added to the rows' variance (`refit_moves.ADDED`)
    worths = _refit_worths(sweep, k=k, r=r, seed=seed, cap=cap if capped else None)
    moves = BOOT_SHARE * float(np.var(worths / n[0], ddof=1))
    half = {b: Z95 * held_moves(row_se(c, b, prices, n, capacity=cap if capped else None), moves, ADDED) for b in gains}
    low = min(g - half[b] for b, g in gains.items())
    high = min(g + half[b] for b, g in gains.items())
    return gains[rule], low, high


def _deals(sweep: Sweep, capped: bool, seed: int) -> tuple:
    """(the sweep turned round under a cap, `_handed_over`, else None: the cross-fit fits on
    `sweep` itself, which is not kept on itself, so that dropping it frees it at once; the fitted
    sweep's `GroupedSweep`, index, and the deals of its rows into folds, `folds.dealt_folds`) for
    `_cross_fitted_gain`, the deals None where the counts are not whole: price-free, kept on
    `sweep` so that a move of k, r or the cap deals nothing again."""
    from costlib.binary import folds as F

    turned = _handed_over(sweep) if capped else None
    fit = sweep if turned is None else turned
    gs = _grouped(fit)
    index = np.arange(fit.thresholds.size)[None, :]
    return turned, gs, index, (F.dealt_folds(gs, fit, index, seed=seed) if F.integer_counts(gs) else None)


def _refit_worths(sweep: Sweep, *, k: float, r: float, seed: int, cap: float | None = None) -> np.ndarray:
    """Per Poisson resample of the sweep's rows, the worth on all of them (a sum over r a case) of
    the threshold the resample picks (`refit_moves.priced_refits`: a right answer accepted is worth 1 - r
    against handing it over, a wrong one -(k + r); levels in the sweep's order, highest confidence
    first), within a `cap` on the share of the resample handed over when given. The resamples are
    drawn once per sweep (`refit_moves.level_draws`, kept on it); a move of k, r or the cap only prices
    them."""
    from costlib.binary.refit_moves import level_draws, priced_refits

    right, wrong = np.diff(sweep.tp), np.diff(sweep.fp)
    draws = kept_on(sweep, ("value refit draws", int(seed)), lambda: level_draws(right, wrong, seed=[int(seed), 632]))
    return priced_refits(draws, right, wrong, 1.0 - r, -(k + r), max_left=cap)


def _picked_among(models: pd.DataFrame) -> int:
    """How many of `models` (`recommend_value`'s table) the best is picked among: those with a
    worth on the fitting rows."""
    return int(np.isfinite(models["fit_value"].to_numpy(dtype=float)).sum())


def recommend_value(
    judge_sweeps: dict,
    *,
    k: float,
    reject_value: float = 0.0,
    fit_sweeps: dict | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    max_reject: float | None = None,
    fit_role: str = "train",
) -> ValueRecommendation:
    """Best model and confidence threshold, fitted on `fit_sweeps` (train) and judged on
    `judge_sweeps` (test), against the better of "hand everything over" (every case gets the
    reject value) and "answer everything" (accept at every confidence); ties: hand over.

    With a split, the 95% interval of the gain is the exact count bootstrap of
    `costlib.stats.bootstrap.cell_bootstrap` over the judged rows (paired with the baseline on the
    same resamples). Without one (the threshold picked on the rows it is judged on) and without a
    cap, the gain is cross-fitted with the binary saving's fold-aware interval (`_cross_fitted_gain`,
    ``estimate="cross-fitted"``): the bootstrap there was 0.010 to 0.048 a case optimistic and
    shipped 3.5% to 4% of models without signal (issue 43; `benchmarks/honest.py --value-simulate`);
    the interval spans the smaller of the gains against the two no-model choices, since the rows
    can pick the one that is not truly the better. Under a cap it is cross-fitted within the cap
    (against answering everything or handing the cap's share over at random: the bootstrap there
    shipped 3.2% to 3.6% of models without signal); where the cross-fit cannot be read, it stays
    the bootstrap (``"same rows"``). Without a split the best model is picked among several on the
    rows it is judged on too, so either interval is widened about the gain to hold that pick
    (`honest.hold_the_pick`; ``picked_among`` models); with a split the test rows did not pick it.

    With `max_reject` (a share in [0, 1]: the cases a month people can take over the cases a
    month), each model's threshold is the best that hands over at most that share of the fitting
    rows (`best_index_within`), the best model is the best within the cap, and handing everything
    over is a baseline only when the cap allows it (a cap of 1). ``capacity`` then holds the
    answer without the cap and the price of capacity (`ValueCapacity`); None without a cap.
    `fit_role` names the split role of the `fit_sweeps` rows (``ValueRecommendation.fit_role``).
    """
    k = v.as_price(k, "k")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    cap = None if max_reject is None else v.as_share(max_reject, "max_reject")
    fit_sweeps = fit_sweeps or judge_sweeps
    rows = []
    for name, sweep in judge_sweeps.items():
        fit = fit_sweeps[name]
        fit_values = sweep_value(fit, k, r)
        j_fit = argbest(fit_values, maximize=True) if cap is None else best_index_within(fit, fit_values, cap)
        tau = float(fit.thresholds[j_fit]) if j_fit >= 0 else float("nan")
        rows.append(
            {
                "model": name,
                "tau": tau,
                "fit_value": float(sweep_value(fit, k, r)[j_fit]) if j_fit >= 0 else float("nan"),
                "value": float(sweep_value(sweep, k, r)[sweep.index_at(tau)])
                if np.isfinite(tau) or tau == np.inf
                else float("nan"),
                "fit_j": j_fit,
                "fit_last": fit.thresholds.size - 1,
            }
        )
    models = pd.DataFrame(rows)
    best = models.loc[models["fit_value"].idxmax()] if models["fit_value"].notna().any() else models.iloc[0]
    name = str(best["model"])
    sweep = judge_sweeps[name]
    tau = float(best["tau"])
    values = sweep_value(sweep, k, r)
    hand_over = float(r)
    answer_all = float(values[-1])
    # value is negative cost: the no-model choice between handing over (flag nobody) and answering all;
    # under a cap that does not allow handing everything over, between answering all and handing a
    # share up to the cap at random (`capacity.at_random`: worth cap * r + (1 - cap) * answering all; a
    # model without signal does no better, so it is what the model must beat)
    can_hand_all = cap is None or cap >= 1.0 - TIE_TOLERANCE
    if can_hand_all:
        answers = no_model_choice(-hand_over, -answer_all) == R.EVERYONE
        baseline, base_value = (ANSWER_ALL, answer_all) if answers else (HAND_OVER, hand_over)
    else:
        random_worth = at_random(cap, answer_all, hand_over)
        baseline, base_value = (HAND_AT_RANDOM, random_worth) if random_worth > answer_all else (ANSWER_ALL, answer_all)
    value = float(values[sweep.index_at(tau)])
    tau_star = formula_threshold(k, r)  # counts a case handed over at r, as the fitted threshold does
    cutoffs = {
        "chosen": np.array([tau]),
        "formula": np.array([tau_star]),
        HAND_OVER: np.array([np.inf]),
        ANSWER_ALL: np.array([-np.inf]),
    }
    lo = hi = f_lo = f_hi = float("nan")
    if n_resamples and sweep.total > 0:
        res = cell_bootstrap(_grouped(sweep), cutoffs, n_resamples=n_resamples, seed=seed)
        n = sweep.total
        per_rule = value_from_counts(res.tp[:, :, 0], res.fp[:, :, 0], n, k, r)
        if baseline == HAND_AT_RANDOM:
            base = at_random(cap, per_rule[:, list(cutoffs).index(ANSWER_ALL)], r)
        else:
            base = per_rule[:, list(cutoffs).index(baseline)]
        lo, hi = percentile_interval(per_rule[:, 0] - base)
        f_lo, f_hi = percentile_interval(per_rule[:, 1] - per_rule[:, 0])
    gain = value - base_value
    estimate = "test" if fit_sweeps is not judge_sweeps else "same rows"
    if n_resamples and fit_sweeps is judge_sweeps and np.isfinite(value):
        # picked and judged on the same rows: the cross-fitted gain and its fold-aware interval
        honest = _cross_fitted_gain(sweep, k=k, r=r, baseline=baseline, seed=seed, cap=cap)
        if honest is not None:
            gain, lo, hi = honest
            value = base_value + gain
            estimate = "cross-fitted"
    # the best of several models picked on the rows it is judged on: its interval holds that pick too,
    # as Costs & groups' cheapest model's does (without signal the best of 3 to 10 models read alone
    # shipped 0.7 to 2.2% of data sets, of 20 and 40, 4.5 and 8.8%; widened, at most 0.2%:
    # `benchmarks/README.md`, "The cheapest of several models")
    picked_among = _picked_among(models) if fit_sweeps is judge_sweeps else 1
    lo, hi = hold_the_pick(gain, lo, hi, picked_among)
    j = int(best["fit_j"])
    if not np.isfinite(value):
        status = S.NO_ANSWER
    elif j == 0 or j == int(best["fit_last"]):
        status = S.ADDS_NOTHING
    else:  # the ship rule: a gain without an interval (no resamples) is not one to ship
        status = S.saving_status(gain, lo, hi, tolerance=tie_tolerance(base_value))
    accepted = sweep.flagged[sweep.index_at(tau)] if np.isfinite(value) else np.nan
    capacity = None
    if cap is not None:
        unlimited = recommend_value(
            judge_sweeps, k=k, reject_value=r, fit_sweeps=fit_sweeps, n_resamples=0, fit_role=fit_role
        )
        fit, fit_u = fit_sweeps[name], fit_sweeps[unlimited.model]

        def fit_share(s: Sweep, t: float) -> float:
            return float(1.0 - s.flagged[s.index_at(t)] / s.total) if s.total > 0 and not np.isnan(t) else np.nan

        unlimited_share = fit_share(fit_u, unlimited.tau)
        capacity = ValueCapacity(
            max_reject=cap,
            binding=bool(unlimited_share > cap + TIE_TOLERANCE),
            unlimited=unlimited,
            fit_reject_rate=fit_share(fit, tau),
            unlimited_fit_reject_rate=unlimited_share,
            price=value_of_capacity(value_capacity_curve(fit, k=k, reject_value=r), cap),
            formula_fit_reject_rate=fit_share(fit, tau_star),
        )
    choices = [base_value]  # every threshold of every model within the limit, and the no-model choice
    for judged in judge_sweeps.values():
        worth = sweep_value(judged, k, r)
        choices.extend(worth[np.ones(worth.shape, dtype=bool) if cap is None else rejected_within(judged, cap)])
    best_choice = float(np.nanmax(choices)) if np.isfinite(choices).any() else float("nan")
    return ValueRecommendation(
        model=name,
        tau=tau,
        value=value,
        reject_rate=float(1 - accepted / sweep.total) if sweep.total else np.nan,
        baseline=baseline,
        baseline_value=base_value,
        gain=gain,
        gain_low=lo,
        gain_high=hi,
        status=status,
        formula_value=float(values[sweep.index_at(tau_star)]),
        formula_tau=float(tau_star),
        formula_gain_low=f_lo,
        formula_gain_high=f_hi,
        judged_on="test" if fit_sweeps is not judge_sweeps else "all",
        n_judged=float(sweep.total),
        models=models[["model", "tau", "fit_value", "value"]],
        capacity=capacity,
        estimate=estimate,
        picked_among=picked_among,
        best_choice_value=best_choice,
        fit_role=str(fit_role),
    )
