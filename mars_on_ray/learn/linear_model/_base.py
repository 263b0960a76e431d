"""LinearRegression from one pass of weighted column moments of [X, y]."""
from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from .. import moments
from .._blocks import row_map
from ..utils.validation import check_array

_FLOATS = [np.float64, np.float32]


def _predict_block(x, *, coef, intercept):
    return x @ coef.T + intercept


class LinearRegression(RegressorMixin, BaseEstimator):
    """Ordinary least squares over chunked data (scikit-learn's API).

    One pass computes the (weighted) means and the centered scatter matrix of ``[X, y]``;
    the coefficients solve the small normal equations by least squares (an SVD), so only
    ``n_features x n_features`` values ever meet in one place.
    """

    def __init__(self, *, fit_intercept=True, copy_X=True, tol=1e-6, n_jobs=None, positive=False):
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def fit(self, X, y, sample_weight=None):
        X = check_array(X, dtype=_FLOATS)
        y = check_array(y, ensure_2d=False, dtype=_FLOATS, input_name="y")
        if y.ndim not in (1, 2):
            raise ValueError(f"y should be a 1d or 2d array, got shape {y.shape}")
        if X.shape[0] != y.shape[0]:
            raise ValueError("Found input variables with inconsistent numbers of samples: "
                             f"[{X.shape[0]}, {y.shape[0]}]")
        w = None if sample_weight is None else check_array(sample_weight, ensure_2d=False, dtype=_FLOATS,
                                                           input_name="sample_weight")
        d = int(X.shape[1])
        total, mean, S = moments.scatter([X, y], w, label="LinearRegression.fit").fetch()
        if not self.fit_intercept:  # uncentered second moments: add back the mean's part
            S = S + total * np.outer(mean, mean)
            mean = np.zeros_like(mean)
        Sxx, Sxy = S[:d, :d], S[:d, d:]
        if self.positive:
            L = _sqrt_psd(Sxx)
            rhs = np.linalg.lstsq(L, Sxy, rcond=None)[0]  # L @ rhs == Sxy
            coef = np.column_stack([scipy.optimize.nnls(L.T, rhs[:, j])[0] for j in range(Sxy.shape[1])])
        else:
            coef, _, self.rank_, _ = scipy.linalg.lstsq(Sxx, Sxy, cond=None)
        self.singular_values_ = np.sqrt(np.clip(np.linalg.eigvalsh(Sxx)[::-1], 0, None))
        if not self.positive:
            self.rank_ = int(self.rank_)
        coef = coef.T  # (n_targets, n_features)
        intercept = mean[d:] - coef @ mean[:d] if self.fit_intercept else np.zeros(coef.shape[0])
        if y.ndim == 1:
            self.coef_, self.intercept_ = coef[0], float(intercept[0]) if self.fit_intercept else 0.0
        else:
            self.coef_, self.intercept_ = coef, intercept if self.fit_intercept else 0.0
        self.n_features_in_ = d
        return self

    def predict(self, X):
        """A lazy tensor of predictions."""
        check_is_fitted(self)
        X = check_array(X, dtype=_FLOATS)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but LinearRegression is expecting "
                             f"{self.n_features_in_} features as input.")
        tail = () if self.coef_.ndim == 1 else (self.coef_.shape[0],)
        return row_map(_predict_block, [X], shape=X.shape[:1] + tail, dtype=X.dtype,
                       kwargs={"coef": self.coef_, "intercept": self.intercept_}, label="LinearRegression.predict")

    def score(self, X, y, sample_weight=None):
        from sklearn.metrics import r2_score

        y = check_array(y, ensure_2d=False, dtype=_FLOATS, input_name="y")
        return r2_score(np.asarray(y.fetch()), np.asarray(self.predict(X).fetch()),
                        sample_weight=None if sample_weight is None else np.asarray(sample_weight))


def _sqrt_psd(S):
    """L with L @ L.T == S for a positive semi-definite S."""
    evals, evecs = np.linalg.eigh(S)
    return evecs * np.sqrt(np.clip(evals, 0, None))
