"""PCA and TruncatedSVD over row blocks; the fitted values are NumPy arrays, transform is lazy."""
from __future__ import annotations

import numbers

import numpy as np
from sklearn import decomposition as skd
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.extmath import fast_logdet
from sklearn.utils.validation import check_is_fitted

from ... import tensor as mt
from .. import moments
from .._blocks import row_map
from .._compute import compute_now
from .._output import LazyOutputMixin
from ..utils.validation import check_array, validate_data
from ._svd import eigh_svd, flip_by_rows, randomized_svd, tsqr_svd

_SOLVERS = ("auto", "full", "covariance_eigh", "arpack", "randomized", "tsqr")


def _project(x, *, mean, components, scale):
    out = (x - mean) @ components.T
    return out / scale if scale is not None else out


def _log_likelihood(x, *, mean, precision, logdet):
    """scikit-learn's ``PCA.score_samples`` of a row block."""
    xr = x - mean
    out = -0.5 * np.sum(xr * (xr @ precision), axis=1)
    out -= 0.5 * (x.shape[1] * np.log(2.0 * np.pi) - logdet)
    return out


def _unproject(x, *, components, scale, mean):
    return (x * scale if scale is not None else x) @ components + mean


class _Projection(ClassNamePrefixFeaturesOutMixin, LazyOutputMixin, TransformerMixin, BaseEstimator):
    """transform / inverse_transform shared by PCA and TruncatedSVD."""

    @property
    def _n_features_out(self):
        """Output feature names are ``<class name lowered><i>``, one per component."""
        return self.components_.shape[0]

    def _scale(self):
        return None

    def transform(self, X):
        """X projected on the components: a lazy tensor."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        kwargs = {"mean": self._mean(), "components": self.components_, "scale": self._scale()}
        return row_map(_project, [X], shape=(X.shape[0], len(self.components_)), dtype=X.dtype,
                       kwargs=kwargs, label=f"{type(self).__name__}.transform")

    def inverse_transform(self, X):
        check_is_fitted(self)
        X = check_array(X, dtype=[np.float64, np.float32])
        kwargs = {"mean": self._mean(), "components": self.components_, "scale": self._scale()}
        return row_map(_unproject, [X], shape=(X.shape[0], self.n_features_in_), dtype=X.dtype,
                       kwargs=kwargs, label=f"{type(self).__name__}.inverse_transform")

    def fit_transform(self, X, y=None):
        return self.fit(X, y).transform(X)


class PCA(_Projection):
    """Principal component analysis of chunked data (scikit-learn's API).

    ``svd_solver``: ``'full'`` / ``'tsqr'`` (TSQR of the centered rows, exact),
    ``'covariance_eigh'`` (one pass: eigenvectors of the scatter matrix), ``'randomized'``
    (one graph per power iteration), ``'arpack'`` (computed exactly, as 'full'), ``'auto'``
    (scikit-learn's choice: covariance_eigh for tall data, randomized for few components).
    """

    _parameter_constraints = {**skd.PCA._parameter_constraints, "svd_solver": [StrOptions(set(_SOLVERS))]}

    def __init__(self, n_components=None, *, copy=True, whiten=False, svd_solver="auto", tol=0.0,
                 iterated_power="auto", n_oversamples=10, power_iteration_normalizer="auto",
                 random_state=None):
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state

    def _mean(self):
        return self.mean_

    def _scale(self):
        return np.sqrt(self.explained_variance_) if self.whiten else None

    def _solver(self, n, d, k):
        if self.svd_solver not in _SOLVERS:
            raise ValueError(f"svd_solver should be one of {_SOLVERS}, got {self.svd_solver!r}")
        if self.svd_solver != "auto":
            return self.svd_solver
        if d <= 1000 and n >= 10 * d:
            return "covariance_eigh"
        if max(n, d) <= 500 or not isinstance(k, numbers.Integral) or not 1 <= k < 0.8 * min(n, d):
            return "full"
        return "randomized"

    def _n_components(self, n, d):
        k = self.n_components
        if k is None:
            return min(n, d)
        if isinstance(k, numbers.Integral) and not isinstance(k, bool):
            if not 0 <= k <= min(n, d):
                raise ValueError(f"n_components={k} must be between 0 and min(n_samples, n_features)="
                                 f"{min(n, d)} with svd_solver={self.svd_solver!r}")
            return int(k)
        if isinstance(k, numbers.Real) and 0 < k < 1:
            return float(k)
        raise ValueError(f"n_components={k!r} must be an int in [0, {min(n, d)}] or a float in (0, 1)")

    def fit(self, X, y=None):
        """Fit the components: one pass for the means and scatter, then the chosen solver."""
        self._validate_params()
        X = moments.checked_features(self, X)
        n, d = (int(s) for s in X.shape)
        k = self._n_components(n, d)
        solver = self._solver(n, d, k)
        if solver == "randomized" and not isinstance(k, numbers.Integral):
            raise ValueError("n_components must be an int with svd_solver='randomized'")
        X.execute()  # read again by the solver's graphs
        total, mean, scatter = moments.scatter([X], label="PCA.fit", check_finite="PCA").fetch()
        if solver == "covariance_eigh":
            S, Vt = eigh_svd(scatter)
        elif solver == "randomized":
            power = self.iterated_power
            power = (7 if k < 0.1 * min(n, d) else 4) if power == "auto" else power
            S, Vt = randomized_svd(X, mean, k, self.n_oversamples, power,
                                   check_random_state(self.random_state))
        else:
            S, Vt = tsqr_svd(X, mean)
        Vt, _ = flip_by_rows(Vt)
        ev = S ** 2 / (n - 1)
        total_var = np.trace(scatter) / (n - 1) if solver == "randomized" else ev.sum()
        ratio = ev / total_var
        if isinstance(k, float):
            k = int(np.searchsorted(np.cumsum(ratio), k, side="right") + 1)
        self.mean_ = mean
        self.n_samples_, self.n_features_in_, self.n_components_ = n, d, k
        self.components_ = Vt[:k]
        self.explained_variance_ = ev[:k]
        self.explained_variance_ratio_ = ratio[:k]
        self.singular_values_ = S[:k]
        if k < min(n, d):
            rest = total_var - ev[:k].sum() if solver == "randomized" else ev[k:].sum()
            self.noise_variance_ = float(rest / (min(n, d) - k))
        else:
            self.noise_variance_ = 0.0
        return self

    def _sk(self):
        sk = skd.PCA(**self.get_params())
        for name in ("mean_", "components_", "explained_variance_", "noise_variance_", "n_components_",
                     "n_features_in_", "n_samples_"):
            setattr(sk, name, getattr(self, name))
        return sk

    def get_covariance(self):
        """The covariance of the data under the probabilistic PCA model (scikit-learn's)."""
        check_is_fitted(self)
        return self._sk().get_covariance()

    def get_precision(self):
        """The inverse of ``get_covariance()`` (scikit-learn's)."""
        check_is_fitted(self)
        return self._sk().get_precision()

    def score_samples(self, X):
        """The log-likelihood of each row under the probabilistic PCA model: lazy."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        precision = self.get_precision()
        kwargs = {"mean": self.mean_, "precision": precision, "logdet": fast_logdet(precision)}
        return row_map(_log_likelihood, [X], shape=X.shape[:1], dtype=np.result_type(X.dtype, precision.dtype),
                       kwargs=kwargs, label="PCA.score_samples")

    def score(self, X, y=None):
        """The mean log-likelihood of the rows of X, computed now."""
        return float(compute_now(mt.mean(self.score_samples(X))))


class TruncatedSVD(_Projection):
    """Truncated SVD (no centering) of chunked data; ``algorithm='randomized'`` (one graph per
    power iteration) or ``'arpack'`` (computed exactly by TSQR)."""

    _parameter_constraints = skd.TruncatedSVD._parameter_constraints

    def __init__(self, n_components=2, *, algorithm="randomized", n_iter=5, n_oversamples=10,
                 power_iteration_normalizer="auto", random_state=None, tol=0.0):
        self.n_components = n_components
        self.algorithm = algorithm
        self.n_iter = n_iter
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state
        self.tol = tol

    def _mean(self):
        return 0.0

    def fit(self, X, y=None):
        self._validate_params()
        X = moments.checked_features(self, X)
        n, d = (int(s) for s in X.shape)
        k = self.n_components
        if self.algorithm not in ("randomized", "arpack"):
            raise ValueError(f"algorithm should be 'randomized' or 'arpack', got {self.algorithm!r}")
        if not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"n_components must be an int >= 1, got {k!r}")
        if (self.algorithm == "arpack" and k >= d) or k > d:
            raise ValueError(f"n_components({k}) must be <= n_features({d}).")
        X.execute()
        total, mean, scatter = moments.scatter([X], label="TruncatedSVD.fit", check_finite="TruncatedSVD").fetch()
        zero = np.zeros(d, dtype=X.dtype)
        if self.algorithm == "arpack":
            S, Vt = tsqr_svd(X, zero)
        else:
            S, Vt = randomized_svd(X, zero, k, self.n_oversamples, self.n_iter,
                                   check_random_state(self.random_state))
        Vt, _ = flip_by_rows(Vt[:k])
        cov = scatter / total  # variances (ddof 0) of the projections, from the same pass
        self.components_ = Vt
        self.singular_values_ = S[:k]
        self.explained_variance_ = np.einsum("ij,jk,ik->i", Vt, cov, Vt)
        self.explained_variance_ratio_ = self.explained_variance_ / np.trace(cov)
        self.n_features_in_ = d
        return self
