"""GroupBy methods pandas users expect beyond aggregations: quantile, idxmax / idxmin,
describe, ohlc, nth, ngroup, filter, pipe, and ``.rolling`` / ``.expanding`` windows.

Methods that need whole groups (quantile, describe, windows) are pandas' own method run on
whole groups after the rows are shuffled by key (``GroupByApply`` with ``calls``), one result
chunk per key range. idxmax / idxmin (``GroupByIdx``) and ohlc (first, max, min, last)
combine per-chunk partials on ``GroupByAgg``'s tree or shuffle. nth and filter pick rows of
whole groups and send them back to their chunks, in their original order (``GroupByRows``).
ngroup numbers the groups of ``size()`` by position and joins the rows to them on the keys.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from .blockwise import map_chunks
from .core import new_frame
from .groupby import GroupBy, GroupByAgg, GroupByApply, _aggregated_columns, _concat, _conform, _Meta
from .groupby_more import PANDAS3, _rowwise, _sampled, keys_missing
from .rules.usage import uses

__all__: list[str] = []


def _selection(gb):
    if isinstance(gb.obj.data.meta, pd.Series):
        return gb.frame.data.meta.columns[0]
    return gb.selection


def _call(obj, calls):
    for name, args, kwargs in calls:
        obj = getattr(obj, name)(*args, **dict(kwargs))
    return obj


def _on_groups(gb, calls, label, sampled=True):
    """pandas' ``calls`` (method, args, kwargs) in turn on whole groups: rows shuffled by key,
    results in pandas' group order, one chunk per key range. The metadata is pandas' result
    on a one-row sample (``sampled``: dtypes that empty input hides), else on no rows."""
    calls = tuple((name, tuple(args), tuple(kwargs.items())) for name, args, kwargs in calls)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        meta = _call(gb._pandas(), calls)  # pandas' errors at build time
        if sampled:
            meta = _call(_sampled(gb), calls).iloc[:0]
    op = GroupByApply(by=tuple(gb.keys), sort=gb.sort, dropna=gb.dropna, observed=gb.observed,
                      selection=_selection(gb), func=None, func_kwargs={}, size=False,
                      as_index=gb.as_index, index_names=gb.index_names, result_meta=_Meta(meta),
                      calls=calls, label=label)
    return new_frame(op, [gb.frame], math.nan, meta)


def quantile(self, q=0.5, interpolation="linear", numeric_only=False):
    """Per-group quantile(s) ``q``, exact (pandas on whole groups)."""
    kwargs = {"q": list(q) if isinstance(q, (list, tuple)) else q, "interpolation": interpolation,
              "numeric_only": numeric_only}
    return _on_groups(self, [("quantile", (), kwargs)], "md.groupby.quantile")


def idxmax(self, axis=None, skipna=True, numeric_only=False):
    """Label of each group's first maximum, per column."""
    return _idx(self, "idxmax", axis, skipna, numeric_only)


def idxmin(self, axis=None, skipna=True, numeric_only=False):
    """Label of each group's first minimum, per column."""
    return _idx(self, "idxmin", axis, skipna, numeric_only)


def _idx(gb, how, axis, skipna, numeric_only):
    if axis not in (None, 0, "index"):
        raise NotImplementedError(f"groupby {how} with axis={axis!r}")
    kwargs = {"skipna": skipna}
    if not isinstance(gb.obj.data.meta, pd.Series) and (gb.selection is None or isinstance(gb.selection, list)):
        kwargs["numeric_only"] = numeric_only  # a frame's groups
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        meta = getattr(gb._pandas(), how)(**kwargs)  # labels: the empty result has their dtype
    names = [meta.name] if isinstance(meta, pd.Series) else list(meta.columns)
    cols = [c for c in _value_columns(gb) if c in names]
    partials = tuple((c, part) for c in cols for part in ("best", "at", "label", "nan"))
    partials += ((None, "order"),) if not gb.sort else ()
    op = GroupByIdx(by=tuple(gb.keys), sort=gb.sort, dropna=gb.dropna, observed=gb.observed,
                    partials=partials, outputs=(how, skipna), as_index=gb.as_index,
                    index_names=gb.index_names, result_meta=_Meta(meta), label=f"md.groupby.{how}")
    return new_frame(op, [gb.frame], math.nan, meta)


def _value_columns(gb) -> list:
    if isinstance(gb.obj.data.meta, pd.Series):
        return [gb.frame.data.meta.columns[0]]
    if gb.selection is None:
        return [c for c in gb.frame.data.meta.columns if c not in gb.keys]
    return gb.selection if isinstance(gb.selection, list) else [gb.selection]


class GroupByIdx(GroupByAgg):
    """idxmax / idxmin (``outputs``: (how, skipna)) from per-chunk partials: per group and
    column the best value, its global position (ties: the first), its label and whether a
    value was missing; combined by the best value, then the position."""

    def _partial(self, frame):
        how, _ = self.outputs
        flat = frame.reset_index(drop=True)
        extra = {"sort": self.sort, "dropna": self.dropna}
        if self.observed is not None:
            extra["observed"] = self.observed
        g = flat.groupby(list(self.by), **extra)
        sizes = g.size()
        cols = {}
        for i, (c, part) in enumerate(self.partials):
            if part == "best":
                picked = flat[c].dropna().groupby([flat[b] for b in self.by], **extra).agg(how)
                at = picked.reindex(sizes.index).to_numpy()
                found = ~pd.isna(at)
                pos = np.where(found, at, 0).astype(np.int64)
                cols[f"p{i}"] = flat[c].iloc[pos].reset_index(drop=True).where(found).to_numpy()
                cols[f"p{i + 1}"] = np.where(found, pos + self.order_base, -1)
                cols[f"p{i + 2}"] = pd.Series(frame.index[pos], dtype=object).where(found).to_numpy()
            elif part == "nan":
                cols[f"p{i}"] = (g[c].count() < sizes).to_numpy()
            elif part == "order":
                cols[f"p{i}"] = np.arange(len(sizes), dtype=np.int64) + self.order_base
        return pd.DataFrame(cols, index=sizes.index)[[f"p{i}" for i in range(len(self.partials))]]

    def _combine(self, parts):
        cat = _concat(parts)
        how, _ = self.outputs
        keys = cat.index.unique()
        out = {}
        for i, (_, part) in enumerate(self.partials):
            if part == "best":  # the best value, then the first position
                best = cat.iloc[:, i:i + 3].sort_values([f"p{i}", f"p{i + 1}"], ascending=[how == "idxmin", True],
                                                         na_position="last", kind="stable")
                best = best[~best.index.duplicated()].reindex(keys)
                for j in range(3):
                    out[f"p{i + j}"] = best.iloc[:, j]
            elif part in ("nan", "order"):
                column = cat[f"p{i}"].groupby(level=list(range(cat.index.nlevels)), sort=False, dropna=False)
                out[f"p{i}"] = (column.max() if part == "nan" else column.min()).reindex(keys)
        res = pd.DataFrame(out, index=keys)[[f"p{i}" for i in range(len(self.partials))]]
        return res.sort_index(kind="stable") if self.sort else res

    def _finish(self, comb):
        if any(part == "order" for _, part in self.partials):
            comb = comb.sort_values(f"p{len(self.partials) - 1}", kind="stable")
        how, skipna = self.outputs
        data = {}
        for i, (c, part) in enumerate(self.partials):
            if part != "best":
                continue
            labels, missing = comb[f"p{i + 2}"], comb[f"p{i + 3}"].astype(bool)
            bad = labels.isna() if skipna else missing | labels.isna()
            if bad.any():
                if PANDAS3:
                    raise ValueError(f"{how} with skipna=True encountered all NA values in a group."
                                     if skipna else f"{how} with skipna=False encountered an NA value.")
                labels = labels.where(~bad)  # pandas 2.2: NaN (and a FutureWarning)
            data[len(data)] = labels
        res = pd.DataFrame(data, index=comb.index)
        return _conform(res, self.result_meta.value, self.as_index, self.index_names)


uses(GroupByIdx)(_aggregated_columns)  # the keys and the value columns, as an aggregation


def describe(self, percentiles=None, include=None, exclude=None):
    """Per-group summary statistics (count, mean, std, min, percentiles, max)."""
    kwargs = {"percentiles": percentiles, "include": include, "exclude": exclude}
    return _on_groups(self, [("describe", (), kwargs)], "md.groupby.describe")


def ohlc(self):
    """Per-group open, high, low and close (first, max, min, last non-missing value), from
    per-chunk partials."""
    meta = self._pandas().ohlc()  # pandas' errors (non-numeric values)
    meta = _sampled(self).ohlc().iloc[:0]
    pairs = [(c, how) for c in _value_columns(self) for how in ("first", "max", "min", "last")]
    gb = self
    if not self.as_index and len(meta.columns) == len(pairs):  # pandas 2.2 keeps the keys as index
        gb = GroupBy(self.obj, self.by, True, self.sort, self.dropna, self.observed, self.selection,
                     self.group_keys, self.level)
    return gb._build(pairs, meta, "md.groupby.ohlc")


def nth(self, n, dropna=None):
    """The rows at positions ``n`` (an int, list or slice; negative from the end) of each
    group, in their original order with their own labels (pandas >= 2: a filter)."""
    kwargs = {} if dropna is None else {"dropna": dropna}
    return _rowwise(self, "nth", (n,), kwargs)


def filter(self, func, dropna=True, *args, **kwargs):
    """The rows of the groups for which ``func(group)`` is True, in their original order
    (``dropna=False``: every row, the others' values missing)."""
    if dropna:
        return _rowwise(self, "filter", (func, *args), {"dropna": dropna, **kwargs})
    _rowwise(self, "filter", (func, *args), {"dropna": dropna, **kwargs})  # pandas' errors
    kept, dropped = (_rowwise(self, "filter", (_Always(flag),), {"dropna": False}).data.meta
                     for flag in (True, False))
    meta = kept
    if not _same_dtypes(kept, dropped):  # pandas' dtypes: promoted when a row is not kept
        from .conversion import n_rows

        meta = kept if n_rows(filter(self, func, True, *args, **kwargs)) == n_rows(self.obj) else dropped
    return _rowwise(self, "filter", (func, *args), {"dropna": dropna, **kwargs}, meta=meta)


class _Always:
    """A filter function keeping every group (or none): the two dtypes ``filter`` may give."""

    def __init__(self, flag):
        self.flag = flag

    def __call__(self, group, *args, **kwargs):
        return self.flag


def _same_dtypes(a, b) -> bool:
    if isinstance(a, pd.Series):
        return a.dtype == b.dtype
    return list(a.dtypes) == list(b.dtypes)


def pipe(self, func, *args, **kwargs):
    """``func(self, *args, **kwargs)``; ``func`` may be ``(callable, keyword)`` to pass the
    groupby as that keyword."""
    if isinstance(func, tuple):
        func, target = func
        if target in kwargs:
            raise ValueError(f"{target} is both the pipe target and a keyword argument")
        kwargs[target] = self
        return func(*args, **kwargs)
    return func(self, *args, **kwargs)


def ngroup(self, ascending=True):
    """Number of each row's group (0 to ngroups - 1, in pandas' group order), in the rows'
    order: the groups of ``size()`` numbered by their position, joined to the rows by key."""
    meta = self._pandas().ngroup(ascending)
    from .groupby import groupby
    keys = list(self.keys)
    sizes = groupby(self.frame, keys, sort=self.sort, dropna=self.dropna, observed=self.observed).size()
    if not ascending:
        sizes = sizes.iloc[::-1]
    table = sizes.to_frame(_NUMBER).reset_index().reset_index()  # positions as the first column
    number = table.set_index(keys)[table.data.meta.columns[0]].rename(_NUMBER)
    numbers = self.frame[keys].join(number, on=keys)[_NUMBER].rename(meta.name)
    if keys_missing(self):  # rows whose keys have no group: NaN, pandas' float64
        meta = meta.astype(np.float64)
    return map_chunks(_as_dtype, (numbers, meta.dtype), meta=meta, label="md.groupby.ngroup")


def _as_dtype(numbers: pd.Series, dtype) -> pd.Series:
    return numbers.astype(dtype)


_NUMBER = "__mars_ngroup__"


class GroupByWindow:
    """``groupby(...).rolling(...)`` / ``.expanding(...)``: aggregations over each group's
    rows, indexed by the group keys then the rows' labels, in group order."""

    def __init__(self, gb, kind, args, kwargs):
        self.gb, self.kind, self.args, self.kwargs = gb, kind, tuple(args), dict(kwargs)
        getattr(gb._pandas(), kind)(*args, **kwargs)  # pandas' errors (bad window, ...)

    def agg(self, how, *args, **kwargs):
        """Aggregate each window with ``how`` (a name)."""
        if not isinstance(how, str):
            raise NotImplementedError("groupby window aggregations by name only")
        calls = [(self.kind, self.args, self.kwargs), (how, args, kwargs)]
        gb, label = self.gb, f"md.groupby.{self.kind}.{how}"
        if gb.as_index:  # the rows' labels are in the result: the empty result has their dtype
            return _on_groups(gb, calls, label, sampled=False)
        keyed = GroupBy(gb.obj, gb.by, True, gb.sort, gb.dropna, gb.observed, gb.selection,
                        gb.group_keys, gb.level)
        res = _on_groups(keyed, calls, label, sampled=False)
        meta = _call(gb._pandas(), calls)
        if meta.index.nlevels < res.data.meta.index.nlevels:  # the keys as columns, rows' labels kept
            res = res.reset_index(level=list(range(len(gb.keys))))[list(meta.columns)]
        return res

    aggregate = agg


def _window_method(how):
    def method(self, *args, **kwargs):
        return self.agg(how, *args, **kwargs)

    method.__name__ = how
    method.__doc__ = f"Per-group window {how}."
    return method


for _how in ("sum", "mean", "min", "max", "count", "std", "var", "median"):
    setattr(GroupByWindow, _how, _window_method(_how))


def rolling(self, window, *args, **kwargs):
    """Rolling windows over each group's rows (aggregate with ``.sum()``, ``.mean()``, ...)."""
    if not isinstance(window, (int, np.integer)) or isinstance(window, bool):
        raise NotImplementedError("groupby rolling by a time offset or a window object: "
                                  "only a number of rows is supported")
    return GroupByWindow(self, "rolling", (window, *args), kwargs)


def expanding(self, min_periods=1, *args, **kwargs):
    """Expanding windows over each group's rows (aggregate with ``.sum()``, ``.mean()``, ...)."""
    return GroupByWindow(self, "expanding", (min_periods, *args), kwargs)


for _f in (rolling, expanding, quantile, idxmax, idxmin, describe, ohlc, nth, filter, pipe, ngroup):
    setattr(GroupBy, _f.__name__, _f)
