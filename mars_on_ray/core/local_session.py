"""A session that runs graphs in this process with the LocalExecutor (tests, debugging).

Like a Ray session it keeps what it executed: a later graph reading an executed object gets a
``StoredData`` stand-in for it (same key, stored chunks), so it is neither re-planned nor
recomputed. ``graphs`` counts the graphs run.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .local import LocalExecutor
from .merge import merge_chunks
from .optimizer import Plan
from .stored import stored_node


class LocalSession:
    closed = False

    def __init__(self, fusion: bool = True):
        self.executor = LocalExecutor(fusion)
        self._stored: dict[str, tuple[np.ndarray, tuple]] = {}  # key -> (chunk keys, nsplits)
        self.graphs = 0

    def execute(self, *objs, show_progress=None) -> None:
        nodes = list({o.data.key: o.data for o in objs if o.data.key not in self._stored}.values())
        if nodes:
            self.graphs += 1
            plan = Plan.of(nodes)
            stand_ins = {n.key: stored_node(n, *self._stored[n.key]) for n in plan.order
                         if n.key in self._stored}
            plan, ctx = self.executor._tile(plan.replace(stand_ins).roots)
            for node, planned in zip(nodes, plan.roots):
                tiled = ctx[planned]
                self.executor._run(tiled.flat)
                keys = np.empty(tiled.chunks.shape, dtype=object)
                for pos, chunk in np.ndenumerate(tiled.chunks):
                    keys[pos] = chunk.key
                nsplits = tuple(tuple(int(s) for s in axis) for axis in
                                _real_splits(tiled, self.executor.values))
                self._stored[node.key] = (keys, nsplits)
        for obj in objs:
            if obj.data.has_unknown_shape:
                obj.data.refresh_shape(tuple(sum(s) for s in self._stored[obj.data.key][1]))

    def fetch(self, *objs) -> Any:
        self.execute(*objs)
        values = []
        for obj in objs:
            keys, _ = self._stored[obj.data.key]
            grid = np.empty(keys.shape, dtype=object)
            for pos, key in np.ndenumerate(keys):
                grid[pos] = self.executor.values[key]
            values.append(merge_chunks(obj.data.meta, grid))
        return values[0] if len(values) == 1 else values

    def close(self) -> None:
        self.closed = True


def _real_splits(tiled, values):
    """Split sizes from the computed chunks (tiling may have left some unknown)."""
    if not tiled.has_unknown_shape:
        return tiled.nsplits
    splits = []
    for axis in range(tiled.chunks.ndim):
        first = [0] * tiled.chunks.ndim
        sizes = []
        for i in range(tiled.chunks.shape[axis]):
            first[axis] = i
            sizes.append(np.shape(values[tiled.chunks[tuple(first)].key])[axis])
        splits.append(sizes)
    return splits
