"""Tensor methods that NumPy arrays have (and Mars' own: map_chunk, rebalance, to_dataframe,
to_cpu / to_gpu), attached to ``Tensor`` next to their code."""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor
from . import arithmetic
from .arithmetic import around, conjugate
from .manipulation import choose, copy, imag, real, repeat, take
from .manipulation import divmod as arithmetic_divmod
from .reshape import ravel, squeeze, swapaxes
from .setitem import FlatIter

__all__ = ["diagonal"]


def _attach(name, func, prop=False):
    setattr(Tensor, name, property(func) if prop else func)


def _view(t, dtype=None, type=None):
    """The same bytes read as ``dtype`` (of the same item size: chunk boundaries stay put)."""
    if dtype is None:
        return t
    dtype = np.dtype(dtype)
    if dtype.itemsize != t.dtype.itemsize:
        raise NotImplementedError("Tensor.view to a dtype of another item size is not supported "
                                  f"({t.dtype} -> {dtype})")
    return arithmetic.elementwise("mars_on_ray.tensor.methods:_view_kernel", (t,), label="Tensor.view",
                                  result_dtype=dtype, dtype=dtype)


def _view_kernel(x, dtype):
    return x.view(dtype)


def _to_numpy(t):
    """The computed value as a NumPy array (runs the graph if needed)."""
    return np.asarray(t.fetch())


def item(t, *args):
    """One element as a Python scalar (NumPy's ``item``): only that element is fetched."""
    import operator

    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    size = t.size
    if not args:
        if size == size and size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        one = t.reshape(()) if size == size else t
    elif len(args) == 1:
        i = operator.index(args[0])
        if size != size:
            raise NotImplementedError("Tensor.item(i) of a tensor of unknown shape")
        if not -size <= i < size:
            raise IndexError(f"index {i} is out of bounds for size {size}")
        one = t[np.unravel_index(i % size, t.shape)] if t.ndim else t
    elif len(args) == t.ndim:
        one = t[tuple(operator.index(i) for i in args)]
    else:
        raise ValueError("incorrect number of indices for array")
    return _to_numpy(one).item()


def _contains(t, value):
    """``value in t``: whether any element equals it (computed now, as NumPy answers)."""
    return bool(_to_numpy((t == value).any()))


def _array_namespace(t, api_version=None):
    """The array-API namespace of tensors: ``mars_on_ray.tensor``."""
    import mars_on_ray.tensor as mt

    return mt


def _to_device(t, device, /, *, stream=None):
    if device != "cpu":
        raise ValueError(f"Unsupported device {device!r}: tensors live on the CPU")
    return t


def tobytes(t, order="C"):
    """The computed value's raw bytes (``order`` 'C' or 'F')."""
    return _to_numpy(t).tobytes(order)


def tolist(t):
    """The computed value as nested Python lists (a scalar for a 0-d tensor)."""
    return _to_numpy(t).tolist()


def fill(t, value):
    """Set every element to ``value`` (in place: ``t`` now stands for the filled tensor)."""
    from .datasource import full_like

    np.empty(1, t.dtype).fill(value)  # NumPy's errors for a value the dtype cannot hold
    t.data = full_like(t, value).data


def _scalar(convert):
    def method(t):
        if t.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return convert(item(t))
    method.__name__ = f"__{convert.__name__}__"
    return method


def _nbytes(t):
    """The bytes of the elements (nan while the shape is unknown)."""
    size = t.size
    return size * t.dtype.itemsize if size != size else int(size) * t.dtype.itemsize


def _matrix_transpose(t):
    if t.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return swapaxes(t, -1, -2)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset`` diagonal of the ``axis1``/``axis2`` planes, as the last axis (NumPy's
    ``diagonal``): the points are gathered from the chunks holding them."""
    from .manipulation import moveaxis
    from .matrices import plane_axes

    t = as_tensor(a)
    axis1, axis2 = plane_axes(t, axis1, axis2)
    n, m = t.shape[axis1], t.shape[axis2]
    if n != n or m != m:
        raise NotImplementedError("mt.diagonal of a tensor of unknown shape")
    start = max(0, -offset), max(0, offset)
    length = max(0, min(n - start[0], m - start[1]))
    rows, cols = np.arange(length) + start[0], np.arange(length) + start[1]
    return moveaxis(t, (axis1, axis2), (-2, -1))[..., rows, cols]


class MapChunk(Operand):
    """``func(chunk, *args, **kwargs)`` per chunk; the result keeps the chunk's shape unless
    ``shape_of`` says otherwise (then extents are learned after execution)."""

    _params = ("func", "args", "kwargs", "keep_shape")

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        grid = chunk_grid(t.chunks.shape)
        for idx, c in np.ndenumerate(t.chunks):
            shape = c.shape if self.keep_shape else (float("nan"),) * out.ndim
            grid[idx] = ChunkData(self.new(), [c], shape, out.meta, idx)
        nsplits = t.nsplits if self.keep_shape else [(float("nan"),) * n for n in t.chunks.shape]
        return Tiled(grid, nsplits)

    def execute(self, x):
        return np.asarray(self.func(x, *self.args, **self.kwargs))


def map_chunk(t, func, args=(), kwargs=None, dtype=None, elementwise=None, **kw):
    """Apply ``func`` to every chunk (Mars' ``map_chunk``). ``dtype`` defaults to the result
    of ``func`` on a one-element sample; ``elementwise=True`` (or a same-shape sample result)
    says each chunk keeps its shape."""
    t = as_tensor(t)
    kwargs = dict(kwargs or {}, **kw)
    sample = np.ones((1,) * t.ndim, t.dtype)
    if dtype is None or elementwise is None:
        probe = np.asarray(func(sample, *args, **kwargs))
        dtype = probe.dtype if dtype is None else dtype
        elementwise = probe.shape == sample.shape if elementwise is None else elementwise
    shape = t.shape if elementwise else (float("nan"),) * t.ndim
    op = MapChunk(func=func, args=tuple(args), kwargs=kwargs, keep_shape=bool(elementwise),
                  label=f"Tensor.map_chunk({getattr(func, '__name__', 'func')})")
    return new_tensor(op, [t], shape, dtype)


def rebalance(t, factor=None, axis=0, num_partitions=None, reassign_worker=True):
    """Re-split along ``axis`` into even chunks: ``num_partitions`` of them, or ``factor`` x
    the cluster's CPUs (Mars' ``rebalance``; ``reassign_worker`` is Ray's placement here)."""
    import os

    import ray

    from .rechunk import rechunk

    t = as_tensor(t)
    if num_partitions is None:
        cpus = ray.cluster_resources().get("CPU", 1) if ray.is_initialized() else os.cpu_count()
        num_partitions = max(1, int(round((factor or 1.0) * cpus)))
    size = max(1, -(-int(t.shape[axis]) // int(num_partitions)))
    return rechunk(t, {axis: size})


def to_dataframe(t, index=None, columns=None):
    """The 1-D / 2-D tensor as a DataFrame (Mars' ``Tensor.to_dataframe``)."""
    from ..dataframe import dataframe_from_tensor

    return dataframe_from_tensor(t, index=index, columns=columns)


def to_cpu(t):
    """The tensor itself: chunks always live in host memory here."""
    return t


def to_gpu(t):
    raise NotImplementedError("mars_on_ray runs chunks on CPUs only; Tensor.to_gpu has no GPU backend")


for _name, _func in {
    "ravel": ravel, "flatten": lambda t, order="C": ravel(t, order), "squeeze": squeeze,
    "swapaxes": swapaxes, "take": take, "repeat": repeat, "round": around, "conj": conjugate,
    "conjugate": conjugate, "copy": copy, "view": _view, "to_numpy": _to_numpy,
    "choose": choose, "item": item, "tolist": tolist, "tobytes": tobytes, "__contains__": _contains,
    "__array_namespace__": _array_namespace, "to_device": _to_device, "fill": fill, "diagonal": diagonal,
    "__float__": _scalar(float), "__int__": _scalar(int), "__complex__": _scalar(complex),
    "__divmod__": lambda t, other: arithmetic_divmod(t, other),
    "__rdivmod__": lambda t, other: arithmetic_divmod(other, t),
    "map_chunk": map_chunk, "rebalance": rebalance, "to_dataframe": to_dataframe,
    "to_cpu": to_cpu, "to_gpu": to_gpu,
}.items():
    _attach(_name, _func)
_attach("real", real, prop=True)
_attach("imag", imag, prop=True)
_attach("flat", FlatIter, prop=True)
_attach("nbytes", _nbytes, prop=True)
_attach("itemsize", lambda t: t.dtype.itemsize, prop=True)
_attach("mT", _matrix_transpose, prop=True)
_attach("device", lambda t: "cpu", prop=True)
