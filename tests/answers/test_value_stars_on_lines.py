"""Every star of the Value page's charts lies on its own line as drawn (first-time user review, item 1).

On COMPAS at $1 / $3 the answer reads "positive … at least 0.6032 … worth $0.129 per case", and the
chart's star "positive from 0.6032: $0.129" sat above the solid line of the positive answers'
threshold, which read $0.117 up to it: each curve is drawn from its highest threshold down, each
worth held down to the next lower threshold, and the lowest threshold's worth (every positive
answer accepted, where the threshold was fitted) had no next one, so the line only rose to it at
its very end, straight up under the star. The chart at one price had the same end (COMPAS at
$1 / $1, its star at the lowest confidence, 0.5258). Now that worth is held on down to the plot's
left edge (0.5, the least confidence an answer has, or a little left of it): every lower threshold
accepts the same answers.

Read as a reader reads it: the drawn line (the trace's points joined as its shape says) at the
star's threshold, on a stretch that runs along the threshold axis (a rise straight up is where
the worth changes, not a worth), within half a percent of the worth axis (a pixel or two)."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes

NEAR = 0.005  # of the worth axis's range: about 2 pixels of the plot


def _sample(key: str, *, split: bool = True):
    s = SAMPLES[key]
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    return prepare(pd.read_csv(io.BytesIO(sample_bytes(key))), mapping, name=s.filename, fingerprint=key + str(split))


@pytest.fixture(scope="module")
def compas():
    return _sample("compas")


@pytest.fixture(scope="module")
def compas_all_rows():
    return _sample("compas", split=False)


def _answer(ds, c_fp: float, c_fn: float):
    return value_answer(ds, {"": (c_fp, c_fn)}, names=[""], worth=1.0, reject_worth=0.0, unit="$", volume=10_000.0)


def drawn_at(trace, x: float) -> list[float]:
    """The worths the drawn `trace` reads at threshold `x`: on each piece between two of its points
    that runs along the threshold axis and spans `x`, as its line's shape joins them (straight,
    "hv" or "vh"); a piece straight up reads none."""
    shape = trace.line.shape or "linear"
    assert shape in ("linear", "hv", "vh"), shape
    xs, ys = np.asarray(trace.x, dtype=float), np.asarray(trace.y, dtype=float)
    out = []
    for x0, x1, y0, y1 in zip(xs[:-1], xs[1:], ys[:-1], ys[1:], strict=True):
        if x0 == x1 or not min(x0, x1) <= x <= max(x0, x1):
            continue
        out.append({"hv": y0, "vh": y1}.get(shape, y0 + (y1 - y0) * (x - x0) / (x1 - x0)))
    return out


def _stars_off_their_lines(fig) -> list[tuple]:
    """(star's threshold, its worth, what its line reads there) of each star off its line: at separate
    prices a star's line is the one its words name ("positive from …": the positive answers' line)."""
    lines = [t for t in fig.data if t.mode and "lines" in t.mode and t.line.dash != "dash"]
    lo, hi = fig.layout.yaxis.range or (min(min(t.y) for t in lines), max(max(t.y) for t in lines))
    # the stars' words, in the order of their thresholds (as the stars are drawn)
    notes = sorted(
        (a for a in fig.layout.annotations if a.text.startswith(("positive ", "negative "))), key=lambda a: a.x
    )
    off = []
    for stars in (t for t in fig.data if t.mode == "markers"):
        for i, (x, y) in enumerate(zip(stars.x, stars.y, strict=True)):
            own = (
                [t for t in lines if t.name.startswith(notes[i].text.split(" ")[0] + " ")] if len(lines) > 1 else lines
            )
            assert len(own) == 1, [t.name for t in lines]
            read = drawn_at(own[0], x)
            if not any(abs(v - y) <= NEAR * (hi - lo) for v in read):
                off.append((x, y, read))
    return off


@pytest.mark.parametrize(("c_fp", "c_fn"), [(1, 3), (1, 10), (3, 1), (1, 1.5)])
def test_each_star_of_the_chart_at_separate_prices_lies_on_its_own_line(compas, c_fp, c_fn):
    answer = _answer(compas, c_fp, c_fn)
    assert answer.apart
    fig = answer.tau_figure(answer.rec.model)
    assert len([t for t in fig.data if t.mode == "markers"][0].x) >= 1
    assert _stars_off_their_lines(fig) == []


def test_the_reviewers_case_the_positive_line_reads_the_answers_worth_at_its_threshold(compas):
    answer = _answer(compas, 1, 3)
    rec = answer.rec
    assert (round(rec.tau_pos, 4), round(rec.value, 3)) == (0.6032, 0.129)  # the answer's own words
    fig = answer.tau_figure(rec.model)
    (positive,) = [t for t in fig.data if t.name.startswith("positive answers' threshold")]
    # at its threshold the line is at the answer's worth, and holds it below (each worth holds down to
    # the next lower threshold): before, it read $0.117 there and rose to $0.129 only straight up
    assert any(v == pytest.approx(rec.value) for v in drawn_at(positive, rec.tau_pos))
    assert drawn_at(positive, rec.tau_pos - 0.01) == pytest.approx([rec.value])
    # the worth of accepting every positive answer, held past 0.5 to the plot's left edge: a threshold
    # there accepts the same answers
    assert (positive.x[-1], positive.y[-1]) == pytest.approx((fig.layout.xaxis.range[0], rec.value))
    assert fig.layout.xaxis.range[0] < 0.5


@pytest.mark.parametrize(("c_fp", "c_fn"), [(1, 1), (1, 3)])
def test_the_star_of_the_chart_at_one_price_lies_on_its_line(compas, compas_all_rows, c_fp, c_fn):
    for ds in (compas, compas_all_rows):
        answer = _answer(ds, c_fp, c_fn)
        assert _stars_off_their_lines(answer.one_price_figure(answer.rec.model)) == []
