"""Label columns compressed to their distinct rows with summed weights.

Classification metrics depend on the data only through how often each distinct combination
of (y_true, y_pred[, weight]) occurs, so each row block is compressed, the blocks' results are
merged by a tree, and scikit-learn's own function runs once on the distinct rows with the
counts as ``sample_weight``: its checks, target types and arithmetic are used as they are.
"""
from __future__ import annotations

import numpy as np

from .._blocks import row_reduce
from .._convert import to_tensor
from ..utils.validation import check_consistent_length


def _as_2d(col: np.ndarray) -> np.ndarray:
    return col.reshape(len(col), -1)


def group_rows(cols: list, weights: np.ndarray):
    """(distinct rows of ``cols`` as arrays shaped like them, summed ``weights`` per row)."""
    n = len(weights)
    codes, uniques = [], []
    for col in cols:
        flat = _as_2d(col)
        for j in range(flat.shape[1]):
            u, inv = np.unique(flat[:, j], return_inverse=True)
            uniques.append(u)
            codes.append(inv.reshape(-1))
    if not codes or n == 0:
        return [c[:0] for c in cols], weights[:0]
    rows, inv = _distinct_code_rows(codes, [len(u) for u in uniques])
    summed = np.bincount(inv.reshape(-1), weights=weights, minlength=len(rows))
    if weights.dtype.kind in "iu":
        summed = summed.astype(np.int64)
    out, j = [], 0
    for col in cols:
        width = _as_2d(col).shape[1]
        block = np.stack([uniques[j + k][rows[:, j + k]] for k in range(width)], axis=1) if width else \
            np.empty((len(rows), 0), col.dtype)
        out.append(block.astype(col.dtype, copy=False).reshape((len(rows),) + col.shape[1:]))
        j += width
    return out, summed


def _distinct_code_rows(codes: list, sizes: list):
    """(distinct rows of the code columns, each row's position among them): one mixed-radix
    integer per row when the sizes allow it (a 1-D unique is much faster than ``axis=0``)."""
    if float(np.prod([max(s, 1) for s in sizes], dtype=np.float64)) < 2.0**62:
        key = np.zeros(len(codes[0]), dtype=np.int64)
        for c, size in zip(codes, sizes):
            key = key * size + c
        keys, inv = np.unique(key, return_inverse=True)
        rows = np.empty((len(keys), len(codes)), dtype=np.int64)
        for j in range(len(codes) - 1, -1, -1):
            keys, rows[:, j] = np.divmod(keys, sizes[j])
        return rows, inv
    return np.unique(np.stack(codes, axis=1), axis=0, return_inverse=True)


def _partial(*blocks, weighted):
    cols = list(blocks[:-1]) if weighted else list(blocks)
    weights = np.asarray(blocks[-1], dtype=np.float64) if weighted else np.ones(len(cols[0]), np.int64)
    return group_rows(cols, weights)


def _merge(parts):
    cols = [np.concatenate([p[0][i] for p in parts]) for i in range(len(parts[0][0]))]
    return group_rows(cols, np.concatenate([p[1] for p in parts]))


def compressed(finish, arrays: list, sample_weight=None, *, shape=(), dtype=object, kwargs=None,
               label=None):
    """A one-chunk tensor: ``finish(distinct_rows, counts, **kwargs)`` over ``arrays``' rows."""
    check_consistent_length(*arrays, sample_weight)
    tensors = [to_tensor(a) for a in arrays]
    if sample_weight is not None:
        tensors.append(to_tensor(sample_weight))
    return row_reduce(_partial, _merge, _Finish(finish, kwargs or {}), tensors, shape=shape, dtype=dtype,
                      kwargs={"weighted": sample_weight is not None}, label=label)


class _Finish:
    """``finish(merged_rows, counts, **kwargs)``: a picklable, tokenisable closure."""

    def __init__(self, func, kwargs):
        self.func, self.kwargs = func, kwargs

    def __call__(self, merged):
        rows, counts = merged
        return self.func(rows, counts, **self.kwargs)

    def __mars_token__(self):
        return ("learn.metrics.finish", self.func, self.kwargs)
