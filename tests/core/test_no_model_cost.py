"""The one no-model baseline (`core.prices.no_model_cost`) against the two decisions priced by hand,
and the scalar reader (`binary.decision.no_model_baseline`) against it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary.decision import no_model_baseline
from costlib.core.prices import no_model_cost

prices = st.floats(0.0, 1e6, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50), prices, prices), min_size=1, max_size=5))
def test_the_cheaper_total_over_groups_each_at_its_prices(groups):
    pos, neg, c_fp, c_fn = (np.array(x, dtype=float) for x in zip(*groups, strict=True))
    nobody = sum(p * b for p, b in zip(pos, c_fn, strict=True))
    everyone = sum(n * a for n, a in zip(neg, c_fp, strict=True))
    stacked = no_model_cost(np.stack([pos, pos]), np.stack([neg, neg]), c_fp, c_fn, axis=-1)
    np.testing.assert_allclose(stacked, [min(nobody, everyone)] * 2, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=40), prices, prices)
def test_the_scalar_baseline_is_the_vectorised_one_per_case(labels, c_fp, c_fn):
    y = np.array(labels, dtype=int)
    rule, per_case = no_model_baseline(y, c_fp=c_fp, c_fn=c_fn)
    pos = y.sum()
    assert per_case == float(no_model_cost(pos, y.size - pos, c_fp, c_fn)) / y.size
    assert per_case == min(pos * c_fn, (y.size - pos) * c_fp) / y.size
    assert rule == ("flag everyone" if (y.size - pos) * c_fp < pos * c_fn else "flag nobody")
