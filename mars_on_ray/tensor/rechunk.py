"""Rechunk: change a tensor's chunk splits; each output chunk stitches its overlapping inputs."""
from __future__ import annotations

import itertools

import numpy as np

from ..core.blockwise import offsets
from ..core.chunk_sizes import normalize_chunks
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor

__all__ = ["rechunk"]


class RechunkChunk(Operand):
    """One output chunk from a sub-grid of input chunks (C order), cutting ``pieces`` of each.

    ``pieces[axis]`` lists the (start, stop) taken from each input chunk along that axis.
    """

    _params = ("pieces",)

    def execute(self, *inputs):
        region = lambda pos: tuple(slice(*self.pieces[a][i]) for a, i in enumerate(pos))  # noqa: E731
        if len(inputs) == 1:
            return inputs[0][region((0,) * len(self.pieces))]
        starts = [offsets([b - a for a, b in p]) for p in self.pieces]
        out = np.empty(tuple(s[-1] for s in starts), dtype=inputs[0].dtype)
        for pos, value in zip(np.ndindex(*(len(p) for p in self.pieces)), inputs):
            dst = tuple(slice(starts[a][i], starts[a][i + 1]) for a, i in enumerate(pos))
            out[dst] = value[region(pos)]
        return out


def _axis_plan(old: tuple, new: tuple) -> list[list[tuple[int, int, int]]]:
    """For each new block along an axis: (input block, start, stop) pieces covering it."""
    old_off, plan = offsets(old), []
    for lo, hi in itertools.pairwise(offsets(new)):
        parts = []
        for i, (s, e) in enumerate(itertools.pairwise(old_off)):
            if s < hi and e > lo:
                parts.append((i, max(lo, s) - s, min(hi, e) - s))
        if not parts:  # an empty block: an empty slice of the block holding its offset
            i = max(j for j, s in enumerate(old_off[:-1]) if s <= lo) if len(old_off) > 1 else 0
            parts.append((i, lo - old_off[i], lo - old_off[i]))
        plan.append(parts)
    return plan


def rechunk_tiled(tiled: Tiled, nsplits) -> Tiled:
    """Chunks of ``tiled`` re-split to ``nsplits`` (returned unchanged when they already match).

    Shapes must be known (``ctx.known`` first). Output chunks equal to an input chunk at the
    same grid index reuse it.
    """
    nsplits = tuple(tuple(int(s) for s in axis) for axis in nsplits)
    if tiled.nsplits == nsplits:
        return tiled
    if tiled.has_unknown_shape:
        raise ValueError("rechunk_tiled needs known chunk shapes; resolve them with ctx.known")
    old_shape = tuple(sum(s) for s in tiled.nsplits)
    if old_shape != tuple(sum(s) for s in nsplits):
        raise ValueError(f"cannot rechunk shape {old_shape} to splits {nsplits}")
    plans = [_axis_plan(o, n) for o, n in zip(tiled.nsplits, nsplits)]
    meta = tiled.chunks.flat[0].meta
    grid = chunk_grid([len(s) for s in nsplits])
    for idx in itertools.product(*(range(len(s)) for s in nsplits)):
        parts = [plans[a][j] for a, j in enumerate(idx)]
        shape = tuple(nsplits[a][j] for a, j in enumerate(idx))
        in_idx = list(itertools.product(*([p[0] for p in axis] for axis in parts)))
        first = tiled.chunks[in_idx[0]]
        if len(in_idx) == 1 and in_idx[0] == idx and first.shape == shape:
            grid[idx] = first
            continue
        op = RechunkChunk(pieces=tuple(tuple(p[1:] for p in axis) for axis in parts), label="rechunk")
        grid[idx] = ChunkData(op, [tiled.chunks[i] for i in in_idx], shape, meta, idx)
    return Tiled(grid, nsplits)


class Rechunk(Operand):
    _params = ("chunk_size",)

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        shape = tuple(sum(s) for s in tiled.nsplits)
        return rechunk_tiled(tiled, normalize_chunks(_filled(self.chunk_size, tiled.nsplits),
                                                     shape, out.dtype.itemsize))


def _filled(chunk_size, nsplits):
    """A dict ``chunk_size`` with the axes it leaves out keeping their splits (as in Mars
    and Dask); anything else as it is."""
    if not isinstance(chunk_size, dict):
        return chunk_size
    return tuple(chunk_size.get(axis, splits) for axis, splits in enumerate(nsplits))


def rechunk(tensor, chunk_size):
    """The tensor split into chunks of ``chunk_size`` (int, per-axis sizes, splits, or a dict
    {axis: size}, whose other axes keep their splits)."""
    t = as_tensor(tensor)
    if isinstance(chunk_size, dict):
        axes = {}
        for axis, size in chunk_size.items():
            if not -t.ndim <= int(axis) < t.ndim:
                raise ValueError(f"axis {axis} is out of bounds for a {t.ndim}-d tensor")
            axes[int(axis) % t.ndim] = size
        chunk_size = dict(sorted(axes.items()))
        if not t.data.has_unknown_shape:  # the sizes given are checked now
            normalize_chunks(tuple(axes.get(i, -1) for i in range(t.ndim)), t.shape,
                             t.dtype.itemsize)
    elif not t.data.has_unknown_shape:  # validate now and store a canonical form
        chunk_size = normalize_chunks(chunk_size, t.shape, t.dtype.itemsize)
    return new_tensor(Rechunk(chunk_size=chunk_size, label="mt.rechunk"), [t], t.shape, t.dtype,
                      chunk_size=chunk_size)
