"""Column moments of row blocks in one pass: count, means and the centered scatter matrix
(merged by Chan's formula, so no sum-of-squares cancellation), optionally weighted."""
from __future__ import annotations

import functools

import numpy as np

from ._blocks import row_reduce


def scatter_block(*blocks, weighted):
    """(weight total, column means, centered scatter) of a block: X[, y][, w] side by side."""
    data = list(blocks)
    w = data.pop() if weighted else None
    Z = np.hstack([d.reshape(len(d), -1) for d in data])
    if w is None:
        total, mean = float(len(Z)), Z.mean(0)
        C = Z - mean
        return total, mean, C.T @ C
    total = float(w.sum())
    mean = (w @ Z) / total if total > 0 else np.zeros(Z.shape[1])
    C = Z - mean
    return total, mean, (C * w[:, None]).T @ C


def merge_scatter(parts):
    return functools.reduce(_merge_two, parts)


def _merge_two(a, b):
    (na, ma, sa), (nb, mb, sb) = a, b
    n = na + nb
    if n == 0:
        return a
    delta = mb - ma
    return n, ma + delta * (nb / n), sa + sb + np.outer(delta, delta) * (na * nb / n)


def scatter(rows, weights=None, label="moments"):
    """A lazy 0-d value ``(total weight, means, scatter)`` of the rows' columns side by side."""
    inputs = list(rows) + ([] if weights is None else [weights])
    return row_reduce(scatter_block, merge_scatter, None, inputs, dtype=object,
                      kwargs={"weighted": weights is not None}, label=label)
