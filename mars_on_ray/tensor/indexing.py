"""Indexing tensors: basic (ints, slices, None, ...) and boolean masks; integer arrays are in
``fancy_index``.

Basic indexing keeps only the chunks the index touches. A boolean mask gives a result of
unknown extent (``nan`` in its shape) until it has run; later operations that need the real
extent re-tile with ``ctx.known``.
"""
from __future__ import annotations

import bisect
import itertools
import math
import operator

import numpy as np

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor
from .fancy_index import _VALID, advanced_getitem, is_array_index as _is_array, is_bool_scalar
from .reshape import probe

__all__: list[str] = []


def getitem(t: Tensor, index) -> Tensor:
    """``t[index]`` with NumPy's semantics."""
    index = index if isinstance(index, tuple) else (index,)
    arrays = [i for i in index if _is_array(i)]
    if not arrays and not any(map(is_bool_scalar, index)):
        return _basic(t, index)
    if len(arrays) == 1:
        mask = arrays[0] if isinstance(arrays[0], Tensor) else np.asarray(arrays[0])
        at = next(k for k, i in enumerate(index) if i is arrays[0])
        if mask.dtype == bool and all(_is_full(i) or i is Ellipsis for i in index[:at]):
            return _masked(t, index[:at] + (mask,) + index[at + 1:], mask)
    return advanced_getitem(t, index)


def _unknown(s) -> bool:
    return isinstance(s, float) and math.isnan(s)


# --- basic indexing -----------------------------------------------------------------------

def _expand(index: tuple, ndim: int) -> tuple:
    """The index with Ellipsis expanded and trailing full slices added; NumPy's errors."""
    for i in index:
        if isinstance(i, (bool, np.bool_)):
            raise IndexError("boolean scalar indices are not supported")
        if i is None or i is Ellipsis or isinstance(i, slice):
            continue
        try:
            operator.index(i)
        except TypeError:
            raise IndexError(_VALID) from None
    if sum(i is Ellipsis for i in index) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(i is not None and i is not Ellipsis for i in index)
    if n_real > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {n_real} were indexed")
    fill = (slice(None),) * (ndim - n_real)
    if any(i is Ellipsis for i in index):
        at = next(k for k, i in enumerate(index) if i is Ellipsis)
        index = index[:at] + fill + index[at + 1:]
    else:
        index = index + fill
    return tuple(i if i is None or isinstance(i, slice) else operator.index(i) for i in index)


def _is_full(sl) -> bool:
    return isinstance(sl, slice) and sl.start is None and sl.stop is None and sl.step in (None, 1)


def _basic(t: Tensor, index: tuple) -> Tensor:
    t = as_tensor(t)
    index = _expand(index, t.ndim)
    if all(_is_full(i) for i in index):
        return t
    if not t.data.has_unknown_shape:
        shape = probe(t.shape, t.dtype)[index].shape  # NumPy's own bound checks
    else:
        shape, axis = [], 0
        for i in index:
            if i is None:
                shape.append(1)
                continue
            size = t.shape[axis]
            if isinstance(i, slice):
                shape.append(size if _unknown(size) else len(range(*i.indices(size))))
            elif not _unknown(size):
                _check_int(i, axis, size)
            axis += 1
    return new_tensor(GetItem(index=index, label="mt.getitem"), [t], shape, t.dtype)


def _check_int(i: int, axis: int, size: int) -> int:
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {size}")
    return i + size if i < 0 else i


def _offsets(splits) -> list[int]:
    return [0, *itertools.accumulate(splits)]


def _slice_pieces(sl: slice, splits) -> list[tuple[int, slice, int]]:
    """(input chunk, local slice, length) for each chunk ``sl`` touches, in result order."""
    offsets = _offsets(splits)
    r = range(*sl.indices(offsets[-1]))
    step = r.step
    pieces = []
    order = range(len(splits)) if step > 0 else range(len(splits) - 1, -1, -1)
    for k in order:
        lo, hi = offsets[k], offsets[k + 1]
        if step > 0:  # positions of r inside [lo, hi): r[i0:i1]
            i0, i1 = -((r.start - lo) // step), -((r.start - hi) // step)
        else:
            i0, i1 = -((hi - 1 - r.start) // -step), (r.start - lo) // -step + 1
        sub = r[max(0, i0):max(0, i1)]
        if len(sub):
            stop = sub[-1] - lo + (1 if step > 0 else -1)
            pieces.append((k, slice(sub[0] - lo, stop if stop >= 0 else None, step), len(sub)))
    return pieces or [(0, slice(0, 0), 0)]


class GetItem(Operand):
    _params = ("index",)

    def tile(self, ctx, out):
        inp = out.inputs[0]
        t = ctx[inp]
        axes = [i for i in self.index if i is not None]
        if any(not _is_full(i) and any(map(_unknown, s)) for i, s in zip(axes, t.nsplits)):
            t = yield from ctx.known(inp)
        # per index item: its grid axis as pieces (input chunk, local index, length)
        plan, axis = [], 0
        for i in self.index:
            if i is None:
                plan.append([(None, None, 1)])
                continue
            splits = t.nsplits[axis]
            if isinstance(i, slice):
                plan.append([(k, slice(None), s) for k, s in enumerate(splits)] if _is_full(i)
                            else _slice_pieces(i, splits))
            else:
                i = _check_int(i, axis, int(sum(splits)))
                k = bisect.bisect_right(_offsets(splits), i) - 1
                plan.append([(k, i - _offsets(splits)[k], None)])
            axis += 1
        kept = [not isinstance(i, int) for i in self.index]
        grid = chunk_grid([len(p) for p, keep in zip(plan, kept) if keep])
        for combo in itertools.product(*map(enumerate, plan)):
            idx = tuple(pos for (pos, _), keep in zip(combo, kept) if keep)
            src = tuple(k for (_, (k, _, _)), i in zip(combo, self.index) if i is not None)
            local = tuple(loc for _, (_, loc, _) in combo)
            shape = tuple(n for _, (_, _, n) in combo if n is not None)
            grid[idx] = ChunkData(self.new(index=local), [t.chunks[src]], shape, out.meta, idx)
        return Tiled.from_chunks(grid)

    def execute(self, x):
        return x[self.index]


# --- boolean masks --------------------------------------------------------------------------

def _masked(t: Tensor, index: tuple, mask) -> Tensor:
    """``t[..., mask, ...]``: full slices (or an Ellipsis) before the mask, basic indices after.

    The masked axes are moved to the front, filtered, and the result axis moved back.
    """
    t = as_tensor(t)
    at = next(k for k, i in enumerate(index) if i is mask)
    pre, post = index[:at], index[at + 1:]
    if not all(_is_full(i) or i is Ellipsis for i in pre):
        raise NotImplementedError("only full slices may come before a boolean mask")
    if sum(i is Ellipsis for i in index) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(i is not None and i is not Ellipsis for i in pre + post) + mask.ndim
    p = len(pre) - 1 + max(0, t.ndim - n_real) if Ellipsis in pre else len(pre)
    if max(n_real, p + mask.ndim) > t.ndim:
        raise IndexError(f"too many indices for array: array is {t.ndim}-dimensional, "
                         f"but {n_real} were indexed")
    if p:
        from .reshape import transpose

        k = mask.ndim
        t = transpose(t, [*range(p, p + k), *range(p), *range(p + k, t.ndim)])
    result = _boolean(t, mask, first_axis=p)
    if p:
        result = transpose(result, [*range(1, p + 1), 0, *range(p + 1, result.ndim)])
    return _basic(result, (slice(None),) * (p + 1) + post) if post else result


def _boolean(t: Tensor, mask, first_axis: int = 0) -> Tensor:
    t = as_tensor(t)
    if mask.ndim > t.ndim:
        raise IndexError(f"too many indices for array: array is {t.ndim}-dimensional, "
                         f"but {mask.ndim} were indexed")
    if mask.ndim == 0:
        raise NotImplementedError("0-dimensional boolean masks are not supported")
    _check_mask_shape(t.shape, mask.shape, first_axis)
    if not isinstance(mask, Tensor):
        from .datasource import tensor

        mask = tensor(mask)
    shape = (float("nan"),) + tuple(t.shape[mask.ndim:])
    return new_tensor(BooleanIndex(label="mt.getitem"), [t, mask], shape, t.dtype)


def _check_mask_shape(shape, mask_shape, first_axis: int = 0) -> None:
    for axis, (n, m) in enumerate(zip(shape, mask_shape), first_axis):
        if n == n and m == m and n != m:
            raise IndexError(f"boolean index did not match indexed array along axis {axis}; "
                             f"size of axis is {n} but size of corresponding boolean axis is {m}")


class BooleanIndex(Operand):
    """``x[mask]``. Each result chunk is one operand over a band of rows: it takes every chunk
    of the band along the mask's inner axes (data and mask), joins them and filters, so the
    concatenated results keep NumPy's C order. Bands are cut to stay within the chunk limit."""

    _params = ("grid", "rows")

    def tile(self, ctx, out):
        from .rechunk import rechunk_tiled

        data, mask = out.inputs
        t = yield from ctx.known(data)
        m = yield from ctx.known(mask)
        k = mask.ndim
        shape = tuple(int(sum(s)) for s in t.nsplits)
        _check_mask_shape(shape, tuple(int(sum(s)) for s in m.nsplits))
        m = rechunk_tiled(m, t.nsplits[:k])
        inner, trailing = t.chunks.shape[1:k], t.chunks.shape[k:]
        trailing_size = math.prod(map(max, t.nsplits[k:]))
        row_bytes = math.prod(shape[1:k]) * (1 + out.dtype.itemsize * trailing_size)
        per_op = max(1, options.chunk_store_limit // max(1, row_bytes))
        out_chunks = []
        for i, band in enumerate(t.nsplits[0]):
            cuts = [(a, min(band, a + per_op)) for a in range(0, band, per_op)] or [(0, 0)]
            for rows in cuts:
                op = self.new(grid=inner, rows=None if rows == (0, band) else rows)
                masks = [m.chunks[(i, *g)] for g in itertools.product(*map(range, inner))]
                row = []
                for j in itertools.product(*map(range, trailing)):
                    datas = [t.chunks[(i, *g, *j)] for g in itertools.product(*map(range, inner))]
                    row.append((op, datas + masks, (float("nan"),) + datas[0].shape[k:], j))
                out_chunks.append(row)
        grid = chunk_grid((len(out_chunks),) + trailing)
        for o, row in enumerate(out_chunks):
            for op, inputs, chunk_shape, j in row:
                grid[(o, *j)] = ChunkData(op, inputs, chunk_shape, out.meta, (o, *j))
        return Tiled(grid, [(float("nan"),) * len(out_chunks), *t.nsplits[k:]])

    def execute(self, *inputs):
        n = len(inputs) // 2
        return self._join(inputs[:n])[self._join(inputs[n:])]

    def _join(self, pieces):
        """The band's pieces (C order over ``grid``) joined along the inner axes."""
        if self.rows is not None:
            pieces = [p[slice(*self.rows)] for p in pieces]
        for d in reversed(range(len(self.grid))):
            g = self.grid[d]
            pieces = [np.concatenate(pieces[s:s + g], axis=d + 1) for s in range(0, len(pieces), g)]
        return pieces[0]
