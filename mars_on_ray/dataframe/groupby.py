"""groupby-aggregate: per-chunk partial aggregation, then a tree combine or a shuffle.

Aggregations with mergeable partials (sum, count, mean, min, max, size, prod, first, last) are
aggregated per chunk first; tiling runs that stage, and when one partial holds more than
``options.groupby_tree_max_groups`` groups it shuffles them (by sampled key ranges when
the result is sorted on one key, so each reducer's output is a result chunk in order; by hash
otherwise: with ``sort=False`` the reduced groups are then range-partitioned by their first
appearance, one result chunk per range; sorted on several keys, one chunk restores pandas'
order) instead of a tree combine. Any other
aggregation shuffles the rows by key hash and runs pandas' own groupby on whole groups.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.shuffle import hash_partition, pick_boundaries, range_codes, sample_keys, split_by_codes
from .blockwise import row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, new_frame
from .groupby_arrow import arrow_partial
from .groupby_dense import dense_combine, dense_partial
from .datasource import _is_tensor
from .groupby_keys import _grouping, _is_column_of, _key_sources, _lazy_key, array_key
from .positional import PANDAS3
from .sort import SortChunks, _Sorter
from .rules.usage import uses

__all__: list[str] = []

#: how each partial is combined with the partials of other chunks
_COMBINE = {"sum": "sum", "count": "sum", "size": "sum", "min": "min", "max": "max",
            "prod": "prod", "first": "first", "last": "last", "order": "min"}
#: user aggregations and the partials they are computed from
_PARTS = {"mean": ("sum", "count"), **{h: (h,) for h in _COMBINE if h != "order"}}
_ORDER = "order"


class GroupByAgg(Operand):
    """One stage of a groupby aggregation (``stage``: partial / combine / final / gather)."""

    _params = ("by", "sort", "dropna", "observed", "partials", "outputs", "as_index",
               "index_names", "result_meta", "stage", "order_base", "offset")
    offset = None

    # -- kernels -------------------------------------------------------------------------
    def execute(self, *values):
        if self.stage == "partial":
            return self._partial(values[0])
        if self.stage == "combine":
            return self._combine(values)
        if self.stage == "final":
            return self._finish(self._combine(values))
        if self.stage == "concat":  # reduced groups of one first-appearance range
            return _concat(values)
        if self.stage == "finish":  # one key range of a range-partitioned result
            res = self._finish(values[0])
            if self.offset is not None:
                res.index = pd.RangeIndex(self.offset, self.offset + len(res))
            return res
        return self._finish(_concat(values))  # gather: keys are disjoint across reducers

    def _groupby(self, obj, **kw):
        extra = {} if self.observed is None else {"observed": self.observed}
        return obj.groupby(sort=self.sort, dropna=self.dropna, **extra, **kw)

    def _partial(self, frame: pd.DataFrame) -> pd.DataFrame:
        if self.sort:  # direct addressing, else pyarrow's hash aggregation, where they apply
            fast = dense_partial(frame, tuple(self.by), self.partials)
            if fast is None:
                fast = arrow_partial(frame, tuple(self.by), self.partials)
            if fast is not None:
                return fast
        g = self._groupby(frame, by=list(self.by))
        by_how: dict[str, list[int]] = {}
        for i, (_, how) in enumerate(self.partials):
            by_how.setdefault(how, []).append(i)
        cols: dict[str, pd.Series] = {}
        for how, positions in by_how.items():
            if how in ("size", _ORDER):
                size = g.size()
                for i in positions:
                    cols[i] = size if how == "size" else pd.Series(
                        np.arange(len(size), dtype=np.int64) + self.order_base, index=size.index)
                continue
            res = g[[self.partials[i][0] for i in positions]].agg(how)
            for j, i in enumerate(positions):
                cols[i] = res.iloc[:, j]
        return pd.DataFrame({f"p{i}": cols[i] for i in sorted(cols)})

    def _combine(self, parts) -> pd.DataFrame:
        cat = _concat(parts)
        # one partial is already aggregated (an input may also be several partials, from a
        # two-round exchange: then only unique keys, in order when sorted, show it)
        if sum(1 for p in parts if len(p)) <= 1 and cat.index.is_unique and (
                not self.sort or cat.index.is_monotonic_increasing):
            return cat
        how = {f"p{i}": _COMBINE[h] for i, (_, h) in enumerate(self.partials)}
        if set(how.values()) == {"sum"}:
            fast = dense_combine(cat)
            if fast is not None:
                return fast
        nlevels = cat.index.nlevels
        g = self._groupby(cat, level=0 if nlevels == 1 else list(range(nlevels)))
        return g.agg(how)

    def _finish(self, comb: pd.DataFrame):
        if any(h == _ORDER for _, h in self.partials):
            comb = comb.sort_values(f"p{len(self.partials) - 1}", kind="stable")
        elif self.sort and self.stage == "gather":
            comb = comb.sort_index(kind="stable")
        data = {}
        for j, spec in enumerate(self.outputs):
            if spec[0] == "mean":
                data[j] = comb[f"p{spec[1]}"] / comb[f"p{spec[2]}"]
            else:
                data[j] = comb[f"p{spec[1]}"]
        res = pd.DataFrame(data, index=comb.index)
        return _conform(res, self.result_meta.value, self.as_index, self.index_names)

    # -- tiling ----------------------------------------------------------------------------
    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        width = len(self.partials)
        partials = [ChunkData(self.new(stage="partial", order_base=i << 32), [c], (math.nan, width),
                              None, (i, 0)) for i, c in enumerate(chunks)]
        if len(partials) > 1:
            shapes = yield partials
            # the largest partial: at least that many groups, however often keys repeat across
            # chunks (a sum would count 24 chunks of the same 1,000 keys as 24,000 groups)
            n_groups = max(s[0] for s in shapes)
            # and the tree's last combine holds every group: keep it under the chunk limit
            at_most = sum(s[0] for s in shapes) * (width + len(self.by)) * 8
            if (n_groups > options.groupby_tree_max_groups or at_most > options.chunk_store_limit) and \
                    not _unobserved_categories(out.inputs[0].meta, self.by, self.observed):
                if self.sort and _rangeable(out.inputs[0].meta, self.by):
                    return (yield from self._tile_range(out, partials))
                return (yield from self._tile_shuffle(ctx, out, partials))
        return self._tile_tree(out, partials)

    def _tile_tree(self, out, level):
        k = max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (math.nan, len(self.partials)),
                               None, (j, 0)) for j, i in enumerate(range(0, len(level), k))]
        return self._result(out, "final", level)

    def _tile_shuffle(self, ctx, out, partials):
        n = len(partials)
        received = exchange([(ShuffleMap(n_reducers=n, label=self.label), [p]) for p in partials], n, self.label)
        reducers = [ChunkData(self.new(stage="combine"), received[j],
                              (math.nan, len(self.partials)), None, (j, 0)) for j in range(n)]
        if self.sort:  # keys that do not range-partition as one column: sorted by sort_index's ranges
            sorter = SortChunks(sorter=_Sorter("index", kind="stable"), ignore_index=False, label=self.label)
            return (yield from _range_result(self, out, (yield from sorter.sorted_ranges(ctx, reducers))))
        return (yield from self._tile_by_appearance(out, reducers))

    def _tile_by_appearance(self, out, reducers):
        """sort=False: the reduced groups shuffled by ranges of their first appearance (the
        order partial), so range j's groups all came before range j+1's."""
        n, width = len(reducers), len(self.partials)
        order = f"p{width - 1}"
        samples = [ChunkData(KeySample(column=order), [r], (math.nan,), None, (i,)) for i, r in enumerate(reducers)]
        bounds = ChunkData(Boundaries(n=n), samples, (math.nan,), None, (0,))
        op = ShuffleMap(n_reducers=n, ranged=True, column=order, label=self.label)
        received = exchange([(op, [r, bounds]) for r in reducers], n, self.label)
        ranges = [ChunkData(self.new(stage="concat"), received[j], (math.nan, width), None, (j, 0))
                  for j in range(n)]
        return (yield from _range_result(self, out, ranges))

    def _tile_range(self, out, partials):
        """Shuffle by key ranges (from sampled keys): reducer j's groups all sort before
        reducer j+1's, so the result keeps one chunk per reducer, already in order."""
        n, width = len(partials), len(self.partials)
        samples = [ChunkData(KeySample(), [p], (math.nan,), None, (i,)) for i, p in enumerate(partials)]
        bounds = ChunkData(Boundaries(n=n), samples, (math.nan,), None, (0,))
        op = ShuffleMap(n_reducers=n, ranged=True, label=self.label)
        received = exchange([(op, [p, bounds]) for p in partials], n, self.label)
        reducers = [ChunkData(self.new(stage="combine"), received[j], (math.nan, width),
                              None, (j, 0)) for j in range(n)]
        return (yield from _range_result(self, out, reducers))

    def _result(self, out, stage, inputs):
        meta = out.meta
        shape = (math.nan, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (math.nan,)
        index = (0, 0) if isinstance(meta, pd.DataFrame) else (0,)
        return rows_grid([ChunkData(self.new(stage=stage), inputs, shape, meta, index)], meta)


def _conform(res: pd.DataFrame, meta, as_index: bool, index_names):
    """Give a result computed with keys as index pandas' names, layout and dtypes (``meta``)."""
    if index_names is not None and res.index.nlevels >= len(index_names):
        # the key levels (results may have more: quantile's q, the rows of a window)
        levels = list(range(len(index_names))) if res.index.nlevels > len(index_names) else None
        res.index = res.index.set_names(list(index_names), level=levels)
    if not len(res) and (not as_index or list(res.index.names) != list(meta.index.names)):
        return meta  # pandas' result on no rows may lack the key levels (describe)
    if isinstance(meta, pd.Series):
        res = res.iloc[:, 0].rename(meta.name)
        return res if res.dtype == meta.dtype else res.astype(meta.dtype)
    if not as_index:  # the keys become columns, unless pandas leaves them out (a key Series
        # named like a result column; under pandas 2.2 any key Series not among the columns)
        res = _keys_as_columns(res, len(meta.columns) - res.shape[1], meta.columns)
    res.columns = meta.columns
    for i, dtype in enumerate(meta.dtypes):
        if res.dtypes.iloc[i] != dtype:
            res.isetitem(i, res.iloc[:, i].astype(dtype))
    return res


def _keys_as_columns(res: pd.DataFrame, n_keys: int, columns) -> pd.DataFrame:
    """``res`` with ``n_keys`` of its index levels as leading columns (those pandas named in
    ``columns``; all or none most often) and a fresh RangeIndex."""
    if n_keys in (0, res.index.nlevels):
        return res.reset_index(drop=n_keys == 0, allow_duplicates=True)
    names = set(columns[:n_keys])
    keep = [i for i, name in enumerate(res.index.names) if name in names][:n_keys]
    return res.reset_index(level=keep, allow_duplicates=True).reset_index(drop=True)


_ORDER_COL = "__mars_order__"


class GroupByApply(Operand):
    """Any pandas aggregation: rows are hash-shuffled by key, each reducer runs pandas' own
    groupby on whole groups (``stage='apply'``); with ``sort=False`` the groups are then
    range-partitioned by first appearance (``'concat'``, ``'finish'``), sorted on several
    keys one chunk puts them in order (``'gather'``)."""

    _params = ("by", "sort", "dropna", "observed", "selection", "func", "func_kwargs", "size",
               "as_index", "index_names", "result_meta", "stage", "with_order", "offset", "calls")
    offset = None
    with_order = False
    calls = None  # ((method, args, kwargs), ...) called in turn on the selected groupby

    def execute(self, *values):
        if self.stage == "concat":  # reduced groups of one first-appearance range
            return _concat(values)
        if self.stage == "finish":  # one key range of a range-partitioned result
            res = _concat(values)
            if self.with_order:  # a range of first appearances: the groups in that order
                res = res.sort_index(level=0, kind="stable", sort_remaining=False).droplevel(0)
            res = _conform(res, self.result_meta.value, self.as_index, self.index_names)
            if self.offset is not None:
                res.index = pd.RangeIndex(self.offset, self.offset + len(res))
            return res
        if self.stage == "gather":
            res = _concat(values)
            if self.with_order:
                res = res.sort_index(level=0, kind="stable", sort_remaining=False).droplevel(0)
            elif self.sort:  # by the keys only: rows within a group keep their order
                res = res.sort_index(level=list(range(len(self.by))), kind="stable", sort_remaining=False)
            return _conform(res, self.result_meta.value, self.as_index, self.index_names)
        frame = _concat(values)
        if self.calls and self.dropna:  # pandas' describe fails on rows but no groups
            frame = frame.dropna(subset=list(self.by))
        extra = {} if self.observed is None else {"observed": self.observed}
        g = frame.groupby(list(self.by), sort=self.sort, dropna=self.dropna, **extra)
        selection = self.selection
        if selection is None:
            selection = [c for c in frame.columns if c not in self.by and c != _ORDER_COL]
        picked = g[selection]
        if self.calls:
            res = picked
            for name, args, kwargs in self.calls:
                res = getattr(res, name)(*args, **dict(kwargs))
        else:
            res = picked.size() if self.size else picked.agg(self.func, **dict(self.func_kwargs))
        if isinstance(res, pd.Series):
            res = res.to_frame()
        if self.with_order:  # each result row gets its group's first position
            nkeys, index = len(self.by), res.index
            keys = index.droplevel(list(range(nkeys, index.nlevels))) if index.nlevels > nkeys else index
            order = g[_ORDER_COL].min().reindex(keys).to_numpy()
            levels = [index.get_level_values(i) for i in range(index.nlevels)]
            res.index = pd.MultiIndex.from_arrays([order, *levels])
        return res

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n, shape = len(chunks), (math.nan, math.nan)
        if n == 1 or _unobserved_categories(out.inputs[0].meta, self.by, self.observed):
            reducers = [ChunkData(self.new(stage="apply", with_order=False), chunks, shape, None, (0, 0))]
        elif self.sort and _rangeable(out.inputs[0].meta, self.by):
            return (yield from self._tile_range(out, chunks))
        else:
            received = exchange([(RowShuffleMap(by=self.by, n_reducers=n, order_base=i << 32,
                                                with_order=not self.sort, label=self.label), [c])
                                 for i, c in enumerate(chunks)], n, self.label)
            reducers = [ChunkData(self.new(stage="apply", with_order=not self.sort),
                                  received[j], shape, None, (j, 0)) for j in range(n)]
            if not self.sort:
                return (yield from self._tile_by_appearance(out, reducers))
            sorter = SortChunks(sorter=_Sorter("index", kind="stable", level=list(range(len(self.by))),
                                               sort_remaining=False), ignore_index=False, label=self.label)
            return (yield from _range_result(self, out, (yield from sorter.sorted_ranges(ctx, reducers))))
        meta = out.meta
        gather = self.new(stage="gather", with_order=len(reducers) > 1 and not self.sort)
        shape = (math.nan, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (math.nan,)
        index = (0, 0) if isinstance(meta, pd.DataFrame) else (0,)
        return rows_grid([ChunkData(gather, reducers, shape, meta, index)], meta)


    def _tile_by_appearance(self, out, reducers):
        """sort=False: the reducers' groups shuffled by ranges of their first appearance (their
        index's level 0), so range j's groups all came before range j+1's."""
        n = len(reducers)
        samples = [ChunkData(KeySample(level=0), [r], (math.nan,), None, (i,)) for i, r in enumerate(reducers)]
        bounds = ChunkData(Boundaries(n=n), samples, (math.nan,), None, (0,))
        op = ShuffleMap(n_reducers=n, ranged=True, level=0, label=self.label)
        received = exchange([(op, [r, bounds]) for r in reducers], n, self.label)
        ranges = [ChunkData(self.new(stage="concat"), received[j], (math.nan, math.nan), None, (j, 0))
                  for j in range(n)]
        return (yield from _range_result(self.new(with_order=True), out, ranges))

    def _tile_range(self, out, chunks):
        """Rows shuffled by sampled key ranges: one ordered result chunk per reducer."""
        n, unknown = len(chunks), (math.nan, math.nan)
        samples = [ChunkData(KeySample(column=self.by[0]), [c], (math.nan,), None, (i,))
                   for i, c in enumerate(chunks)]
        bounds = ChunkData(Boundaries(n=n), samples, (math.nan,), None, (0,))
        op = RowShuffleMap(by=self.by, n_reducers=n, ranged=True, label=self.label)
        received = exchange([(op, [c, bounds]) for c in chunks], n, self.label)
        reducers = [ChunkData(self.new(stage="apply", with_order=False), received[j],
                              unknown, None, (j, 0)) for j in range(n)]
        return (yield from _range_result(self, out, reducers))


def _range_result(op, out, reducers):
    """Per key range, a chunk finishing the reducer's output (placed in a RangeIndex if needed)."""
    meta = out.meta
    offsets = [None] * len(reducers)
    if not op.as_index:
        sizes = [s[0] for s in (yield reducers)]
        offsets = [int(x) for x in np.cumsum([0] + sizes[:-1])]
    shape = (math.nan, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (math.nan,)
    finals = [ChunkData(op.new(stage="finish", offset=offsets[j]), [r], shape, meta,
                        (j, 0) if isinstance(meta, pd.DataFrame) else (j,))
              for j, r in enumerate(reducers)]
    return rows_grid(finals, meta)


class RowShuffleMap(Operand):
    """Partition rows by their key columns: by hash (with their global order when it is
    needed), or (``ranged``) by the key ranges of a boundaries input."""

    _params = ("by", "n_reducers", "order_base", "with_order", "ranged")
    ranged = False
    with_order = False
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_reducers

    def execute(self, frame, bounds=None):
        if self.ranged:
            codes = range_codes(frame[self.by[0]], bounds)
            return split_by_codes(frame, codes, self.n_reducers)
        if self.with_order:
            frame = frame.assign(**{_ORDER_COL: np.arange(len(frame), dtype=np.int64) + self.order_base})
        return hash_partition(frame, self.n_reducers, on=list(self.by))


class _Meta:
    """An empty pandas result carried as a parameter, tokenized by its structure."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __mars_token__(self):
        v = self.value
        return (type(v).__name__, repr(getattr(v, "dtypes", None)), repr(getattr(v, "dtype", None)),
                repr(getattr(v, "name", None)), repr(list(getattr(v, "columns", []))))

    def __getstate__(self):
        return self.value

    def __setstate__(self, state):
        self.value = state


class ShuffleMap(Operand):
    """Split one partial result by its group keys into ``n_reducers`` pieces: by hash, or
    (``ranged``) by the key ranges of a boundaries input (of its ``column`` if given)."""

    _params = ("n_reducers", "ranged", "column", "level")
    ranged = False
    column = None
    level = None
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_reducers

    def execute(self, partial, bounds=None):
        if self.ranged:
            codes = range_codes(_keys_of(partial, self.column, self.level), bounds)
            return split_by_codes(partial, codes, self.n_reducers)
        return hash_partition(partial, self.n_reducers)


class KeySample(Operand):
    """A few evenly spaced distinct keys of one chunk: its index (or one ``level`` of it),
    or its ``column``."""

    _params = ("column", "level")
    column = None
    level = None

    def execute(self, chunk):
        return sample_keys(_keys_of(chunk, self.column, self.level))


def _keys_of(chunk, column, level):
    if column is not None:
        return chunk[column]
    return chunk.index if level is None else chunk.index.get_level_values(level)


class Boundaries(Operand):
    """Split points between ``n`` key ranges, from all the samples."""

    _params = ("n",)

    def execute(self, *samples):
        return pick_boundaries(list(samples), self.n)


@uses(GroupByAgg)
def _aggregated_columns(node, needed):
    op = node.op
    return [set(op.by) | {col for col, how in op.partials if col is not None}]


@uses(GroupByApply)
def _applied_columns(node, needed):
    op = node.op
    if op.selection is None:
        return [None]
    selection = op.selection if isinstance(op.selection, list) else [op.selection]
    return [set(op.by) | set(selection)]


def _unobserved_categories(meta: pd.DataFrame, by, observed) -> bool:
    """Whether pandas lists categories no row has (a categorical key, ``observed`` False, the
    default before pandas 3): every piece of a shuffle would list them, so the groups are not
    shuffled (known limit: such a result is computed in one chunk)."""
    if observed or (observed is None and PANDAS3):
        return False
    return any(isinstance(meta[b].dtype, pd.CategoricalDtype) for b in by if b in meta.columns)


def _rangeable(meta: pd.DataFrame, by) -> bool:
    """One key whose values sort with NumPy (numbers, dates, strings)."""
    if len(by) != 1 or by[0] not in meta.columns:
        return False
    dtype = meta[by[0]].dtype
    return getattr(dtype, "kind", "O") in "iufbmM" or pd.api.types.is_string_dtype(dtype)


def _concat(values):
    parts = [v for v in values if len(v)] or list(values[:1])
    return parts[0] if len(parts) == 1 else pd.concat(parts)


# -- planning ------------------------------------------------------------------------------
def _outputs_of(func, kwargs, value_cols, series_col):
    """The result's columns in order, as (input column, aggregation) pairs."""
    if func is None and kwargs:
        pairs = []
        for name, spec in kwargs.items():
            if series_col is not None:
                pairs.append((series_col, spec))
            else:
                pairs.append((spec[0], spec[1]) if isinstance(spec, tuple) else (spec.column, spec.aggfunc))
        return pairs
    if isinstance(func, str):
        return [(c, func) for c in ([series_col] if series_col is not None else value_cols)]
    if isinstance(func, (list, tuple)):
        cols = [series_col] if series_col is not None else value_cols
        return [(c, f) for c in cols for f in func]
    if isinstance(func, dict):
        return [(c, f) for c, fs in func.items() for f in ([fs] if isinstance(fs, str) else fs)]
    raise NotImplementedError(f"aggregation {func!r} is not supported yet")


def _plan(pairs, sort):
    partials: list[tuple] = []
    outputs = []

    def part(col, how):
        key = (None if how == "size" else col, how)
        if key not in partials:
            partials.append(key)
        return partials.index(key)

    for col, how in pairs:
        if not isinstance(how, str) or how not in _PARTS:
            raise NotImplementedError(f"groupby aggregation {how!r} is not supported yet")
        if how == "mean":
            outputs.append(("mean", part(col, "sum"), part(col, "count")))
        else:
            outputs.append(("take", part(col, how)))
    if not sort:
        partials.append((None, _ORDER))  # first-appearance order of groups, kept last
    return tuple(partials), tuple(outputs)


class GroupBy:
    """The lazy result of ``obj.groupby(...)``; aggregations return DataFrames / Series."""

    def __init__(self, obj, by, as_index=True, sort=True, dropna=True, observed=None, selection=None,
                 group_keys=True, level=None):
        self.obj, self.by, self.level, self.as_index = obj, by, level, as_index
        self.sort, self.dropna, self.observed, self.selection = sort, dropna, observed, selection
        self.group_keys = group_keys
        self._pandas()  # pandas' own errors (missing keys, bad selection) at build time
        self.frame, self.keys, self.index_names = _grouping(obj, by, level)

    def _pandas(self, sample: bool = False):
        extra = {} if self.observed is None else {"observed": self.observed}
        if self.level is not None:
            extra["level"] = self.level

        def meta_of(key):
            if not isinstance(key, Series):
                return key
            return sample_of(key.data.meta) if sample else key.data.meta

        by = [meta_of(k) for k in self.by] if isinstance(self.by, list) else meta_of(self.by)
        frame = sample_of(self.obj.data.meta) if sample else self.obj.data.meta
        g = frame.groupby(by, as_index=self.as_index, sort=self.sort, dropna=self.dropna, **extra)
        return g if self.selection is None else g[self.selection]

    def __getitem__(self, key):
        if isinstance(self.obj, Series):
            raise TypeError("Column(s) already selected")
        return GroupBy(self.obj, self.by, self.as_index, self.sort, self.dropna, self.observed,
                       list(key) if isinstance(key, (list, pd.Index)) else key, self.group_keys,
                       self.level)

    def __getattr__(self, name):
        if (not name.startswith("_") and self.selection is None and isinstance(self.obj, DataFrame)
                and name in self.obj.data.meta.columns):
            return self[name]
        raise AttributeError(f"'GroupBy' object has no attribute '{name}'")

    def agg(self, func=None, **kwargs):
        """Aggregate with a name, a list of names, a column -> name(s) dict or named aggregations."""
        meta = self._pandas().agg(func, **kwargs)
        if all(kind in ("label", "series") for kind, _ in _key_sources(self.obj, self.by, self.level)):
            # errors that empty input hides (a sample's labels are not the object's: no
            # levels, nothing a key function takes)
            self._pandas(sample=True).agg(func, **kwargs)
        if isinstance(self.obj, Series):
            series_col = self.frame.data.meta.columns[0]
        else:
            series_col = None if isinstance(self.selection, list) else self.selection
        if self.selection is None:
            value_cols = [c for c in self.frame.data.meta.columns if c not in self.keys]
        else:
            value_cols = self.selection if isinstance(self.selection, list) else [self.selection]
        try:
            if func is not None and kwargs:
                raise NotImplementedError("aggregation keyword arguments")
            pairs = _outputs_of(func, kwargs, value_cols, series_col)
            return self._build(pairs, meta, "md.groupby.agg")
        except NotImplementedError:  # any other aggregation: pandas on whole groups
            return self._apply(meta, func, kwargs)

    aggregate = agg

    def _build(self, pairs, meta, label):
        n_keys = 0 if self.as_index else len(self.keys)
        n_out = 1 if isinstance(meta, pd.Series) else len(meta.columns) - n_keys
        if len(pairs) != n_out:
            raise NotImplementedError("this groupby aggregation is not supported yet")
        partials, outputs = _plan(pairs, self.sort)
        op = GroupByAgg(by=tuple(self.keys), sort=self.sort, dropna=self.dropna, observed=self.observed,
                        partials=partials, outputs=outputs, as_index=self.as_index,
                        index_names=self.index_names, result_meta=_Meta(meta), label=label)
        return new_frame(op, [self.frame], math.nan, meta)

    def _apply(self, meta, func=None, kwargs=None, size=False):
        selection = self.selection
        if isinstance(self.obj, Series):
            selection = self.frame.data.meta.columns[0]
        op = GroupByApply(by=tuple(self.keys), sort=self.sort, dropna=self.dropna,
                          observed=self.observed, selection=selection, func=func,
                          func_kwargs=dict(kwargs or {}), size=size, as_index=self.as_index,
                          index_names=self.index_names, result_meta=_Meta(meta),
                          label="md.groupby.agg")
        return new_frame(op, [self.frame], math.nan, meta)

    def size(self):
        """Rows per group."""
        return self._build([(None, "size")], self._pandas().size(), "md.groupby.size")


def _method(how):
    def method(self, **kwargs):
        return self.agg(how, **kwargs)

    method.__name__ = how
    method.__doc__ = f"Per-group {how}."
    return method


for _how in ("sum", "mean", "count", "min", "max", "prod", "first", "last", "median", "var", "std",
             "nunique", "sem"):
    setattr(GroupBy, _how, _method(_how))


def _by_grouper(obj, grouper: pd.Grouper, as_index, sort, dropna, observed, group_keys):
    """``groupby(pd.Grouper(key=, level=, freq=))``: with a ``freq``, pandas bins the times as
    ``resample`` does (every bin from the first to the last, empty ones too), else it groups by
    the key or level."""
    key, level, freq = grouper.key, grouper.level, getattr(grouper, "freq", None)
    if freq is None:  # the Grouper's own sort decides (False by default), as in pandas
        return groupby(obj, key, level, as_index, grouper.sort, dropna, observed, group_keys)
    if level is not None or not as_index:
        raise NotImplementedError("groupby(pd.Grouper(freq=)) with level= or as_index=False")
    params = {name: getattr(grouper, name, None) for name in ("closed", "label", "origin", "offset")}
    timed = obj if key is None else obj.set_index(key)
    return timed.resample(freq, **{k: v for k, v in params.items() if v is not None})


def _is_array_key(key, obj) -> bool:
    """Whether pandas groups by ``key``'s values position by position (an array, an Index, a
    tensor, or a list as long as the rows whose items are not all column labels)."""
    if isinstance(key, (np.ndarray, pd.Index)) or _is_tensor(key):
        return True
    return False


def groupby(obj, by=None, level=None, as_index=True, sort=True, dropna=True, observed=None,
            group_keys=True):
    """Group by column labels, Series (aligned by label), index levels (``level=``), or
    functions / dicts of the index labels, or a list of these; aggregate with ``.agg``,
    ``.sum()``, ..."""
    if by is None and level is None:
        raise TypeError("You have to supply one of 'by' and 'level'")
    if isinstance(by, pd.Grouper):
        return _by_grouper(obj, by, as_index, sort, dropna, observed, group_keys)
    if isinstance(by, list) and any(isinstance(k, pd.Grouper) for k in by):
        raise NotImplementedError("groupby by a list holding a pd.Grouper is not supported")
    if isinstance(by, (DataFrame, pd.DataFrame)):
        raise NotImplementedError("groupby by a DataFrame is not supported: group by its "
                                  "columns as Series (aligned by label)")
    by = list(by) if isinstance(by, (list, tuple)) else by
    by = [array_key(k, obj) if _is_array_key(k, obj) else k for k in by] if isinstance(by, list) \
        else array_key(by, obj) if _is_array_key(by, obj) else by
    by = [_lazy_key(k, obj) for k in by] if isinstance(by, list) else _lazy_key(by, obj)
    if isinstance(by, Series) and _is_column_of(by, obj):
        by = by.name  # pandas then leaves the key column out of the values, as for a label
    return GroupBy(obj, by, as_index, sort, dropna, observed, group_keys=group_keys, level=level)
