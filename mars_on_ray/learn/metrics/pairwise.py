"""Pairwise distances and kernels by chunk pairs: block (i, j) of the result is scikit-learn's
function on row block i of X and row block j of Y (every column in both)."""
from __future__ import annotations

import numpy as np
from sklearn.metrics import pairwise as skp

from ...core.entity import ChunkData, Tiled, chunk_grid
from ...core.operand import Operand
from ...tensor.core import new_tensor
from .._blocks import _rows_whole_cols
from .._convert import to_tensor

__all__ = ["pairwise_distances", "euclidean_distances", "cosine_distances", "cosine_similarity",
           "manhattan_distances", "haversine_distances", "rbf_kernel"]


class PairwiseBlocks(Operand):
    """``func(x_block, y_block, **kwargs)`` for every pair of row blocks; with ``symmetric``
    (Y is X) the diagonal blocks get ``func(x_block, **kwargs)`` so scikit-learn zeroes their
    diagonal as it does for the whole matrix."""

    _params = ("func", "kwargs", "symmetric", "diagonal")
    diagonal = False

    def tile(self, ctx, out):
        x = yield from ctx.known(out.inputs[0])
        x = _rows_whole_cols(x, x.nsplits[0])
        if self.symmetric:
            y = x
        else:
            y = yield from ctx.known(out.inputs[1])
            y = _rows_whole_cols(y, y.nsplits[0])
        xs, ys = x.chunks[:, 0], y.chunks[:, 0]
        grid = chunk_grid((len(xs), len(ys)))
        for i, xc in enumerate(xs):
            for j, yc in enumerate(ys):
                diag = self.symmetric and i == j
                inputs = [xc] if diag else [xc, yc]
                grid[i, j] = ChunkData(self.new(diagonal=diag), inputs, (xc.shape[0], yc.shape[0]),
                                       out.meta, (i, j))
        return Tiled(grid, (x.nsplits[0], y.nsplits[0]))

    def execute(self, *blocks):
        func = getattr(skp, self.func)
        kwargs = self.kwargs or {}
        if self.diagonal:
            return func(blocks[0], **kwargs)
        return func(blocks[0], blocks[1], **kwargs)


def _pairwise(func_name: str, X, Y, kwargs: dict):
    x = to_tensor(X)
    y = None if Y is None else to_tensor(Y)
    for t in (x, y):
        if t is not None and t.ndim != 2:
            raise ValueError(f"Expected 2D array, got {t.ndim}D array instead")
    # scikit-learn's own checks (dimensions, metric names, parameters) and result dtype, now
    sample = getattr(skp, func_name)(np.zeros((1, x.shape[1]), x.dtype),
                                     None if y is None else np.zeros((1, y.shape[1]), y.dtype), **kwargs)
    op = PairwiseBlocks(func=func_name, kwargs=kwargs, symmetric=y is None, label=func_name)
    shape = (x.shape[0], (x if y is None else y).shape[0])
    return new_tensor(op, [x] if y is None else [x, y], shape, sample.dtype)


def euclidean_distances(X, Y=None, *, squared=False):
    """Euclidean distances between the rows of X and of Y (X when None)."""
    return _pairwise("euclidean_distances", X, Y, {"squared": squared})


def manhattan_distances(X, Y=None):
    """L1 distances between the rows of X and of Y."""
    return _pairwise("manhattan_distances", X, Y, {})


def cosine_similarity(X, Y=None, dense_output=True):
    """Cosine similarity between the rows of X and of Y."""
    return _pairwise("cosine_similarity", X, Y, {"dense_output": dense_output})


def cosine_distances(X, Y=None):
    """1 - cosine similarity, clipped to [0, 2]."""
    return _pairwise("cosine_distances", X, Y, {})


def haversine_distances(X, Y=None):
    """Great-circle distances between (latitude, longitude) rows, in radians."""
    return _pairwise("haversine_distances", X, Y, {})


def rbf_kernel(X, Y=None, gamma=None):
    """exp(-gamma ||x - y||^2); ``gamma`` defaults to 1 / n_features, as scikit-learn's."""
    if gamma is None:
        gamma = 1.0 / to_tensor(X).shape[1]
    return _pairwise("rbf_kernel", X, Y, {"gamma": gamma})


def pairwise_distances(X, Y=None, metric="euclidean", *, n_jobs=None, ensure_all_finite=True, **kwds):
    """Distances by any of scikit-learn's metrics (names, SciPy's, or a callable)."""
    kwargs = dict(kwds, metric=metric, ensure_all_finite=ensure_all_finite)
    return _pairwise("pairwise_distances", X, Y, kwargs)
