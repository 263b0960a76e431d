"""``StandardScaler``, ``MaxAbsScaler``, ``RobustScaler``, ``Binarizer`` and their functions.

Fitting reduces the data to small per-column statistics (a tree of per-block partials, or the
tensor's exact quantiles for ``RobustScaler``) and sets them on scikit-learn's own scaler;
transforming applies that scaler row block by row block.
"""
from __future__ import annotations

import numpy as np
from scipy import stats
from sklearn import preprocessing as skp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ... import tensor as mt
from ...tensor.selection import _quantile
from .._blocks import row_map, row_reduce
from .._compute import compute_now
from .._output import LazyOutputMixin
from .._per_block import per_block
from ..utils.validation import check_array, check_sample_weight, validate_data
from ._data import _FLOATS, _identity, check_inverse_input, fit_transform_along

__all__ = ["StandardScaler", "scale", "MaxAbsScaler", "maxabs_scale", "RobustScaler", "robust_scale",
           "Binarizer", "binarize"]


def _handle_zeros(scale, constant=None):
    scale = np.array(scale, dtype=np.float64, copy=True) if np.ndim(scale) else np.float64(scale)
    zero = scale < 10 * np.finfo(scale.dtype).eps if constant is None else constant
    if np.ndim(scale):
        scale[zero] = 1.0
    return scale


class _Fitted(OneToOneFeatureMixin, LazyOutputMixin, TransformerMixin, BaseEstimator):
    """Shared by the scalers: ``_sk`` (scikit-learn's fitted object) applied per row block."""

    _attrs: tuple = ()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # NaNs are ignored in fit and kept in transform
        return tags

    def _validate(self, X, reset):
        return validate_data(self, X, reset=reset, dtype=_FLOATS, ensure_all_finite="allow-nan")

    def _publish(self, sk):
        sk.n_features_in_ = self.n_features_in_
        for name in self._attrs:
            setattr(sk, name, getattr(self, name))
        self._sk = sk

    def _apply(self, method, X):
        check_is_fitted(self)
        t = self._validate(X, reset=False) if method == "transform" else check_inverse_input(self, X)
        return per_block(self._sk, method, t, rest_shape=t.shape[1:], dtype=t.dtype,
                         label=f"{type(self).__name__}.{method}")

    def transform(self, X, copy=None):
        """Lazy transformed X."""
        return self._apply("transform", X)

    def inverse_transform(self, X, copy=None):
        """Lazy X mapped back to the original scale."""
        return self._apply("inverse_transform", X)


def _moments(block, *w):
    """Per column (weight of non-NaN values, their mean, centered sum of squares) of a block,
    by scikit-learn's two-pass formula (``_incremental_mean_and_var``)."""
    present = ~np.isnan(block)
    if w:
        weights = np.asarray(w[0], np.float64)[:, None]
        count = (present * weights).sum(axis=0)
        total = np.nansum(block * weights, axis=0)
    else:
        weights, count, total = 1.0, present.sum(axis=0).astype(np.float64), np.nansum(block, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / count
        centered = block - mean
        correction = np.nansum(centered * weights, axis=0)
        m2 = np.nansum(centered ** 2 * weights, axis=0) - correction ** 2 / count
    return count, mean, m2


def _merge_moments(parts):
    n, mean, m2 = parts[0]
    for nb, mb, sb in parts[1:]:
        total = n + nb
        with np.errstate(invalid="ignore", divide="ignore"):
            delta = mb - mean
            new_mean = np.where(nb == 0, mean, np.where(n == 0, mb, mean + delta * (nb / total)))
            new_m2 = np.where(nb == 0, m2, np.where(n == 0, sb, m2 + sb + delta ** 2 * (n * nb / total)))
        n, mean, m2 = total, new_mean, new_m2
    return n, mean, m2


class StandardScaler(_Fitted):
    """Remove the mean and scale to unit variance, as scikit-learn's ``StandardScaler``
    (NaNs ignored in fit and kept in transform; ``sample_weight`` in fit)."""

    _parameter_constraints = skp.StandardScaler._parameter_constraints

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    _attrs = ("mean_", "var_", "scale_", "n_samples_seen_")

    def fit(self, X, y=None, sample_weight=None):
        """Compute the mean and variance of each feature (NaNs ignored)."""
        for name in ("n_samples_seen_", "mean_", "var_", "scale_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y=None, sample_weight=None):
        """Update the mean and variance with the rows of X (one pass over them)."""
        self._validate_params()
        first = not hasattr(self, "n_samples_seen_")
        t = self._validate(X, reset=first)
        weights = [] if sample_weight is None else [check_sample_weight(sample_weight, t, dtype=_FLOATS)]
        neither = not self.with_mean and not self.with_std  # scikit-learn then counts rows, unweighted
        count, mean, m2 = compute_now(row_reduce(_moments, _merge_moments, _identity,
                                                 [t] if neither else [t, *weights], dtype=object,
                                                 label="StandardScaler.fit"))
        if not first:  # merge with what was seen before (Chan's formula, like scikit-learn's)
            seen = np.broadcast_to(self.n_samples_seen_, count.shape).astype(np.float64)
            last_mean = self.mean_ if self.mean_ is not None else 0.0
            last_m2 = self.var_ * seen if self.var_ is not None else 0.0
            count, mean, m2 = _merge_moments([(seen, np.broadcast_to(last_mean, count.shape), last_m2),
                                              (count, mean, m2)])
        seen = count.astype(t.dtype if weights else np.int64) if neither else count
        self.n_samples_seen_ = seen[0] if seen.max() == seen.min() else seen
        if neither:
            self.mean_ = self.var_ = self.scale_ = None
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                self.mean_, self.var_ = mean.astype(np.float64), (m2 / count).astype(np.float64)
            if self.with_std:
                eps = np.finfo(np.float64).eps
                n = self.n_samples_seen_
                constant = self.var_ <= n * eps * self.var_ + (n * self.mean_ * eps) ** 2
                self.scale_ = _handle_zeros(np.sqrt(self.var_), constant)
            else:
                self.var_, self.scale_ = None, None
        self._publish(skp.StandardScaler(copy=True, with_mean=self.with_mean, with_std=self.with_std))
        return self


def scale(X, *, axis=0, with_mean=True, with_std=True, copy=True):
    """Standardize each feature (``axis=0``) or sample (``axis=1``); lazy."""
    t = check_array(X, ensure_2d=False, dtype=_FLOATS, ensure_all_finite="allow-nan",
                    estimator="the scale function", input_name="X")
    return fit_transform_along(StandardScaler(with_mean=with_mean, with_std=with_std), t, axis)


def _max_abs(block):
    if len(block) == 0:
        return None
    return np.fmax.reduce(np.abs(block), axis=0), len(block)


def _merge_max_abs(parts):
    parts = [p for p in parts if p is not None]
    return (np.fmax.reduce([p[0] for p in parts]), sum(p[1] for p in parts)) if parts else None


class MaxAbsScaler(_Fitted):
    """Scale each feature by its maximum absolute value, as scikit-learn's ``MaxAbsScaler``."""

    _parameter_constraints = skp.MaxAbsScaler._parameter_constraints

    def __init__(self, *, copy=True, clip=False):
        self.copy = copy
        self.clip = clip

    _attrs = ("max_abs_", "scale_", "n_samples_seen_")

    def fit(self, X, y=None):
        """Compute the maximum absolute value of each feature."""
        self._validate_params()
        for name in ("n_samples_seen_", "max_abs_", "scale_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y=None):
        """Update the maxima with the rows of X."""
        self._validate_params()
        first = not hasattr(self, "n_samples_seen_")
        t = self._validate(X, reset=first)
        sk = skp.MaxAbsScaler(copy=True, clip=self.clip)
        got = compute_now(row_reduce(_max_abs, _merge_max_abs, _identity, [t], dtype=object,
                                     label="MaxAbsScaler.fit"))
        if got is None:
            raise ValueError(f"Found array with 0 sample(s) (shape=(0, {t.shape[1]})) while a minimum of 1 is "
                             "required by MaxAbsScaler.")
        peak, n = got
        if not first:
            peak = np.fmax(peak, self.max_abs_)
        sk.fit(peak[None, :].astype(t.dtype))  # scikit-learn's formulas on the same maxima
        self.max_abs_, self.scale_ = sk.max_abs_, sk.scale_
        self.n_samples_seen_ = n + (0 if first else self.n_samples_seen_)
        self._publish(sk)
        return self


def maxabs_scale(X, *, axis=0, copy=True):
    """Each feature (``axis=0``) or sample (``axis=1``) scaled to [-1, 1]; lazy."""
    t = check_array(X, ensure_2d=False, dtype=_FLOATS, ensure_all_finite="allow-nan")
    return fit_transform_along(MaxAbsScaler(), t, axis)


class RobustScaler(_Fitted):
    """Center by the median and scale by a quantile range, as scikit-learn's ``RobustScaler``
    (exact quantiles of each column's non-NaN values, by the tensor's selection)."""

    _parameter_constraints = skp.RobustScaler._parameter_constraints

    def __init__(self, *, with_centering=True, with_scaling=True, quantile_range=(25.0, 75.0), copy=True,
                 unit_variance=False):
        self.with_centering = with_centering
        self.with_scaling = with_scaling
        self.quantile_range = quantile_range
        self.copy = copy
        self.unit_variance = unit_variance

    _attrs = ("center_", "scale_")

    def fit(self, X, y=None):
        """Compute each feature's median and quantile range."""
        self._validate_params()
        t = self._validate(X, reset=True)
        q_min, q_max = self.quantile_range
        if not 0 <= q_min <= q_max <= 100:
            raise ValueError("Invalid quantile range: %s" % str(self.quantile_range))
        columns = []
        for j in range(t.shape[1]):  # each column's non-NaN values: their exact median / percentiles
            col = t[:, j]
            col = col[~mt.isnan(col)]
            parts = [mt.median(col).reshape(1)] if self.with_centering else []  # np.median: mean of two
            # an all-NaN column has no values: NaN quantiles, as np.nanpercentile
            parts += [_quantile("percentile", col, list(self.quantile_range), None, "linear", False, None,
                                empty_nan=True)] if self.with_scaling else []
            columns.append(mt.concatenate(parts) if parts else None)
        values = compute_now(mt.stack(columns, axis=1)) if columns[0] is not None else None
        self.center_ = values[0].astype(t.dtype) if self.with_centering else None
        if self.with_scaling:
            lo, hi = values[-2], values[-1]
            self.scale_ = _handle_zeros(hi - lo).astype(t.dtype)
            if self.unit_variance:
                self.scale_ = self.scale_ / (stats.norm.ppf(q_max / 100.0) - stats.norm.ppf(q_min / 100.0))
        else:
            self.scale_ = None
        self._publish(skp.RobustScaler(with_centering=self.with_centering, with_scaling=self.with_scaling,
                                       quantile_range=self.quantile_range, unit_variance=self.unit_variance))
        return self


def robust_scale(X, *, axis=0, with_centering=True, with_scaling=True, quantile_range=(25.0, 75.0), copy=True,
                 unit_variance=False):
    """Center by the median and scale by the quantile range along ``axis``; lazy."""
    t = check_array(X, ensure_2d=False, dtype=_FLOATS, ensure_all_finite="allow-nan")
    scaler = RobustScaler(with_centering=with_centering, with_scaling=with_scaling,
                          quantile_range=quantile_range, unit_variance=unit_variance)
    return fit_transform_along(scaler, t, axis)


def _binarize_block(block, threshold):
    return skp.binarize(block, threshold=threshold)


class Binarizer(OneToOneFeatureMixin, LazyOutputMixin, TransformerMixin, BaseEstimator):
    """Values above ``threshold`` to 1, the others to 0, as scikit-learn's ``Binarizer``."""

    _parameter_constraints = skp.Binarizer._parameter_constraints

    def __init__(self, *, threshold=0.0, copy=True):
        self.threshold = threshold
        self.copy = copy

    def fit(self, X, y=None):
        """Validate X (nothing is learned)."""
        self._validate_params()
        validate_data(self, X, reset=True)
        return self

    def transform(self, X, copy=None):
        """Lazy binarized X."""
        check_is_fitted(self)
        t = validate_data(self, X, reset=False)
        return binarize(t, threshold=self.threshold)


def binarize(X, *, threshold=0.0, copy=True):
    """Lazy X with values above ``threshold`` set to 1 and the others to 0."""
    t = check_array(X)
    return row_map(_binarize_block, [t], shape=t.shape, dtype=t.dtype, kwargs={"threshold": threshold},
                   label="binarize")
