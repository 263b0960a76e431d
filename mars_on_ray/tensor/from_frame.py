"""``from_dataframe``: a DataFrame's values as a 2-D tensor, one tensor chunk per row chunk."""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import new_tensor

__all__ = ["from_dataframe"]


class FromDataFrame(Operand):
    _params = ("dtype",)
    label = "mt.from_dataframe"

    def tile(self, ctx, out):
        from ..dataframe.blockwise import row_chunks

        chunks = row_chunks(ctx[out.inputs[0]])
        ncols = out.shape[1]
        grid = chunk_grid((len(chunks), 1))
        for i, chunk in enumerate(chunks):
            grid[i, 0] = ChunkData(self.new(), [chunk], (chunk.shape[0], ncols), out.meta, (i, 0))
        return Tiled(grid, (tuple(c.shape[0] for c in chunks), (ncols,)))

    def execute(self, frame):
        return frame.to_numpy(dtype=self.dtype)


def from_dataframe(in_df, dtype=None):
    """The values of DataFrame ``in_df`` as a 2-D tensor (``DataFrame.to_numpy()``'s dtype:
    the common type of the columns, unless ``dtype`` is given)."""
    from ..dataframe.core import DataFrame

    if not isinstance(in_df, DataFrame):
        raise TypeError(f"mt.from_dataframe takes a mars_on_ray DataFrame, not {type(in_df).__name__}")
    meta = in_df.data.meta
    dtype = np.dtype(dtype) if dtype is not None else meta.to_numpy().dtype
    return new_tensor(FromDataFrame(dtype=dtype), [in_df], (in_df.shape[0], meta.shape[1]), dtype)
