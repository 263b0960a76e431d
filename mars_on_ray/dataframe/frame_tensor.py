"""Row blocks to tensor blocks: ``Series.to_tensor``, ``Index.isna`` and the top-level
``isna`` / ``notna`` (lazy frames, indexes and tensors, or any value pandas takes)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.blockwise import blockwise_tile
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from .blockwise import map_chunks
from .core import Index, Series, _Frame, methods

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
