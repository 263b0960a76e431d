"""Positions of true elements in C order: argwhere, nonzero, flatnonzero; extract, compress,
count_nonzero.

``argwhere`` works on row bands (the chunks of one block of axis 0 joined along the other
axes, cut to a bounded number of rows): C order visits a band's rows completely before the
next band, so the bands' results in order are NumPy's order.
"""
from __future__ import annotations

import itertools
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..config import options
from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor

__all__ = ["argwhere", "nonzero", "flatnonzero", "extract", "compress", "count_nonzero", "trim_zeros"]

NAN = float("nan")


class ArgWhereBand(Operand):
    """``np.argwhere`` of a band of rows; ``grid``: the band's chunk grid along axes 1..;
    ``rows``: the rows of the band taken; ``start``: the band's first row; ``shape``: the
    tensor's shape, when flat indices are wanted."""

    _params = ("grid", "rows", "start", "shape")

    def execute(self, *pieces):
        if self.rows is not None:
            pieces = [p[slice(*self.rows)] for p in pieces]
        for d in reversed(range(len(self.grid))):
            g = self.grid[d]
            pieces = [np.concatenate(pieces[s:s + g], axis=d + 1) for s in range(0, len(pieces), g)]
        found = np.argwhere(pieces[0])
        if found.shape[1]:
            found[:, 0] += self.start
        if self.shape is not None:
            return np.ravel_multi_index(tuple(found.T), self.shape).astype(np.intp)
        return found


class TensorArgWhere(Operand):
    _params = ("flat",)

    def tile(self, ctx, out):
        t = yield from ctx.known(out.inputs[0])
        shape = tuple(int(sum(s)) for s in t.nsplits)
        ndim = len(shape)
        if ndim == 0:
            grid = chunk_grid((1,) * out.ndim)
            op = ArgWhereBand(grid=(), rows=None, start=0, shape=(1,) if self.flat else None,
                              label=self.label)
            grid[(0,) * out.ndim] = ChunkData(op, [t.chunks[()]], (NAN,) * out.ndim, out.meta,
                                              (0,) * out.ndim)
            return Tiled.from_chunks(grid) if not self.flat else Tiled(grid, ((NAN,),))
        inner = t.chunks.shape[1:]
        row_bytes = max(1, math.prod(shape[1:]) * max(1, out.inputs[0].dtype.itemsize))
        per_op = max(1, options.chunk_store_limit // row_bytes)
        starts = offsets(t.nsplits[0])
        bands = []
        for i, band in enumerate(t.nsplits[0]):
            pieces = [t.chunks[(i, *g)] for g in itertools.product(*map(range, inner))]
            for a in range(0, band, per_op) if band else [0]:
                rows = None if (a, min(band, a + per_op)) == (0, band) else (a, min(band, a + per_op))
                op = ArgWhereBand(grid=inner, rows=rows, start=int(starts[i]) + a,
                                  shape=shape if self.flat else None, label=self.label)
                bands.append((op, pieces))
        if self.flat:
            grid = chunk_grid((len(bands),))
            for k, (op, pieces) in enumerate(bands):
                grid[k] = ChunkData(op, pieces, (NAN,), out.meta, (k,))
            return Tiled(grid, ((NAN,) * len(bands),))
        grid = chunk_grid((len(bands), 1))
        for k, (op, pieces) in enumerate(bands):
            grid[k, 0] = ChunkData(op, pieces, (NAN, ndim), out.meta, (k, 0))
        return Tiled(grid, ((NAN,) * len(bands), (ndim,)))


def argwhere(a):
    """The indices of the non-zero elements, one row each, in C order."""
    a = as_tensor(a)
    shape = (NAN, a.ndim) if a.ndim else (NAN, 0)
    return new_tensor(TensorArgWhere(flat=False, label="mt.argwhere"), [a], shape, np.intp)


def nonzero(a):
    """A tuple of index tensors, one per axis, of the non-zero elements (C order)."""
    a = as_tensor(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar)"
                         ".nonzero() instead. If the context of this error is of the form "
                         "`arr[nonzero(cond)]`, just use `arr[cond]`.")
    if a.ndim == 1:
        return (flatnonzero(a),)
    found = argwhere(a)
    return tuple(found[:, i] for i in range(a.ndim))


def flatnonzero(a):
    """Indices of the non-zero elements of the flattened ``a``."""
    from .reshape import ravel

    a = as_tensor(a)
    if a.ndim == 0:
        a = ravel(a)
    return new_tensor(TensorArgWhere(flat=True, label="mt.flatnonzero"), [a], (NAN,), np.intp)


def extract(condition, arr):
    """The elements of ``arr`` where ``condition`` is non-zero (both flattened, C order)."""
    from .reshape import ravel

    cond, arr = as_tensor(condition), as_tensor(arr)
    mask = cond if cond.dtype == bool else cond != 0
    if cond.shape == arr.shape and cond.ndim:
        return arr[mask]
    flat_mask, flat = ravel(mask), ravel(arr)
    n, size = flat_mask.shape[0], flat.shape[0]
    if not (n == n and size == size) or n > size:
        raise NotImplementedError("mt.extract needs a condition no larger than arr")
    return flat[:n][flat_mask] if n < size else flat[flat_mask]


def compress(condition, a, axis=None):
    """The slices of ``a`` along ``axis`` (None: flattened) where ``condition`` is true."""
    from .reshape import ravel

    a = as_tensor(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis_index(axis, a.ndim)
    before = (slice(None),) * axis
    if isinstance(condition, Tensor):
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
        n, size = condition.shape[0], a.shape[axis]
        if n == n and size == size and n < size:
            a = a[before + (slice(0, n),)]
        mask = condition if condition.dtype == bool else condition != 0
        return a[before + (mask,)]
    cond = np.asarray(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    idx = np.flatnonzero(cond)
    size = a.shape[axis]
    if idx.size and size == size and idx[-1] >= size:
        raise IndexError(f"index {idx[-1]} is out of bounds for axis {axis} with size {size}")
    return a[before + (idx,)]


def compress_method(a, condition, axis=None):
    """``Tensor.compress(condition, axis)``."""
    return compress(condition, a, axis)


def count_nonzero(a, axis=None, *, keepdims=False):
    """How many elements are non-zero, over ``axis`` (None: all)."""
    from .arithmetic import astype
    from .reduction import sum as sum_

    a = as_tensor(a)
    if axis is not None and not isinstance(axis, tuple):
        axis = operator.index(axis)
    mask = a if a.dtype == bool else astype(a, bool)
    return sum_(mask, axis=axis, keepdims=keepdims, dtype=np.intp)


def trim_zeros(filt, trim="fb", axis=None):
    """``filt`` without its leading (``'f'``) and / or trailing (``'b'``) zeros: the elements
    after the first / before the last nonzero, found by prefix scans (a tensor of unknown
    length)."""
    from .arithmetic import logical_and
    from .cumulative import cumsum
    from .manipulation import flip

    t = as_tensor(filt)
    trim = trim.lower()
    if any(c not in "fb" for c in trim):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if t.ndim != 1:
        raise NotImplementedError("mt.trim_zeros of a tensor of more than one dimension")
    nz = t != 0
    keep = None
    if "f" in trim:
        keep = cumsum(nz) > 0
    if "b" in trim:
        back = flip(cumsum(flip(nz))) > 0
        keep = back if keep is None else logical_and(keep, back)
    return t if keep is None else t[keep]
