"""Operands used only by tests: a constant source, +1, and a kernel that fails at run time."""
from __future__ import annotations

import itertools

import numpy as np
import ray

from mars_on_ray.core.chunk_sizes import normalize_chunks
from mars_on_ray.core.entity import ChunkData, Tiled, chunk_grid
from mars_on_ray.core.operand import Operand
from mars_on_ray.tensor.core import new_tensor


class Fill(Operand):
    _params = ("shape", "value", "dtype")

    def tile(self, ctx, out):
        nsplits = normalize_chunks(out.chunk_size, out.shape, out.dtype.itemsize)
        grid = chunk_grid([len(s) for s in nsplits])
        for idx in itertools.product(*[range(len(s)) for s in nsplits]):
            shape = tuple(nsplits[a][i] for a, i in enumerate(idx))
            grid[idx] = ChunkData(self.new(shape=shape), [], shape, out.meta, idx)
        return Tiled(grid, nsplits)

    def execute(self):
        return np.full(self.shape, self.value, self.dtype)


class MapChunks(Operand):
    """Apply ``func`` per chunk; ``fail_at`` makes the chunk at that grid index raise."""

    _params = ("func", "fail_at", "index")

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        grid = chunk_grid(t.chunks.shape)
        for idx, c in np.ndenumerate(t.chunks):
            grid[idx] = ChunkData(self.new(index=idx), [c], c.shape, c.meta, idx)
        return Tiled(grid, t.nsplits)

    def execute(self, x):
        if self.fail_at is not None and tuple(self.fail_at) == tuple(self.index):
            raise ZeroDivisionError(f"planned failure in chunk {self.index}")
        return self.func(x)


def add_one(x):
    return x + 1


def sleep_then_add_one(x):
    import time

    time.sleep(0.5)
    return x + 1


class DieOnce:
    """A chunk function whose worker process dies the first time it runs (a lost worker)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __call__(self, x):
        import os

        if not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(1)
        return x + 1


def fill(shape, value=1.0, chunk_size=None, dtype="f8"):
    dtype = np.dtype(dtype)
    return new_tensor(Fill(shape=shape, value=value, dtype=dtype, label="fill"), [], shape, dtype, chunk_size)


def map_chunks(t, func=add_one, fail_at=None, label="map_chunks"):
    return new_tensor(MapChunks(func=func, fail_at=fail_at, label=label), [t], t.shape, t.dtype)


def object_store_used() -> int:
    from ray._private import internal_api

    reply = internal_api.get_memory_info_reply(internal_api.get_state_from_address(ray.get_runtime_context().gcs_address))
    return reply.store_stats.object_store_bytes_used


def stored_chunks() -> dict:
    from mars_on_ray.services import get_service

    return ray.get(get_service("storage").stats.remote())


class RecordResources:
    """A chunk function writing the Ray resources its subtask was given to ``path`` (JSON)."""

    def __init__(self, path: str):
        self.path = path

    def __call__(self, x):
        import json

        with open(self.path, "w") as f:
            json.dump(ray.get_runtime_context().get_assigned_resources(), f)
        return x + 1


class Allocate:
    """A chunk function that first fills ``gib`` GiB of memory and holds it ``seconds`` (to be
    killed for memory)."""

    def __init__(self, gib: float, seconds: float = 0.0, log: str | None = None):
        self.gib, self.seconds, self.log = gib, seconds, log

    def __call__(self, x):
        import time

        if self.log:  # a line per attempt
            with open(self.log, "a") as f:
                f.write("run\n")
        hog = np.ones(int(self.gib * 2**30 // 8))
        time.sleep(self.seconds)
        return x + 1 + 0 * hog[0]


class NoteNodeThenAddOne:
    """+1 after leaving a file named after the node it runs on in ``directory`` (tests wait
    for work to reach a node before killing it) and sleeping ``seconds``."""

    def __init__(self, directory: str, seconds: float = 0.5):
        self.directory, self.seconds = directory, seconds

    def __call__(self, x):
        import os
        import time
        import uuid

        node = ray.get_runtime_context().get_node_id()
        open(os.path.join(self.directory, f"{node}.{uuid.uuid4().hex}"), "w").close()
        time.sleep(self.seconds)
        return x + 1
