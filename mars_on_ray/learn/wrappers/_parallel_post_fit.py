"""``ParallelPostFit``: fit any scikit-learn estimator on (small) data, then predict /
transform / score lazily, row block by row block, on data of any size."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, MetaEstimatorMixin, is_classifier, is_regressor
from sklearn.metrics import check_scoring
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_map
from .._compute import compute_now
from .._convert import is_lazy, to_tensor
from .._per_block import Est

__all__ = ["ParallelPostFit"]

_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function", "transform")


def _materialise(x):
    """In-memory value of ``x`` (lazy objects are computed)."""
    return compute_now(x) if is_lazy(x) else x


def _apply(block, est, method, columns):
    if columns is not None:  # fitted with feature names: give it a frame with them
        block = pd.DataFrame(block, columns=columns)
    return getattr(est.obj if isinstance(est, Est) else est, method)(block)


def _wrapped_has(method):
    """The method exists when the wrapped estimator has it (as scikit-learn's meta-estimators:
    ``hasattr`` answers, so pipelines and scorers pick the right method)."""
    return lambda self: hasattr(self.estimator, method)


class ParallelPostFit(MetaEstimatorMixin, BaseEstimator):
    """Meta-estimator: ``fit`` is the wrapped estimator's on in-memory data; ``predict``,
    ``predict_proba``, ``predict_log_proba``, ``decision_function`` and ``transform`` run it
    on each row block of lazy or in-memory input and return lazy tensors; ``score`` is lazy."""

    def __init__(self, estimator=None, scoring=None):
        self.estimator = estimator
        self.scoring = scoring

    def fit(self, X, y=None, **kwargs):
        """Fit the wrapped estimator (lazy X / y are computed first) and copy what it learned."""
        fitted = self.estimator.fit(_materialise(X), None if y is None else _materialise(y), **kwargs)
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)  # a refit forgets what the last fit learned (feature_names_in_)
        return self._learned(fitted)

    @available_if(_wrapped_has("partial_fit"))
    def partial_fit(self, X, y=None, **kwargs):
        """The wrapped estimator's ``partial_fit`` on in-memory data."""
        fitted = self.estimator.partial_fit(_materialise(X), None if y is None else _materialise(y), **kwargs)
        return self._learned(fitted)

    def _learned(self, fitted):
        for name, value in vars(fitted).items():
            if name.endswith("_") and not name.startswith("_"):
                setattr(self, name, value)
        return self

    @property
    def _estimator_type(self):
        return getattr(self.estimator, "_estimator_type", None)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            inner = self.estimator.__sklearn_tags__()
            tags.estimator_type = inner.estimator_type
            tags.classifier_tags, tags.regressor_tags = inner.classifier_tags, inner.regressor_tags
        return tags

    def _lazy(self, method: str, X):
        est = self.estimator
        check_is_fitted(est)
        names = getattr(est, "feature_names_in_", None)
        columns = list(names) if names is not None and hasattr(X, "columns") else None
        t = to_tensor(X)
        if t.ndim == 1:
            raise ValueError("Expected 2D array, got 1D array instead: reshape your data with "
                             "X.reshape(-1, 1) or X.reshape(1, -1).")
        sample = np.zeros((1,) + tuple(t.shape[1:]), dtype=t.dtype)
        probe = np.asarray(_apply(sample, est, method, columns))  # shape / dtype; scikit-learn's errors
        return row_map(_apply, [t], shape=(t.shape[0],) + probe.shape[1:], dtype=probe.dtype,
                       kwargs={"est": Est(est), "method": method, "columns": columns},
                       label=f"ParallelPostFit.{method}")

    @available_if(_wrapped_has("predict"))
    def predict(self, X):
        """The wrapped estimator's predictions, per row block: lazy."""
        return self._lazy("predict", X)

    @available_if(_wrapped_has("predict_proba"))
    def predict_proba(self, X):
        """The wrapped estimator's class probabilities, per row block: lazy."""
        return self._lazy("predict_proba", X)

    @available_if(_wrapped_has("predict_log_proba"))
    def predict_log_proba(self, X):
        """The wrapped estimator's log probabilities, per row block: lazy."""
        return self._lazy("predict_log_proba", X)

    @available_if(_wrapped_has("decision_function"))
    def decision_function(self, X):
        """The wrapped estimator's decision function, per row block: lazy."""
        return self._lazy("decision_function", X)

    @available_if(_wrapped_has("transform"))
    def transform(self, X):
        """The wrapped estimator's transform, per row block: lazy."""
        return self._lazy("transform", X)

    def score(self, X, y, sample_weight=None):
        """The wrapped estimator's default score (accuracy / R^2) computed lazily, or
        ``scoring``'s on in-memory data."""
        if self.scoring is None and (is_classifier(self.estimator) or is_regressor(self.estimator)):
            from ..metrics import accuracy_score, r2_score

            metric = accuracy_score if is_classifier(self.estimator) else r2_score
            return metric(y, self.predict(X), sample_weight=sample_weight)
        scorer = check_scoring(self.estimator, scoring=self.scoring)
        return scorer(self.estimator, _materialise(X), _materialise(y))
