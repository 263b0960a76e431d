"""Blockwise (map-chunks) tiling: chunk grids, broadcasting and input alignment.

Pure grid arithmetic over ``Tiled`` inputs; the caller supplies how to rechunk an input, so
the same helper serves any chunked data kind.
"""
from __future__ import annotations

import itertools
import math
from typing import Callable, Iterator, Sequence

from .entity import ChunkData, Tiled, chunk_grid
from .operand import Operand

Splits = tuple[tuple[float, ...], ...]


def offsets(splits: Sequence[int]) -> list[int]:
    """Start offsets of each block plus the total: (3, 3, 1) -> [0, 3, 6, 7]."""
    return [0, *itertools.accumulate(splits)]


def grid_slices(nsplits: Splits) -> Iterator[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """Every grid index with its (start, stop) extent per axis, in C order."""
    starts = [offsets(s) for s in nsplits]
    for idx in itertools.product(*(range(len(s)) for s in nsplits)):
        yield idx, tuple((starts[a][i], starts[a][i + 1]) for a, i in enumerate(idx))


def _isnan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def broadcast_shape(*shapes: Sequence[float]) -> tuple:
    """NumPy broadcasting of shapes that may hold nan (unknown) extents.

    A known extent > 1 wins over nan (nan must then turn out equal or 1 at run time).
    Incompatible known extents raise ValueError like NumPy.
    """
    ndim = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    out = []
    for axis in range(ndim):
        sizes = [s[axis] for s in padded]
        known = {int(s) for s in sizes if not _isnan(s) and s != 1}
        if len(known) > 1:
            raise ValueError("operands could not be broadcast together with shapes "
                             + " ".join(str(tuple(s)) for s in shapes))
        if known:
            out.append(known.pop())
        elif any(_isnan(s) for s in sizes):
            out.append(float("nan"))
        else:
            out.append(1)
    return tuple(out)


def unify_splits(candidates: Sequence[tuple]) -> tuple:
    """One split of an axis for inputs split differently: the coarsest one (fewest chunks)."""
    return min(candidates, key=len)


def blockwise_tile(op: Operand, out, tileds: Sequence[Tiled],
                   align: Callable[[Tiled, Splits], Tiled], secondary: Sequence[int] = ()) -> Tiled:
    """Tile an elementwise operation: one ``op.new()`` chunk per output block.

    Inputs broadcast against each other NumPy-style (missing leading axes, extent-1 axes);
    inputs split differently along an axis are aligned with ``align(tiled, nsplits)``.
    The inputs at ``secondary`` positions (e.g. client arrays chunked automatically) follow
    the others' splits. Unknown extents are allowed only if every input shares them.
    """
    ndim = out.ndim
    padded = [((1,),) * (ndim - len(t.nsplits)) + t.nsplits for t in tileds]
    real = [tuple(sum(s) for s in p) for p in padded]
    shape = broadcast_shape(*real)
    for r in real:
        for axis, (size, want) in enumerate(zip(r, shape)):
            if not _isnan(size) and not _isnan(want) and size not in (1, want):
                raise ValueError(f"operands could not be broadcast together with shapes {real}")

    def broadcast_axis(i: int, axis: int) -> bool:
        return real[i][axis] == 1 and shape[axis] != 1

    nsplits = []
    for axis in range(ndim):
        cands = [padded[i][axis] for i in range(len(tileds))
                 if not broadcast_axis(i, axis) and i not in secondary]
        cands = cands or [padded[i][axis] for i in range(len(tileds)) if not broadcast_axis(i, axis)]
        nsplits.append(unify_splits(cands) if cands else (1,))
    nsplits = tuple(nsplits)

    aligned = []
    for i, t in enumerate(tileds):
        lead = ndim - len(t.nsplits)
        want = tuple(padded[i][a] if broadcast_axis(i, a) else nsplits[a] for a in range(lead, ndim))
        aligned.append(t if _same_splits(t.nsplits, want) else align(t, want))

    # per input, the output axis each of its grid axes follows (None: broadcast, always block 0)
    follows = [[None if broadcast_axis(i, a) else a for a in range(ndim - t.chunks.ndim, ndim)]
               for i, t in enumerate(aligned)]
    grid = chunk_grid([len(s) for s in nsplits])
    for idx in itertools.product(*(range(len(s)) for s in nsplits)):
        inputs = [t.chunks[tuple(0 if a is None else idx[a] for a in f)] for t, f in zip(aligned, follows)]
        chunk_shape = tuple(s[j] for s, j in zip(nsplits, idx))
        grid[idx] = ChunkData(op.new(), inputs, chunk_shape, out.meta, idx)
    return Tiled(grid, nsplits)


def _same_splits(a: Splits, b: Splits) -> bool:
    """Equal splits, where nan equals nan at the same place (the same unknown chunk)."""
    if len(a) != len(b):
        return False
    return all(len(x) == len(y) and all(p == q or (_isnan(p) and _isnan(q)) for p, q in zip(x, y))
               for x, y in zip(a, b))
