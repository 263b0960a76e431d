"""Results a session already holds, standing in for the graph that computed them.

A new graph that reads an executed object gets a ``StoredData`` node in its place (same key),
whose chunks carry the stored chunk keys: nothing upstream is re-planned, rewritten by a rule
or recomputed.
"""
from __future__ import annotations

import numpy as np

from .entity import ChunkData, TileableData, Tiled
from .operand import Operand


class StoredData(Operand):
    """Operand of a stored result: its chunk keys (grid layout) and real split sizes."""

    _params = ("chunk_keys", "nsplits")
    label = "stored"

    def describe(self) -> str:
        return f"stored({self.chunk_keys.size} chunks)"

    def tile(self, ctx, out) -> Tiled:
        grid = np.empty(self.chunk_keys.shape, dtype=object)
        for pos, key in np.ndenumerate(self.chunk_keys):
            shape = tuple(self.nsplits[axis][i] for axis, i in enumerate(pos))
            chunk = ChunkData(self, [], shape, out.meta, pos)
            chunk.key = key
            grid[pos] = chunk
        return Tiled(grid, self.nsplits)

    def token(self) -> str:
        return "stored"  # its nodes' keys are set to the stored keys; hashing them all is waste

    def execute(self):
        raise RuntimeError("a stored chunk was freed while a task still needed it; run it again")


def stored_node(node: TileableData, chunk_keys: np.ndarray, nsplits: tuple) -> TileableData:
    """A source node with ``node``'s key, metadata and real shape, tiling to stored chunks."""
    op = StoredData(chunk_keys=chunk_keys, nsplits=tuple(tuple(int(s) for s in split) for split in nsplits))
    shape = tuple(sum(s) for s in op.nsplits[: len(node.shape)])
    stand_in = TileableData(op, [], shape, node.meta)
    stand_in.key = node.key
    return stand_in
