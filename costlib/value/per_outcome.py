"""The Value page's answer at separate prices of a false positive and a false negative
(`recommend_outcome`): the model's answer (positive when p >= 0.5) is accepted when its
confidence clears a threshold of its own for each answer, both thresholds fitted to the prices.

A right answer is worth 1 (a right positive `k_tp`), a false positive costs `k_fp`, a false
negative `k_fn`, a case handed over is worth `r`: the units of `recommend_value`. The two
answers' thresholds do not interact (a positive answer's cases are never a negative's), so each is
the best of its own sweep (`fit_outcome_thresholds`).

Honest as `recommend_value`'s gain: with a split the thresholds are fitted on the fitting rows
and judged on the judged rows, the interval the judged rows' own (the rule is fixed there); without
one, each row is judged by thresholds fitted on the other parts of the rows (`folds.CROSS_FOLDS`
parts, averaged over up to `folds.SPLITS` deals), its interval counting the rows' noise, one deal's
(as `honest.row_se`) and how far the pair shipped, fitted on all rows, moves with the rows
(`refit_spread`, shrunk by `refit_moves.BOOT_SHARE` as each group's cost's bootstrap is). The gain is
against the best of handing every case over, letting the model answer every case and (at these
prices, choices without a model too) answering positive, or negative, for every case; its interval
the smallest of the gains' (as `_cross_fitted_gain`'s), widened when the model is the best of
several on the rows it is judged on (`honest.hold_the_pick`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.folds import CROSS_FOLDS, SPLIT_BUDGET, SPLITS
from costlib.binary.honest import CROSS_FITTED, Z95, hold_the_pick
from costlib.binary.refit_moves import (
    ADDED,
    BOOT_SHARE,
    best_prefixes,
    held_moves,
    level_draws,
    priced_refits,
    refits_for,
)
from costlib.core import ship as S
from costlib.core import validation as v
from costlib.core.keeping import kept_on
from costlib.core.sweep import tie_tolerance
from costlib.value.recommendation import ANSWER_ALL, HAND_OVER, ValueRecommendation

MIN_ROWS = 20  # judged rows the per-outcome answer needs (fewer: no answer)
# choices without a model at separate prices: one answer for every case (with one mistake much dearer
# than the other, answering only the cheaper answer can beat both handing over and the model's answers)
ALL_POSITIVE = "answer positive for every case"
ALL_NEGATIVE = "answer negative for every case"
OUTCOME_POSITIVE, OUTCOME_NEGATIVE = "positive", "negative"  # the answers of `outcome_curves`


@dataclass(frozen=True, eq=False)
class OutcomeRecommendation(ValueRecommendation):
    """`ValueRecommendation` at separate prices: ``tau_pos`` and ``tau_neg`` are the confidences
    from which a positive and a negative answer are accepted (inf: never accepted); ``tau`` is
    inf when both are (every case handed over), else the lower of the two. ``k_fp`` and ``k_fn``
    are the prices in units of a right answer; ``fit_reject_rate`` is the share handed over on the
    fitting rows."""

    tau_pos: float = float("inf")
    tau_neg: float = float("inf")
    k_fp: float = float("nan")
    k_fn: float = float("nan")
    fit_reject_rate: float = float("nan")


@dataclass(frozen=True, eq=False)
class OutcomeSide:
    """One answer's rows (positive: p >= 0.5, confidence p; negative: confidence 1 - p) counted by
    level of confidence once: its rows' positions, each one's level (0 the most confident), which
    of them the answer gets right ("right" is the label it gives: y for a positive answer, not y
    for a negative one), the levels' confidences (descending) and the right and wrong rows by level."""

    rows: np.ndarray
    level: np.ndarray
    right: np.ndarray
    conf: np.ndarray
    right_n: np.ndarray
    wrong_n: np.ndarray


@dataclass(frozen=True, eq=False)
class OutcomeSweep:
    """One model's rows for the per-outcome answer, sorted once (`outcome_sweep`): the labels, the
    scores and the two answers' `OutcomeSide`s (positive, negative). Prices only reweight it: the
    fit (`fit_thresholds`), the chart (`outcome_curves`), the cross-fit's deals and the refit
    spread's resamples (made once and kept on it, `core.keeping.kept_on`) sort and draw nothing
    again at a price move."""

    y: np.ndarray
    p: np.ndarray
    sides: tuple


def outcome_sweep(y, p) -> OutcomeSweep:
    """The `OutcomeSweep` of labels `y` and scores `p` (each row's answer positive when p >= 0.5)."""
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    pos = p >= 0.5
    sides = []
    for side, conf, right in ((pos, p, y), (~pos, 1.0 - p, ~y)):
        rows = np.flatnonzero(side)
        levels, level = np.unique(-conf[rows], return_inverse=True)  # highest confidence first
        right_n = np.bincount(level, weights=right[rows], minlength=levels.size)
        wrong_n = np.bincount(level, minlength=levels.size) - right_n
        sides.append(OutcomeSide(rows, level, right[rows], -levels, right_n, wrong_n))
    return OutcomeSweep(y, p, tuple(sides))


def _worths(k_tp: float, k_fp: float, k_fn: float, r: float) -> tuple:
    """Per answer (positive, negative), what a right row and a wrong one are worth accepted,
    against handing it over at r."""
    return (k_tp - r, -(k_fp + r)), (1.0 - r, -(k_fn + r))


def fit_thresholds(sw: OutcomeSweep, **prices) -> tuple[float, float]:
    """`fit_outcome_thresholds` on `sw`'s rows: per answer the prefix of levels worth most
    (`refit_moves.best_prefixes`, none when none gains, ties to accepting fewer), read as its last
    level's confidence (inf: none)."""
    out = []
    for side, (good, bad) in zip(sw.sides, _worths(**prices), strict=True):
        j = int(best_prefixes(side.right_n[None, :], side.wrong_n[None, :], good, bad)[0]) if side.conf.size else 0
        out.append(float(side.conf[j - 1]) if j else float("inf"))
    return out[0], out[1]


def fit_outcome_thresholds(y, p, *, k_tp: float, k_fp: float, k_fn: float, r: float) -> tuple[float, float]:
    """(tau_pos, tau_neg): the confidences from which the model's positive answers (p >= 0.5,
    confidence p) and its negative ones (confidence 1 - p) are worth more than handing them over,
    on these rows. inf: that answer is never accepted; ties go to accepting fewer.

    >>> y = np.array([1, 1, 0, 1, 0, 0, 0, 1])
    >>> p = np.array([0.95, 0.8, 0.7, 0.6, 0.4, 0.2, 0.05, 0.1])
    >>> fit_outcome_thresholds(y, p, k_tp=1, k_fp=1, k_fn=10, r=0)
    (0.8, 0.95)
    """
    return fit_thresholds(outcome_sweep(y, p), k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, r=r)


def outcome_row_values(y, p, tau_pos: float, tau_neg: float, *, k_tp: float, k_fp: float, k_fn: float, r: float):
    """Each row's worth under the thresholds: a right positive k_tp, a right negative 1, a false
    positive -k_fp, a false negative -k_fn, a case handed over r."""
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    accepted = np.where(p >= 0.5, p >= tau_pos, 1.0 - p >= tau_neg)
    return np.where(accepted, _answered(y, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn), r), accepted


def _answered(y: np.ndarray, p: np.ndarray, *, k_tp: float, k_fp: float, k_fn: float, **_) -> np.ndarray:
    """Each row's worth when its answer (positive when p >= 0.5) is accepted: a right positive
    k_tp, a right negative 1, a false positive -k_fp, a false negative -k_fn."""
    return np.where(p >= 0.5, np.where(y, k_tp, -k_fp), np.where(y, -k_fn, 1.0))


def outcome_curves(y, p, tau_pos: float, tau_neg: float, *, k_tp: float, k_fp: float, k_fn: float, r: float):
    """The worth per case on these rows of the per-outcome rule as one answer's threshold moves
    and the other's stays where it is (`tau_pos`, `tau_neg`): for each answer ("positive", its
    confidence p; "negative", 1 - p), its threshold at every distinct confidence of its rows and at
    inf (that answer never accepted), the worth exactly `outcome_row_values`' mean there, by one
    cumulative sum per answer (`sweep_curves` of `outcome_sweep`). Columns ``answer, threshold,
    value`` (right answers per case), each answer's thresholds ascending; no rows: no curve.

    >>> y = np.array([1, 1, 0, 1, 0, 0, 0, 1])
    >>> p = np.array([0.95, 0.8, 0.7, 0.6, 0.4, 0.2, 0.05, 0.1])
    >>> c = outcome_curves(y, p, 0.8, 0.95, k_tp=1, k_fp=1, k_fn=10, r=0)
    >>> c[c["answer"] == "positive"].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [['positive', 0.6, 0.375], ['positive', 0.7, 0.25], ['positive', 0.8, 0.375],
     ['positive', 0.95, 0.25], ['positive', inf, 0.125]]
    """
    return sweep_curves(outcome_sweep(y, p), tau_pos, tau_neg, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, r=r)


def sweep_curves(sw: OutcomeSweep, tau_pos: float, tau_neg: float, **prices) -> pd.DataFrame:
    """`outcome_curves` on `sw`'s rows, from its levels' sums: no sort at a price move."""
    n, r = sw.y.size, prices["r"]
    if not n:
        return pd.DataFrame(columns=["answer", "threshold", "value"])
    worths = zip(sw.sides, _worths(**prices), strict=True)
    gains = [side.right_n * good + side.wrong_n * bad for side, (good, bad) in worths]
    held = [float(np.sum(g[s.conf >= tau])) for s, g, tau in zip(sw.sides, gains, (tau_pos, tau_neg), strict=True)]
    answers = (OUTCOME_POSITIVE, OUTCOME_NEGATIVE)
    thresholds = [np.r_[np.inf, side.conf][::-1] for side in sw.sides]
    values = [r + (np.r_[0.0, np.cumsum(g)][::-1] + held[1 - i]) / n for i, g in enumerate(gains)]
    codes = np.repeat([0, 1], [t.size for t in thresholds])  # a category, not text: a chart filters 2 million fast
    return pd.DataFrame(
        {
            "answer": pd.Categorical.from_codes(codes, categories=answers),
            "threshold": np.concatenate(thresholds),
            "value": np.concatenate(values),
        }
    )


def refit_spread(sw: OutcomeSweep, *, k_tp: float, k_fp: float, k_fn: float, r: float, seed: int = 0) -> float:
    """The variance, over Poisson resamples of the rows, of the worth per case on all of them of
    the two thresholds refitted on each resample (`refit_moves.priced_refits` of each answer's
    `refit_moves.level_draws`, drawn once per sweep and kept on it; the two answers' rows are drawn
    apart, as a Poisson resample draws every row apart): how much the pair fitted on all rows would
    move with another draw of the rows, which the cross-fitted gain cannot follow (issue 43,
    `benchmarks/README.md`, "The Value page at separate prices"). NaN for fewer than two rows."""
    n = sw.y.size
    if n < 2:
        return float("nan")
    resamples = refits_for(n)
    draws = kept_on(
        sw,
        ("outcome refit draws", int(seed)),
        lambda: tuple(
            level_draws(side.right_n, side.wrong_n, seed=[int(seed), 632, i], resamples=resamples)
            for i, side in enumerate(sw.sides)
        ),
    )
    total = np.zeros(resamples)
    for side, drawn, (good, bad) in zip(sw.sides, draws, _worths(k_tp, k_fp, k_fn, r), strict=True):
        if side.rows.size:
            total += priced_refits(drawn, side.right_n, side.wrong_n, good, bad)
    return float(np.var(total / n, ddof=1))


def _deals(n: int, seed: int) -> np.ndarray:
    """The cross-fit's deals of `n` rows into folds (deals x rows, each row's fold): as many deals
    as `folds.SPLIT_BUDGET` allows (rows x folds x deals), two at least, `SPLITS` at most."""
    folds = min(CROSS_FOLDS, n)
    splits = int(np.clip(SPLIT_BUDGET // max(n * folds, 1), 2, SPLITS))
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(np.arange(n) % folds) for _ in range(splits)]).astype(np.int8)


def _cross_fitted_rows(sw: OutcomeSweep, prices: dict, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(each row's worth averaged over the deals, each deal's worth per case, each row's share of
    the deals it was handed over in): every row judged by thresholds fitted on the other parts.
    The deals are made once per sweep (kept on it); a fold's fitting rows are its answer's level
    counts less the fold's own (one count per deal, no sort), its threshold their best prefix
    (`refit_moves.best_prefixes`, as `fit_thresholds`)."""
    n = sw.y.size
    parts = kept_on(sw, ("outcome deals", int(seed)), lambda: _deals(n, seed))
    folds = min(CROSS_FOLDS, n)
    r = prices["r"]
    answered = _answered(sw.y, sw.p, **prices)
    deals, handed = np.zeros((parts.shape[0], n)), np.zeros(n)
    for d, part in enumerate(parts):
        accepted = np.zeros(n, dtype=bool)
        for side, (good, bad) in zip(sw.sides, _worths(**prices), strict=True):
            size = side.conf.size
            if not size:
                continue
            fold = part[side.rows].astype(np.intp)
            cell = fold * size + side.level  # each row's fold and level
            held = np.bincount(cell, minlength=folds * size).reshape(folds, size)
            held_right = np.bincount(cell, weights=side.right, minlength=folds * size).reshape(folds, size)
            # each fold's threshold: the best prefix of levels on the other folds' rows
            prefix = best_prefixes(side.right_n - held_right, side.wrong_n - (held - held_right), good, bad)
            accepted[side.rows] = side.level < prefix[fold]
        deals[d] = np.where(accepted, answered, r)
        handed += ~accepted
    return deals.mean(axis=0), deals.mean(axis=1), handed / parts.shape[0]


def _gain_interval(rule: np.ndarray, bases: dict, deal_means: np.ndarray | None, moves: float = 0.0) -> dict:
    """{baseline: (gain, half width)} per case of the rule's rows against each baseline's rows; the
    variance counts the rows', one deal's (`deal_means`) and `moves` (how far the shipped pair's
    worth moves with the rows, `refit_spread`, cross-fitted only; `refit_moves.ADDED`)."""
    n = rule.size
    between = float(np.var(deal_means, ddof=1)) if deal_means is not None and deal_means.size > 1 else 0.0
    out = {}
    for name, base in bases.items():
        d = rule - base
        rows = float(np.var(d, ddof=1)) / n if n > 1 else float("nan")
        out[name] = (float(d.mean()), Z95 * held_moves(math.sqrt(rows + between), moves, ADDED))
    return out


def recommend_outcome(
    y_judge,
    judge_scores: dict,
    *,
    k_fp: float,
    k_fn: float,
    k_tp: float = 1.0,
    reject_value: float = 0.0,
    y_fit=None,
    fit_scores: dict | None = None,
    seed: int = 0,
    fit_role: str = "train",
    spread: bool = True,
) -> OutcomeRecommendation:
    """The Value page's one answer at separate prices (module docstring): the best model on the
    fitting rows (`y_fit`, `fit_scores`; None: the judged rows themselves, then cross-fitted), its
    two thresholds fitted there, its worth and gain per case on the judged rows with their 95%
    interval and the ship rule's status (`spread` False: the interval leaves out `refit_spread`, for
    a caller that reads only the worth, as `outcome_table`). Each model's rows are sorted here
    (`outcome_sweep`); a caller that prices them again keeps the sweeps and calls `recommend_sweeps`."""
    y_judge = np.asarray(y_judge, dtype=bool)
    judge = {name: outcome_sweep(y_judge, p) for name, p in judge_scores.items()}
    fit = None if fit_scores is None else {name: outcome_sweep(y_fit, fit_scores[name]) for name in judge_scores}
    return recommend_sweeps(
        judge,
        fit,
        k_fp=k_fp,
        k_fn=k_fn,
        k_tp=k_tp,
        reject_value=reject_value,
        seed=seed,
        fit_role=fit_role,
        spread=spread,
    )


def recommend_sweeps(
    judge: dict,
    fit: dict | None = None,
    *,
    k_fp: float,
    k_fn: float,
    k_tp: float = 1.0,
    reject_value: float = 0.0,
    seed: int = 0,
    fit_role: str = "train",
    spread: bool = True,
) -> OutcomeRecommendation:
    """`recommend_outcome` on each model's `OutcomeSweep` of the judged rows (`judge`) and of the
    fitting rows (`fit`; None: the judged rows, then cross-fitted): a price move sorts, deals and
    draws nothing again."""
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    prices = {name: v.as_price(x, name) for name, x in (("k_tp", k_tp), ("k_fp", k_fp), ("k_fn", k_fn))} | {"r": r}
    same = fit is None
    fit = judge if same else fit
    first = next(iter(judge.values()))
    y_judge, y_fit = first.y, next(iter(fit.values())).y
    rows = []
    for name, sw in judge.items():
        pf = fit[name].p
        t_pos, t_neg = fit_thresholds(fit[name], **prices)
        fit_rows, fit_acc = outcome_row_values(y_fit, pf, t_pos, t_neg, **prices)
        judged, _ = outcome_row_values(y_judge, sw.p, t_pos, t_neg, **prices)
        rows.append(
            {
                "model": name,
                "tau": min(t_pos, t_neg),
                "tau_pos": t_pos,
                "tau_neg": t_neg,
                "fit_value": float(fit_rows.mean()) if fit_rows.size else float("nan"),
                "value": float(judged.mean()) if judged.size else float("nan"),
                "fit_handed": float(1.0 - fit_acc.mean()) if fit_acc.size else float("nan"),
            }
        )
    models = pd.DataFrame(rows)
    best = models.loc[models["fit_value"].idxmax()] if models["fit_value"].notna().any() else models.iloc[0]
    name = str(best["model"])
    p = judge[name].p
    n = y_judge.size
    t_pos, t_neg = float(best["tau_pos"]), float(best["tau_neg"])
    bases = {  # each choice without the model's thresholds, row by row; ties go to the first
        HAND_OVER: np.full(n, r),
        ANSWER_ALL: outcome_row_values(y_judge, p, -np.inf, -np.inf, **prices)[0],  # the model answers every case
        ALL_POSITIVE: np.where(y_judge, prices["k_tp"], -prices["k_fp"]),
        ALL_NEGATIVE: np.where(y_judge, -prices["k_fn"], 1.0),
    }
    worths = {b: float(rows.mean()) if n else float("nan") for b, rows in bases.items()}
    baseline = max(worths, key=lambda b: (worths[b], -list(worths).index(b))) if n else HAND_OVER
    base_value = worths[baseline]
    deal_means, moves = None, 0.0
    if same and n >= MIN_ROWS:
        rule_rows, deal_means, handed = _cross_fitted_rows(judge[name], prices, seed)
        estimate, reject_rate = CROSS_FITTED, float(handed.mean())
        # the pair shipped is fitted on all rows, another pick than the folds': its worth moves with
        # the rows as the refits' does, shrunk as each group's cost's (`refit_moves.BOOT_SHARE`)
        moves = BOOT_SHARE * refit_spread(judge[name], **prices, seed=seed) if spread else 0.0
    else:
        rule_rows, accepted = outcome_row_values(y_judge, p, t_pos, t_neg, **prices)
        estimate, reject_rate = ("same rows" if same else "test"), float(1.0 - accepted.mean()) if n else np.nan
    value = float(rule_rows.mean()) if n else float("nan")
    gains = _gain_interval(rule_rows, bases, deal_means, moves) if n else {}
    gain = value - base_value
    lo = min((g - h for g, h in gains.values()), default=float("nan"))
    hi = min((g + h for g, h in gains.values()), default=float("nan"))
    picked_among = int(models["fit_value"].notna().sum()) if same else 1
    lo, hi = hold_the_pick(gain, lo, hi, picked_among)
    fit_handed = float(best["fit_handed"])
    if not np.isfinite(value) or n < MIN_ROWS:
        status = S.NO_ANSWER
    elif fit_handed <= 0.0 or fit_handed >= 1.0:  # no threshold: the rule is itself a choice without one
        status = S.ADDS_NOTHING
    else:
        status = S.saving_status(gain, lo, hi, tolerance=tie_tolerance(base_value))
    tau = np.inf if fit_handed >= 1.0 else (-np.inf if fit_handed <= 0.0 else min(t_pos, t_neg))
    return OutcomeRecommendation(
        model=name,
        tau=float(tau),
        value=value,
        reject_rate=reject_rate,
        baseline=baseline,
        baseline_value=base_value,
        gain=gain,
        gain_low=lo,
        gain_high=hi,
        status=status,
        formula_value=float("nan"),
        formula_gain_low=float("nan"),
        formula_gain_high=float("nan"),
        judged_on="all" if same else "test",
        n_judged=float(n),
        models=models[["model", "tau", "fit_value", "value"]],
        estimate=estimate,
        picked_among=picked_among,
        best_choice_value=float("nan"),
        fit_role=str(fit_role),
        tau_pos=t_pos,
        tau_neg=t_neg,
        k_fp=float(k_fp),
        k_fn=float(k_fn),
        fit_reject_rate=fit_handed,
    )


def outcome_table(y_judge, judge_scores: dict, *, y_fit=None, fit_scores=None, **prices) -> pd.DataFrame:
    """Per model, the per-outcome rule with its thresholds fitted (`recommend_outcome` for that
    model alone): its worth per case and share handed over on the judged rows, cross-fitted
    without fitting rows. Columns ``model, value per case, handed over``. Each model's rows are
    sorted here; a caller that keeps them calls `sweeps_table`."""
    y_judge = np.asarray(y_judge, dtype=bool)
    judge = {name: outcome_sweep(y_judge, p) for name, p in judge_scores.items()}
    fit = None if fit_scores is None else {name: outcome_sweep(y_fit, fit_scores[name]) for name in judge_scores}
    return sweeps_table(judge, fit, **prices)


def sweeps_table(judge: dict, fit: dict | None = None, **prices) -> pd.DataFrame:
    """`outcome_table` on each model's kept `OutcomeSweep`s (`recommend_sweeps` for one model at a
    time, its interval not read): a price move sorts and deals nothing again."""
    out = []
    for name, sw in judge.items():
        rec = recommend_sweeps(
            {name: sw},
            None if fit is None else {name: fit[name]},
            spread=False,  # the worth and the share handed over only: no interval is read
            **prices,
        )
        out.append({"model": name, "value per case": rec.value, "handed over": rec.reject_rate})
    return pd.DataFrame(out)
