"""``PolynomialFeatures``: scikit-learn's own transformer, fitted on one row of zeros (it
learns only the number of features) and applied row block by row block."""
from __future__ import annotations

import numpy as np
from sklearn import preprocessing as skp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._output import LazyOutputMixin
from .._per_block import per_block
from ..utils.validation import validate_data

__all__ = ["PolynomialFeatures"]


class PolynomialFeatures(LazyOutputMixin, TransformerMixin, BaseEstimator):
    """Polynomial and interaction features, as scikit-learn's ``PolynomialFeatures`` (dense)."""

    _parameter_constraints = skp.PolynomialFeatures._parameter_constraints

    def __init__(self, degree=2, *, interaction_only=False, include_bias=True, order="C"):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias
        self.order = order

    def fit(self, X, y=None):
        """Compute the output powers from the number of features."""
        self._validate_params()
        t = validate_data(self, X, reset=True)
        sk = skp.PolynomialFeatures(**self.get_params()).fit(np.zeros((1, t.shape[1]), t.dtype))
        self.n_features_in_, self.n_output_features_ = sk.n_features_in_, sk.n_output_features_
        self._min_degree, self._max_degree = sk._min_degree, sk._max_degree
        self._sk = sk
        return self

    @property
    def powers_(self):
        """The exponent of each input feature in each output feature."""
        check_is_fitted(self)
        return self._sk.powers_

    def get_feature_names_out(self, input_features=None):
        """Output feature names, as scikit-learn's."""
        check_is_fitted(self)
        if input_features is None:
            input_features = getattr(self, "feature_names_in_", None)
        return self._sk.get_feature_names_out(input_features)

    def transform(self, X):
        """Lazy polynomial features of X, computed per row block."""
        check_is_fitted(self)
        t = validate_data(self, X, reset=False)
        return per_block(self._sk, "transform", t, label="PolynomialFeatures.transform")
