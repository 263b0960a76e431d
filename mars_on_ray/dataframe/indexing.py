"""Selecting columns and rows: ``df['a']``, ``df[['a', 'b']]``, ``df[mask]``, ``head``, ``index``."""
from __future__ import annotations

import math
import operator

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.entity import TileableData
from .blockwise import RowSlices, chunk_shape, map_chunks, row_chunks, rows_grid
from .core import DataFrame, Series, new_frame
from .rules.usage import is_frame, same_as_output, uses

__all__: list[str] = []


def _filter(obj, mask):
    return obj[mask]


def _index_of(obj):
    return obj.index


@uses(operator.getitem, rows="same", passthrough=True)
def _selected_columns(node, needed):
    key = node.op.args[1]
    return [set(key) if isinstance(key, list) else {key}]


@uses(_filter, rows="subset", passthrough=True)
def _filter_columns(node, needed):
    return same_as_output(node, needed)


@uses(_index_of, rows="same")
def _no_columns(node, needed):
    return [set()]


def getitem(obj, key):
    """``df[column]``, ``df[[columns]]`` or a boolean row filter ``obj[mask]``."""
    if isinstance(key, Series):
        if not pd.api.types.is_bool_dtype(key.dtype):
            raise NotImplementedError("only boolean Series can index rows lazily")
        return map_chunks(_filter, (obj, key), keep_rows=False, label="md.getitem",
                          meta=obj.data.meta)
    if isinstance(obj, DataFrame):
        if isinstance(key, slice) or isinstance(key, (DataFrame, np.ndarray)):
            raise NotImplementedError(f"DataFrame[{type(key).__name__}] is not supported yet")
        if isinstance(key, (list, pd.Index)):
            key = list(key)
        return map_chunks(operator.getitem, (obj, key), label="md.getitem")
    raise NotImplementedError("Series[label] is not supported yet; use a boolean mask")


def index_of(obj):
    """The index of a DataFrame or Series as a lazy Index."""
    return map_chunks(_index_of, (obj,), label="md.index")


class Head(Operand):
    """The first ``n`` rows, reading only the chunks that hold them."""

    _params = ("n",)

    def rebuild(self, node, inputs):
        meta = inputs[0].meta
        return TileableData(self, inputs, chunk_shape(meta, node.shape[0]), meta, node.chunk_size)

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n = self.n
        if n < 0:  # all but the last -n rows: every length is needed
            tiled = yield from ctx.known(out.inputs[0])
            chunks = row_chunks(tiled)
            n = max(0, int(sum(tiled.nsplits[0])) + n)
        taken, slices, have, batch = [], [], 0, 1
        pos = 0
        while have < n and pos < len(chunks):
            batch_chunks = chunks[pos:pos + batch]
            if any(c.has_unknown_shape for c in batch_chunks):
                shapes = yield [c for c in batch_chunks if c.has_unknown_shape]
                real = iter(shapes)
                batch_chunks = [c.with_shape(next(real)) if c.has_unknown_shape else c
                                for c in batch_chunks]
            for c in batch_chunks:
                if have >= n:
                    break
                take = min(int(c.shape[0]), n - have)
                taken.append(c)
                slices.append((0, take))
                have += take
            pos += len(batch_chunks)
            batch *= 2
        if not taken:
            taken, slices = [chunks[0]], [(0, 0)]
        op = RowSlices(slices=tuple(slices), label="md.head")
        chunk = ChunkData(op, taken, chunk_shape(out.meta, have), out.meta,
                          (0, 0) if isinstance(out.meta, pd.DataFrame) else (0,))
        return rows_grid([chunk], out.meta)


@uses(Head)
def _head_columns(node, needed):
    return [needed if is_frame(node) else None]


def head(obj, n: int = 5):
    """The first ``n`` rows (all but the last ``-n`` when negative)."""
    n = operator.index(n)
    nrows = obj.shape[0]
    if math.isnan(nrows):
        size = math.nan
    else:
        size = min(n, nrows) if n >= 0 else max(0, nrows + n)
    return new_frame(Head(n=n, label="md.head"), [obj], size, obj.data.meta)

