"""Dtypes decided by the values: ``infer_objects``, ``convert_dtypes`` and ``md.to_timedelta``.

pandas infers a column's dtype from all its values; a block alone may infer another one (only
ints in one block, a float in the next). What decides the inference is the kinds of values
present (their types and time zones, missing values, integral or fractional floats) and the
integer range, so every block keeps the few rows that show each (``_deciding_rows``); pandas'
inference on those rows of all blocks, computed when the method is called, is the whole
column's dtype, and every block is converted and cast to it. A column that stays ``object``
keeps its original values.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd

from .accessors import chunkwise, learn_dtypes, summarize
from .core import DataFrame, Series, methods
from .datetimes import _is_scalar, _lazy_input
from .reshape import compute_now

__all__ = ["to_timedelta"]


def _kind_key(v):
    if isinstance(v, float):
        return float, v != v, v == v and np.isfinite(v) and v.is_integer()
    return type(v), getattr(v, "tzinfo", None) if hasattr(v, "tzinfo") else None


def _deciding_rows(col: pd.Series) -> list[int]:
    """Positions of the rows that decide how pandas infers ``col``'s dtype."""
    if not len(col):
        return []
    keep = {0}
    na = pd.isna(col).to_numpy()
    if na.any():
        keep.add(int(np.argmax(na)))
    values = col.to_numpy()
    if col.dtype == object:
        kinds = pd.Series([_kind_key(v) for v in values], dtype=object)
        keep.update(int(i) for i in np.flatnonzero(~kinds.duplicated().to_numpy()))
        ints = np.flatnonzero([isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values])
        if len(ints):
            keep.update((int(ints[np.argmin(values[ints])]), int(ints[np.argmax(values[ints])])))
    elif values.dtype.kind in "iuf":
        present = np.flatnonzero(~na)
        if len(present):
            keep.update((int(present[np.argmin(values[present])]), int(present[np.argmax(values[present])])))
            if values.dtype.kind == "f":
                fractional = present[values[present] != np.round(values[present])]
                keep.update(int(i) for i in fractional[:1])
    return sorted(keep)


def _deciding_part(block, *_):
    if isinstance(block, pd.Series):
        return block.iloc[_deciding_rows(block)]
    rows = sorted({i for j in range(block.shape[1]) for i in _deciding_rows(block.iloc[:, j])})
    return block.iloc[rows]


def _whole_dtypes(parts, method, kwargs, meta):
    sample = pd.concat([meta, *parts]) if parts else meta
    with warnings.catch_warnings():  # pandas' deprecations showed once, when called
        warnings.simplefilter("ignore")
        res = getattr(sample, method)(**kwargs)
    return [res.dtype] if isinstance(res, pd.Series) else list(res.dtypes)


def _converted(block, method, kwargs, dtypes):
    out = getattr(block, method)(**kwargs)
    if isinstance(block, pd.Series):
        if dtypes[0] == object:
            return block
        return out if out.dtype == dtypes[0] else out.astype(dtypes[0])
    out = out.copy(deep=False) if out is block else out
    for i, dtype in enumerate(dtypes):
        if dtype == object:
            out.isetitem(i, block.iloc[:, i])
        elif out.dtypes.iloc[i] != dtype:
            out.isetitem(i, out.iloc[:, i].astype(dtype))
    return out


def _inferred(obj, method, kwargs):
    meta = obj.data.meta
    getattr(meta, method)(**kwargs)  # pandas' errors for the options
    label = f"md.{method}"
    dtypes = compute_now(summarize(obj, _deciding_part, _whole_dtypes, (method, kwargs, meta), label=label), obj)
    out_meta = _converted(meta, "copy", {}, dtypes)
    return chunkwise(_converted, (obj, method, kwargs, dtypes), out_meta, label=label)


@methods(DataFrame, Series)
def infer_objects(obj, copy=None):
    """Object columns converted to the dtype pandas infers from all their values."""
    return _inferred(obj, "infer_objects", {})


@methods(DataFrame, Series)
def convert_dtypes(obj, *args, **kwargs):
    """Columns converted to the best dtypes supporting ``pd.NA``, as pandas decides from all
    the values of each column (pandas' options; only those given are passed on, so pandas'
    deprecation warnings show as they would)."""
    method = getattr(type(obj.data.meta), "convert_dtypes")
    given = inspect.signature(method).bind(obj.data.meta, *args, **kwargs).arguments
    given.pop("self")
    return _inferred(obj, "convert_dtypes", dict(given))


# --- to_timedelta -------------------------------------------------------------------------------

def _timedelta_kernel(chunk, kw, kind, dtype=None):
    if kind == "index-values":
        res = pd.to_timedelta(pd.Index(chunk, name=chunk.name), **kw)
    elif kind == "array":
        res = pd.to_timedelta(chunk.to_numpy(), **kw)
    else:
        res = pd.to_timedelta(chunk, **kw)
    return res if dtype is None or res.dtype == dtype else res.astype(dtype)


def to_timedelta(arg, unit=None, errors="raise"):
    """Convert to timedeltas as ``pd.to_timedelta``: lazily for Series / Index / lists,
    directly for scalars. The resolution (pandas 3 infers it from the values) is learned from
    the whole data."""
    kw = dict(unit=unit, errors=errors)
    if _is_scalar(arg):
        return pd.to_timedelta(arg, **kw)
    obj, kind = _lazy_input(arg)
    if kind == "frame":
        raise TypeError("arg must be a string, timedelta, list, tuple, 1-d array, or Series")
    meta = obj.data.meta
    result = _timedelta_kernel(meta, kw, kind)  # pandas' errors, at build time
    raw = chunkwise(_timedelta_kernel, (obj, kw, kind), result, label="md.to_timedelta")
    dtype = learn_dtypes(raw, "md.to_timedelta")
    if dtype != result.dtype:
        result = result.astype(dtype)
    return chunkwise(_timedelta_kernel, (obj, kw, kind, dtype), result, label="md.to_timedelta")
