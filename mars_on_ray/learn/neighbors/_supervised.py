"""KNeighborsClassifier / KNeighborsRegressor on the brute-force pair search: each fitted block
carries its rows' targets, so a query block's k best come with their labels (no gather of y),
and the vote / average runs per query block with scikit-learn's formulas."""
from __future__ import annotations

import numpy as np
from sklearn import neighbors as _skn
from sklearn.base import ClassifierMixin, MultiOutputMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ...tensor.datasource import arange
from .._blocks import row_map, row_reduce
from .._compute import compute_now
from .._convert import to_tensor
from ..utils.multiclass import type_of_target
from ..utils.validation import check_array, check_consistent_length, require_y
from . import _kernels as K
from ._base import NearestNeighbors
from ._pairs import pair_reduce

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor"]


def _labelled_pair(q, f, y, *, offset, k, metric, metric_params):
    """``[distances | global indices | targets of those rows]`` of fit block f's k best."""
    d = K.distances(q, f, metric, metric_params)
    idx = np.broadcast_to(np.arange(offset, offset + f.shape[0], dtype=float), d.shape)
    return _top(d, idx, lambda rows: y[rows - offset], k)


def _top(d, idx, targets, k):
    order = np.lexsort((idx, d), axis=1)[:, :k] if d.shape[1] else np.zeros((len(d), 0), int)
    d, idx = np.take_along_axis(d, order, 1), np.take_along_axis(idx, order, 1)
    lab = targets(idx.astype(np.int64))  # (n_queries, kept, n_outputs)
    pad = k - d.shape[1]
    if pad > 0:  # fewer fit rows than k in this block: padding that sorts last
        d = np.hstack([d, np.full((len(d), pad), np.inf)])
        idx = np.hstack([idx, np.full((len(d), pad), np.iinfo(np.int32).max, dtype=float)])
        lab = np.concatenate([lab, np.zeros((len(d), pad, lab.shape[2]))], axis=1)
    return np.hstack([d, idx, lab.reshape(len(d), -1)])


def _unpack(block, k):
    n = len(block)
    return block[:, :k], block[:, k:2 * k], block[:, 2 * k:].reshape(n, k, -1)


def _labelled_merge(parts, *, k, metric, metric_params):
    d, idx, lab = zip(*(_unpack(p, k) for p in parts))
    lab = np.concatenate(lab, axis=1)
    d, idx = np.hstack(d), np.hstack(idx)
    order = np.lexsort((idx, d), axis=1)[:, :k]
    picked = np.take_along_axis(lab, order[:, :, None], 1)
    return np.hstack([np.take_along_axis(d, order, 1), np.take_along_axis(idx, order, 1),
                      picked.reshape(len(d), -1)])


def _drop_self(block, pos, *, k):
    """Query = fit: each row's own index (else its farthest) removed from its k + 1."""
    d, idx, lab = _unpack(block, k + 1)
    own = idx == pos[:, None]
    own[~own.any(1), -1] = True
    keep = ~own
    n = len(d)
    return np.hstack([d[keep].reshape(n, k), idx[keep].reshape(n, k), lab[keep].reshape(n, -1)])


def _weights(dist, weights):
    """scikit-learn's neighbour weights: None (uniform), 1 / distance, or a callable's."""
    if weights in (None, "uniform"):
        return None
    if weights == "distance":
        with np.errstate(divide="ignore"):
            w = 1.0 / dist
        inf = np.isinf(w)
        rows = np.any(inf, axis=1)
        w[rows] = inf[rows]  # an exact match: only the exact matches count
        return w
    return weights(dist)


def _proba(block, *, k, n_classes, weights):
    """Per output, the (n_queries, n_classes) class probabilities, side by side."""
    dist, _, lab = _unpack(block, k)
    w = _weights(dist, weights)
    w = np.ones_like(dist) if w is None else w
    rows = np.arange(len(block))
    out = []
    for j, n_cls in enumerate(n_classes):
        proba = np.zeros((len(block), n_cls))
        for i, codes in enumerate(lab[:, :, j].astype(np.int64).T):  # scikit-learn's order of additions
            proba[rows, codes] += w[:, i]
        norm = proba.sum(axis=1)[:, None]
        norm[norm == 0.0] = 1.0
        out.append(proba / norm)
    return np.hstack(out)


def _vote(block, *, k, n_classes, weights, classes, single):
    proba = _proba(block, k=k, n_classes=n_classes, weights=weights)
    out, start = [], 0
    for j, n_cls in enumerate(n_classes):
        out.append(classes[j][np.argmax(proba[:, start:start + n_cls], axis=1)])
        start += n_cls
    return out[0] if single else np.column_stack(out)


def _split_proba(block, *, start, stop):
    return block[:, start:stop]


def _average(block, *, k, weights, single):
    dist, _, lab = _unpack(block, k)
    w = _weights(dist, weights)
    if w is None:
        pred = np.mean(lab, axis=1)
    else:
        pred = np.sum(lab * w[:, :, None], axis=1) / np.sum(w, axis=1)[:, None]
    return pred.ravel() if single else pred


class _Supervised(MultiOutputMixin, NearestNeighbors):
    def __init__(self, n_neighbors=5, *, weights="uniform", algorithm="auto", leaf_size=30, p=2,
                 metric="minkowski", metric_params=None, n_jobs=None):
        super().__init__(n_neighbors=n_neighbors, algorithm=algorithm, leaf_size=leaf_size, metric=metric, p=p,
                         metric_params=metric_params, n_jobs=n_jobs)
        self.weights = weights

    def _check_weights(self):
        if self.weights not in (None, "uniform", "distance") and not callable(self.weights):
            raise ValueError("weights not recognized: should be 'uniform', 'distance', or a callable function")

    def _fit_targets(self, X, y, kernel, kwargs=None):
        """Fit the rows; their targets ``kernel(y block)`` (n, n_outputs floats) travel with
        them block by block."""
        self._check_weights()
        y = to_tensor(y)
        check_consistent_length(X, y)
        if y.ndim == 2 and y.shape[1] == 1:
            import warnings

            from sklearn.exceptions import DataConversionWarning

            warnings.warn("A column-vector y was passed when a 1d array was expected. Please change the "
                          "shape of y to (n_samples,), for example using ravel().", DataConversionWarning)
            y = y.ravel()
        self._outputs_2d = y.ndim == 2
        super().fit(X)
        width = 1 if y.ndim == 1 else int(y.shape[1])
        self._targets = row_map(kernel, [y], shape=(y.shape[0], width), dtype=np.float64, kwargs=kwargs,
                                label=f"{type(self).__name__}.fit").execute()
        return self

    def _neighbours(self, X):
        """Per query row ``[distances | indices | targets]`` of its k nearest fitted rows."""
        check_is_fitted(self, "_fit_X")
        k = self.n_neighbors
        self_query = X is None
        q = self._fit_X if self_query else self._query(X)
        if k > self.n_samples_fit_ - self_query:
            raise ValueError(f"Expected n_neighbors <= n_samples_fit, but n_neighbors = {k}, "
                             f"n_samples_fit = {self.n_samples_fit_}, n_samples = {q.shape[0]}")
        kk = k + 1 if self_query else k
        m = int(self._targets.shape[1])
        both = pair_reduce(_labelled_pair, _labelled_merge, q, [self._fit_X, self._targets],
                           shape_tail=(kk * (2 + m),), kwargs={"k": kk, **self._metric_kwargs()},
                           label=f"{type(self).__name__}.kneighbors")
        if self_query:
            both = row_map(_drop_self, [both, arange(self.n_samples_fit_)], shape=(q.shape[0], k * (2 + m)),
                           dtype=float, kwargs={"k": k}, label=f"{type(self).__name__}.kneighbors")
        return both


def _codes(block, *, classes):
    block = block.reshape(len(block), -1)
    return np.column_stack([np.searchsorted(c, block[:, j]) for j, c in enumerate(classes)]).astype(float)


def _distinct_columns(block):
    block = block.reshape(len(block), -1)
    return [np.unique(block[:, j]) for j in range(block.shape[1])]


def _union_columns(parts):
    return [np.unique(np.concatenate([p[j] for p in parts])) for j in range(len(parts[0]))]


def _identity(x):
    return x


class KNeighborsClassifier(ClassifierMixin, _Supervised):
    """k-nearest-neighbour vote, as scikit-learn's ``KNeighborsClassifier`` (brute force by
    chunk pairs; ``weights`` 'uniform', 'distance' or a callable)."""

    _parameter_constraints = _skn.KNeighborsClassifier._parameter_constraints

    def fit(self, X, y):
        """Remember the rows and the classes of their labels."""
        self._validate_params()
        require_y(self, y)
        kind = type_of_target(y, input_name="y")
        kind = str(compute_now(kind)) if not isinstance(kind, str) else kind
        if kind not in ("binary", "multiclass", "multiclass-multioutput", "multilabel-indicator"):
            raise ValueError(f"Unknown label type: {kind}. Maybe you are trying to fit a classifier, which "
                             "expects discrete classes on a regression target with continuous values.")
        t = to_tensor(y)
        classes = compute_now(row_reduce(_distinct_columns, _union_columns, _identity, [t], dtype=object,
                                         label="KNeighborsClassifier.classes"))
        self._fit_targets(X, y, _codes, {"classes": classes})
        self.classes_ = classes if self._outputs_2d else classes[0]
        self.outputs_2d_ = self._outputs_2d  # scikit-learn's classifier has it, its regressor not
        self._classes = classes
        return self

    def predict_proba(self, X):
        """Lazy class probabilities (a list of them per output for multi-output y)."""
        both = self._neighbours(X)
        sizes = [len(c) for c in self._classes]
        proba = row_map(_proba, [both], shape=(both.shape[0], sum(sizes)), dtype=np.float64,
                        kwargs={"k": self.n_neighbors, "n_classes": sizes, "weights": self.weights},
                        label="KNeighborsClassifier.predict_proba")
        if not self._outputs_2d:
            return proba
        starts = np.cumsum([0] + sizes)
        return [row_map(_split_proba, [proba], shape=(proba.shape[0], int(b - a)), dtype=np.float64,
                        kwargs={"start": int(a), "stop": int(b)}, label="KNeighborsClassifier.predict_proba")
                for a, b in zip(starts[:-1], starts[1:])]

    def predict(self, X):
        """Lazy predicted classes."""
        both = self._neighbours(X)
        dtype = np.result_type(*[c.dtype for c in self._classes])
        shape = (both.shape[0],) + ((len(self._classes),) if self._outputs_2d else ())
        return row_map(_vote, [both], shape=shape, dtype=dtype,
                       kwargs={"k": self.n_neighbors, "n_classes": [len(c) for c in self._classes],
                               "weights": self.weights, "classes": self._classes, "single": not self._outputs_2d},
                       label="KNeighborsClassifier.predict")

    def score(self, X, y, sample_weight=None):
        """Mean accuracy on (X, y), computed now."""
        from ..metrics import accuracy_score

        return float(compute_now(accuracy_score(y, self.predict(X), sample_weight=sample_weight)))


def _as_targets(block):
    return block.reshape(len(block), -1).astype(np.float64)


class KNeighborsRegressor(RegressorMixin, _Supervised):
    """Mean (or distance-weighted mean) target of the k nearest neighbours, as scikit-learn's
    ``KNeighborsRegressor``."""

    _parameter_constraints = _skn.KNeighborsRegressor._parameter_constraints

    def fit(self, X, y):
        """Remember the rows and their targets."""
        self._validate_params()
        require_y(self, y)
        y = check_array(y, ensure_2d=False, dtype=[np.float64, np.float32], input_name="y")
        return self._fit_targets(X, y, _as_targets)

    def predict(self, X):
        """Lazy predicted targets."""
        both = self._neighbours(X)
        m = int(self._targets.shape[1])
        shape = (both.shape[0],) + ((m,) if self._outputs_2d else ())
        return row_map(_average, [both], shape=shape, dtype=np.float64,
                       kwargs={"k": self.n_neighbors, "weights": self.weights, "single": not self._outputs_2d},
                       label="KNeighborsRegressor.predict")

    def score(self, X, y, sample_weight=None):
        """R^2 of the prediction on (X, y), computed now."""
        from ..metrics import r2_score

        return float(compute_now(r2_score(y, self.predict(X), sample_weight=sample_weight)))
