"""Partitioning for shuffles: by a stable hash (pandas' fixed-key hashing) or by key ranges."""
from __future__ import annotations

from contextvars import ContextVar

import numpy as np
import pandas as pd


def partition_codes(keys: pd.Index | pd.Series | pd.DataFrame, n: int) -> np.ndarray:
    """The partition (0..n-1) of each row, from a stable hash of its key(s)."""
    if isinstance(keys, pd.MultiIndex):  # the same hashes; pandas' own fails on missing levels
        hashed = pd.util.hash_pandas_object(keys.to_frame(index=False), index=False)
    elif isinstance(keys, pd.Index):
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


#: set by core/exchange.Packed while its mapper runs: pieces go out in groups of this many
packing: ContextVar[int | None] = ContextVar("mars_on_ray_shuffle_packing", default=None)


class Pack(tuple):
    """The rows of a mapper for a group of consecutive reducers: ``(rows, counts)``, the rows
    in reducer order, ``counts[k]`` of them for the group's k-th reducer."""


def rows_at(obj, positions):
    """Rows of a frame, Series or Index by position (an array or a slice)."""
    return obj[positions] if isinstance(obj, pd.Index) else obj.iloc[positions]


def split_by_codes(obj: pd.DataFrame | pd.Series | pd.Index, codes: np.ndarray, n: int) -> tuple:
    """``n`` pieces of ``obj``: piece j holds the rows whose code is j, in their order (one
    Pack per group of reducers while ``packing`` is set)."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n + 1))
    taken = rows_at(obj, order)  # one take; the pieces are slices of it
    group = packing.get()
    if group is None:
        return tuple(rows_at(taken, slice(bounds[j], bounds[j + 1])) for j in range(n))
    return tuple(Pack((rows_at(taken, slice(bounds[s], bounds[min(s + group, n)])),
                       np.diff(bounds[s:min(s + group, n) + 1]))) for s in range(0, n, group))


def sample_keys(keys, size: int = 32) -> np.ndarray:
    """Up to ``size`` of the sorted distinct ``keys`` (missing dropped), one at a random place
    in each of ``size`` equal runs: every key equally likely (see ``regular_sample``), the
    draw seeded by the keys themselves so that a chunk always gives the same sample."""
    values = np.sort(pd.unique(pd.Series(keys).dropna().to_numpy()))
    if len(values) <= size:
        return values
    seed = int(pd.util.hash_array(values[[0, -1]]).sum() % (1 << 48)) + len(values)
    jitter = np.random.default_rng(seed).random(size)
    return values[((np.arange(size) + jitter) * (len(values) / size)).astype(np.intp)]


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


# -- range partitioning on several sort keys (pandas' order, ties split by global position) --

def order_keys(columns: list, base: int) -> pd.DataFrame:
    """A frame of sort key ``columns`` (labelled 0..k-1, dtypes kept) plus column k: each
    row's global position ``base + row`` (a chunk's index << 32, say), the last sort key."""
    data = {i: pd.Series(getattr(c, "array", c)) for i, c in enumerate(columns)}
    n = len(columns[0]) if columns else 0
    data[len(columns)] = np.arange(base, base + n, dtype=np.int64)
    return pd.DataFrame(data)


def sorted_order(keys: pd.DataFrame, ascending: list[bool], na_position: str) -> np.ndarray:
    """Positions of ``keys``' rows in pandas' (lexicographic, stable) sort order."""
    if len(keys) == 0:
        return np.arange(0, dtype=np.intp)
    ordered = keys.reset_index(drop=True).sort_values(list(keys.columns), ascending=list(ascending),
                                                      na_position=na_position, kind="stable")
    return ordered.index.to_numpy()


def regular_sample(keys: pd.DataFrame, ascending: list[bool], na_position: str, size: int,
                   seed: int = 0) -> pd.DataFrame:
    """Up to ``size`` rows of ``keys`` in sorted order, one at a random place in each of
    ``size`` equal runs (stratified, seeded by ``seed``: give each chunk its own). Every row
    is equally likely to be drawn, so each sample stands for as many rows of its chunk; evenly
    spaced samples (the chunk's extremes, or the runs' middles) over-weight the ends of the
    key range once there are many chunks."""
    order = sorted_order(keys, ascending, na_position)
    if len(order) > size:
        jitter = np.random.default_rng(seed & 0xFFFFFFFFFFFF).random(size)
        order = order[((np.arange(size) + jitter) * (len(order) / size)).astype(np.intp)]
    return keys.iloc[order].reset_index(drop=True)


def weighted_boundaries(samples: list[pd.DataFrame], counts: list[int], n: int,
                        ascending: list[bool], na_position: str) -> pd.DataFrame:
    """At most ``n - 1`` split rows (increasing) so that ``n`` ranges get similar row counts:
    each sampled row stands for ``count / len(sample)`` rows of its chunk."""
    parts = [(s, c) for s, c in zip(samples, counts) if len(s)]
    if not parts or n <= 1:
        return samples[0].iloc[:0] if samples else pd.DataFrame()
    keys = pd.concat([s for s, _ in parts], ignore_index=True)
    weights = np.concatenate([np.full(len(s), c / len(s)) for s, c in parts])
    order = sorted_order(keys, ascending, na_position)
    w = weights[order]
    below = np.cumsum(w) - w / 2  # rows estimated below each sample: half its own run
    picks = np.searchsorted(below, below[-1] * np.arange(1, n) / n, side="left")
    picks = np.unique(np.clip(picks, 0, len(order) - 1))
    picks = picks[picks > 0]  # a split before the smallest sample would leave a range empty
    return keys.iloc[order[picks]].reset_index(drop=True)


def range_split_codes(keys: pd.DataFrame, bounds: pd.DataFrame, ascending: list[bool],
                      na_position: str) -> np.ndarray:
    """The range (0..len(bounds)) of each row of ``keys``: how many split rows sort at or
    before it (a split row equal to a row sends it to the right)."""
    if len(bounds) == 0 or len(keys) == 0:
        return np.zeros(len(keys), dtype=np.intp)
    both = pd.concat([bounds, keys], ignore_index=True)
    order = sorted_order(both, ascending, na_position)
    is_bound = order < len(bounds)
    seen = np.cumsum(is_bound)
    codes = np.empty(len(keys), dtype=np.intp)
    codes[order[~is_bound] - len(bounds)] = seen[~is_bound]
    return codes
