"""Scans and differences along an axis across chunk boundaries: cumsum, cumprod, nancumsum,
nancumprod (a prefix scan: each chunk's own scan combined with the carry of the chunks before
it, carries chained along the axis), diff, ediff1d, trapz; and ptp."""
from __future__ import annotations

import operator
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor

__all__ = ["cumsum", "cumprod", "nancumsum", "nancumprod", "diff", "ediff1d", "trapz", "trapezoid", "ptp", "unwrap"]

_SCANS = {  # name: (scan, total of a chunk, combine with a carry)
    "cumsum": (np.cumsum, np.sum, np.add),
    "cumprod": (np.cumprod, np.prod, np.multiply),
    "nancumsum": (np.nancumsum, np.nansum, np.add),
    "nancumprod": (np.nancumprod, np.nanprod, np.multiply),
}


class ScanChunk(Operand):
    """A chunk's scan, combined with the carry of the chunks before it (second input)."""

    _params = ("func", "axis", "dtype")

    def execute(self, x, carry=None):
        scan, _, combine = _SCANS[self.func]
        result = scan(x, axis=self.axis, dtype=self.dtype)
        return result if carry is None else combine(carry, result, dtype=self.dtype)


class ScanCarry(Operand):
    """The carry after a chunk: the previous carry combined with the chunk's total."""

    _params = ("func", "axis", "dtype")

    def execute(self, x, carry=None):
        _, total, combine = _SCANS[self.func]
        if x.shape[self.axis] == 0:  # an empty chunk (unknown extents) passes the carry on
            return carry
        own = total(x, axis=self.axis, keepdims=True, dtype=self.dtype)
        return own if carry is None else combine(carry, own, dtype=self.dtype)


class TensorScan(Operand):
    _params = ("func", "axis", "dtype")

    def tile(self, ctx, out):
        tiled = ctx[out.inputs[0]]
        axis = self.axis
        moved = np.moveaxis(tiled.chunks, axis, -1)
        grid = chunk_grid(moved.shape)
        for pos in np.ndindex(*moved.shape[:-1]):
            carry = None
            for j, c in enumerate(moved[pos]):
                extra = [] if carry is None else [carry]
                op = ScanChunk(func=self.func, axis=axis, dtype=self.dtype, label=self.label)
                grid[pos + (j,)] = ChunkData(op, [c, *extra], c.shape, out.meta, c.index)
                if j + 1 < moved.shape[-1]:
                    op = ScanCarry(func=self.func, axis=axis, dtype=self.dtype, label=self.label)
                    shape = tuple(1 if d == axis else s for d, s in enumerate(c.shape))
                    carry = ChunkData(op, [c, *extra], shape, out.meta, c.index)
        return Tiled(np.moveaxis(grid, -1, axis), tiled.nsplits)


def _scan(func, a, axis, dtype):
    from .reshape import ravel

    a = as_tensor(a)
    sample = np.zeros(tuple(min(1, s) if s == s else 1 for s in a.shape), a.dtype)
    expected = getattr(np, func)(sample, axis=axis, dtype=dtype)
    if axis is None or a.ndim == 0:  # NumPy scans a 0-d array as 1-d
        a, axis = ravel(a), 0 if axis is None else axis
    axis = normalize_axis_index(axis, a.ndim)
    op = TensorScan(func=func, axis=axis, dtype=expected.dtype, label=f"mt.{func}")
    return new_tensor(op, [a], a.shape, expected.dtype)


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along ``axis`` (None: flattened)."""
    _no_out(out)
    return _scan("cumsum", a, axis, dtype)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along ``axis`` (None: flattened)."""
    _no_out(out)
    return _scan("cumprod", a, axis, dtype)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaN as zero."""
    _no_out(out)
    return _scan("nancumsum", a, axis, dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaN as one."""
    _no_out(out)
    return _scan("nancumprod", a, axis, dtype)


def _no_out(out):
    if out is not None:
        raise TypeError("out= is not supported")


# --- differences --------------------------------------------------------------------------------

class DiffChunk(Operand):
    """``np.diff(..., n)`` of the concatenation of constant and chunk pieces along ``axis``.

    ``parts`` lists, in order, ("const", array) or ("chunk", (start, stop)) for each input
    chunk; ``head``/``tail`` are constants placed before/after the result (ediff1d)."""

    _params = ("n", "axis", "parts", "head", "tail", "dtype")

    def execute(self, *chunks):
        chunks = iter(chunks)
        pieces = []
        for kind, value in self.parts:
            if kind == "const":
                pieces.append(value)
            else:
                x = next(chunks)
                pieces.append(np.take(x, np.arange(*value), axis=self.axis))
        joined = np.concatenate(pieces, axis=self.axis) if len(pieces) > 1 else pieces[0]
        result = np.diff(joined, self.n, axis=self.axis)
        if self.head is not None or self.tail is not None:
            result = np.concatenate([p for p in (self.head, result.astype(self.dtype), self.tail)
                                     if p is not None])
        return result.astype(self.dtype, copy=False)


class TensorDiff(Operand):
    _params = ("n", "axis", "prepend", "append", "head", "tail")
    head = tail = None

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        axis, n = self.axis, self.n
        splits = tiled.nsplits[axis]
        starts = offsets(splits)
        pre = 0 if self.prepend is None else self.prepend.shape[axis]
        app = 0 if self.append is None else self.append.shape[axis]
        total = pre + starts[-1] + app
        bounds = [0] + [pre + s for s in starts[1:-1]] + [total]  # virtual positions per chunk
        out_len = max(total - n, 0)
        moved = np.moveaxis(tiled.chunks, axis, -1)
        other_starts = [offsets(s) for d, s in enumerate(tiled.nsplits) if d != axis]
        grid = chunk_grid(moved.shape)
        for pos in np.ndindex(*moved.shape[:-1]):
            block = tuple(slice(o[p], o[p + 1]) for o, p in zip(other_starts, pos))
            for j in range(len(splits)):
                lo = min(bounds[j], out_len)
                hi = max(lo, min(bounds[j + 1], out_len))
                parts, inputs = self._parts(lo, hi + n if hi > lo else lo, pre, starts, moved[pos],
                                            block, j)
                shape = list(moved[pos][j].shape)
                shape[axis] = hi - lo + (self._extra(j, len(splits)))
                op = DiffChunk(n=n, axis=axis, parts=tuple(parts), dtype=out.dtype,
                               head=self.head if j == 0 else None,
                               tail=self.tail if j == len(splits) - 1 else None, label=self.label)
                grid[pos + (j,)] = ChunkData(op, inputs, tuple(shape), out.meta,
                                             pos[:axis] + (j,) + pos[axis:])
        return Tiled.from_chunks(np.moveaxis(grid, -1, axis))

    def _extra(self, j, m):
        extra = len(self.head) if self.head is not None and j == 0 else 0
        return extra + (len(self.tail) if self.tail is not None and j == m - 1 else 0)

    def _parts(self, lo, hi, pre, starts, lane, block, j):
        """The pieces covering virtual positions [lo, hi): prepend, chunks, append."""
        parts, inputs = [], []
        size = starts[-1]

        def const(arr, a, b):
            sl = [*block]
            sl.insert(self.axis, slice(a, b))
            parts.append(("const", arr[tuple(sl)]))

        if lo < pre:
            const(self.prepend, lo, min(hi, pre))
        for k, c in enumerate(lane):
            a, b = max(lo, pre + starts[k]), min(hi, pre + starts[k + 1])
            if a < b:
                parts.append(("chunk", (a - pre - starts[k], b - pre - starts[k])))
                inputs.append(c)
        if hi > pre + size:
            const(self.append, max(lo, pre + size) - pre - size, hi - pre - size)
        if not parts:  # an empty piece of this chunk keeps the shape of the other axes
            parts.append(("chunk", (0, 0)))
            inputs.append(lane[j])
        return parts, inputs


def _edge(value, a, axis):
    if value is None or value is np._NoValue:
        return None
    value = np.asanyarray(value)
    if value.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        value = np.broadcast_to(value, tuple(shape))
    return np.ascontiguousarray(value)


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """The ``n``-th discrete difference along ``axis`` (across chunk boundaries)."""
    a = as_tensor(a)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis_index(axis, a.ndim)
    if n == 0:
        return a
    if isinstance(prepend, Tensor) or isinstance(append, Tensor):  # joined lazily first
        from .joining import concatenate
        from .manipulation import broadcast_to

        edge = tuple(1 if d == axis else s for d, s in enumerate(a.shape))
        pieces = [broadcast_to(v, edge) if np.ndim(v) == 0 else v for v in (prepend, a, append)
                  if v is not None and v is not np._NoValue]
        return diff(concatenate([as_tensor(v) for v in pieces], axis=axis), n, axis)
    pre, app = _edge(prepend, a, axis), _edge(append, a, axis)
    if pre is None and app is None:
        dtype = np.diff(np.zeros(2, a.dtype)).dtype
    else:  # NumPy's own checks and promotion of the pieces
        sample_shape = tuple(1 if d == axis else s for d, s in enumerate(a.shape))
        dtype = np.diff(np.zeros(sample_shape, a.dtype), 1, axis=axis,
                        **({} if pre is None else {"prepend": pre}),
                        **({} if app is None else {"append": app})).dtype
    length = a.shape[axis] + sum(0 if e is None else e.shape[axis] for e in (pre, app))
    shape = tuple(max(length - n, 0) if d == axis else s for d, s in enumerate(a.shape))
    op = TensorDiff(n=n, axis=axis, prepend=pre, append=app, label="mt.diff")
    return new_tensor(op, [a], shape, dtype)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ``ary``, with ``to_begin`` and
    ``to_end`` added at the ends (in ``ary``'s dtype)."""
    from .reshape import ravel

    ary = as_tensor(ary)
    flat = ravel(ary) if ary.ndim != 1 else ary
    edges = []
    for name, value in (("to_begin", to_begin), ("to_end", to_end)):
        if value is None:
            edges.append(None)
            continue
        value = np.asanyarray(value)
        if not np.can_cast(value, ary.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        edges.append(value.ravel().astype(ary.dtype))
    np.subtract(np.zeros(1, ary.dtype), np.zeros(1, ary.dtype))  # bool raises like NumPy
    head, tail = edges
    n = flat.shape[0]
    length = max(n - 1, 0) + sum(0 if e is None else len(e) for e in edges)
    op = TensorDiff(n=1, axis=0, prepend=None, append=None, head=head, tail=tail,
                    label="mt.ediff1d")
    return new_tensor(op, [flat], (length,), ary.dtype)


def trapz(y, x=None, dx=1.0, axis=-1):
    """Integral along ``axis`` by the trapezoidal rule (NumPy's ``trapezoid``)."""
    from .reduction import sum as sum_
    from .reshape import reshape

    y = as_tensor(y)
    axis = normalize_axis_index(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = as_tensor(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = reshape(d, shape)
        else:
            d = diff(x, axis=axis)
    hi = tuple(slice(1, None) if k == axis else slice(None) for k in range(y.ndim))
    lo = tuple(slice(None, -1) if k == axis else slice(None) for k in range(y.ndim))
    return sum_(d * (y[hi] + y[lo]) / 2.0, axis=axis)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range (maximum - minimum) along ``axis``."""
    from .arithmetic import subtract
    from .reduction import max as max_, min as min_

    _no_out(out)
    a = as_tensor(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.subtract(np.zeros(1, a.dtype), np.zeros(1, a.dtype))  # bool raises like NumPy
    return subtract(max_(a, axis=axis, keepdims=keepdims), min_(a, axis=axis, keepdims=keepdims))


trapezoid = trapz  # NumPy 2's name


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """NumPy's ``unwrap``: jumps larger than ``discont`` along ``axis`` taken back by
    multiples of ``period``, the corrections summed by a prefix scan (NumPy's own steps)."""
    from .arithmetic import absolute, logical_and, mod, where
    from .joining import concatenate

    t = as_tensor(p)
    axis = normalize_axis_index(axis, t.ndim)
    dd = diff(t, axis=axis)
    discont = period / 2 if discont is None else discont
    dtype = np.result_type(dd.dtype, period)
    if np.issubdtype(dtype, np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    ddmod = mod(dd + high, period) - high
    if ambiguous:  # a jump of exactly period/2 keeps its sign
        ddmod = where(logical_and(ddmod == -high, dd > 0), high, ddmod)
    correct = where(absolute(dd) < discont, 0, ddmod - dd)
    first = tuple(slice(0, 1) if k == axis else slice(None) for k in range(t.ndim))
    rest = tuple(slice(1, None) if k == axis else slice(None) for k in range(t.ndim))
    return concatenate([t[first].astype(dtype), (t[rest] + cumsum(correct, axis=axis)).astype(dtype)], axis=axis)
