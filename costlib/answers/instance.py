"""The answer of the Instance costs page."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core.dataset import Dataset
from costlib.instance import NecSweeps, delta_source_words, nec_curve, recommend_nec
from costlib.present import figures, page_answers, words
from costlib.present.plotting import mark_x


@dataclass(frozen=True, eq=False)
class InstanceAnswer:
    """What the Instance costs page shows for one dataset (the cutoff slider aside)."""

    rec: object  # instance.NecRecommendation
    verdict: words.Verdict
    sentence: str  # where delta comes from, and how many judged cases are positive
    curves: pd.DataFrame  # threshold, NEC, model: NEC against the cutoff, every model
    delta: np.ndarray  # the judged rows' delta
    groups: np.ndarray | None  # the judged rows' groups
    necs: NecSweeps  # every model's sweeps, by group: a cutoff move reads these
    cutoff_range: tuple[float, float, float]  # (low, high, start) of the cutoff to explore

    def figure(self):
        """NEC against the cutoff, the recommendation marked (`instance_figure`)."""
        return instance_figure(self)

    def delta_figure(self):
        """The histogram of the judged cases' delta, by group: drawn on request."""
        return figures.delta_histogram(self.delta, groups=self.groups)

    def at_cutoff(self, threshold: float):
        """(figure, table overall, table by group) at another cutoff (`instance_cutoff`)."""
        return instance_cutoff(self, threshold)


def instance_answer(ds: Dataset) -> InstanceAnswer:
    """The recommended cutoff by NEC, the NEC curves and the sweeps to explore other cutoffs."""
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    delta = ds.delta[judge]
    groups = None if ds.groups is None else ds.groups[judge]
    rec = recommend_nec(ds.scores, ds.delta, fit=fit, judge=judge)
    sentence = (
        f"δ comes from {delta_source_words(ds.mapping)}. Positive (δ > 0) for "
        f"{int((delta > 0).sum()):,} of {len(delta):,} judged cases."
    )
    judged = {m: s[judge] for m, s in ds.scores.items()}
    curves = []
    for m, s in judged.items():
        thresholds, nec = nec_curve(s, delta)
        curves.append(pd.DataFrame({"threshold": thresholds, "NEC": nec, "model": m}))
    lo = min(float(s.min()) for s in judged.values())
    hi = max(float(s.max()) for s in judged.values())
    start = float(np.clip(rec.threshold, lo, hi)) if np.isfinite(rec.threshold) else (lo + hi) / 2
    low_end = min(lo, 0.0) if ds.probabilities else lo
    high_end = max(hi, 1.0) if ds.probabilities else hi
    # the slider starts at the recommended cutoff, rounded down to its step (0.0001) so that every
    # case the answer flags (score >= cutoff) is flagged there too and the table matches it
    return InstanceAnswer(
        rec=rec,
        verdict=page_answers.nec_verdict(rec),
        sentence=sentence,
        curves=pd.concat(curves, ignore_index=True),
        delta=delta,
        groups=groups,
        necs=NecSweeps.of(judged, delta, groups=groups),
        cutoff_range=(low_end, high_end, max(math.floor(start * 1e4) / 1e4, low_end)),
    )


def instance_figure(answer: InstanceAnswer):
    """NEC against the cutoff, the recommendation marked."""
    rec = answer.rec
    fig = figures.line_figure(
        answer.curves,
        x="threshold",
        y="NEC",
        color="model",
        title="NEC against the cutoff (test rows)",
        x_title="cutoff (flag a case when its score is at least this)",
        y_title="NEC",
        baseline=rec.baseline_nec,
        baseline_label=f"{rec.baseline} (no model): {rec.baseline_nec:.3f}",
    )
    return mark_x(fig, rec.threshold, text=f"recommended: {rec.threshold:.4g}")


def instance_cutoff(answer: InstanceAnswer, threshold: float):
    """(figure, table overall, table by group): every model's NEC and error rate at `threshold`."""
    overall, by_group = answer.necs.table(threshold)
    fig = figures.nec_error_figure(
        overall.assign(label=overall["option"]), title=f"NEC beside the error rate at the cutoff {threshold:.4g}"
    )
    return fig, overall, by_group
