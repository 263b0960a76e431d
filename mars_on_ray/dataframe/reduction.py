"""Reductions (sum, mean, count, min, max, prod, std, var) as tree reductions over row blocks.

Each chunk becomes a small partial frame; partials are combined ``options.combine_size`` at a
time; the last step runs the pandas reduction itself on the concatenated partials, so dtype
promotion across columns is pandas' own.
"""
from __future__ import annotations

import builtins

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of
from .core import DataFrame, new_frame

__all__: list[str] = []

_ELEMENTWISE = ("sum", "prod", "min", "max")


def _chunk_row(frame: pd.DataFrame, how: str, kw: dict) -> pd.DataFrame:
    """One row: ``how`` per column, each column keeping its own dtype (one call per dtype)."""
    if frame.shape[1] == 0:
        return pd.DataFrame(index=[0], columns=frame.columns)
    dtypes = frame.dtypes
    rows, order = [], []
    for dtype in dict.fromkeys(dtypes):
        positions = np.flatnonzero((dtypes == dtype).to_numpy())
        sub = frame.iloc[:, positions]
        sub.columns = positions
        rows.append(getattr(sub, how)(**kw).to_frame().T)
        order.extend(positions)
    row = rows[0] if len(rows) == 1 else pd.concat(rows, axis=1)
    row = row.iloc[:, np.argsort(order, kind="stable")]
    row.columns = frame.columns
    row.index = [0]
    return row


def _moments(frame: pd.DataFrame, skipna: bool) -> pd.DataFrame:
    x = frame.astype("float64")
    mean = x.mean(skipna=skipna)
    return pd.DataFrame({"n": x.count().astype("float64"), "mean": mean,
                         "m2": ((x - mean) ** 2).sum(skipna=skipna)})


def _merge_moments(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    n = a["n"] + b["n"]
    delta = b["mean"] - a["mean"]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (a["mean"] + delta * b["n"] / n).where(a["n"] > 0, b["mean"]).where(b["n"] > 0, a["mean"])
        m2 = (a["m2"] + b["m2"] + delta ** 2 * a["n"] * b["n"] / n).where(
            (a["n"] > 0) & (b["n"] > 0), a["m2"].where(b["n"] <= 0, b["m2"]))
    return pd.DataFrame({"n": n, "mean": mean, "m2": m2})


class ReduceChunks(Operand):
    """A partial (``stage='map'``), combined partials ('combine') or the result ('final')."""

    _params = ("how", "stage", "kwargs", "series", "dtype")

    def execute(self, *values):
        how, kw = self.how, dict(self.kwargs)
        skipna = kw.get("skipna", True)
        if self.stage == "map":
            frame = values[0].to_frame() if isinstance(values[0], pd.Series) else values[0]
            return self._partial(frame, how, kw, skipna)
        parts = [v for v in values if len(v)] or [values[0]]
        if how in ("mean", "var", "std"):
            merged = parts[0]
            for p in parts[1:]:
                merged = (merged + p) if how == "mean" else _merge_moments(merged, p)
            return merged if self.stage == "combine" else self._finish(merged, how, kw)
        cat = pd.concat(parts, ignore_index=True)
        if self.stage == "combine":
            return _chunk_row(cat, "sum" if how == "count" else how, _row_kwargs(how, kw))
        if self.series:
            result = getattr(cat.iloc[:, 0], "sum" if how == "count" else how)(**_row_kwargs(how, kw))
            return np.asarray(result, dtype=self.dtype)[()] if self.dtype != object else result
        if how == "count":
            return cat.sum().astype(self.dtype)
        return getattr(cat, how)(axis=0, **kw).astype(self.dtype)

    @staticmethod
    def _partial(frame, how, kw, skipna):
        if how in _ELEMENTWISE and len(frame) == 0:
            return frame.iloc[:0]
        if how == "mean":
            return pd.DataFrame({"s": frame.sum(skipna=skipna), "n": frame.count()})
        if how in ("var", "std"):
            return _moments(frame, skipna)
        return _chunk_row(frame, how, _row_kwargs(how, kw))

    def _finish(self, merged, how, kw):
        if how == "mean":
            result = merged["s"] / merged["n"]
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                result = merged["m2"] / (merged["n"] - kw.get("ddof", 1))
            result = result.where(merged["n"] - kw.get("ddof", 1) > 0)
            if how == "std":
                result = np.sqrt(result)
        if self.series:
            return np.asarray(result.iloc[0], dtype=self.dtype)[()]
        result.name = None
        return result.astype(self.dtype)

    def tile(self, ctx, out):
        level = [ChunkData(self.new(stage="map"), [c], (np.nan,), None, (i,))
                 for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        k = builtins.max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (np.nan,), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        grid = chunk_grid((1,) if out.ndim == 1 else ())
        grid[(0,) if out.ndim == 1 else ()] = ChunkData(self.new(stage="final"), level, out.shape,
                                                       out.meta, (0,) * out.ndim)
        return Tiled(grid, tuple((s,) for s in out.shape))


def _row_kwargs(how: str, kw: dict) -> dict:
    if how == "count":
        return {}
    return {k: v for k, v in kw.items() if k in ("skipna", "min_count", "ddof")}


def _reduce(obj, how: str, axis=0, numeric_only=False, **kw):
    meta = obj.data.meta
    kw = {k: v for k, v in kw.items() if v is not None}
    if how != "count":
        kw.setdefault("skipna", True)
    is_frame = isinstance(obj, DataFrame)
    if is_frame and axis in (1, "columns"):
        kernel = _RowWise(how, numeric_only, kw)
        kernel(meta)  # pandas' errors for bad arguments
        return map_chunks(kernel, (obj,), label=f"md.{how}", meta=kernel(sample_of(meta)).iloc[:0])
    if axis not in (0, "index", None):
        raise ValueError(f"No axis named {axis} for object type {type(meta).__name__}")
    if is_frame or numeric_only:
        kw_all = {**kw, "numeric_only": numeric_only}
    else:
        kw_all = kw
    # validate like pandas (TypeError on bad dtypes) and learn the result's columns and dtype
    getattr(meta, how)(**kw_all)
    sample = getattr(sample_of(meta), how)(**kw_all)
    label = f"md.{how}"
    if is_frame:
        if list(sample.index) != list(meta.columns):
            obj = obj[list(sample.index)]
        op = ReduceChunks(how=how, kwargs=kw, series=False, dtype=sample.dtype, label=label)
        return new_frame(op, [obj], len(sample), pd.Series([], dtype=sample.dtype, index=sample.index[:0]))
    dtype = np.asarray(sample).dtype if np.asarray(sample).dtype.kind not in "US" else np.dtype(object)
    if how in ("min", "max") and meta.dtype.kind in "iufcbmM":
        dtype = meta.dtype
    op = ReduceChunks(how=how, kwargs=kw, series=True, dtype=dtype, label=label)
    return new_tensor(op, [obj], (), dtype)


class _RowWise:
    """A picklable, tokenizable row-wise reduction kernel (``axis=1``)."""

    def __init__(self, how, numeric_only, kw):
        self.how, self.numeric_only, self.kw = how, numeric_only, kw

    def __mars_token__(self):
        return ("rowwise", self.how, self.numeric_only, self.kw)

    def __call__(self, frame):
        return getattr(frame, self.how)(axis=1, numeric_only=self.numeric_only, **self.kw)


def sum(obj, axis=0, skipna=True, numeric_only=False, min_count=0):  # noqa: A001
    """Sum over rows (per column) or, with ``axis=1``, over columns."""
    return _reduce(obj, "sum", axis, numeric_only, skipna=skipna, min_count=min_count)


def prod(obj, axis=0, skipna=True, numeric_only=False, min_count=0):
    """Product over rows or columns."""
    return _reduce(obj, "prod", axis, numeric_only, skipna=skipna, min_count=min_count)


def min(obj, axis=0, skipna=True, numeric_only=False):  # noqa: A001
    """Minimum over rows or columns."""
    return _reduce(obj, "min", axis, numeric_only, skipna=skipna)


def max(obj, axis=0, skipna=True, numeric_only=False):  # noqa: A001
    """Maximum over rows or columns."""
    return _reduce(obj, "max", axis, numeric_only, skipna=skipna)


def mean(obj, axis=0, skipna=True, numeric_only=False):
    """Mean over rows or columns (from partial sums and counts)."""
    return _reduce(obj, "mean", axis, numeric_only, skipna=skipna)


def count(obj, axis=0, numeric_only=False):
    """Non-missing values per column (or per row with ``axis=1``)."""
    return _reduce(obj, "count", axis, numeric_only)


def var(obj, axis=0, skipna=True, ddof=1, numeric_only=False):
    """Variance (merged per-chunk moments, numerically stable)."""
    return _reduce(obj, "var", axis, numeric_only, skipna=skipna, ddof=ddof)


def std(obj, axis=0, skipna=True, ddof=1, numeric_only=False):
    """Standard deviation (merged per-chunk moments)."""
    return _reduce(obj, "std", axis, numeric_only, skipna=skipna, ddof=ddof)
