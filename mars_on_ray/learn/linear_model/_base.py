"""LinearRegression from one pass of weighted column moments of [X, y]."""
from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize
from sklearn import linear_model as sklm
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from .. import moments
from .._blocks import row_map
from ..utils.validation import check_array, check_consistent_length, check_sample_weight, require_y, validate_data

_FLOATS = [np.float64, np.float32]


def _predict_block(x, *, coef, intercept):
    return x @ coef.T + intercept


class LinearRegression(MultiOutputMixin, RegressorMixin, BaseEstimator):
    """Ordinary least squares over chunked data (scikit-learn's API).

    One pass computes the (weighted) means and the centered scatter matrix of ``[X, y]``;
    the coefficients solve the small normal equations by least squares (an SVD), so only
    ``n_features x n_features`` values ever meet in one place.
    """

    _parameter_constraints = sklm.LinearRegression._parameter_constraints

    def __init__(self, *, fit_intercept=True, copy_X=True, tol=1e-6, n_jobs=None, positive=False):
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def fit(self, X, y, sample_weight=None):
        """Least-squares coefficients from one pass over [X, y]."""
        self._validate_params()
        d, y, mean, Sxx, Sxy = normal_equations(self, X, y, sample_weight, "LinearRegression.fit")
        if self.positive:
            coef = nonnegative_solution(Sxx, Sxy, 0.0)
        else:
            coef, _, self.rank_, _ = scipy.linalg.lstsq(Sxx, Sxy, cond=None)
        self.singular_ = np.sqrt(np.clip(np.linalg.eigvalsh(Sxx)[::-1], 0, None))
        if not self.positive:
            self.rank_ = int(self.rank_)
        set_solution(self, coef, mean, d, y.ndim)
        return self

    def predict(self, X):
        """A lazy tensor of predictions."""
        return linear_predict(self, X)

    def score(self, X, y, sample_weight=None):
        """R^2 of the prediction on (X, y), computed now (two passes, nothing gathered)."""
        from .._compute import compute_now
        from ..metrics import r2_score

        return float(compute_now(r2_score(y, self.predict(X), sample_weight=sample_weight)))


def linear_predict(est, X):
    """``X @ coef_.T + intercept_`` of a fitted linear model, lazily per row block."""
    check_is_fitted(est)
    X = validate_data(est, X, reset=False, dtype=_FLOATS)
    tail = () if est.coef_.ndim == 1 else (est.coef_.shape[0],)
    return row_map(_predict_block, [X], shape=X.shape[:1] + tail, dtype=X.dtype,
                   kwargs={"coef": est.coef_, "intercept": est.intercept_}, label=f"{type(est).__name__}.predict")


def normal_equations(est, X, y, sample_weight, label):
    """(n_features, y tensor, means of [X, y], X'X, X'y) from one pass of weighted moments
    (centered when ``est.fit_intercept``, else uncentered with zero means)."""
    fit_intercept = est.fit_intercept
    require_y(est, y)
    X = validate_data(est, X, reset=True, dtype=_FLOATS)
    y = check_array(y, ensure_2d=False, dtype=_FLOATS, input_name="y")
    if y.ndim not in (1, 2):
        raise ValueError(f"y should be a 1d or 2d array, got shape {y.shape}")
    check_consistent_length(X, y)
    w = check_sample_weight(sample_weight, X, dtype=_FLOATS)
    d = int(X.shape[1])
    total, mean, S = moments.scatter([X, y], w, label=label).fetch()
    if not fit_intercept:  # uncentered second moments: add back the mean's part
        S = S + total * np.outer(mean, mean)
        mean = np.zeros_like(mean)
    return d, y, mean, S[:d, :d], S[:d, d:]


def nonnegative_solution(Sxx, Sxy, alpha):
    """argmin over w >= 0 of w'Sxx w - 2 w'Sxy + alpha |w|^2, one target (column) at a time."""
    L = _sqrt_psd(Sxx)
    rhs = np.linalg.lstsq(L, Sxy, rcond=None)[0]  # L @ rhs == Sxy
    A = np.vstack([L.T, np.sqrt(alpha) * np.eye(len(Sxx))]) if np.any(alpha) else L.T
    pad = np.zeros(len(A) - len(rhs))
    return np.column_stack([scipy.optimize.nnls(A, np.concatenate([rhs[:, j], pad]))[0]
                            for j in range(Sxy.shape[1])])


def set_solution(est, coef, mean, d, y_ndim):
    """``coef_`` / ``intercept_`` shaped as scikit-learn's for a 1-D or 2-D y."""
    coef = coef.T  # (n_targets, n_features)
    intercept = mean[d:] - coef @ mean[:d] if est.fit_intercept else np.zeros(coef.shape[0])
    if y_ndim == 1:
        est.coef_, est.intercept_ = coef[0], float(intercept[0]) if est.fit_intercept else 0.0
    else:
        est.coef_, est.intercept_ = coef, intercept if est.fit_intercept else 0.0
    est.n_features_in_ = d


def _sqrt_psd(S):
    """L with L @ L.T == S for a positive semi-definite S."""
    evals, evecs = np.linalg.eigh(S)
    return evecs * np.sqrt(np.clip(evals, 0, None))
