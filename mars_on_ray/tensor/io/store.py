"""What every array-store reader and writer shares.

A reader is a source whose chunk operands read their extent of a stored array on the worker
(the file is opened there, never shipped). A writer's node is lazy, as in Mars: each chunk of
the tensor is written by its own subtask (fused with what computes it) into the store the
``create`` step made at graph-build time; a final ``commit`` subtask waits for every part.
If the task fails, ``abort`` removes the array the writer created, so no half-written array
is left under the user's name.
"""
from __future__ import annotations

import numpy as np

from ...core.blockwise import grid_slices
from ...core.entity import ChunkData, Tiled, chunk_grid
from ...core.operand import Operand
from ..core import new_tensor
from ..datasource import new_source, tile_source


class StoreRead(Operand):
    """Base of the readers: ``read(extents)`` returns that block of the stored array."""

    _params = ("extents",)
    extents = None

    def tile(self, ctx, out):
        return tile_source(out, lambda extents: self.new(extents=extents))

    def execute(self):
        return np.asarray(self.read(self.extents))

    def read(self, extents):  # pragma: no cover - every reader implements it
        raise NotImplementedError


def block(extents) -> tuple:
    """The slices selecting the block with these (start, stop) extents."""
    return tuple(slice(a, b) for a, b in extents)


def read_node(op: StoreRead, shape, dtype, chunk_size):
    """The lazy tensor read by ``op``; chunks default to the byte-bounded automatic size."""
    return new_source(op, tuple(int(s) for s in shape), dtype, chunk_size)


class StoreWrite(Operand):
    """Base of the writers: ``create`` makes the empty array (one subtask, before any part),
    ``write(block, extents)`` stores one block, ``remove`` undoes ``create`` (``abort``)."""

    _params = ("stage", "extents", "dtype", "ndim", "job")
    stage = None
    extents = None

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        create = ChunkData(self.new(stage="create"), [], out.shape, out.meta, (0,) * out.ndim)
        parts = [ChunkData(self.new(stage="part", extents=extents), [tiled.chunks[idx], create],
                           out.shape, out.meta, idx)
                 for idx, extents in grid_slices(tiled.nsplits)]
        commit = ChunkData(self.new(stage="commit"), parts, out.shape, out.meta, (0,) * out.ndim)
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = commit
        return Tiled(grid, tuple((0,) for _ in range(out.ndim)))

    def execute(self, *values):
        if self.stage == "create":
            self.create()
        elif self.stage == "part":
            self.write(np.asarray(values[0]), self.extents)
        return np.empty((0,) * self.ndim, dtype=self.dtype)

    def abort(self) -> None:
        self.remove()

    def create(self) -> None:  # pragma: no cover - every writer implements it
        raise NotImplementedError

    def write(self, block, extents):  # pragma: no cover - every writer implements it
        raise NotImplementedError

    def remove(self) -> None:  # pragma: no cover - every writer implements it
        raise NotImplementedError


def write_node(op: StoreWrite, x):
    """The lazy write of ``x``: an empty tensor of ``x``'s dtype that writes when executed."""
    from ...dataframe.io.staging import new_job

    op.dtype, op.ndim, op.job = x.dtype, x.ndim, new_job()
    return new_tensor(op, [x], (0,) * x.ndim, x.dtype)


def require(module: str, extra: str = "io"):
    """Import an optional library, or say which extra installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{module} is needed for this; install it with "
                          f"`pip install mars_on_ray[{extra}]` (or `pip install {module}`)") from exc
