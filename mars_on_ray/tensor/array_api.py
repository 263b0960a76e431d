"""NumPy 2's array-API names that are compositions of the other operations: ``concat``,
``permute_dims``, ``matrix_transpose``, ``vecdot`` / ``matvec`` / ``vecmat``,
``cumulative_sum`` / ``cumulative_prod``, ``unique_values`` / ``unique_counts`` /
``unique_inverse`` / ``unique_all`` (NaNs each distinct, as theirs), ``isdtype``, ``size``,
``unstack``; and a few everyday NumPy helpers of the same kind (``isposinf`` / ``isneginf``,
``sort_complex``, ``einsum_path``, ``fromfunction``, ``asanyarray``, ``packbits`` /
``unpackbits`` on chunks cut at whole bytes)."""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["concat", "permute_dims", "matrix_transpose", "vecdot", "matvec", "vecmat", "cumulative_sum",
           "cumulative_prod", "unique_values", "unique_counts", "unique_inverse", "unique_all", "isdtype",
           "size", "unstack", "isposinf", "isneginf", "sort_complex", "einsum_path", "fromfunction",
           "asanyarray", "packbits", "unpackbits"]

UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])
UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
isdtype = np.isdtype


def concat(arrays, /, *, axis=0):
    """``concatenate`` under its array-API name."""
    from .joining import concatenate

    return concatenate(arrays, axis=axis)


def permute_dims(a, /, axes):
    """``transpose`` under its array-API name."""
    from .reshape import transpose

    return transpose(as_tensor(a), axes)


def matrix_transpose(x, /):
    """The last two axes swapped."""
    from .linalg_api import matrix_transpose as mt_

    return mt_(x)


def vecdot(x1, x2, /, *, axis=-1):
    """``sum(conj(x1) * x2, axis)`` with NumPy's broadcasting, dtype and core-size check."""
    a, b = as_tensor(x1), as_tensor(x2)
    n1, n2 = a.shape[normalize_axis_index(axis, a.ndim)], b.shape[normalize_axis_index(axis, b.ndim)]
    if n1 == n1 and n2 == n2 and n1 != n2:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                         f"signature (n),(n)->() (size {n2} is different from {n1})")
    dtype = np.vecdot(np.ones(1, a.dtype), np.ones(1, b.dtype)).dtype
    prod = (a.conj() if a.dtype.kind == "c" else a) * b
    return prod.sum(axis=axis, dtype=dtype) if dtype != np.bool_ else prod.any(axis=axis)


def matvec(x1, x2, /):
    """The matrix-vector products of the stacked ``x1`` matrices and ``x2`` vectors."""
    from .contractions import matmul

    return matmul(x1, as_tensor(x2)[..., None])[..., 0]


def vecmat(x1, x2, /):
    """The vector-matrix products of the stacked conjugated ``x1`` vectors and ``x2`` matrices."""
    from .contractions import matmul

    a = as_tensor(x1)
    return matmul((a.conj() if a.dtype.kind == "c" else a)[..., None, :], x2)[..., 0, :]


def _cumulative(name, x, axis, dtype, include_initial, identity):
    from . import cumulative
    from .datasource import full
    from .joining import concatenate

    t = as_tensor(x)
    if t.ndim == 0:
        t = t.reshape((1,))
    if axis is None:
        if t.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    axis = normalize_axis_index(axis, t.ndim)
    res = getattr(cumulative, name)(t, axis=axis, dtype=dtype)
    if not include_initial:
        return res
    shape = t.shape[:axis] + (1,) + t.shape[axis + 1:]
    return concatenate([full(shape, identity, dtype=res.dtype), res], axis=axis)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``cumsum`` along ``axis`` (required past 1-D), with a leading 0 when ``include_initial``."""
    if out is not None:
        raise NotImplementedError("mt.cumulative_sum: out=")
    return _cumulative("cumsum", x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``cumprod`` along ``axis`` (required past 1-D), with a leading 1 when ``include_initial``."""
    if out is not None:
        raise NotImplementedError("mt.cumulative_prod: out=")
    return _cumulative("cumprod", x, axis, dtype, include_initial, 1)


def _unique(x, index=False, inverse=False, counts=False):
    """``unique(x, ..., equal_nan=False)``: ``mt.unique`` makes the NaNs one value; here each
    NaN is its own, after the sorted other values (NumPy's order), in its flat order."""
    from .arithmetic import isnan, logical_not, where
    from .cumulative import cumsum
    from .joining import concatenate
    from .nonzero import flatnonzero
    from .setops import unique

    t = as_tensor(x)
    res = unique(t, return_index=index, return_inverse=inverse, return_counts=counts)
    parts = list(res) if isinstance(res, tuple) else [res]
    if t.dtype.kind not in "fc":
        return parts
    flat = t.ravel()
    nans = isnan(flat)
    keep = logical_not(isnan(parts[0]))
    out = [concatenate([parts[0][keep], flat[nans]])]
    if index:
        out.append(concatenate([parts[1][keep], flatnonzero(nans)]))
    if inverse:
        # a NaN maps past the other distinct values, numbered in flat order
        rank = keep.sum() + cumsum(nans) - 1
        out.append(where(nans, rank, parts[1 + index].ravel()).reshape(parts[1 + index].shape))
    if counts:
        out.append(concatenate([parts[-1][keep], nans[nans].astype(parts[-1].dtype)]))
    return out


def unique_values(x, /):
    """The distinct values of ``x`` (flattened), sorted; NaNs each count."""
    return _unique(x)[0]


def unique_counts(x, /):
    """``(values, counts)`` of the distinct values."""
    return UniqueCountsResult(*_unique(x, counts=True))


def unique_inverse(x, /):
    """``(values, inverse_indices)``: each element's position in ``values`` (``x``'s shape)."""
    return UniqueInverseResult(*_unique(x, inverse=True))


def unique_all(x, /):
    """``(values, indices, inverse_indices, counts)``."""
    return UniqueAllResult(*_unique(x, index=True, inverse=True, counts=True))


def size(a, axis=None):
    """The number of elements (along ``axis``)."""
    t = as_tensor(a)
    return t.size if axis is None else t.shape[axis]


def unstack(x, /, *, axis=0):
    """The slices of ``x`` along ``axis``, as a tuple."""
    from .manipulation import moveaxis

    t = as_tensor(x)
    axis = normalize_axis_index(axis, t.ndim)
    moved = moveaxis(t, axis, 0)
    return tuple(moved[i] for i in range(t.shape[axis]))


def isposinf(x, out=None):
    """Whether each element is +inf."""
    return _signed_inf(x, out, "isposinf", negative=False)


def isneginf(x, out=None):
    """Whether each element is -inf."""
    return _signed_inf(x, out, "isneginf", negative=True)


def _signed_inf(x, out, name, negative: bool):
    from .arithmetic import isinf, logical_and, logical_not, signbit

    t = as_tensor(x)
    if t.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    if out is not None:
        raise NotImplementedError(f"mt.{name}: out=")
    sign = signbit(t)
    return logical_and(isinf(t), sign if negative else logical_not(sign))


def sort_complex(a):
    """``a`` sorted (real part first, then imaginary), as complex (NumPy's dtype rule)."""
    from .sorting import sort

    t = as_tensor(a)
    return sort(t).astype(np.sort_complex(np.zeros(1, t.dtype)).dtype)


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """NumPy's contraction order and its report for operands of these shapes and dtypes
    (computed on zero-stride stand-ins: nothing is executed)."""
    stand_ins = [np.broadcast_to(np.zeros((), o.dtype), tuple(int(s) for s in o.shape)) if hasattr(o, "dtype")
                 and hasattr(o, "data") else o for o in operands]
    return np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function`` called once on the coordinate tensors of ``shape`` (NumPy's
    ``fromfunction``: the function must work elementwise on whole arrays)."""
    from .numeric import indices

    if like is not None:
        raise NotImplementedError("mt.fromfunction: like=")
    return function(*indices(shape, dtype=dtype), **kwargs)


def asanyarray(a, dtype=None, order=None, *, like=None):
    """``asarray``: tensors have no subclasses to keep."""
    from .datasource import asarray

    return asarray(a, dtype=dtype)


class PackBits(Operand):
    """NumPy's ``packbits`` (``unpack``: ``unpackbits``) along ``axis`` of chunks cut at whole
    bytes: runs of 8 elements (of 1 byte when unpacking), so each chunk packs on its own."""

    _params = ("axis", "bitorder", "unpack")

    def tile(self, ctx, out):
        t = yield from ctx.known(out.inputs[0])
        n, per = int(sum(t.nsplits[self.axis])), 1 if self.unpack else 8
        size = max(per, -(-max(t.nsplits[self.axis]) // per) * per)
        splits = list(t.nsplits)
        splits[self.axis] = tuple(min(size, n - s) for s in range(0, n, size)) or (0,)
        t = rechunk_tiled(t, splits)
        grid = chunk_grid(t.chunks.shape)
        for idx, c in np.ndenumerate(t.chunks):
            shape = list(c.shape)
            shape[self.axis] = shape[self.axis] * 8 if self.unpack else -(-shape[self.axis] // 8)
            grid[idx] = ChunkData(self.new(), [c], tuple(shape), out.meta, idx)
        return Tiled.from_chunks(grid)

    def execute(self, x):
        func = np.unpackbits if self.unpack else np.packbits
        return func(x, axis=self.axis, bitorder=self.bitorder)


def _bits(a, axis, bitorder, unpack):
    from .reshape import ravel

    t = as_tensor(a)
    getattr(np, "unpackbits" if unpack else "packbits")(np.zeros(1, t.dtype), bitorder=bitorder)  # NumPy's errors
    if axis is None:
        t, axis = ravel(t), 0
    axis = normalize_axis_index(axis, t.ndim)
    n = t.shape[axis]
    shape = t.shape[:axis] + ((n * 8 if unpack else -(-n // 8)) if n == n else n,) + t.shape[axis + 1:]
    op = PackBits(axis=axis, bitorder=bitorder, unpack=unpack, label=f"mt.{'un' if unpack else ''}packbits")
    return new_tensor(op, [t], shape, np.uint8)


def packbits(a, /, axis=None, bitorder="big"):
    """Booleans (or integers, as nonzero) packed 8 to a uint8 along ``axis`` (None: flattened)."""
    return _bits(a, axis, bitorder, False)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 tensor along ``axis`` (None: flattened); ``count`` keeps that many
    (negative: drops that many from the end)."""
    res = _bits(a, axis, bitorder, True)
    if count is None:
        return res
    ax = 0 if axis is None else normalize_axis_index(axis, res.ndim)
    n = res.shape[ax]
    stop = count if count >= 0 else n + count
    if stop < 0:
        raise ValueError("-count larger than number of elements")
    index = [slice(None)] * res.ndim
    index[ax] = slice(0, stop)
    res = res[tuple(index)]
    if stop > n:  # NumPy pads with zero bits
        from .joining import concatenate
        from .datasource import zeros

        pad = list(res.shape)
        pad[ax] = stop - n
        res = concatenate([res, zeros(tuple(pad), dtype=np.uint8)], axis=ax)
    return res
