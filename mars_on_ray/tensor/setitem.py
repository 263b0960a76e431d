"""Assignment into tensors: ``t[index] = value`` and ``mt.put``, with NumPy's semantics.

A tensor is lazy, so assignment rebinds it to a new graph node; chunks the index does not
touch are kept as they are. The value is laid out once as ``V``: the points of the advanced
indices (integers and arrays) flattened to axis 0, the sliced axes after it in order. Each
touched chunk copies itself and writes its points and slices from the pieces of ``V`` it
needs, in point order, so a repeated index keeps its last value as NumPy does.
A boolean mask with a value that does not depend on the number of True entries is a
``where`` instead (no positions needed).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..core.entity import ChunkData, Tiled
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor
from .fancy_index import (_check_advanced_bounds, _check_mask, _unknown, broadcast_index_shape, check_bounds,
                          expand_advanced, fetch_index_values, is_array_index, is_bool_scalar,
                          locate_points)

__all__ = ["put", "place", "putmask"]


def _shape_str(shape) -> str:
    return "(" + ",".join(str(s) for s in shape) + (",)" if len(shape) == 1 else ")")


def _cast_eager(value, dtype):
    """``value`` as an array of ``dtype`` with NumPy's assignment casting and errors."""
    out = np.empty(np.shape(value), dtype=dtype)
    out[...] = value
    return out


def assign(t: Tensor, index, value) -> Tensor:
    """The tensor ``t`` with ``t[index] = value`` applied."""
    t = as_tensor(t)
    index = index if isinstance(index, tuple) else (index,)
    if not isinstance(value, Tensor):
        value = _cast_eager(value, t.dtype)
    if any(map(is_bool_scalar, index)):
        raise NotImplementedError("assigning through a boolean scalar index (t[True] = v) is not "
                                  "supported; use t[...] = v")
    masked = _mask_assignment(t, index, value)
    if masked is not None:
        return masked
    items, advanced = expand_advanced(index, tuple(t.shape))
    _check_advanced_bounds(t, items, advanced)
    arrays = [items[p] for p in advanced]
    b_shape = broadcast_index_shape(arrays) if arrays else ()
    layout = _Layout(t, items, advanced, b_shape)
    v_tensor, scalar = layout.value_layout(value, any(map(is_array_index, index)))
    plan = tuple(("adv", advanced.index(p)) if p in advanced else ("slice", items[p])
                 for p in range(len(items)) if items[p] is not None)
    lazy = [a for a in arrays if isinstance(a, Tensor)]
    op = SetItem(plan=plan, indices=tuple(None if isinstance(a, Tensor) else a for a in arrays),
                 scalar=scalar, label="mt.setitem")
    inputs = [t, *lazy] + ([v_tensor] if v_tensor is not None else [])
    return new_tensor(op, inputs, t.shape, t.dtype)


def _mask_assignment(t: Tensor, index: tuple, value):
    """``t[mask] = value`` as ``where(mask, value, t)`` when the value broadcasts over the
    unmasked trailing axes; None otherwise."""
    from .arithmetic import where
    from .reshape import reshape

    index = index[:-1] if len(index) > 1 and index[-1] is Ellipsis else index
    if len(index) != 1 or not is_array_index(index[0]):
        return None
    mask = index[0] if isinstance(index[0], Tensor) else np.asarray(index[0])
    if mask.dtype != bool or mask.ndim == 0 or mask.ndim > t.ndim:
        return None
    trailing = t.ndim - mask.ndim
    if np.ndim(value) > trailing and not (np.ndim(value) == trailing + 1 and value.shape[0] == 1):
        return None
    _check_mask(tuple(t.shape), mask, 0)
    shaped = reshape(mask, tuple(mask.shape) + (1,) * trailing) if trailing else mask
    v = value if isinstance(value, Tensor) else value.reshape(value.shape[-trailing:] if trailing else ())
    if isinstance(v, Tensor):
        v = v.astype(t.dtype) if v.dtype != t.dtype else v
        if v.ndim > trailing:
            v = reshape(v, tuple(v.shape[1:]))
    return where(shaped, v, t)


class _Layout:
    """Where the result axes of ``t[index]`` come from: the broadcast points (B) and the
    sliced / new axes, in NumPy's order."""

    def __init__(self, t, items, advanced, b_shape):
        self.t, self.items, self.advanced, self.b_shape = t, items, advanced, b_shape
        others = [p for p in range(len(items)) if p not in advanced]
        adjacent = advanced == list(range(advanced[0], advanced[0] + len(advanced))) if advanced else True
        self.b_at = sum(1 for p in others if advanced and p < advanced[0]) if adjacent else 0
        self.other_lengths = []
        for p in others:
            i = items[p]
            if i is None:
                self.other_lengths.append(1)
            else:
                size = t.shape[sum(j is not None for j in items[:p])]
                self.other_lengths.append(len(range(*i.indices(size))) if not _unknown(size) else size)
        self.others = others

    def result_shape(self, b_shape):
        o = self.other_lengths
        return (*o[:self.b_at], *b_shape, *o[self.b_at:])

    def value_layout(self, value, had_arrays: bool):
        """``(V, None)`` for an array value laid out as (points, sliced axes...), or
        ``(None, scalar)``."""
        from .manipulation import broadcast_to
        from .reshape import reshape, transpose

        if value.ndim == 0 and not isinstance(value, Tensor):
            return None, value[()]
        shape = self.result_shape(self.b_shape)
        nb = len(self.b_shape)
        v_shape = tuple(value.shape)
        lead = len(shape) - len(v_shape)
        b_part = [v_shape[a - lead] for a in range(self.b_at, self.b_at + nb) if a - lead >= 0]
        per_point = any(s != 1 for s in b_part)
        b_shape = self.b_shape if per_point else (1,) * nb
        if per_point and any(map(_unknown, b_shape)) and len(b_part) == nb == 1:
            b_shape = (v_shape[self.b_at - lead],)  # the points' count checked when tiling
        target = self.result_shape(b_shape)
        if any(map(_unknown, target)):
            raise NotImplementedError("assigning an array through a lazy index of unknown "
                                      "length: execute the index first, or assign a scalar")
        try:
            np.broadcast_shapes(v_shape, target)
            if len(v_shape) > len(target):
                raise ValueError
        except ValueError:
            message = ("could not broadcast input array from shape {} into shape {}" if not had_arrays
                       else "shape mismatch: value array of shape {} could not be broadcast to "
                            "indexing result of shape {}")
            raise ValueError(message.format(_shape_str(v_shape), _shape_str(shape))) from None
        n_v = math.prod(b_shape)
        lengths = [n for p, n in zip(self.others, self.other_lengths) if self.items[p] is not None]
        order = [*range(self.b_at, self.b_at + nb), *range(self.b_at),
                 *range(self.b_at + nb, len(target))]
        if isinstance(value, Tensor):
            v = broadcast_to(value, target) if tuple(value.shape) != target else value
            v = transpose(v, order) if order != list(range(len(order))) else v
            return reshape(v, (n_v, *lengths)), None
        from .datasource import tensor

        v = np.broadcast_to(value, target).transpose(order).reshape(n_v, *lengths)
        return tensor(np.ascontiguousarray(v)), None


class SetItem(Operand):
    """``plan``: per axis of the data, ("slice", slice) or ("adv", j) for the j-th advanced
    index (``indices[j]``, or None when it is a lazy tensor input)."""

    _params = ("plan", "indices", "scalar", "local", "writes", "adv_axes")

    def tile(self, ctx, out):
        data = out.inputs[0]
        n_lazy = sum(a is None for a in self.indices)
        lazy = out.inputs[1:1 + n_lazy]
        v_node = out.inputs[1 + n_lazy] if len(out.inputs) > 1 + n_lazy else None
        t = yield from ctx.known(data)
        v = (yield from ctx.known(v_node)) if v_node is not None else None
        fetched = iter((yield from fetch_index_values(ctx, lazy)) if lazy else ())
        arrays = [next(fetched) if a is None else a for a in self.indices]
        points = [a.reshape(-1) for a in np.broadcast_arrays(*arrays)] if arrays else []
        n_points = len(points[0]) if points else 1
        if v is not None and v.nsplits and int(sum(v.nsplits[0])) not in (1, n_points):
            raise ValueError(f"shape mismatch: value array of {int(sum(v.nsplits[0]))} points could "
                             f"not be broadcast to indexing result of {n_points} points")
        adv_axes = [axis for axis, (kind, _) in enumerate(self.plan) if kind == "adv"]
        located = [locate_points(points[self.plan[axis][1]], axis, t.nsplits[axis]) for axis in adv_axes]
        coords, local = [c for c, _ in located], [loc for _, loc in located]
        by_chunk = _group_points(coords, [t.chunks.shape[a] for a in adv_axes], n_points)
        slice_pieces = {axis: _pieces_by_chunk(sl, t.nsplits[axis])
                        for axis, (kind, sl) in enumerate(self.plan) if kind == "slice"}
        grid = t.chunks.copy()
        for pos in np.ndindex(*t.chunks.shape):
            ids = by_chunk.get(tuple(pos[a] for a in adv_axes)) if adv_axes else np.zeros(1, np.intp)
            pieces = [slice_pieces[a].get(pos[a]) for a in slice_pieces]
            if ids is None or not len(ids) or any(p is None or p[1] == 0 for p in pieces):
                continue
            chunk = t.chunks[pos]
            local_index = (tuple(loc[ids] for loc in local), tuple(p[0] for p in pieces))
            inputs, writes = [chunk], []
            if v is not None:
                for vpos, write in _value_pieces(v, ids, pieces, n_points):
                    inputs.append(v.chunks[vpos])
                    writes.append(write)
            op = self.new(plan=None, indices=None, local=local_index, writes=tuple(writes),
                          adv_axes=tuple(adv_axes))
            grid[pos] = ChunkData(op, inputs, chunk.shape, out.meta, chunk.index)
        return Tiled(grid, t.nsplits)

    def execute(self, x, *values):
        y = np.array(x, copy=True)
        slice_axes = [a for a in range(y.ndim) if a not in self.adv_axes]
        view = y.transpose([*self.adv_axes, *slice_axes])
        coords, slices = self.local
        if not values:
            view[(*coords, *slices)] = self.scalar
            return y
        for vchunk, (mine, theirs, ranges) in zip(values, self.writes):
            sub = tuple(_narrow(sl, lo, hi) for sl, (lo, hi, _, _) in zip(slices, ranges))
            picked = vchunk[(theirs, *(slice(a, b) for _, _, a, b in ranges))]
            if self.adv_axes:
                view[(*(c[mine] for c in coords), *sub)] = picked
            else:
                view[sub] = picked[0]
        return y


def _pieces_by_chunk(sl: slice, splits) -> dict:
    """Per input chunk the slice touches: (local slice, length, first result position)."""
    from .indexing import _slice_pieces

    pieces = _slice_pieces(sl, splits)
    starts = itertools.accumulate((n for _, _, n in pieces), initial=0)
    return {k: (loc, n, start) for start, (k, loc, n) in zip(starts, pieces)}


def _narrow(sl: slice, lo: int, hi: int) -> slice:
    """The part of a local slice (start, step) covering its result positions lo..hi."""
    step = sl.step or 1
    start = (sl.start or 0) + lo * step
    stop = start + (hi - lo) * step
    return slice(start, stop if stop >= 0 else None, step)


def _group_points(coords, grid_shape, n_points) -> dict:
    """Point ids (in order) per chunk position over the advanced axes."""
    if not coords:
        return {}
    flat = np.ravel_multi_index(coords, grid_shape) if n_points else np.zeros(0, np.intp)
    order = np.argsort(flat, kind="stable")
    keys, starts = np.unique(flat[order], return_index=True)
    groups = np.split(order, starts[1:])
    return {tuple(int(c) for c in np.unravel_index(k, grid_shape)): g for k, g in zip(keys, groups)}


def _value_pieces(v: Tiled, ids, pieces, n_points):
    """For one chunk's points ``ids`` and slice pieces: each value chunk it reads, with
    (which of its points, their rows in that chunk, per sliced axis (lo, hi, a, b): its
    result positions lo..hi relative to the piece and the chunk's a..b)."""
    v_off = [np.asarray([0, *itertools.accumulate(s)]) for s in v.nsplits]
    rows = ids if int(v_off[0][-1]) == n_points else np.zeros_like(ids)
    row_chunk = np.searchsorted(v_off[0], rows, side="right") - 1
    per_axis = []
    for axis, (_, n, start) in enumerate(pieces, 1):
        spans = []
        for k in range(len(v.nsplits[axis])):
            lo, hi = max(start, v_off[axis][k]), min(start + n, v_off[axis][k + 1])
            if lo < hi:
                spans.append((k, (lo - start, hi - start, lo - v_off[axis][k], hi - v_off[axis][k])))
        per_axis.append(spans)
    for r in np.unique(row_chunk):
        mine = np.flatnonzero(row_chunk == r)
        theirs = rows[mine] - v_off[0][r]
        for combo in itertools.product(*per_axis):
            yield (int(r), *(k for k, _ in combo)), (mine, theirs, tuple(s for _, s in combo))


class FlatIter:
    """``t.flat``: the tensor read and written as if flattened (NumPy's ``flatiter``);
    assigned values are repeated over the selection when there are fewer, as NumPy does."""

    def __init__(self, t: Tensor):
        self.base = t

    def __len__(self):
        return self.base.size

    def __getitem__(self, index) -> Tensor:
        from .reshape import ravel

        return ravel(self.base)[index]

    def __setitem__(self, index, value):
        from .reshape import ravel, reshape

        t = self.base
        if not isinstance(value, Tensor):
            selected = self[index].shape
            if not any(map(_unknown, selected)):
                value = np.resize(_cast_eager(value, t.dtype), selected)
        t.data = reshape(assign(ravel(t), index, value), tuple(t.shape)).data


def put(a, ind, v, mode="raise"):
    """Set the elements of the flattened ``a`` at ``ind`` to ``v`` (repeated as needed), in
    place, as NumPy's ``put``; ``mode``: 'raise', 'wrap' or 'clip'. ``ind`` and ``v`` may be
    lazy tensors."""
    from .arithmetic import clip, where
    from .numeric import unravel_index
    from .reshape import ravel

    if not isinstance(a, Tensor):
        raise TypeError(f"put() argument 1 must be a tensor, not {type(a).__name__}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    size, shape = a.size, tuple(a.shape)
    if isinstance(ind, Tensor):
        ind = ravel(ind)
        if mode == "wrap":
            ind = ind % size
        elif mode == "clip":
            ind = clip(ind, 0, size - 1)
        else:
            ind = where(ind < 0, ind + size, ind)  # out of bounds: IndexError when it runs
    else:
        ind = np.asarray(ind, dtype=np.intp).reshape(-1)
        if mode == "wrap":
            ind = ind % size
        elif mode == "clip":
            ind = np.clip(ind, 0, size - 1)
        else:
            check_bounds(ind, 0, size)
            ind = np.where(ind < 0, ind + size, ind)
    n = ind.shape[0]
    values = ravel(v) if isinstance(v, Tensor) else _cast_eager(v, a.dtype).reshape(-1)
    if values.shape[0] == 0 or n == 0:
        return
    if values.shape[0] not in (1, n):  # NumPy repeats the values over the indices
        if _unknown(n) or _unknown(values.shape[0]):
            raise NotImplementedError("mt.put: values of another length than the lazy indices")
        values = values[np.arange(n) % values.shape[0]]
    a.data = assign(a, unravel_index(ind, shape) if isinstance(ind, Tensor) else np.unravel_index(ind, shape),
                    values).data


def _cycled(values, positions, dtype):
    """``values`` (flattened, repeated as needed) at the lazy integer ``positions``."""
    from .arithmetic import elementwise

    vals = np.asarray(values).ravel()
    if np.ndim(values) == 0 or vals.size == 1:
        return vals.astype(dtype)[0] if vals.size else None
    return elementwise("mars_on_ray.tensor.setitem:cycled_kernel", (positions,), label="mt.place",
                       result_dtype=dtype, vals=vals.astype(dtype, copy=False))


def cycled_kernel(positions, vals=None):
    return vals[positions % vals.size]


def place(arr, mask, vals):
    """Set the elements of ``arr`` where ``mask`` holds to ``vals`` in turn (repeated as
    needed), in place, as NumPy's ``place``: each True element's rank among the Trues (a
    prefix scan) picks its value."""
    from .arithmetic import where
    from .cumulative import cumsum

    if not isinstance(arr, Tensor):
        raise TypeError(f"argument 1 must be a tensor, not {type(arr).__name__}")
    m = as_tensor(mask)
    if np.size(vals) == 0:
        raise NotImplementedError("mt.place with no values (NumPy raises only when mask has a True)")
    value = _cycled(vals, cumsum(m.ravel()).reshape(m.shape) - 1, arr.dtype)
    arr.data = where(m, value, arr).astype(arr.dtype).data


def putmask(a, mask, values):
    """Set ``a.flat[n] = values.flat[n]`` where ``mask.flat[n]`` holds (``values`` repeated
    over ``a``'s flat positions), in place, as NumPy's ``putmask``."""
    from .arithmetic import where
    from .datasource import arange

    if not isinstance(a, Tensor):
        raise TypeError(f"argument a must be a tensor, not {type(a).__name__}")
    m = as_tensor(mask)
    if tuple(m.shape) != tuple(a.shape):
        raise ValueError("putmask: mask and data must be the same size")
    if isinstance(values, Tensor) and tuple(values.shape) == tuple(a.shape):
        value = values
    elif isinstance(values, Tensor):
        raise NotImplementedError("mt.putmask: tensor values of another shape than a")
    elif np.size(values) == 0:
        return
    else:
        value = _cycled(values, arange(a.size).reshape(a.shape), a.dtype)
    a.data = where(m, value, a).astype(a.dtype).data
