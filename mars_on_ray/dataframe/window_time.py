"""Time-based rolling windows (``rolling("2s")``, ``rolling(pd.Timedelta(...), on="t")``).

How many rows a window spans depends on the timestamps, so tiling first reads each chunk's
first and last key (a tiny value per chunk; this also checks that the keys increase across
chunks, as pandas requires). Each chunk then runs pandas with the rows of earlier chunks whose
keys reach into its first window (and, with ``center``, of later chunks reaching into its last),
so results are exact at every chunk boundary and only those rows travel.
"""
from __future__ import annotations

import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import chunk_shape, concat_values, row_chunks, rows_grid
from .core import new_frame
from .scan import _idx, call


def _keys(chunk, on):
    return chunk.index if on is None else pd.Index(chunk[on])


class KeyBounds(Operand):
    """(first, last, increasing) of a chunk's window keys; None for an empty chunk."""

    _params = ("on",)

    def execute(self, chunk):
        keys = _keys(chunk, self.on)
        if not len(keys):
            return None
        return keys[0], keys[-1], bool(keys.is_monotonic_increasing and not keys.hasnans)


class TimeNeighbours(Operand):
    """``kernel`` on a chunk with the rows of its neighbours within ``span`` of its ends."""

    _params = ("kernel", "span", "center", "on", "n_prev", "n_next")
    n_prev = n_next = 0

    def execute(self, *values):
        prev, chunk = values[:self.n_prev], values[self.n_prev]
        nxt = values[self.n_prev + 1:]
        parts, start = [chunk], 0
        if prev and len(chunk):
            before = concat_values(list(prev))
            before = before[_keys(before, self.on) >= _keys(chunk, self.on)[0] - self.span]
            parts, start = [before, chunk], len(before)
        if nxt and len(chunk):
            after = concat_values(list(nxt))
            parts.append(after[_keys(after, self.on) <= _keys(chunk, self.on)[-1] + self.span])
        res = call(self.kernel, concat_values(parts) if len(parts) > 1 else chunk)
        res = res.iloc[start:start + len(chunk)]
        res.index = chunk.index
        return res

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        bounds = yield from ctx.values([ChunkData(KeyBounds(on=self.on), [c], (), None, ())
                                        for c in chunks])
        present = [(i, b) for i, b in enumerate(bounds) if b is not None]
        for (_, a), (_, b) in zip(present, present[1:]):
            if not (a[2] and b[2] and a[1] <= b[0]):
                raise ValueError(f"{'index' if self.on is None else self.on} values must be monotonic")
        if present and not present[0][1][2]:
            raise ValueError(f"{'index' if self.on is None else self.on} values must be monotonic")
        result = []
        for i, c in enumerate(chunks):
            prev, nxt = [], []
            if bounds[i] is not None:
                first, last = bounds[i][0], bounds[i][1]
                prev = [chunks[j] for j, b in present if j < i and b[1] >= first - self.span]
                if self.center:
                    nxt = [chunks[j] for j, b in present if j > i and b[0] <= last + self.span]
            op = self.new(n_prev=len(prev), n_next=len(nxt))
            result.append(ChunkData(op, prev + [c] + nxt, chunk_shape(out.meta, c.shape[0]), out.meta,
                                    _idx(out.meta, i)))
        return rows_grid(result, out.meta)


def time_neighbours(obj, kernel, span, center, on, meta, label: str):
    """``kernel`` per chunk with the neighbouring rows whose keys are within ``span``."""
    op = TimeNeighbours(kernel=kernel, span=span, center=bool(center), on=on, label=label)
    return new_frame(op, [obj], obj.shape[0], meta)
