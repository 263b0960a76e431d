"""Exact ``quantile`` and ``median``: a distributed selection of the order statistics needed.

1. Every chunk sends a small sorted sample of each column; tiling picks range boundaries
   (weighted by the chunks' counts) so that ranges hold similar numbers of values.
2. Every chunk counts its values per range and those equal to each boundary.
3. From the counts tiling knows which range holds each needed rank. A rank falling on a
   boundary value is that value; otherwise every chunk sends the values inside the few ranges
   needed, and one chunk selects the ranks there (``np.partition``) and interpolates with
   NumPy's own quantile rules, which pandas uses. One chunk frames need none of this.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of
from .core import DataFrame, Series, methods, new_frame
from .groupby import _Meta
from .stats import RowMethod, as_frame, check_axis, quietly, scalar_dtype, single

try:
    from numpy.lib import _function_base_impl as _npq
except ImportError:  # NumPy < 2
    from numpy.lib import function_base as _npq  # type: ignore[no-redef]

__all__: list[str] = []

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def column_values(col: pd.Series) -> np.ndarray:
    """The non-missing values of a column as a NumPy array of pandas' computing dtype."""
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "iub":
        return col.to_numpy()
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "mM":  # as pandas: on the int64 view
        values = col.to_numpy()
        return values[~np.isnat(values)].view(np.int64)
    if isinstance(col.dtype, np.dtype) and col.dtype.kind == "f":
        values = col.to_numpy()
        return values[~np.isnan(values)]
    if getattr(col.dtype, "kind", "O") in "iub":  # nullable integers / booleans
        return col.dropna().to_numpy(dtype=col.dtype.numpy_dtype)
    values = col.to_numpy(dtype=np.float64, na_value=np.nan)
    return values[~np.isnan(values)]


def order_positions(n: int, qs, method: str):
    """(previous, next, gamma) positions in the sorted values NumPy's percentile uses for
    ``qs`` (pandas passes ``q * 100``); next and gamma are None for discrete methods."""
    qq = np.true_divide(np.asarray(qs, dtype=np.float64) * 100.0, 100)
    props = _npq._QuantileMethods[method]
    vi = np.asanyarray(props["get_virtual_index"](n, qq))
    if props["fix_gamma"] is None:
        return vi.astype(np.intp) % max(n, 1), None, None
    prev, nxt = _npq._get_indexes(np.empty(0), vi, n)
    gamma = _npq._get_gamma(vi, prev, props)
    return prev % max(n, 1), nxt % max(n, 1), gamma


def needed_ranks(n: int, qs, method: str) -> list[int]:
    """The ranks (0-based) a quantile / median result needs."""
    if n == 0:
        return []
    if method == "median":
        return sorted({(n - 1) // 2, n // 2})
    prev, nxt, _ = order_positions(n, qs, method)
    return sorted({int(i) for i in prev} | ({int(i) for i in nxt} if nxt is not None else set()))


def from_order_stats(n: int, stat: dict, qs, method: str, dtype) -> np.ndarray:
    """The quantiles of ``n`` values from their needed order statistics ``stat`` (rank -> value)."""
    if n == 0:
        return np.full(len(qs), np.nan)
    if method == "median":
        a, b = stat[(n - 1) // 2], stat[n // 2]
        return np.array([np.mean(np.array([a, b], dtype=dtype)) if n % 2 == 0 else np.float64(a)])
    prev, nxt, gamma = order_positions(n, qs, method)
    lo = np.array([stat[int(i)] for i in prev], dtype=dtype)
    if nxt is None:
        return lo
    hi = np.array([stat[int(i)] for i in nxt], dtype=dtype)
    return np.asarray(_npq._lerp(lo, hi, gamma))


# --- chunk kernels ---------------------------------------------------------------------------

class QSample(Operand):
    """Per column: (count, evenly spaced values of the sorted column)."""

    _params = ("size",)

    def execute(self, value):
        frame, out = as_frame(value), []
        for i in range(frame.shape[1]):
            v = np.sort(column_values(frame.iloc[:, i]))
            pick = np.unique(np.linspace(0, len(v) - 1, min(len(v), self.size)).round().astype(np.intp))
            out.append((len(v), v[pick]))
        return out


class QCount(Operand):
    """Per column: values per range, values equal to each boundary, missing values."""

    _params = ("bounds",)

    def execute(self, value):
        frame, out = as_frame(value), []
        for i, bounds in enumerate(self.bounds):
            col = frame.iloc[:, i]
            v = column_values(col)
            codes = np.searchsorted(bounds, v, side="right")
            below = np.searchsorted(bounds, v, side="left")
            equal = codes[codes != below] - 1  # v == bounds[codes - 1]
            out.append((np.bincount(codes, minlength=len(bounds) + 1),
                        np.bincount(equal, minlength=len(bounds)), int(col.isna().sum())))
        return out


class QExtract(Operand):
    """Per column, the values strictly inside each wanted range."""

    _params = ("bounds", "wanted")

    def execute(self, value):
        frame, out = as_frame(value), []
        for i, (bounds, wanted) in enumerate(zip(self.bounds, self.wanted)):
            if not wanted:
                out.append([])
                continue
            v = column_values(frame.iloc[:, i])
            codes = np.searchsorted(bounds, v, side="right")
            pieces = []
            for j in wanted:
                inside = codes == j
                if j > 0:
                    inside &= v != bounds[j - 1]
                pieces.append(v[inside])
            out.append(pieces)
        return out


class QWhole(Operand):
    """pandas' own quantile / median on a frame held in one chunk."""

    _params = ("call", "kwargs")

    def execute(self, value):
        return getattr(value, self.call)(**dict(self.kwargs))


class QFinal(Operand):
    """Selects the needed ranks in the gathered ranges and builds pandas' result."""

    _params = ("plan", "qs", "method", "skipna", "layout", "result_meta")

    def execute(self, *extracts):
        results = []
        for i, (n, nans, lookups, dtype, cast) in enumerate(self.plan):
            stat, gathered = {}, {}
            for rank, spec in lookups:
                if spec[0] == "value":
                    stat[rank] = spec[1]
                    continue
                k, local = spec[1], spec[2]
                if k not in gathered:
                    gathered[k] = np.concatenate([e[i][k] for e in extracts])
                stat[rank] = np.partition(gathered[k], local)[local]
            res = from_order_stats(n, stat, self.qs, self.method, dtype)
            if nans and not self.skipna:
                res = np.full(len(res), np.nan)
            if cast is not None:  # datetimes: percentiles of the int64 view, cast back like pandas
                res = np.where(np.isnan(res), np.iinfo(np.int64).min, res).astype(np.int64).view(cast) \
                    if res.dtype.kind == "f" else res.view(cast)
            results.append(res)
        return shape_result(results, self.qs, self.layout, self.result_meta.value)


def shape_result(columns: list, qs, layout: str, meta):
    """Per-column quantile arrays laid out like pandas' result ``meta``."""
    if layout == "scalar":
        dtype = scalar_dtype(meta)
        if columns[0].dtype.kind in "mM":
            return pd.Series(columns[0]).iloc[0]
        return columns[0][0] if dtype == object else np.asarray(columns[0][0], dtype=dtype)[()]
    if layout == "series_list":
        return pd.Series(columns[0], index=pd.Index(np.asarray(qs, dtype=np.float64)),
                         name=meta.name).astype(meta.dtype)
    if layout == "frame_scalar":
        values = np.array([pd.Series(c).iloc[0] for c in columns], dtype=object)
        return pd.Series(values, index=meta.index, name=meta.name).astype(meta.dtype)
    index = pd.Index(np.asarray(qs, dtype=np.float64))
    data = {j: pd.Series(c, index=index).astype(t) for j, (c, t) in enumerate(zip(columns, meta.dtypes))}
    res = pd.DataFrame(data, index=index)
    res.columns = meta.columns
    return res


# --- tiling ----------------------------------------------------------------------------------

def _boundaries(samples: list, n_ranges: int) -> np.ndarray:
    """Split points giving ``n_ranges`` ranges of similar weight, from (count, sample) pairs."""
    values = [s for c, s in samples if len(s)]
    if not values:
        return np.array([])
    weights = np.concatenate([np.full(len(s), c / len(s)) for c, s in samples if len(s)])
    values = np.concatenate(values)
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(weights[order])
    targets = cum[-1] * np.arange(1, n_ranges) / n_ranges
    picks = np.minimum(np.searchsorted(cum, targets), len(values) - 1)
    return np.unique(values[picks])


def _lookup(rank: int, counts: np.ndarray, equal: np.ndarray, bounds: np.ndarray, wanted: list):
    """Where ``rank`` is: ("value", v) on a boundary value, or ("gather", k, local) where k
    indexes ``wanted`` (the ranges whose inner values are gathered; appended to as needed)."""
    starts = np.cumsum(counts) - counts
    j = int(np.searchsorted(starts, rank, side="right") - 1)
    local = rank - int(starts[j])
    if j > 0:
        if local < equal[j - 1]:
            return ("value", bounds[j - 1].item())
        local -= int(equal[j - 1])
    if j not in wanted:
        wanted.append(j)
    return ("gather", wanted.index(j), local)


class Quantile(Operand):
    """Exact quantiles (``how='quantile'``) or medians (``'median'``) of every column."""

    _params = ("qs", "method", "skipna", "layout", "result_meta", "whole")

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        index = (0,) * out.ndim
        if len(chunks) == 1:
            whole = QWhole(call=self.whole[0], kwargs=self.whole[1])
            return single(out, ChunkData(whole, chunks, out.shape, out.meta, index))
        n_ranges = 2 * len(chunks)
        size = min(2048, 8 * n_ranges)
        samples = [ChunkData(QSample(size=size), [c], (math.nan,), None, (i,)) for i, c in enumerate(chunks)]
        sampled = yield from ctx.values(samples)
        ncols = len(sampled[0])
        bounds = tuple(_boundaries([s[j] for s in sampled], n_ranges) for j in range(ncols))
        counters = [ChunkData(QCount(bounds=bounds), [c], (math.nan,), None, (i,)) for i, c in enumerate(chunks)]
        counted = yield from ctx.values(counters)
        plan, wanted_all = [], []
        dtypes = [s[0][1].dtype for s in zip(*sampled)]
        kinds = [t if getattr(t, "kind", "O") in "mM" and isinstance(t, np.dtype) else None
                 for t in as_frame(out.inputs[0].meta).dtypes]
        for j in range(ncols):
            counts = np.sum([c[j][0] for c in counted], axis=0)
            equal = np.sum([c[j][1] for c in counted], axis=0)
            nans = int(sum(c[j][2] for c in counted))
            n, wanted = int(counts.sum()), []
            lookups = tuple((r, _lookup(r, counts, equal, bounds[j], wanted))
                            for r in needed_ranks(n, self.qs, self.method))
            plan.append((n, nans, lookups, dtypes[j], kinds[j]))
            wanted_all.append(tuple(wanted))
        extracts = [ChunkData(QExtract(bounds=bounds, wanted=tuple(wanted_all)), [c], (math.nan,), None, (i,))
                    for i, c in enumerate(chunks)]
        final = QFinal(plan=tuple(plan), qs=self.qs, method=self.method, skipna=self.skipna,
                       layout=self.layout, result_meta=self.result_meta, label=self.label)
        return single(out, ChunkData(final, extracts, out.shape, out.meta, index))


def _result(obj, meta_result, qs, method, skipna, layout, whole, label):
    op = Quantile(qs=tuple(qs), method=method, skipna=skipna, layout=layout,
                  result_meta=_Meta(meta_result), whole=whole, label=label)
    if isinstance(meta_result, (pd.DataFrame, pd.Series)):
        return new_frame(op, [obj], len(meta_result), meta_result.iloc[:0])
    dtype = scalar_dtype(meta_result)
    return new_tensor(op, [obj], (), dtype)


def _typed_sample(meta, call, kw):
    """pandas' result on a few sample rows: the result's labels and dtypes."""
    sample = sample_of(meta)
    if isinstance(meta, pd.Series):
        sample = sample.rename(meta.name)
    return getattr(pd.concat([sample] * 4), call)(**kw)


@methods(DataFrame, Series)
@quietly
def quantile(obj, q=0.5, axis=0, numeric_only=False, interpolation="linear", method="single"):
    """Exact quantile(s) ``q`` of each column (a distributed selection, not an approximation)."""
    meta = obj.data.meta
    kw = {"q": q, "interpolation": interpolation}
    if isinstance(obj, DataFrame):
        kw.update(numeric_only=numeric_only, method=method)
        if check_axis(obj, axis) == 1:
            if pd.api.types.is_list_like(q):  # rows of the result would be the frame's columns
                raise NotImplementedError("quantile with a list of q along axis=1 is not supported")
            kernel = RowMethod("quantile", kw)
            kernel(meta)
            return map_chunks(kernel, (obj,), label="md.quantile", meta=kernel(sample_of(meta)).iloc[:0])
    meta.quantile(**kw)  # pandas' errors: q out of range, bad interpolation, non-numeric columns
    if method != "single":
        raise NotImplementedError("quantile(method='table') is not supported")
    sample = _typed_sample(meta, "quantile", kw)
    listed = pd.api.types.is_list_like(q)
    if isinstance(obj, DataFrame):
        cols = list(sample.columns if listed else sample.index)
        if cols != list(meta.columns):
            obj = obj[cols]
        layout = "frame_list" if listed else "frame_scalar"
    else:
        layout = "series_list" if listed else "scalar"
    if interpolation not in _METHODS:
        raise ValueError(f"interpolation={interpolation!r} is not supported")
    qs = list(q) if listed else [q]
    whole = ("quantile", tuple(kw.items()))
    return _result(obj, sample, qs, interpolation, True, layout, whole, "md.quantile")


@methods(DataFrame, Series)
@quietly
def median(obj, axis=0, skipna=True, numeric_only=False):
    """Exact median of each column (or of each row with ``axis=1``)."""
    meta = obj.data.meta
    kw = {"skipna": skipna, "numeric_only": numeric_only}
    if isinstance(obj, DataFrame) and check_axis(obj, axis) == 1:
        kernel = RowMethod("median", kw)
        kernel(meta)
        return map_chunks(kernel, (obj,), label="md.median", meta=kernel(sample_of(meta)).iloc[:0])
    if not isinstance(obj, DataFrame):
        check_axis(obj, axis)
        if not numeric_only:
            kw.pop("numeric_only")
    meta.median(**kw)
    sample = _typed_sample(meta, "median", kw)
    if isinstance(obj, DataFrame):
        if list(sample.index) != list(meta.columns):
            obj = obj[list(sample.index)]
        layout = "frame_scalar"
    else:
        layout = "scalar"
    return _result(obj, sample, [0.5], "median", skipna, layout, ("median", tuple(kw.items())), "md.median")
