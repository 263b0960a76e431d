"""An in-process executor over the same tiling, fusion and kernels as the Ray one.

Used by tests to check operations without a cluster, and to compare fused with unfused runs.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .entity import ChunkData, TileableData
from .execution import run_steps, value_meta
from .fusion import SubtaskSpec, build_steps
from .chunk_sizes import whole_chunks
from .small_data import plan_stage, whole_chunks_reason
from .merge import merge_chunks
from .optimizer import abort_all, optimize
from .tiling import TileContext, ValuesRequest, tile_graph


class LocalExecutor:
    """Tiles, fuses and runs graphs in this process; keeps every chunk value by key."""

    def __init__(self, fusion: bool = True, small_data: bool = False):
        self.fusion = fusion
        self.small_data = small_data
        self.values: dict[str, Any] = {}
        self.subtask_count = 0

    def compute(self, *roots: TileableData) -> list[Any]:
        plan, ctx = self._tile(roots)
        results = []
        for root, planned in zip(roots, plan.roots):
            tiled = ctx[planned]
            try:
                self._run(tiled.flat)
            except BaseException:
                abort_all(plan)
                raise
            grid = np.empty(tiled.chunks.shape, dtype=object)
            for pos, chunk in np.ndenumerate(tiled.chunks):
                grid[pos] = self.values[chunk.key]
            results.append(merge_chunks(root.meta, grid))
        return results

    def tile(self, root: TileableData):
        """The tiled form of ``root`` (running stages where tiling asks for real shapes)."""
        plan, ctx = self._tile([root])
        return ctx[plan.roots[0]]

    def _tile(self, roots):
        """Optimize and tile ``roots``, running what tiling asks to know; (plan, context)."""
        plan = optimize(list(roots))
        try:
            return self._tile_plan(plan)
        except BaseException:
            abort_all(plan)
            raise

    def _tile_plan(self, plan):
        with whole_chunks(self.small_data and whole_chunks_reason(plan) is not None):
            return self._tile_stages(plan)

    def _tile_stages(self, plan):
        ctx = TileContext()
        driver = tile_graph(list(plan.order), ctx)
        reply = None
        while True:
            try:
                request = driver.send(reply)
            except StopIteration:
                return plan, ctx
            self._run(request)
            if isinstance(request, ValuesRequest):
                reply = [self.values[c.key] for c in request]
            else:
                reply = [value_meta(self.values[c.key])[0] for c in request]

    def _run(self, chunks: Sequence[ChunkData]) -> None:
        if self.fusion:
            stage = plan_stage(list(chunks), set(self.values), 1, small_data=self.small_data)
            specs = stage.specs if stage is not None else []
        else:
            steps = build_steps(chunks, set(self.values))
            specs = [SubtaskSpec([s], list(s.inputs), [k for k in s.outputs if k], [[]]) for s in steps]
        for spec in specs:
            self.subtask_count += 1
            outputs = run_steps(spec, [self.values[k] for k in spec.input_keys])
            self.values.update(zip(spec.output_keys, outputs))


def compute_locally(*roots, fusion: bool = True) -> list[Any]:
    """Compute user objects (or their data nodes) in this process."""
    nodes = [getattr(r, "data", r) for r in roots]
    return LocalExecutor(fusion).compute(*nodes)
