"""KMeans on row blocks: Lloyd iterations as one small graph each over the persisted data."""
from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass

import numpy as np
from sklearn import cluster as _skc
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, ClusterMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ... import session as _session
from ...tensor.core import Tensor
from ...tensor.datasource import arange
from .._blocks import row_map, row_reduce
from .._output import LazyOutputMixin
from ..utils.validation import check_sample_weight, validate_data
from .. import moments
from . import _init
from . import _kernels as K

_INITS = ("k-means||", "k-means++", "random")
#: Lloyd iterations in the first graph, doubling up to the longest. One a graph by default:
#: measured on 2M x 10 in 8 chunks on 2 CPUs, a chain of 8 (88 subtasks, a task per chunk and
#: iteration, 0.70 s) loses to 8 one-iteration graphs run as 2 lanes + a combine each (the
#: small-data path; 0.88-1.0 s against 1.0-1.2 s for the whole fit). Chains pay once
#: iterations are cheap next to a graph round trip (many small chunks on a cluster).
FIRST_CHAIN, LONGEST_CHAIN = 1, 1


@dataclass
class _Data:
    X: Tensor
    w: Tensor | None
    w_value: np.ndarray | None
    n_samples: int
    pos: Tensor  # each row's position: blocks learn where they start


def _persist(X, sample_weight) -> tuple[_Data, float]:
    """Execute the data once (later graphs read the stored chunks) with its column moments;
    returns the data and the mean column variance."""
    n = int(X.shape[0])
    w = check_sample_weight(sample_weight, X)
    scatter = moments.scatter([X], label="KMeans.fit", check_finite="KMeans", diagonal=True)
    _session.execute(*([X, scatter] if w is None else [X, w, scatter]))
    _, _, S = scatter.fetch()
    data = _Data(X, w, None if w is None else np.asarray(w.fetch()), n, arange(n))
    return data, float(np.sum(S) / n / X.shape[1])


def _rows(data):
    return [data.X] if data.w is None else [data.X, data.w]


def _reduce(partial, combine, rows, **kwargs):
    return row_reduce(partial, combine, None, rows, dtype=object, kwargs=kwargs, label="KMeans.fit").fetch()


def _relocate_empty(sums, counts, data, centers):
    """scikit-learn's relocation: each empty cluster takes one of the points farthest from
    their centers, removed from its old cluster (a second graph: empty clusters are rare)."""
    empty = np.flatnonzero(counts == 0)
    _, points, labels, weights = _reduce(K.farthest_partial, functools.partial(K.merge_farthest, k=len(centers)),
                                       _rows(data), C=centers)
    for cluster, x, old, wt in zip(empty, points, labels, weights):
        sums[old] -= x * wt
        counts[old] -= wt
        sums[cluster] = x * wt
        counts[cluster] = wt


def _lloyd_sums(data, centers):
    sums, counts = _reduce(K.lloyd_partial, K.add_pairs, _rows(data), C=centers)
    if (counts == 0).any():
        _relocate_empty(sums, counts, data, centers)
    return sums, counts


class _Elkan:
    """Elkan's bounds as a tensor stored between iterations (n x (k + 2)); each iteration's
    graph moves them, computes exact distances where the bounds cannot decide, and sums."""

    def __init__(self, data):
        self.data, self.state, self.previous = data, None, None

    def sums(self, centers):
        data, k = self.data, len(centers)
        shape = (data.n_samples, k + 2)
        if self.state is None:
            state = row_map(K.elkan_start, [data.X], shape=shape, dtype=float, kwargs={"C": centers},
                            label="KMeans.fit")
        else:
            shift = np.sqrt(((centers - self.previous) ** 2).sum(1))
            state = row_map(K.elkan_step, [data.X, self.state], shape=shape, dtype=float,
                            kwargs={"C": centers, "shift": shift}, label="KMeans.fit")
        rows = [data.X, state] + ([] if data.w is None else [data.w])
        part = row_reduce(K.elkan_sums, K.add_pairs, None, rows, dtype=object, kwargs={"k": k},
                          label="KMeans.fit")
        _session.execute(state, part)
        self.state, self.previous = state, centers
        sums, counts = part.fetch()
        if (counts == 0).any():  # rare: relocation needs exact distances, as scikit-learn's
            sums, counts = _lloyd_sums(data, centers)
        return sums, counts


def _relocated(state, data, tol, max_iter):
    """The state after relocating the empty clusters of its pending iteration."""
    sums, counts = (a.copy() for a in state.empty)
    _relocate_empty(sums, counts, data, state.centers)
    return K.next_state(state, sums / np.where(counts > 0, counts, 1)[:, None], tol, max_iter)


def _chain(data, state, steps, tol, max_iter):
    """``steps`` Lloyd iterations from ``state`` as one graph: each iteration's state (a
    one-chunk tensor) is an input of the next one's partials."""
    finish = functools.partial(K.chain_finish, tol=tol, max_iter=max_iter)
    node = None
    for _ in range(steps):
        node = row_reduce(K.chain_partial, K.add_chain, finish, _rows(data), [] if node is None else [node],
                          dtype=object, kwargs={"weighted": data.w is not None,
                                                **({"state": state} if node is None else {})},
                          label="KMeans.fit")
    return node


def _labelled(data, node):
    """The labels and inertia under the centers of state ``node`` (lazy)."""
    labels = row_map(K.state_labels, [data.X], [node], shape=data.X.shape[:1], dtype=np.int32,
                     label="KMeans.fit")
    inertia = row_reduce(K.state_inertia, K.add_all, None, [data.X, labels, *_rows(data)[1:]], [node],
                         dtype=object, label="KMeans.fit")
    return labels, inertia


def lloyd(data: _Data, centers: np.ndarray, max_iter: int, tol: float, elkan: bool = False):
    """Lloyd iterations from ``centers`` (with Elkan's bounds if asked: the same result);
    (centers, n_iter, (labels, inertia) or None).

    Lloyd's iterations can run chained, several per graph (``FIRST_CHAIN``, then twice as
    many each graph): the centers stay in the cluster from one iteration to the next, and
    iterations after convergence do nothing. The graph reaching ``max_iter`` also labels
    the rows."""
    if elkan:
        return _elkan_lloyd(data, centers, max_iter, tol) + (None,)
    state, steps, labelled = K.LloydState(centers), FIRST_CHAIN, None
    while not state.done:
        steps = min(steps, max_iter - state.n_iter)
        node = _chain(data, state, steps, tol, max_iter)
        last = state.n_iter + steps == max_iter
        labelled = _labelled(data, node) if last else None
        _session.execute(node, *(labelled or ()))
        state, steps = node.fetch(), min(2 * steps, LONGEST_CHAIN)
        if state.empty is not None:
            state, labelled = _relocated(state, data, tol, max_iter), None
    return state.centers, state.n_iter, labelled


def _elkan_lloyd(data, centers, max_iter, tol):
    step = _Elkan(data).sums
    for i in range(max_iter):
        sums, counts = step(centers)
        new = sums / np.where(counts > 0, counts, 1)[:, None]
        shift = float(((new - centers) ** 2).sum())
        centers = new
        if shift <= tol:
            break
    return centers, i + 1


class KMeans(ClassNamePrefixFeaturesOutMixin, LazyOutputMixin, TransformerMixin, ClusterMixin, BaseEstimator):
    """K-means clustering over chunked data (scikit-learn's API).

    ``init``: ``'k-means||'`` (default, as Mars), ``'k-means++'``, ``'random'`` or an array of
    shape (n_clusters, n_features). ``algorithm='elkan'`` keeps Elkan's per-point distance
    bounds as a tensor between iterations and computes exact distances only where they cannot
    decide; the result is Lloyd's.
    """

    _parameter_constraints = {
        **_skc.KMeans._parameter_constraints,
        "init": [StrOptions(set(_INITS)), "array-like"],
        "oversampling_factor": [Interval(numbers.Real, 0, None, closed="neither")],
        "init_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, n_clusters=8, *, init="k-means||", n_init="auto", max_iter=300, tol=1e-4,
                 verbose=0, random_state=None, copy_x=True, algorithm="lloyd",
                 oversampling_factor=2, init_iter=5):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm
        self.oversampling_factor = oversampling_factor
        self.init_iter = init_iter

    @property
    def _n_features_out(self):
        """Output feature names are ``kmeans<i>``, one per cluster."""
        return self.cluster_centers_.shape[0]

    def _check_params(self, n_samples, n_features):
        k = self.n_clusters
        if not isinstance(k, numbers.Integral) or isinstance(k, bool) or k < 1:
            raise ValueError(f"n_clusters should be an integer >= 1, got {k!r}")
        if n_samples < k:
            raise ValueError(f"n_samples={n_samples} should be >= n_clusters={k}.")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"max_iter should be an integer >= 1, got {self.max_iter!r}")
        if not isinstance(self.tol, numbers.Real) or self.tol < 0:
            raise ValueError(f"tol should be a number >= 0, got {self.tol!r}")
        if self.algorithm not in ("lloyd", "elkan"):
            raise ValueError(f"algorithm should be 'lloyd' or 'elkan', got {self.algorithm!r}")
        if isinstance(self.init, str):
            if self.init not in _INITS:
                raise ValueError(f"init should be one of {_INITS} or an array, got {self.init!r}")
            init = None
        else:
            init = np.asarray(self.init, dtype=np.float64)
            if init.shape != (k, n_features):
                raise ValueError(f"The shape of the initial centers {init.shape} does not match "
                                 f"the number of clusters {k} and features {n_features}.")
        n_init = self.n_init
        if n_init == "auto":
            n_init = 10 if isinstance(self.init, str) and self.init == "random" else 1
        if not isinstance(n_init, numbers.Integral) or n_init < 1:
            raise ValueError(f"n_init should be 'auto' or an integer >= 1, got {self.n_init!r}")
        return init, (1 if init is not None else int(n_init))

    def _initial(self, data, init, rs):
        if init is not None:
            return init
        if self.init == "random":
            return _init.random_rows(data, self.n_clusters, rs)
        if self.init == "k-means++":
            return _init.kmeans_plusplus(data, self.n_clusters, rs)
        return _init.kmeans_parallel(data, self.n_clusters, rs, self.oversampling_factor, self.init_iter)

    def fit(self, X, y=None, sample_weight=None):
        """Compute the clusters; ``labels_`` is an executed tensor, the rest NumPy values."""
        self._validate_params()
        X = moments.checked_features(self, X)
        n_samples, n_features = (int(s) for s in X.shape)
        init, n_init = self._check_params(n_samples, n_features)
        data, variance = _persist(X, sample_weight)
        rs = check_random_state(self.random_state)
        best = None
        for _ in range(n_init):
            centers, n_iter, labelled = lloyd(data, self._initial(data, init, rs), self.max_iter,
                                              variance * self.tol, elkan=self.algorithm == "elkan")
            if labelled is None:
                labels = row_map(K.labels_block, [data.X], shape=data.X.shape[:1], dtype=np.int32,
                                 kwargs={"C": centers}, label="KMeans.fit")
                rows = [data.X, labels] + ([] if data.w is None else [data.w])
                inertia = row_reduce(K.labelled_inertia, K.add_all, None, rows, dtype=object,
                                     kwargs={"C": centers}, label="KMeans.fit")
                if n_init == 1:  # the labels come with the inertia, in the same graph
                    _session.execute(inertia, labels)
            else:
                labels, inertia = labelled
            if best is None or inertia.fetch() < best[0]:
                best = inertia.fetch(), centers, n_iter, labels
        self.inertia_, self.cluster_centers_, self.n_iter_, self.labels_ = best
        self.labels_.execute()
        self.n_features_in_ = n_features
        return self

    def _checked(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, dtype=[np.float64, np.float32])

    def predict(self, X, sample_weight=None):
        """The closest cluster of each row: a lazy int32 tensor."""
        X = self._checked(X)
        return row_map(K.labels_block, [X], shape=X.shape[:1], dtype=np.int32,
                       kwargs={"C": self.cluster_centers_}, label="KMeans.predict")

    def transform(self, X):
        """Euclidean distances of each row to every center: a lazy tensor."""
        X = self._checked(X)
        return row_map(K.distances_block, [X], shape=(X.shape[0], self.n_clusters), dtype=X.dtype,
                       kwargs={"C": self.cluster_centers_}, label="KMeans.transform")

    def fit_predict(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).labels_

    def fit_transform(self, X, y=None, sample_weight=None):
        return self.fit(X, sample_weight=sample_weight).transform(X)

    def score(self, X, y=None, sample_weight=None):
        """Opposite of the inertia of X under the fitted centers (a float)."""
        X = self._checked(X)
        rows = [X] if sample_weight is None else [X, check_sample_weight(sample_weight, X)]
        return -_reduce(K.inertia_block, K.add_all, rows, C=self.cluster_centers_)


def k_means(X, n_clusters, *, sample_weight=None, init="k-means||", n_init="auto", max_iter=300,
            verbose=False, tol=1e-4, random_state=None, copy_x=True, algorithm="lloyd",
            return_n_iter=False):
    """Functional KMeans: ``(centers, labels, inertia[, n_iter])`` as scikit-learn's."""
    est = KMeans(n_clusters, init=init, n_init=n_init, max_iter=max_iter, verbose=verbose, tol=tol,
                 random_state=random_state, copy_x=copy_x, algorithm=algorithm)
    est.fit(X, sample_weight=sample_weight)
    result = (est.cluster_centers_, est.labels_, est.inertia_)
    return result + (est.n_iter_,) if return_n_iter else result
