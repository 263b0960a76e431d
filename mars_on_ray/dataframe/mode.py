"""mode: the most frequent values, from the distributed ``value_counts``.

``value_counts(sort=False)`` counts every distinct value once (a shuffle); a tree reduction
then keeps, of each piece, the values with the greatest count, and the last step orders the
survivors with pandas' own ``mode`` (each appears once, so all tie: pandas sorts them).
A DataFrame's columns are each reduced so, and their modes put side by side as pandas does
(index 0..k-1, shorter columns padded with missing values).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.executable import ExecutableTuple
from .align import promoted
from .blockwise import row_chunks
from .core import DataFrame, Series, methods, new_frame
from .groupby import _Meta
from .reshape import compute_now, conform
from .stats import TreeStat, check_axis, single

__all__: list[str] = []


def _most_frequent(counts: pd.Series) -> pd.Series:
    return counts[counts == counts.max()] if len(counts) else counts


class Modes(TreeStat):
    """Of each input (a column's ``value_counts``), the values of greatest count; the final
    step orders them as pandas does, one Series per input, side by side for a DataFrame."""

    _params = ("dropna", "result_meta", "lengths")
    lengths = False

    def execute(self, *values):
        if self.stage == "map":
            return _most_frequent(values[0])
        if self.stage == "combine":
            return _most_frequent(pd.concat(values))
        meta = self.result_meta.value
        columns = [pd.Series(kept.index).mode(dropna=self.dropna) for kept in values]  # pandas' order
        if self.lengths:  # how many modes each column has
            return pd.Series([len(c) for c in columns], dtype=np.int64)
        if isinstance(meta, pd.Series):
            return columns[0].astype(meta.dtype).rename(meta.name)
        if not columns:
            return meta
        frame = pd.concat(columns, axis=1, ignore_index=True)
        frame.columns = meta.columns
        return conform(frame, meta)

    def tile(self, ctx, out):
        tops = []
        for inp in out.inputs:
            level = self.partials(row_chunks(ctx[inp]))
            if len(level) > 1:
                level = [ChunkData(self.new(stage="combine"), level, (math.nan,), None, (0,))]
            tops.append(level[0])
        return single(out, ChunkData(self.new(stage="final"), tops, out.shape, out.meta, (0,) * out.ndim))


@methods(DataFrame, Series)
def mode(obj, axis=0, numeric_only=False, dropna=True):
    """The most frequent value(s), sorted, indexed 0..k-1 (of each column for a DataFrame,
    shorter columns padded with missing values)."""
    meta = obj.data.meta
    if isinstance(obj, Series):
        result = meta.mode(dropna=dropna)
        columns = [obj]
    else:
        if check_axis(obj, axis) == 1:
            raise NotImplementedError("DataFrame.mode(axis=1): its column count depends on the data")
        result = meta.mode(numeric_only=numeric_only, dropna=dropna)
        positions = [i for i, d in enumerate(meta.dtypes)
                     if not numeric_only or pd.api.types.is_numeric_dtype(d)]
        columns = [obj.iloc[:, i] for i in positions]
    counts = [c.value_counts(sort=False, dropna=dropna) for c in columns]
    if isinstance(obj, DataFrame) and len(counts) > 1:
        result = _padded(result, counts, dropna)
    op = Modes(kernel=None, kw=None, dropna=dropna, result_meta=_Meta(result), label="md.mode")
    return new_frame(op, counts, math.nan, result)


def _padded(result, counts, dropna):
    """``result`` with the dtypes pandas gives: a column with fewer modes than another is
    padded with missing values; how many modes each has is computed now when that matters."""
    padded = promoted(result)
    if list(padded.dtypes) == list(result.dtypes):
        return result
    op = Modes(kernel=None, kw=None, dropna=dropna, result_meta=_Meta(result), lengths=True, label="md.mode")
    lengths = compute_now(new_frame(op, counts, len(counts), pd.Series([], dtype=np.int64)),
                          ExecutableTuple(counts))  # kept for the modes
    short = (lengths < lengths.max()).to_numpy()
    for i in np.flatnonzero(short):
        result.isetitem(int(i), padded.iloc[:, i])
    return result
