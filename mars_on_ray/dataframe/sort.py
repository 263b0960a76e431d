"""sort_values, sort_index, nlargest, nsmallest: sample-based range partitioning, top-k.

A sort of several chunks is a PSRS: each chunk's sort keys are sorted and a few regularly
spaced rows are sampled (tiling reads them), the tiler picks split rows weighted by the
chunks' sizes, every chunk sends each key range its rows, and each range sorts what it got
with pandas (stable). Rows carry their global position (chunk, row) as the last sort key for
the split, so equal keys may straddle ranges and the result is still pandas' stable order.
One chunk is sorted by pandas directly (with the user's ``kind``). ``nlargest`` /
``nsmallest`` and ``sort_values(...).head(n)`` keep a top-k per chunk, then take the top-k
of those (a tree).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, TileableData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.optimizer import Plan, tileable_rule
from ..core.shuffle import order_keys, range_split_codes, regular_sample, split_by_codes, weighted_boundaries
from .blockwise import chunk_shape, concat_values, row_chunks, rows_grid, sample_of
from .core import DataFrame, Index, Series, methods, new_frame
from .indexing import Head
from .positional import PANDAS3
from .rules.usage import is_frame, uses

__all__: list[str] = []

#: sampled rows per chunk is about this over the number of chunks, and at least
#: ``_SAMPLES_MIN`` each: about that many samples per key range keeps every range under about
#: twice the average (at 4, ranges of a thousand chunks reached 3x)
_SAMPLES_TOTAL = 4000
_SAMPLES_MIN = 16


def _idx(meta, i: int) -> tuple:
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


def _as_range(res, ranged: bool):
    """pandas 2.2 keeps a RangeIndex only when a sort leaves the rows in place: a range piece
    here (the concatenated result then is that RangeIndex); pandas 3 keeps ranges itself."""
    index = getattr(res, "index", None)
    if PANDAS3 or not ranged or \
            isinstance(index, pd.RangeIndex) or len(index) == 0 or index.dtype != np.int64:
        return res
    values = index.to_numpy()
    if values[-1] - values[0] == len(values) - 1 and np.all(np.diff(values) == 1):
        res.index = pd.RangeIndex(int(values[0]), int(values[-1]) + 1)
    return res


def _ranged(node) -> bool:
    return isinstance(getattr(node.meta, "index", None), pd.RangeIndex)


def _concat(values):
    parts = [v for v in values if len(v)] or list(values[:1])
    return concat_values(parts)


class _Sorter:
    """How one sort call orders rows: the pandas call and the key columns that define it."""

    _fields = ("mode", "by", "ascending", "na_position", "kind", "key", "level", "sort_remaining")

    def __init__(self, mode, by=None, ascending=True, na_position="last", kind="quicksort",
                 key=None, level=None, sort_remaining=True):
        self.mode, self.by, self.ascending, self.na_position = mode, by, ascending, na_position
        self.kind, self.key, self.level, self.sort_remaining = kind, key, level, sort_remaining

    def __mars_token__(self):
        return ("sorter",) + tuple(getattr(self, f) for f in self._fields)

    def sort(self, value, kind=None, ignore_index=False):
        """pandas' own sort of ``value`` (``kind`` overrides the user's)."""
        kind = kind or self.kind
        if self.mode == "index":
            return value.sort_index(level=self.level, ascending=self.ascending, kind=kind,
                                    na_position=self.na_position, sort_remaining=self.sort_remaining,
                                    ignore_index=ignore_index, key=self.key)
        if isinstance(value, pd.Index):
            return value.sort_values(ascending=self.ascending, na_position=self.na_position,
                                     key=self.key)
        kw = {} if isinstance(value, pd.Series) else {"by": list(self.by)}
        return value.sort_values(**kw, ascending=self.ascending, kind=kind, na_position=self.na_position,
                                 ignore_index=ignore_index, key=self.key)

    def key_columns(self, value) -> list:
        """The sort key columns of ``value`` (key function applied)."""
        if self.mode == "index":
            index = value.index
            if isinstance(index, pd.MultiIndex):
                names = list(range(index.nlevels))
                levels = names if self.level is None else [
                    index._get_level_number(lv) for lv in _as_list(self.level)]
                if self.sort_remaining:
                    levels = levels + [lv for lv in names if lv not in levels]
                cols = [index.get_level_values(lv) for lv in levels]
                if self.key is not None:
                    cols = [self.key(c) for c in cols]
            else:
                cols = [index if self.key is None else self.key(index)]
        elif isinstance(value, (pd.Series, pd.Index)):
            cols = [value if self.key is None else self.key(value)]
        else:  # a label may also name an index level, as pandas allows
            cols = [value[c] if c in value.columns else pd.Series(value.index.get_level_values(c))
                    for c in self.by]
            cols = cols if self.key is None else [self.key(c) for c in cols]
        return cols

    def key_frame(self, value, base: int) -> pd.DataFrame:
        """Key columns 0..k-1 plus the rows' global positions (column k) as a last key."""
        return order_keys(self.key_columns(value), base)

    def directions(self, keys: pd.DataFrame) -> list[bool]:
        """Per column of a key frame: ascending or not (positions always ascend)."""
        k = keys.shape[1] - 1
        asc = self.ascending
        asc = list(asc) if isinstance(asc, (list, tuple)) else [asc] * k
        return [bool(a) for a in asc] + [True] * (k + 1 - len(asc))


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


class SortChunks(Operand):
    """One stage of a sort: ``single`` (one chunk), ``sample``, ``map``, ``reduce``."""

    _params = ("sorter", "stage", "ignore_index", "base", "bounds", "n_reducers", "offset", "ranged")
    ranged = False
    base = 0
    bounds = None
    n_reducers = 1
    offset = None

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_reducers if self.stage == "map" else 1

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return self.stage != "map"

    def execute(self, *values):
        s = self.sorter
        if self.stage == "single":
            return s.sort(values[0], ignore_index=self.ignore_index)
        if self.stage == "sample":
            keys = s.key_frame(values[0], self.base)
            sample = regular_sample(keys, s.directions(keys), s.na_position, self.n_reducers, seed=self.base)
            return sample, len(keys)
        if self.stage == "map":
            value = values[0]
            keys = s.key_frame(value, self.base)
            codes = range_split_codes(keys, self.bounds, s.directions(keys), s.na_position)
            pieces = split_by_codes(value, codes, self.n_reducers)
            return pieces if len(pieces) > 1 else pieces[0]
        res = s.sort(_concat(values), kind="stable")  # runs arrive in chunk order: stable = global
        if self.offset is not None:
            res.index = pd.RangeIndex(self.offset, self.offset + len(res))
        return _as_range(res, self.ranged)

    def tile(self, ctx, out):
        meta = out.meta
        chunks = row_chunks(ctx[out.inputs[0]])
        n = len(chunks)
        if n == 1:
            shape = chunk_shape(meta, chunks[0].shape[0])
            return rows_grid([ChunkData(self.new(stage="single"), chunks, shape, meta, _idx(meta, 0))], meta)
        return rows_grid((yield from self.sorted_ranges(ctx, chunks, meta, _ranged(out.inputs[0]))), meta)

    def sorted_ranges(self, ctx, chunks, meta=None, ranged=False) -> list[ChunkData]:
        """The rows of ``chunks`` range-partitioned by sampled keys and sorted: one chunk per
        range, in order (``meta=None``: chunks of frames whose columns are not known)."""
        n = len(chunks)
        per_chunk = max(_SAMPLES_MIN, -(-_SAMPLES_TOTAL // n))
        samples = [ChunkData(self.new(stage="sample", base=i << 32, n_reducers=per_chunk), [c], (math.nan,),
                             None, (i,)) for i, c in enumerate(chunks)]
        got = yield from ctx.values(samples)
        keys = [g[0] for g in got]
        bounds = weighted_boundaries(keys, [g[1] for g in got], n, self.sorter.directions(keys[0]),
                                     self.sorter.na_position)
        k = len(bounds) + 1
        received = exchange([(self.new(stage="map", base=i << 32, bounds=bounds, n_reducers=k), [c])
                             for i, c in enumerate(chunks)], k, self.label)
        shapes = iter((yield [p for r in received for p in r]))
        sizes = np.asarray([sum(next(shapes)[0] for _ in r) for r in received], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        reducers = []
        for j in range(k):
            op = self.new(stage="reduce", offset=int(offsets[j]) if self.ignore_index else None, ranged=ranged)
            shape = chunk_shape(meta, int(sizes[j])) if meta is not None else (int(sizes[j]), math.nan)
            reducers.append(ChunkData(op, received[j], shape, meta, _idx(meta, j) if meta is not None else (j, 0)))
        return reducers

    def rebuild(self, node, inputs):
        """Same rows reordered: the metadata is the (maybe pruned) input's (a new RangeIndex
        when ignoring the index)."""
        meta = inputs[0].meta
        if self.ignore_index and not isinstance(meta, pd.Index):
            meta = meta.reset_index(drop=True)
        return TileableData(self, inputs, chunk_shape(meta, node.shape[0]), meta, node.chunk_size)


@uses(SortChunks)
def _sort_columns(node, needed):
    sorter = node.op.sorter
    if not is_frame(node) or needed is None:
        return [None]
    return [set(needed) | (set(sorter.by) if sorter.mode == "values" else set())]


def _check(meta, call, sample: bool = True):
    """pandas' errors for bad arguments, on the empty meta and on a one-row sample."""
    try:
        call(meta)
    except AssertionError:  # pandas 2.2 trips on some empty MultiIndex frames
        pass
    if sample and not isinstance(meta, pd.Index):
        call(sample_of(meta))


def _sorted(obj, sorter: _Sorter, ignore_index: bool, inplace: bool, label: str):
    meta = obj.data.meta
    # a user's key function may not take the made-up sample values
    # a user's key function may not take made-up sample values; a sample has no real index
    sample = sorter.key is None and sorter.mode == "values" and \
        all(c in getattr(meta, "columns", ()) for c in sorter.by or ())
    _check(meta, lambda m: sorter.sort(m, ignore_index=ignore_index), sample=sample)
    if ignore_index and not isinstance(meta, pd.Index):
        meta = meta.reset_index(drop=True)
    op = SortChunks(sorter=sorter, ignore_index=ignore_index, label=label)
    result = new_frame(op, [obj], obj.shape[0], meta)
    if inplace:
        obj.data = result.data
        return None
    return result


@methods(DataFrame, Series, Index)
def sort_values(obj, by=None, *, axis=0, ascending=True, inplace=False, kind="quicksort",
                na_position="last", ignore_index=False, key=None):
    """Rows sorted by column(s) ``by`` (a Series or Index by its values): pandas' order, stable
    across chunks (ties in their original order)."""
    if isinstance(obj, (Series, Index)):
        if by is not None and not isinstance(obj, Index):  # Series.sort_values(axis=0, ...)
            axis, by = by, None
        by = None
    elif by is None:
        raise TypeError("sort_values() missing 1 required positional argument: 'by'")
    if axis not in (0, "index"):
        if isinstance(obj, DataFrame) and axis in (1, "columns"):
            return _sort_along_columns(obj, by, ascending, inplace, kind, na_position, ignore_index,
                                      key)
        raise ValueError(f"No axis named {axis} for object type {type(obj.data.meta).__name__}")
    if isinstance(obj, Index):
        sorter = _Sorter("values", ascending=ascending, na_position=na_position, key=key)
        return _sorted(obj, sorter, False, False, "md.Index.sort_values")
    if by is not None and not isinstance(by, (list, tuple)):
        by = [by]
    if isinstance(ascending, tuple):
        ascending = list(ascending)
    sorter = _Sorter("values", by=tuple(by) if by is not None else None, ascending=ascending,
                     na_position=na_position, kind=kind, key=key)
    return _sorted(obj, sorter, ignore_index, inplace, "md.sort_values")


def _sort_along_columns(obj, by, ascending, inplace, kind, na_position, ignore_index, key):
    """``df.sort_values(by, axis=1)``: the columns in the order pandas gives them from the
    values of rows ``by`` (those few rows are computed now)."""
    from .reshape import compute_now

    labels = list(by) if isinstance(by, (list, tuple)) else [by]
    rows = compute_now(obj.loc[labels], source=obj)  # pandas' KeyError for a missing label
    numbered = rows.set_axis(range(rows.shape[1]), axis=1)  # positions: duplicate names stay apart
    order = numbered.sort_values(by, axis=1, ascending=ascending, kind=kind,
                                 na_position=na_position, key=key).columns
    result = obj.iloc[:, list(order)]
    if ignore_index:
        result = result.set_axis(range(len(order)), axis=1)
    if inplace:
        obj.data = result.data
        return None
    return result


@methods(DataFrame, Series)
def sort_index(obj, *, axis=0, level=None, ascending=True, inplace=False, kind="quicksort",
               na_position="last", sort_remaining=True, ignore_index=False, key=None):
    """Rows sorted by their index labels (``axis=1``: a DataFrame's columns)."""
    meta = obj.data.meta
    if isinstance(obj, DataFrame) and axis in (1, "columns"):
        columns = meta.sort_index(axis=1, level=level, ascending=ascending, kind=kind,
                                  na_position=na_position, sort_remaining=sort_remaining, key=key).columns
        result = obj[list(columns)]
        if inplace:
            obj.data = result.data
            return None
        return result
    if axis not in (0, "index"):
        raise ValueError(f"No axis named {axis} for object type {type(meta).__name__}")
    if isinstance(ascending, tuple):
        ascending = list(ascending)
    if level is not None and isinstance(ascending, list):
        raise NotImplementedError("sort_index with level= and a list of ascending flags")
    sorter = _Sorter("index", ascending=ascending, na_position=na_position, kind=kind, key=key,
                     level=level, sort_remaining=sort_remaining)
    return _sorted(obj, sorter, ignore_index, inplace, "md.sort_index")


# --- top-k: nlargest, nsmallest, sort_values(...).head(n) ----------------------------------

def _head_candidates(value, sorter: _Sorter, n: int):
    """The rows that can be among the first ``n`` of a stable sort of ``value``: those whose
    first sort key is at most the n-th smallest (descending: at least the n-th largest), in
    their original order. Linear (a partition) where sorting is not; every row when the first
    key is not a plain numeric column, or missing values would sort first or be needed."""
    if sorter.mode != "values" or sorter.key is not None or len(value) <= 4 * n or n <= 0:
        return value
    first = value if isinstance(value, pd.Series) else value[_as_list(sorter.by)[0]]
    if not isinstance(first, pd.Series) or first.dtype.kind not in "iuf":
        return value
    keys = first.to_numpy()
    ascending = sorter.ascending if isinstance(sorter.ascending, bool) else sorter.ascending[0]
    valid = keys if keys.dtype.kind != "f" else keys[~np.isnan(keys)]
    if len(valid) < n or (len(valid) < len(keys) and sorter.na_position == "first"):
        return value
    if ascending:
        bound = np.partition(valid, n - 1)[n - 1]
        return value[keys <= bound]  # NaN compares False: never a candidate here
    bound = np.partition(valid, len(valid) - n)[len(valid) - n]
    return value[keys >= bound]


def _sorted_as_is(value, sorter: _Sorter, reverse: bool = False) -> bool:
    """Whether a stable sort leaves ``value`` (unique labels) as it is (``reverse``: exactly
    reversed). A first key out of order answers at once; only data already ordered by it pays
    for the sort (cheap then)."""
    if sorter.mode == "values" and sorter.key is None:
        first = value if isinstance(value, pd.Series) else value[_as_list(sorter.by)[0]]
        ascending = sorter.ascending if isinstance(sorter.ascending, bool) else sorter.ascending[0]
        try:
            known = first.dropna() if isinstance(first, pd.Series) else None
            if known is not None and not (known.is_monotonic_increasing if ascending != reverse
                                          else known.is_monotonic_decreasing):
                return False
        except TypeError:
            pass
    labels = value.index[::-1] if reverse else value.index
    return sorter.sort(value, kind="stable").index.equals(labels)


def _order_summary(value, sorter: _Sorter):
    """(sorted as is, sorted reversed, first row, last row, rows) of one chunk."""
    if not len(value):
        return True, True, None, None, 0
    reversed_ = PANDAS3 and _sorted_as_is(value, sorter, reverse=True)  # only pandas 3 asks
    return _sorted_as_is(value, sorter), reversed_, value.iloc[:1], value.iloc[-1:], len(value)


def _whole_sort_keeps_range(summaries, sorter: _Sorter) -> bool:
    """pandas keeps a RangeIndex through a sort when the sort leaves the rows in place, and in
    pandas 3 also when it exactly reverses them: decided here from the chunks' summaries."""
    summaries = [s for s in summaries if s[2] is not None]
    pairs = [pd.concat([a[3], b[2]]) for a, b in zip(summaries, summaries[1:])]
    if all(s[0] for s in summaries) and all(_sorted_as_is(p, sorter) for p in pairs):
        return True
    return PANDAS3 and all(s[1] for s in summaries) and \
        all(_sorted_as_is(p, sorter, reverse=True) for p in pairs)


def _is_progression(labels) -> bool:
    steps = np.diff(labels)
    return len(steps) == 0 or (steps[0] != 0 and bool(np.all(steps == steps[0])))


def _selected_keeps_range(res, how: str, n: int, summaries) -> bool:
    """nlargest / nsmallest of a RangeIndex: pandas 3 takes the picked rows (a RangeIndex when
    their labels are evenly spaced); pandas 2.2 gives an Index, except that a Series with
    ``n`` at least its length is sorted (a RangeIndex when the sort leaves it in place)."""
    if PANDAS3:
        return _is_progression(res.index.to_numpy())
    if isinstance(res, pd.Series) and n >= sum(s[4] for s in summaries):
        return _whole_sort_keeps_range(summaries, _Sorter("values", ascending=how == "nsmallest"))
    return False


def _index_as(res, keeps_range: bool):
    values = res.index.to_numpy()
    if keeps_range and not len(values):
        res.index = pd.RangeIndex(0)
    elif keeps_range:
        step = int(values[1] - values[0]) if len(values) > 1 else 1
        res.index = pd.RangeIndex(int(values[0]), int(values[-1]) + step, step)
    elif isinstance(res.index, pd.RangeIndex):
        res.index = pd.Index(values)
    return res


class TopK(Operand):
    """The top ``n`` rows of each chunk, then of those (a tree): ``how`` is ``nlargest``,
    ``nsmallest`` or ``head`` (the first rows of a stable sort by ``sorter``)."""

    _params = ("how", "n", "columns", "keep", "sorter", "ignore_index", "stage", "checks", "ranged")
    ranged = False
    columns = None
    keep = "first"
    sorter = None
    ignore_index = False
    stage = None
    #: trailing inputs of the final stage that say whether the whole input is already sorted
    checks = 0

    def execute(self, *values):
        if self.stage == "check":
            sorter = self.sorter or _Sorter("values", ascending=self.how == "nsmallest")
            return _order_summary(values[0], sorter)
        summaries = values[len(values) - self.checks:]
        value = _concat(values[:len(values) - self.checks])
        if self.stage == "map" and self.how != "head":  # candidates kept in their original order
            picked = self._top(value.reset_index(drop=True)).index.to_numpy()
            return value.iloc[np.sort(picked)]
        res = self._top(value)
        if self.ignore_index:
            return res.reset_index(drop=True)
        if self.stage == "final" and self.how == "head" and self.checks:
            return _index_as(res, _whole_sort_keeps_range(summaries, self.sorter))
        if self.stage == "final" and self.ranged:
            return _index_as(res, _selected_keeps_range(res, self.how, self.n, summaries))
        return res

    def _top(self, value):
        if self.how == "head":
            if self.stage == "single":  # the user's sort kind, on every row: pandas' tie order
                return self.sorter.sort(value).head(self.n)
            return self.sorter.sort(_head_candidates(value, self.sorter, self.n), kind="stable").head(self.n)
        kw = {} if isinstance(value, pd.Series) else {"columns": list(self.columns)}
        return getattr(value, self.how)(self.n, keep=self.keep, **kw)

    def tile(self, ctx, out):
        meta = out.meta
        chunks = row_chunks(ctx[out.inputs[0]])
        if len(chunks) == 1:
            level = chunks
            stage = "single"
        else:
            level = [ChunkData(self.new(stage="map"), [c], chunk_shape(meta, math.nan), meta, _idx(meta, i))
                     for i, c in enumerate(chunks)]
            stage = "final"
        k = max(2, options.combine_size)
        checks = []
        ranged = stage == "final" and not self.ignore_index and _ranged(out.inputs[0])
        if ranged and (self.how == "head" or (not PANDAS3 and isinstance(meta, pd.Series))):
            checks = [ChunkData(self.new(stage="check"), [c], (), None, (i,)) for i, c in enumerate(chunks)]
        while len(level) > k:
            level = [ChunkData(self.new(stage="map"), level[i:i + k], chunk_shape(meta, math.nan), meta,
                               _idx(meta, j)) for j, i in enumerate(range(0, len(level), k))]
        final = ChunkData(self.new(stage=stage, checks=len(checks), ranged=ranged), level + checks,
                          chunk_shape(meta, out.shape[0]), meta, _idx(meta, 0))
        return rows_grid([final], meta)

    def rebuild(self, node, inputs):
        meta = inputs[0].meta
        if self.ignore_index:
            meta = meta.reset_index(drop=True)
        return TileableData(self, inputs, chunk_shape(meta, node.shape[0]), meta, node.chunk_size)


@uses(TopK)
def _top_columns(node, needed):
    op = node.op
    if not is_frame(node) or needed is None:
        return [None]
    extra = op.columns if op.how != "head" else (op.sorter.by if op.sorter.mode == "values" else ())
    return [set(needed) | set(extra or ())]


def _top_rows(nrows, n: int, keep: str):
    if math.isnan(nrows) or keep == "all":
        return math.nan
    return max(0, min(n, int(nrows)))


def _select(obj, how: str, n, columns, keep):
    meta = obj.data.meta
    if keep not in ("first", "last", "all"):
        raise ValueError('keep must be either "first", "last" or "all"')
    kw = {} if isinstance(obj, Series) else {"columns": columns}
    _check(meta, lambda m: getattr(m, how)(n, keep=keep, **kw))
    if columns is not None and not isinstance(columns, (list, tuple)):
        columns = [columns]
    op = TopK(how=how, n=int(n), columns=tuple(columns) if columns is not None else None, keep=keep,
              label=f"md.{how}")
    return new_frame(op, [obj], _top_rows(obj.shape[0], int(n), keep), meta)


@methods(DataFrame)
def nlargest(obj, n, columns, keep="first"):
    """The ``n`` rows with the largest values of ``columns`` (a top-k per chunk, then of those)."""
    return _select(obj, "nlargest", n, columns, keep)


@methods(DataFrame)
def nsmallest(obj, n, columns, keep="first"):
    """The ``n`` rows with the smallest values of ``columns``."""
    return _select(obj, "nsmallest", n, columns, keep)


def _series_nlargest(obj, n=5, keep="first"):
    """The ``n`` largest values (a top-k per chunk, then of those)."""
    return _select(obj, "nlargest", n, None, keep)


def _series_nsmallest(obj, n=5, keep="first"):
    """The ``n`` smallest values."""
    return _select(obj, "nsmallest", n, None, keep)


methods(Series, name="nlargest")(_series_nlargest)
methods(Series, name="nsmallest")(_series_nsmallest)


@tileable_rule(20)
def sort_head_as_top_k(plan: Plan) -> Plan:
    """``sort_values(...).head(n)`` / ``sort_index(...).head(n)``: a top-k, not a full sort
    (when nothing else reads the sorted rows)."""
    consumers = plan.consumers()
    roots = {r.key for r in plan.roots}
    mapping = {}
    for node in plan.order:
        if not isinstance(node.op, Head) or node.op.n < 0:
            continue
        src = node.inputs[0]
        if not isinstance(src.op, SortChunks) or src.key in roots or len(consumers[src.key]) != 1:
            continue
        op = TopK(how="head", n=node.op.n, sorter=src.op.sorter, ignore_index=src.op.ignore_index,
                  label=f"{src.op.name}.head")
        mapping[node.key] = TileableData(op, src.inputs, node.shape, node.meta, node.chunk_size)
    return plan.replace(mapping)
