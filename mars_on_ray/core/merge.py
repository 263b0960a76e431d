"""Assembling fetched chunk values into one NumPy / pandas object."""
from __future__ import annotations

import numpy as np
import pandas as pd


def merge_chunks(meta, grid: np.ndarray):
    """Concatenate a grid of chunk values laid out like the tileable's chunk grid."""
    if isinstance(meta, (pd.DataFrame, pd.Series, pd.Index)):
        if grid.ndim == 2 and grid.shape[1] > 1:
            rows = [pd.concat(list(row), axis=1) for row in grid]
        else:
            rows = list(grid.reshape(-1))
        if len(rows) == 1:
            return rows[0]
        if isinstance(meta, pd.Index):
            return append_indexes(rows)
        return pd.concat(rows, axis=0)
    if grid.size == 1:
        return grid.reshape(-1)[0]
    return np.block(_nested(grid))


def _nested(grid: np.ndarray):
    if grid.ndim == 1:
        return [np.asarray(v) for v in grid]
    return [_nested(sub) for sub in grid]


def append_indexes(pieces: list) -> pd.Index:
    """Indexes one after the other, keeping the dtype they share (pandas' ``append`` infers a
    new one for object labels: strings, integers)."""
    merged = pieces[0].append(list(pieces[1:]))
    dtype = pieces[0].dtype
    if merged.dtype != dtype and all(p.dtype == dtype for p in pieces):
        merged = merged.astype(dtype)
    return merged
