"""NearestNeighbors by brute force over chunk pairs: every query block meets every fitted
block, and each query block's k best (or all within a radius) are merged by a tree."""
from __future__ import annotations

import numbers

import numpy as np
from scipy.sparse import csr_array
from sklearn import neighbors as _skn
from sklearn.base import BaseEstimator
from sklearn.metrics.pairwise import PAIRWISE_DISTANCE_FUNCTIONS
from sklearn.utils.validation import check_is_fitted

from ... import session as _session
from ...tensor.datasource import arange
from .._blocks import row_map
from ..utils.validation import validate_data
from . import _kernels as K
from ._pairs import pair_reduce

_FLOATS = [np.float64, np.float32]


def _graph_mode(mode):
    if mode not in ("connectivity", "distance"):
        raise ValueError(f'Unsupported mode, must be one of "connectivity", or "distance" but got "{mode}" instead')


def _now(*lazy):
    """The values of lazy results computed together (one graph)."""
    _session.execute(*lazy)
    return [t.fetch() for t in lazy]


def _sparse(matrix):
    try:  # scikit-learn's choice between SciPy's sparse arrays and matrices
        from sklearn.utils import _align_api_if_sparse
    except ImportError:  # pragma: no cover - older scikit-learn
        return matrix
    return _align_api_if_sparse(matrix)


class NearestNeighbors(BaseEstimator):
    """Unsupervised nearest neighbours (scikit-learn's API), brute force by chunk pairs.

    ``algorithm`` is accepted for compatibility; the search is always brute force. Results
    are lazy tensors: ``kneighbors`` gives (n_queries, k) distances and int indices,
    ``radius_neighbors`` object tensors of per-row arrays, as scikit-learn.
    """

    _parameter_constraints = _skn.NearestNeighbors._parameter_constraints

    def __init__(self, *, n_neighbors=5, radius=1.0, algorithm="auto", leaf_size=30,
                 metric="minkowski", p=2, metric_params=None, n_jobs=None):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def _effective_metric(self):
        metric, params = self.metric, dict(self.metric_params or {})
        if metric == "minkowski":
            p = params.pop("p", self.p)
            if p < 1:
                raise ValueError(f"p must be greater or equal to one for minkowski metric, got {p}")
            metric = {1: "manhattan", 2: "euclidean"}.get(p, "minkowski")
            if metric == "minkowski":
                params["p"] = p
        elif metric not in PAIRWISE_DISTANCE_FUNCTIONS and metric not in (
                "chebyshev", "minkowski", "cityblock", "sqeuclidean", "braycurtis", "canberra",
                "correlation", "seuclidean", "mahalanobis", "hamming"):
            raise ValueError(f"Metric '{metric}' not valid for algorithm 'brute'")
        return metric, params

    def fit(self, X, y=None):
        """Remember (and execute once) the fitted rows."""
        self._validate_params()
        if self.algorithm not in ("auto", "brute", "ball_tree", "kd_tree"):
            raise ValueError(f"algorithm {self.algorithm!r} is not valid")
        self.effective_metric_, self.effective_metric_params_ = self._effective_metric()
        self._fit_X = validate_data(self, X, reset=True, dtype=_FLOATS).execute()
        self.n_samples_fit_ = int(self._fit_X.shape[0])
        self.n_features_in_ = int(self._fit_X.shape[1])
        self._fit_method = "brute"
        return self

    def _query(self, X):
        check_is_fitted(self, "_fit_X")
        return validate_data(self, X, reset=False, dtype=_FLOATS)

    def _metric_kwargs(self):
        return {"metric": self.effective_metric_, "metric_params": self.effective_metric_params_}

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """(distances, indices) of the ``n_neighbors`` nearest fitted rows of each query row
        (of every fitted row but itself when X is None): lazy tensors."""
        check_is_fitted(self, "_fit_X")
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not isinstance(k, numbers.Integral) or isinstance(k, bool) or k <= 0:
            raise ValueError(f"Expected n_neighbors > 0. Got {k}")
        self_query = X is None
        q = self._fit_X if self_query else self._query(X)
        limit = self.n_samples_fit_ - (1 if self_query else 0)
        if k > limit:
            raise ValueError(f"Expected n_neighbors <= n_samples_fit, but n_neighbors = {k}, "
                             f"n_samples_fit = {self.n_samples_fit_}, n_samples = {q.shape[0]}")
        kk = k + 1 if self_query else k
        kw = {"k": kk, **self._metric_kwargs()}
        both = pair_reduce(K.knn_pair, K.knn_merge, q, [self._fit_X], shape_tail=(2 * kk,),
                           kwargs=kw, label="NearestNeighbors.kneighbors")
        if self_query:
            both = row_map(K.drop_self, [both, arange(self.n_samples_fit_)], shape=(q.shape[0], 2 * k),
                           dtype=float, kwargs={"k": k}, label="NearestNeighbors.kneighbors")
        n = q.shape[0]
        ind = row_map(K.split_knn, [both], shape=(n, k), dtype=np.intp, kwargs={"k": k, "which": 1},
                      label="NearestNeighbors.kneighbors")
        if not return_distance:
            return ind
        dist = row_map(K.split_knn, [both], shape=(n, k), dtype=float, kwargs={"k": k, "which": 0},
                       label="NearestNeighbors.kneighbors")
        return dist, ind

    def radius_neighbors(self, X=None, radius=None, return_distance=True, sort_results=False):
        """Per query row, the distances and indices of fitted rows within ``radius``: lazy
        object tensors of arrays (each row's own index left out when X is None)."""
        check_is_fitted(self, "_fit_X")
        radius = self.radius if radius is None else radius
        self_query = X is None
        q = self._fit_X if self_query else self._query(X)
        kw = {"radius": radius, **self._metric_kwargs()}
        both = pair_reduce(K.radius_pair, K.radius_merge, q, [self._fit_X], shape_tail=(2,), dtype=object,
                           kwargs=kw, label="NearestNeighbors.radius_neighbors")
        if self_query:
            both = row_map(K.drop_own, [both, arange(self.n_samples_fit_)], shape=(q.shape[0], 2),
                           dtype=object, label="NearestNeighbors.radius_neighbors")
        n = q.shape[0]
        ind = row_map(K.pick_column, [both], shape=(n,), dtype=object, kwargs={"column": 1, "sort": sort_results},
                      label="NearestNeighbors.radius_neighbors")
        if not return_distance:
            return ind
        dist = row_map(K.pick_column, [both], shape=(n,), dtype=object, kwargs={"column": 0, "sort": sort_results},
                       label="NearestNeighbors.radius_neighbors")
        return dist, ind

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """The k-neighbours graph as scikit-learn's: a SciPy CSR matrix (n_queries x
        n_samples_fit, ``n_neighbors`` entries a row), computed now from ``kneighbors``."""
        check_is_fitted(self, "_fit_X")
        _graph_mode(mode)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if mode == "connectivity":
            (ind,) = _now(self.kneighbors(X, k, return_distance=False))
            data = np.ones(ind.size)
        else:
            data, ind = _now(*self.kneighbors(X, k))
        indptr = np.arange(0, ind.size + 1, k)
        return _sparse(csr_array((np.ravel(data), ind.ravel(), indptr), shape=(len(ind), self.n_samples_fit_)))

    def radius_neighbors_graph(self, X=None, radius=None, mode="connectivity", sort_results=False):
        """The radius-neighbours graph as scikit-learn's: a SciPy CSR matrix (n_queries x
        n_samples_fit), computed now from ``radius_neighbors``."""
        check_is_fitted(self, "_fit_X")
        _graph_mode(mode)
        if mode == "connectivity":
            (ind,) = _now(self.radius_neighbors(X, radius, return_distance=False))
            data = None
        else:
            dist, ind = _now(*self.radius_neighbors(X, radius, sort_results=sort_results))
            data = np.concatenate(list(dist))
        counts = np.array([len(a) for a in ind])
        columns = np.concatenate(list(ind))
        data = np.ones(len(columns)) if data is None else data
        indptr = np.concatenate((np.zeros(1, dtype=int), np.cumsum(counts)))
        return _sparse(csr_array((data, columns, indptr), shape=(len(ind), self.n_samples_fit_)))
