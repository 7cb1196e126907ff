"""The cross-fit priced once (`folds.repeated_cross_fit(once=True)`, what Watch asks for: each
period judged at the policy's prices only) prices every cutoff instead of building the chains a
later price move reads (`folds._chains`), and gives the default path's numbers bit for bit: every
count, every deal's cost, the rows between the two rules, whether every fold was fitted; over
random rows, groups (some too small for a cutoff of their own), prices (one for everyone, by group,
zero, whole numbers with exact ties), score ties and review limits."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.binary import honest as H

PRICE = st.one_of(st.integers(0, 6).map(float), st.floats(0.001, 1e4), st.sampled_from([0.1, 0.3, 4.25]))


def rows(n: int, seed: int, digits: int, n_groups: int, skew: float):
    """`n` rows in `n_groups` groups (the last ones small), scores rounded to `digits` decimals."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < skew).astype(int)
    s = np.round(1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1.1, n)))), digits)
    share = np.array([0.55, 0.3, 0.1, 0.05][:n_groups])
    g = rng.choice(np.array(["a", "b", "c", "d"][:n_groups]), n, p=share / share.sum())
    return y, s, g


def assert_identical(got, ref):
    assert got.fitted == ref.fitted
    for name in ("single", "per_group"):
        for c in ("tp", "fp", "fn", "splits"):
            np.testing.assert_array_equal(getattr(got, name)[c], getattr(ref, name)[c], err_msg=f"{name} {c}")
    for c in ("pos", "neg"):
        np.testing.assert_array_equal(got.between[c], ref.between[c], err_msg=f"between {c}")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(15, 2500),
    seed=st.integers(0, 10_000),
    digits=st.sampled_from([1, 2, 3, 6]),
    n_groups=st.integers(1, 4),
    skew=st.sampled_from([0.05, 0.3, 0.5, 0.9]),
    c_fp=PRICE,
    c_fn=PRICE,
    by_group=st.booleans(),
    capacity=st.sampled_from([None, None, None, 1.0, 0.3, 0.05]),
)
def test_priced_once_is_the_default_path_bit_for_bit(n, seed, digits, n_groups, skew, c_fp, c_fn, by_group, capacity):
    y, s, g = rows(n, seed, digits, n_groups, skew)
    ms = D.sweep_model(y, s, g)
    index = ms.pooled_index("fit")
    deals = F.dealt_folds(ms.fit, ms.fit_pooled, index, seed=seed)
    costs = {grp: (c_fp * (1 + i), c_fn) for i, grp in enumerate(ms.groups)} if by_group else (c_fp, c_fn)
    p = D.prices_for(ms.groups, costs)
    with np.errstate(all="ignore"):
        once = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p, capacity, once=True)  # first: no chains yet
        default = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p, capacity)
    assert_identical(once, default)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(40, 2000),
    seed=st.integers(0, 10_000),
    digits=st.sampled_from([2, 3]),
    n_groups=st.integers(1, 3),
    c_fp=PRICE,
    c_fn=PRICE,
)
def test_honest_judge_once_is_the_default_judgement(n, seed, digits, n_groups, c_fp, c_fn):
    """Through `honest.judge` (Watch's call), on separate sweeps so no cache is shared."""
    y, s, g = rows(n, seed, digits, n_groups, 0.4)
    p = D.prices_for(sorted(set(g.tolist())), (c_fp, c_fn))
    with np.errstate(all="ignore"):
        once = H.judge(D.sweep_model(y, s, g), p, n_resamples=0, seed=seed, once=True).crossfit
        default = H.judge(D.sweep_model(y, s, g), p, n_resamples=0, seed=seed).crossfit
    assert (once is None) == (default is None)
    if once is not None:
        assert_identical(once, default)


def test_priced_once_builds_no_chains():
    y, s, g = rows(3000, 1, 3, 3, 0.4)
    ms = D.sweep_model(y, s, g)
    index = ms.pooled_index("fit")
    deals = F.dealt_folds(ms.fit, ms.fit_pooled, index, seed=0)
    p = D.prices_for(ms.groups, (1.0, 4.0))
    F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p, once=True)
    assert "_chains" not in F._stacked(ms.fit, deals).__dict__
    F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p)
    assert F._stacked(ms.fit, deals).__dict__["_chains"] is not None  # the default path builds them
