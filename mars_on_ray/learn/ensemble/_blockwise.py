"""BlockwiseVotingClassifier / BlockwiseVotingRegressor: one clone fitted per row block (in
parallel, where the block lives); predictions vote or average across the clones."""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_map
from ..utils.validation import check_array, check_consistent_length, column_or_1d, require_y, validate_data
from ._fitting import fit_per_block


def _votes(X, *, estimators, classes, soft):
    """(n, n_classes) summed probabilities (soft) or vote counts (hard)."""
    out = np.zeros((len(X), len(classes)))
    for est in estimators:
        cols = np.searchsorted(classes, est.classes_)
        if soft:
            out[:, cols] += est.predict_proba(X)
        else:
            out[np.arange(len(X)), np.searchsorted(classes, est.predict(X))] += 1
    return out / len(estimators)


def _argmax_classes(P, *, classes):
    return classes[P.argmax(1)]


def _mean_prediction(X, *, estimators):
    return sum(est.predict(X) for est in estimators) / len(estimators)


class _Blockwise(BaseEstimator):
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = get_tags(self.estimator).input_tags.allow_nan
        return tags

    def _fit_blocks(self, X, y, fit_params):
        X = validate_data(self, X, reset=True, dtype=None, ensure_all_finite=False)
        y = check_array(y, ensure_2d=False, dtype=None, input_name="y")
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        self.estimators_ = fit_per_block(X, y, self.estimator, fit_params)
        self.n_features_in_ = int(X.shape[1])
        return X, y

    def _checked(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, dtype=None, ensure_all_finite=False)


def _soft(self):
    if self.voting == "hard":
        raise AttributeError(f"predict_proba is not available when voting={self.voting!r}")
    return True


class BlockwiseVotingClassifier(ClassifierMixin, _Blockwise):
    """Fit ``estimator`` on every row block; ``voting='hard'`` takes the most common
    prediction (the smallest class on ties), ``'soft'`` the largest mean probability."""

    _parameter_constraints = {"estimator": [HasMethods(["fit", "predict"])], "voting": [StrOptions({"hard", "soft"})],
                              "classes": ["array-like", None]}

    def __init__(self, estimator, voting="hard", classes=None):
        self.estimator = estimator
        self.voting = voting
        self.classes = classes

    def fit(self, X, y, **fit_params):
        self._validate_params()
        require_y(self, y)
        if self.voting not in ("hard", "soft"):
            raise ValueError(f"Voting must be 'soft' or 'hard'; got (voting={self.voting!r})")
        X, y = self._fit_blocks(X, y, fit_params)
        self.classes_ = np.unique(np.asarray(y.fetch())) if self.classes is None else np.asarray(self.classes)
        return self

    def _scores(self, X, soft):
        X = self._checked(X)
        return row_map(_votes, [X], shape=(X.shape[0], len(self.classes_)), dtype=float,
                       kwargs={"estimators": self.estimators_, "classes": self.classes_, "soft": soft},
                       label="BlockwiseVotingClassifier.predict")

    @available_if(_soft)
    def predict_proba(self, X):
        """Mean probabilities across the block estimators (soft voting only): lazy."""
        return self._scores(X, True)

    def predict(self, X):
        P = self._scores(X, self.voting == "soft")
        return row_map(_argmax_classes, [P], shape=P.shape[:1], dtype=self.classes_.dtype,
                       kwargs={"classes": self.classes_}, label="BlockwiseVotingClassifier.predict")


class BlockwiseVotingRegressor(RegressorMixin, _Blockwise):
    """Fit ``estimator`` on every row block; predictions are the mean across the blocks."""

    _parameter_constraints = {"estimator": [HasMethods(["fit", "predict"])]}

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y, **fit_params):
        self._validate_params()
        require_y(self, y)
        self._fit_blocks(X, y, fit_params)
        return self

    def predict(self, X):
        X = self._checked(X)
        return row_map(_mean_prediction, [X], shape=X.shape[:1], dtype=float,
                       kwargs={"estimators": self.estimators_}, label="BlockwiseVotingRegressor.predict")
