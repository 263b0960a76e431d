"""``make_blobs``, ``make_classification``, ``make_low_rank_matrix``, ``make_regression``.

Guarantee: for the same parameters and integer ``random_state`` the values are bitwise
identical for every ``chunk_size`` (rows come from generation blocks keyed by global row
position, see ``_streams``), and a row does not change when ``n_samples`` grows. The values
are not scikit-learn's (its recipes draw the whole data from one sequential stream), but the
recipe, parameter checks, exceptions, shapes, dtypes, class counts and returned centers /
coefficients follow scikit-learn's.
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np
from sklearn import datasets as skd

from ...core.operand import Operand
from ...tensor.core import Tensor
from ...tensor.datasource import new_source, tile_source
from ._generators import Blobs, Classification, LowRank, Regression, low_rank_profile
from ._streams import base_seed, global_rng, rows_from_blocks

__all__ = ["make_blobs", "make_classification", "make_low_rank_matrix", "make_regression"]


class Generated(Operand):
    """Rows and columns ``extents`` of the data whose generation blocks ``make`` produces."""

    _params = ("make", "n_samples", "extents")

    def tile(self, ctx, out):
        return tile_source(out, lambda extents: self.new(extents=extents))

    def execute(self):
        (r0, r1), (c0, c1) = self.extents
        pieces = rows_from_blocks(self.make, r0, r1, self.n_samples)
        width = c1 - c0
        rows = np.concatenate(pieces) if pieces else np.empty((0, width))
        return np.ascontiguousarray(rows[:, c0:c1])


def _generated(make, n_samples: int, width: int, chunk_size, label: str) -> Tensor:
    return new_source(Generated(make=make, n_samples=int(n_samples), label=label), (int(n_samples), width),
                      np.float64, chunk_size)


def _split(both: Tensor, n_features: int, y_dtype, y_cols: int | None):
    X = both[:, :n_features]
    y = both[:, n_features] if y_cols is None else both[:, n_features:]
    return X, (y if y_dtype is None else y.astype(y_dtype))


def _check_with_sklearn(func, **params):
    """scikit-learn's own parameter checks and errors, on a tiny sample of the same request."""
    func(**params, random_state=0)


def make_blobs(n_samples=100, n_features=2, *, centers=None, cluster_std=1.0, center_box=(-10.0, 10.0),
               shuffle=True, random_state=None, return_centers=False, chunk_size=None):
    """Isotropic Gaussian blobs for clustering: lazy (X, y[, centers as NumPy])."""
    small = np.ones(len(n_samples), int) if isinstance(n_samples, Iterable) else 3
    _check_with_sklearn(skd.make_blobs, n_samples=small, n_features=n_features, centers=centers,
                        cluster_std=cluster_std, center_box=center_box, shuffle=False)
    seed = base_seed(random_state)
    rng = global_rng(seed)
    if isinstance(n_samples, numbers.Integral):
        centers = 3 if centers is None else centers
        if isinstance(centers, numbers.Integral):
            centers = rng.uniform(center_box[0], center_box[1], size=(centers, n_features))
        centers = np.asarray(centers, dtype=np.float64)
        k = len(centers)
        counts = [n_samples // k + (i < n_samples % k) for i in range(k)]
    else:
        counts = [int(c) for c in n_samples]
        if centers is None:
            centers = rng.uniform(center_box[0], center_box[1], size=(len(counts), n_features))
        centers = np.asarray(centers, dtype=np.float64)
    n_features = centers.shape[1]
    stds = np.broadcast_to(np.asarray(cluster_std, dtype=np.float64), (len(centers),)).copy()
    total = int(sum(counts))
    make = Blobs(seed, total, centers, stds, counts, bool(shuffle))
    both = _generated(make, total, n_features + 1, chunk_size, "make_blobs")
    X, y = _split(both, n_features, np.int64, None)
    return (X, y, centers) if return_centers else (X, y)


def _hypercube(n_vertices: int, dim: int, rng) -> np.ndarray:
    """``n_vertices`` distinct random vertices of the ``dim``-dimensional unit hypercube."""
    if dim > 30:
        return np.hstack([rng.integers(0, 2, size=(n_vertices, dim - 30)), _hypercube(n_vertices, 30, rng)])
    chosen = rng.choice(2**dim, n_vertices, replace=False)
    bits = (chosen[:, None] >> np.arange(dim)[None, ::-1]) & 1
    return bits.astype(np.float64)


def make_classification(n_samples=100, n_features=20, *, n_informative=2, n_redundant=2, n_repeated=0,
                        n_classes=2, n_clusters_per_class=2, weights=None, flip_y=0.01, class_sep=1.0,
                        hypercube=True, shift=0.0, scale=1.0, shuffle=True, random_state=None,
                        return_X_y=True, chunk_size=None):
    """A random n-class classification problem (scikit-learn's recipe): lazy (X, y)."""
    if not return_X_y:
        raise NotImplementedError("make_classification(return_X_y=False) is not supported; use the (X, y) pair")
    n_clusters = n_classes * n_clusters_per_class
    _check_with_sklearn(skd.make_classification, n_samples=max(n_clusters, 2 * n_classes),
                        n_features=n_features, n_informative=n_informative, n_redundant=n_redundant,
                        n_repeated=n_repeated, n_classes=n_classes, n_clusters_per_class=n_clusters_per_class,
                        weights=weights, flip_y=flip_y, class_sep=class_sep, hypercube=hypercube,
                        shift=shift, scale=scale, shuffle=False)
    seed = base_seed(random_state)
    rng = global_rng(seed)
    n_useless = n_features - n_informative - n_redundant - n_repeated
    if weights is None:
        weights = [1.0 / n_classes] * n_classes
    elif len(weights) == n_classes - 1:
        weights = list(weights) + [1.0 - sum(weights)]
    counts = [int(n_samples * weights[k % n_classes] / n_clusters_per_class) for k in range(n_clusters)]
    for i in range(n_samples - sum(counts)):
        counts[i % n_clusters] += 1
    centroids = _hypercube(n_clusters, n_informative, rng) * 2 * class_sep - class_sep
    if not hypercube:
        centroids *= 2 * rng.random((n_clusters, 1))
        centroids *= 2 * rng.random((1, n_informative))
    mixes = 2 * rng.random((n_clusters, n_informative, n_informative)) - 1
    redundant = 2 * rng.random((n_informative, n_redundant)) - 1
    n = n_informative + n_redundant
    repeated = ((n - 1) * rng.random(n_repeated) + 0.5).astype(np.intp)
    shift = (2 * rng.random(n_features) - 1) * class_sep if shift is None else np.broadcast_to(
        np.asarray(shift, np.float64), (n_features,)).copy()
    scale = 1 + 100 * rng.random(n_features) if scale is None else np.broadcast_to(
        np.asarray(scale, np.float64), (n_features,)).copy()
    columns = rng.permutation(n_features) if shuffle else np.arange(n_features)
    make = Classification(seed, int(n_samples), n_classes, counts, centroids, mixes, redundant, repeated,
                          n_useless, float(flip_y), shift, scale, columns, bool(shuffle))
    both = _generated(make, n_samples, n_features + 1, chunk_size, "make_classification")
    return _split(both, n_features, np.int64, None)


def _low_rank(seed, n_samples, n_features, effective_rank, tail_strength):
    rng = global_rng(seed, 1)
    k = min(n_samples, n_features)
    freqs = np.sort(rng.choice(n_samples, k, replace=False)).astype(np.float64)
    v, _ = np.linalg.qr(rng.standard_normal((n_features, k)), mode="reduced")
    return LowRank(seed, int(n_samples), freqs, v, low_rank_profile(k, effective_rank, tail_strength))


def make_low_rank_matrix(n_samples=100, n_features=100, *, effective_rank=10, tail_strength=0.5,
                         random_state=None, chunk_size=None):
    """A matrix whose singular values are scikit-learn's bell-shaped profile (lazy); its
    left singular vectors are randomised DCT basis vectors (see ``LowRank``)."""
    _check_with_sklearn(skd.make_low_rank_matrix, n_samples=2, n_features=n_features,
                        effective_rank=effective_rank, tail_strength=tail_strength)
    seed = base_seed(random_state)
    low = _low_rank(seed, n_samples, n_features, effective_rank, tail_strength)
    return _generated(low, n_samples, n_features, chunk_size, "make_low_rank_matrix")


def make_regression(n_samples=100, n_features=100, *, n_informative=10, n_targets=1, bias=0.0,
                    effective_rank=None, tail_strength=0.5, noise=0.0, shuffle=True, coef=False,
                    random_state=None, chunk_size=None):
    """A random linear regression problem: lazy (X, y[, coef as NumPy])."""
    _check_with_sklearn(skd.make_regression, n_samples=2, n_features=n_features, n_informative=n_informative,
                        n_targets=n_targets, bias=bias, effective_rank=effective_rank,
                        tail_strength=tail_strength, noise=noise, shuffle=False)
    seed = base_seed(random_state)
    rng = global_rng(seed)
    n_informative = min(n_features, n_informative)
    truth = np.zeros((n_features, n_targets))
    truth[:n_informative, :] = 100 * rng.random((n_informative, n_targets))
    columns = rng.permutation(n_features) if shuffle else np.arange(n_features)
    low = None if effective_rank is None else _low_rank(seed, n_samples, n_features, effective_rank,
                                                        tail_strength)
    make = Regression(seed, n_features, low, truth, float(bias), float(noise), columns)
    both = _generated(make, n_samples, n_features + n_targets, chunk_size, "make_regression")
    X, y = _split(both, n_features, None, None if n_targets == 1 else n_targets)
    truth = truth[columns]
    if coef:
        return X, y, np.squeeze(truth)
    return X, y
