"""Tiling a tileable graph into chunks, stage by stage where real extents are needed."""
from __future__ import annotations

import inspect
import os
from typing import Generator

import numpy as np

from .entity import ChunkData, TileableData, Tiled

# A tiling generator yields a list of chunks whose real shapes it needs and is sent back the
# list of their shapes, in order; or a ``ValuesRequest`` and is sent back the chunks' values.
ShapeRequest = Generator[list[ChunkData], list, Tiled]


class ValuesRequest(list):
    """Chunks whose computed values (small ones: counts, samples, boundaries) tiling needs."""


class TileContext:
    """Maps tileable keys to their tiled form for one task; ``cpus``: the CPUs that will run
    it (a hint for splitting work into enough chunks, never for results)."""

    def __init__(self, cpus: int | None = None):
        self.tiled: dict[str, Tiled] = {}
        self.cpus = max(1, int(cpus or os.cpu_count() or 1))

    def __getitem__(self, node: TileableData) -> Tiled:
        return self.tiled[node.key]

    def known(self, node: TileableData) -> ShapeRequest:
        """``tiled = yield from ctx.known(node)``: the node's chunks with every shape real."""
        tiled = self.tiled[node.key]
        if not tiled.has_unknown_shape:
            return tiled
        unknown = [c for c in tiled.flat if c.has_unknown_shape]
        shapes = yield unknown
        real = {c.key: s for c, s in zip(unknown, shapes)}
        grid = np.empty(tiled.chunks.shape, dtype=object)
        for pos, c in np.ndenumerate(tiled.chunks):
            grid[pos] = c.with_shape(real[c.key]) if c.key in real else c
        tiled = self.tiled[node.key] = Tiled.from_chunks(grid)
        return tiled

    @staticmethod
    def values(chunks: list[ChunkData]) -> ShapeRequest:
        """``values = yield from ctx.values(chunks)``: the computed values of small chunks."""
        return (yield ValuesRequest(chunks))


def tile_graph(order: list[TileableData], ctx: TileContext) -> ShapeRequest:
    """Tile ``order`` (inputs first); yields chunk lists whose shapes must be made known."""
    for node in order:
        if node.key in ctx.tiled:
            continue
        try:
            result = node.op.tile(ctx, node)
            if inspect.isgenerator(result):
                result = yield from result
        except Exception as exc:  # name the user's operation, keep the exception type
            exc.add_note(f"while tiling {node.op.name}")
            raise
        ctx.tiled[node.key] = result
