"""Statistics and grids built from existing operations: average, cov, corrcoef, indices,
meshgrid, mgrid / ogrid, r_ / c_, unravel_index, delete, insert, and small helpers."""
from __future__ import annotations

import numbers

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .arithmetic import elementwise
from .core import Tensor, as_tensor
from .joining import concatenate
from .reshape import reshape, transpose

__all__ = ["average", "cov", "corrcoef", "indices", "meshgrid", "mgrid", "ogrid", "r_", "c_",
           "unravel_index", "ndindex", "scalar", "product", "delete", "insert"]


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """The (weighted) mean along ``axis``; ``returned`` adds the sum of the weights."""
    t = as_tensor(a)
    if weights is None:
        avg = t.mean(axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        count = np.prod([t.shape[i] for i in ([axis] if isinstance(axis, int) else axis or range(t.ndim))])
        from .datasource import full_like

        return avg, full_like(avg, avg.dtype.type(count))
    w = as_tensor(weights)
    if tuple(w.shape) != tuple(t.shape):  # NumPy 2's checks, in its order
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = tuple(normalize_axis_index(a, t.ndim) for a in ((axis,) if isinstance(axis, int) else axis))
        if tuple(w.shape) != tuple(t.shape[a] for a in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        order = np.argsort(axes)
        w = reshape(transpose(w, order) if w.ndim > 1 else w,
                    tuple(t.shape[i] if i in axes else 1 for i in range(t.ndim)))
    dtype = np.result_type(t.dtype, w.dtype, np.float64 if np.issubdtype(t.dtype, np.integer) else t.dtype)
    scale = (w * t.astype(dtype)).sum(axis=axis, keepdims=keepdims)
    wsum = w.astype(dtype).sum(axis=axis, keepdims=keepdims)
    avg = scale / wsum  # a zero weight sum gives NumPy's inf/nan where NumPy raises ZeroDivisionError
    if returned:
        from .manipulation import broadcast_to

        return avg, broadcast_to(wsum, tuple(avg.shape)) if tuple(wsum.shape) != tuple(avg.shape) else wsum
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """The covariance matrix of the variables (rows when ``rowvar``) of ``m`` (and ``y``),
    with NumPy's frequency (``fweights``) and reliability (``aweights``) weights."""
    x = as_tensor(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = x if x.ndim == 2 else reshape(x, (1, -1))
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yt = as_tensor(y)
        yt = yt if yt.ndim == 2 else reshape(yt, (1, -1))
        if not rowvar and yt.shape[0] != 1:
            yt = yt.T
        x = concatenate([x, yt], axis=0)
    dtype = dtype or np.result_type(x.dtype, np.float64)
    x = x.astype(dtype)
    ddof = (0 if bias else 1) if ddof is None else ddof
    n = x.shape[1]
    if fweights is None and aweights is None:
        centered = x - x.mean(axis=1, keepdims=True)
        c = (centered @ centered.conj().T) / (n - ddof)
        return reshape(c, ()) if c.shape == (1, 1) else c
    fw, aw = _cov_weights(fweights, aweights, n)
    w = fw if aw is None else aw if fw is None else fw * aw
    w_sum = w.sum()
    centered = x - (x * w).sum(axis=1, keepdims=True) / w_sum
    if ddof == 0:
        fact = w_sum
    elif aw is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * (w * aw).sum() / w_sum
    c = (centered @ (centered * w).conj().T) / fact
    return reshape(c, ()) if c.shape == (1, 1) else c


def _cov_weights(fweights, aweights, n):
    """The weights as tensors; NumPy's errors (checked on the values of client arrays)."""
    eager = {k: w for k, w in (("fweights", fweights), ("aweights", aweights))
             if w is not None and not isinstance(w, Tensor)}
    if eager and n == n:
        np.cov(np.zeros((1, int(n))), **eager)
    for name, w in (("fweights", fweights), ("aweights", aweights)):
        if isinstance(w, Tensor):
            if w.ndim > 1:
                raise RuntimeError(f"cannot handle multidimensional {name}")
            if w.ndim == 0 or w.shape[0] != n:
                raise RuntimeError(f"incompatible numbers of samples and {name}")
    fw = None if fweights is None else as_tensor(fweights).astype(np.float64)
    aw = None if aweights is None else as_tensor(aweights).astype(np.float64)
    return fw, aw


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients (``cov`` normalised by the standard deviations)."""
    from .arithmetic import clip, sqrt
    from .manipulation import diag

    c = cov(x, y, rowvar=rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = sqrt(diag(c))
    r = c / d[:, None] / d[None, :]
    return r if np.iscomplexobj(r.data.meta) else clip(r, -1, 1)


def indices(dimensions, dtype=int, sparse=False):
    """A grid of index arrays (``sparse``: broadcastable ones), as NumPy's ``indices``."""
    from .datasource import arange

    dims = tuple(dimensions)
    grids = []
    for i, n in enumerate(dims):
        shape = tuple(n if j == i else 1 for j in range(len(dims)))
        g = reshape(arange(n, dtype=dtype), shape)
        grids.append(g if sparse else _broadcast(g, dims))
    if sparse:
        return tuple(grids)
    from .joining import stack

    return stack(grids) if grids else as_tensor(np.empty((0,), dtype))


def _broadcast(t, shape):
    from .manipulation import broadcast_to

    return broadcast_to(t, shape) if tuple(t.shape) != tuple(shape) else t


def meshgrid(*xi, indexing="xy", sparse=False, copy=True):
    """Coordinate tensors from 1-D coordinate vectors (NumPy's ``meshgrid``)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    vectors = [reshape(as_tensor(x), -1) for x in xi]
    ndim = len(vectors)
    out = []
    for i, v in enumerate(vectors):
        shape = [1] * ndim
        shape[i] = -1
        out.append(reshape(v, tuple(shape)))
    if indexing == "xy" and ndim > 1:
        out[0] = reshape(out[0], (1, -1) + (1,) * (ndim - 2))
        out[1] = reshape(out[1], (-1, 1) + (1,) * (ndim - 2))
    if sparse:
        return tuple(out)
    full = tuple(np.broadcast_shapes(*(tuple(o.shape) for o in out)))
    return tuple(_broadcast(o, full) for o in out)


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: NumPy's slice grammar, values made lazily."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        from .datasource import linspace

        keys = key if isinstance(key, tuple) else (key,)
        vectors = []
        for k in keys:
            start, stop, step = k.start or 0, k.stop, 1 if k.step is None else k.step
            if isinstance(step, complex):
                vectors.append(linspace(start, stop, int(abs(step))))
            else:
                from .datasource import arange

                vectors.append(arange(start, stop, step))
        if not isinstance(key, tuple):
            return vectors[0]
        grids = meshgrid(*vectors, indexing="ij", sparse=self.sparse)
        if self.sparse:
            return list(grids)
        from .joining import stack

        return stack(grids)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concat:
    """``r_[...]`` / ``c_[...]``: slices become ranges, arrays are joined (NumPy's grammar for
    the axis string is not supported)."""

    def __init__(self, axis, ndmin):
        self.axis, self.ndmin = axis, ndmin

    def __getitem__(self, key):
        from .datasource import arange, linspace

        parts = []
        for k in key if isinstance(key, tuple) else (key,):
            if isinstance(k, str):
                raise NotImplementedError("the string directives of r_ / c_ are not supported")
            if isinstance(k, slice):
                step = 1 if k.step is None else k.step
                part = linspace(k.start or 0, k.stop, int(abs(step))) if isinstance(step, complex) \
                    else arange(k.start or 0, k.stop, step)
            else:
                part = as_tensor(k)
                part = part if part.ndim else reshape(part, (1,))
            if self.ndmin == 2 and part.ndim == 1:
                part = reshape(part, (-1, 1))
            parts.append(part)
        return concatenate(parts, axis=self.axis)


r_ = _Concat(axis=0, ndmin=1)
c_ = _Concat(axis=-1, ndmin=2)


def unravel_index(indices, shape, order="C"):
    """A tuple of coordinate tensors for flat ``indices`` into ``shape``."""
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    t = as_tensor(indices)
    np.unravel_index(np.zeros(1, t.dtype), shape, order=order)  # NumPy's errors for bad args
    return tuple(elementwise(f"mars_on_ray.tensor.numeric:_unravel#{i}", (t,), label="mt.unravel_index",
                             result_dtype=np.intp, shape=shape, order=order) for i in range(len(shape)))


def _unravel(x, shape, order):
    return np.unravel_index(x, shape, order=order)


def ndindex(*shape):
    """NumPy's ``ndindex``: an iterator over every index of ``shape``."""
    return np.ndindex(*shape)


def scalar(data, dtype=None, gpu=None):
    """A 0-d tensor holding ``data``."""
    return as_tensor(np.asarray(data, dtype=dtype))


def product(a, axis=None, dtype=None, out=None, keepdims=False):
    """The old name of ``prod``."""
    return as_tensor(a).prod(axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def _axis_and_flat(t, axis):
    if axis is None:
        return reshape(t, -1), 0
    return t, normalize_axis_index(axis, t.ndim)


def delete(arr, obj, axis=None):
    """``arr`` without the entries ``obj`` (an int, slice or index list) along ``axis``."""
    t, axis = _axis_and_flat(as_tensor(arr), axis)
    n = t.shape[axis]
    keep = np.ones(n, bool)
    keep[obj if not isinstance(obj, Tensor) else np.asarray(obj.fetch())] = False
    positions = np.flatnonzero(keep)
    from .manipulation import take

    return take(t, positions, axis=axis)


def insert(arr, obj, values, axis=None):
    """``values`` inserted before the positions ``obj`` along ``axis`` (NumPy's ``insert``)."""
    t, axis = _axis_and_flat(as_tensor(arr), axis)
    n = t.shape[axis]
    if isinstance(obj, slice) or np.ndim(obj) > 0:
        sample = np.insert(np.arange(n), obj, -1)  # where the originals go; -1 marks new slots
        vals = as_tensor(values).astype(t.dtype)
        if vals.ndim < t.ndim:  # values of a sequence ``obj`` are laid along the axis
            vals = reshape(vals, (1,) * (t.ndim - vals.ndim) + tuple(vals.shape))
            if t.ndim > 1 and vals.shape[-1] != 1:
                from .manipulation import moveaxis

                vals = moveaxis(vals, -1, axis)
    else:  # a scalar position takes all of values: np.array(values, ndmin=ndim), axis 0 moved
        vals = as_tensor(values).astype(t.dtype)
        if vals.ndim < t.ndim:
            vals = reshape(vals, (1,) * (t.ndim - vals.ndim) + tuple(vals.shape))
        from .manipulation import moveaxis

        vals = moveaxis(vals, 0, axis)
        sample = np.insert(np.arange(n), obj, np.full(vals.shape[axis], -1))
    new_slots = np.flatnonzero(sample == -1)
    shape = list(t.shape)
    shape[axis] = len(new_slots)
    from .manipulation import broadcast_to, take

    vals = broadcast_to(vals, tuple(shape)) if tuple(vals.shape) != tuple(shape) else vals
    joined = concatenate([t, vals], axis=axis)
    order = np.empty(len(sample), np.intp)
    order[sample != -1] = np.arange(n)
    order[new_slots] = n + np.arange(len(new_slots))
    return take(joined, order, axis=axis)
