"""Row blocks to tensor blocks: ``Series.to_tensor``, ``to_numpy``, ``Index.isna`` and the top-level
``isna`` / ``notna`` (lazy frames, indexes and tensors, or any value pandas takes)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from pandas._libs import lib

from ..core.blockwise import blockwise_tile
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from ..tensor.from_frame import FromDataFrame
from .blockwise import map_chunks, sample_of
from .core import DataFrame, Index, Series, _Frame, methods

__all__ = ["isna", "isnull", "notna", "notnull"]


def series_tensor_map(obj, func, args=(), kwargs=None, *, broadcast=(), dtype=None, label=None):
    """A 1-d tensor whose blocks are ``func(block, *args)`` of ``obj``'s row blocks."""
    meta = None if dtype is None else np.empty(0, dtype=dtype)
    built = map_chunks(func, (obj, *args), kwargs, label=label, meta=meta, broadcast=broadcast)
    if not isinstance(built.data.meta, np.ndarray):  # the kernel gave a pandas object
        raise TypeError(f"{func} does not return an array")
    return Tensor(built.data)


def _to_numpy(v, dtype=None):
    return v.to_numpy(dtype=dtype)


@methods(Series)
def to_tensor(obj, dtype=None):
    """The values as a 1-d mars Tensor, block for block."""
    return series_tensor_map(obj, _to_numpy, (dtype,), label="md.to_tensor")


def _to_numpy_na(v, dtype, na_value, declared):
    return np.asarray(v.to_numpy(dtype=dtype, na_value=na_value), dtype=declared)


class FrameToNumpy(FromDataFrame):
    """A DataFrame's row blocks as 2-D tensor blocks, pandas' ``to_numpy(dtype, na_value)``."""

    _params = ("na_value", "pandas_dtype")
    label = "md.to_numpy"

    def execute(self, frame):
        return np.asarray(frame.to_numpy(dtype=self.pandas_dtype, na_value=self.na_value), dtype=self.dtype)


@methods(DataFrame, Series)
def to_numpy(obj, dtype=None, copy=False, na_value=lib.no_default):
    """The values as a lazy tensor (1-d for a Series, 2-d for a DataFrame, block for block),
    with pandas' ``dtype`` and ``na_value``."""
    kwargs = {} if na_value is lib.no_default else {"na_value": na_value}
    declared = sample_of(obj.data.meta).to_numpy(dtype=dtype, **kwargs).dtype  # pandas' errors and dtype
    if isinstance(obj, Series):
        return series_tensor_map(obj, _to_numpy_na, (dtype, na_value, declared), dtype=declared,
                                 label="md.to_numpy")
    op = FrameToNumpy(dtype=declared, pandas_dtype=dtype, na_value=na_value)
    return new_tensor(op, [obj], (obj.shape[0], obj.data.meta.shape[1]), declared)


@methods(DataFrame, Series, name="values", prop=True)
def values(obj):
    """The values as a lazy tensor (``to_numpy()``; Dask's ``.values`` is lazy too)."""
    return to_numpy(obj)


def _isna(v, negate):
    res = pd.isna(v) if not negate else pd.notna(v)
    return np.asarray(res)


@methods(Index, name="isna")
def index_isna(obj):
    """A boolean tensor: True where a label is missing."""
    return _missing(obj, False)


@methods(Index, name="notna")
def index_notna(obj):
    """A boolean tensor: True where a label is present."""
    return _missing(obj, True)


Index.isnull, Index.notnull = Index.isna, Index.notna


class TensorMissing(Operand):
    """``pd.isna`` (``pd.notna`` when ``negate``) of every tensor block."""

    _params = ("negate",)

    def tile(self, ctx, out):
        from ..tensor.rechunk import rechunk_tiled

        return blockwise_tile(self, out, [ctx[out.inputs[0]]], rechunk_tiled)

    def execute(self, block):
        return _isna(block, self.negate)


def _missing(obj, negate: bool):
    label = "md.notna" if negate else "md.isna"
    if isinstance(obj, _Frame):
        return obj.notna() if negate else obj.isna()
    if isinstance(obj, Index):
        return series_tensor_map(obj, _isna, (negate,), dtype=bool, label=label)
    if isinstance(obj, Tensor):
        return new_tensor(TensorMissing(negate=negate, label=label), [obj], obj.shape, bool)
    return pd.notna(obj) if negate else pd.isna(obj)


def isna(obj):
    """Missing values of a lazy DataFrame / Series / Index / Tensor (lazily) or of anything
    ``pandas.isna`` takes (right away)."""
    return _missing(obj, False)


def notna(obj):
    """The negation of ``isna``."""
    return _missing(obj, True)


isnull, notnull = isna, notna
