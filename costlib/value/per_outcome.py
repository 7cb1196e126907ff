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
(`refit_spread`, shrunk by `honest.BOOT_SHARE` as each group's cost's bootstrap is). The gain is
against the best of handing every case over, letting the model answer every case and (at these
prices, choices without a model too) answering positive, or negative, for every case; its interval
the smallest of the gains' (as `_cross_fitted_gain`'s), widened when the model is the best of
several on the rows it is judged on (`honest.hold_the_pick`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.folds import CROSS_FOLDS, SPLIT_BUDGET, SPLITS
from costlib.binary.honest import BOOT_SHARE, CROSS_FITTED, Z95, best_prefixes, hold_the_pick, refit_worths, refits_for
from costlib.core import ship as S
from costlib.core import validation as v
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


def _best_threshold(conf: np.ndarray, worth: np.ndarray) -> float:
    """The confidence t maximising the sum of `worth` over the rows with ``conf >= t``; inf (accept
    none) when no threshold gains; ties go to accepting fewer."""
    if conf.size == 0:
        return float("inf")
    order = np.argsort(-conf, kind="stable")
    c, w = conf[order], worth[order]
    last = np.r_[c[1:] != c[:-1], True]  # the last row of each level (descending)
    sums = np.cumsum(w)[last]
    if not sums.size or sums.max() <= 0:
        return float("inf")
    return float(c[last][int(np.argmax(sums))])


def fit_outcome_thresholds(y, p, *, k_tp: float, k_fp: float, k_fn: float, r: float) -> tuple[float, float]:
    """(tau_pos, tau_neg): the confidences from which the model's positive answers (p >= 0.5,
    confidence p) and its negative ones (confidence 1 - p) are worth more than handing them over,
    on these rows. inf: that answer is never accepted.

    >>> y = np.array([1, 1, 0, 1, 0, 0, 0, 1])
    >>> p = np.array([0.95, 0.8, 0.7, 0.6, 0.4, 0.2, 0.05, 0.1])
    >>> fit_outcome_thresholds(y, p, k_tp=1, k_fp=1, k_fn=10, r=0)
    (0.8, 0.95)
    """
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    pos = p >= 0.5
    worth_pos = np.where(y[pos], k_tp - r, -(k_fp + r))
    worth_neg = np.where(y[~pos], -(k_fn + r), 1.0 - r)
    return _best_threshold(p[pos], worth_pos), _best_threshold(1.0 - p[~pos], worth_neg)


def outcome_row_values(y, p, tau_pos: float, tau_neg: float, *, k_tp: float, k_fp: float, k_fn: float, r: float):
    """Each row's worth under the thresholds: a right positive k_tp, a right negative 1, a false
    positive -k_fp, a false negative -k_fn, a case handed over r."""
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    pos = p >= 0.5
    accepted = np.where(pos, p >= tau_pos, 1.0 - p >= tau_neg)
    answered = np.where(pos, np.where(y, k_tp, -k_fp), np.where(y, -k_fn, 1.0))
    return np.where(accepted, answered, r), accepted


def outcome_curves(y, p, tau_pos: float, tau_neg: float, *, k_tp: float, k_fp: float, k_fn: float, r: float):
    """The worth per case on these rows of the per-outcome rule as one answer's threshold moves
    and the other's stays where it is (`tau_pos`, `tau_neg`): for each answer ("positive", its
    confidence p; "negative", 1 - p), its threshold at every distinct confidence of its rows and at
    inf (that answer never accepted), the worth exactly `outcome_row_values`' mean there, by one
    cumulative sum per answer. Columns ``answer, threshold, value`` (right answers per case), each
    answer's thresholds ascending; no rows: no curve.

    >>> y = np.array([1, 1, 0, 1, 0, 0, 0, 1])
    >>> p = np.array([0.95, 0.8, 0.7, 0.6, 0.4, 0.2, 0.05, 0.1])
    >>> c = outcome_curves(y, p, 0.8, 0.95, k_tp=1, k_fp=1, k_fn=10, r=0)
    >>> c[c["answer"] == "positive"].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [['positive', 0.6, 0.375], ['positive', 0.7, 0.25], ['positive', 0.8, 0.375],
     ['positive', 0.95, 0.25], ['positive', inf, 0.125]]
    """
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    n = y.size
    pos = p >= 0.5
    sides = {  # answer: (its rows, their confidence, each row's worth answered over handed over)
        OUTCOME_POSITIVE: (pos, p, np.where(y, k_tp, -k_fp) - r, tau_pos),
        OUTCOME_NEGATIVE: (~pos, 1.0 - p, np.where(y, -k_fn, 1.0) - r, tau_neg),
    }
    held = {a: float(np.sum(w[rows & (conf >= tau)])) for a, (rows, conf, w, tau) in sides.items()}
    frames = []
    for answer, (rows, conf, w, _) in sides.items():
        other = sum(v for a, v in held.items() if a != answer)
        order = np.argsort(-conf[rows], kind="stable")
        c, gain = conf[rows][order], w[rows][order]
        last = np.r_[c[1:] != c[:-1], True] if c.size else np.zeros(0, dtype=bool)  # each level's last row
        thresholds = np.r_[np.inf, c[last]][::-1]
        gains = np.r_[0.0, np.cumsum(gain)[last]][::-1]
        values = r + (gains + other) / n if n else np.full(thresholds.size, np.nan)
        frames.append(pd.DataFrame({"answer": answer, "threshold": thresholds, "value": values}))
    return pd.concat(frames, ignore_index=True) if n else pd.DataFrame(columns=["answer", "threshold", "value"])


def resample_worths(y, p, counts: np.ndarray, *, k_tp: float, k_fp: float, k_fn: float, r: float) -> np.ndarray:
    """Per row of `counts` (how often each row was drawn into a resample), the worth per case on
    all the rows of the two thresholds fitted on that resample (`fit_outcome_thresholds` on the
    rows repeated so often), by the kernel `refit_spread` draws for (`honest.best_prefixes`)."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    y = np.asarray(y, dtype=bool)
    total = np.zeros(counts.shape[0])
    for rows, level, right, right_n, wrong_n, good, bad in _sides(y, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, r=r):
        if not rows.size:
            continue
        order = np.argsort(level, kind="stable")
        starts = np.r_[0, np.flatnonzero(np.diff(level[order])) + 1]
        drawn = counts[:, rows[order]]
        drawn_right = np.add.reduceat(drawn * right[order], starts, axis=1)
        drawn_wrong = np.add.reduceat(drawn * ~right[order], starts, axis=1)
        all_rows = np.r_[0.0, np.cumsum(right_n * good + wrong_n * bad)]
        total += all_rows[best_prefixes(drawn_right, drawn_wrong, good, bad)]
    return r + total / max(y.size, 1)


def refit_spread(y, p, *, k_tp: float, k_fp: float, k_fn: float, r: float, seed: int = 0) -> float:
    """The variance, over Poisson resamples of the rows, of the worth per case on all of them of
    the two thresholds refitted on each resample (`honest.refit_worths`, each answer's rows counted
    by level once; the two answers' rows are drawn apart, as a Poisson resample draws every row
    apart): how much the pair fitted on all rows would move with another draw of the rows, which
    the cross-fitted gain cannot follow (issue 43, `benchmarks/README.md`, "The Value page at
    separate prices"). NaN for fewer than two rows."""
    n = np.asarray(y).size
    if n < 2:
        return float("nan")
    resamples = refits_for(n)
    total = np.zeros(resamples)
    for i, (rows, _, _, right_n, wrong_n, good, bad) in enumerate(_sides(y, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, r=r)):
        if rows.size:
            total += refit_worths(right_n, wrong_n, good, bad, seed=[int(seed), 632, i], resamples=resamples)
    return float(np.var(total / n, ddof=1))


def _sides(y, p, *, k_tp: float, k_fp: float, k_fn: float, r: float):
    """Per answer (positive: p >= 0.5, confidence p; negative: confidence 1 - p), its rows counted
    by level of confidence, highest first: (its rows, each one's level, which are right, right rows
    by level, wrong rows by level, a right row's worth, a wrong one's, each against handing it
    over at r), "right" the label the answer gives (y for a positive answer, not y for a negative)."""
    y = np.asarray(y, dtype=bool)
    p = np.asarray(p, dtype=float)
    pos = p >= 0.5
    out = []
    for side, conf, right, good, bad in (
        (pos, p, y, k_tp - r, -(k_fp + r)),
        (~pos, 1.0 - p, ~y, 1.0 - r, -(k_fn + r)),
    ):
        rows = np.flatnonzero(side)
        levels, level = np.unique(-conf[rows], return_inverse=True)  # highest confidence first
        right_n = np.bincount(level, weights=right[rows], minlength=levels.size)
        wrong_n = np.bincount(level, minlength=levels.size) - right_n
        out.append((rows, level, right[rows], right_n, wrong_n, good, bad))
    return out


def _cross_fitted_rows(y, p, prices: dict, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(each row's worth averaged over the deals, each deal's worth per case, each row's share of
    the deals it was handed over in): every row judged by thresholds fitted on the other parts."""
    n = y.size
    folds = min(CROSS_FOLDS, n)
    # as many deals as `folds.SPLIT_BUDGET` allows (rows x folds x deals), two at least, `SPLITS` at most
    splits = int(np.clip(SPLIT_BUDGET // max(n * folds, 1), 2, SPLITS))
    rng = np.random.default_rng(seed)
    deals, handed = np.zeros((splits, n)), np.zeros(n)
    for d in range(splits):
        part = rng.permutation(np.arange(n) % folds)
        for f in range(folds):
            out = part == f
            t_pos, t_neg = fit_outcome_thresholds(y[~out], p[~out], **prices)
            deals[d, out], accepted = outcome_row_values(y[out], p[out], t_pos, t_neg, **prices)
            handed[out] += ~accepted
    return deals.mean(axis=0), deals.mean(axis=1), handed / splits


def _gain_interval(rule: np.ndarray, bases: dict, deal_means: np.ndarray | None, moves: float = 0.0) -> dict:
    """{baseline: (gain, half width)} per case of the rule's rows against each baseline's rows; the
    variance counts the rows', one deal's (`deal_means`) and `moves` (how far the shipped pair's
    worth moves with the rows, `refit_spread`, cross-fitted only)."""
    n = rule.size
    between = float(np.var(deal_means, ddof=1)) if deal_means is not None and deal_means.size > 1 else 0.0
    between += moves if np.isfinite(moves) else 0.0
    out = {}
    for name, base in bases.items():
        d = rule - base
        rows = float(np.var(d, ddof=1)) / n if n > 1 else float("nan")
        out[name] = (float(d.mean()), Z95 * float(np.sqrt(rows + between)))
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
    a caller that reads only the worth, as `outcome_table`)."""
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    prices = {name: v.as_price(x, name) for name, x in (("k_tp", k_tp), ("k_fp", k_fp), ("k_fn", k_fn))} | {"r": r}
    same = fit_scores is None
    y_judge = np.asarray(y_judge, dtype=bool)
    y_fit = y_judge if same else np.asarray(y_fit, dtype=bool)
    fit_scores = judge_scores if same else fit_scores
    rows = []
    for name, p in judge_scores.items():
        pf = np.asarray(fit_scores[name], dtype=float)
        t_pos, t_neg = fit_outcome_thresholds(y_fit, pf, **prices)
        fit_rows, fit_acc = outcome_row_values(y_fit, pf, t_pos, t_neg, **prices)
        judged, _ = outcome_row_values(y_judge, np.asarray(p, dtype=float), t_pos, t_neg, **prices)
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
    p = np.asarray(judge_scores[name], dtype=float)
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
        rule_rows, deal_means, handed = _cross_fitted_rows(y_judge, p, prices, seed)
        estimate, reject_rate = CROSS_FITTED, float(handed.mean())
        # the pair shipped is fitted on all rows, another pick than the folds': its worth moves with
        # the rows as the refits' does, shrunk as each group's cost's (`honest.BOOT_SHARE`)
        moves = BOOT_SHARE * refit_spread(y_judge, p, **prices, seed=seed) if spread else 0.0
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
    without fitting rows. Columns ``model, value per case, handed over``."""
    out = []
    for name in judge_scores:
        rec = recommend_outcome(
            y_judge,
            {name: judge_scores[name]},
            y_fit=y_fit,
            fit_scores=None if fit_scores is None else {name: fit_scores[name]},
            spread=False,  # the worth and the share handed over only: no interval is read
            **prices,
        )
        out.append({"model": name, "value per case": rec.value, "handed over": rec.reject_rate})
    return pd.DataFrame(out)
