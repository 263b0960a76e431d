"""Top-level constructors Mars documents besides ``md.DataFrame`` / ``md.Series``:
``from_records``, ``dataframe_from_tensor``, ``series_from_tensor``, ``series_from_index``."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..tensor.core import Tensor
from .core import Index, Series, new_frame
from .datasource import FrameFromTensor, from_pandas, from_tensor

__all__ = ["from_records", "dataframe_from_tensor", "series_from_tensor", "series_from_index"]


class RecordsFromTensor(FrameFromTensor):
    """Row blocks of a 1-d structured tensor as DataFrame chunks (``DataFrame.from_records``)."""

    _params = ("kwargs",)

    def execute(self, block):
        frame = pd.DataFrame.from_records(block, **dict(self.kwargs))
        if dict(self.kwargs).get("index") is None:
            frame.index = pd.RangeIndex(self.start, self.start + len(frame))
        return frame


def from_records(data, index=None, exclude=None, columns=None, coerce_float=False, nrows=None,
                 chunk_size=None):
    """A DataFrame from records: a structured array / tensor, or anything pandas'
    ``DataFrame.from_records`` takes. A lazy tensor is converted block by block (``nrows``
    applies to iterators only, as in pandas)."""
    kwargs = {"index": index, "exclude": exclude, "columns": columns, "coerce_float": coerce_float}
    if not isinstance(data, Tensor):
        frame = pd.DataFrame.from_records(data, nrows=nrows, **kwargs)
        return from_pandas(frame, chunk_size)
    if data.ndim != 1 or data.dtype.names is None:
        raise ValueError("from_records needs a 1-d tensor of a structured dtype")
    meta = pd.DataFrame.from_records(np.zeros(1, dtype=data.dtype), **kwargs).iloc[:0]
    op = RecordsFromTensor(kwargs=tuple(kwargs.items()), chunk_size=chunk_size,
                           label="md.from_records")
    return new_frame(op, [data], data.shape[0], meta)


def _labelled(obj, labels):
    return obj.set_axis(pd.Index(labels.array, name=labels.name), axis=0)


def with_index(result, index):
    """``result`` with the labels ``index`` by position (array-like, or a lazy Index, Series
    or 1-d tensor); a ValueError when the lengths are known to differ."""
    from .core import DataFrame
    from .setting import positional_map

    if index is None:
        return result
    if isinstance(index, DataFrame):
        raise NotImplementedError("labels from a DataFrame are not supported")
    n, m = result.shape[0], index.shape[0] if hasattr(index, "shape") else len(index)
    if n == n and m == m and n != m:
        raise ValueError(f"Length mismatch: Expected axis has {int(n)} elements, new values have "
                         f"{int(m)} elements")
    if isinstance(index, Index):
        index = index.to_series()
    elif isinstance(index, Tensor):
        index = from_tensor(index, False)
    if not isinstance(index, Series):
        return result.set_axis(index)
    meta = _labelled(result.data.meta, index.data.meta)
    return positional_map(_labelled, (result, index), meta, label="md.set_axis")


def dataframe_from_tensor(tensor, index=None, columns=None, gpu=None, sparse=False):
    """A DataFrame over a 1-d / 2-d tensor; ``index``: labels by position (array-like, Index,
    Series or tensor)."""
    return with_index(from_tensor(tensor, True, columns=columns), index)


def series_from_tensor(tensor, index=None, name=None, dtype=None, gpu=None, sparse=False):
    """A Series over a 1-d tensor; ``index``: labels by position."""
    return with_index(from_tensor(tensor, False, name=name, dtype=dtype), index)


def series_from_index(index, name=None):
    """A Series of an Index's labels, indexed by them (``Index.to_series``)."""
    if isinstance(index, pd.Index):
        return from_pandas(index.to_series(name=name))
    return index.to_series(name=name)
