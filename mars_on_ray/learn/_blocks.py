"""The two chunk patterns most of learn is made of, over tensors split by rows.

``row_map``: a function of each row block of some row-aligned tensors (with every column in
the block) and of whole small tensors broadcast to every block. ``row_reduce``: per-row-block
partial results merged by a tree into one value. Kernels are plain NumPy functions.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from ..tensor.core import Tensor, new_tensor
from ..tensor.rechunk import rechunk_tiled

COMBINE_SIZE = 4


def _rows_whole_cols(tiled: Tiled, row_splits) -> Tiled:
    """``tiled`` re-split to ``row_splits`` along axis 0 and one block along the others."""
    return rechunk_tiled(tiled, [tuple(row_splits)] + [(int(sum(s)),) for s in tiled.nsplits[1:]])


def _aligned(ctx, row_inputs, whole_inputs):
    """Row chunk lists (same row splits, whole columns) and one chunk per whole input."""
    tileds = []
    for node in row_inputs:
        tileds.append((yield from ctx.known(node)))
    splits = tileds[0].nsplits[0]
    rows = [list(_rows_whole_cols(t, splits).chunks.reshape(-1)) for t in tileds]
    wholes = []
    for node in whole_inputs:
        t = yield from ctx.known(node)
        wholes.append(rechunk_tiled(t, [(int(sum(s)),) for s in t.nsplits]).chunks.reshape(-1)[0])
    return splits, rows, wholes


class RowMap(Operand):
    """``func(*row_blocks, *wholes, **kwargs)`` per row block; ``n_rows`` inputs come first."""

    _params = ("func", "kwargs", "n_rows", "keep_rows")
    keep_rows = True

    def tile(self, ctx, out):
        splits, rows, wholes = yield from _aligned(ctx, out.inputs[:self.n_rows], out.inputs[self.n_rows:])
        rest = tuple(out.shape[1:])
        grid = chunk_grid((len(splits),) + (1,) * len(rest))
        for i, n in enumerate(splits):
            idx = (i,) + (0,) * len(rest)
            shape = ((n if self.keep_rows else math.nan),) + rest
            grid[idx] = ChunkData(self.new(), [r[i] for r in rows] + wholes, shape, out.meta, idx)
        nsplits = (tuple(splits) if self.keep_rows else (math.nan,) * len(splits),) + tuple((s,) for s in rest)
        return Tiled(grid, nsplits)

    def execute(self, *blocks):
        return np.asarray(self.func(*blocks, **(self.kwargs or {})))


def row_map(func: Callable, rows: Sequence[Tensor], wholes: Sequence[Tensor] = (), *, shape,
            dtype, kwargs=None, keep_rows: bool = True, label: str | None = None) -> Tensor:
    """A tensor of ``shape`` whose row block i is ``func(rows[0][i], ..., *wholes, **kwargs)``."""
    op = RowMap(func=func, kwargs=dict(kwargs or {}), n_rows=len(rows), keep_rows=keep_rows, label=label)
    return new_tensor(op, [*rows, *wholes], shape, dtype)


class RowPartial(Operand):
    """One row block's partial result: ``func(*blocks, *wholes, **kwargs)`` (any object)."""

    _params = ("func", "kwargs")

    def execute(self, *blocks):
        return self.func(*blocks, **(self.kwargs or {}))


class Combine(Operand):
    """Partials merged by ``func(list_of_partials)``; ``finish`` then maps the merged one."""

    _params = ("func", "finish")

    def execute(self, *parts):
        merged = self.func(list(parts)) if len(parts) > 1 or self.finish is None else parts[0]
        return merged if self.finish is None else self.finish(merged)


class RowReduce(Operand):
    """Tree reduction of per-row-block partials into one chunk (a scalar or small array)."""

    _params = ("partial", "combine", "finish", "kwargs", "n_rows")

    def tile(self, ctx, out):
        splits, rows, wholes = yield from _aligned(ctx, out.inputs[:self.n_rows], out.inputs[self.n_rows:])
        parts = np.empty(len(splits), dtype=object)
        for i in range(len(splits)):
            op = RowPartial(func=self.partial, kwargs=self.kwargs, label=self.label)
            parts[i] = ChunkData(op, [r[i] for r in rows] + wholes, (), None, (i,))

        def combine(chunks, index):
            return ChunkData(Combine(func=self.combine, finish=None, label=self.label), chunks, (), None, index)

        def finish(chunks, index):
            op = Combine(func=self.combine, finish=self.finish, label=self.label)
            return ChunkData(op, chunks, out.shape, out.meta, (0,) * out.ndim)

        root = tree_reduce(parts, (0,), combine, finish, COMBINE_SIZE)[()]
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = root
        return Tiled(grid, [(s,) for s in out.shape])


def row_reduce(partial: Callable, combine: Callable, finish: Callable, rows: Sequence[Tensor],
               wholes: Sequence[Tensor] = (), *, shape=(), dtype, kwargs=None,
               label: str | None = None) -> Tensor:
    """One-chunk tensor ``finish(combine([partial(row blocks, *wholes), ...]))``.

    ``combine`` takes a list of partials and must be associative (it runs as a tree)."""
    op = RowReduce(partial=partial, combine=combine, finish=finish, kwargs=dict(kwargs or {}),
                   n_rows=len(rows), label=label)
    return new_tensor(op, [*rows, *wholes], shape, dtype)


class Pick(Operand):
    """Item ``index`` of a one-chunk tensor holding a tuple (a function's several results)."""

    _params = ("index", "cast")

    def tile(self, ctx, out):
        src = ctx[out.inputs[0]].chunks.reshape(-1)[0]
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(self.new(), [src], out.shape, out.meta, (0,) * out.ndim)
        return Tiled(grid, [(s,) for s in out.shape])

    def execute(self, value):
        item = value[self.index]
        return item if self.cast is None else np.asarray(item).astype(self.cast)


def pick(t: Tensor, index: int, *, shape=(), dtype, cast=None, label=None) -> Tensor:
    """Item ``index`` of the tuple that one-chunk ``t`` holds, as a tensor of ``shape``."""
    return new_tensor(Pick(index=index, cast=cast, label=label), [t], shape, dtype)
