"""``MinMaxScaler`` / ``minmax_scale`` and ``normalize``.

Fitting reduces the data to per-column minima and maxima (a tree over row blocks) and builds
scikit-learn's own fitted scaler from them; transforming applies that scaler block by block,
so fitted attributes and results are scikit-learn's exactly.
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn import preprocessing as skp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin

from .._blocks import row_map, row_reduce
from .._compute import compute_now
from .._output import LazyOutputMixin
from .._per_block import per_block
from ..utils.validation import check_array, validate_data

__all__ = ["MinMaxScaler", "minmax_scale", "normalize"]

_FLOATS = (np.float64, np.float32, np.float16)


def _min_max(block):
    if len(block) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column: NaN, like the whole
        return np.nanmin(block, axis=0), np.nanmax(block, axis=0), len(block)


def _merge_min_max(parts):
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    lo, hi, n = parts[0]
    for p in parts[1:]:
        lo, hi, n = np.fmin(lo, p[0]), np.fmax(hi, p[1]), n + p[2]
    return lo, hi, n


def _identity(x):
    return x


def check_inverse_input(est, X):
    """X for ``inverse_transform``: scikit-learn checks the array and its number of columns,
    not feature names (X is usually an earlier transform's output)."""
    t = check_array(X, dtype=_FLOATS, ensure_all_finite="allow-nan")
    if t.shape[1] != est.n_features_in_:
        raise ValueError(f"X has {t.shape[1]} features, but {type(est).__name__} is expecting "
                         f"{est.n_features_in_} features as input.")
    return t


class MinMaxScaler(OneToOneFeatureMixin, LazyOutputMixin, TransformerMixin, BaseEstimator):
    """Scale each feature to ``feature_range``, as scikit-learn's ``MinMaxScaler``."""

    _parameter_constraints = skp.MinMaxScaler._parameter_constraints

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # NaNs are ignored in fit and kept in transform
        return tags

    def _sk(self):
        return skp.MinMaxScaler(feature_range=self.feature_range, copy=True, clip=self.clip)

    def fit(self, X, y=None):
        """Compute the per-feature minimum and maximum."""
        for name in ("_fitted", "n_samples_seen_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y=None):
        """Update the per-feature minimum and maximum with the rows of ``X``."""
        self._validate_params()
        sk = getattr(self, "_fitted", None)
        t = validate_data(self, X, reset=sk is None, dtype=_FLOATS, ensure_all_finite="allow-nan")
        self._sk().fit(np.zeros((1, t.shape[1]), t.dtype))  # scikit-learn's parameter checks, now
        lo, hi, n = compute_now(row_reduce(_min_max, _merge_min_max, _identity, [t], dtype=object,
                                           label="MinMaxScaler.fit"))
        seen = 0 if sk is None else sk.n_samples_seen_
        sk = self._sk() if sk is None else sk
        sk.partial_fit(np.vstack([lo, hi]).astype(t.dtype))  # the same formulas on the same extremes
        sk.n_samples_seen_ = seen + n
        self._fitted = sk
        for name in ("min_", "scale_", "data_min_", "data_max_", "data_range_", "n_features_in_",
                     "n_samples_seen_"):
            setattr(self, name, getattr(sk, name))
        return self

    def transform(self, X):
        """Lazy scaled X."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        t = validate_data(self, X, reset=False, dtype=_FLOATS, ensure_all_finite="allow-nan")
        return per_block(self._fitted, "transform", t, rest_shape=t.shape[1:], dtype=t.dtype,
                         label="MinMaxScaler.transform")

    def inverse_transform(self, X):
        """Lazy X mapped back to the original range."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        t = check_inverse_input(self, X)
        return per_block(self._fitted, "inverse_transform", t, rest_shape=t.shape[1:], dtype=t.dtype,
                         label="MinMaxScaler.inverse_transform")


def minmax_scale(X, feature_range=(0, 1), *, axis=0, copy=True):
    """Each feature (``axis=0``) or sample (``axis=1``) scaled to ``feature_range``; lazy."""
    t = check_array(X, copy=False, ensure_2d=False, dtype=_FLOATS, ensure_all_finite="allow-nan")
    if t.ndim not in (1, 2):
        raise ValueError("Found array with dim %d. None expected <= 2." % t.ndim)
    return fit_transform_along(MinMaxScaler(feature_range=feature_range, copy=copy), t, axis)


def fit_transform_along(scaler, t, axis):
    """``scaler`` fitted and applied per feature (``axis=0``) or per sample (``axis=1``);
    a 1-d ``t`` is one feature."""
    one_d = t.ndim == 1
    if one_d:
        t = t.reshape(-1, 1)
    out = scaler.fit_transform(t) if axis == 0 else scaler.fit_transform(t.T).T
    return out.ravel() if one_d else out


def _normalize_rows(block, norm):
    return skp.normalize(block, norm=norm, axis=1)


def _row_norms(block, norm):
    return skp.normalize(block, norm=norm, axis=1, return_norm=True)[1]


def _column_sums(block, norm):
    if norm == "l1":
        return np.abs(block).sum(axis=0)
    if norm == "l2":
        return (block * block).sum(axis=0)
    return np.abs(block).max(axis=0, initial=0)


def _add_or_max(parts, norm):
    return np.maximum.reduce(parts) if norm == "max" else np.add.reduce(parts)


def _norms(total, norm):
    norms = np.sqrt(total) if norm == "l2" else total
    norms[norms < 10 * np.finfo(norms.dtype).eps] = 1.0  # as scikit-learn: zero norms divide by 1
    return norms


def _divide(block, norms):
    return block / norms


class _Bound:
    """A module function with some keyword arguments bound (picklable, tokenisable)."""

    def __init__(self, func, **kwargs):
        self.func, self.kwargs = func, kwargs

    def __call__(self, *args):
        return self.func(*args, **self.kwargs)

    def __mars_token__(self):
        return ("learn.bound", self.func, self.kwargs)


def normalize(X, norm="l2", *, axis=1, copy=True, return_norm=False):
    """Rows (``axis=1``) or columns (``axis=0``) scaled to unit norm; lazy."""
    if norm not in ("l1", "l2", "max"):
        raise ValueError("'%s' is not a supported norm" % norm)
    if axis not in (0, 1):
        raise ValueError("'%d' is not a supported axis" % axis)
    t = check_array(X, dtype=_FLOATS)
    if axis == 1:
        out = row_map(_normalize_rows, [t], shape=t.shape, dtype=t.dtype, kwargs={"norm": norm},
                      label="normalize")
        if not return_norm:
            return out
        norms = row_map(_row_norms, [t], shape=t.shape[:1], dtype=t.dtype, kwargs={"norm": norm},
                        label="normalize")
        return out, norms
    norms = row_reduce(_column_sums, _Bound(_add_or_max, norm=norm), _Bound(_norms, norm=norm), [t],
                       shape=t.shape[1:], dtype=t.dtype, kwargs={"norm": norm}, label="normalize")
    out = row_map(_divide, [t], [norms], shape=t.shape, dtype=t.dtype, label="normalize")
    return (out, norms) if return_norm else out
