"""Time selection on a DatetimeIndex: ``between_time``, ``at_time``, ``asof`` and (pandas 2,
which still has them) ``first`` / ``last``.

``between_time`` / ``at_time`` keep each block's matching rows. ``asof`` (on a sorted index)
keeps, per block, the last row with values at or before each ``where`` (and the block's first
row): pandas' ``asof`` on those few rows of all blocks is its answer on the whole, computed
when called. ``first`` / ``last`` find the first / last label (a small fact) and keep the rows
before / after pandas' boundary block by block.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from pandas.api.types import is_list_like
from pandas.tseries.frequencies import to_offset

from .accessors import summarize
from .blockwise import map_chunks
from .core import DataFrame, Series, methods
from .reshape import compute_now
from .unique import monotonic

__all__: list[str] = []


def _call(v, name, args, kwargs):
    return getattr(v, name)(*args, **kwargs)


def _rows_by_time(obj, name, args, kwargs):
    meta = obj.data.meta
    rows = kwargs.get("axis") in (None, 0, "index") or isinstance(obj, Series)
    result_meta = getattr(meta, name)(*args, **kwargs)  # pandas' errors (a DatetimeIndex needed)
    return map_chunks(_call, (obj, name, args, kwargs), keep_rows=not rows, label=f"md.{name}",
                      meta=result_meta)


@methods(DataFrame, Series)
def between_time(obj, start_time, end_time, inclusive="both", axis=None):
    """Rows whose time of day (of a DatetimeIndex) is between ``start_time`` and ``end_time``."""
    return _rows_by_time(obj, "between_time", (start_time, end_time), dict(inclusive=inclusive, axis=axis))


@methods(DataFrame, Series)
def at_time(obj, time, asof=False, axis=None):
    """Rows at the time of day ``time`` (of a DatetimeIndex)."""
    return _rows_by_time(obj, "at_time", (time,), dict(asof=asof, axis=axis))


# --- asof -----------------------------------------------------------------------------------------

def _asof_rows(v, where, subset, *_):
    """The block's first row and, for each of ``where``, its last row with values at or before it."""
    if not len(v):
        return v
    nulls = v.isna() if isinstance(v, pd.Series) else v[subset].isna().any(axis=1)
    present = np.flatnonzero(~nulls.to_numpy())
    locs = v.index[present].searchsorted(where, side="right") - 1
    rows = sorted({0, *present[locs[locs >= 0]].tolist()})
    return v.iloc[rows]


def _asof_whole(parts, where, subset, meta, original):
    rows = pd.concat([meta, *parts]) if parts else meta
    if isinstance(rows, pd.Series):
        return rows.asof(original)
    return rows.asof(original, subset=subset)


@methods(DataFrame, Series)
def asof(obj, where, subset=None):
    """The last row without missing values (in ``subset`` for a DataFrame) at or before each
    ``where`` label, on a sorted index: a value / row for a scalar, a Series / DataFrame by
    ``where`` for a list. Computed when called (the answer holds one row per label)."""
    from .datasource import from_pandas

    meta = obj.data.meta
    if isinstance(obj, Series) and subset is not None:
        raise ValueError("subset is not valid for Series")
    if isinstance(obj, DataFrame):
        subset = list(meta.columns) if subset is None else (subset if is_list_like(subset) else [subset])
        meta[subset]  # pandas' KeyError for a missing column
    if not compute_now(monotonic(obj.index, True), obj):
        raise ValueError("asof requires a sorted index")
    original = where
    labels = pd.Index(where if is_list_like(where) else [pd.Timestamp(where) if isinstance(where, str) else where])
    found = compute_now(summarize(obj, _asof_rows, _asof_whole, (labels, subset, meta, original),
                                  label="md.asof"), obj)
    if isinstance(found, (pd.Series, pd.DataFrame)) and is_list_like(where):
        return from_pandas(found)
    return found


# --- first / last (pandas 2) ----------------------------------------------------------------------

def _before(v, end, inclusive):
    return v[v.index <= end] if inclusive else v[v.index < end]


def _after(v, start):
    return v[v.index > start]


def _edge(parts, last):
    labels = [p for p in parts if p is not None]
    if not labels:
        return None
    return labels[-1] if last else labels[0]


def _edge_label(v, last):
    return (v.index[-1] if last else v.index[0]) if len(v) else None


def _label_in(v, label):
    return bool(label in v)


def _any_of(parts, *_):
    return any(parts)


def _first(obj, offset):
    """Rows of the first ``offset`` of time (pandas 2's ``first``), on a sorted DatetimeIndex."""
    meta = obj.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meta.first(offset)  # pandas' errors (TypeError without a DatetimeIndex)
    warnings.warn("first is deprecated and will be removed in a future version. Please create a mask "
                  "and filter using `.loc` instead", FutureWarning, stacklevel=2)
    start = compute_now(summarize(obj, _edge_label, _edge, (False,), label="md.first"), obj)
    if start is None:
        return obj
    offset = to_offset(offset)
    tick = isinstance(offset, pd.offsets.Tick)
    end = start - offset.base + offset if not tick and offset.is_on_offset(start) else start + offset
    exclusive = tick and compute_now(summarize(obj.index, _label_in, _any_of, (end,), label="md.first"), obj)
    return map_chunks(_before, (obj, end, not exclusive), keep_rows=False, label="md.first", meta=meta)


def _last(obj, offset):
    """Rows of the last ``offset`` of time (pandas 2's ``last``), on a sorted DatetimeIndex."""
    meta = obj.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meta.last(offset)
    warnings.warn("last is deprecated and will be removed in a future version. Please create a mask "
                  "and filter using `.loc` instead", FutureWarning, stacklevel=2)
    end = compute_now(summarize(obj, _edge_label, _edge, (True,), label="md.last"), obj)
    if end is None:
        return obj
    return map_chunks(_after, (obj, end - to_offset(offset)), keep_rows=False, label="md.last", meta=meta)


if hasattr(pd.DataFrame, "first"):  # removed in pandas 3
    methods(DataFrame, Series, name="first")(_first)
    methods(DataFrame, Series, name="last")(_last)
