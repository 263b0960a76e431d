"""MarsDataset: a map-style dataset over mars objects (or their row blocks on a worker)."""
from __future__ import annotations

import pandas as pd

from .._blocks import as_row_source


class MarsDataset:
    """Rows ``i`` of each of ``tileables`` (tensors, DataFrames, Series, their row blocks
    passed to a script, NumPy or pandas objects) as a tuple; works as a
    ``torch.utils.data.Dataset`` (``len`` and integer indexing). A DataFrame row is its
    values, as Mars gave them."""

    def __init__(self, *tileables, fetch_kwargs=None, session=None):
        if not tileables:
            raise ValueError("MarsDataset needs at least one data object")
        self._sources = [as_row_source(t, session) for t in tileables]
        lengths = {len(s) for s in self._sources}
        if len(lengths) > 1:
            raise ValueError(f"the data objects have different lengths: {sorted(lengths)}")

    def __len__(self) -> int:
        return len(self._sources[0])

    def __getitem__(self, index):
        return tuple(_row(s, index) for s in self._sources)


def _row(source, index):
    value = source.iloc[index] if isinstance(source, (pd.DataFrame, pd.Series)) else source[index]
    return value.to_numpy() if isinstance(value, pd.Series) else value  # a frame's row
