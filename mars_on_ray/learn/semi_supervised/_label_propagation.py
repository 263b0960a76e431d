"""LabelPropagation: one graph per iteration; the label distributions are a tensor stored in
the session between iterations, the data is executed once."""
from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn import semi_supervised as _sks
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils import validation as _skv
from sklearn.utils.validation import check_is_fitted

from ... import session as _session
from ...tensor.datasource import tensor
from .._blocks import row_map, row_reduce
from ..neighbors import NearestNeighbors
from ..neighbors._pairs import pair_reduce
from ..utils.validation import check_consistent_length, require_y, validate_data, with_known_rows
from . import _kernels as K

_FLOATS = [np.float64, np.float32]


class LabelPropagation(ClassifierMixin, BaseEstimator):
    """Label propagation on chunked data (scikit-learn's API; unlabelled samples are -1).

    ``kernel='rbf'`` multiplies by the affinity matrix block pair by block pair, never holding
    it; ``kernel='knn'`` finds each row's neighbours once, then sums their label rows.
    """

    _parameter_constraints = {**_sks.LabelPropagation._parameter_constraints,
                              "kernel": [StrOptions({"knn", "rbf"})]}

    def __init__(self, kernel="rbf", *, gamma=20, n_neighbors=7, max_iter=1000, tol=1e-3, n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs

    def _propagate(self, Y):
        """The affinity matrix times Y (a lazy n x c tensor)."""
        if self.kernel == "rbf":
            return pair_reduce(K.rbf_times, K.add_all, self.X_, [self.X_, Y], shape_tail=(Y.shape[1],),
                               kwargs={"gamma": self.gamma}, label="LabelPropagation.fit")
        return row_map(K.neighbour_sums, [self._neighbours], [Y], shape=Y.shape, dtype=float,
                       label="LabelPropagation.fit")

    def fit(self, X, y):
        self._validate_params()
        require_y(self, y)
        if self.kernel not in ("rbf", "knn"):
            raise ValueError(f"kernel should be 'rbf' or 'knn', got {self.kernel!r}")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"max_iter should be an integer >= 1, got {self.max_iter!r}")
        X = with_known_rows(validate_data(self, X, reset=True, dtype=_FLOATS))
        y = np.asarray(y.fetch() if hasattr(y, "fetch") else y)  # the labels: one value per row
        check_consistent_length(X, y)
        y = _skv.column_or_1d(y, warn=True)
        check_classification_targets(y)
        self.X_ = X.execute()
        if self.kernel == "knn":
            nn = NearestNeighbors(n_neighbors=self.n_neighbors).fit(self.X_)
            self._nn = nn
            self._neighbours = nn.kneighbors(self.X_, return_distance=False).execute()
        classes = np.unique(y)
        self.classes_ = classes = classes[classes != -1]
        unlabeled = y == -1
        dist = (y[:, None] == classes[None, :]).astype(float)
        static = dist * ~unlabeled[:, None]
        static_t, unlabeled_t = tensor(static), tensor(unlabeled)
        current, change = tensor(dist), float(np.abs(dist).sum())
        for it in range(self.max_iter):
            if change < self.tol:
                self.n_iter_ = it
                break
            new = row_map(K.clamp, [self._propagate(current), static_t, unlabeled_t], shape=current.shape,
                          dtype=float, label="LabelPropagation.fit")
            diff = row_reduce(K.abs_diff, K.add_all, None, [new, current], dtype=float,
                              label="LabelPropagation.fit")
            _session.execute(new, diff)
            change, current = float(diff.fetch()), new
        else:
            warnings.warn(f"max_iter={self.max_iter} was reached without convergence.",
                          category=ConvergenceWarning)
            self.n_iter_ = self.max_iter
        self.label_distributions_ = row_map(K.normalize_rows, [current], shape=current.shape, dtype=float,
                                            label="LabelPropagation.fit")
        self.transduction_ = row_map(K.argmax_classes, [self.label_distributions_], shape=current.shape[:1],
                                     dtype=classes.dtype, kwargs={"classes": classes},
                                     label="LabelPropagation.fit")
        _session.execute(self.label_distributions_, self.transduction_)
        self.n_features_in_ = int(X.shape[1])
        return self

    def predict_proba(self, X):
        """Class probabilities of new rows from the fitted label distributions: lazy."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=_FLOATS)
        c = len(self.classes_)
        if self.kernel == "rbf":
            raw = pair_reduce(K.rbf_times, K.add_all, X, [self.X_, self.label_distributions_], shape_tail=(c,),
                              kwargs={"gamma": self.gamma}, label="LabelPropagation.predict_proba")
        else:
            ind = self._nn.kneighbors(X, return_distance=False)
            raw = row_map(K.neighbour_sums, [ind], [self.label_distributions_], shape=(X.shape[0], c),
                          dtype=float, label="LabelPropagation.predict_proba")
        return row_map(K.proba, [raw], shape=(X.shape[0], c), dtype=float, label="LabelPropagation.predict_proba")

    def predict(self, X):
        """The most probable class of each row: a lazy tensor."""
        P = self.predict_proba(X)
        return row_map(K.argmax_classes, [P], shape=P.shape[:1], dtype=self.classes_.dtype,
                       kwargs={"classes": self.classes_}, label="LabelPropagation.predict")
