"""Column moments of row blocks in one pass: count, means and the centered scatter matrix
(merged by Chan's formula, so no sum-of-squares cancellation), optionally weighted."""
from __future__ import annotations

import functools

import numpy as np

from ._blocks import row_reduce


_SLICE_ROWS = 1 << 14  # rows of X taken at a time where temporaries should stay in cache


def scatter_block(*blocks, weighted, check_finite=False, diagonal=False):
    """(weight total, column means, centered scatter) of a block: X[, y][, w] side by side;
    ``check_finite``: scikit-learn's ValueError for NaN or infinity in the first input (an
    estimator's name: named in the message, as scikit-learn's);
    ``diagonal``: the scatter's diagonal only (the centered sums of squares)."""
    data = list(blocks)
    w = data.pop() if weighted else None
    if check_finite and not np.isfinite(data[0].sum()):
        from sklearn.utils.validation import _assert_all_finite

        _assert_all_finite(data[0], input_name="X",
                           estimator_name=check_finite if isinstance(check_finite, str) else None)
    Z = data[0].reshape(len(data[0]), -1) if len(data) == 1 else \
        np.hstack([d.reshape(len(d), -1) for d in data])
    if w is None and diagonal:
        mean = Z.mean(0)
        squares = sum(((Z[lo:lo + _SLICE_ROWS] - mean) ** 2).sum(0) for lo in range(0, len(Z), _SLICE_ROWS))
        return float(len(Z)), mean, squares + np.zeros(Z.shape[1])
    if w is None:
        total, mean = float(len(Z)), Z.mean(0)
        C = Z - mean
        return total, mean, C.T @ C
    total = float(w.sum())
    mean = (w @ Z) / total if total > 0 else np.zeros(Z.shape[1])
    C = Z - mean
    return total, mean, ((C * C).T @ w if diagonal else (C * w[:, None]).T @ C)


def merge_scatter(parts):
    return functools.reduce(_merge_two, parts)


def _merge_two(a, b):
    (na, ma, sa), (nb, mb, sb) = a, b
    n = na + nb
    if n == 0:
        return a
    delta = mb - ma
    cross = delta * delta if sa.ndim == 1 else np.outer(delta, delta)
    return n, ma + delta * (nb / n), sa + sb + cross * (na * nb / n)


def scatter(rows, weights=None, label="moments", check_finite=False, diagonal=False):
    """A lazy 0-d value ``(total weight, means, scatter)`` of the rows' columns side by side
    (``check_finite``: the first input's finiteness is checked in the same pass; ``diagonal``:
    the scatter's diagonal only, a vector)."""
    inputs = list(rows) + ([] if weights is None else [weights])
    return row_reduce(scatter_block, merge_scatter, None, inputs, dtype=object,
                      kwargs={"weighted": weights is not None, "check_finite": check_finite,
                              "diagonal": diagonal}, label=label)


def checked_features(estimator, X):
    """X as a float tensor validated for fitting ``estimator`` (scikit-learn's
    ``validate_data(reset=True)``), except finiteness for lazy input: that is left to the
    estimator's first pass (``scatter(check_finite=True)``), so a persisted X keeps its key
    and is not copied by a pass-through check."""
    from ..core.user import Tileable
    from .utils.validation import validate_data, with_known_rows

    return with_known_rows(validate_data(estimator, X, reset=True, dtype=[np.float64, np.float32],
                                         ensure_all_finite=not isinstance(X, Tileable)))
