"""`prior_fixed_points` passes again only over the rows still moving: every row's base rate is
the very number (to the last bit) of the pass over all rows every time, which is what the
resamples of a Watch period and its goldens were made with."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.watch.shift import BISECTION_STEPS, prior_fixed_points


def _every_row_every_pass(p, weights, train_prior):
    """The fixed points passing over every row until the last one stops (the loop before)."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    pi = np.broadcast_to(np.asarray(train_prior, dtype=np.float64), (w.shape[0],))[:, None]
    b = (1.0 - p[None, :]) / (1.0 - pi)
    d = p[None, :] / pi - b
    x = pi[:, 0].copy()
    low, high = np.zeros(w.shape[0]), np.ones(w.shape[0])
    active = np.ones(w.shape[0], dtype=bool)
    eps = 4 * np.finfo(float).eps
    for _ in range(BISECTION_STEPS):
        r = d / (b + x[:, None] * d)
        wr = w * r
        f = wr.sum(axis=1)
        df = -np.einsum("ij,ij->i", wr, r)
        low, high = np.where(f > 0, x, low), np.where(f > 0, high, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(df < 0, x - f / df, 0.5 * (low + high))
        x_next = np.where((low < step) & (step < high), step, 0.5 * (low + high))
        active &= ~((x_next == x) | (high - low <= eps))
        x = np.where(active, x_next, x)
        if not active.any():
            break
    return x


@pytest.mark.parametrize("rows", [1, 2, 3, 40, 100])
@pytest.mark.parametrize("cells", [60, 350, 1337, 9000])
def test_each_row_is_the_number_of_passing_over_every_row(rows, cells):
    rng = np.random.default_rng(rows * 10_007 + cells)
    p = np.sort(np.round(rng.beta(0.8, 1.6, cells), 4))
    weights = rng.poisson(rng.uniform(0.3, 4.0, cells), size=(rows, cells)).astype(np.float64)
    pis = np.clip(rng.normal(0.3, 0.01, size=rows), 1e-6, 1 - 1e-6)
    got = prior_fixed_points(p, weights, pis)
    assert np.all((got > 0) & (got < 1))  # every row has its root inside: each is passed over
    np.testing.assert_array_equal(got, _every_row_every_pass(p, weights, pis))
