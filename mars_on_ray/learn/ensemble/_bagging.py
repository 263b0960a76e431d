"""BaggingClassifier / BaggingRegressor: each estimator fits in its own task on rows drawn
from the whole chunked data; predictions are averaged block by block."""
from __future__ import annotations

import numbers

import numpy as np
from sklearn import ensemble as _ske
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import check_random_state, get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_map
from ..utils.validation import (check_array, check_consistent_length, column_or_1d, require_y, validate_data,
                                with_known_rows)
from ._fitting import fit_on_draws

MAX_INT = np.iinfo(np.int32).max


def _count(value, total, name):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        if not 1 <= value <= total:
            raise ValueError(f"{name} must be in (0, {total}], got {value}")
        return int(value)
    if isinstance(value, numbers.Real) and 0 < value <= 1:
        return max(1, int(value * total))
    raise ValueError(f"{name} must be an int in [1, {total}] or a float in (0, 1], got {value!r}")


def _with_seed(estimator, seed):
    params = {k: seed for k in estimator.get_params(deep=True) if k == "random_state" or k.endswith("__random_state")}
    return estimator.set_params(**params) if params else estimator


class _BaseBagging(BaseEstimator):
    def __init__(self, estimator=None, n_estimators=10, *, max_samples=1.0, max_features=1.0,
                 bootstrap=True, bootstrap_features=False, oob_score=False, warm_start=False,
                 n_jobs=None, random_state=None, verbose=0):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.oob_score = oob_score
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = get_tags(self._base()).input_tags.allow_nan
        return tags

    def _draws(self, rs, n, d):
        """Per estimator: (feature indices, row indices) as scikit-learn draws them."""
        n_rows = _count(self.max_samples, n, "max_samples")
        n_feats = _count(self.max_features, d, "max_features")
        draws = []
        for seed in rs.randint(MAX_INT, size=self.n_estimators):
            r = np.random.RandomState(seed)
            feats = r.randint(0, d, n_feats) if self.bootstrap_features else \
                np.sort(r.permutation(d)[:n_feats]) if n_feats < d else np.arange(d)
            rows = r.randint(0, n, n_rows) if self.bootstrap else r.permutation(n)[:n_rows]
            draws.append((feats, rows, int(seed)))
        return draws

    def _fit(self, X, y, fit_params):
        if not isinstance(self.n_estimators, numbers.Integral) or self.n_estimators < 1:
            raise ValueError(f"n_estimators must be an integer >= 1, got {self.n_estimators!r}")
        if self.oob_score:
            raise NotImplementedError("oob_score is not supported for chunked data")
        n, d = (int(s) for s in X.shape)
        draws = self._draws(check_random_state(self.random_state), n, d)
        self.estimator_ = base = self._base()
        models = [_with_seed(clone(base), seed) for _, _, seed in draws]
        self.estimators_ = fit_on_draws(X, y, [(f, r) for f, r, _ in draws], models, fit_params)
        self.estimators_features_ = [f for f, _, _ in draws]
        self.estimators_samples_ = [r for _, r, _ in draws]
        self.n_features_in_ = d
        return self

    def _checked(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, dtype=None, ensure_all_finite=False)


def _proba_block(X, *, estimators, features, n_classes):
    """Mean class probabilities (votes when an estimator has no predict_proba)."""
    proba = np.zeros((len(X), n_classes))
    for est, feats in zip(estimators, features):
        part = X[:, feats]
        if hasattr(est, "predict_proba"):
            proba[:, est.classes_.astype(int)] += est.predict_proba(part)
        else:
            proba[np.arange(len(X)), est.predict(part).astype(int)] += 1
    return proba / len(estimators)


def _log_block(P):
    with np.errstate(divide="ignore"):  # a class no estimator gives: -inf, as scikit-learn's
        return np.log(P)


def _classes_block(P, *, classes):
    return classes[P.argmax(1)]


def _mean_prediction(X, *, estimators, features):
    return sum(est.predict(X[:, f]) for est, f in zip(estimators, features)) / len(estimators)


class BaggingClassifier(ClassifierMixin, _BaseBagging):
    """A bagging classifier over chunked data (scikit-learn's API): each estimator is fitted
    in its own task on rows drawn from all chunks; ``predict_proba`` averages them."""

    _parameter_constraints = _ske.BaggingClassifier._parameter_constraints

    def _base(self):
        return self.estimator if self.estimator is not None else DecisionTreeClassifier()

    def fit(self, X, y, **fit_params):
        self._validate_params()
        require_y(self, y)
        X = with_known_rows(validate_data(self, X, reset=True, dtype=None, ensure_all_finite=False))
        y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        values = np.asarray(y.fetch())
        check_classification_targets(values)
        self.classes_, encoded = np.unique(values, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        from ...tensor.datasource import tensor

        return self._fit(X, tensor(encoded.reshape(-1)), fit_params)

    def predict_proba(self, X):
        """Mean class probabilities of each row: a lazy tensor."""
        X = self._checked(X)
        return row_map(_proba_block, [X], shape=(X.shape[0], self.n_classes_), dtype=float,
                       kwargs={"estimators": self.estimators_, "features": self.estimators_features_,
                               "n_classes": self.n_classes_}, label="BaggingClassifier.predict_proba")

    def predict_log_proba(self, X):
        """Log of the mean class probabilities of each row: a lazy tensor."""
        P = self.predict_proba(X)
        return row_map(_log_block, [P], shape=P.shape, dtype=P.dtype, label="BaggingClassifier.predict_log_proba")

    def predict(self, X):
        """The class of largest mean probability of each row: a lazy tensor."""
        P = self.predict_proba(X)
        return row_map(_classes_block, [P], shape=P.shape[:1], dtype=self.classes_.dtype,
                       kwargs={"classes": self.classes_}, label="BaggingClassifier.predict")


class BaggingRegressor(RegressorMixin, _BaseBagging):
    """A bagging regressor over chunked data (scikit-learn's API): predictions are the mean of
    the estimators' predictions."""

    _parameter_constraints = _ske.BaggingRegressor._parameter_constraints

    def _base(self):
        return self.estimator if self.estimator is not None else DecisionTreeRegressor()

    def fit(self, X, y, **fit_params):
        self._validate_params()
        require_y(self, y)
        X = with_known_rows(validate_data(self, X, reset=True, dtype=None, ensure_all_finite=False))
        y = check_array(y, ensure_2d=False, dtype=[np.float64, np.float32], input_name="y")
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        return self._fit(X, y, fit_params)

    def predict(self, X):
        X = self._checked(X)
        return row_map(_mean_prediction, [X], shape=X.shape[:1], dtype=float,
                       kwargs={"estimators": self.estimators_, "features": self.estimators_features_},
                       label="BaggingRegressor.predict")
