"""Advanced (fancy) indexing: integer arrays, several at once, broadcast together and mixed
with integers, slices, ``None`` and ``Ellipsis``; lazy integer tensors as indices.

NumPy's rule: once an index holds an array, its integers are advanced indices too; the
advanced indices broadcast to a shape B, whose axes replace the indexed axes in place when
the advanced indices stand next to each other in the index, and lead the result otherwise.

Plan: the basic part (slices, ``None``) is applied first, keeping the indexed axes whole;
those axes are moved to the front, ``PointTake`` gathers the points (a flat list of
coordinates), the points axis is reshaped to B and moved to where NumPy puts it.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor

__all__: list[str] = []

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
          "or boolean arrays are valid indices")
_TOO_MANY = "too many indices for array: array is {}-dimensional, but {} were indexed"


def _unknown(s) -> bool:
    return isinstance(s, float) and math.isnan(s)


def is_array_index(i) -> bool:
    return isinstance(i, (Tensor, list)) or (isinstance(i, np.ndarray) and i.ndim > 0)


def is_bool_scalar(i) -> bool:
    """``True`` / ``False`` as an index: a new axis of length 1 / 0 (an advanced index)."""
    return isinstance(i, (bool, np.bool_)) or (isinstance(i, np.ndarray) and i.ndim == 0 and i.dtype == bool)


class NewAxisPoints(np.ndarray):
    """The advanced index a boolean scalar stands for: positions ([0] or []) on a new axis."""


def _as_index_array(i):
    """A NumPy / lazy index array; IndexError for other dtypes (NumPy's message)."""
    if isinstance(i, Tensor):
        arr = i
    else:
        arr = np.asarray(i)
        if arr.size == 0 and arr.dtype == np.float64 and isinstance(i, list):
            arr = arr.astype(np.intp)  # NumPy reads [] as an empty integer index
    if arr.dtype != bool and not np.issubdtype(arr.dtype, np.integer):
        if isinstance(i, list) and arr.dtype.kind not in "fc":  # NumPy's wording for lists
            raise IndexError(_VALID)
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return arr


def expand_advanced(index: tuple, shape: tuple) -> tuple[list, list[int]]:
    """The index as items of one axis each (``None`` items aside): Ellipsis spelled out as
    full slices, boolean arrays as their ``nonzero()`` arrays, integers as 0-d arrays.
    Returns the items and the positions of the advanced (array) items."""
    items = [_as_index_array(i) if is_array_index(i) else i for i in index]
    if sum(i is Ellipsis for i in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = 0
    for i in items:
        if i is None or i is Ellipsis or is_bool_scalar(i):
            continue
        if not isinstance(i, (slice, np.ndarray, Tensor)):
            try:
                i.__index__()
            except (AttributeError, TypeError):
                raise IndexError(_VALID) from None
        n_real += i.ndim if getattr(i, "dtype", None) == bool else 1
    ndim = len(shape)
    if n_real > ndim:
        raise IndexError(_TOO_MANY.format(ndim, n_real))
    out: list = []
    for i in items:
        if is_bool_scalar(i):
            out.append(np.zeros(int(bool(i)), np.intp).view(NewAxisPoints))
        elif i is Ellipsis:
            out.extend([slice(None)] * (ndim - n_real))
        elif isinstance(i, (np.ndarray, Tensor)) and i.dtype == bool:
            axis = _t_axis(out, len(out))
            _check_mask(shape, i, axis)
            out.extend(_nonzero(i))
        elif i is None or isinstance(i, (slice, np.ndarray, Tensor)):
            out.append(i)
        else:
            out.append(np.asarray(i.__index__(), dtype=np.intp))
    out.extend([slice(None)] * (ndim - _t_axis(out, len(out))))
    advanced = [p for p, i in enumerate(out) if isinstance(i, (np.ndarray, Tensor))]
    return out, advanced


def _check_mask(shape, mask, first_axis: int) -> None:
    if mask.ndim == 0:
        raise NotImplementedError("0-dimensional boolean masks are not supported")
    for axis, (n, m) in enumerate(zip(shape[first_axis:], mask.shape), first_axis):
        if not _unknown(n) and not _unknown(m) and n != m:
            raise IndexError(f"boolean index did not match indexed array along axis {axis}; "
                             f"size of axis is {n} but size of corresponding boolean axis is {m}")


def _nonzero(mask):
    if isinstance(mask, Tensor):
        from .nonzero import nonzero

        return list(nonzero(mask))
    return list(np.nonzero(mask))


def broadcast_index_shape(arrays) -> tuple:
    """The shape the advanced index arrays broadcast to (NumPy's IndexError when they don't);
    ``(nan,)`` for one-dimensional arrays of unknown length."""
    shapes = [tuple(a.shape) for a in arrays]
    if any(_unknown(s) for shape in shapes for s in shape):
        if any(len(s) > 1 for s in shapes):
            raise NotImplementedError("lazy index arrays of unknown shape must be one-dimensional")
        lengths = {s[0] for s in shapes if s and not _unknown(s[0]) and s[0] != 1}
        return (lengths.pop(),) if lengths else (float("nan"),)
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + "".join(f"{s} " for s in shapes)) from None


def check_bounds(array: np.ndarray, axis: int, size) -> None:
    if _unknown(size) or array.size == 0:
        return
    bad = array[(array < -size) | (array >= size)]
    if bad.size:
        raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {axis} with size {size}")


def _t_axis(items, p) -> int:
    return sum(j is not None and not isinstance(j, NewAxisPoints) for j in items[:p])


def _check_advanced_bounds(t, items, advanced) -> None:
    for p in advanced:
        if isinstance(items[p], np.ndarray) and not isinstance(items[p], NewAxisPoints):
            check_bounds(items[p], _t_axis(items, p), t.shape[_t_axis(items, p)])


def advanced_getitem(t: Tensor, index: tuple) -> Tensor:
    """``t[index]`` for an index holding at least one array (NumPy's semantics)."""
    from .indexing import _basic
    from .reshape import reshape, transpose

    t = as_tensor(t)
    items, advanced = expand_advanced(index, tuple(t.shape))
    _check_advanced_bounds(t, items, advanced)
    arrays = [items[p] for p in advanced]
    b_shape = broadcast_index_shape(arrays)
    # the basic part keeps the indexed axes whole; a boolean scalar's axis is made here
    base = _basic(t, tuple((None if isinstance(i, NewAxisPoints) else slice(None)) if p in advanced
                           else i for p, i in enumerate(items)))
    k = len(advanced)
    others = [p for p in range(len(items)) if p not in advanced]
    if advanced != list(range(k)):
        base = transpose(base, advanced + others)
    n_points = math.prod(b_shape) if not any(map(_unknown, b_shape)) else float("nan")
    eager = tuple(None if isinstance(a, Tensor) else a for a in arrays)
    lazy = [a for a in arrays if isinstance(a, Tensor)]
    op = PointTake(indices=eager, label="mt.getitem")
    out = new_tensor(op, [base, *lazy], (n_points, *base.shape[k:]), t.dtype)
    if len(b_shape) != 1:
        out = reshape(out, (*b_shape, *out.shape[1:]))
    adjacent = advanced == list(range(advanced[0], advanced[0] + k))
    if adjacent and advanced[0] > 0:
        nb = len(b_shape)
        rest = list(range(nb, out.ndim))
        out = transpose(out, rest[:advanced[0]] + list(range(nb)) + rest[advanced[0]:])
    return out


def fetch_index_values(ctx, tensors):
    """``values = yield from fetch_index_values(ctx, tensors)``: lazy index arrays computed
    and gathered (they pass through the supervisor: indices, not data)."""
    tiled = [ctx[a.data if isinstance(a, Tensor) else a] for a in tensors]
    flat = yield from ctx.values([c for tl in tiled for c in tl.flat])
    values, at = [], 0
    for tl in tiled:
        n = tl.chunks.size
        grid = np.empty(tl.chunks.shape, dtype=object)
        for pos, v in zip(np.ndindex(*tl.chunks.shape), flat[at:at + n]):
            grid[pos] = np.asarray(v)
        at += n
        values.append(np.block(grid.tolist()) if grid.ndim else grid[()])
    return values


def locate_points(points: np.ndarray, axis: int, splits) -> tuple[np.ndarray, np.ndarray]:
    """Each point's chunk along ``axis`` and its position in that chunk (negative points
    count from the end; NumPy's IndexError when one is out of bounds)."""
    offsets = np.asarray([0, *itertools.accumulate(splits)])
    check_bounds(points, axis, int(offsets[-1]))
    points = np.where(points < 0, points + offsets[-1], points).astype(np.intp)
    chunk = np.searchsorted(offsets, points, side="right") - 1
    return chunk, points - offsets[chunk]


class PointTake(Operand):
    """Points over the first ``len(indices)`` axes: result row r is ``x[i0[r], i1[r], ...]``.
    ``indices`` holds each advanced index flattened to the broadcast shape, or None where
    it is a lazy tensor (an input after the data, fetched when tiling)."""

    _params = ("indices", "parts", "order")

    def tile(self, ctx, out):
        data, lazy = out.inputs[0], out.inputs[1:]
        t = ctx[data]
        k = len(self.indices)
        if any(_unknown(s) for splits in t.nsplits[:k] for s in splits):
            t = yield from ctx.known(data)
        fetched = iter((yield from fetch_index_values(ctx, lazy)) if lazy else ())
        arrays = [next(fetched) if a is None else a for a in self.indices]
        arrays = [a.reshape(-1) for a in np.broadcast_arrays(*arrays)]
        if len(arrays[0]) and any(not np.issubdtype(a.dtype, np.integer) for a in arrays):
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        coords, local = zip(*(locate_points(a, axis, splits)
                              for axis, (a, splits) in enumerate(zip(arrays, t.nsplits))))
        grid_k = t.chunks.shape[:k]
        src = np.ravel_multi_index(coords, grid_k) if arrays[0].size else np.zeros(0, np.intp)
        block = max(1, math.prod(max(s) for s in t.nsplits[:k]))
        n = len(src)
        out_splits = [min(block, n - p) for p in range(0, n, block)] or [0]
        rest_grid = t.chunks.shape[k:]
        grid = chunk_grid((len(out_splits),) + rest_grid)
        for b, size in enumerate(out_splits):
            span = slice(b * block, b * block + size)
            by_source = np.argsort(src[span], kind="stable")
            used, starts = np.unique(src[span][by_source], return_index=True)
            members = np.split(by_source, starts[1:]) if size else [by_source]
            used = used if size else np.array([0])
            parts = tuple(tuple(loc[span][m] for loc in local) for m in members)
            # taking per source chunk groups the points by chunk; ``order`` restores theirs
            order = None if len(used) == 1 else np.argsort(by_source, kind="stable")
            op = self.new(indices=None, parts=parts, order=order)
            sources = [np.unravel_index(u, grid_k) for u in used]
            for rest in itertools.product(*map(range, rest_grid)):
                inputs = [t.chunks[(*map(int, c), *rest)] for c in sources]
                shape = (size, *inputs[0].shape[k:])
                grid[(b, *rest)] = ChunkData(op, inputs, shape, out.meta, (b, *rest))
        return Tiled.from_chunks(grid)

    def execute(self, *xs):
        taken = [x[part] for x, part in zip(xs, self.parts)]
        if self.order is None:
            return taken[0]
        return np.concatenate(taken, axis=0)[self.order]
