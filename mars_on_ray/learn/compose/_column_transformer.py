"""scikit-learn's ``ColumnTransformer`` taking mars DataFrames: its own bookkeeping (column
specifications, callables such as ``make_column_selector``, remainder, output indices, feature
names out) runs on the frame's empty pandas stand-in; each transformer gets its columns of the
lazy frame (``iloc``), and the outputs are stacked into one lazy tensor."""
from __future__ import annotations

import numpy as np
from sklearn import compose as _skc
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils import validation as _skv

from ... import tensor as mt
from .._convert import is_lazy, to_tensor
from .._output import LazyOutputMixin
from ..utils.validation import _names_of, validate_data

__all__ = ["ColumnTransformer", "make_column_transformer"]


def _lazy_frame(X) -> bool:
    return is_lazy(X) and getattr(X, "ndim", 0) == 2 and hasattr(X, "columns")


class _Passthrough(OneToOneFeatureMixin, LazyOutputMixin, TransformerMixin, BaseEstimator):
    """'passthrough' for a mars frame's columns: their values as a lazy tensor."""

    def fit(self, X, y=None):
        validate_data(self, X, reset=True, dtype=None, ensure_all_finite=False)
        return self

    def transform(self, X):
        return to_tensor(X)


class ColumnTransformer(_skc.ColumnTransformer):
    """scikit-learn's ``ColumnTransformer`` (same parameters and results) that also takes
    mars DataFrames; transformers' outputs are stacked into a lazy tensor (dense only)."""

    def _validate_column_callables(self, X):
        # callables and column names are resolved on the empty pandas frame with X's dtypes
        super()._validate_column_callables(X.data.meta if _lazy_frame(X) else X)

    def _validate_remainder(self, X):
        if _lazy_frame(X):  # scikit-learn reads no names from a mars frame; the remainder needs them
            _skv._check_feature_names(self, _names_of(X), reset=True)
        super()._validate_remainder(X)

    def _call_func_on_transformers(self, X, y, func, column_as_labels, routed_params):
        self._by_position = _lazy_frame(X)
        try:
            return super()._call_func_on_transformers(X, y, func, column_as_labels, routed_params)
        finally:
            del self._by_position

    def _iter(self, fitted, column_as_labels, skip_drop, skip_empty_columns):
        # scikit-learn selects a non-pandas frame's columns by position only (``iloc``)
        by_position = getattr(self, "_by_position", False)
        for name, trans, columns, weight in super()._iter(fitted, column_as_labels, skip_drop, skip_empty_columns):
            if by_position and name in self._transformer_to_input_indices:
                where = self._transformer_to_input_indices[name]
                columns = where[0] if np.isscalar(columns) else where
                trans = _Passthrough() if isinstance(trans, str) and trans == "passthrough" else trans
            yield name, trans, columns, weight

    def transform(self, X, **params):
        """Each fitted transformer on its columns, outputs stacked (lazy for lazy X)."""
        if _lazy_frame(X) and hasattr(self, "feature_names_in_"):
            # fitted on a frame: columns are taken by name, as scikit-learn does for frames
            _skv.check_is_fitted(self)
            missing = set(self.feature_names_in_) - set(X.columns)
            if missing:
                raise ValueError(f"columns are missing: {missing}")
            X = X[list(self.feature_names_in_)]
        return super().transform(X, **params)

    def _hstack(self, Xs, *, n_samples):
        if not any(is_lazy(x) for x in Xs) or self.sparse_output_:
            return super()._hstack(Xs, n_samples=n_samples)
        return mt.concatenate([to_tensor(x) for x in Xs], axis=1)


def make_column_transformer(*transformers, remainder="drop", sparse_threshold=0.3, n_jobs=None, verbose=False,
                            verbose_feature_names_out=True):
    """A ColumnTransformer from (transformer, columns) tuples, named as scikit-learn names them."""
    sk = _skc.make_column_transformer(*transformers, remainder=remainder, sparse_threshold=sparse_threshold,
                                      n_jobs=n_jobs, verbose=verbose,
                                      verbose_feature_names_out=verbose_feature_names_out)
    return ColumnTransformer(**sk.get_params(deep=False))
