"""Tree-reduced statistics: all/any, skew, kurt, sem, memory_usage (also of an Index), Index.min/max.

Every chunk becomes a small partial frame (one row per column) by a named kernel; partials are
merged ``options.combine_size`` at a time and the last step finishes the result. Moments merge
with Chan's / Pebay's pairwise formulas, so they stay exact within float tolerance.
"""
from __future__ import annotations

import builtins
import functools
import warnings

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of
from .core import DataFrame, Index, Series, methods, new_frame

__all__: list[str] = []

#: pandas >= 3.1 computes skew/kurt of a constant column as NaN (0/0), earlier pandas as 0
_LEGACY_MOMENTS = pd.Series([1.0] * 4).skew() == 0


def quietly(func):
    """Run ``func`` without NumPy's RuntimeWarnings (metadata inference on empty data)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return func(*args, **kwargs)

    return wrapper


def as_frame(value) -> pd.DataFrame:
    """A chunk value (frame, series or index) as a frame whose columns are the reduced ones."""
    if isinstance(value, pd.DataFrame):
        return value
    if isinstance(value, pd.Index):
        return value.to_frame(index=False)
    return value.to_frame()


# --- kernels: map(frame, kw) -> partial, combine(parts, kw) -> partial, finish(partial, kw) --

class _Logical:
    """all / any: one boolean per column."""

    @staticmethod
    def map(frame, kw):
        res = getattr(frame, kw["how"])(axis=0, skipna=kw["skipna"])
        return pd.DataFrame({"v": np.asarray(res, dtype=bool)})

    @staticmethod
    def combine(parts, kw):
        func = np.logical_and if kw["how"] == "all" else np.logical_or
        return pd.DataFrame({"v": func.reduce([p["v"].to_numpy() for p in parts])})

    @staticmethod
    def finish(part, kw):
        return part["v"].to_numpy()


def _moment_partial(frame, with_higher: bool) -> pd.DataFrame:
    """Per column: count, a shift (the first value: means are kept relative to it, so large
    offsets lose no precision when merged), the mean minus the shift and central moments."""
    x = frame.to_numpy(dtype=np.float64, na_value=np.nan) if frame.shape[1] else np.empty((len(frame), 0))
    mask = ~np.isnan(x)
    n = mask.sum(axis=0).astype(np.float64)
    first = np.where(n > 0, x[np.argmax(mask, axis=0), np.arange(x.shape[1])] if len(x) else 0.0, 0.0)
    y = np.where(mask, x - first, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(n > 0, y.sum(axis=0) / n, 0.0)
    d = np.where(mask, y - c, 0.0)
    e = np.where(n > 0, d.sum(axis=0) / np.maximum(n, 1), 0.0)  # what rounding left in the mean
    d2 = d * d
    s2 = d2.sum(axis=0)
    out = {"n": n, "shift": first, "mean": c + e, "m2": s2 - n * e * e,
           "nans": (~mask).sum(axis=0).astype(np.float64)}
    if with_higher:
        s3 = (d2 * d).sum(axis=0)
        out["m3"] = s3 - 3 * e * s2 + 2 * n * e ** 3
        out["m4"] = (d2 * d2).sum(axis=0) - 4 * e * s3 + 6 * e * e * s2 - 3 * n * e ** 4
    return pd.DataFrame(out)


def merge_moments(a: dict, b: dict) -> dict:
    """Pebay's pairwise merge of (n, shift, mean - shift, m2[, m3, m4]) arrays (Chan's for m2)."""
    na, nb = a["n"], b["n"]
    n = na + nb
    shift = np.where(na > 0, a["shift"], b["shift"])
    mean_a = a["mean"] + (a["shift"] - shift)
    mean_b = b["mean"] + (b["shift"] - shift)
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = mean_b - mean_a
        dn = np.where(n > 0, delta / n, 0.0)
        out = {"n": n, "nans": a["nans"] + b["nans"], "shift": shift,
               "mean": np.where(n > 0, mean_a + dn * nb, 0.0)}
        out["m2"] = a["m2"] + b["m2"] + delta * dn * na * nb
        if "m3" in a:
            out["m3"] = (a["m3"] + b["m3"] + delta * dn * dn * na * nb * (na - nb)
                         + 3.0 * dn * (na * b["m2"] - nb * a["m2"]))
            out["m4"] = (a["m4"] + b["m4"] + delta * dn ** 3 * na * nb * (na * na - na * nb + nb * nb)
                         + 6.0 * dn * dn * (na * na * b["m2"] + nb * nb * a["m2"])
                         + 4.0 * dn * (na * b["m3"] - nb * a["m3"]))
    return out


class _Moments:
    """skew / kurt / sem from merged central moments, with pandas' own bias corrections."""

    @staticmethod
    def map(frame, kw):
        return _moment_partial(frame, kw["how"] in ("skew", "kurt"))

    @staticmethod
    def combine(parts, kw):
        merged = {k: v.to_numpy() for k, v in parts[0].items()}
        for p in parts[1:]:
            merged = merge_moments(merged, {k: v.to_numpy() for k, v in p.items()})
        return pd.DataFrame(merged)

    @staticmethod
    def finish(part, kw):
        p = {k: v.to_numpy() for k, v in part.items()}
        res = moment_result(kw["how"], p, kw.get("ddof", 1))
        return np.where((p["nans"] > 0) & (not kw["skipna"]), np.nan, res)


def _zero_fperr(x):
    return np.where(np.abs(x) < 1e-14, 0.0, x)


def moment_result(how: str, p: dict, ddof: int = 1) -> np.ndarray:
    """skew / kurt / sem / var / std of merged moments ``p`` as pandas computes them."""
    n, m2 = p["n"], p["m2"]
    with np.errstate(divide="ignore", invalid="ignore"):
        if how in ("sem", "var", "std"):
            var = np.where(n - ddof > 0, m2 / (n - ddof), np.nan)
            if how == "var":
                return var
            return np.sqrt(var) / np.sqrt(n) if how == "sem" else np.sqrt(var)
        if how == "skew":
            m3 = p["m3"]
            if _LEGACY_MOMENTS:
                m2, m3 = _zero_fperr(m2), _zero_fperr(m3)
                res = np.where(m2 == 0, 0.0, (n * (n - 1) ** 0.5 / (n - 2)) * (m3 / m2 ** 1.5))
            else:
                res = m3 / (m2 * np.sqrt(m2)) * (n * np.sqrt(n - 1.0)) / (n - 2.0)
            return np.where(n < 3, np.nan, res)
        m4 = p["m4"]
        if _LEGACY_MOMENTS:
            num = _zero_fperr(n * (n + 1) * (n - 1) * m4)
            den = _zero_fperr((n - 2) * (n - 3) * m2 ** 2)
            res = np.where(den == 0, 0.0, num / den - 3 * (n - 1) ** 2 / ((n - 2) * (n - 3)))
        else:
            inner = n * (n + 1.0) * (m4 / (m2 * m2)) - 3.0 * (n - 1.0)
            res = (n - 1.0) / ((n - 2.0) * (n - 3.0)) * inner
        return np.where(n < 4, np.nan, res)


def _index_bytes(index: pd.Index, deep: bool) -> int:
    """pandas' ``memory_usage`` of ``index`` without its lookup hashtable: pandas counts that
    only once something looked a label up (in the user's object or in our kernels), so the count
    is that of an index no lookup touched, whatever ran before."""
    usage = index.memory_usage(deep=deep)
    if "_engine" in index._cache:
        usage -= index._engine.sizeof(deep=deep)
    return usage


class _Memory:
    """memory_usage: bytes per column, plus the index's (a RangeIndex split in chunks is one)."""

    @staticmethod
    def map(value, kw):
        deep = kw["deep"]
        if isinstance(value, pd.Index):
            cols = np.array([], dtype=np.int64)
        elif isinstance(value, pd.Series):
            cols = np.array([value.memory_usage(index=False, deep=deep)], dtype=np.int64)
        else:
            cols = value.memory_usage(index=False, deep=deep).to_numpy(dtype=np.int64)
        index = value if isinstance(value, pd.Index) else value.index
        rng = (index.start, index.stop, index.step) if isinstance(index, pd.RangeIndex) else None
        usage = _index_bytes(index, deep) if rng is None else 8 * len(index)
        return {"cols": cols, "index": usage, "ranges": [rng] if rng else [], "rest": rng is None}

    @staticmethod
    def combine(parts, kw):
        return {"cols": np.sum([p["cols"] for p in parts], axis=0), "index": builtins.sum(p["index"] for p in parts),
                "ranges": [r for p in parts for r in p["ranges"]], "rest": builtins.any(p["rest"] for p in parts)}

    @staticmethod
    def finish(part, kw):
        usage = part["index"] if kw.get("client_index") is None else kw["client_index"]
        ranges = [r for r in part["ranges"] if r[0] != r[1]] or part["ranges"][:1]
        if not part["rest"] and ranges and kw.get("client_index") is None:
            contiguous = builtins.all(a[1] == b[0] and a[2] == b[2] for a, b in zip(ranges[:-1], ranges[1:]))
            if contiguous:
                usage = pd.RangeIndex(ranges[0][0], ranges[-1][1], ranges[0][2]).memory_usage(deep=kw["deep"])
        if kw["target"] == "index":
            return np.array([usage], dtype=np.int64)
        cols = part["cols"]
        if kw["target"] == "total":
            return np.array([cols.sum() + (usage if kw["index"] else 0)], dtype=np.int64)
        return np.concatenate([[usage], cols]) if kw["index"] else cols


class _MinMax:
    """min / max of an Index (missing values skipped unless ``skipna=False``)."""

    @staticmethod
    def map(value, kw):
        return pd.Index([getattr(value, kw["how"])(skipna=kw["skipna"])], dtype=value.dtype) \
            if len(value) else value[:0]

    @staticmethod
    def combine(parts, kw):
        cat = parts[0].append(list(parts[1:])) if len(parts) > 1 else parts[0]
        return _MinMax.map(cat, kw)

    @staticmethod
    def finish(part, kw):
        return np.array([getattr(part, kw["how"])(skipna=kw["skipna"])], dtype=object)


_KERNELS = {"logical": _Logical, "moments": _Moments, "memory": _Memory, "minmax": _MinMax}


class TreeStat(Operand):
    """A kernel's partial per chunk (``stage='map'``), merged partials ('combine'), the result
    ('final'): a Series indexed by ``labels``, or (``labels is None``) a scalar."""

    _params = ("kernel", "kw", "stage", "labels", "dtype", "result_name", "raw")
    raw = False

    def execute(self, *values):
        kernel, kw = _KERNELS[self.kernel], dict(self.kw)
        if self.stage == "map":
            value = values[0] if self.raw else as_frame(values[0])
            return kernel.map(value, kw)
        merged = kernel.combine(list(values), kw) if len(values) > 1 else values[0]
        if self.stage == "combine":
            return merged
        res = kernel.finish(merged, kw)
        if kw.get("flatten"):  # axis=None: one more reduction over the columns
            func = np.all if kw["how"] == "all" else np.any
            res = np.array([func(res)])
        if self.labels is None:
            value = res[0]
            if self.dtype == object or (pd.api.types.is_scalar(value) and pd.isna(value)):
                return value  # (the min of an empty Index is NaN whatever its dtype)
            return np.asarray(value, dtype=self.dtype)[()]
        return pd.Series(np.asarray(res).astype(self.dtype), index=self.labels.value, name=self.result_name)

    def partials(self, chunks) -> list:
        """The map stage on ``chunks`` and combine levels until one final step can take them."""
        level = [ChunkData(self.new(stage="map"), [c], (np.nan,), None, (i,)) for i, c in enumerate(chunks)]
        k = builtins.max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (np.nan,), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        return level

    def tile(self, ctx, out):
        level = self.partials(row_chunks(ctx[out.inputs[0]]))
        return single(out, ChunkData(self.new(stage="final"), level, out.shape, out.meta, (0,) * out.ndim))


def single(out, chunk) -> Tiled:
    """A tileable of one chunk (a scalar, a small series or a small frame)."""
    grid = chunk_grid((1,) * out.ndim)
    grid[(0,) * out.ndim] = chunk
    return Tiled(grid, tuple((s,) for s in out.shape))


class Labels:
    """A result's index carried as a parameter, tokenized by its values."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __mars_token__(self):
        return ("labels", repr(self.value.dtype), list(map(repr, self.value)))

    def __getstate__(self):
        return self.value

    def __setstate__(self, state):
        self.value = state


def scalar_dtype(result) -> np.dtype:
    dtype = np.asarray(result).dtype
    return np.dtype(object) if dtype.kind in "USO" else dtype


def tree_stat(obj, kernel: str, kw: dict, sample_result, label: str, raw: bool = False):
    """A lazy result of ``kernel`` over ``obj``'s rows: a Series like ``sample_result`` (pandas
    on a one-row sample, giving labels and dtype) or a 0-d tensor for a scalar."""
    if isinstance(sample_result, pd.Series):
        op = TreeStat(kernel=kernel, kw=kw, labels=Labels(sample_result.index), dtype=sample_result.dtype,
                      result_name=sample_result.name, raw=raw, label=label)
        return new_frame(op, [obj], len(sample_result), sample_result.iloc[:0])
    dtype = scalar_dtype(sample_result)
    return new_tensor(TreeStat(kernel=kernel, kw=kw, labels=None, dtype=dtype, raw=raw, label=label),
                      [obj], (), dtype)


class RowMethod:
    """A picklable, tokenizable ``frame.<how>(axis=1, **kw)`` kernel."""

    def __init__(self, how, kw):
        self.how, self.kw = how, kw

    def __mars_token__(self):
        return ("rowmethod", self.how, self.kw)

    def __call__(self, frame):
        return getattr(frame, self.how)(axis=1, **self.kw)


def rowwise(obj, how: str, kw: dict):
    """``how`` along each row of a DataFrame, block by block."""
    kernel = RowMethod(how, kw)
    kernel(obj.data.meta)  # pandas' errors for bad arguments
    return map_chunks(kernel, (obj,), label=f"md.{how}", meta=kernel(sample_of(obj.data.meta)).iloc[:0])


def check_axis(obj, axis, allow_none=False):
    """0 or 1 (DataFrame only); pandas' ValueError for anything else."""
    names = {0: 0, "index": 0, "rows": 0}
    if isinstance(obj, DataFrame):
        names.update({1: 1, "columns": 1})
    if allow_none and axis is None:
        return None
    if axis not in names:
        raise ValueError(f"No axis named {axis} for object type {type(obj.data.meta).__name__}")
    return names[axis]


# --- all / any ----------------------------------------------------------------------------

def _logical(obj, how, axis, bool_only, skipna, kwargs):
    if kwargs:
        raise TypeError(f"{how}() got an unexpected keyword argument {next(iter(kwargs))!r}")
    meta = obj.data.meta
    if isinstance(obj, Index):
        getattr(meta, how)()
        return tree_stat(obj, "logical", {"how": how, "skipna": True}, getattr(sample_of(pd.Series(meta)), how)(),
                         f"md.{how}")
    axis = check_axis(obj, axis, allow_none=True)
    if not isinstance(obj, DataFrame):
        getattr(meta, how)(skipna=skipna)
        return tree_stat(obj, "logical", {"how": how, "skipna": skipna}, np.bool_(True), f"md.{how}")
    if axis == 1:
        return rowwise(obj, how, {"bool_only": bool_only, "skipna": skipna})
    if bool_only:
        cols = [c for c, t in meta.dtypes.items() if pd.api.types.is_bool_dtype(t)]
        if len(cols) != meta.shape[1]:
            obj, meta = obj[cols], meta[cols]
    sample = getattr(meta, how)(axis=0, skipna=skipna)
    kw = {"how": how, "skipna": skipna, "flatten": axis is None}
    return tree_stat(obj, "logical", kw, np.bool_(True) if axis is None else sample, f"md.{how}")


@methods(DataFrame, Series)  # Index's: index_methods.py
def all(obj, axis=0, bool_only=False, skipna=True, **kwargs):  # noqa: A001
    """Whether every element is true, per column (``axis=0``), per row (1) or overall (None)."""
    return _logical(obj, "all", axis, bool_only, skipna, kwargs)


@methods(DataFrame, Series)  # Index's: index_methods.py
def any(obj, axis=0, bool_only=False, skipna=True, **kwargs):  # noqa: A001
    """Whether any element is true, per column (``axis=0``), per row (1) or overall (None)."""
    return _logical(obj, "any", axis, bool_only, skipna, kwargs)


# --- skew / kurt / sem --------------------------------------------------------------------

@quietly
def _moment_stat(obj, how, axis, skipna, numeric_only, extra):
    meta = obj.data.meta
    axis = check_axis(obj, axis)
    kw = {"skipna": skipna, "numeric_only": numeric_only, **extra}
    if axis == 1:
        return rowwise(obj, how, kw)
    if not isinstance(obj, DataFrame):
        kw.pop("numeric_only") if not numeric_only else None
    getattr(meta, how)(**kw)  # pandas' errors (TypeError on non-numeric columns)
    sample = getattr(pd.concat([sample_of(meta)] * 4), how)(**kw)  # enough rows for a typed result
    if isinstance(obj, DataFrame) and list(sample.index) != list(meta.columns):
        obj = obj[list(sample.index)]
    return tree_stat(obj, "moments", {"how": how, "skipna": skipna, **extra}, sample, f"md.{how}")


@methods(DataFrame, Series)
def skew(obj, axis=0, skipna=True, numeric_only=False):
    """Unbiased skewness (pandas' adjusted Fisher-Pearson G1)."""
    return _moment_stat(obj, "skew", axis, skipna, numeric_only, {})


@methods(DataFrame, Series)
def kurt(obj, axis=0, skipna=True, numeric_only=False):
    """Unbiased kurtosis (Fisher's definition, normal == 0.0)."""
    return _moment_stat(obj, "kurt", axis, skipna, numeric_only, {})


kurtosis = kurt
methods(DataFrame, Series, name="kurtosis")(kurt)


@methods(DataFrame, Series)
def sem(obj, axis=0, skipna=True, ddof=1, numeric_only=False):
    """Standard error of the mean (``ddof`` as in ``std``)."""
    return _moment_stat(obj, "sem", axis, skipna, numeric_only, {"ddof": ddof})


# --- memory_usage --------------------------------------------------------

def user_index(obj):
    """The pandas index the user gave (a frame's, or an Index's own), else None."""
    from .align import _client_index
    from .datasource import FrameData

    node = obj.data
    if not isinstance(obj, Index):
        return _client_index(node)
    if getattr(getattr(node.op, "func", None), "__name__", "") == "_index_of":  # df.index
        return _client_index(node.inputs[0])
    return node.op.data if isinstance(node.op, FrameData) and isinstance(node.op.data, pd.Index) else None


@methods(DataFrame, Series)  # Index's: index_methods.py
def memory_usage(obj, index=True, deep=False):
    """Bytes used per column (DataFrame, with the index first as 'Index'), or in total."""
    meta = obj.data.meta
    if isinstance(obj, Index):
        kw = {"deep": deep, "index": True, "target": "index"}
        return tree_stat(obj, "memory", kw, np.int64(0), "md.memory_usage", raw=True)
    kw = {"deep": deep, "index": index, "target": "frame"}
    client = user_index(obj) if index else None
    if client is not None:  # the user's own index, counted whole (a str index's offsets once)
        kw["client_index"] = int(_index_bytes(client, deep))
    if isinstance(obj, DataFrame):
        return tree_stat(obj, "memory", kw, meta.memory_usage(index=index, deep=deep), "md.memory_usage", raw=True)
    kw["target"] = "total"
    return tree_stat(obj, "memory", kw, np.int64(0), "md.memory_usage", raw=True)
