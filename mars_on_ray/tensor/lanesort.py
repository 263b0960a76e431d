"""PSRS along a chunked axis of an n-D tensor with few lanes (e.g. a (3, 10**8) array sorted
along axis 1): every lane is sorted by its own 1-D PSRS, all lanes in lockstep (their sample
and shape requests share stages), and the sorted lanes are stacked back into blocks."""
from __future__ import annotations

import itertools

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .core import tensor_meta


class TakeLane(Operand):
    """One lane of a chunk along ``axis`` (``index``: the chunk-local position of the others)."""

    _params = ("index",)

    def execute(self, x):
        return x[self.index]


class StackLanes(Operand):
    """Sorted lane pieces (C order over the block's other axes) stacked into one block."""

    _params = ("axis", "block")

    def execute(self, *lanes):
        stacked = np.stack(lanes).reshape(self.block + (len(lanes[0]),))
        return np.moveaxis(stacked, -1, self.axis)


def lockstep(gens):
    """Drive several tiling generators at once, merging their requests of the same kind into
    one stage; returns their results."""
    results = [None] * len(gens)
    replies = {i: None for i in range(len(gens))}
    while replies:
        requests = {}
        for i, reply in replies.items():
            try:
                requests[i] = gens[i].send(reply)
            except StopIteration as stop:
                results[i] = stop.value
        replies = {}
        for wants_values in (False, True):
            ids = [i for i, r in requests.items() if isinstance(r, ValuesRequest) == wants_values]
            if not ids:
                continue
            merged = [c for i in ids for c in requests[i]]
            answer = yield (ValuesRequest(merged) if wants_values else merged)
            pos = 0
            for i in ids:
                replies[i] = answer[pos:pos + len(requests[i])]
                pos += len(requests[i])
    return results


def lane_psrs(tiled: Tiled, axis: int, dtype, want_indices: bool, meta):
    """Sort every lane of ``tiled`` (known shapes) along ``axis``; a generator returning the
    Tiled result (values, or stable indices along ``axis``) split like the input."""
    from .sorting import psrs

    moved = np.moveaxis(tiled.chunks, axis, -1)
    other_splits = [s for d, s in enumerate(tiled.nsplits) if d != axis]
    lane_meta = tensor_meta(dtype, 1)
    lanes, gens = [], []
    for pos in np.ndindex(*moved.shape[:-1]):
        block = tuple(int(other_splits[d][p]) for d, p in enumerate(pos))
        for local in itertools.product(*map(range, block)):
            index = list(local)
            index.insert(axis, slice(None))
            grid = chunk_grid((moved.shape[-1],))
            for j, c in enumerate(moved[pos]):
                grid[j] = ChunkData(TakeLane(index=tuple(index), label="mt.sort"), [c],
                                    (c.shape[axis],), lane_meta, (j,))
            lanes.append(pos)
            gens.append(psrs(Tiled(grid, (tiled.nsplits[axis],)), dtype, not want_indices,
                             want_indices))
    results = yield from lockstep(gens)
    sorted_lanes = [r[1] if want_indices else r[0] for r in results]
    out = chunk_grid(moved.shape)
    k = 0
    for pos in np.ndindex(*moved.shape[:-1]):
        block = tuple(int(other_splits[d][p]) for d, p in enumerate(pos))
        n = int(np.prod(block))
        mine = sorted_lanes[k:k + n]
        k += n
        for j, c in enumerate(moved[pos]):
            op = StackLanes(axis=axis, block=block, label="mt.sort")
            index = pos[:axis] + (j,) + pos[axis:]
            out[pos + (j,)] = ChunkData(op, [lane.chunks[j] for lane in mine], c.shape, meta, index)
    return Tiled(np.moveaxis(out, -1, axis), tiled.nsplits)
