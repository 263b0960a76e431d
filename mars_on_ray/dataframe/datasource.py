"""Creating DataFrames and Series: from pandas / NumPy / dict values, or from a mars Tensor."""
from __future__ import annotations

import uuid

import numpy as np
import pandas as pd

from ..core.chunk_sizes import normalize_chunks
from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.tokenize import tokenize
from ..core.user import ClientData
from .blockwise import chunk_shape, rows_grid
from .core import DataFrame, Index, Series, new_frame

__all__: list[str] = []


def row_splits(chunk_size, nrows: int, row_bytes: int) -> tuple[int, ...]:
    """Row splits from a user chunk size: rows per chunk, explicit splits, or None (by bytes)."""
    if isinstance(chunk_size, (tuple, list)) and len(chunk_size) == 2 and (
            chunk_size[1] is None or sum(chunk_size) != nrows):
        chunk_size = chunk_size[0]  # (rows, cols): frames are only split by rows
    if isinstance(chunk_size, (tuple, list)):
        chunk_size = (tuple(chunk_size),)
    return normalize_chunks(chunk_size, (nrows,), max(1, row_bytes))[0]


def _row_bytes(obj) -> int:
    if len(obj) == 0:
        return 1
    usage = obj.memory_usage(index=True, deep=False)
    return int(np.sum(usage)) // len(obj) + 1


def _token(obj) -> str:
    try:
        return tokenize(obj)
    except Exception:  # unhashable cells (lists, dicts): a unique token
        return uuid.uuid4().hex


class FrameData(ClientData, Operand):
    """A pandas object held by the client, cut into row pieces (each chunk op holds one).

    The row splits are parameters, so the services tile it the same way without the data.
    """

    _params = ("data_token", "splits")

    def tile(self, ctx, out):
        chunks, start = [], 0
        for i, n in enumerate(self.splits):
            op = self.new()
            if self.data is not None:
                op.data = self.data.iloc[start:start + n]
            index = (i, 0) if isinstance(out.meta, pd.DataFrame) else (i,)
            chunks.append(ChunkData(op, [], chunk_shape(out.meta, n), out.meta, index))
            start += n
        return rows_grid(chunks, out.meta)


def from_pandas(data, chunk_size=None):
    """A lazy DataFrame / Series over a pandas object."""
    splits = row_splits(chunk_size, len(data), _row_bytes(data))
    op = FrameData(data_token=_token(data), splits=splits,
                   label="md.DataFrame" if data.ndim == 2 else "md.Series")
    op.data = data
    meta = data.iloc[:0]
    # a fresh index: pandas 2.2 fails label lookups (ZeroDivisionError) on an empty slice of a
    # non-unique index whose hash table was built
    meta.index = meta.index.copy(deep=True)
    return new_frame(op, [], len(data), meta)


class FrameFromTensor(Operand):
    """Row blocks of a 1-D / 2-D tensor as Series / DataFrame chunks with a RangeIndex."""

    _params = ("columns", "series_name", "dtype", "chunk_size", "start")

    def tile(self, ctx, out):
        from ..tensor.rechunk import rechunk_tiled

        tensor = out.inputs[0]
        tiled = yield from ctx.known(tensor)
        nrows = int(sum(tiled.nsplits[0]))
        if self.chunk_size is None:
            rows = tiled.nsplits[0]
        else:
            rows = row_splits(self.chunk_size, nrows, tensor.meta.dtype.itemsize * max(1, len(out.meta.shape)))
        nsplits = (rows,) if tensor.ndim == 1 else (rows, (int(tensor.shape[1]),))
        tiled = rechunk_tiled(tiled, nsplits)
        chunks, start = [], 0
        for i, block in enumerate(tiled.chunks.reshape(-1)):
            n = int(block.shape[0])
            op = self.new(start=start)
            index = (i, 0) if isinstance(out.meta, pd.DataFrame) else (i,)
            chunks.append(ChunkData(op, [block], chunk_shape(out.meta, n), out.meta, index))
            start += n
        return rows_grid(chunks, out.meta)

    def execute(self, block):
        index = pd.RangeIndex(self.start, self.start + len(block))
        if self.columns is None:
            result = pd.Series(block, index=index, name=self.series_name)
        else:
            result = pd.DataFrame(block[:, None] if block.ndim == 1 else block, index=index, columns=self.columns)
        return result if self.dtype is None else result.astype(self.dtype)


def from_tensor(tensor, frame: bool, columns=None, name=None, dtype=None, chunk_size=None):
    """A DataFrame (``frame``) or Series over a 1-D / 2-D mars Tensor, with a RangeIndex."""
    if tensor.ndim not in (1, 2) or (tensor.ndim == 2 and not frame):
        raise ValueError(f"Data must be 1-dimensional, got ndarray of shape {tensor.shape} instead"
                         if not frame else f"Must pass 2-d input. shape={tensor.shape}")
    ncols = 1 if tensor.ndim == 1 else int(tensor.shape[1])
    if frame:
        meta = pd.DataFrame(np.empty((0, ncols), dtype=tensor.dtype), columns=columns, dtype=dtype)
        columns = meta.columns
    else:
        meta = pd.Series(np.empty(0, dtype=tensor.dtype), name=name, dtype=dtype)
    op = FrameFromTensor(columns=columns, series_name=name, dtype=dtype, chunk_size=chunk_size,
                         label="md.DataFrame" if frame else "md.Series")
    return new_frame(op, [tensor], tensor.shape[0], meta)


def _is_tensor(obj) -> bool:
    from ..tensor.core import Tensor

    return isinstance(obj, Tensor)


def dataframe_from(data=None, index=None, columns=None, dtype=None, chunk_size=None) -> DataFrame:
    """What ``md.DataFrame(...)`` builds: from a mars DataFrame / Tensor or anything pandas
    takes; a tensor's rows get ``index`` (labels, or a lazy Index / Series / tensor) in order."""
    if isinstance(data, DataFrame):
        return data if dtype is None else data.astype(dtype)
    if _is_tensor(data):
        from .frame_creation import with_index

        frame = from_tensor(data, True, columns=columns, dtype=dtype, chunk_size=chunk_size)
        return with_index(frame, index)
    if not isinstance(data, pd.DataFrame) or index is not None or columns is not None or dtype is not None:
        data = pd.DataFrame(data, index=index, columns=columns, dtype=dtype)
    return from_pandas(data, chunk_size)


def series_from(data=None, index=None, dtype=None, name=None, chunk_size=None) -> Series:
    """What ``md.Series(...)`` builds: from a mars Series / 1-D Tensor or anything pandas takes."""
    if isinstance(data, Series):
        return data if dtype is None else data.astype(dtype)
    if _is_tensor(data):
        from .frame_creation import with_index

        series = from_tensor(data, False, name=name, dtype=dtype, chunk_size=chunk_size)
        return with_index(series, index)
    if not isinstance(data, pd.Series) or index is not None or dtype is not None or name is not None:
        data = pd.Series(data, index=index, dtype=dtype, name=name)
    return from_pandas(data, chunk_size)


def _values_as_labels(series: pd.Series) -> pd.DataFrame:
    # pd.Index of the values, as pandas builds it (set_index makes evenly spaced ints a RangeIndex)
    return pd.DataFrame(index=pd.Index(series.array, name=series.name))


def index_from(data=None, dtype=None, copy=False, name=None, names=None, tupleize_cols=True,
               chunk_size=None) -> Index:
    """What ``md.Index(...)`` builds: from a lazy Index / Series / 1-D tensor (its values, in
    order) or anything ``pd.Index`` takes."""
    if _is_tensor(data) or isinstance(data, Series):
        series = data if isinstance(data, Series) else from_tensor(data, False, chunk_size=chunk_size)
        if dtype is not None:
            series = series.astype(dtype)
        from .blockwise import map_chunks

        labels = map_chunks(_values_as_labels, (series,), label="md.Index").index
        return labels if name is None else labels.rename(name)
    if isinstance(data, Index):
        index = data if dtype is None else data.astype(dtype)
        return index if name is None else index.rename(name)
    labels = pd.Index(data, dtype=dtype, copy=copy, name=name, tupleize_cols=tupleize_cols)
    if names is not None:
        labels = labels.set_names(names)
    return from_pandas(pd.DataFrame(index=labels), chunk_size).index
