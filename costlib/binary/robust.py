"""Robust means the whole verdict: the same cutoff *and* the same ship / do-not-ship answer.

A range of price ratios (a Find-my-prices bracket) "gives the same decision" only when the
cutoff to ship is the same across it (`elicit.pieces`, exact) and so is the verdict of the
recommendation (`decision.recommend`: ship the model, not clearly better, do not let the
model decide). The verdict rests on an honest interval, so it has no closed form over the
ratios: it is read at a few ratios spread over the range, and where two neighbours differ,
the ratio where it flips is found by bisection (to `FLIP_PRECISION`). Every reading is a
price move over cached sweeps, folds and draws: nothing is sorted or resampled again.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

from costlib.binary.decision import recommend
from costlib.binary.model_sweeps import ModelSweeps
from costlib.core.bounded import BoundedLRU

POINTS = 5  # ratios read across a range (its ends and three between, evenly on a log scale)
SPANS_KEPT = 32  # verdict spans kept on a model's sweeps (one per range of ratios asked about)
FLIP_PRECISION = 1.01  # a flip is located to within this factor of the ratio


@dataclass(frozen=True)
class VerdictSpan:
    """The verdicts over a range of ratios c_fn / c_fp: ``pieces`` is a tuple of
    ``(ratio_low, ratio_high, verdict)`` from `low` to `high`, one per stretch of one verdict."""

    low: float
    high: float
    pieces: tuple

    @property
    def holds(self) -> bool:
        """True when one verdict covers the whole range."""
        return len(self.pieces) == 1

    @property
    def flips(self) -> tuple:
        """((ratio, verdict below, verdict above), ...): where the verdict changes."""
        return tuple((a[1], a[2], b[2]) for a, b in zip(self.pieces, self.pieces[1:], strict=False))


def verdict_at(models: ModelSweeps | Mapping, ratio: float, *, n_resamples: int, seed: int = 0) -> str:
    """The verdict of the recommendation at c_fp = 1, c_fn = `ratio` (one price for everyone)."""
    return recommend(models, (1.0, float(ratio)), n_resamples=n_resamples, seed=seed).verdict


def verdict_span(
    models: ModelSweeps | Mapping, low: float, high: float, *, n_resamples: int, seed: int = 0
) -> VerdictSpan:
    """The verdicts over the ratios from `low` to `high` (see the module docstring).

    >>> from costlib.binary.decision import sweep_model
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> ms = sweep_model(y, np.clip(0.5 * y + rng.random(400) * 0.6, 0, 1))
    >>> verdict_span(ms, 1.0, 2.0, n_resamples=200).pieces
    ((1.0, 2.0, 'ship the model'),)
    """
    low, high = float(low), float(high)
    if not (0 < low <= high and math.isfinite(high)):
        raise ValueError(f"the ratios must satisfy 0 < low <= high < inf: got {low!r} and {high!r}")

    def at(r: float) -> str:
        return verdict_at(models, r, n_resamples=n_resamples, seed=seed)

    step = (high / low) ** (1 / (POINTS - 1)) if high > low else 1.0
    ratios = [low * step**i for i in range(POINTS)] if high > low else [low]
    ratios[-1] = high
    verdicts = [at(r) for r in ratios]
    pieces = []
    start = low
    for i in range(len(ratios) - 1):
        (r_a, v_a), (r_b, v_b) = (ratios[i], verdicts[i]), (ratios[i + 1], verdicts[i + 1])
        if v_a == v_b:
            continue
        a, b = r_a, r_b
        while b / a > FLIP_PRECISION:  # bisect on a log scale: v_a holds at a, another verdict at b
            m = math.sqrt(a * b)
            if at(m) == v_a:
                a = m
            else:
                b = m
        flip = float(f"{math.sqrt(a * b):.3g}")
        pieces.append((start, flip, v_a))
        start = flip
    pieces.append((start, high, verdicts[-1]))
    return VerdictSpan(low, high, tuple(pieces))


FLIP_SEARCH = 1.02  # a flip of `verdict_span` (found to within 1%, then rounded) lies this close
FLIP_EXACT = 1e-4  # the relative precision `cached_span` locates a flip to (ratios are shown to 3 digits)


def cached_span(models: Mapping, low: float, high: float, *, n_resamples: int, seed: int = 0) -> VerdictSpan:
    """`verdict_span` with each flip of the verdict located to a relative `FLIP_EXACT` (`located`),
    kept on the first model's sweeps (the span depends on nothing else).

    `verdict_span` locates a flip by bisection between ratios spread over the range, to within 1%,
    and rounds it: two ranges around one flip (2.4 to 3.7, then 2.45 to 3.67) said it at "about
    3.31" and "about 3.33", and Costs & groups, reading where the model stops being the cheapest
    option exactly (`sensitivity.ratio_range`), said 3.32: one ratio, three numbers. Located to a
    ten-thousandth, the flip is the same number from every range and every page, and the same as Costs &
    groups' where it is the same change (the model's saving reaching zero)."""
    first = next(iter(models.values()))
    cache = first.__dict__.setdefault("_span_cache", BoundedLRU())
    key = (tuple(models), float(low), float(high), int(n_resamples), int(seed))
    span = cache.get(key)
    if span is None:
        span = verdict_span(models, low, high, n_resamples=n_resamples, seed=seed)
        if not span.holds:
            span = located(span, lambda r: verdict_at(models, r, n_resamples=n_resamples, seed=seed))
        cache.put(key, span, max_entries=SPANS_KEPT)
    return span


def located(span: VerdictSpan, verdict_at) -> VerdictSpan:
    """`span` with each flip located to `FLIP_EXACT` by `verdict_at(ratio)`; a flip whose
    neighbourhood does not show the change it names (another flip within 2%) is kept as found."""
    pieces = [list(p) for p in span.pieces]
    for i in range(len(pieces) - 1):
        flip, below, above = pieces[i][1], pieces[i][2], pieces[i + 1][2]
        a = max(flip / FLIP_SEARCH, pieces[i][0] if i else 0.0)
        b = min(flip * FLIP_SEARCH, pieces[i + 1][1] if i + 2 < len(pieces) else math.inf)
        if not (a > 0 and verdict_at(a) == below and verdict_at(b) == above):
            continue
        while b / a > 1 + FLIP_EXACT:  # bisect on a log scale: `below` holds at a, `above` at b
            m = math.sqrt(a * b)
            a, b = (m, b) if verdict_at(m) == below else (a, m)
        pieces[i][1] = pieces[i + 1][0] = math.sqrt(a * b)
    return dataclasses.replace(span, pieces=tuple(tuple(p) for p in pieces))


def settle(bracket, sweep, models: Mapping, *, n_resamples: int, seed: int = 0):
    """(bracket, pieces over it, verdict span or None): Find my prices' stop rule. The
    questions stop as "robust" only when one cutoff is best over the whole bracket *and* the
    verdict is the same across it; the span is read only once the cutoff holds."""
    from costlib.binary import elicit

    table = elicit.pieces(sweep, bracket.low, bracket.high)
    span = None
    if len(table) == 1:
        span = cached_span(models, bracket.low, bracket.high, n_resamples=n_resamples, seed=seed)
        if bracket.settled is None and span.holds:
            bracket = bracket.settle("robust")
    return bracket, table, span
