"""Joining and splitting: concatenate and the stack family, split and its variants.

``concatenate`` stacks the inputs' chunk grids along the axis (other axes re-split to one
common split), so no data moves but the chunks that must be re-split; splits are lazy slices.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.blockwise import unify_splits
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor
from .rechunk import rechunk_tiled
from .reshape import expand_dims, reshape

__all__ = ["concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack",
           "block", "append", "split", "array_split", "hsplit", "vsplit", "dsplit",
           "atleast_1d", "atleast_2d", "atleast_3d"]


class CastChunk(Operand):
    """A chunk of an input as a chunk of the result (in the result's dtype)."""

    _params = ("dtype",)

    def execute(self, x):
        return np.asarray(x).astype(self.dtype, copy=False)


class Concatenate(Operand):
    _params = ("axis",)

    def tile(self, ctx, out):
        tileds = []
        for inp in out.inputs:
            tileds.append((yield from ctx.known(inp)))
        axis, ndim = self.axis, out.ndim
        common = [unify_splits([t.nsplits[a] for t in tileds]) if a != axis else None
                  for a in range(ndim)]
        grids, axis_splits = [], []
        for t in tileds:
            if sum(t.nsplits[axis]) == 0:
                continue  # an empty input adds nothing along the axis
            splits = [t.nsplits[a] if a == axis else common[a] for a in range(ndim)]
            grids.append(rechunk_tiled(t, splits).chunks)
            axis_splits.extend(t.nsplits[axis])
        if not grids:  # every input empty along the axis: the first one's (empty) grid
            t = tileds[0]
            grids = [rechunk_tiled(t, [t.nsplits[a] if a == axis else common[a] for a in range(ndim)]).chunks]
            axis_splits = list(t.nsplits[axis])
        stacked = np.concatenate(grids, axis=axis)
        grid = chunk_grid(stacked.shape)
        for idx, c in np.ndenumerate(stacked):
            grid[idx] = ChunkData(CastChunk(dtype=out.dtype, label=self.label), [c], c.shape,
                                  out.meta, idx)
        nsplits = [tuple(axis_splits) if a == axis else common[a] for a in range(ndim)]
        return Tiled(grid, nsplits)


def _same(a, b) -> bool:
    return a == b or (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b))


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """Join tensors along an existing axis (``axis=None``: of the flattened inputs)."""
    if out is not None:
        raise NotImplementedError("mt.concatenate: out= is not supported")
    tensors = [as_tensor(a) for a in arrays]
    if not tensors:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        tensors = [reshape(t, -1) for t in tensors]
        axis = 0
    ndim = tensors[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, t in enumerate(tensors[1:], 1):
        if t.ndim != ndim:
            raise ValueError("all the input array dimensions except for the concatenation axis must "
                             f"match exactly, but along dimension 0, the array at index 0 has "
                             f"{ndim} dimension(s) and the array at index {i} has {t.ndim} dimension(s)")
    axis = normalize_axis_index(axis, ndim)
    for i, t in enumerate(tensors[1:], 1):
        for a in range(ndim):
            if a != axis and not _same(t.shape[a], tensors[0].shape[a]):
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match "
                    f"exactly, but along dimension {a}, the array at index 0 has size "
                    f"{tensors[0].shape[a]} and the array at index {i} has size {t.shape[a]}")
    samples = [np.zeros((1,) * ndim, t.dtype) for t in tensors]
    result_dtype = np.concatenate(samples, axis=axis, dtype=dtype, casting=casting).dtype
    if dtype is not None:  # cast first: the result's key and chunks then carry the dtype
        tensors = [t if t.dtype == result_dtype else t.astype(result_dtype) for t in tensors]
    shape = tuple(sum(t.shape[a] for t in tensors) if a == axis else tensors[0].shape[a]
                  for a in range(ndim))
    return new_tensor(Concatenate(axis=axis, label="mt.concatenate"), tensors, shape, result_dtype)


def stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """Join tensors of one shape along a new axis."""
    tensors = [as_tensor(a) for a in arrays]
    if not tensors:
        raise ValueError("need at least one array to stack")
    if len({tuple(t.shape) for t in tensors}) > 1 and not any(
            np.isnan(s) for t in tensors for s in t.shape if isinstance(s, float)):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis_index(axis, tensors[0].ndim + 1)
    return concatenate([expand_dims(t, axis) for t in tensors], axis=axis, out=out, dtype=dtype,
                       casting=casting)


def _atleast(ndim: int, arys):
    out = []
    for a in map(as_tensor, arys):
        if a.ndim >= ndim:
            out.append(a)
        elif ndim == 3 and a.ndim == 2:
            out.append(a[:, :, None])
        elif ndim == 3 and a.ndim == 1:
            out.append(a[None, :, None])
        else:
            out.append(reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape)) if a.ndim else
                       reshape(a, (1,) * ndim))
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Tensors with at least one dimension."""
    return _atleast(1, arys)


def atleast_2d(*arys):
    """Tensors with at least two dimensions (a 1-D input becomes one row)."""
    return _atleast(2, arys)


def atleast_3d(*arys):
    """Tensors with at least three dimensions (NumPy's placement of the new axes)."""
    return _atleast(3, arys)


def _as_list(tup, name):
    if isinstance(tup, Tensor) or not hasattr(tup, "__iter__"):
        raise TypeError(f"arrays to {name} must be passed as a sequence")
    return list(tup)


def hstack(tup, dtype=None, casting="same_kind"):
    """Stack horizontally: along axis 1, or axis 0 for 1-D inputs."""
    arrs = [_atleast(1, [a]) for a in _as_list(tup, "hstack")]
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def vstack(tup, dtype=None, casting="same_kind"):
    """Stack vertically (along axis 0, 1-D inputs as rows)."""
    return concatenate([_atleast(2, [a]) for a in _as_list(tup, "vstack")], axis=0, dtype=dtype,
                       casting=casting)


row_stack = vstack


def dstack(tup):
    """Stack along the third axis."""
    return concatenate([_atleast(3, [a]) for a in _as_list(tup, "dstack")], axis=2)


def column_stack(tup):
    """Stack 1-D tensors as columns (2-D ones as they are) into a 2-D tensor."""
    arrs = []
    for a in map(as_tensor, _as_list(tup, "column_stack")):
        arrs.append(a[:, None] if a.ndim < 2 else a)
    return concatenate(arrs, axis=1)


def _depth(x) -> int:
    return 1 + _depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)


def block(arrays):
    """Assemble a tensor from nested lists of blocks (NumPy's ``block``)."""
    if isinstance(arrays, tuple):
        raise TypeError("arrays is a tuple. Only lists can be used to arrange blocks, and np.block "
                        "does not allow implicit conversion from tuple to list.")
    depth = _depth(arrays)
    leaves = []

    def collect(x, d):
        if isinstance(x, list):
            if d >= depth:
                raise ValueError("List depths are mismatched.")
            if not x:
                raise ValueError("Lists cannot be empty")
            for e in x:
                collect(e, d + 1)
        else:
            if d != depth:
                raise ValueError("List depths are mismatched.")
            leaves.append(as_tensor(x))

    collect(arrays, 0)
    ndim = max(depth, max(t.ndim for t in leaves))

    def build(x, d):
        if not isinstance(x, list):
            t = as_tensor(x)
            return reshape(t, (1,) * (ndim - t.ndim) + tuple(t.shape)) if t.ndim < ndim else t
        parts = [build(e, d + 1) for e in x]
        return concatenate(parts, axis=-(depth - d))

    return build(arrays, 0)


def append(arr, values, axis=None):
    """``arr`` with ``values`` appended (flattened when ``axis`` is None)."""
    arr, values = as_tensor(arr), as_tensor(values)
    if axis is None:
        return concatenate([reshape(arr, -1), reshape(values, -1)], axis=0)
    return concatenate([arr, values], axis=axis)


def _bounds(n: int, indices_or_sections, equal: bool) -> list[int]:
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if equal and n % sections:
            raise ValueError("array split does not result in an equal division")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        return list(np.cumsum([0] + sizes))
    return [0, *map(int, indices_or_sections), n]


def _split(ary, indices_or_sections, axis, equal):
    t = as_tensor(ary)
    axis = normalize_axis_index(axis, t.ndim)  # NumPy's AxisError
    n = t.shape[axis]
    if isinstance(n, float) and math.isnan(n):
        raise ValueError("mt.split needs the length of the axis; execute the input first")
    bounds = _bounds(n, indices_or_sections, equal)
    lead = (slice(None),) * axis
    return [t[lead + (slice(a, max(a, b)),)] for a, b in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """Equal sections (an int that must divide the axis) or pieces between indices."""
    return _split(ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    """Like ``split``, but sections need not divide the axis (the first ones are longer)."""
    return _split(ary, indices_or_sections, axis, equal=False)


def hsplit(ary, indices_or_sections):
    """Split along axis 1 (axis 0 for 1-D)."""
    t = as_tensor(ary)
    if t.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(t, indices_or_sections, 1 if t.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """Split along axis 0 (2-D or more)."""
    t = as_tensor(ary)
    if t.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(t, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """Split along axis 2 (3-D or more)."""
    t = as_tensor(ary)
    if t.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(t, indices_or_sections, 2)
