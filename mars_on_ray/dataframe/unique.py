"""duplicated, drop_duplicates, value_counts, nunique, unique: one key-statistics shuffle.

Each chunk summarises its distinct keys (a map-side combine): per key the global positions
of its first and last row and its row count. Tiling runs that stage and, as groupby does,
combines the summaries in a tree when the largest holds at most
``options.groupby_tree_max_groups`` keys, otherwise hash-shuffles them by key so each reducer
holds whole keys. ``duplicated`` / ``drop_duplicates`` then send every chunk the statistics of
its own keys (one table in the tree case) and decide row by row, in the original order;
``value_counts`` and ``unique`` order keys by first appearance, ``nunique`` counts them.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.exchange import exchange
from ..core.shuffle import partition_codes, split_by_codes
from ..tensor.core import Tensor, new_tensor
from .blockwise import chunk_shape, concat_values, row_chunks, rows_grid, sample_of
from .core import DataFrame, Index, Series, methods, new_frame
from .groupby import _Meta
from .positional import PANDAS3

__all__ = ["unique"]

_FIRST, _LAST, _COUNT = "first", "last", "count"
_STATS = [_FIRST, _LAST, _COUNT]


def _idx(meta, i: int) -> tuple:
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


def key_frame(value, positions) -> pd.DataFrame:
    """The key columns (labelled 0..k-1) of a chunk: its values, or a frame's columns at
    ``positions`` (None: all)."""
    if isinstance(value, pd.MultiIndex):  # a column per level
        return pd.DataFrame({i: pd.Series(value.get_level_values(i).array)
                             for i in range(value.nlevels)})
    if isinstance(value, (pd.Series, pd.Index)):
        return pd.DataFrame({0: pd.Series(value.array)})
    cols = range(value.shape[1]) if positions is None else positions
    return pd.DataFrame({i: pd.Series(value.iloc[:, p].array) for i, p in enumerate(cols)})


def _groupby(frame: pd.DataFrame, k: int):
    keys = list(range(k))
    return frame.groupby(keys if k > 1 else keys[0], dropna=False, sort=False, observed=True)


def _stats(keys: pd.DataFrame, base: int) -> pd.DataFrame:
    """Per distinct key: first and last global position and row count."""
    k = keys.shape[1]
    pos = pd.Series(np.arange(base, base + len(keys), dtype=np.int64))
    g = _groupby(keys.assign(**{_FIRST: pos}), k)[_FIRST]
    res = pd.DataFrame({_FIRST: g.min(), _LAST: g.max(), _COUNT: g.size()})
    return res.reset_index(drop=False).set_axis(list(range(k)) + _STATS, axis=1)


def _combine(tables: list[pd.DataFrame]) -> pd.DataFrame:
    parts = [t for t in tables if len(t)] or list(tables[:1])
    if len(parts) == 1:
        return parts[0]
    cat = pd.concat(parts, ignore_index=True)
    k = cat.shape[1] - 3
    g = _groupby(cat, k)
    res = pd.DataFrame({_FIRST: g[_FIRST].min(), _LAST: g[_LAST].max(), _COUNT: g[_COUNT].sum()})
    return res.reset_index(drop=False).set_axis(list(range(k)) + _STATS, axis=1)


def _hash_split(table: pd.DataFrame, n: int) -> tuple:
    keys = table.iloc[:, :table.shape[1] - 3].copy()
    for i, dtype in enumerate(keys.dtypes):
        if getattr(dtype, "kind", "O") == "f":  # -0.0 and 0.0 are one key
            keys.isetitem(i, keys.iloc[:, i] + 0.0)
    return split_by_codes(table, partition_codes(keys, n), n)


def lookup(table_keys: pd.DataFrame, keys: pd.DataFrame) -> np.ndarray:
    """For each row of ``keys``, its row in ``table_keys`` (distinct keys; -1: absent)."""
    if len(keys) == 0:
        return np.zeros(0, dtype=np.intp)
    if len(table_keys) == 0:
        return np.full(len(keys), -1, dtype=np.intp)
    both = pd.concat([table_keys, keys], ignore_index=True)
    ids = _groupby(both, both.shape[1]).ngroup().to_numpy()
    ids = ids[len(table_keys):]
    return np.where(ids < len(table_keys), ids, -1)


class KeyStats(Operand):
    """A stage of the key statistics: ``partial`` (one chunk), ``combine`` (tables), ``split``
    (a table by key hash, ``n`` outputs), ``reply`` (a reducer's pieces: each piece's keys
    with the global statistics, back to its chunk) and the finals of each operation."""

    _params = ("positions", "stage", "base", "n", "keep", "what", "offset", "dropna", "result_meta", "empty")
    empty = False
    base = 0
    n = 1
    keep = "first"
    what = None
    offset = None
    dropna = True
    result_meta = None

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n if self.stage in ("split", "reply") else 1

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return self.stage not in ("split", "reply")

    def execute(self, *values):
        stage = self.stage
        if stage == "partial":
            return _stats(key_frame(values[0], self.positions), self.base)
        if stage == "combine":
            return _combine(list(values))
        if stage == "split":
            pieces = _hash_split(values[0], self.n)
            return pieces if self.n > 1 else pieces[0]
        if stage == "reply":
            return self._reply(values)
        if stage == "rows":  # tables of disjoint keys: one combined table, or replies
            tables = [v for v in values[1:] if len(v)] or list(values[1:2])
            return self._rows(values[0], pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0])
        if stage == "reindex":
            res = values[0]
            if isinstance(res, pd.Index):
                return pd.RangeIndex(self.offset, self.offset + len(res))
            res = res.copy(deep=False)
            res.index = pd.RangeIndex(self.offset, self.offset + len(res))
            return res
        if stage == "count":
            table = values[0]
            keys = table.iloc[:, :table.shape[1] - 3]
            return int((keys.notna().all(axis=1) if self.dropna else np.ones(len(keys), bool)).sum())
        return _FINALS[stage](self, _combine(list(values)))

    def _reply(self, pieces):
        """The received rows with the global statistics of their keys (one groupby), split
        back to the chunks they came from (a chunk's positions are its index << 32)."""
        cat = pd.concat(pieces, ignore_index=True) if len(pieces) > 1 else pieces[0]
        origin = cat[_FIRST].to_numpy() >> 32
        g = _groupby(cat, cat.shape[1] - 3)
        cat = cat.assign(**{_FIRST: g[_FIRST].transform("min"), _LAST: g[_LAST].transform("max"),
                            _COUNT: g[_COUNT].transform("sum")})
        out = split_by_codes(cat, origin, self.n)
        return out if self.n > 1 else out[0]

    def _rows(self, value, table):
        """The chunk's rows decided by the statistics of their keys (``what``)."""
        keys = key_frame(value, self.positions)
        k = keys.shape[1]
        ids = lookup(table.iloc[:, :k], keys)
        pos = np.arange(self.base, self.base + len(keys), dtype=np.int64)
        if self.keep == "first":
            dup = pos != table[_FIRST].to_numpy()[ids]
        elif self.keep == "last":
            dup = pos != table[_LAST].to_numpy()[ids]
        else:
            dup = table[_COUNT].to_numpy()[ids] > 1
        if len(keys) == 0:
            dup = np.zeros(0, dtype=bool)
        if self.what == "duplicated":
            if isinstance(value, pd.Index):
                return dup
            if self.empty:  # pandas 2.2: an empty frame's answer has a fresh RangeIndex
                return self.result_meta.copy()
            return pd.Series(dup, index=value.index, name=self.result_meta.name)
        return value[~dup] if isinstance(value, pd.Index) else value.iloc[np.flatnonzero(~dup)]


# --- tiling helpers -------------------------------------------------------------------------

def partials_of(op: KeyStats, chunks) -> list[ChunkData]:
    """Per chunk the statistics of its keys (global positions: chunk index << 32 + row)."""
    return [ChunkData(op.new(stage="partial", base=i << 32), [c], (math.nan, math.nan), None, (i, 0))
            for i, c in enumerate(chunks)]


def combined(op: KeyStats, partials, shapes) -> tuple[list[ChunkData], bool]:
    """The partials combined: one table by a tree, or (when a partial holds more than
    ``options.groupby_tree_max_groups`` keys) one per reducer of a hash shuffle (True)."""
    if len(partials) > 1 and max(s[0] for s in shapes) > options.groupby_tree_max_groups:
        return _shuffled(op, partials), True
    level, k = partials, max(2, options.combine_size)
    while len(level) > k:
        level = [ChunkData(op.new(stage="combine"), level[i:i + k], (math.nan, math.nan), None, (j, 0))
                 for j, i in enumerate(range(0, len(level), k))]
    if len(level) > 1:
        level = [ChunkData(op.new(stage="combine"), level, (math.nan, math.nan), None, (0, 0))]
    return level, False


def key_tables(op: KeyStats, ctx, node):
    """``(chunks, partials, tables, shuffled)`` for ``node`` (see ``combined``)."""
    chunks = row_chunks(ctx[node])
    partials = partials_of(op, chunks)
    shapes = (yield partials) if len(partials) > 1 else [(0,)]
    tables, shuffled = combined(op, partials, shapes)
    return chunks, partials, tables, shuffled


def _exchanged(op, partials) -> list[list[ChunkData]]:
    """Per reducer (one per partial), its pieces of every partial, split by key hash."""
    n = len(partials)
    return exchange([(op.new(stage="split", n=n), [p]) for p in partials], n, op.label)


def _shuffled(op, partials):
    return [ChunkData(op.new(stage="combine"), inputs, (math.nan, math.nan), None, (j, 0))
            for j, inputs in enumerate(_exchanged(op, partials))]


def with_offsets(op, chunks, meta):
    """Chunks whose rows get a RangeIndex continuing across chunks (``ignore_index``)."""
    shapes = yield chunks
    offsets = np.concatenate([[0], np.cumsum([s[0] for s in shapes])[:-1]]).astype(int)
    return [ChunkData(op.new(stage="reindex", offset=int(o)), [c], chunk_shape(meta, s[0]), meta, _idx(meta, i))
            for i, (c, o, s) in enumerate(zip(chunks, offsets, shapes))]


class Duplicates(KeyStats):
    """``duplicated`` / ``drop_duplicates``: each chunk's rows decided by their keys' statistics."""

    def tile(self, ctx, out):
        meta = out.meta
        chunks, partials, tables, shuffled = yield from key_tables(self, ctx, out.inputs[0])
        if shuffled:  # each reducer sends its keys' statistics back to the chunks they came from
            n = len(chunks)
            received = _exchanged(self, partials)
            per_chunk = exchange([(self.new(stage="reply", n=n), received[j]) for j in range(n)], n, self.label)
        else:
            per_chunk = [tables] * len(chunks)
        rows = (lambda c: c.shape[0]) if self.what == "duplicated" else (lambda c: math.nan)
        result = [ChunkData(self.new(stage="rows", base=i << 32), [c, *per_chunk[i]],
                            _shape(meta, rows(c)), meta, _idx(meta, i)) for i, c in enumerate(chunks)]
        if self.offset is not None:  # ignore_index
            result = yield from with_offsets(self, result, meta)
        return _grid(result, meta)


def _shape(meta, n):
    return chunk_shape(meta, n) if not isinstance(meta, np.ndarray) else (n,)


def _grid(chunks, meta) -> Tiled:
    if isinstance(meta, np.ndarray):
        grid = chunk_grid((len(chunks),))
        for i, c in enumerate(chunks):
            grid[i] = c
        return Tiled(grid, (tuple(c.shape[0] for c in chunks),))
    return rows_grid(chunks, meta)


def _positions(obj, subset):
    """Column positions of ``subset`` (pandas' KeyError for missing labels), None for all."""
    if subset is None:
        return None
    columns = obj.data.meta.columns
    if isinstance(subset, (list, pd.Index)) or (isinstance(subset, tuple) and subset not in columns):
        labels = list(subset)
    else:
        labels = [subset]
    missing = [c for c in labels if c not in columns]
    if missing:
        raise KeyError(pd.Index(missing))
    return tuple(int(np.flatnonzero(columns == c)[0]) for c in labels)


def _check_keep(keep):
    if keep not in ("first", "last", False):
        raise ValueError('keep must be either "first", "last" or False')


def _duplicates(obj, what, positions, keep, ignore_index, inplace, label):
    _check_keep(keep)
    meta = obj.data.meta
    if what == "duplicated":
        meta = meta.duplicated(keep=keep) if isinstance(meta, pd.Index) else \
            (meta.iloc[:, 0] if isinstance(meta, pd.DataFrame) else meta).duplicated(keep=keep)
        if isinstance(obj, DataFrame):
            meta = obj.data.meta.duplicated(keep=keep) if obj.shape[0] == 0 else meta.rename(None)
    elif ignore_index:
        meta = meta.reset_index(drop=True)
    op = Duplicates(positions=positions, what=what, keep=keep, offset=0 if ignore_index else None,
                    result_meta=meta, empty=obj.shape[0] == 0 and isinstance(obj, DataFrame), label=label)
    if isinstance(meta, np.ndarray):
        return new_tensor(op, [obj], obj.shape, np.bool_)
    result = new_frame(op, [obj], obj.shape[0] if what == "duplicated" else math.nan, meta)
    if inplace:
        obj.data = result.data
        return None
    return result


@methods(DataFrame)
def duplicated(obj, subset=None, keep="first"):
    """Whether each row repeats an earlier row (``keep='last'``: a later one; ``False``: any
    other) in ``subset`` columns, in the original row order."""
    return _duplicates(obj, "duplicated", _positions(obj, subset), keep, False, False, "md.duplicated")


@methods(DataFrame)
def drop_duplicates(obj, subset=None, *, keep="first", inplace=False, ignore_index=False):
    """Rows without repeated ``subset`` columns, in their original order."""
    return _duplicates(obj, "drop", _positions(obj, subset), keep, ignore_index, inplace,
                       "md.drop_duplicates")


def _values_duplicated(obj, keep="first"):
    """Whether each value repeats another (see ``DataFrame.duplicated``)."""
    return _duplicates(obj, "duplicated", None, keep, False, False, "md.duplicated")


def _values_drop_duplicates(obj, *, keep="first", inplace=False, ignore_index=False):
    """The values without repeats, in their original order."""
    if isinstance(obj, Index):
        if inplace or ignore_index:
            raise TypeError("Index.drop_duplicates() got an unexpected keyword argument")
    return _duplicates(obj, "drop", None, keep, ignore_index, inplace, "md.drop_duplicates")


methods(Series, Index, name="duplicated")(_values_duplicated)
methods(Series, Index, name="drop_duplicates")(_values_drop_duplicates)


# --- value_counts, unique, nunique -----------------------------------------------------------

def _unique_values(op, table):
    """The keys in order of first appearance, as the input's pandas type (``source``)."""
    table = table.sort_values(_FIRST, kind="stable")
    src = op.source.value
    if isinstance(src, pd.DataFrame):
        cols = [src.columns[p] for p in (op.positions or range(src.shape[1]))]
        frame = pd.DataFrame({i: table[i].array for i in range(len(cols))})
        frame.columns = pd.Index(cols) if len(set(map(repr, cols))) == len(cols) else cols
        return table, frame.astype({c: src.dtypes.iloc[p] for c, p in
                                    zip(frame.columns, op.positions or range(src.shape[1]))})
    if isinstance(src, pd.MultiIndex):
        levels = [pd.Series(table[i].array, dtype=src.levels[i].dtype) for i in range(src.nlevels)]
        return table, pd.MultiIndex.from_arrays(levels, names=src.names)
    dtype = src.dtype
    if isinstance(dtype, pd.CategoricalDtype) and isinstance(table[0].dtype, pd.CategoricalDtype):
        dtype = table[0].dtype  # categories known only from the data (a lazy cut's)
    values = pd.Series(table[0].array, dtype=dtype)
    if isinstance(src, pd.Index):
        return table, pd.Index(values, name=src.name)
    return table, values.rename(src.name)


def _value_counts_final(op, table):
    table, uniq = _unique_values(op, table)
    kw = dict(op.vc_kwargs)
    subset = kw.pop("subset", None)
    res = uniq.value_counts(sort=False, dropna=op.dropna, **({"subset": subset} if subset is not None else {}))
    index = res.index
    keys = pd.DataFrame({i: pd.Series(index.get_level_values(i).array) for i in range(index.nlevels)})
    ids = lookup(table.iloc[:, :table.shape[1] - 3], keys)
    found = ids >= 0  # unobserved categories are counted 0 (all of them when no row is left)
    counts = np.zeros(len(ids), dtype=np.int64)
    counts[found] = table[_COUNT].to_numpy()[ids[found]]
    res = pd.Series(counts, index=index, name=res.name).astype(res.dtype)
    if kw.get("sort", True):
        extra = {"kind": "stable"} if PANDAS3 else {}
        res = res.sort_values(ascending=kw.get("ascending", False), **extra)
    if kw.get("normalize", False):
        res = (res / res.sum()).rename("proportion")
    return res


def _unique_final(op, table):
    _, uniq = _unique_values(op, table)
    return uniq.unique()


_FINALS = {"value_counts": _value_counts_final, "unique": _unique_final}




class KeysSummary(KeyStats):
    """One chunk from the combined key statistics: ``value_counts`` or ``unique`` (tables
    gathered, keys put in pandas' order), or ``nunique`` (keys counted per table, summed)."""

    _params = ("source", "vc_kwargs")

    def tile(self, ctx, out):
        _, _, tables, _ = yield from key_tables(self, ctx, out.inputs[0])
        meta = out.meta
        if self.what == "nunique":
            counts = [ChunkData(self.new(stage="count"), [t], (), None, ()) for t in tables]
            grid = chunk_grid(())
            grid[()] = ChunkData(self.new(stage="sum"), counts, (), meta, ())
            return Tiled(grid, ())
        final = ChunkData(self.new(stage=self.what), tables, _shape(meta, math.nan), meta, _idx(meta, 0))
        return _grid([final], meta)

    def execute(self, *values):
        if self.stage == "sum":
            return np.int64(sum(values))
        return super().execute(*values)


def _summary(obj, what, positions=None, dropna=True, vc_kwargs=None, meta=None, label=None):
    src = obj.data.meta
    op = KeysSummary(positions=positions, what=what, dropna=dropna, source=_Meta(src),
                     vc_kwargs=dict(vc_kwargs or {}), label=label)
    if what == "nunique":
        return new_tensor(op, [obj], (), np.int64)
    if isinstance(meta, np.ndarray):
        return new_tensor(op, [obj], (math.nan,), meta.dtype)
    return new_frame(op, [obj], math.nan, meta)


@methods(Series, Index)
def value_counts(obj, normalize=False, sort=True, ascending=False, bins=None, dropna=True):
    """Rows per distinct value: counts (or shares with ``normalize``) in pandas' order;
    ``bins``: per interval of ``cut(obj, bins, include_lowest=True)``."""
    if bins is not None:
        return _binned_counts(obj, normalize, sort, ascending, bins, dropna)
    kw = dict(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    meta = obj.data.meta.value_counts(**kw)
    return _summary(obj, "value_counts", dropna=dropna, vc_kwargs=kw, meta=meta, label="md.value_counts")


def _binned_counts(obj, normalize, sort, ascending, bins, dropna):
    from .blockwise import map_chunks
    from .cut import cut

    if isinstance(obj, Index):  # pandas counts an Index's values as a Series' (the name is dropped)
        counts = _binned_counts(obj.to_series(), normalize, sort, ascending, bins, dropna)
        return counts.rename_axis(None)
    if not PANDAS3:  # the key tables lose cut's data-dependent categories under pandas 2.2
        raise NotImplementedError("value_counts(bins=...) needs pandas 3")
    try:
        meta = sample_of(obj.data.meta).value_counts(normalize=normalize, sort=sort, ascending=ascending,
                                                     bins=bins, dropna=dropna).iloc[:0]
    except TypeError as err:  # pandas' message for non-numeric data
        raise TypeError("bins argument only works with numeric data.") from err
    counts = cut(obj, bins, include_lowest=True).value_counts(sort=False, dropna=False)
    return map_chunks(_bins_result, (counts, normalize, sort, ascending, dropna), meta=meta,
                      label="md.value_counts")


def _bins_result(counts, normalize, sort, ascending, dropna):
    """pandas' steps after counting per bin (the counts of every bin, then of missing values)."""
    total = counts.sum()
    res = counts[counts.index.notna()]
    res.index = res.index.astype("interval").rename(None)  # pandas cuts the bare values
    res = res.sort_index()
    if dropna and (res.to_numpy() == 0).all():
        res = res.iloc[0:0]
    if sort:  # pandas 3 sorts stably, 2.2 by its default kind (ties among bins differ)
        res = res.sort_values(ascending=ascending, **({"kind": "stable"} if PANDAS3 else {}))
    if normalize:
        res = (res / total).rename("proportion")
    return res


def _frame_value_counts(obj, subset=None, normalize=False, sort=True, ascending=False, dropna=True):
    """Rows per distinct row of ``subset`` columns, in pandas' order."""
    kw = dict(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    meta = obj.data.meta.value_counts(subset=subset, **kw)
    positions = _positions(obj, subset)
    return _summary(obj, "value_counts", positions, dropna, dict(kw, subset=subset), meta,
                    "md.DataFrame.value_counts")


methods(DataFrame, name="value_counts")(_frame_value_counts)


@methods(Series, Index)
def nunique(obj, dropna=True):
    """The number of distinct values (a lazy scalar)."""
    return _summary(obj, "nunique", dropna=dropna, label="md.nunique")


def _frame_nunique(obj, axis=0, dropna=True):
    """Distinct values per column (``axis=1``: per row)."""
    from .blockwise import map_chunks

    meta = obj.data.meta
    if axis in (1, "columns"):
        return map_chunks(_row_nunique, (obj, dropna), label="md.nunique",
                          meta=sample_of(meta).nunique(axis=1, dropna=dropna).iloc[:0])
    meta.nunique(axis=axis, dropna=dropna)  # pandas' error for a bad axis
    counts = [_summary(obj, "nunique", (p,), dropna, label="md.nunique") for p in range(meta.shape[1])]
    op = CountsSeries(index=meta.columns, label="md.nunique")
    return new_frame(op, counts, len(counts), pd.Series([], dtype=np.int64, index=meta.columns[:0]))


def _row_nunique(frame, dropna):
    return frame.nunique(axis=1, dropna=dropna)


methods(DataFrame, name="nunique")(_frame_nunique)


class CountsSeries(Operand):
    """A Series of lazy scalars, one per label of ``index``."""

    _params = ("index",)

    def tile(self, ctx, out):
        scalars = [ctx[i].chunks[()] for i in out.inputs]
        return rows_grid([ChunkData(self.new(), scalars, (len(scalars),), out.meta, (0,))], out.meta)

    def execute(self, *values):
        return pd.Series(np.asarray(values, dtype=np.int64), index=self.index)


def _values_unique(obj):
    """The distinct values in order of first appearance (an array, an Index for an Index)."""
    meta = obj.data.meta
    res = meta.unique()
    if not isinstance(res, pd.Index):
        res = np.asarray(res)
        if res.dtype.kind not in "biufcmM":
            res = res.astype(object)
    return _summary(obj, "unique", dropna=False, meta=res, label="md.unique")


methods(Series, Index, name="unique")(_values_unique)


def unique(values):
    """``pd.unique``: distinct values of a Series / Index in order of first appearance."""
    if isinstance(values, (Series, Index)):
        return _values_unique(values)
    if isinstance(values, Tensor):
        from .datasource import from_tensor

        return _values_unique(from_tensor(values, False))
    return pd.unique(values)


# --- is_monotonic_increasing / decreasing ------------------------------------------------------

class Monotonic(Operand):
    """Whether values never decrease (``increasing``) or never increase: per chunk a
    ``(flag, first value, last value)`` partial, folded in order in a tree."""

    _params = ("increasing", "stage")

    def execute(self, *values):
        if self.stage == "map":
            v = values[0]
            if isinstance(v, pd.DataFrame):
                v = v.index
            return (self._flag(v), v[:1] if isinstance(v, pd.Index) else v.iloc[:1],
                    v[-1:] if isinstance(v, pd.Index) else v.iloc[-1:])
        flag, first, last = True, None, None
        for ok, head, tail in values:
            if not len(head):
                continue
            flag = flag and ok and (last is None or self._flag(concat_values([last, head])))
            first = head if first is None else first
            last = tail
        if self.stage == "final":
            return np.bool_(flag)
        empty = values[0][1][:0]
        return flag, empty if first is None else first, empty if last is None else last

    def _flag(self, v) -> bool:
        return bool(v.is_monotonic_increasing if self.increasing else v.is_monotonic_decreasing)

    def tile(self, ctx, out):
        level = [ChunkData(self.new(stage="map"), [c], (), None, ()) for c in row_chunks(ctx[out.inputs[0]])]
        k = max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (), None, ())
                     for i in range(0, len(level), k)]
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(stage="final"), level, (), out.meta, ())
        return Tiled(grid, ())


def monotonic(obj, increasing: bool):
    """Whether ``obj``'s values never decrease (never increase): a lazy boolean scalar."""
    label = f"md.is_monotonic_{'increasing' if increasing else 'decreasing'}"
    return new_tensor(Monotonic(increasing=increasing, label=label), [obj], (), np.bool_)


def is_monotonic_increasing(obj) -> bool:
    """Whether the values never decrease; computed when accessed, as ``is_unique``."""
    from .reshape import compute_now

    return bool(compute_now(monotonic(obj, True), obj))


def is_monotonic_decreasing(obj) -> bool:
    """Whether the values never increase; computed when accessed, as ``is_unique``."""
    from .reshape import compute_now

    return bool(compute_now(monotonic(obj, False), obj))


methods(Series, Index, prop=True)(is_monotonic_increasing)
methods(Series, Index, prop=True)(is_monotonic_decreasing)
methods(Series, Index, prop=True, name="is_monotonic")(is_monotonic_increasing)
