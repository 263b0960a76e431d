"""``mt.stats``: SciPy's tests whose statistics are sums, on chunked data.

Each test reduces the data to a few lazy scalars (counts, means, variances, sums) and then
applies SciPy's own distribution functions (``scipy.special`` kernels) elementwise, so the
answers equal ``scipy.stats`` and the data is never gathered. Results are ``(statistic,
pvalue)`` named tuples of lazy tensors, like SciPy's result objects.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .arithmetic import absolute, elementwise, sqrt, where
from .core import as_tensor

__all__ = ["ttest_1samp", "ttest_ind", "ttest_ind_from_stats", "ttest_rel", "chisquare",
           "power_divergence", "ks_1samp", "ks_2samp"]

TtestResult = namedtuple("TtestResult", ["statistic", "pvalue"])
Power_divergenceResult = namedtuple("Power_divergenceResult", ["statistic", "pvalue"])
KstestResult = namedtuple("KstestResult", ["statistic", "pvalue"])

_LAMBDAS = {"pearson": 1.0, "log-likelihood": 0.0, "freeman-tukey": -0.5, "mod-log-likelihood": -1.0,
            "neyman": -2.0, "cressie-read": 2 / 3}


def _t_pvalue(t, df, alternative):
    """p-value of Student's t with ``df`` degrees of freedom (scipy.special.stdtr)."""
    if alternative == "two-sided":
        return elementwise("scipy.special:stdtr", (df, -absolute(t))) * 2
    if alternative == "less":
        return elementwise("scipy.special:stdtr", (df, t))
    if alternative == "greater":
        return elementwise("scipy.special:stdtr", (df, -t))
    raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")


def _moments(a, axis):
    a = as_tensor(a)
    a = a.astype(np.result_type(a.dtype, np.float64))
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    return a.mean(axis=axis), a.var(axis=axis, ddof=1), n


def ttest_1samp(a, popmean, axis=0, nan_policy="propagate", alternative="two-sided"):
    """One-sample t-test of the mean of ``a`` against ``popmean``."""
    _check_policy(nan_policy)
    mean, var, n = _moments(a, axis)
    t = (mean - popmean) / sqrt(var / n)
    return TtestResult(t, _t_pvalue(t, float(n - 1), alternative))


def ttest_ind_from_stats(mean1, std1, nobs1, mean2, std2, nobs2, equal_var=True,
                         alternative="two-sided"):
    """Two-sample t-test from means, standard deviations (ddof=1) and counts."""
    mean1, std1, mean2, std2 = map(as_tensor, (mean1, std1, mean2, std2))
    v1, v2 = std1 ** 2, std2 ** 2
    if equal_var:
        df = nobs1 + nobs2 - 2.0
        pooled = ((nobs1 - 1) * v1 + (nobs2 - 1) * v2) / df
        denom = sqrt(pooled * (1.0 / nobs1 + 1.0 / nobs2))
    else:  # Welch
        vn1, vn2 = v1 / nobs1, v2 / nobs2
        df = (vn1 + vn2) ** 2 / (vn1 ** 2 / (nobs1 - 1) + vn2 ** 2 / (nobs2 - 1))
        df = where(df != df, 1.0, df)  # SciPy sets an undefined df to 1
        denom = sqrt(vn1 + vn2)
    t = (mean1 - mean2) / denom
    return TtestResult(t, _t_pvalue(t, df, alternative))


def ttest_ind(a, b, axis=0, equal_var=True, nan_policy="propagate", alternative="two-sided"):
    """Two independent samples t-test (``equal_var=False``: Welch's)."""
    _check_policy(nan_policy)
    m1, v1, n1 = _moments(a, axis)
    m2, v2, n2 = _moments(b, axis)
    return ttest_ind_from_stats(m1, sqrt(v1), n1, m2, sqrt(v2), n2, equal_var=equal_var,
                                alternative=alternative)


def ttest_rel(a, b, axis=0, nan_policy="propagate", alternative="two-sided"):
    """Paired samples t-test (a one-sample test of the differences)."""
    _check_policy(nan_policy)
    a, b = as_tensor(a), as_tensor(b)
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError("unequal length arrays")
    return ttest_1samp(a - b, 0.0, axis=axis, alternative=alternative)


def power_divergence(f_obs, f_exp=None, ddof=0, axis=0, lambda_=None):
    """Cressie-Read power divergence statistic and its chi-square p-value."""
    if isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"invalid string for lambda_: {lambda_!r}. Valid strings are "
                             f"{list(_LAMBDAS)}")
        lambda_ = _LAMBDAS[lambda_]
    lambda_ = 1.0 if lambda_ is None else lambda_
    obs = as_tensor(f_obs)
    obs = obs.astype(np.result_type(obs.dtype, np.float64))
    if axis is None:
        obs, axis = obs.reshape(-1), 0
    k = obs.shape[axis]
    exp = obs.mean(axis=axis, keepdims=True) if f_exp is None else as_tensor(f_exp)
    if lambda_ == 1:
        terms = (obs - exp) ** 2 / exp
    elif lambda_ == 0:
        terms = 2.0 * elementwise("scipy.special:xlogy", (obs, obs / exp))
    elif lambda_ == -1:
        terms = 2.0 * elementwise("scipy.special:xlogy", (exp, exp / obs))
    else:
        terms = obs * ((obs / exp) ** lambda_ - 1) / (0.5 * lambda_ * (lambda_ + 1))
    stat = terms.sum(axis=axis)
    df = float(k - 1 - ddof)
    return Power_divergenceResult(stat, elementwise("scipy.special:chdtrc", (df, stat)))


def chisquare(f_obs, f_exp=None, ddof=0, axis=0):
    """Pearson's chi-square goodness-of-fit test."""
    return power_divergence(f_obs, f_exp=f_exp, ddof=ddof, axis=axis, lambda_="pearson")


def ks_1samp(x, cdf, args=(), alternative="two-sided", method="exact"):
    """Kolmogorov-Smirnov test of ``x`` against a continuous ``cdf`` (a callable)."""
    from .datasource import arange
    from .sorting import sort

    x = as_tensor(x).reshape(-1)
    n = x.shape[0]
    values = sort(x)
    cdfvals = values.map_chunk(lambda v: cdf(v, *args), elementwise=True, dtype=np.float64)
    ranks = arange(1, n + 1, dtype=np.float64)
    d_plus = (ranks / n - cdfvals).max()
    d_minus = (cdfvals - (ranks - 1) / n).max()
    if alternative == "greater":
        return KstestResult(d_plus, elementwise("scipy.special:smirnov", (n, d_plus)))
    if alternative == "less":
        return KstestResult(d_minus, elementwise("scipy.special:smirnov", (n, d_minus)))
    if alternative != "two-sided":
        raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")
    d = elementwise("maximum", (d_plus, d_minus))
    return KstestResult(d, elementwise("mars_on_ray.tensor.stats:_kstwo_sf", (d,), n=int(n), method=method,
                                       result_dtype=np.float64))


def _kstwo_sf(d, n, method):
    from scipy import stats

    if method == "asymp":
        return stats.kstwobign.sf(d * np.sqrt(n))
    return np.clip(stats.kstwo.sf(d, n), 0, 1)


def ks_2samp(data1, data2, alternative="two-sided", method="auto"):
    """Two-sample Kolmogorov-Smirnov test; both samples are sorted distributedly, the p-value is
    SciPy's for the statistic found."""
    from .histogram import searchsorted
    from .joining import concatenate
    from .sorting import sort

    a, b = sort(as_tensor(data1).reshape(-1)), sort(as_tensor(data2).reshape(-1))
    n1, n2 = a.shape[0], b.shape[0]
    both = concatenate([a, b])
    cdf1 = searchsorted(a, both, side="right") / n1
    cdf2 = searchsorted(b, both, side="right") / n2
    diff = cdf1 - cdf2
    d = {"two-sided": absolute(diff).max(), "greater": diff.max(), "less": (-diff).max()}.get(alternative)
    if d is None:
        raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")
    return KstestResult(d, elementwise("mars_on_ray.tensor.stats:_ks2_pvalue", (d,), n1=int(n1), n2=int(n2),
                                       alternative=alternative, method=method, result_dtype=np.float64))


def _ks2_pvalue(d, n1, n2, alternative, method):
    """SciPy's p-value for the two-sample statistic ``d`` (its mode choice, its exact path
    through a private SciPy helper when present, else its asymptotic formulas)."""
    import math

    from scipy import stats
    from scipy.stats import _stats_py

    d = float(np.asarray(d))
    g = math.gcd(n1, n2)
    mode = method
    if mode == "auto":
        mode = "exact" if max(n1, n2) <= getattr(_stats_py, "MAX_AUTO_N", 10000) else "asymp"
    elif mode == "exact" and (n1 // g) >= np.iinfo(np.int32).max / (n2 // g):
        mode = "asymp"
    exact = getattr(_stats_py, "_attempt_exact_2kssamp", None)
    if mode == "exact" and exact is not None:
        success, d, prob = exact(n1, n2, g, d, alternative)
        if success:
            return np.clip(prob, 0, 1)
    m, n = sorted([float(n1), float(n2)], reverse=True)
    en = m * n / (m + n)
    if alternative == "two-sided":
        return np.clip(stats.kstwo.sf(d, np.round(en)), 0, 1)
    z = np.sqrt(en) * d
    return np.clip(np.exp(-2 * z ** 2 - 2 * z * (m + 2 * n) / np.sqrt(m * n * (m + n)) / 3.0), 0, 1)


def _check_policy(nan_policy):
    if nan_policy not in ("propagate",):
        if nan_policy in ("raise", "omit"):
            raise NotImplementedError(f"nan_policy={nan_policy!r} is not supported (only 'propagate')")
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
