"""``OneHotEncoder`` and ``OrdinalEncoder``.

Fitting merges per-block distinct values of every column by a tree, then fits scikit-learn's
own encoder on a tiny frame holding just those values (each column padded by repeating its
last value), so categories, drop indices, checks and errors are scikit-learn's; transforms
run that encoder row block by row block. Frames are taken column by column so each column
keeps its dtype and name.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn import preprocessing as skp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._encode import _unique
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_map, row_reduce
from .._compute import as_lazy, compute_now
from .._convert import is_lazy, to_tensor
from .._output import LazyOutputMixin
from .._per_block import Est
from ..utils.validation import check_array, check_feature_names

__all__ = ["OneHotEncoder", "OrdinalEncoder"]


class _Layout:
    """How X's columns reach a block kernel: one 2-D block, or one 1-D block per frame column
    (``names`` / ``dtypes`` to rebuild the pandas frame scikit-learn would have seen)."""

    def __init__(self, names=None, dtypes=None):
        self.names, self.dtypes = names, dtypes

    def columns(self, blocks):
        if self.names is None:
            return [blocks[0][:, j] for j in range(blocks[0].shape[1])]
        return list(blocks)

    def frame(self, blocks):
        if self.names is None:
            return blocks[0]
        return pd.DataFrame({n: pd.Series(b, dtype=d) for n, b, d in zip(self.names, blocks, self.dtypes)})

    def __mars_token__(self):
        return ("learn.encoder.layout", self.names, None if self.dtypes is None else [str(d) for d in self.dtypes])


def _split(X):
    """(row-aligned tensors, layout) of X: frames column by column, arrays as one 2-D tensor."""
    if isinstance(X, pd.DataFrame) or (is_lazy(X) and hasattr(X, "dtypes") and getattr(X, "ndim", 2) == 2):
        frame = as_lazy(X)
        names = list(frame.columns)
        return [to_tensor(frame[n]) for n in names], _Layout(names, list(frame.dtypes))
    t = check_array(X, dtype=None, ensure_all_finite="allow-nan")
    return [t], _Layout()


def _distinct(*blocks, layout):
    return [_unique(c) for c in layout.columns(blocks)]


def _union(parts):
    return [_unique(np.concatenate([p[j] for p in parts])) for j in range(len(parts[0]))]


def _identity(x):
    return x


def _encode(*blocks, layout, est, method):
    return getattr(est.obj, method)(layout.frame(blocks))


class _Encoder(LazyOutputMixin, TransformerMixin, BaseEstimator):
    _sk_class = None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags = self._sk_class().__sklearn_tags__().input_tags  # strings, NaN: as scikit-learn's
        return tags

    def _sk_params(self):
        if self.min_frequency is not None or self.max_categories is not None:
            raise NotImplementedError("min_frequency / max_categories (infrequent categories) are not supported "
                                      f"by mars_on_ray's {type(self).__name__}")
        return self.get_params()

    def fit(self, X, y=None):
        """Find each column's categories (its sorted distinct values, unless given)."""
        self._validate_params()
        sk = self._sk_class(**self._sk_params())
        rows, layout = _split(X)
        n = rows[0].shape[0]
        if n == n and n == 0:
            sk.fit(np.empty((0, len(layout.names or [0]))))  # scikit-learn's error for no rows
        values = compute_now(row_reduce(_distinct, _union, _identity, rows, dtype=object,
                                        kwargs={"layout": layout}, label=f"{type(self).__name__}.fit"))
        # a few rows holding every distinct value: scikit-learn's fit on them is its fit on X
        width = max(len(v) for v in values)
        padded = [np.concatenate([v, np.repeat(v[-1:], width - len(v))]) for v in values]
        sample = layout.frame(padded) if layout.names is not None else \
            np.column_stack(padded).astype(rows[0].dtype)
        sk.fit(sample)
        for name in ("categories_", "drop_idx_", "n_features_in_", "feature_names_in_"):
            self.__dict__.pop(name, None)
            if hasattr(sk, name):
                setattr(self, name, getattr(sk, name))
        self._sk = sk
        return self

    def _run(self, X, method, width, dtype):
        check_is_fitted(self)
        rows, layout = _split(X)
        n_in = len(layout.names) if layout.names is not None else int(rows[0].shape[1])
        if method == "transform":
            check_feature_names(self, X)
        if method == "transform" and n_in != self.n_features_in_:
            raise ValueError(f"X has {n_in} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input.")
        return row_map(_encode, rows, shape=(rows[0].shape[0], width), dtype=dtype,
                       kwargs={"layout": layout, "est": Est(self._sk), "method": method},
                       label=f"{type(self).__name__}.{method}")

    def transform(self, X):
        """Lazy encoded X (unknown categories as ``handle_unknown`` says, when run)."""
        check_is_fitted(self)
        return self._run(X, "transform", len(self._sk.get_feature_names_out()), np.dtype(self.dtype))

    def inverse_transform(self, X):
        """Lazy categories of encoded X."""
        check_is_fitted(self)
        X = check_array(X, dtype=None, ensure_all_finite="allow-nan")
        dtype = np.result_type(*[c.dtype for c in self.categories_])
        return self._run(X, "inverse_transform", self.n_features_in_, dtype)

    def get_feature_names_out(self, input_features=None):
        """Output feature names, as scikit-learn's."""
        check_is_fitted(self)
        return self._sk.get_feature_names_out(input_features)


class OneHotEncoder(_Encoder):
    """One indicator column per category, as scikit-learn's ``OneHotEncoder``; dense output
    only (``sparse_output=False`` is the default here; True raises NotImplementedError)."""

    _parameter_constraints = skp.OneHotEncoder._parameter_constraints

    _sk_class = skp.OneHotEncoder

    def __init__(self, *, categories="auto", drop=None, sparse_output=False, dtype=np.float64,
                 handle_unknown="error", min_frequency=None, max_categories=None, feature_name_combiner="concat"):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.min_frequency = min_frequency
        self.max_categories = max_categories
        self.feature_name_combiner = feature_name_combiner

    def _sk_params(self):
        if self.sparse_output:
            raise NotImplementedError("OneHotEncoder(sparse_output=True): mars_on_ray gives dense output only; "
                                      "pass sparse_output=False")
        return super()._sk_params()


class OrdinalEncoder(_Encoder):
    """Each category as an integer code (in a float column), as scikit-learn's ``OrdinalEncoder``."""

    _parameter_constraints = skp.OrdinalEncoder._parameter_constraints

    _sk_class = skp.OrdinalEncoder

    def __init__(self, *, categories="auto", dtype=np.float64, handle_unknown="error", unknown_value=None,
                 encoded_missing_value=np.nan, min_frequency=None, max_categories=None):
        self.categories = categories
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.unknown_value = unknown_value
        self.encoded_missing_value = encoded_missing_value
        self.min_frequency = min_frequency
        self.max_categories = max_categories
