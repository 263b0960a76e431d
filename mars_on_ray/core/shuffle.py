"""Partitioning for shuffles: by a stable hash (pandas' fixed-key hashing) or by key ranges."""
from __future__ import annotations

import numpy as np
import pandas as pd


def partition_codes(keys: pd.Index | pd.Series | pd.DataFrame, n: int) -> np.ndarray:
    """The partition (0..n-1) of each row, from a stable hash of its key(s)."""
    if isinstance(keys, pd.Index):
        hashed = pd.util.hash_pandas_object(keys)
    else:
        hashed = pd.util.hash_pandas_object(keys, index=False)
    return (np.asarray(hashed, dtype=np.uint64) % np.uint64(n)).astype(np.intp)


def hash_partition(obj: pd.DataFrame | pd.Series, n: int, on=None) -> tuple:
    """Split ``obj`` into ``n`` pieces by the hash of its index (``on=None``) or columns ``on``.

    Rows keep their relative order inside each piece.
    """
    keys = obj.index if on is None else obj[on]
    return split_by_codes(obj, partition_codes(keys, n), n)


def split_by_codes(obj: pd.DataFrame | pd.Series, codes: np.ndarray, n: int) -> tuple:
    """``n`` pieces of ``obj``: piece j holds the rows whose code is j, in their order."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n + 1))
    return tuple(obj.iloc[order[bounds[j]:bounds[j + 1]]] for j in range(n))


def sample_keys(keys, size: int = 32) -> np.ndarray:
    """Up to ``size`` evenly spaced values of the sorted distinct ``keys`` (missing dropped)."""
    values = np.sort(pd.unique(pd.Series(keys).dropna().to_numpy()))
    if len(values) <= size:
        return values
    return values[np.linspace(0, len(values) - 1, size).round().astype(np.intp)]


def pick_boundaries(samples: list[np.ndarray], n: int) -> np.ndarray:
    """``n - 1`` increasing split points so that ``n`` key ranges get similar shares."""
    values = np.sort(pd.unique(np.concatenate(samples))) if samples else np.array([])
    if len(values) == 0 or n <= 1:
        return values[:0]
    picks = np.linspace(0, len(values), n + 1)[1:-1].astype(np.intp)
    return np.unique(values[np.minimum(picks, len(values) - 1)])


def range_codes(keys, bounds: np.ndarray) -> np.ndarray:
    """The range (0..len(bounds)) of each key; missing keys go to the last range (sorted last)."""
    values = pd.Series(keys)
    codes = np.full(len(values), len(bounds), dtype=np.intp)
    present = values.notna().to_numpy()
    codes[present] = np.searchsorted(bounds, values[present].to_numpy(), side="right")
    return codes
