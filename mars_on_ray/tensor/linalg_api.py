"""The rest of ``numpy.linalg`` that is a composition of the other operations: the array-API
names (``matrix_transpose``, ``svdvals``, ``vector_norm``, ``matrix_norm``), ``multi_dot``
(products in the cheapest order), ``tensorsolve`` and ``tensorinv`` (reshaped ``solve`` /
``inv``)."""
from __future__ import annotations

import math

from numpy.linalg import LinAlgError

from .core import as_tensor
from .decompositions import norm, svd
from .linalg_solve import inv, solve, stacked

__all__: list[str] = []  # reached as mt.linalg.<name>


def matrix_transpose(x, /):
    """The last two axes swapped."""
    t = as_tensor(x)
    if t.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return t.swapaxes(-1, -2)


def svdvals(x, /):
    """The singular values (``svd(x, compute_uv=False)``; stacked matrices each in one task)."""
    t = as_tensor(x)
    return stacked(t, "svdvals") if t.ndim > 2 else svd(t, compute_uv=False)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """``norm`` over the last two axes."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """A vector norm over ``axis`` (None: all of them, several: as one flattened axis)."""
    from numpy.lib.array_utils import normalize_axis_tuple

    t = as_tensor(x)
    shape = list(t.shape)
    if axis is None:
        res = norm(t.ravel(), ord=ord, axis=0)
    elif isinstance(axis, tuple):
        axes = normalize_axis_tuple(axis, t.ndim)
        rest = tuple(i for i in range(t.ndim) if i not in axes)
        flat = t.transpose(axes + rest).reshape((math.prod(shape[i] for i in axes), *(shape[i] for i in rest)))
        res = norm(flat, ord=ord, axis=0)
    else:
        res = norm(t, ord=ord, axis=axis)
    if keepdims:
        for i in normalize_axis_tuple(range(len(shape)) if axis is None else axis, len(shape)):
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


def multi_dot(arrays, *, out=None):
    """The product of the matrices in ``arrays`` (a first / last vector as a row / column),
    multiplied in the order with the fewest scalar products, as NumPy."""
    if out is not None:
        raise NotImplementedError("mt.linalg.multi_dot: out=")
    ts = [as_tensor(a) for a in arrays]
    if len(ts) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(ts) == 2:
        return ts[0] @ ts[1]
    first_vector, last_vector = ts[0].ndim == 1, ts[-1].ndim == 1
    if first_vector:
        ts[0] = ts[0].reshape((1, -1))
    if last_vector:
        ts[-1] = ts[-1].reshape((-1, 1))
    for t in ts:
        if t.ndim != 2:
            raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be two-dimensional")
    result = _chain(ts, _chain_order([t.shape[0] for t in ts] + [ts[-1].shape[1]]), 0, len(ts) - 1)
    if first_vector and last_vector:
        return result.reshape(())
    if first_vector or last_vector:
        return result.reshape((-1,))
    return result


def _chain_order(dims):
    """Where to split each run of the chain (the textbook dynamic program NumPy uses)."""
    n = len(dims) - 1
    cost = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(ts, split, i, j):
    if i == j:
        return ts[i]
    k = split[i][j]
    return _chain(ts, split, i, k) @ _chain(ts, split, k + 1, j)


def tensorsolve(a, b, axes=None):
    """``x`` with ``tensordot(a, x, axes=x.ndim) == b``: a reshaped ``solve``."""
    t, rhs = as_tensor(a), as_tensor(b)
    if axes is not None:
        order = [i for i in range(t.ndim) if i not in [k % t.ndim for k in axes]] + [k % t.ndim for k in axes]
        t = t.transpose(order)
    old = t.shape[t.ndim - (t.ndim - rhs.ndim):] if t.ndim > rhs.ndim else ()
    size = math.prod(old)
    if math.prod(t.shape) != size ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(t.reshape((size, size)), rhs.ravel()).reshape(old)


def tensorinv(a, ind=2):
    """The inverse of ``a`` for ``tensordot(., ., ind)``: a reshaped ``inv``."""
    t = as_tensor(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    size = math.prod(t.shape[ind:])
    return inv(t.reshape((size, -1))).reshape(t.shape[ind:] + t.shape[:ind])
