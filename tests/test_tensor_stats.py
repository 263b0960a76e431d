"""mt.stats tests equal scipy.stats on the same data (chunks that do not divide it)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor

RS = np.random.RandomState(4)
A = RS.randn(50, 3) + 0.2
B = RS.randn(40, 3)
F = RS.randint(5, 20, size=(6, 2)).astype(float)


def _v(t):
    return LocalExecutor().compute(t.data)[0]


def _same(got, want):
    np.testing.assert_allclose(_v(got[0]), want[0], rtol=1e-10)
    np.testing.assert_allclose(_v(got[1]), want[1], rtol=1e-8)


def _t(a, chunk=(7, 2)):
    return mt.tensor(a, chunk_size=chunk[: a.ndim])


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ttests(alternative):
    _same(mt.stats.ttest_1samp(_t(A), 0.1, alternative=alternative),
          stats.ttest_1samp(A, 0.1, alternative=alternative))
    _same(mt.stats.ttest_1samp(_t(A), 0.0, axis=None, alternative=alternative),
          stats.ttest_1samp(A, 0.0, axis=None, alternative=alternative))
    for equal_var in (True, False):
        _same(mt.stats.ttest_ind(_t(A), _t(B, (9, 3)), equal_var=equal_var, alternative=alternative),
              stats.ttest_ind(A, B, equal_var=equal_var, alternative=alternative))
    _same(mt.stats.ttest_rel(_t(A[:40]), _t(B), alternative=alternative),
          stats.ttest_rel(A[:40], B, alternative=alternative))


def test_ttest_ind_from_stats():
    got = mt.stats.ttest_ind_from_stats(1.0, 2.0, 30, 1.5, 1.2, 20, equal_var=False)
    _same(got, stats.ttest_ind_from_stats(1.0, 2.0, 30, 1.5, 1.2, 20, equal_var=False))


def test_ttest_errors():
    with pytest.raises(ValueError):
        mt.stats.ttest_1samp(_t(A), 0, alternative="sideways")
    with pytest.raises(ValueError):
        mt.stats.ttest_rel(_t(A), _t(B))
    with pytest.raises(ValueError):
        mt.stats.ttest_1samp(_t(A), 0, nan_policy="bogus")


@pytest.mark.parametrize("lambda_", [None, "pearson", "log-likelihood", "freeman-tukey",
                                     "mod-log-likelihood", "neyman", "cressie-read", 1.5])
def test_power_divergence(lambda_):
    _same(mt.stats.power_divergence(_t(F, (4, 1)), lambda_=lambda_), stats.power_divergence(F, lambda_=lambda_))
    exp = np.broadcast_to(F.mean(axis=0), F.shape).copy()  # sums agree per column, as SciPy requires
    _same(mt.stats.power_divergence(_t(F, (4, 1)), exp, ddof=1, lambda_=lambda_),
          stats.power_divergence(F, exp, ddof=1, lambda_=lambda_))
    with pytest.raises(ValueError):
        mt.stats.power_divergence(_t(F), lambda_="nope")


def test_chisquare():
    _same(mt.stats.chisquare(_t(F[:, 0], (4,))), stats.chisquare(F[:, 0]))
    _same(mt.stats.chisquare(_t(F, (4, 1)), axis=None), stats.chisquare(F, axis=None))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ks(alternative):
    x, y = A[:, 0], B[:, 1]
    _same(mt.stats.ks_1samp(_t(x, (7,)), stats.norm.cdf, alternative=alternative),
          stats.ks_1samp(x, stats.norm.cdf, alternative=alternative))
    for method in ("auto", "asymp", "exact"):
        _same(mt.stats.ks_2samp(_t(x, (7,)), _t(y, (6,)), alternative=alternative, method=method),
              stats.ks_2samp(x, y, alternative=alternative, method=method))
