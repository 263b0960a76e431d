"""Turning what a scikit-learn user passes (NumPy, pandas, lists, mars tensors and frames)
into mars tensors, lazily and chunk by chunk."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from ..tensor.core import Tensor, new_tensor
from ..tensor.datasource import tensor as _tensor

__all__ = ["to_tensor", "is_lazy", "frame_to_tensor"]


def is_lazy(x) -> bool:
    """True for a mars tensor, DataFrame, Series or Index (anything with a graph behind it)."""
    return isinstance(x, Tileable)


class FrameToTensor(Operand):
    """The values of each row block of a DataFrame / Series / Index as an ndarray block."""

    _params = ("dtype",)

    def tile(self, ctx, out):
        frame = ctx[out.inputs[0]]
        rows = list(frame.chunks.reshape(-1))
        grid = chunk_grid((len(rows),) + (1,) * (out.ndim - 1))
        for i, c in enumerate(rows):
            idx = (i,) + (0,) * (out.ndim - 1)
            grid[idx] = ChunkData(self.new(), [c], (c.shape[0],) + tuple(out.shape[1:]), out.meta, idx)
        nsplits = (tuple(c.shape[0] for c in rows),) + tuple((s,) for s in out.shape[1:])
        return Tiled(grid, nsplits)

    def execute(self, block):
        return np.asarray(block.to_numpy(dtype=self.dtype))


def frame_to_tensor(obj, dtype=None) -> Tensor:
    """A mars DataFrame (2-D), Series or Index (1-D) as a tensor with the same row blocks."""
    meta = obj.data.meta
    values = meta.to_numpy(dtype=dtype)
    shape = (obj.shape[0],) + tuple(values.shape[1:])
    return new_tensor(FrameToTensor(dtype=dtype, label="to_tensor"), [obj], shape, values.dtype)


def to_tensor(x, dtype=None, chunk_size=None) -> Tensor:
    """``x`` as a mars tensor: tensors are returned as they are (cast when ``dtype`` is given),
    mars frames keep their row blocks, NumPy / pandas / list input becomes a source tensor."""
    if isinstance(x, Tensor):
        t = x if dtype is None or x.dtype == np.dtype(dtype) else x.astype(dtype)
        return t if chunk_size is None else t.rechunk(chunk_size)
    if isinstance(x, Tileable):  # a mars DataFrame / Series / Index
        t = frame_to_tensor(x, dtype=dtype)
        return t if chunk_size is None else t.rechunk(chunk_size)
    if isinstance(x, (pd.DataFrame, pd.Series, pd.Index)):
        x = x.to_numpy(dtype=dtype)
    return _tensor(np.asarray(x, dtype=dtype), chunk_size=chunk_size)
