"""Watch's two distribution functions are SciPy's own, read from ``scipy.special``: the same
numbers as ``scipy.stats`` gives, without its import on a server's first Watch answer."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from scipy.stats import binom, chi2

from costlib.watch.estimate import binomial_tails
from costlib.watch.reference import calibration_check


def test_the_binomial_tails_are_scipy_stats_binom_to_the_last_bit():
    m = np.arange(1, 6000)
    for p in (0.0, 1e-9, 0.05, 0.08, 0.123456789, 0.3, 0.5, 0.97, 1.0):
        for mid in (0.04, 0.19, 0.5, 0.81):
            cut = np.floor(mid * m)
            low, high = binomial_tails(cut, m, p)
            np.testing.assert_array_equal(low, binom.cdf(cut, m, p))
            np.testing.assert_array_equal(high, binom.sf(cut, m, p))


def test_the_calibration_p_value_is_scipy_stats_chi2_to_the_last_bit():
    rng = np.random.default_rng(4)
    for _ in range(40):
        scores = np.sort(rng.random(60))
        pos, neg = rng.integers(0, 9, 60).astype(float), rng.integers(0, 9, 60).astype(float)
        check = calibration_check(scores, pos, neg)
        assert check["p_value"] == float(chi2.sf(check["statistic"], check["bins"]))


def test_the_built_in_years_answer_does_not_import_scipy_stats():
    code = (
        "import sys\n"
        "from costlib import answers\n"
        "policy, df = answers.sample_inputs()\n"
        "a = answers.watch_answer(policy, df, name='y', columns=dict(answers.SAMPLE_COLUMNS), freq='M',"
        " n_resamples=20, unit='$')\n"
        "a.refit_figure(a.refit(None))\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
