"""Chunking-independent random draws: values come from a block grid fixed by the shape.

The batch axes of a random tensor are cut into *generation blocks* whose size depends only on
the shape (about 64K elements, near-square across axes). Block ``b`` is drawn by
``default_rng(SeedSequence(seed, spawn_key=<start offsets of b>))``. A chunk draws every block
it overlaps and keeps its part, so a seed gives the same values for any chunk size, on any
executor and any number of workers. A chunk aligned to the blocks draws nothing extra; an
unaligned one draws at most one block more per side; chunks much smaller than the blocks
(``overdraw`` > 2, and over ~1M values drawn in vain) are drawn on the block grid and then
re-split instead.
"""
from __future__ import annotations

import itertools

import numpy as np

#: elements in one generation block (part of the reproducibility contract: never change it)
BLOCK_ELEMENTS = 1 << 16


def generation_block(batch_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The block shape for ``batch_shape``: near-square, short axes whole, ~BLOCK_ELEMENTS."""
    block = [0] * len(batch_shape)
    budget, left = BLOCK_ELEMENTS, len(batch_shape)
    for axis in sorted(range(len(batch_shape)), key=lambda a: batch_shape[a]):  # shortest first
        side = max(1, int(round(budget ** (1.0 / left))))
        block[axis] = max(1, min(batch_shape[axis], side))
        budget, left = max(1, budget // block[axis]), left - 1
    return tuple(block)


def covering(extents, block, batch_shape) -> tuple[tuple[int, int], ...]:
    """``extents`` widened to the generation blocks they overlap."""
    return tuple((a // b * b, min(-(-h // b) * b, s)) if h > a else (a, h)
                 for (a, h), b, s in zip(extents, block, batch_shape))


def _piece(arg, region, origin, batch_ndim):
    """The part of a broadcast parameter ``arg`` (given over ``origin``) covering ``region``."""
    if np.ndim(arg) == 0:
        return arg
    lead = batch_ndim - arg.ndim
    return arg[tuple(slice(None) if n == 1 else slice(a - o, h - o)
                     for n, (a, h), (o, _) in zip(arg.shape, region[lead:], origin[lead:]))]


def draw(rng_method, seed, args, origin, extents, block, batch_shape, event_shape, dtype, kwargs):
    """The values of the chunk at ``extents`` (batch axes) with its event axes whole.

    ``args`` broadcast over the region starting at ``origin``; ``rng_method(rng)`` is the
    generator's distribution method; ``dtype`` is that of an empty result."""
    shape = tuple(h - a for a, h in extents)
    out = None
    if 0 in shape:
        return np.empty(shape + tuple(event_shape), dtype=dtype)
    ranges = [range(a // b, (h - 1) // b + 1) for (a, h), b in zip(extents, block)]
    for index in itertools.product(*ranges):
        start = tuple(i * b for i, b in zip(index, block))
        region = tuple((s, min(s + b, n)) for s, b, n in zip(start, block, batch_shape))
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=start))
        values = rng_method(rng)(*(_piece(a, region, origin, len(batch_shape)) for a in args),
                                 size=tuple(h - a for a, h in region), **kwargs)
        values = np.asarray(values)
        if out is None:  # the dtype a draw gives (integers, or the population's index)
            out = np.empty(shape + values.shape[len(region):], dtype=values.dtype)
        inside = tuple((max(a, ea), min(h, eh)) for (a, h), (ea, eh) in zip(region, extents))
        out[tuple(slice(a - ea, h - ea) for (a, h), (ea, _) in zip(inside, extents))] = \
            values[tuple(slice(a - ra, h - ra) for (a, h), (ra, _) in zip(inside, region))]
    return out


def overdraw(nsplits, block, batch_shape) -> float:
    """How many values chunks split as ``nsplits`` draw per value they keep (1.0: aligned)."""
    ratio = 1.0
    for splits, b, n in zip(nsplits, block, batch_shape):
        if not n:
            return 1.0
        start, drawn = 0, 0
        for size in splits:
            (a, h), = covering(((start, start + size),), (b,), (n,))
            drawn, start = drawn + h - a, start + size
        ratio *= drawn / n
    return ratio
