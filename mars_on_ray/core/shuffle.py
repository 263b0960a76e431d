"""Hash partitioning for shuffles: stable across processes (pandas' fixed-key hashing)."""
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
    codes = partition_codes(keys, n)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n + 1))
    return tuple(obj.iloc[order[bounds[j]:bounds[j + 1]]] for j in range(n))
