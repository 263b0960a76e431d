"""Reductions (sum, mean, var, argmin, ...) as tree reductions over the chunk grid.

Each chunk yields a small mergeable partial (kept extents, reduced axes of length 1); groups
of ``options.combine_size`` partials merge until one remains, which the last operand turns
into the result. A *kernel* class says how one reduction does those three steps.
"""
from __future__ import annotations

import builtins
import functools
import math
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ..config import options
from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from ..core.user import Tileable
from .core import as_tensor, new_tensor, tensor_meta

__all__ = ["sum", "prod", "min", "max", "amin", "amax", "mean", "var", "std", "any", "all",
           "argmin", "argmax", "nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar",
           "nanstd", "nanargmin", "nanargmax"]


# --- kernels: chunk -> partial, merge partials, partial -> result ------------------------------

class Kernel:
    """Plain ufunc reduction: the partial is ``func(chunk, keepdims=True)``, merged by ``ufunc``."""

    func = staticmethod(np.sum)
    ufunc = np.add
    takes_dtype = False
    #: no identity: a chunk empty along the reduced axes gives no partial (None)
    no_identity = False
    #: silence the all-NaN-slice warning: one chunk's all-NaN slice says nothing about the result
    quiet = False
    needs_offsets = False

    @classmethod
    def chunk(cls, x, op):
        if cls.no_identity and _empty_along(x, op.axes):
            if op.initial is None:
                return None
            shape = tuple(1 if a in op.axes else s for a, s in enumerate(x.shape))
            return np.full(shape, op.initial)
        kw = {"dtype": op.dtype} if cls.takes_dtype else {}
        if not cls.quiet:
            return cls.func(x, axis=op.axes, keepdims=True, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return cls.func(x, axis=op.axes, keepdims=True, **kw)

    @classmethod
    def merge(cls, parts, op):
        parts = [p for p in parts if p is not None]
        if not parts:
            return None
        return functools.reduce(cls.ufunc, parts)

    @classmethod
    def finish(cls, part, op):
        if part is None:
            raise ValueError(f"zero-size array to reduction operation {cls.ufunc.__name__} "
                             "which has no identity")
        return part


class Sum(Kernel):
    takes_dtype = True


class Prod(Kernel):
    func, ufunc, takes_dtype = staticmethod(np.prod), np.multiply, True


class Min(Kernel):
    func, ufunc, no_identity = staticmethod(np.min), np.minimum, True


class Max(Kernel):
    func, ufunc, no_identity = staticmethod(np.max), np.maximum, True


class Any(Kernel):
    func, ufunc = staticmethod(np.any), np.logical_or


class All(Kernel):
    func, ufunc = staticmethod(np.all), np.logical_and


class NanSum(Kernel):
    func, takes_dtype = staticmethod(np.nansum), True


class NanProd(Kernel):
    func, ufunc, takes_dtype = staticmethod(np.nanprod), np.multiply, True


class NanMin(Kernel):
    func, ufunc, no_identity, quiet = staticmethod(np.nanmin), np.fmin, True, True


class NanMax(Kernel):
    func, ufunc, no_identity, quiet = staticmethod(np.nanmax), np.fmax, True, True


class Mean(Kernel):
    """Partial: (count, sum in the accumulation dtype)."""

    skipna = False

    @classmethod
    def chunk(cls, x, op):
        if cls.skipna:
            n = np.sum(~np.isnan(x), axis=op.axes, keepdims=True)
            return n, np.nansum(x, axis=op.axes, keepdims=True, dtype=op.dtype)
        return _count(x, op.axes), np.sum(x, axis=op.axes, keepdims=True, dtype=op.dtype)

    @classmethod
    def merge(cls, parts, op):
        return builtins.sum(p[0] for p in parts), functools.reduce(np.add, [p[1] for p in parts])

    @classmethod
    def finish(cls, part, op):
        n, total = part
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.true_divide(total, n)


class NanMean(Mean):
    skipna = True


class Var(Kernel):
    """Partial: (count, mean, M2), merged with Chan et al.'s parallel formula."""

    skipna = False
    sqrt = False

    @classmethod
    def chunk(cls, x, op):
        x = np.asarray(x, dtype=op.dtype)
        if cls.skipna:
            n = np.sum(~np.isnan(x), axis=op.axes, keepdims=True)
            total = np.nansum(x, axis=op.axes, keepdims=True)
        else:
            n, total = _count(x, op.axes), np.sum(x, axis=op.axes, keepdims=True)
        mean = total / np.maximum(n, 1)  # an empty chunk has mean 0 and no weight
        sq = _abs2(x - mean)
        m2 = (np.nansum if cls.skipna else np.sum)(sq, axis=op.axes, keepdims=True)
        return n, mean, m2

    @classmethod
    def merge(cls, parts, op):
        return functools.reduce(_chan, parts)

    @classmethod
    def finish(cls, part, op):
        n, _, m2 = part
        with np.errstate(invalid="ignore", divide="ignore"):
            var = m2 / np.maximum(n - op.ddof, 0)
        return np.sqrt(var) if cls.sqrt else var


class Std(Var):
    sqrt = True


class NanVar(Var):
    skipna = True


class NanStd(Var):
    skipna, sqrt = True, True


class ArgMin(Kernel):
    """Partial: (value, global index) of the winner; ties go to the lower index like NumPy."""

    func = staticmethod(np.argmin)
    needs_offsets = True
    skipna = False

    @classmethod
    def chunk(cls, x, op):
        if _empty_along(x, op.axes):
            return None
        axis = op.axis
        pick = x
        if cls.skipna and np.issubdtype(x.dtype, np.inexact):
            # an all-NaN slice keeps NaN as its value (it loses every merge) and never raises here
            pick = np.where(np.all(np.isnan(x), axis=axis, keepdims=True), 0, x)
        if axis is None:
            local = int(cls.func(pick))
            pos = np.unravel_index(local, x.shape)
            index = np.ravel_multi_index(tuple(p + o for p, o in zip(pos, op.offset)), op.shape)
            ones = (1,) * x.ndim
            return np.full(ones, x.reshape(-1)[local], x.dtype), np.full(ones, index, np.intp)
        local = cls.func(pick, axis=axis, keepdims=True)
        return np.take_along_axis(x, local, axis=axis), local + op.offset[axis]

    @classmethod
    def merge(cls, parts, op):
        parts = [p for p in parts if p is not None]
        if not parts:
            return None
        value, index = parts[0]
        for v, i in parts[1:]:
            nan_old, nan_new = value != value, v != v
            better = (v < value) if cls.func in (np.argmin, np.nanargmin) else (v > value)
            better = better | ((v == value) & (i < index))
            if cls.skipna:  # NaN loses
                take = ~nan_new & (nan_old | better)
            else:  # NaN wins, the first one among several
                take = np.where(nan_old, nan_new & (i < index), nan_new | better)
            value, index = np.where(take, v, value), np.where(take, i, index)
        return value, index

    @classmethod
    def finish(cls, part, op):
        if part is None:
            raise ValueError(f"attempt to get {cls.func.__name__} of an empty sequence")
        if cls.skipna and np.any(part[0] != part[0]):
            raise ValueError("All-NaN slice encountered")
        return part[1]


class ArgMax(ArgMin):
    func = staticmethod(np.argmax)


class NanArgMin(ArgMin):
    func, skipna = staticmethod(np.nanargmin), True


class NanArgMax(ArgMin):
    func, skipna = staticmethod(np.nanargmax), True


def _count(x, axes) -> int:
    return int(np.prod([x.shape[a] for a in axes], dtype=np.int64))


def _empty_along(x, axes) -> bool:
    return builtins.any(x.shape[a] == 0 for a in axes)


def _abs2(d):
    return d.real * d.real + d.imag * d.imag if np.iscomplexobj(d) else d * d


def _chan(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(n > 0, nb / np.maximum(n, 1), 0.0)
        delta = mb - ma
        return n, ma + delta * frac, m2a + m2b + _abs2(delta) * na * frac


# --- operands ----------------------------------------------------------------------------------

class ReduceChunk(Operand):
    """A chunk's partial; ``dtype`` is the accumulation dtype; arg reductions get the chunk's
    ``offset`` and, for a flat index, the tensor's ``shape``."""

    _params = ("kernel", "axes", "axis", "dtype", "offset", "shape", "initial")
    initial = None

    def execute(self, x):
        return self.kernel.chunk(x, self)


class CombineChunks(Operand):
    """Merge several partials into one."""

    _params = ("kernel", "axes")

    def execute(self, *parts):
        return self.kernel.merge(parts, self)


class AggregateChunks(Operand):
    """Merge the last partials and produce the result block in the result dtype."""

    _params = ("kernel", "axes", "dtype", "ddof", "keepdims", "initial")
    initial = None

    def execute(self, *parts):
        part = self.kernel.merge(parts, self)
        if self.initial is not None:  # NumPy starts the fold from ``initial``, once
            part = self.kernel.ufunc(self.initial, part)
        result = self.kernel.finish(part, self)
        if not self.keepdims:
            result = np.squeeze(result, axis=self.axes)
        result = np.asarray(result).astype(self.dtype, copy=False)
        return result[()] if result.ndim == 0 else result


class TensorReduction(Operand):
    """Reduce one tensor along ``axes``; ``axis`` is the argmin/argmax axis (None: flat)."""

    _params = ("kernel", "axes", "axis", "dtype", "acc_dtype", "keepdims", "ddof", "initial")
    initial = None

    def tile(self, ctx, out):
        (inp,) = out.inputs
        starts = flat_shape = None
        if self.kernel.needs_offsets:  # global indices need every chunk's real offset
            tiled = yield from ctx.known(inp)
            starts = [offsets(s) for s in tiled.nsplits]
            flat_shape = tuple(int(s[-1]) for s in starts) if self.axis is None else None
        else:
            tiled = ctx[inp]
        partials = chunk_grid(tiled.chunks.shape)
        meta = tensor_meta(self.acc_dtype or inp.dtype, inp.ndim)
        for idx, c in np.ndenumerate(tiled.chunks):
            offset = None if starts is None else tuple(int(s[i]) for s, i in zip(starts, idx))
            op = ReduceChunk(kernel=self.kernel, axes=self.axes, axis=self.axis,
                             dtype=self.acc_dtype, offset=offset, shape=flat_shape,
                             initial=self.initial, label=self.label)
            shape = tuple(1 if a in self.axes else s for a, s in enumerate(c.shape))
            partials[idx] = ChunkData(op, [c], shape, meta, idx)

        def combine(chunks, index):
            op = CombineChunks(kernel=self.kernel, axes=self.axes, label=self.label)
            return ChunkData(op, chunks, chunks[0].shape, meta, index)

        def finish(chunks, kept_index):
            op = AggregateChunks(kernel=self.kernel, axes=self.axes, dtype=self.dtype,
                                 ddof=self.ddof, keepdims=self.keepdims, initial=self.initial,
                                 label=self.label)
            return ChunkData(op, chunks, self._out_shape(chunks[0].shape), out.meta,
                             self._out_shape(kept_index, fill=0, kept_only=True))

        grid = tree_reduce(partials, self.axes, combine, finish, options.combine_size)
        if self.keepdims:
            grid = grid.reshape(self._out_shape(grid.shape, kept_only=True))
        return Tiled.from_chunks(grid)

    def _out_shape(self, shape, fill=1, kept_only=False):
        """The result's shape (or index) from a full-rank one, or from kept axes only."""
        ndim = len(shape) + (len(self.axes) if kept_only else 0)
        values = iter(shape)
        result = []
        for a in range(ndim):
            if a in self.axes:
                if not kept_only:
                    next(values)
                if self.keepdims:
                    result.append(fill)
            else:
                result.append(next(values))
        return tuple(result)


# --- user API ----------------------------------------------------------------------------------

def _reduce(kernel, name: str, a, axis=None, out=None, keepdims=False, *, initial=np._NoValue,
            where=True, func=None, **kw):
    """Build the reduction ``name``; NumPy itself (``func``, default ``np.<name>``), run on a
    tiny sample, checks the arguments. ``where=`` masks elements out by the reduction's
    identity (or ``initial``); ``initial`` starts the fold."""
    if out is not None:
        raise TypeError(f"mt.{name}: out= is not supported")
    a = as_tensor(a)
    sample = np.zeros(tuple(0 if s == 0 else 1 for s in a.shape), dtype=a.dtype)
    extra = {} if initial is np._NoValue else {"initial": initial}
    if where is not True:
        extra["where"] = np.ones(sample.shape, bool)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = (func or getattr(np, name))(sample, axis=axis, keepdims=keepdims, **kw, **extra)
    dtype = np.asarray(expected).dtype
    if initial is not np._NoValue:
        initial = dtype.type(initial)  # NumPy casts it to the result type (0.5 -> 0 for ints)
    if where is not True:
        identity = kernel.ufunc.identity
        fill = initial if identity is None else identity  # NumPy requires initial then
        a = masked(a, where, np.array(fill).astype(a.dtype)[()], name)
    if kernel.needs_offsets:
        arg_axis = None if axis is None else normalize_axis_tuple(axis, a.ndim)[0]
        axes = tuple(range(a.ndim)) if axis is None else (arg_axis,)
    else:
        arg_axis = None
        axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    axes = tuple(sorted(axes))
    op = TensorReduction(kernel=kernel, axes=axes, axis=arg_axis, dtype=dtype,
                         acc_dtype=_acc_dtype(kernel, a.dtype, kw.get("dtype"), dtype),
                         keepdims=bool(keepdims), ddof=kw.get("ddof", 0),
                         initial=None if initial is np._NoValue else initial, label=f"mt.{name}")
    shape = tuple(1 if i in axes else s for i, s in enumerate(a.shape) if keepdims or i not in axes)
    return new_tensor(op, [a], shape, dtype)


def selected(a, where):
    """1 where ``where`` (broadcast to ``a``) holds, else 0: what ``mean(where=)`` counts."""
    return np.broadcast_to(where, a.shape).astype(np.intp)


def masked(a, where, fill, name: str):
    """``a`` with the elements ``where`` is False replaced by ``fill`` (``where`` broadcasts
    to ``a``'s shape, not beyond it, like NumPy's ``where=``)."""
    from .arithmetic import elementwise

    where = where if isinstance(where, Tileable) else np.asarray(where)
    if np.dtype(where.dtype) != np.bool_:
        raise TypeError(f"mt.{name}: where= must be boolean, not {where.dtype}")
    if len(where.shape) > a.ndim:
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    for w, s in zip(where.shape[::-1], a.shape[::-1]):  # unknown (nan) extents must match later
        if w == w and w != 1 and s == s and w != s:
            raise ValueError(f"where= of shape {tuple(where.shape)} does not broadcast to {a.shape}")
    return elementwise("where", (where, a, fill), label=f"mt.{name}")


def _acc_dtype(kernel, in_dtype, user_dtype, out_dtype):
    if issubclass(kernel, (Mean, Var)):
        if user_dtype is not None:
            return np.dtype(user_dtype)
        if in_dtype.kind in "biu":
            return np.dtype("f8")
        return np.dtype("f4") if in_dtype == np.float16 else in_dtype
    return out_dtype if kernel.takes_dtype else None


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    """Sum of elements over ``axis`` (NumPy's ``sum``), from ``initial``, of the ``where`` ones."""
    return _reduce(Sum, "sum", a, axis, out, keepdims, dtype=dtype, initial=initial, where=where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    """Product of elements over ``axis``, from ``initial``, of the ``where`` ones."""
    return _reduce(Prod, "prod", a, axis, out, keepdims, dtype=dtype, initial=initial, where=where)


def min(a, axis=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    """Minimum over ``axis``; NaN propagates like NumPy (``where=`` needs ``initial``)."""
    return _reduce(Min, "min", a, axis, out, keepdims, initial=initial, where=where)


def max(a, axis=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    """Maximum over ``axis``; NaN propagates like NumPy (``where=`` needs ``initial``)."""
    return _reduce(Max, "max", a, axis, out, keepdims, initial=initial, where=where)


amin, amax = min, max


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element over ``axis`` (of the ``where`` ones) is true."""
    return _reduce(Any, "any", a, axis, out, keepdims, where=where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether all elements over ``axis`` (of the ``where`` ones) are true."""
    return _reduce(All, "all", a, axis, out, keepdims, where=where)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over ``axis`` (integers average in float64, like NumPy); with
    ``where=``, the sum of the selected elements over their count."""
    if where is True:
        return _reduce(Mean, "mean", a, axis, out, keepdims, dtype=dtype)
    from .arithmetic import astype, elementwise, true_divide

    a = as_tensor(a)
    _reduce(Mean, "mean", a, axis, out, keepdims, dtype=dtype)  # NumPy's checks
    acc = _acc_dtype(Mean, a.dtype, dtype, None)
    total = sum(a, axis, acc, None, keepdims, where=where)
    selected = elementwise(f"{__name__}:selected", (a, where), result_dtype=np.intp)
    count = sum(selected, axis, np.intp, None, keepdims)
    result_dtype = np.dtype(dtype) if dtype is not None else \
        np.mean(np.zeros(1, a.dtype)).dtype
    return astype(true_divide(total, count), result_dtype)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, mean=np._NoValue,
        correction=np._NoValue):
    """Variance over ``axis`` with ``ddof`` (or ``correction``, its array-API name) delta
    degrees of freedom; ``mean``: the mean to measure from (keepdims-shaped, as NumPy's)."""
    ddof = _correction(ddof, correction)
    if mean is not np._NoValue:
        return _var_about(a, mean, axis, dtype, out, ddof, keepdims)
    return _reduce(Var, "var", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, mean=np._NoValue,
        correction=np._NoValue):
    """Standard deviation over ``axis`` with ``ddof`` (or ``correction``) delta degrees of
    freedom; ``mean``: the mean to measure from."""
    ddof = _correction(ddof, correction)
    if mean is not np._NoValue:
        from .arithmetic import sqrt

        return sqrt(_var_about(a, mean, axis, dtype, out, ddof, keepdims))
    return _reduce(Std, "std", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def _correction(ddof, correction):
    if correction is np._NoValue:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _var_about(a, mean, axis, dtype, out, ddof, keepdims):
    """NumPy's variance from a given mean: the mean squared deviation, over ``n - ddof``."""
    from .arithmetic import absolute
    from .core import as_tensor

    if out is not None:
        raise NotImplementedError("mt.var(mean=): out=")
    t = as_tensor(a)
    expected = np.var(np.zeros((1,) * t.ndim, t.dtype), axis=axis, dtype=dtype, keepdims=keepdims,
                      mean=np.zeros((1,) * t.ndim, t.dtype))  # NumPy's checks and dtype
    dev = t - mean
    sq = absolute(dev) ** 2 if dev.dtype.kind == "c" else dev * dev
    total = sq.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    count = t.size // builtins.max(math.prod(total.shape), 1) if t.size == t.size else float("nan")
    return (total / builtins.max(count - ddof, 0)).astype(expected.dtype)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum along ``axis``; with ``axis=None`` an index into the flattened tensor."""
    return _reduce(ArgMin, "argmin", a, axis, out, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum along ``axis``; with ``axis=None`` an index into the flattened tensor."""
    return _reduce(ArgMax, "argmax", a, axis, out, keepdims)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    """Sum treating NaN as zero."""
    return _reduce(NanSum, "nansum", a, axis, out, keepdims, dtype=dtype)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    """Product treating NaN as one."""
    return _reduce(NanProd, "nanprod", a, axis, out, keepdims, dtype=dtype)


def nanmin(a, axis=None, out=None, keepdims=False):
    """Minimum ignoring NaN (all-NaN slices give NaN)."""
    return _reduce(NanMin, "nanmin", a, axis, out, keepdims)


def nanmax(a, axis=None, out=None, keepdims=False):
    """Maximum ignoring NaN (all-NaN slices give NaN)."""
    return _reduce(NanMax, "nanmax", a, axis, out, keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    """Mean ignoring NaN."""
    return _reduce(NanMean, "nanmean", a, axis, out, keepdims, dtype=dtype)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Variance ignoring NaN."""
    return _reduce(NanVar, "nanvar", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Standard deviation ignoring NaN."""
    return _reduce(NanStd, "nanstd", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum ignoring NaN."""
    return _reduce(NanArgMin, "nanargmin", a, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum ignoring NaN."""
    return _reduce(NanArgMax, "nanargmax", a, axis, out, keepdims)
