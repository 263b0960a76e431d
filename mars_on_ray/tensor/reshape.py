"""Shape manipulation: transpose, reshape and the axis helpers built on them."""
from __future__ import annotations

import itertools
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor

__all__ = ["transpose", "reshape", "swapaxes", "squeeze", "expand_dims", "ravel"]


def probe(shape, dtype) -> np.ndarray:
    """A zero-stride array of ``shape``: NumPy validates arguments on it without memory."""
    return np.broadcast_to(np.empty((), dtype), tuple(int(s) for s in shape))


class Transpose(Operand):
    _params = ("axes",)

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        moved = t.chunks.transpose(self.axes)
        grid = chunk_grid(moved.shape)
        for idx, c in np.ndenumerate(moved):
            shape = tuple(c.shape[a] for a in self.axes)
            grid[idx] = ChunkData(self.new(), [c], shape, out.meta, idx)
        return Tiled(grid, [t.nsplits[a] for a in self.axes])

    def execute(self, x):
        return np.transpose(x, self.axes)


def transpose(t, *axes, **kwargs) -> Tensor:
    """Permute the axes (reversed when none are given); only the chunk grid is permuted."""
    t = as_tensor(t)
    axes = kwargs.pop("axes", axes[0] if len(axes) == 1 else axes or None)
    if kwargs:
        raise TypeError(f"transpose() got unexpected keyword arguments {sorted(kwargs)}")
    np.transpose(t.data.meta, axes)  # NumPy's own errors for bad axes
    axes = tuple(range(t.ndim))[::-1] if axes is None else normalize_axis_tuple(axes, t.ndim)
    if axes == tuple(range(t.ndim)):
        return t
    shape = tuple(t.shape[a] for a in axes)
    return new_tensor(Transpose(axes=axes, label="mt.transpose"), [t], shape, t.dtype)


def swapaxes(t, axis1: int, axis2: int) -> Tensor:
    """Interchange two axes."""
    t = as_tensor(t)
    a, b = normalize_axis_tuple((axis1, axis2), t.ndim, allow_duplicate=True)
    axes = list(range(t.ndim))
    axes[a], axes[b] = b, a
    return transpose(t, axes)


class Reshape(Operand):
    _params = ("newshape",)

    def tile(self, ctx, out):
        from .rechunk import rechunk_tiled

        t = yield from ctx.known(out.inputs[0])
        in_shape = tuple(int(sum(s)) for s in t.nsplits)
        shape = probe(in_shape, out.dtype).reshape(self.newshape).shape
        in_splits, out_splits, groups = _plan(in_shape, shape, t.nsplits, out.dtype.itemsize)
        t = rechunk_tiled(t, in_splits) if tuple(map(tuple, in_splits)) != t.nsplits else t
        grid = chunk_grid([len(s) for s in out_splits])
        for in_idx, c in np.ndenumerate(t.chunks):
            idx = [0] * len(shape)
            for a, b in groups:
                if a and b:
                    idx[b[0]] = in_idx[a[0]]
            chunk_shape = tuple(out_splits[d][i] for d, i in enumerate(idx))
            grid[tuple(idx)] = ChunkData(self.new(newshape=chunk_shape), [c], chunk_shape,
                                         out.meta, tuple(idx))
        return Tiled(grid, out_splits)

    def execute(self, x):
        return x.reshape(self.newshape)


def _axis_groups(a: tuple, b: tuple) -> list[tuple[list[int], list[int]]]:
    """Pair runs of input axes with runs of output axes of equal size (C order).

    A size-1 axis with no size-1 partner forms a group with an empty other side.
    """
    groups, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if i < len(a) and a[i] == 1 and (j == len(b) or b[j] != 1):
            groups.append(([i], []))
            i += 1
            continue
        if j < len(b) and b[j] == 1 and (i == len(a) or a[i] != 1):
            groups.append(([], [j]))
            j += 1
            continue
        ga, gb, pa, pb = [i], [j], a[i], b[j]
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb:
                ga.append(i)
                pa, i = pa * a[i], i + 1
            else:
                gb.append(j)
                pb, j = pb * b[j], j + 1
        groups.append((ga, gb))
    return groups


def _plan(in_shape, out_shape, nsplits, itemsize: int):
    """Input splits making each chunk reshape on its own, the output splits, the groups.

    In each group only its first input axis stays chunked, at boundaries that are multiples
    of ``unit`` rows, so that every chunk is a whole block of the group's output axes. The
    input's row boundaries are kept where they align (a result chunk then reads one band of
    input chunks), and bands are cut to stay within the chunk byte limit.
    """
    if math.prod(in_shape) == 0 or not in_shape or not out_shape:
        return [(s,) for s in in_shape], [(s,) for s in out_shape], []
    in_splits = [(s,) for s in in_shape]
    out_splits = [(s,) for s in out_shape]
    groups = _axis_groups(in_shape, out_shape)
    for ga, gb in groups:
        if not (ga and gb):
            continue
        t_in = math.prod(in_shape[x] for x in ga[1:])
        t_out = math.prod(out_shape[x] for x in gb[1:])
        unit = math.lcm(t_in, t_out) // t_in
        first = nsplits[ga[0]]
        whole = all(len(nsplits[x]) == 1 for x in ga[1:])
        if not (whole and all(s % unit == 0 for s in first[:-1])):
            max_rows = max(unit, options.chunk_store_limit // (t_in * itemsize) // unit * unit)
            first = _aligned(first, unit, max_rows)
        in_splits[ga[0]] = tuple(first)
        out_splits[gb[0]] = tuple(s * t_in // t_out for s in first)
    return in_splits, out_splits, groups


def _aligned(splits, unit: int, max_rows: int) -> list[int]:
    """``splits`` with boundaries moved down to multiples of ``unit``, none over ``max_rows``."""
    bounds = sorted({b // unit * unit for b in itertools.accumulate(splits)} - {0})
    out, prev = [], 0
    for b in bounds:
        size = b - prev
        while size > max_rows:
            out.append(max_rows)
            size -= max_rows
        out.append(size)
        prev = b
    return out


def _parse_shape(shape) -> tuple:
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = tuple(shape[0])
    return tuple(operator.index(s) for s in shape)


def reshape(t, *shape, order: str = "C") -> Tensor:
    """Give a new shape (C order; one -1 is inferred). Chunks are rechunked only where a
    merged or split axis is not whole inside them."""
    t = as_tensor(t)
    if order not in ("C", "F", "A"):  # chunks are C-contiguous: 'A' reads as 'C'
        raise ValueError("order must be one of 'C', 'F', 'A'")
    newshape = _parse_shape(shape)
    if order == "F":  # Fortran order is C order of the reversed axes
        return transpose(reshape(transpose(t), newshape[::-1]))
    if not t.data.has_unknown_shape:
        out_shape = probe(t.shape, t.dtype).reshape(newshape).shape
        if out_shape == t.shape:
            return t
    else:
        if sum(s < 0 for s in newshape) > 1:  # NumPy takes any negative size as unknown
            raise ValueError("can only specify one unknown dimension")
        out_shape = tuple(float("nan") if s < 0 else s for s in newshape)
    return new_tensor(Reshape(newshape=newshape, label="mt.reshape"), [t], out_shape, t.dtype)


def ravel(t, order="C") -> Tensor:
    """The tensor flattened to one axis (C order, or Fortran order with ``order='F'``)."""
    return reshape(t, -1, order=order)


def squeeze(t, axis=None) -> Tensor:
    """Remove axes of length one."""
    from .indexing import getitem

    t = as_tensor(t)
    if axis is None:
        axes = tuple(i for i, s in enumerate(t.shape) if s == 1)
    else:
        axes = normalize_axis_tuple(axis, t.ndim)
        if any(t.shape[a] == t.shape[a] and t.shape[a] != 1 for a in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    if not axes:
        return t
    return getitem(t, tuple(0 if i in axes else slice(None) for i in range(t.ndim)))


def expand_dims(t, axis) -> Tensor:
    """Insert axes of length one at ``axis`` (an int or a tuple) of the result."""
    from .indexing import getitem

    t = as_tensor(t)
    axis = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = normalize_axis_tuple(axis, t.ndim + len(axis))
    return getitem(t, tuple(None if i in axes else slice(None) for i in range(t.ndim + len(axes))))
