"""Order statistics: topk / argtopk (tree reduction of per-chunk candidates) and quantile,
percentile, median (exact: the few order statistics NumPy's formula reads are taken from the
distributed sort, then combined with NumPy's own interpolation helpers)."""
from __future__ import annotations

import warnings

import numpy as np
from numpy.lib import _function_base_impl as _fb
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from ..config import options
from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from ..core.user import Tileable
from .core import as_tensor, new_tensor, tensor_meta
from .rankselect import select_ranks
from .sorting import sort

__all__ = ["topk", "argtopk", "quantile", "percentile", "median"]


# --- topk ---------------------------------------------------------------------------------------

def _ranked(x, axis, largest):
    """Positions along ``axis`` from best to worst; ties by position (stable)."""
    if not largest:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _prefilter(values, index, op):
    """1-D: drop what cannot be among the best ``k`` (an O(n) partition) before ranking."""
    n = len(values)
    if values.ndim != 1 or n <= 2 * op.k or values.dtype.kind not in "biuf":
        return values, index
    kth = n - op.k if op.largest else op.k - 1
    t = np.partition(values, kth)[kth]  # NumPy's order: NaN largest
    if t != t:  # the threshold is NaN
        keep = np.isnan(values) if op.largest else np.ones(n, bool)
    elif op.largest:
        keep = values >= t
        if values.dtype.kind == "f":
            keep |= np.isnan(values)
    else:
        keep = values <= t
    return values[keep], index[keep]


def _best(values, index, op, final=False):
    """The best ``k`` candidates; kept in index order unless ``final``."""
    values, index = _prefilter(values, index, op)
    pos = _ranked(values, op.axis, op.largest)
    pos = np.take(pos, np.arange(min(op.k, values.shape[op.axis])), axis=op.axis)
    if not final:
        pos = np.sort(pos, axis=op.axis)
    return np.take_along_axis(values, pos, op.axis), np.take_along_axis(index, pos, op.axis)


class TopkChunk(Operand):
    _params = ("k", "axis", "largest", "offset")

    def execute(self, x):
        shape = [1] * x.ndim
        shape[self.axis] = x.shape[self.axis]
        index = np.broadcast_to(np.arange(x.shape[self.axis]).reshape(shape) + self.offset, x.shape)
        return _best(x, index, self)


class TopkCombine(Operand):
    _params = ("k", "axis", "largest")

    def execute(self, *parts):
        return _best(np.concatenate([p[0] for p in parts], self.axis),
                     np.concatenate([p[1] for p in parts], self.axis), self)


class TopkFinish(Operand):
    """The best ``k`` in rank order; ``output`` 0: the values, 1: their indices."""

    _params = ("k", "axis", "largest", "output")

    def execute(self, *parts):
        values, index = _best(np.concatenate([p[0] for p in parts], self.axis),
                              np.concatenate([p[1] for p in parts], self.axis), self, final=True)
        return values if self.output == 0 else np.asarray(index, dtype=np.intp)


class TensorTopk(Operand):
    _params = ("k", "axis", "largest", "output")

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        axis = self.axis
        starts = offsets(tiled.nsplits[axis])
        meta = tensor_meta(out.inputs[0].dtype, out.ndim)
        partials = chunk_grid(tiled.chunks.shape)
        for idx, c in np.ndenumerate(tiled.chunks):
            op = TopkChunk(k=self.k, axis=axis, largest=self.largest, offset=int(starts[idx[axis]]),
                           label=self.label)
            shape = list(c.shape)
            shape[axis] = min(self.k, shape[axis])
            partials[idx] = ChunkData(op, [c], tuple(shape), meta, idx)

        def combine(chunks, index):
            op = TopkCombine(k=self.k, axis=axis, largest=self.largest, label=self.label)
            return ChunkData(op, chunks, chunks[0].shape, meta, index)

        def finish(chunks, kept):
            op = TopkFinish(k=self.k, axis=axis, largest=self.largest, output=self.output,
                            label=self.label)
            shape = list(chunks[0].shape)
            shape[axis] = self.k
            return ChunkData(op, chunks, tuple(shape), out.meta, kept[:axis] + (0,) + kept[axis:])

        grid = tree_reduce(partials, (axis,), combine, finish, options.combine_size)
        return Tiled.from_chunks(np.expand_dims(grid, axis))


def _topk(a, k, axis, largest, order, output, name):
    a = as_tensor(a)
    if order is not None:
        raise NotImplementedError(f"mt.{name}: order= is not supported")
    if axis is None:
        from .reshape import ravel

        a, axis = ravel(a), 0
    axis = normalize_axis_index(axis, a.ndim)
    k = int(k)
    n = a.shape[axis]
    if k <= 0 or (n == n and k > n):
        raise ValueError(f"k must be in [1, {n}], got {k}")
    shape = a.shape[:axis] + (k,) + a.shape[axis + 1:]
    op = TensorTopk(k=k, axis=axis, largest=bool(largest), output=output, label=f"mt.{name}")
    return new_tensor(op, [a], shape, a.dtype if output == 0 else np.intp)


def topk(a, k, axis=-1, largest=True, sorted=True, order=None, return_index=False):
    """The ``k`` largest (``largest=False``: smallest) elements along ``axis`` (None: flat),
    best first; equal values keep index order, NaN ranks as the largest value (NumPy's sort
    order). ``return_index=True`` also returns their indices along ``axis``."""
    values = _topk(a, k, axis, largest, order, 0, "topk")
    if not return_index:
        return values
    return values, _topk(a, k, axis, largest, order, 1, "topk")


def argtopk(a, k, axis=-1, largest=True, sorted=True, order=None):
    """The indices along ``axis`` of :func:`topk`'s elements."""
    return _topk(a, k, axis, largest, order, 1, "argtopk")


# --- quantiles ----------------------------------------------------------------------------------

class TakeLocal(Operand):
    _params = ("indices", "axis")

    def execute(self, x):
        return np.take(x, self.indices, axis=self.axis)


class QuantileFinish(Operand):
    """NumPy's quantile (or median) of one block from the order statistics ``stats`` (sorted
    positions along ``axis``) of lanes of length ``n``."""

    _params = ("q", "n", "stats", "axis", "method", "keepdims", "dtype")

    def execute(self, *pieces):
        g = np.moveaxis(np.concatenate(pieces, axis=self.axis), self.axis, 0)
        at = lambda idx: np.searchsorted(self.stats, np.asarray(idx) % self.n)  # noqa: E731
        last = g[at(self.n - 1)] if self.n else g[:0].sum(axis=0)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            if self.n == 0 and self.method is not None:  # only for internal callers
                result = np.full(np.shape(self.q) + g.shape[1:], np.nan)
            elif self.n == 0:
                result = np.mean(g, axis=0)
            elif self.method is None:
                result = np.mean(g[[at((self.n - 1) // 2), at(self.n // 2)]], axis=0)
            else:
                result = self._quantile(g, at)
        if np.issubdtype(g.dtype, np.inexact) or g.dtype.kind in "mM":
            nan = np.isnan(last)
            if np.any(nan):
                result = np.where(nan, last, result)
        if self.keepdims:
            result = np.expand_dims(result, np.ndim(self.q) + self.axis)
        return np.asarray(result).astype(self.dtype, copy=False)

    def _quantile(self, g, at):
        q = np.asarray(self.q)
        props = _fb._QuantileMethods[self.method]
        vi = np.asanyarray(props["get_virtual_index"](self.n, q))
        if props["fix_gamma"] is None or (self.method == "linear"
                                          and np.issubdtype(vi.dtype, np.integer)):
            return np.take(g, at(vi), axis=0)
        prev, nxt = _fb._get_indexes(g[:0], vi, self.n)
        gamma = _fb._get_gamma(vi, prev, props)
        gamma = gamma.reshape(vi.shape + (1,) * (g.ndim - 1))
        return _fb._lerp(np.take(g, at(prev), axis=0), np.take(g, at(nxt), axis=0), gamma)


def _stats(q, n, method, dtype) -> np.ndarray:
    """The sorted positions the formula reads (the last one always: NaN sorts there)."""
    if method is None:
        idx = [(n - 1) // 2, n // 2]
    else:
        props = _fb._QuantileMethods[method]
        vi = np.asanyarray(props["get_virtual_index"](n, np.asarray(q)))
        if np.issubdtype(vi.dtype, np.integer):
            idx = vi.ravel()
        else:
            prev, nxt = _fb._get_indexes(np.empty(0, dtype), vi, n)
            idx = np.concatenate([prev.ravel(), nxt.ravel()])
    return np.unique(np.asarray([*np.asarray(idx).ravel(), n - 1], dtype=np.int64) % n)


class TensorQuantile(Operand):
    """Quantiles along ``axis`` of a tensor sorted along it, or (``select``) of a 1-D tensor
    whose needed order statistics are found by exact selection."""

    _params = ("q", "axis", "method", "keepdims", "empty_nan", "select")
    empty_nan = select = False

    def tile(self, ctx, out):
        inp = out.inputs[0]
        tiled = yield from ctx.known(inp)
        axis, nq = self.axis, np.ndim(self.q)
        n = int(sum(tiled.nsplits[axis]))
        if n == 0 and self.method is not None and not self.empty_nan:
            raise IndexError(f"index -1 is out of bounds for axis {axis} with size 0")
        stats = _stats(self.q, n, self.method, inp.dtype) if n else np.array([], np.int64)
        starts = offsets(tiled.nsplits[axis])
        moved = np.moveaxis(tiled.chunks, axis, -1)
        kept = list(moved.shape[:-1])
        if self.keepdims:
            kept.insert(axis, 1)
        grid = chunk_grid((1,) * nq + tuple(kept))
        for pos in np.ndindex(*moved.shape[:-1]):
            pieces = []
            if self.select and n:
                pieces.append((yield from select_ranks(tiled, stats, inp.dtype, self.label)))
            for j, c in enumerate(moved[pos] if not pieces else ()):
                local = stats[(stats >= starts[j]) & (stats < starts[j + 1])] - starts[j]
                if len(local) or (not pieces and j == len(moved[pos]) - 1):
                    shape = list(c.shape)
                    shape[axis] = len(local)
                    op = TakeLocal(indices=local, axis=axis, label=self.label)
                    pieces.append(ChunkData(op, [c], tuple(shape), c.meta, c.index))
            op = QuantileFinish(q=self.q, n=n, stats=stats, axis=axis, method=self.method,
                                keepdims=self.keepdims, dtype=out.dtype, label=self.label)
            rest = list(pieces[0].shape)
            rest[axis] = 1
            if not self.keepdims:
                del rest[axis]
            shape = np.shape(self.q) + tuple(rest)
            index = (0,) * nq + (pos[:axis] + (0,) + pos[axis:] if self.keepdims else pos)
            grid[index] = ChunkData(op, pieces, shape, out.meta, index)
        return Tiled.from_chunks(grid)


def _weighted(name, a, q, axis, method, keepdims, weights):
    """Quantiles with ``weights`` (``inverted_cdf``) of a whole 1-D or flattened tensor."""
    from .reshape import ravel, reshape
    from .weighted import TensorWeightedQuantile

    w = as_tensor(weights)
    sample = np.zeros((2,), a.dtype)
    expected = getattr(np, name)(sample, q, method=method, weights=np.ones(2))  # NumPy's checks
    if not (axis is None or a.ndim == 1) or w.shape != a.shape:
        raise NotImplementedError(f"mt.{name}: weights= needs axis=None (or a 1-d tensor) and "
                                  "weights of the tensor's shape")
    if a.ndim == 1 and axis is not None:
        normalize_axis_index(axis, 1)
    qv = np.true_divide(q, 100) if name == "percentile" else np.asarray(q)
    qv = float(qv) if isinstance(q, (int, float)) else qv
    dtype = np.asarray(expected).dtype
    op = TensorWeightedQuantile(q=qv, dtype=dtype, label=f"mt.{name}")
    result = new_tensor(op, [ravel(a) if a.ndim != 1 else a, ravel(w) if w.ndim != 1 else w],
                        np.shape(qv), dtype)
    return reshape(result, *(np.shape(qv) + (1,) * a.ndim)) if keepdims else result


def _quantile(name, a, q, axis, method, keepdims, weights, median=False, empty_nan=False):
    if isinstance(q, Tileable):
        raise NotImplementedError(f"mt.{name}: q must be a number or an array, not a lazy object")
    if weights is not None:
        return _weighted(name, as_tensor(a), q, axis, method, keepdims, weights)
    a = as_tensor(a)
    sample = np.zeros(tuple(2 if s != 0 else 0 for s in a.shape), dtype=a.dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if median:
            expected = np.median(sample, axis=axis, keepdims=keepdims)
        else:
            expected = getattr(np, name)(np.ones((2,), a.dtype) if sample.size == 0 else sample,
                                         q, axis=axis if sample.size else None, method=method)
    dtype = np.asarray(expected).dtype
    qv = None if median else q_fractions(q, name)
    ndim = a.ndim
    axes = tuple(range(ndim)) if axis is None else normalize_axis_tuple(axis, ndim)
    x = a
    if axis is None or len(axes) > 1:
        from .reshape import reshape, transpose

        others = [d for d in range(ndim) if d not in axes]
        x = reshape(transpose(a, others + list(axes)), *[a.shape[d] for d in others], -1)
    ax = x.ndim - 1 if (axis is None or len(axes) > 1) else axes[0]
    if ndim and a.shape[axes[0]] == 0 and not (median or empty_nan) and all(s == s for s in a.shape):
        raise IndexError(f"index -1 is out of bounds for axis {ax} with size 0")
    select = x.ndim == 1  # a whole 1-D tensor: exact selection, no sort
    s = x if select else sort(x, axis=ax)
    op = TensorQuantile(q=qv, axis=ax, method=None if median else method,
                        keepdims=bool(keepdims) and axis is not None and len(axes) == 1,
                        empty_nan=empty_nan, select=select, label=f"mt.{name}")
    rest = list(x.shape)
    del rest[ax]
    shape = np.shape(qv) + tuple(rest)
    if op.keepdims:
        shape = np.shape(qv) + tuple(1 if d == ax else x.shape[d] for d in range(x.ndim))
    result = new_tensor(op, [s], shape, dtype)
    if keepdims and not op.keepdims:
        from .reshape import reshape

        kept = tuple(1 if d in axes else a.shape[d] for d in range(ndim))
        result = reshape(result, *(np.shape(qv) + kept))
    return result


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None, interpolation=None):
    """The ``q``-th quantiles along ``axis`` (every NumPy ``method``), exact; ``weights``
    (``method='inverted_cdf'``) for a whole 1-D or flattened tensor."""
    _no_out("quantile", out)
    return _quantile("quantile", a, q, axis, interpolation or method, keepdims, weights)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
               *, weights=None, interpolation=None):
    """The ``q``-th percentiles along ``axis`` (every NumPy ``method``), exact; ``weights``
    as :func:`quantile`."""
    _no_out("percentile", out)
    return _quantile("percentile", a, q, axis, interpolation or method, keepdims, weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along ``axis`` (the mean of the two middle values for even lengths)."""
    _no_out("median", out)
    return _quantile("median", a, None, axis, None, keepdims, None, median=True)


def _no_out(name, out):
    if out is not None:
        raise TypeError(f"mt.{name}: out= is not supported")


def q_fractions(q, name: str):
    """``q`` as NumPy's fractions (``percentile``: /100); a Python number stays a float."""
    qv = np.true_divide(q, 100) if name == "percentile" else np.asarray(q)
    return float(qv) if isinstance(q, (int, float)) else qv
