"""``loc`` on a MultiIndex: a tuple of every level's label picks a row, as a plain label does;
a shorter tuple (or one label) picks the rows under those leading labels, with those levels
dropped, as pandas does. Lists, slices and tuples holding them gather the rows that may
match and let pandas pick, order and format them; a plain slice is cut chunk by chunk."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import chunk_shape, row_chunks, rows_grid
from .core import DataFrame, new_frame
from .positional import _idx


def _is_label(part) -> bool:
    if isinstance(part, slice) or pd.api.types.is_list_like(part):
        return False
    try:
        hash(part)
    except TypeError:
        return False
    return True


def multi_index_key(obj, key) -> tuple | None:
    """``key`` as a tuple of leading labels when it is one for ``obj``'s MultiIndex (a label,
    or a tuple of labels), else None. A DataFrame's pair ``(rows, columns)`` is not one."""
    index = obj.data.meta.index
    if not isinstance(index, pd.MultiIndex):
        return None
    parts = key if isinstance(key, tuple) else (key,)
    if not parts or not all(_is_label(p) for p in parts) or len(parts) > index.nlevels:
        return None
    if isinstance(obj, DataFrame) and isinstance(key, tuple) and len(key) == 2 \
            and key[1] in obj.data.meta.columns and key[1] not in index.levels[1]:
        return None  # (rows, a column), as pandas reads it when the pair is no row label
    return parts


class MatchPrefix(Operand):
    """The rows of one chunk under the leading labels ``key``, those levels dropped."""

    _params = ("key",)

    def execute(self, v):
        drop = list(range(len(self.key)))
        try:
            with warnings.catch_warnings():  # an unsorted index: pandas scans it, as here
                warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
                loc = v.index.get_loc(self.key)
        except KeyError:
            return v.iloc[:0].droplevel(drop)
        rows = v.iloc[[loc] if pd.api.types.is_integer(loc) else loc]
        return rows.droplevel(drop)


class PrefixRows(Operand):
    """``obj.loc[leading labels]``: every chunk filtered; a KeyError when no chunk has them."""

    _params = ("key",)

    def tile(self, ctx, out):
        meta = out.meta
        chunks = [ChunkData(MatchPrefix(key=self.key, label=self.label), [c],
                            chunk_shape(meta, math.nan), meta, _idx(meta, i))
                  for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        shapes = yield chunks
        if not any(s[0] for s in shapes):
            raise KeyError(self.key if len(self.key) > 1 else self.key[0])
        return rows_grid(chunks, meta)


def prefix_rows(obj, key: tuple):
    """The rows of ``obj`` under the leading labels ``key`` (fewer than its levels)."""
    meta = obj.data.meta.iloc[:0].droplevel(list(range(len(key))))
    return new_frame(PrefixRows(key=key, label="md.loc"), [obj], math.nan, meta)


# --- lists, slices, and tuples holding them --------------------------------------------------

def is_multi_selection(obj, key) -> bool:
    """Whether ``key`` selects rows of ``obj``'s MultiIndex by lists or slices (a list of
    labels or tuples, a slice, or a tuple holding a list or a slice)."""
    if not isinstance(obj.data.meta.index, pd.MultiIndex):
        return False
    if isinstance(key, slice):
        return key != slice(None)
    if isinstance(key, tuple):
        return any(isinstance(p, slice) or _is_list(p) for p in key)
    return _is_list(key) and not (len(key) and all(isinstance(k, (bool, np.bool_)) for k in key))


def _is_list(part) -> bool:
    return isinstance(part, (list, np.ndarray, pd.Index))  # a MultiIndex is an Index too


def candidate_mask(index: pd.MultiIndex, key) -> np.ndarray:
    """Rows that may match ``key`` (every row pandas selects; pandas' own ``loc`` then picks
    and orders them): each level's label, list or inclusive range."""
    if isinstance(key, tuple):
        mask = np.ones(len(index), dtype=bool)
        for level, part in enumerate(key):
            values = index.get_level_values(level)
            if isinstance(part, slice):
                if part.start is not None:
                    mask &= np.asarray(values >= part.start)
                if part.stop is not None:
                    mask &= np.asarray(values <= part.stop)
            elif _is_list(part):
                mask &= values.isin(list(part))
            else:
                mask &= np.asarray(values == part)
        return mask
    items = list(key)
    if items and all(isinstance(k, tuple) for k in items):
        width = max(len(k) for k in items)
        if width == 1:
            return index.get_level_values(0).isin([k[0] for k in items])
        prefix = pd.MultiIndex.from_arrays([index.get_level_values(i) for i in range(width)])
        return prefix.isin([k + (None,) * (width - len(k)) for k in items])
    return index.get_level_values(0).isin(items)


class MultiCandidates(Operand):
    """The rows of one chunk that may match ``key`` (full index kept); with ``level``, those
    whose label on that level is one of ``key``."""

    _params = ("key", "level")
    level = None

    def execute(self, v):
        if self.level is not None:
            return v[v.index.get_level_values(self.level).isin(self.key)]
        return v[candidate_mask(v.index, self.key)]


class MultiSelect(Operand):
    """``obj.loc[key]`` (or ``obj.reindex(key, level=level)``) on the gathered candidate rows:
    pandas' own order, level dropping and KeyError for labels no row has."""

    _params = ("key", "level")
    level = None

    def tile(self, ctx, out):
        inp = out.inputs[0]
        parts = [ChunkData(MultiCandidates(key=self.key, level=self.level, label=self.label), [c],
                           chunk_shape(inp.meta, math.nan), inp.meta, _idx(inp.meta, i))
                 for i, c in enumerate(row_chunks(ctx[inp]))]
        return rows_grid([ChunkData(self, parts, chunk_shape(out.meta, math.nan), out.meta,
                                    _idx(out.meta, 0))], out.meta)

    def execute(self, *parts):
        rows = parts[0] if len(parts) == 1 else pd.concat(parts)
        if self.level is not None:
            return rows.reindex(self.key, level=self.level)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
            return _loc(rows, self.key)


def _loc(obj, key):
    """pandas' ``loc`` of rows (a DataFrame's tuple key is rows, not ``(rows, columns)``)."""
    return obj.loc[key, :] if isinstance(obj, pd.DataFrame) and isinstance(key, tuple) else obj.loc[key]


class MultiSliceRows(Operand):
    """``obj.loc[a:b]`` on a (sorted) MultiIndex: each chunk sliced by pandas, in order."""

    _params = ("key",)

    def tile(self, ctx, out):
        meta = out.meta
        chunks = [ChunkData(self.new(), [c], chunk_shape(meta, math.nan), meta, _idx(meta, i))
                  for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        return rows_grid(chunks, meta)

    def execute(self, v):
        return v.loc[self.key]


def _dummy_label(dtype):
    if pd.api.types.is_bool_dtype(dtype):
        return False
    if pd.api.types.is_numeric_dtype(dtype):
        return 0
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return pd.Timestamp(0)
    if pd.api.types.is_timedelta64_dtype(dtype):
        return pd.Timedelta(0)
    return "x"


def _result_meta(meta, key):
    """The empty result: pandas' ``loc`` on a probe index holding every label of ``key``."""
    index = meta.index
    if isinstance(key, tuple):
        parts = list(key) + [slice(None)] * (index.nlevels - len(key))
    elif all(isinstance(k, tuple) for k in key) and len(key):
        parts = [[k[i] for k in key if len(k) > i] or slice(None) for i in range(index.nlevels)]
    else:
        parts = [list(key)] + [slice(None)] * (index.nlevels - 1)
    labels = []
    for part, level in zip(parts, index.levels):
        if isinstance(part, slice):
            first = next((b for b in (part.start, part.stop) if b is not None), None)
            values = [_dummy_label(level.dtype) if first is None else first]
        else:
            values = list(part) if _is_list(part) else [part]
        try:
            labels.append(pd.Index(values).astype(level.dtype).unique().sort_values())
        except (TypeError, ValueError):
            labels.append(pd.Index(values).unique())
    probe_index = pd.MultiIndex.from_product(labels, names=index.names)
    probe = meta.iloc[:0].reindex(probe_index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
        picked = _loc(probe, key).iloc[:0]
    return picked.astype(meta.dtypes) if isinstance(meta, pd.DataFrame) else picked.astype(meta.dtype)


def multi_rows(obj, key):
    """``obj.loc[key]`` for a list, slice or tuple with lists / slices on a MultiIndex."""
    meta = obj.data.meta
    if isinstance(key, slice):
        meta.loc[key]  # pandas' errors for bounds of the wrong type
        return new_frame(MultiSliceRows(key=key, label="md.loc"), [obj], math.nan, meta)
    if isinstance(key, tuple) and len(key) > meta.index.nlevels:
        _loc(meta, key)  # pandas' own error (a KeyError in pandas 3, an IndexError in 2.2)
        raise KeyError(f"Key length ({len(key)}) exceeds index depth ({meta.index.nlevels})")
    key = tuple(list(p) if isinstance(p, (np.ndarray, pd.Index)) else p for p in key) \
        if isinstance(key, tuple) else list(key)
    return new_frame(MultiSelect(key=key, label="md.loc"), [obj], math.nan, _result_meta(meta, key))


def reindex_level(obj, labels, level):
    """``obj.reindex(labels, level=level)``: the rows whose ``level`` label is listed, in
    pandas' order (computed by pandas on the gathered rows)."""
    meta = obj.data.meta
    labels = pd.Index(labels)
    picked = meta.reindex(labels, level=level)  # pandas' errors (a level that is not there)
    op = MultiSelect(key=labels, level=level, label="md.reindex")
    return new_frame(op, [obj], math.nan, picked.iloc[:0])
