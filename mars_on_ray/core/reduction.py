"""Tree reduction over a chunk grid: the shape of every reduction, independent of its kernels."""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from .entity import ChunkData


def tree_reduce(grid: np.ndarray, axes: Sequence[int],
                combine: Callable[[list[ChunkData], tuple], ChunkData],
                finish: Callable[[list[ChunkData], tuple], ChunkData],
                combine_size: int) -> np.ndarray:
    """Reduce an object grid of partial chunks along ``axes``.

    For each position of the other (kept) axes, the chunks along ``axes`` are merged in groups
    of at most ``combine_size`` by ``combine(chunks, kept_index + (level, group))`` until at
    most ``combine_size`` remain; ``finish(chunks, kept_index)`` makes the final chunk. Each
    call builds ONE chunk with several inputs, so a level costs one subtask per group.
    Returns an object grid over the kept axes, in their original order.
    """
    axes = tuple(sorted(set(axes)))
    kept = [a for a in range(grid.ndim) if a not in axes]
    moved = np.moveaxis(grid, kept, list(range(len(kept))))
    out = np.empty(moved.shape[:len(kept)], dtype=object)
    combine_size = max(2, int(combine_size))
    for pos in np.ndindex(*out.shape):
        block = moved[pos]
        level_chunks = list(block.reshape(-1)) if isinstance(block, np.ndarray) else [block]
        level = 0
        while len(level_chunks) > combine_size:
            groups = _balanced_groups(level_chunks, math.ceil(len(level_chunks) / combine_size))
            level_chunks = [combine(g, pos + (level, i)) for i, g in enumerate(groups)]
            level += 1
        out[pos] = finish(level_chunks, pos)
    return out


def _balanced_groups(items: list, n: int) -> list[list]:
    base, extra = divmod(len(items), n)
    groups, start = [], 0
    for i in range(n):
        stop = start + base + (i < extra)
        groups.append(items[start:stop])
        start = stop
    return groups
