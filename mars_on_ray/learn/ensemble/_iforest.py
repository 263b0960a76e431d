"""IsolationForest: groups of trees, each group a scikit-learn IsolationForest fitted in its
own task on rows drawn without replacement from all chunks. A sample's score is
``-2 ** (-mean path length / c(max_samples))`` over all trees, so the forest's score is the
weighted geometric mean of the groups' scores (weights: their tree counts)."""
from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.ensemble import IsolationForest as _SKForest
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ...tensor.selection import percentile
from .._blocks import row_map
from ..utils.validation import validate_data, with_known_rows
from ._fitting import fit_on_draws

MAX_INT = np.iinfo(np.int32).max


def _score_block(X, *, forests, weights):
    log = sum(w * np.log2(-f.score_samples(X)) for f, w in zip(forests, weights))
    return -(2.0 ** log)


def _decision_block(X, *, forests, weights, offset):
    return _score_block(X, forests=forests, weights=weights) - offset


def _predict_block(X, *, forests, weights, offset):
    return np.where(_decision_block(X, forests=forests, weights=weights, offset=offset) < 0, -1, 1)


class IsolationForest(OutlierMixin, BaseEstimator):
    """Isolation forest over chunked data (scikit-learn's API). ``n_groups`` (default: up to 8)
    says how many tasks fit the trees."""

    _parameter_constraints = {**_SKForest._parameter_constraints,
                              "n_groups": [None, Interval(numbers.Integral, 1, None, closed="left")]}

    def __init__(self, *, n_estimators=100, max_samples="auto", contamination="auto", max_features=1.0,
                 bootstrap=False, n_jobs=None, random_state=None, verbose=0, warm_start=False, n_groups=None):
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.contamination = contamination
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_groups = n_groups

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # the trees take NaN, as scikit-learn's
        return tags

    def _max_samples(self, n):
        m = self.max_samples
        if isinstance(m, str):
            if m != "auto":
                raise ValueError(f"max_samples ({m}) is not supported. Valid choices are: 'auto', int or float")
            return min(256, n)
        if isinstance(m, numbers.Integral):
            if m < 1:
                raise ValueError(f"max_samples must be >= 1, got {m}")
            return min(int(m), n)
        if 0 < m <= 1:
            return max(1, int(m * n))
        raise ValueError(f"max_samples must be in (0, 1], got {m!r}")

    def fit(self, X, y=None, sample_weight=None):
        self._validate_params()
        if sample_weight is not None:
            raise NotImplementedError("IsolationForest: sample_weight is not supported for chunked data")
        c = self.contamination
        if not (isinstance(c, str) and c == "auto") and not (isinstance(c, numbers.Real) and 0 < c <= 0.5):
            raise ValueError(f"contamination must be 'auto' or a float in (0, 0.5], got {c!r}")
        if not isinstance(self.n_estimators, numbers.Integral) or self.n_estimators < 1:
            raise ValueError(f"n_estimators must be an integer >= 1, got {self.n_estimators!r}")
        X = with_known_rows(validate_data(self, X, reset=True, dtype=np.float32, ensure_all_finite=False))
        n, d = (int(s) for s in X.shape)
        self.max_samples_ = m = self._max_samples(n)
        rs = check_random_state(self.random_state)
        groups = max(1, min(self.n_estimators, self.n_groups or 8))
        sizes = [len(g) for g in np.array_split(np.arange(self.n_estimators), groups)]
        draws, models = [], []
        for trees in sizes:
            seed = int(rs.randint(MAX_INT))
            pool = np.random.RandomState(seed).permutation(n)[:min(n, trees * m)]
            draws.append((np.arange(d), pool))
            models.append(_SKForest(n_estimators=trees, max_samples=m, max_features=self.max_features,
                                    bootstrap=self.bootstrap, random_state=seed))
        self._forests = fit_on_draws(X, None, draws, models)
        # scikit-learn's view: every tree, with the features it saw
        self.estimator_ = self._forests[0].estimator_
        self.estimators_ = [tree for f in self._forests for tree in f.estimators_]
        self.estimators_features_ = [feats for f in self._forests for feats in f.estimators_features_]
        self._weights = np.array(sizes) / self.n_estimators
        self.n_features_in_ = d
        if isinstance(c, str):
            self.offset_ = -0.5
        else:
            self.offset_ = float(percentile(self._map(_score_block, X, float), 100.0 * c).fetch())
        return self

    def _run(self, kernel, X, dtype, **extra):
        return self._map(kernel, validate_data(self, X, reset=False, dtype=np.float32, ensure_all_finite=False), dtype,
                         **extra)

    def _map(self, kernel, X, dtype, **extra):
        return row_map(kernel, [X], shape=X.shape[:1], dtype=dtype,
                       kwargs={"forests": self._forests, "weights": self._weights, **extra},
                       label="IsolationForest")

    def score_samples(self, X):
        """The opposite of the anomaly score of each row (lower: more abnormal): lazy."""
        check_is_fitted(self)
        return self._run(_score_block, X, float)

    def decision_function(self, X):
        """``score_samples(X) - offset_`` (negative: outliers): lazy."""
        check_is_fitted(self)
        return self._run(_decision_block, X, float, offset=self.offset_)

    def predict(self, X):
        """1 for inliers, -1 for outliers: a lazy tensor."""
        check_is_fitted(self)
        return self._run(_predict_block, X, np.int64, offset=self.offset_)

    def fit_predict(self, X, y=None, **kwargs):
        return self.fit(X).predict(X)
