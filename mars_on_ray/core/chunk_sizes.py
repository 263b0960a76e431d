"""Choosing chunk splits: user-given sizes, or byte-bounded automatic ones."""
from __future__ import annotations

import contextvars
import math
from contextlib import contextmanager
from typing import Sequence

from ..config import options

_whole_chunks = contextvars.ContextVar("mars_on_ray_whole_chunks", default=False)


@contextmanager
def whole_chunks(enabled: bool = True):
    """Tile the block with one chunk per axis whatever the chunk sizes (the small-data path)."""
    token = _whole_chunks.set(enabled)
    try:
        yield
    finally:
        _whole_chunks.reset(token)


def split_evenly(size: int, block: int) -> tuple[int, ...]:
    """Split ``size`` into blocks of ``block`` with a smaller last one (NumPy-style chunks)."""
    if size == 0:
        return (0,)
    block = max(1, int(block))
    full, rest = divmod(size, block)
    return (block,) * full + ((rest,) if rest else ())


def balanced_splits(size: int, n: int) -> tuple[int, ...]:
    """Split ``size`` into ``n`` nearly equal blocks."""
    n = max(1, min(n, size)) if size else 1
    base, extra = divmod(size, n)
    return tuple(base + (i < extra) for i in range(n))


def normalize_chunks(chunk_size, shape: Sequence[int], itemsize: int,
                     limit: int | None = None, whole: bool | None = None) -> tuple[tuple[int, ...], ...]:
    """Return per-axis splits for ``shape``.

    ``chunk_size`` may be None (automatic), an int (every axis), or a per-axis sequence of
    int / None (automatic for that axis) / explicit split tuple. Automatic axes get equal
    blocks such that one chunk stays under ``limit`` bytes (``options.chunk_store_limit``).
    ``whole`` (default: inside ``whole_chunks()``): one chunk per axis, whatever was asked.
    """
    shape = tuple(int(s) for s in shape)
    ndim = len(shape)
    if _whole_chunks.get() if whole is None else whole:
        return tuple((s,) if s else (0,) for s in shape)
    if chunk_size is None:
        chunk_size = (None,) * ndim
    elif isinstance(chunk_size, (int,)) or hasattr(chunk_size, "__index__"):
        chunk_size = (int(chunk_size),) * ndim
    elif isinstance(chunk_size, dict):
        chunk_size = tuple(chunk_size.get(i) for i in range(ndim))
    chunk_size = tuple(chunk_size)
    if len(chunk_size) != ndim:
        raise ValueError(f"chunk_size {chunk_size} does not match a shape with {ndim} dimensions")

    splits: list[tuple[int, ...] | None] = []
    for size, spec in zip(shape, chunk_size):
        if spec is None:
            splits.append(None)
        elif isinstance(spec, (tuple, list)):
            spec = tuple(int(s) for s in spec)
            if sum(spec) != size:
                raise ValueError(f"chunk splits {spec} do not add up to the axis size {size}")
            splits.append(spec)
        else:
            spec = int(spec)
            if spec == -1:
                spec = size
            if spec <= 0:
                raise ValueError(f"chunk size must be positive, got {spec}")
            splits.append(split_evenly(size, spec))

    auto_axes = [i for i, s in enumerate(splits) if s is None]
    if auto_axes:
        limit = limit or options.chunk_store_limit
        budget = max(1, limit // max(1, itemsize))
        for i, s in enumerate(splits):
            if s is not None:
                budget = max(1, budget // max(1, max(s)))
        _fill_auto_axes(splits, shape, auto_axes, budget)
    return tuple(splits)  # type: ignore[return-value]


def _fill_auto_axes(splits, shape, auto_axes, budget):
    """Give auto axes equal-ish blocks whose product of sizes stays within ``budget``."""
    remaining = list(auto_axes)
    while remaining:
        per_axis = budget ** (1.0 / len(remaining))
        # axes smaller than their fair share are taken whole; the rest share what is left
        small = [i for i in remaining if shape[i] <= per_axis]
        if not small:
            block = max(1, int(per_axis))
            for i in remaining:
                splits[i] = balanced_splits(shape[i], math.ceil(shape[i] / block))
            return
        for i in small:
            splits[i] = (shape[i],) if shape[i] else (0,)
            budget = max(1, budget // max(1, shape[i]))
            remaining.remove(i)


def balanced_runs(sizes: Sequence[float], limit: float, cpus: int = 1) -> list[range]:
    """Split items of ``sizes`` bytes, in order, into runs of similar total size: each under
    ``limit`` (an item larger than it stands alone), and about a multiple of ``cpus`` runs
    where there are enough items, so that no CPU waits for one last oversized chunk (but no
    run is made smaller than ``limit / 16`` for that: small data stays in few chunks)."""
    if not sizes:
        return [range(0, 0)]
    if _whole_chunks.get():
        return [range(0, len(sizes))]
    total = float(sum(sizes))
    n = max(1, math.ceil(total / max(limit, 1)))
    balanced = min(math.ceil(n / cpus) * cpus, int(total // max(limit / 16, 1)))
    target = total / min(len(sizes), max(n, balanced))
    runs, first, acc = [], 0, 0.0
    for i, size in enumerate(sizes):
        if i > first and (acc + size > limit or acc >= target * (1 - 1e-9)):
            runs.append(range(first, i))
            first, acc = i, 0.0
        acc += size
    runs.append(range(first, len(sizes)))
    return runs
