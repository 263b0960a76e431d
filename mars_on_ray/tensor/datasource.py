"""Tensor creation: from client data, constants, ranges and the identity."""
from __future__ import annotations

import math
import operator

import numpy as np

from ..core.blockwise import grid_slices
from ..core.chunk_sizes import normalize_chunks
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.tokenize import tokenize
from ..core.user import ClientData
from .core import Tensor, as_tensor, new_tensor

__all__ = ["logspace", "geomspace", "tri", "frombuffer", "fromiter", "tensor", "array", "asarray", "ones", "zeros", "full", "empty", "ones_like", "zeros_like",
           "full_like", "empty_like", "arange", "linspace", "eye", "identity"]


def tile_source(out, make_op, values_depend_on_chunks: bool = False) -> Tiled:
    """Tile a source: ``make_op(extents)`` gives the operand of the chunk covering
    ``extents`` ((start, stop) per axis). A source whose values depend on its chunking keeps
    it even on the small-data path (whole chunks), so both paths give the same values."""
    whole = False if values_depend_on_chunks else None
    nsplits = normalize_chunks(out.chunk_size, out.shape, out.dtype.itemsize, whole=whole)
    grid = chunk_grid([len(s) for s in nsplits])
    for idx, extents in grid_slices(nsplits):
        shape = tuple(b - a for a, b in extents)
        grid[idx] = ChunkData(make_op(extents), [], shape, out.meta, idx)
    return Tiled(grid, nsplits)


def new_source(op, shape, dtype, chunk_size) -> Tensor:
    """A source tensor; a given ``chunk_size`` is checked (and made canonical) now."""
    dtype = np.dtype(dtype)
    if chunk_size is not None:
        chunk_size = normalize_chunks(chunk_size, shape, dtype.itemsize)
    return new_tensor(op, [], shape, dtype, chunk_size=chunk_size)


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (operator.index(shape),)
    shape = tuple(operator.index(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


class TensorData(ClientData, Operand):
    """A client's ndarray; each chunk operand carries its piece in ``data`` (not a parameter)."""

    _params = ("data_token", "extents")

    def tile(self, ctx, out):
        def make(extents):
            op = self.new(extents=extents)
            if self.data is not None:
                op.data = self.data[tuple(slice(a, b) for a, b in extents)]
            return op

        return tile_source(out, make)


def tensor(data, dtype=None, chunk_size=None) -> Tensor:
    """A tensor holding ``data`` (an array-like, scalar or Tensor)."""
    if isinstance(data, Tensor):
        t = data if dtype is None else data.astype(dtype)
        return t if chunk_size is None else t.rechunk(chunk_size)
    arr = np.asarray(data, dtype=dtype)
    op = TensorData(data_token=tokenize(arr), label="mt.tensor")
    op.data = arr
    return new_source(op, arr.shape, arr.dtype, chunk_size)


def array(obj, dtype=None, copy=True, chunk_size=None) -> Tensor:
    """:func:`tensor` under NumPy's name; a tensor given with ``copy=True`` comes back as a new
    object, so assigning into one leaves the other as it was."""
    t = tensor(obj, dtype=dtype, chunk_size=chunk_size)
    return Tensor(t.data) if copy and t is obj else t


def asarray(obj, dtype=None, chunk_size=None) -> Tensor:
    """``obj`` as a tensor (returned as is when it already is one with that dtype)."""
    return tensor(obj, dtype=dtype, chunk_size=chunk_size)


class Full(Operand):
    """A constant block; ``fill_value=None`` leaves it uninitialised (``empty``)."""

    _params = ("shape", "fill_value", "dtype")

    def tile(self, ctx, out):
        return tile_source(out, lambda ext: self.new(shape=tuple(b - a for a, b in ext)))

    def execute(self):
        if self.fill_value is None:
            return np.empty(self.shape, self.dtype)
        return np.full(self.shape, self.fill_value, self.dtype)


def _full(label, shape, fill_value, dtype, chunk_size) -> Tensor:
    shape = _shape(shape)
    dtype = np.dtype(dtype)
    if np.ndim(fill_value):  # an array broadcast over the shape, cast as NumPy's full casts
        from .manipulation import broadcast_to

        value = np.asarray(fill_value).astype(dtype)
        np.broadcast_to(value, shape)  # NumPy's error when it does not broadcast
        t = broadcast_to(tensor(value), shape)
        return t.rechunk(chunk_size) if chunk_size is not None else t
    if fill_value is not None:
        np.full((), fill_value, dtype)  # bad values raise like NumPy, at build time
    op = Full(shape=shape, fill_value=fill_value, dtype=dtype, label=label)
    return new_source(op, shape, dtype, chunk_size)


def full(shape, fill_value, dtype=None, order="C", chunk_size=None) -> Tensor:
    """A tensor of ``fill_value`` (dtype from the value when not given)."""
    if dtype is None:
        dtype = np.array(fill_value).dtype
    return _full("mt.full", shape, fill_value, dtype, chunk_size)


def ones(shape, dtype=None, order="C", chunk_size=None) -> Tensor:
    """A tensor of ones (float64 by default)."""
    return _full("mt.ones", shape, 1, float if dtype is None else dtype, chunk_size)


def zeros(shape, dtype=None, order="C", chunk_size=None) -> Tensor:
    """A tensor of zeros (float64 by default)."""
    return _full("mt.zeros", shape, 0, float if dtype is None else dtype, chunk_size)


def empty(shape, dtype=None, order="C", chunk_size=None) -> Tensor:
    """An uninitialised tensor (float64 by default)."""
    return _full("mt.empty", shape, None, float if dtype is None else dtype, chunk_size)


def _like(label, a, fill_value, dtype, shape, chunk_size) -> Tensor:
    if isinstance(a, Tensor) and shape is None and not a.data.has_unknown_shape:
        shape, chunk_size = a.shape, chunk_size if chunk_size is not None else a.data.chunk_size
    elif isinstance(a, Tensor) and shape is None:  # unknown extents: a blockwise map over ``a``
        from .arithmetic import elementwise

        kernel = "empty_like" if fill_value is None else "full_like"
        args = (a,) if fill_value is None else (a, fill_value)
        return elementwise(kernel, args, label=label, dtype=dtype)
    elif shape is None:
        shape = np.shape(a)
    dtype = np.dtype(dtype) if dtype is not None else (a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype)
    return _full(label, shape, fill_value, dtype, chunk_size)


def ones_like(a, dtype=None, shape=None, chunk_size=None) -> Tensor:
    return _like("mt.ones_like", a, 1, dtype, shape, chunk_size)


def zeros_like(a, dtype=None, shape=None, chunk_size=None) -> Tensor:
    return _like("mt.zeros_like", a, 0, dtype, shape, chunk_size)


def full_like(a, fill_value, dtype=None, shape=None, chunk_size=None) -> Tensor:
    return _like("mt.full_like", a, fill_value, dtype, shape, chunk_size)


def empty_like(a, dtype=None, shape=None, chunk_size=None) -> Tensor:
    return _like("mt.empty_like", a, None, dtype, shape, chunk_size)


class Arange(Operand):
    """Values ``first + i * (second - first)`` for i in ``[lo, hi)``, the first two values cast
    to the dtype first (as NumPy does: ``arange(0, 5, 0.5, dtype=int)`` is all zeros)."""

    _params = ("start", "step", "size", "dtype", "lo", "hi")  # size: arange(5) and arange(7) differ

    def tile(self, ctx, out):
        return tile_source(out, lambda ext: self.new(lo=ext[0][0], hi=ext[0][1]))

    def execute(self):
        first, second = np.array([self.start, self.start + self.step]).astype(self.dtype)
        return (first + np.arange(self.lo, self.hi) * (second - first)).astype(self.dtype, copy=False)


def arange(start, stop=None, step=None, dtype=None, chunk_size=None) -> Tensor:
    """Evenly spaced values in ``[start, stop)`` like ``np.arange``."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("step must not be zero")
    size = max(0, math.ceil((stop - start) / step))
    # NumPy promotes start, stop and step: a one-element arange with a stop of stop's type
    dtype = np.dtype(dtype) if dtype is not None else np.arange(start, type(stop)(start + step), step).dtype
    op = Arange(start=start, step=step, size=size, dtype=dtype, label="mt.arange")
    return new_source(op, (size,), dtype, chunk_size)


class Linspace(Operand):
    """Elements ``[lo, hi)`` of ``np.linspace(start, stop, num, endpoint)``."""

    _params = ("start", "stop", "num", "endpoint", "dtype", "lo", "hi")

    def tile(self, ctx, out):
        return tile_source(out, lambda ext: self.new(lo=ext[0][0], hi=ext[0][1]))

    def execute(self):
        div = (self.num - 1) if self.endpoint else self.num
        step = (self.stop - self.start) / div if div > 0 else float("nan")
        y = np.arange(self.lo, self.hi, dtype=float)
        y = y * step + self.start if div > 0 else y + self.start
        if self.endpoint and self.num > 1 and self.hi == self.num:
            y[-1] = self.stop
        if np.issubdtype(self.dtype, np.integer):
            np.floor(y, out=y)
        return y.astype(self.dtype, copy=False)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, chunk_size=None):
    """``num`` evenly spaced values over ``[start, stop]`` like ``np.linspace`` (arrays or
    tensors of starts and stops give one sequence each, along ``axis``)."""
    num = operator.index(num)
    if np.ndim(start) or np.ndim(stop) or isinstance(start, Tensor) or isinstance(stop, Tensor):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, chunk_size)
    if axis != 0:
        np.linspace(start, stop, 2, axis=axis)  # NumPy's AxisError for a scalar's axis
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    sample = np.linspace(start, stop, 2, endpoint=endpoint, dtype=dtype)
    op = Linspace(start=start, stop=stop, num=num, endpoint=endpoint, dtype=sample.dtype, label="mt.linspace")
    t = new_source(op, (num,), sample.dtype, chunk_size)
    if retstep:
        div = (num - 1) if endpoint else num
        return t, ((stop - start) / div if div > 0 else float("nan"))
    return t


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, chunk_size):
    """NumPy's own steps on a lazy ``arange(num)``: times the step (or the span), plus the
    start, the last row set to ``stop``; the same values as NumPy, bit for bit."""
    from .manipulation import moveaxis
    from .reshape import reshape

    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    lazy = isinstance(start, Tensor) or isinstance(stop, Tensor)
    samples = [np.zeros(s.shape, s.dtype) if isinstance(s, Tensor) else np.asarray(s) for s in (start, stop)]
    expected = np.linspace(*samples, num=min(num, 2), endpoint=endpoint, dtype=dtype, axis=axis)  # NumPy's errors
    inexact = np.result_type(*samples, 1.0)
    div = (num - 1) if endpoint else num
    delta = (as_tensor(stop) - start).astype(inexact) if lazy else np.subtract(stop, start, dtype=inexact)
    y = reshape(arange(num, dtype=inexact, chunk_size=chunk_size), (-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = (y / div) * delta if not lazy and np.any(step == 0) else y * step
    else:
        step = np.nan
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if np.issubdtype(expected.dtype, np.integer):
        from .arithmetic import floor
        y = floor(y)
    y = y.astype(expected.dtype)
    return (y, step) if retstep else y


class Eye(Operand):
    """A block of the identity-like matrix with ones on diagonal ``k``."""

    _params = ("shape", "k", "dtype")

    def tile(self, ctx, out):
        def make(ext):
            (r0, r1), (c0, c1) = ext
            return self.new(shape=(r1 - r0, c1 - c0), k=self.k + r0 - c0)

        return tile_source(out, make)

    def execute(self):
        return np.eye(*self.shape, k=self.k, dtype=self.dtype)


def eye(N, M=None, k=0, dtype=float, order="C", chunk_size=None) -> Tensor:
    """A 2-D tensor with ones on diagonal ``k`` and zeros elsewhere."""
    shape = _shape((N, N if M is None else M))
    dtype = np.dtype(dtype)
    # the whole shape is a parameter so that eye(3) and eye(3, 4) have different keys
    return new_source(Eye(shape=shape, k=operator.index(k), dtype=dtype, label="mt.eye"), shape, dtype,
                      chunk_size)


def identity(n, dtype=float, chunk_size=None) -> Tensor:
    """The ``n`` x ``n`` identity."""
    return eye(n, dtype=dtype, chunk_size=chunk_size)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)`` (NumPy's ``logspace``)."""
    from .arithmetic import power

    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    if np.ndim(base):
        base = np.expand_dims(np.asarray(base), axis)
    res = power(base, y)
    return res if dtype is None else res.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from ``start`` to ``stop``, exactly those two at
    the ends (NumPy's ``geomspace`` for real scalar ends)."""
    if np.ndim(start) or np.ndim(stop) or np.iscomplexobj(start) or np.iscomplexobj(stop) or axis != 0:
        raise NotImplementedError("mt.geomspace: array, complex ends or axis= (scalar real ends only)")
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    dt = np.geomspace(start, stop, 2, dtype=dtype).dtype
    sign = np.sign(start)
    lo, hi = start / sign, stop / sign
    if lo < 0 or hi < 0:
        raise NotImplementedError("mt.geomspace: ends of different signs")
    res = logspace(np.log10(lo), np.log10(hi), num, endpoint, 10.0).astype(dt)
    if num > 0:
        res[0] = lo
    if num > 1 and endpoint:
        res[num - 1] = hi
    return res * sign if sign < 0 else res


def tri(N, M=None, k=0, dtype=float):
    """Ones at and below diagonal ``k``, zeros elsewhere."""
    from .arithmetic import greater_equal

    M = N if M is None else M
    return greater_equal.outer(arange(N), arange(-k, M - k)).astype(dtype)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, chunk_size=None) -> Tensor:
    """A tensor of the client's ``buffer`` read as ``dtype`` (NumPy's ``frombuffer``, then
    uploaded like any client array)."""
    return tensor(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset), chunk_size=chunk_size)


def fromiter(iter, dtype, count=-1, *, like=None, chunk_size=None) -> Tensor:  # noqa: A002
    """A tensor of the values of the client's iterable (NumPy's ``fromiter``, then uploaded)."""
    return tensor(np.fromiter(iter, dtype=dtype, count=count), chunk_size=chunk_size)
