"""The two primitives the learn estimators are built on, over row blocks of aligned inputs.

``row_map``: one output block per row block, ``func(*blocks, *small, *args)`` (labels,
distances, transformed rows). ``row_reduce``: ``func`` per row block, partials merged by a
tree of ``combine`` calls into one small value (sums per cluster, Gram matrices, samples).
``small`` inputs are one-chunk results (of an earlier ``row_reduce``) handed whole to every
block, so a later stage can use an earlier reduction inside the same graph. Every input's
columns are put in one chunk; the other row inputs follow the first one's row splits.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from ..tensor.core import Tensor, as_tensor, new_tensor
from ..tensor.rechunk import rechunk_tiled


class _Apply(Operand):
    """``func(*inputs, *args)`` on one chunk's inputs; with an ``offset`` (the block's first
    row) ``func(*inputs, offset, *args)``."""

    _params = ("func", "args", "offset")
    offset = None

    def execute(self, *inputs):
        if self.offset is None:
            return self.func(*inputs, *self.args)
        return self.func(*inputs, self.offset, *self.args)


class _Combine(Operand):
    """Merge partials with ``combine`` (pairwise, left to right), then ``finish`` if given."""

    _params = ("combine", "finish")
    finish = None

    def execute(self, *parts):
        merged = functools.reduce(self.combine, parts)
        return self.finish(merged) if self.finish is not None else merged


def _row_blocks(ctx, out, n_rows: int):
    """Per row block, the aligned chunks of the first ``n_rows`` inputs plus every small
    input's single chunk; and the row splits."""
    tileds = []
    for inp in out.inputs:
        tileds.append((yield from ctx.known(inp)))
    first = tileds[0]
    rows = first.nsplits[0]
    aligned = []
    for t in tileds[:n_rows]:
        want = (rows,) + tuple((int(sum(s)),) for s in t.nsplits[1:])
        aligned.append(rechunk_tiled(t, want))
    smalls = [t.chunks.flat[0] for t in tileds[n_rows:]]
    blocks = [[t.chunks[(i,) + (0,) * (t.chunks.ndim - 1)] for t in aligned] + smalls
              for i in range(len(rows))]
    return blocks, rows


def _apply(op, rows, i):
    offset = int(sum(rows[:i])) if op.with_offset else None
    return _Apply(func=op.func, args=op.args, offset=offset, label=op.label)


class RowMap(Operand):
    """One output block per row block of the inputs (see ``row_map``)."""

    _params = ("func", "args", "n_rows", "with_offset")

    def tile(self, ctx, out):
        blocks, rows = yield from _row_blocks(ctx, out, self.n_rows)
        tail = tuple(int(s) for s in out.shape[1:])
        grid = chunk_grid((len(rows),) + (1,) * len(tail))
        for i, (chunks, r) in enumerate(zip(blocks, rows)):
            idx = (i,) + (0,) * len(tail)
            grid[idx] = ChunkData(_apply(self, rows, i), chunks, (r,) + tail, out.meta, idx)
        return Tiled(grid, (rows,) + tuple((s,) for s in tail))


class RowReduce(Operand):
    """One small value from every row block's partial (see ``row_reduce``)."""

    _params = ("func", "args", "n_rows", "with_offset", "combine", "finish")

    def tile(self, ctx, out):
        blocks, rows = yield from _row_blocks(ctx, out, self.n_rows)
        partials = chunk_grid((len(blocks),))
        for i, chunks in enumerate(blocks):
            partials[i] = ChunkData(_apply(self, rows, i), chunks, (), out.meta, (i,))

        def combine(chunks, index):
            return ChunkData(_Combine(combine=self.combine, label=self.label), chunks, (), out.meta, index)

        def finish(chunks, index):
            op = _Combine(combine=self.combine, finish=self.finish, label=self.label)
            return ChunkData(op, chunks, (), out.meta, ())

        grid = tree_reduce(partials, (0,), combine, finish, options.combine_size)
        return Tiled(grid.reshape(()), ())


def _inputs(rows, small):
    rows = [as_tensor(r) for r in rows]
    if any(r.ndim == 0 for r in rows):
        raise ValueError("row inputs must have at least one dimension")
    return rows + [as_tensor(s) for s in small]


def row_map(rows, func, args=(), *, small=(), shape_tail=(), dtype=float, with_offset=False,
            label=None) -> Tensor:
    """A tensor of ``func(*row_blocks, *small_values, *args)`` per row block of ``rows`` (the
    first decides the splits), each result ``(block_rows, *shape_tail)`` of ``dtype``;
    ``with_offset``: the block's first row is passed before ``args``."""
    inputs = _inputs(rows, small)
    op = RowMap(func=func, args=tuple(args), n_rows=len(rows), with_offset=with_offset,
                label=label or func.__name__)
    return new_tensor(op, inputs, (inputs[0].shape[0], *shape_tail), dtype)


def add_partials(a, b):
    """The default merge of partials: elementwise sum of (tuples of) arrays and numbers."""
    if isinstance(a, tuple):
        return tuple(map(operator.add, a, b))
    return a + b


def row_reduce(rows, func, args=(), *, small=(), combine=add_partials, finish=None,
               with_offset=False, label=None) -> Tensor:
    """A 0-d object tensor holding ``finish(combine(partials))``, a partial being
    ``func(*row_blocks, *small_values, *args)`` of each row block; fetch() gives the value."""
    inputs = _inputs(rows, small)
    op = RowReduce(func=func, args=tuple(args), n_rows=len(rows), with_offset=with_offset,
                   combine=combine, finish=finish, label=label or func.__name__)
    return new_tensor(op, inputs, (), object)
