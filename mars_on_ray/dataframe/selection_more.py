"""More selection: ``filter``, ``get``, ``pipe``, ``squeeze``, ``truncate``, ``Series.repeat``,
``argsort`` and ``searchsorted``.

Column selections are decided from the metadata and run block by block. Row selections by
label pattern (``like``, ``regex``) keep each block's matching rows; ``filter(items=)`` on the
rows is pandas' ``reindex`` to the items the index holds (found with a small per-block fact).
``argsort`` is the distributed stable sort of (value, position) pairs; ``searchsorted`` on a
sorted Series sums each block's own ``searchsorted`` (a block's rows are a sorted run).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.core import common as pd_common

from .accessors import summarize
from .blockwise import map_chunks
from .align import concat
from .conversion import n_rows
from .core import DataFrame, Series, _Frame, methods
from .frame_index import by_position
from .positional import PANDAS3
from .reshape import compute_now
from .unique import monotonic

__all__: list[str] = []


# --- filter / get / pipe / squeeze ----------------------------------------------------------------

def _items_found(v, items, labels):
    return pd.Index(items).intersection(v.index)


def _found_in_order(parts, items, labels):
    found = pd.Index(items).intersection(labels.append(list(parts)) if parts else labels)
    return found if len(found) else found.astype(labels.dtype)  # pandas keeps the labels' dtype


@methods(DataFrame, Series)
def filter(obj, items=None, like=None, regex=None, axis=None):  # noqa: A001 (pandas' name)
    """Labels of ``axis`` (columns of a DataFrame, the index of a Series by default) in
    ``items``, containing ``like`` or matching ``regex``."""
    meta = obj.data.meta
    result_meta = meta.filter(items=items, like=like, regex=regex, axis=axis)  # pandas' errors
    rows = axis is None and isinstance(obj, Series) or axis is not None and meta._get_axis_number(axis) == 0
    if not rows:
        return map_chunks(_filter, (obj, items, like, regex, axis), label="md.filter", meta=result_meta)
    if items is None:
        return map_chunks(_filter, (obj, None, like, regex, axis), keep_rows=False, label="md.filter",
                          meta=result_meta)
    items = list(items)
    found = compute_now(summarize(obj, _items_found, _found_in_order, (items, meta.index), label="md.filter"), obj)
    if not obj.index.is_unique:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    return obj.loc[found]  # every label is there: pandas' reindex keeps the dtypes


def _filter(v, items, like, regex, axis):
    return v.filter(items=items, like=like, regex=regex, axis=axis)


@methods(DataFrame, Series)
def get(obj, key, default=None):
    """``obj[key]`` (a column of a DataFrame, a label's value of a Series), or ``default`` when
    missing; a Series' labels are looked up now."""
    if isinstance(obj, DataFrame):
        try:
            obj.data.meta[key]
        except (KeyError, ValueError, IndexError):
            return default
        return obj[key]
    try:
        return compute_now(obj.loc[key] if _is_label(obj, key) else obj[key], obj)
    except (KeyError, ValueError, IndexError):
        return default


def _is_label(obj, key) -> bool:
    return not isinstance(key, (list, slice, np.ndarray, _Frame))


@methods(DataFrame, Series)
def pipe(obj, func, *args, **kwargs):
    """``func(obj, *args, **kwargs)``; ``func`` may be ``(callable, data_keyword)``."""
    return pd_common.pipe(obj, func, *args, **kwargs)


@methods(DataFrame, Series)
def squeeze(obj, axis=None):
    """Axes of length 1 dropped: a one-column frame becomes a Series, a one-row object its row
    or value. The number of rows is counted now when it is still unknown."""
    meta = obj.data.meta
    axes = range(meta.ndim) if axis is None else (meta._get_axis_number(axis),)
    cols = isinstance(obj, DataFrame) and 1 in axes and len(meta.columns) == 1
    rows = 0 in axes and n_rows(obj) == 1
    if cols and rows:
        return compute_now(obj.iloc[:, 0], obj).iloc[0]
    if cols:
        return obj.iloc[:, 0]
    if rows:
        row = compute_now(obj, obj).iloc[0]  # one row: small; pandas names it by its label
        return Series(row) if isinstance(obj, DataFrame) else row
    return obj


# --- truncate -------------------------------------------------------------------------------------

@methods(DataFrame, Series)
def truncate(obj, before=None, after=None, axis=None, copy=None):
    """Rows (or columns) with labels from ``before`` to ``after``, on a sorted axis."""
    meta = obj.data.meta
    axis = 0 if axis is None else meta._get_axis_number(axis)
    if axis == 1:
        columns = meta.truncate(before=before, after=after, axis=1).columns
        return obj[list(columns)] if columns.is_unique else obj.iloc[:, meta.columns.get_indexer_for(columns)]
    increasing = compute_now(monotonic(obj.index, True), obj)
    decreasing = compute_now(monotonic(obj.index, False), obj)
    if not (increasing or decreasing):
        raise ValueError("truncate requires a sorted index")
    if isinstance(meta.index, pd.DatetimeIndex):
        before = None if before is None else pd.to_datetime(before)
        after = None if after is None else pd.to_datetime(after)
    if before is not None and after is not None and before > after:
        raise ValueError(f"Truncate: {after} must be after {before}")
    if decreasing and not increasing:  # not constant: pandas' bounds go the other way
        before, after = after, before
    return obj.loc[before:after]


# --- repeat ---------------------------------------------------------------------------------------

def _repeat(v, repeats):
    return v.repeat(repeats)


def _repeat_by(v, r):
    return v.repeat(r.to_numpy())


@methods(Series)
def repeat(obj, repeats, axis=None):
    """Every value repeated ``repeats`` times (an int, or one count per value)."""
    meta = obj.data.meta
    meta.repeat(0, axis=axis)  # pandas' errors for axis
    if np.ndim(repeats) == 0 and not isinstance(repeats, _Frame):
        if repeats < 0:
            raise ValueError("negative dimensions are not allowed")
        return map_chunks(_repeat, (obj, int(repeats)), keep_rows=False, label="md.repeat", meta=meta)
    counts = repeats if isinstance(repeats, Series) else Series(np.asarray(repeats, dtype=np.int64))
    if n_rows(counts) != n_rows(obj):
        raise ValueError(f"operands could not be broadcast together with shape ({n_rows(obj)},) "
                         f"({n_rows(counts)},)")
    return map_chunks(_repeat_by, (obj, counts), keep_rows=False, label="md.repeat", meta=meta)


# --- argsort / searchsorted -----------------------------------------------------------------------

def _with_positions(v, start):
    return pd.DataFrame({"v": v.to_numpy(), "p": np.arange(start, start + len(v), dtype=np.int64)})


@methods(Series)
def argsort(obj, axis=0, kind="quicksort", order=None, stable=None):
    """The positions that sort the values. The sort is always stable (equal values keep their
    order): pandas' equal to ``kind='stable'``; its default quicksort may order ties otherwise.

    pandas 3 puts missing values last; pandas 2 gives them -1 and sorts the other values among
    themselves."""
    meta = obj.data.meta
    meta._get_axis_number(axis)
    pairs = by_position(obj, _with_positions, (), pd.DataFrame({"v": meta.to_numpy(), "p": np.array([], dtype=np.int64)}),
                        "md.argsort")
    if PANDAS3:
        ordered = pairs.sort_values("v", kind="stable")["p"]
        return ordered.set_axis(obj.index).rename(meta.name)
    present, absent = pairs[pairs["v"].notna()], pairs[pairs["v"].isna()]
    ranks = by_position(present["v"], _with_positions, (),
                        pd.DataFrame({"v": meta.to_numpy(), "p": np.array([], dtype=np.int64)}), "md.argsort")
    ordered = ranks.sort_values("v", kind="stable")["p"].set_axis(present["p"])  # by global position
    missing = map_chunks(_minus_one, (absent["p"],), meta=pd.Series([], dtype=np.int64, index=pd.Index([], dtype=np.int64)))
    full = concat([ordered, missing]).sort_index(kind="stable")
    return full.set_axis(obj.index).rename(meta.name)


def _minus_one(positions):
    return pd.Series(-1, index=positions.to_numpy(), dtype=np.int64)


def _block_search(v, value, side):
    return np.asarray(v.searchsorted(value, side=side), dtype=np.intp)


def _summed(parts, *_):
    return np.sum(parts, axis=0, dtype=np.intp)


@methods(Series)
def searchsorted(obj, value, side="left", sorter=None):
    """Positions at which ``value`` (a scalar or a list) would be inserted to keep the sorted
    Series sorted: each block's count of values before it, summed (computed now)."""
    if sorter is not None:
        raise NotImplementedError("searchsorted(sorter=) is not supported: sort the Series first")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    obj.data.meta.searchsorted(value, side=side)  # pandas' errors for the value's type
    found = compute_now(summarize(obj, _block_search, _summed, (value, side), label="md.searchsorted"), obj)
    return found[()] if np.ndim(value) == 0 else found

