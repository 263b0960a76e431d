"""``RowBlocks``: executed mars data handed to Ray workers as its block refs, read by rows.

A user's training script on a Ray worker gets these instead of the mars objects: indexing
a row reads (and caches) only the block holding it, straight from the object store.
"""
from __future__ import annotations

import bisect

import numpy as np
import pandas as pd

from ...core.user import Tileable
from ._shards import Layout, layouts


class RowBlocks:
    """Rows of an executed tensor / DataFrame / Series, block refs in row order."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self._starts = layout.boundaries()
        self._cache: dict[int, object] = {}

    @classmethod
    def of(cls, obj, session=None) -> "RowBlocks":
        """``obj`` (a mars object) executed, as row blocks."""
        from ._fit import get_session

        return cls(layouts(get_session(session), {"x": obj})["x"])

    def __len__(self) -> int:
        return self.layout.nrows

    def block(self, i: int):
        if i not in self._cache:
            import ray

            if len(self._cache) > 4:  # keep a few blocks: a sampler jumps around
                self._cache.pop(next(iter(self._cache)))
            self._cache[i] = ray.get(self.layout.refs[i])
        return self._cache[i]

    def row(self, index: int):
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for {n} rows")
        index %= n
        i = bisect.bisect_right(self._starts, index) - 1
        value = self.block(i)
        pos = index - self._starts[i]
        return value.iloc[pos] if isinstance(value, (pd.DataFrame, pd.Series)) else value[pos]

    def __getitem__(self, index):
        if isinstance(index, (int, np.integer)):
            return self.row(int(index))
        raise TypeError("RowBlocks are read one row at a time; fetch() reads them all")

    def fetch(self):
        """All rows in one NumPy / pandas object."""
        from ._shards import load

        return load(self.layout.pieces(0, len(self)))

    def __getstate__(self):
        return {"layout": self.layout}

    def __setstate__(self, state):
        self.__init__(state["layout"])


def as_row_source(x, session=None):
    """What a dataset reads rows from: mars objects become RowBlocks (executed once)."""
    if isinstance(x, Tileable):
        return RowBlocks.of(x, session)
    if isinstance(x, (RowBlocks, np.ndarray, pd.DataFrame, pd.Series)):
        return x
    if isinstance(x, (list, tuple)):
        return np.asarray(x)
    raise TypeError(f"Unexpected dataset type: {type(x).__name__}")
