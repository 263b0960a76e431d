"""Query blocks against every block of the fitted rows, merged per query block: the shape of
brute-force neighbour searches and of kernel sums (LabelPropagation)."""
from __future__ import annotations

from ...config import options
from ...core.blockwise import offsets
from ...core.entity import ChunkData, Tiled, chunk_grid
from ...core.operand import Operand
from ...core.reduction import tree_reduce
from ...tensor.core import Tensor, new_tensor
from .._blocks import _rows_whole_cols


class _Pair(Operand):
    """``func(query_block, *fit_blocks, offset=..., **kwargs)``: one pair's partial."""

    _params = ("func", "kwargs", "offset")

    def execute(self, *blocks):
        return self.func(*blocks, offset=self.offset, **self.kwargs)


class _Merge(Operand):
    _params = ("func", "kwargs")

    def execute(self, *parts):
        return self.func(list(parts), **self.kwargs)


class PairReduce(Operand):
    """Per query row block i: ``merge([func(q_i, *fits_j) for every fit block j])``."""

    _params = ("func", "merge", "kwargs")

    def tile(self, ctx, out):
        q = yield from ctx.known(out.inputs[0])
        q = _rows_whole_cols(q, q.nsplits[0])
        fits = []
        for node in out.inputs[1:]:
            fits.append((yield from ctx.known(node)))
        splits = fits[0].nsplits[0]
        fits = [_rows_whole_cols(f, splits).chunks.reshape(-1) for f in fits]
        starts = offsets(splits)
        tail = tuple(out.shape[1:])
        grid = chunk_grid((len(q.nsplits[0]),) + (1,) * len(tail))
        kw = self.kwargs or {}
        for i, qc in enumerate(q.chunks[:, 0]):
            parts = chunk_grid((len(splits),))
            for j in range(len(splits)):
                op = _Pair(func=self.func, kwargs=kw, offset=int(starts[j]), label=self.label)
                parts[j] = ChunkData(op, [qc] + [f[j] for f in fits], (), None, (i, j))

            def combine(chunks, index):
                return ChunkData(_Merge(func=self.merge, kwargs=kw, label=self.label), chunks, (), None, index)

            def finish(chunks, index, i=i, rows=qc.shape[0]):
                idx = (i,) + (0,) * len(tail)
                return ChunkData(_Merge(func=self.merge, kwargs=kw, label=self.label), chunks,
                                 (rows,) + tail, out.meta, idx)

            grid[(i,) + (0,) * len(tail)] = tree_reduce(parts, (0,), combine, finish, options.combine_size)[()]
        return Tiled(grid, (q.nsplits[0],) + tuple((s,) for s in tail))


def pair_reduce(func, merge, query: Tensor, fits, *, shape_tail=(), dtype=float, kwargs=None,
                label=None) -> Tensor:
    """A tensor with one row per query row: ``merge`` of ``func`` over every fit block, where
    ``fits`` are row-aligned tensors of the fitted rows (the first decides their blocks)."""
    op = PairReduce(func=func, merge=merge, kwargs=dict(kwargs or {}), label=label)
    return new_tensor(op, [query, *fits], (query.shape[0], *shape_tail), dtype)
