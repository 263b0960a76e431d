"""Row shards of training data for distributed trainers, read where the chunks are.

The inputs (features, labels, weights, ...) are executed once; their row blocks stay in Ray's
object store. Each worker gets, per input, the ObjectRefs of the blocks overlapping its row
range with the slice to take from each (``Piece``), and reads them itself (``load``): no data
passes through the driver. Shard boundaries fall on the features' block boundaries when there
are at least as many blocks as workers (no block is read twice), else rows are split evenly;
``allowed`` restricts them further (a ranker's query groups must not be cut).
"""
from __future__ import annotations

import bisect
import math
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.user import Tileable
from ...dataframe.core import DataFrame, Series
from ...tensor.core import Tensor


@dataclass(frozen=True)
class Piece:
    """Rows ``start:stop`` of the block stored under ``ref``."""

    ref: object
    start: int
    stop: int


@dataclass(frozen=True)
class Layout:
    """An executed input's row blocks: their refs in row order and their row counts."""

    refs: tuple
    splits: tuple[int, ...]

    @property
    def nrows(self) -> int:
        return int(sum(self.splits))

    def pieces(self, lo: int, hi: int) -> list[Piece]:
        """The block slices covering rows ``lo:hi``."""
        out, start = [], 0
        for ref, size in zip(self.refs, self.splits):
            stop = start + size
            if start < hi and stop > lo:
                out.append(Piece(ref, max(lo, start) - start, min(hi, stop) - start))
            start = stop
        if not out:  # no rows: an empty slice, so the reader still learns columns and dtypes
            out.append(Piece(self.refs[-1], self.splits[-1], self.splits[-1]))
        return out

    def boundaries(self) -> list[int]:
        return [int(b) for b in np.cumsum((0,) + tuple(self.splits))]


def rows_per_block(data) -> int | None:
    """Blocks for in-memory input: one per CPU of the cluster, so each worker gets one."""
    try:
        n = len(data)
    except TypeError:
        return None
    import ray

    cpus = ray.cluster_resources().get("CPU", 1) if ray.is_initialized() else os.cpu_count() or 1
    return max(1, math.ceil(n / max(1, int(cpus))))


def as_lazy(x, name: str, ndim: int | None, rows_per_block: int | None = None):
    """``x`` (NumPy / pandas / list / mars object) as a mars tensor or frame with one chunk
    across its columns; in-memory input is cut into blocks of ``rows_per_block`` rows."""
    if x is None:
        return None
    if isinstance(x, (pd.DataFrame, pd.Series)):
        from ...dataframe.datasource import from_pandas

        x = from_pandas(x, chunk_size=rows_per_block)
    elif not isinstance(x, Tileable):
        from ...tensor.datasource import tensor

        arr = np.asarray(x)
        x = tensor(arr, chunk_size=_row_chunks(arr.shape, rows_per_block))
    if not isinstance(x, (Tensor, DataFrame, Series)):
        raise TypeError(f"{name} must be an array, a DataFrame or a Series, got {type(x).__name__}")
    if ndim == 1 and isinstance(x, DataFrame):
        if x.shape[1] != 1:
            raise ValueError(f"Expecting 1-d {name}, got a DataFrame with {x.shape[1]} columns")
        x = x.iloc[:, 0]
    if ndim is not None and x.ndim != ndim:
        raise ValueError(f"Expecting {ndim}-d {name}, got: {x.ndim}-d")
    if isinstance(x, Tensor) and x.ndim == 2:
        x = x.rechunk({1: max(1, int(x.shape[1]))})
    return x


def _row_chunks(shape, rows_per_block):
    if rows_per_block is None:
        return None
    return (max(1, int(rows_per_block)),) + tuple(max(1, int(s)) for s in shape[1:])


def check_rows(fields: dict) -> None:
    """Every input has as many rows as the first (sklearn's message and ValueError)."""
    known = {k: int(v.shape[0]) for k, v in fields.items()
             if v is not None and not math.isnan(v.shape[0])}
    if len(set(known.values())) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"{sorted(known.values())} ({', '.join(known)})")


def layouts(session, fields: dict) -> dict[str, Layout]:
    """Execute the inputs together and read their row-block layouts."""
    objs = [v for v in fields.values() if v is not None]
    session.execute(*objs)
    out = {}
    for name, obj in fields.items():
        if obj is None:
            continue
        grid, nsplits = session.chunk_layout(obj)
        if grid.ndim == 2 and grid.shape[1] != 1:
            raise AssertionError(f"{name} should have one chunk across its columns")
        out[name] = Layout(tuple(grid.reshape(-1) if grid.ndim == 1 else grid[:, 0]), nsplits[0])
    rows = {k: lay.nrows for k, lay in out.items()}
    if len(set(rows.values())) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {rows}")
    return out


def plan_cuts(nrows: int, n_workers: int, block_bounds: list[int],
              allowed: list[int] | None = None) -> list[int]:
    """Row offsets ``[0, ..., nrows]`` cutting the rows into at most ``n_workers`` non-empty
    shards of about equal size, on block boundaries when there are enough blocks."""
    if nrows == 0:
        raise ValueError("cannot train on 0 samples")
    if allowed is not None:
        candidates = sorted(set(allowed) | {0, nrows})
    elif len(block_bounds) - 1 >= n_workers:
        candidates = block_bounds
    else:
        candidates = None  # any row
    cuts = [0]
    for i in range(1, n_workers):
        target = round(i * nrows / n_workers)
        if candidates is None:
            cut = target
        else:
            j = bisect.bisect_left(candidates, target)
            near = [c for c in candidates[max(0, j - 1): j + 1]]
            cut = min(near, key=lambda c: (abs(c - target), c))
        if cuts[-1] < cut < nrows:
            cuts.append(cut)
    cuts.append(nrows)
    return cuts


def even_cuts(nrows: int, n: int, allowed: list[int] | None = None) -> list[int]:
    """Exactly ``n`` shards of about equal size (some may be empty), cut only at
    ``allowed`` offsets when given."""
    cuts = [round(i * nrows / n) for i in range(n + 1)]
    if allowed is not None:
        allowed = sorted(set(allowed) | {0, nrows})
        cuts = [min(allowed, key=lambda c: (abs(c - t), c)) for t in cuts]
        cuts = [max(cuts[: i + 1]) for i in range(len(cuts))]  # keep them non-decreasing
    return cuts


def shard_specs(lays: dict[str, Layout], cuts: list[int]) -> list[dict[str, list[Piece]]]:
    """Per worker: each input's pieces for the worker's rows."""
    return [{name: lay.pieces(lo, hi) for name, lay in lays.items()}
            for lo, hi in zip(cuts[:-1], cuts[1:])]


def load(pieces: list[Piece]):
    """Inside a worker: the rows the pieces name, read from the object store and joined."""
    import ray

    values = ray.get([p.ref for p in pieces])
    parts = [_slice(v, p.start, p.stop) for v, p in zip(values, pieces)]
    if len(parts) == 1:
        return parts[0]
    if isinstance(parts[0], (pd.DataFrame, pd.Series)):
        return pd.concat(parts, axis=0)
    return np.concatenate(parts, axis=0)


def load_all(spec: dict[str, list[Piece]]) -> dict:
    return {name: load(pieces) for name, pieces in spec.items()}


def _slice(value, start: int, stop: int):
    if start == 0 and stop == len(value):
        return value
    return value.iloc[start:stop] if isinstance(value, (pd.DataFrame, pd.Series)) else value[start:stop]
