"""``resample`` and ``asfreq`` on a DatetimeIndex.

The bins run from the first timestamp's bin to the last one's, so the first and last
timestamps are computed when an aggregation is called (a small reduction); pandas' own
``TimeGrouper`` turns them into the bin edges and labels. Every row then gets its bin's
number block by block, the groupby machinery aggregates per bin (partials per chunk,
combined per bin: the rows of one bin may sit in several chunks), and the bins that hold no
row are added by a reindex on the bin numbers (0 for sum / count / size, NaN otherwise), as
pandas shows them. ``first`` / ``last`` / ``ohlc`` follow time order: pandas sorts the rows
by time (stable) before binning, so the rows are sorted first.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from pandas.core.dtypes.cast import maybe_promote
from pandas.core.resample import TimeGrouper
from pandas.tseries.frequencies import to_offset

from .accessors import summarize
from .blockwise import map_chunks
from .core import DataFrame, Series, methods
from .datasource import from_pandas
from .reshape import compute_now

__all__: list[str] = []

_BIN = "__mars_resample_bin__"
_VALUE = "__mars_resample_value__"
#: aggregations whose empty bins pandas shows as 0 (the others: NaN)
_ZERO = ("sum", "count", "size")
_ORDERED = ("first", "last", "ohlc")
_OHLC = {"first": "open", "max": "high", "min": "low", "last": "close"}


def _span(chunk):
    missing = chunk.index.isna()
    index = chunk.index[~missing]
    return (index.min(), index.max(), bool(missing.any())) if len(index) else (None, None, bool(len(chunk)))


def _whole_span(parts):
    found = [p for p in parts if p[0] is not None]
    if not found:
        return None
    return min(p[0] for p in found), max(p[1] for p in found), any(p[2] for p in parts)


def _bins(index_meta, kwargs, first, last, missing):
    """pandas' bin edges (int64, the index's unit) and labels for data from first to last
    (labels without a freq when timestamps are missing, as pandas')."""
    with warnings.catch_warnings():  # a deprecated rule warned once, on the user's call
        warnings.simplefilter("ignore", FutureWarning)
        grouper = TimeGrouper(**kwargs)
    ax = pd.DatetimeIndex([first, last], dtype=index_meta.dtype)
    binner, bins, labels = grouper._get_time_bins(ax)
    _, edges = grouper._adjust_bin_edges(binner, ax.asi8)
    labels = pd.DatetimeIndex(labels, freq=None) if missing else labels
    return np.asarray(edges, dtype=np.int64), labels.rename(index_meta.name), grouper.closed


def _with_bins(chunk, edges, closed):
    """The chunk as a frame (a Series' values as one column) with each row's bin number;
    rows without a timestamp are in no bin (pandas leaves them out)."""
    frame = chunk.to_frame(_VALUE) if isinstance(chunk, pd.Series) else chunk
    ts = chunk.index.asi8
    codes = np.searchsorted(edges, ts, side="right" if closed == "left" else "left") - 1
    keep = ~np.asarray(chunk.index.isna())
    return frame[keep].assign(**{_BIN: codes[keep]})


def _used_bins(frame):
    return np.unique(frame[_BIN].to_numpy())


def _count_used(parts):
    return len(np.unique(np.concatenate(parts))) if parts else 0


def _finish(chunk, labels, zero, dtypes, name):
    """Empty bins filled as pandas fills them, pandas' dtypes, the bins' labels (a slice
    of them where the bins are consecutive, so the index keeps its freq)."""
    if isinstance(chunk, pd.DataFrame):
        chunk = chunk.copy()
        for i, col in enumerate(chunk.columns):
            if zero[i]:
                chunk.isetitem(i, chunk.iloc[:, i].fillna(0))
        chunk = chunk.astype(dict(zip(chunk.columns, dtypes)))
    else:
        chunk = (chunk.fillna(0) if zero[0] else chunk).astype(dtypes[0]).rename(name)
    codes = np.asarray(chunk.index, dtype=np.int64)
    if len(codes) and (np.diff(codes) == 1).all():
        chunk.index = labels[codes[0]:codes[0] + len(codes)]
    else:
        chunk.index = labels.take(codes)
    return chunk


class Resampler:
    """``obj.resample(rule, ...)``: aggregations per time bin."""

    def __init__(self, obj, kwargs, selection=None):
        self._obj, self._kwargs, self._selection = obj, kwargs, selection

    def __getitem__(self, key):
        if not isinstance(self._obj, DataFrame):
            raise TypeError("a Series resampler takes no column selection")
        self._pandas()[key]  # pandas' KeyError
        return Resampler(self._obj, self._kwargs, key)

    def __getattr__(self, name):  # ``r.col`` is ``r["col"]``, as pandas allows
        if (not name.startswith("_") and self._selection is None and isinstance(self._obj, DataFrame)
                and name in self._obj.data.meta.columns):
            return self[name]
        raise AttributeError(f"'Resampler' object has no attribute '{name}'")

    def _pandas(self):
        kwargs = dict(self._kwargs)
        res = self._obj.data.meta.resample(kwargs.pop("freq"), **kwargs)
        return res if self._selection is None else res[self._selection]

    def _data(self):
        if self._selection is None:
            return self._obj
        return self._obj[self._selection]

    def _aggregate(self, func, label, **kwargs):
        obj = self._data()
        meta = obj.data.meta
        pmeta = getattr(self._pandas(), func)(**kwargs) if isinstance(func, str) \
            else self._pandas().agg(func)  # pandas' errors, and the empty answer
        span = compute_now(summarize(obj, _span, _whole_span, label=label), obj)
        if span is None:  # no timestamp: pandas' answer on the empty data
            return from_pandas(pmeta)
        edges, labels, closed = _bins(meta.index, self._kwargs, *span)
        hows = [func] if isinstance(func, str) else _hows(func)
        if any(h in _ORDERED for h in hows):
            obj = obj.sort_index(kind="stable")
        binned = map_chunks(_with_bins, (obj, edges, closed), keep_rows=False, label=label)
        used = compute_now(summarize(binned, _used_bins, _count_used, label=label), binned)
        grouped = _grouped(binned.groupby(_BIN), meta, func, kwargs)
        gmeta = grouped.data.meta
        cols = list(gmeta.columns) if isinstance(gmeta, pd.DataFrame) else [gmeta.name]
        zero = [_how_of(c, func) in _ZERO for c in cols]
        gdtypes = list(gmeta.dtypes) if isinstance(gmeta, pd.DataFrame) else [gmeta.dtype]
        dtypes = gdtypes
        if used < len(labels):  # empty bins
            grouped = grouped.reindex(pd.RangeIndex(len(labels)))
            dtypes = [d if z or not isinstance(d, np.dtype) else maybe_promote(d, np.nan)[0]
                      for d, z in zip(gdtypes, zero)]
        name = meta.name if isinstance(meta, pd.Series) else None
        out_meta = _finish(gmeta.iloc[:0], labels[:0], zero, dtypes, name)
        return map_chunks(_finish, (grouped, labels, zero, dtypes, name), label=label, meta=out_meta)

    def agg(self, func):
        """Aggregate each bin with a name, a list of names or a column -> name(s) dict."""
        if isinstance(func, str):
            return getattr(self, func)()
        return self._aggregate(func, "md.resample.agg")

    aggregate = agg

    def size(self):
        """The number of rows in each bin (0 for an empty one)."""
        return self._aggregate("size", "md.resample.size")

    def ohlc(self):
        """Open, high, low and close of each bin."""
        return self._aggregate("ohlc", "md.resample.ohlc")

    def std(self, ddof=1):
        """The standard deviation of each bin."""
        return self._aggregate("std", "md.resample.std", ddof=ddof)

    def var(self, ddof=1):
        """The variance of each bin."""
        return self._aggregate("var", "md.resample.var", ddof=ddof)


def _hows(func) -> list:
    values = func.values() if isinstance(func, dict) else [func]
    flat = []
    for v in values:
        flat.extend(v if isinstance(v, (list, tuple)) else [v])
    if not all(isinstance(h, str) for h in flat) or "ohlc" in flat:
        raise NotImplementedError("resample().agg takes aggregation names (ohlc by .ohlc())")
    return flat


def _how_of(col, func):
    if isinstance(func, str):
        return func
    if isinstance(col, tuple):
        return col[-1]
    if isinstance(func, dict):
        return func[col] if isinstance(func[col], str) else col
    return col  # a Series' list: one column per function


def _grouped(gb, meta, func, kwargs):
    if func == "size":
        return gb.size()
    sel = gb[_VALUE] if isinstance(meta, pd.Series) else gb[list(meta.columns)]
    if func == "ohlc":
        parts = sel.agg(list(_OHLC))
        return _ohlc_names(parts, isinstance(meta, pd.Series))
    if isinstance(func, str):
        return getattr(sel, func)(**kwargs)
    return sel.agg(func)


def _ohlc_names(frame, series: bool):
    cols = frame.data.meta.columns
    names = [_OHLC[c] for c in cols] if series else \
        pd.MultiIndex.from_tuples([(c, _OHLC[h]) for c, h in cols])
    return map_chunks(_set_columns, (frame, names), label="md.resample.ohlc")


def _set_columns(frame, names):
    return frame.set_axis(names, axis=1)


def _method(how):
    def method(self):
        return self._aggregate(how, f"md.resample.{how}")

    method.__name__ = how
    method.__doc__ = f"The {how} of each bin ({'0' if how in _ZERO else 'NaN'} for an empty one)."
    return method


for _how in ("sum", "mean", "count", "min", "max", "first", "last"):
    setattr(Resampler, _how, _method(_how))


@methods(DataFrame, Series)
def resample(obj, rule, closed=None, label=None, convention=None, on=None, level=None,
             origin="start_day", offset=None, group_keys=False):
    """Group rows into time bins of a DatetimeIndex (``rule``: "5D", "h", "ME", ...)."""
    if on is not None and level is None and isinstance(obj, DataFrame):  # bins of a column
        obj.data.meta.resample(rule, on=on, closed=closed, label=label, origin=origin, offset=offset)
        return resample(obj.set_index(on), rule, closed, label, convention, None, None, origin,
                        offset, group_keys)
    if level is not None:  # bins of an index level: that level as the index
        obj.data.meta.resample(rule, on=on, level=level, closed=closed, label=label, origin=origin,
                               offset=offset)  # pandas' errors
        keyed = map_chunks(_level_as_index, (obj, level), label="md.resample")
        return resample(keyed, rule, closed, label, convention, None, None, origin, offset, group_keys)
    kwargs = {"freq": rule, "closed": closed, "label": label, "origin": origin, "offset": offset}
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    obj.data.meta.resample(rule, closed=closed, label=label, origin=origin, offset=offset)  # pandas' errors
    if not isinstance(obj.data.meta.index, pd.DatetimeIndex):
        raise NotImplementedError("resample is supported on a DatetimeIndex")
    return Resampler(obj, kwargs)


def _level_as_index(chunk, level):
    return chunk.set_axis(chunk.index.get_level_values(level))


@methods(DataFrame, Series)
def asfreq(obj, freq, method=None, how=None, normalize=False, fill_value=None):
    """``obj`` on a regular DatetimeIndex from its first to its last timestamp (labels it
    lacks hold ``fill_value`` / NaN; repeated timestamps raise pandas' ValueError)."""
    meta = obj.data.meta
    meta.asfreq(freq, method=method, how=how, normalize=normalize, fill_value=fill_value)  # pandas' errors
    if not isinstance(meta.index, pd.DatetimeIndex):
        raise NotImplementedError("asfreq is supported on a DatetimeIndex")
    if normalize or how is not None:
        raise NotImplementedError("asfreq(normalize=/how=) is not supported")
    span = compute_now(summarize(obj, _span, _whole_span, label="md.asfreq"), obj)
    if span is None:  # pandas keeps the (empty) index, with the freq
        return map_chunks(_with_freq, (obj, to_offset(freq)), label="md.asfreq")
    labels = pd.date_range(span[0], span[1], freq=freq, name=meta.index.name, unit=meta.index.unit)
    res = obj.reindex(labels, method=method, fill_value=fill_value)
    return map_chunks(_with_freq, (res, labels.freq), label="md.asfreq")


def _with_freq(chunk, freq):
    """The index's freq again (each block holds consecutive labels of the regular range)."""
    chunk = chunk.copy(deep=False)
    chunk.index = pd.DatetimeIndex(chunk.index, freq=freq)
    return chunk
