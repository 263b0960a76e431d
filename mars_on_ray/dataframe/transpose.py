"""``transpose`` / ``T`` and ``dot`` / ``@`` of DataFrames and Series.

A transposed frame's columns are the old index, so the index is computed when ``transpose``
is called (as pandas knows it). The rows of the result are the old columns: each input block
sends each result block its share of the columns (an exchange like a shuffle's), and each
result block transposes the rows it received.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import Tensor, as_tensor, new_tensor
from ..tensor.rechunk import rechunk_tiled
from .blockwise import In, MapChunks, map_chunks, row_chunks, rows_grid, sample_of
from .core import DataFrame, Index, Series, methods, new_frame
from .reshape import FrameMeta, compute_now, conform

__all__: list[str] = []


# -- transpose -----------------------------------------------------------------------------------
class ColumnsSplit(Operand):
    """One block's columns cut into ``groups`` (positions): output ``j`` holds group ``j``."""

    _params = ("groups",)
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.groups)

    def execute(self, chunk):
        parts = tuple(chunk.iloc[:, list(g)] for g in self.groups)
        return parts if len(parts) > 1 else parts[0]


class TransposeBlock(Operand):
    """Rows received from every input block joined, transposed, cast to the result's dtypes."""

    _params = ("meta",)

    def execute(self, *parts):
        frame = parts[0] if len(parts) == 1 else pd.concat(parts, axis=0)
        res = frame.T
        meta = self.meta.value
        if len(res.columns) and (res.dtypes != meta.dtypes.iloc[0]).any():
            res = res.astype(meta.dtypes.iloc[0])
        return res


class Transpose(Operand):
    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        ncols = out.inputs[0].shape[1]
        n_groups = max(1, min(ncols, len(chunks)))
        groups = tuple(tuple(int(x) for x in g) for g in np.array_split(np.arange(ncols), n_groups))
        split = []
        for i, c in enumerate(chunks):
            op = ColumnsSplit(groups=groups, label=self.label)
            split.append([ChunkData(op, [c], (c.shape[0], len(g)), None, (i, 0), j)
                          for j, g in enumerate(groups)])
        meta, nrows = out.meta, out.shape[1]
        blocks = [ChunkData(TransposeBlock(meta=FrameMeta(meta), label=self.label),
                            [s[j] for s in split], (len(g), nrows), meta, (j, 0))
                  for j, g in enumerate(groups)]
        return rows_grid(blocks, meta)


def _transposed_meta(meta: pd.DataFrame, index: pd.Index) -> pd.DataFrame:
    one_row = sample_of(meta) if len(meta.columns) else pd.DataFrame(index=pd.RangeIndex(1))
    dtype = one_row.T.dtypes.iloc[0]
    res = pd.DataFrame({i: pd.Series([], dtype=dtype) for i in range(len(index))},
                       index=meta.columns[:0])
    res.columns = index
    return res


@methods(DataFrame)
def transpose(frame, *args, copy=False):
    """Rows as columns and columns as rows (the index is computed now: it names the columns)."""
    index = compute_now(frame.index, frame)
    meta = _transposed_meta(frame.data.meta, index)
    return new_frame(Transpose(label="md.transpose"), [frame], len(frame.data.meta.columns), meta)


methods(DataFrame, name="T", prop=True)(transpose)


def _identity(obj, *args, **kwargs):
    return obj


methods(Series, Index, name="transpose")(_identity)
methods(Series, name="T", prop=True)(_identity)


# -- dot -----------------------------------------------------------------------------------------
def _frame_dot(chunk, other, meta):
    return conform(chunk.dot(other), meta)


def _partial_dot(s, other):
    res = s.dot(other)
    return res.to_frame().T.reset_index(drop=True) if isinstance(res, pd.Series) else pd.Series([res])


def _aligned_sample(meta: pd.DataFrame, labels: pd.Index):
    """A sample of ``meta`` (a right-hand DataFrame / Series) whose index is ``labels``."""
    sample = sample_of(meta)
    sample = sample.iloc[[0] * len(labels)] if len(labels) else sample.iloc[:0]
    sample.index = labels
    return sample


def _dot_tensor(frame, tensor: Tensor):
    """``frame.dot(array)``: the array goes whole to every block."""
    meta = frame.data.meta
    if tensor.ndim not in (1, 2) or (not math.isnan(tensor.shape[0])
                                     and tensor.shape[0] != len(meta.columns)):
        raise ValueError(f"Dot product shape mismatch, {frame.shape} vs {tensor.shape}")
    if tensor.data.has_unknown_shape:
        raise NotImplementedError("DataFrame.dot of a tensor with unknown shape: execute it first")
    whole = tensor.rechunk(tensor.shape)
    ones = np.ones(tensor.shape, dtype=tensor.dtype)
    res_meta = conform(meta.dot(ones), sample_of(meta).dot(ones)).iloc[:0]
    op = MapChunks(func=_frame_dot, args=(In(0), In(1), res_meta), kwargs={}, broadcast=(1,),
                   label="md.dot")
    return new_frame(op, [frame, whole], frame.shape[0], res_meta)


class SeriesTensorDot(Operand):
    """``values @ array``: each block's values times the array rows lined up with it
    (``stage='part'``), the partial products summed (``'sum'``)."""

    _params = ("stage", "dtype")

    def execute(self, *values):
        if self.stage == "part":
            return np.dot(np.asarray(values[0]), values[1])
        return np.asarray(sum(values[1:], values[0]), dtype=self.dtype)

    def tile(self, ctx, out):
        series, tensor = out.inputs
        blocks = row_chunks((yield from ctx.known(series)))
        tiled = yield from ctx.known(tensor)
        rows = tuple(int(c.shape[0]) for c in blocks)
        tiled = rechunk_tiled(tiled, (rows,) + tuple((int(n),) for n in tensor.shape[1:]))
        parts = [ChunkData(self.new(stage="part"), [b, t], out.shape, None, (i,))
                 for i, (b, t) in enumerate(zip(blocks, tiled.chunks.reshape(-1)))]
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(self.new(stage="sum"), parts, out.shape, out.meta,
                                          (0,) * out.ndim)
        return Tiled(grid, tuple((n,) for n in out.shape))


def _series_dot_tensor(s, tensor: Tensor):
    if tensor.ndim not in (1, 2) or (not math.isnan(tensor.shape[0]) and not math.isnan(s.shape[0])
                                     and tensor.shape[0] != s.shape[0]):
        raise ValueError(f"Dot product shape mismatch, {s.shape} vs {tensor.shape}")
    if tensor.ndim == 2 and math.isnan(tensor.shape[1]):
        raise NotImplementedError("Series.dot of a tensor with unknown shape: execute it first")
    dtype = np.dot(np.ones(1, dtype=s.dtype), np.ones((1,) + tensor.shape[1:], dtype=tensor.dtype)).dtype
    op = SeriesTensorDot(dtype=dtype, label="md.dot")
    return new_tensor(op, [s, tensor], tuple(tensor.shape[1:]), dtype)


def _dot_frame_right(obj, other):
    """``obj.dot(other)`` with ``other`` a DataFrame or Series: other goes whole to every block."""
    meta, ometa = obj.data.meta, other.data.meta
    width = len(meta.columns)
    if not math.isnan(other.shape[0]) and other.shape[0] != width:
        raise ValueError("matrices are not aligned")
    sample = sample_of(meta).dot(_aligned_sample(ometa, meta.columns))
    res_meta = conform(meta.dot(_aligned_sample(ometa, meta.columns)).iloc[:0], sample)
    return map_chunks(_frame_dot, (obj, other, res_meta), label="md.dot", meta=res_meta,
                      broadcast=(other,))


def _series_dot(s, other):
    """``s.dot(other)``: partial products of row-aligned blocks, summed."""
    sample = sample_of(s.data.meta)
    osample = sample_of(other.data.meta)
    expected = sample.dot(osample)
    parts = map_chunks(_partial_dot, (s, other), keep_rows=False, label="md.dot")
    total = parts.sum()
    if isinstance(expected, pd.Series):  # a Series indexed by the frame's columns
        meta = conform(parts.data.meta.sum().rename(expected.name), expected.iloc[:0])
        return map_chunks(_renamed, (total, meta), label="md.dot", meta=meta)
    dtype = np.asarray(expected).dtype
    return total if total.dtype == dtype else total.astype(dtype)


def _renamed(series, meta):
    return conform(series.rename(meta.name), meta)


@methods(DataFrame, Series)
def dot(obj, other):
    """Matrix product with a DataFrame, Series, tensor or array (labels aligned as pandas)."""
    if isinstance(other, (np.ndarray, list)):
        other = as_tensor(np.asarray(other))
    if isinstance(other, (pd.DataFrame, pd.Series)):
        from .datasource import from_pandas

        other = from_pandas(other)
    if isinstance(other, Tensor):
        return _series_dot_tensor(obj, other) if isinstance(obj, Series) else _dot_tensor(obj, other)
    if not isinstance(other, (DataFrame, Series)):
        raise TypeError(f"unsupported type: {type(other)}")
    if isinstance(obj, Series):
        if not math.isnan(obj.shape[0]) and not math.isnan(other.shape[0]) \
                and obj.shape[0] != other.shape[0]:
            raise ValueError("matrices are not aligned")
        return _series_dot(obj, other)
    return _dot_frame_right(obj, other)


methods(DataFrame, Series, name="__matmul__")(dot)
