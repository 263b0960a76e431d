"""Index levels: ``unstack``, ``xs``, ``swaplevel``, ``droplevel``, ``reorder_levels``.

``swaplevel`` / ``droplevel`` / ``reorder_levels`` and ``xs(axis=1)`` are row by row. ``xs``
on rows filters every chunk (a KeyError when no chunk holds the key, as pandas raises).
``unstack``'s columns are values of the data, so they are computed when it is called: each
chunk's first row of every level value and of every combination of the unstacked levels,
reduced in chunk order to a probe that pandas unstacks (its columns, in pandas' order) and
whose ``remove_unused_levels`` gives each remaining level's order (pandas orders a level
with unused values by first appearance). Rows are then hash shuffled by the remaining
levels, each reducer unstacks whole keys onto those columns, the int / bool columns are
promoted as pandas does when some key lacks a column (learned from the reducers), and the
rows are range-sorted by their levels' positions in those orders.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
from pandas.core.dtypes.cast import maybe_promote

from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.shuffle import partition_codes, split_by_codes
from .accessors import summarize
from .blockwise import chunk_shape, map_chunks, row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, methods, new_frame
from .groupby import _Meta
from .positional import PANDAS3, _idx
from .reshape import compute_now

__all__: list[str] = []


def _call(value, name, args, kwargs):
    return getattr(value, name)(*args, **kwargs)


def _level_method(obj, name, *args, **kwargs):
    meta = getattr(obj.data.meta, name)(*args, **kwargs)  # pandas' errors, at build time
    return map_chunks(_call, (obj, name, args, kwargs), label=f"md.{name}", meta=meta)


@methods(DataFrame, Series)
def droplevel(obj, level, axis=0):
    """``obj`` with the index (``axis=1``: column) level(s) ``level`` removed."""
    return _level_method(obj, "droplevel", level, axis=axis)


@methods(DataFrame)
def swaplevel(obj, i=-2, j=-1, axis=0):
    """``obj`` with index (``axis=1``: column) levels ``i`` and ``j`` swapped."""
    return _level_method(obj, "swaplevel", i, j, axis=axis)


@methods(DataFrame)
def reorder_levels(obj, order, axis=0):
    """``obj`` with its index (``axis=1``: column) levels in ``order``."""
    return _level_method(obj, "reorder_levels", order, axis=axis)


def _series_swaplevel(obj, i=-2, j=-1, copy=None):
    """The Series with index levels ``i`` and ``j`` swapped."""
    return _level_method(obj, "swaplevel", i, j)


def _series_reorder_levels(obj, order):
    """The Series with its index levels in ``order``."""
    return _level_method(obj, "reorder_levels", order)


Series.swaplevel = _series_swaplevel
Series.reorder_levels = _series_reorder_levels


# -- xs ------------------------------------------------------------------------------------------
class XsMatch(Operand):
    """The rows of one chunk whose index levels ``levels`` hold ``key`` (dropped if asked)."""

    _params = ("key", "levels", "drop_level")

    def execute(self, v):
        mask = None
        for lev, k in zip(self.levels, self.key):
            hit = v.index.get_level_values(lev) == k
            mask = hit if mask is None else mask & hit
        rows = v[mask] if isinstance(v, pd.Series) else v.loc[mask]
        return rows.droplevel(list(self.levels)) if self.drop_level else rows


class XsRows(Operand):
    """``obj.xs(key, level=...)`` on rows: every chunk filtered; KeyError when none has it."""

    _params = ("key", "levels", "drop_level")

    def tile(self, ctx, out):
        meta = out.meta
        op = XsMatch(key=self.key, levels=self.levels, drop_level=self.drop_level, label=self.label)
        chunks = [ChunkData(op, [c], chunk_shape(meta, math.nan), meta, _idx(meta, i))
                  for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        shapes = yield chunks
        if not any(s[0] for s in shapes):
            raise KeyError(self.key if len(self.key) > 1 else self.key[0])
        return rows_grid(chunks, meta)


@methods(DataFrame, Series)
def xs(obj, key, axis=0, level=None, drop_level=True):
    """The cross-section ``key`` of the rows (``axis=1``: a DataFrame's columns) at the index
    levels ``level`` (default: the leading ones)."""
    meta = obj.data.meta
    if axis in (1, "columns"):
        if isinstance(obj, Series):
            raise ValueError("No axis named 1 for object type Series")
        res = meta.xs(key, axis=1, level=level, drop_level=drop_level)  # KeyError now
        return map_chunks(_call, (obj, "xs", (key,), {"axis": 1, "level": level, "drop_level": drop_level}),
                          label="md.xs", meta=res)
    if axis not in (0, "index"):
        raise ValueError(f"No axis named {axis} for object type {type(meta).__name__}")
    index = meta.index
    keys = key if isinstance(key, tuple) else (key,)
    if level is None:
        if not isinstance(index, pd.MultiIndex) or len(keys) >= index.nlevels:
            raise NotImplementedError("xs of a single row (a key for every index level): use loc")
        levels = tuple(range(len(keys)))
    else:
        if not isinstance(index, pd.MultiIndex):
            raise TypeError("Index must be a MultiIndex")
        levels = tuple(index._get_level_number(lv) for lv in (level if isinstance(level, (list, tuple))
                                                               else [level]))
        if len(levels) != len(keys):
            raise ValueError("key and level must have the same length")
        if drop_level and len(levels) == index.nlevels:
            raise NotImplementedError("xs dropping every index level (a single row): use loc")
    res = XsMatch(key=keys, levels=levels, drop_level=drop_level).execute(meta)
    op = XsRows(key=keys, levels=levels, drop_level=drop_level, label="md.xs")
    return new_frame(op, [obj], math.nan, res)


# -- unstack -------------------------------------------------------------------------------------
def _firsts(chunk, levels, sample, sort=True):
    """The index entries of the chunk's first row of each value of every level and of each
    combination of the unstacked ``levels``: the whole index's first appearances are
    among them, in the same order (what ``remove_unused_levels`` orders levels by)."""
    index = chunk.index
    keys = pd.MultiIndex.from_arrays([index.get_level_values(lv) for lv in levels])
    first = ~keys.duplicated()
    for lv in range(index.nlevels):
        first |= ~index.get_level_values(lv).duplicated()
    return index[first]


def _probe(parts, levels, sample, sort=True):
    """pandas' orders for the whole data, from the first appearances: the result's columns
    (pandas' unstack of one row per combination of the unstacked levels under one key of
    the other levels) and each remaining level's values in the order its rows sort by."""
    whole = parts[0].append(list(parts[1:])) if len(parts) > 1 else parts[0]
    others = [lv for lv in range(whole.nlevels) if lv not in levels]
    orders = [whole.remove_unused_levels().levels[lv] for lv in others]
    keys = pd.MultiIndex.from_arrays([whole.get_level_values(lv) for lv in levels])
    probe = whole[~keys.duplicated()]
    probe = probe.set_codes([[0] * len(probe)] * len(others), level=others) if len(probe) else probe
    rows = sample.iloc[[0] * len(probe)] if len(sample) else sample.iloc[:0]
    # pandas' unstack(sort=False) labels the columns from the unpruned level (its values then
    # go under other labels): the labels of the values themselves are taken
    rows.index = probe if sort else probe.remove_unused_levels()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rows.unstack(list(levels), sort=sort).iloc[:0], orders


class _Ranks:
    """A sort key: each remaining level's values as their positions in pandas' order (the
    index levels are named by position while sorting; missing values first, as pandas)."""

    __slots__ = ("orders",)

    def __init__(self, orders):
        self.orders = orders

    def __mars_token__(self):
        return ("unstack-ranks", tuple(tuple(o) for o in self.orders))

    def __call__(self, values):
        return pd.Index(self.orders[values.name].get_indexer(values), name=values.name)


def _named(chunk, names):
    chunk = chunk.copy(deep=False)
    chunk.index = chunk.index.set_names(names)
    return chunk


_POS, _VALUE = "__mars_unstack_pos__", "__mars_unstack_value__"


class LevelShuffleMap(Operand):
    """Split a chunk by the hash of its index levels ``keep``; ``base`` (not None): each row
    numbered first (column ``_POS``: ``base`` + its row; a Series becomes a frame)."""

    _params = ("keep", "n_reducers", "base")
    base = None
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_reducers

    def execute(self, value):
        if self.base is not None:
            value = value.to_frame(_VALUE) if isinstance(value, pd.Series) else value.copy(deep=False)
            value[_POS] = np.arange(self.base, self.base + len(value), dtype=np.int64)
        keys = pd.MultiIndex.from_arrays([value.index.get_level_values(lv) for lv in self.keep]) \
            if len(self.keep) > 1 else value.index.get_level_values(self.keep[0])
        pieces = split_by_codes(value, partition_codes(keys, self.n_reducers), self.n_reducers)
        return pieces if self.n_reducers > 1 else pieces[0]


class UnstackRows(Operand):
    """A reducer: pandas' unstack of whole keys, on the whole result's columns. ``sort``
    False: the rows carry their global positions (``_POS``); each result row gets its key's
    first one as a last index level (the rows are put in that order next)."""

    _params = ("levels", "fill_value", "meta", "sort")
    sort = True

    def execute(self, *values):
        rows = values[0] if len(values) == 1 else pd.concat(values)
        meta = self.meta.value
        if not len(rows):
            return meta
        if not self.sort:
            keep = [lv for lv in range(rows.index.nlevels) if lv not in self.levels]
            firsts = rows[_POS].groupby(level=keep, sort=False, dropna=False).min()
            rows = rows[_VALUE] if _VALUE in rows.columns else rows.drop(columns=_POS)
            # concatenated pieces may hold NaN as a level value, not a missing code: pandas'
            # unstack(sort=False) misplaces values then
            rows.index = pd.MultiIndex.from_arrays([rows.index.get_level_values(i) for i in range(rows.index.nlevels)],
                                                   names=rows.index.names)
        with warnings.catch_warnings():  # pandas' warnings show on the user's call, not here
            warnings.simplefilter("ignore")
            res = rows.unstack(list(self.levels), fill_value=self.fill_value, sort=self.sort)
        if not self.sort:  # unstack(sort=False) numbers the rows as groupby(sort=False) does
            index = res.index if isinstance(res.index, pd.MultiIndex) else pd.MultiIndex.from_arrays([res.index])
            res.index = pd.MultiIndex.from_arrays([*(index.get_level_values(i) for i in range(index.nlevels)),
                                                   firsts.to_numpy()], names=meta.index.names)
        res = res.reindex(columns=meta.columns, fill_value=self.fill_value)
        # a column this reducer lacks gets fill_value's dtype: the whole's where filling cannot
        # promote it (where it can, the promoted dtype tells the build step it happened)
        missing = np.nan if self.fill_value is None else self.fill_value
        for i, dtype in enumerate(meta.dtypes):
            if (res.dtypes.iloc[i] != dtype and isinstance(dtype, np.dtype)
                    and maybe_promote(dtype, missing)[0] == dtype):
                res.isetitem(i, res.iloc[:, i].astype(dtype))
        return res


class Unstack(Operand):
    _params = ("levels", "fill_value", "sort")
    sort = True

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n, nlevels = len(chunks), out.inputs[0].meta.index.nlevels
        keep = tuple(lv for lv in range(nlevels) if lv not in self.levels)
        mappers = [(LevelShuffleMap(keep=keep, n_reducers=n, base=None if self.sort else i << 32,
                                    label=self.label), [c]) for i, c in enumerate(chunks)]
        received = exchange(mappers, n, self.label) if n > 1 or not self.sort else [chunks]
        meta = out.meta
        op = UnstackRows(levels=self.levels, fill_value=self.fill_value, meta=_Meta(meta), sort=self.sort,
                         label=self.label)
        return rows_grid([ChunkData(op, received[j], chunk_shape(meta, math.nan), meta, _idx(meta, j))
                          for j in range(n)], meta)


@methods(DataFrame, Series)
def unstack(obj, level=-1, fill_value=None, sort=True):
    """Pivot the index level(s) ``level`` to the columns (computed now: the columns are
    values of the data)."""
    meta = obj.data.meta
    index = meta.index
    if not isinstance(index, pd.MultiIndex):
        if isinstance(obj, Series):
            raise ValueError("index must be a MultiIndex to unstack, "
                             f"{type(index)} was passed")
        with warnings.catch_warnings():  # pandas' own way: obj.T.stack() (its warnings once)
            warnings.simplefilter("ignore", FutureWarning)
            return obj.T.stack() if PANDAS3 else obj.T.stack(dropna=False)
    if not sort and not PANDAS3:
        raise NotImplementedError("unstack(sort=False) under pandas 2.2: pandas puts values in the "
                                  "wrong cells there (fixed in pandas 3)")
    names = level if isinstance(level, (list, tuple)) else [level]
    levels = tuple(index._get_level_number(lv) for lv in names)  # pandas' KeyError / IndexError
    if len(set(levels)) == index.nlevels:
        raise NotImplementedError("unstack of every index level")
    found, orders = compute_now(summarize(obj, _firsts, _probe, args=(levels, sample_of(meta), sort),
                                          label="md.unstack"), obj)
    res_meta = found.copy()
    res_meta.index = index[:0].remove_unused_levels().droplevel(list(levels))
    op = Unstack(levels=levels, fill_value=fill_value, sort=sort, label="md.unstack")
    # sort=False: each row's key's first position as a last index level, to order the rows by
    declared = res_meta if sort else res_meta.set_index(pd.Index([], dtype=np.int64, name=_POS), append=True)
    lazy = new_frame(op, [obj], math.nan, declared)
    missing = np.nan if fill_value is None else fill_value
    promoted = [maybe_promote(d, missing)[0] if isinstance(d, np.dtype) else d for d in res_meta.dtypes]
    if promoted != list(res_meta.dtypes):
        # pandas promotes every column when a key lacks a column (the mask is the index's):
        # a reducer that did shows a promoted dtype
        incomplete = compute_now(summarize(lazy, _promoted, _any, args=(tuple(res_meta.dtypes),),
                                           label="md.unstack"), lazy)
        if incomplete:
            cast = dict(zip(res_meta.columns, promoted))
            lazy = map_chunks(_astype, (lazy, cast), label="md.unstack", meta=declared.astype(cast))
    if not sort:
        return lazy.sort_index(level=_POS, sort_remaining=False, kind="stable").droplevel(_POS)
    names = list(res_meta.index.names)
    by_position = map_chunks(_named, (lazy, list(range(len(names)))), label="md.unstack")
    ranked = by_position.sort_index(key=_Ranks(orders), kind="stable")
    return map_chunks(_named, (ranked, names), label="md.unstack")


def _promoted(chunk, dtypes):
    return tuple(chunk.dtypes) != dtypes


def _any(parts, dtypes):
    return any(parts)


def _astype(chunk, dtypes):
    return chunk.astype(dtypes)
