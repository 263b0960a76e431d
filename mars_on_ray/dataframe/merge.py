"""merge and join: broadcast or shuffle joins with pandas' row order.

The strategy is chosen while tiling, from real sizes:

- ``cross``, and inner / left (right) joins whose right (left) side is small: the small side
  goes whole to every chunk of the other; each chunk's merge is already in pandas' order.
- ``sort=True`` and ``outer`` (pandas sorts the keys): both sides are range-partitioned on the
  first key (boundaries from sampled keys, missing keys last); each reducer merges its range
  with ``sort=True``, so the reducers' outputs are the result's chunks in order.
- otherwise both sides are hash-partitioned on the keys, each row carrying its position
  (``chunk << 32 | row``); each reducer merges and sends every output row back to the chunk of
  the side whose row order pandas keeps, where the rows are sorted by those positions.

Merges on columns get a fresh RangeIndex from the output chunks' real sizes. Columns that
unmatched rows fill with missing values are declared with the dtype holding them (pandas
keeps e.g. int64 when every row happens to match).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.shuffle import pick_boundaries, range_codes, sample_keys, split_by_codes
from ..core.small_data import chunk_nbytes
from .positional import PANDAS3
from .blockwise import chunk_shape, index_as, map_chunks, row_chunks, rows_grid, sample_of, whole_chunk
from .core import DataFrame, Series, methods, new_frame
from .direct_join import direct_join
from .rules.usage import uses

__all__ = ["merge"]

_LPOS, _RPOS = "__mars_lpos__", "__mars_rpos__"
#: the side whose row order pandas keeps when it does not sort the keys
_ORDER_SIDE = {"inner": "l", "left": "l", "left_anti": "l", "right": "r", "right_anti": "r"}


# --- keys ---------------------------------------------------------------------------------

def _key_values(frame: pd.DataFrame, keys) -> list:
    """The key arrays of ``frame``: its index levels (``keys`` None) or columns / level names."""
    if keys is None:
        return [frame.index.get_level_values(i) for i in range(frame.index.nlevels)]
    return [frame[k] if k in frame.columns else frame.index.get_level_values(k) for k in keys]


def _key_frame(frame: pd.DataFrame, keys, casts) -> pd.DataFrame:
    """The keys as positional columns cast to the dtypes both sides share (equal keys hash
    and sort alike on both sides)."""
    cols = {}
    for i, (v, dtype) in enumerate(zip(_key_values(frame, keys), casts)):
        s = pd.Series(v.array, copy=False)
        cols[i] = s if dtype is None else s.astype(dtype)
    return pd.DataFrame(cols, index=pd.RangeIndex(len(frame)))


def _common_dtype(a, b):
    """None when both sides' keys already hash alike, else the dtype to cast both to."""
    if a == b:
        return None
    kinds = getattr(a, "kind", "O") + getattr(b, "kind", "O")
    if all(k in "iufb" for k in kinds):
        return np.dtype("float64")
    if kinds == "MM" and not isinstance(a, pd.DatetimeTZDtype) and not isinstance(b, pd.DatetimeTZDtype):
        return np.dtype("datetime64[ns]")
    return np.dtype(object)


def _rangeable(dtype) -> bool:
    """Keys whose values sort with NumPy (numbers, dates, strings)."""
    if isinstance(dtype, pd.CategoricalDtype):
        return False
    return getattr(dtype, "kind", "O") in "iufbmM" or pd.api.types.is_string_dtype(dtype)


# --- chunk kernels ------------------------------------------------------------------------

def _concat(values: list) -> pd.DataFrame:
    parts = [v for v in values if len(v)] or list(values[:1])
    return parts[0] if len(parts) == 1 else pd.concat(parts)


def _cast(res: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``res`` with ``meta``'s dtypes and index names (pandas names a joined index after
    either side's depending on which side a share of the data lacks)."""
    names = meta.index.names
    if res.index.nlevels == len(names) and list(res.index.names) != list(names):
        res.index = res.index.set_names(names)
    if res.index.nlevels == 1 == meta.index.nlevels and res.index.dtype != meta.index.dtype \
            and meta.index.dtype.kind == "f":  # a block without the unmatched rows' NaN labels
        res.index = index_as(res.index, meta.index)
    for i, want in enumerate(meta.dtypes):
        if res.dtypes.iloc[i] != want:
            res.isetitem(i, res.iloc[:, i].astype(want))
    return res


class KeyShuffleMap(Operand):
    """Split one side's chunk among reducers by the hash of its keys, or (``ranged``) by the
    range of its first key; ``pos``: (column, base) to number the rows with first."""

    _params = ("keys", "casts", "n_reducers", "pos", "ranged")
    pos = None
    ranged = False
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_reducers

    def execute(self, frame, bounds=None):
        if self.pos is not None:
            col, base = self.pos
            frame = frame.assign(**{col: np.arange(len(frame), dtype=np.int64) + base})
        keys = _key_frame(frame, self.keys, self.casts)
        if self.ranged:
            codes = range_codes(keys[0], bounds)
        else:
            hashed = pd.util.hash_pandas_object(keys, index=False).to_numpy(dtype=np.uint64)
            codes = (hashed % np.uint64(self.n_reducers)).astype(np.intp)
        pieces = split_by_codes(frame, codes, self.n_reducers)
        return pieces if self.n_reducers > 1 else pieces[0]


class KeySample(Operand):
    """A few evenly spaced distinct values of one side's first key."""

    _params = ("keys", "casts")

    def execute(self, frame):
        return sample_keys(_key_frame(frame, self.keys, self.casts)[0])


class Boundaries(Operand):
    """Split points between ``n`` key ranges, from the samples of both sides."""

    _params = ("n",)

    def execute(self, *samples):
        return pick_boundaries([s for s in samples if len(s)], self.n)


class MergePieces(Operand):
    """pandas' merge of the first ``n_left`` inputs (left pieces) with the rest.

    ``split`` = (position column, n): the rows go to n outputs by the chunk in that column.
    ``order``: the rows are numbered first and put in the order of those position columns,
    after the keys (``keys`` = (left keys, right keys, casts)) when given: pandas' own order
    is not reliable on a share of the data (an inner join with missing keys in pandas 2.2,
    an outer join of indexes with one side empty).
    """

    _params = ("kwargs", "n_left", "split", "meta", "order", "keys", "fill_index")
    split = None
    order = None
    keys = None
    #: "l" / "r": pandas labels the rows from that side's index, except when it is empty;
    #: here it is only this reducer's share that is empty, so the labels are missing ones
    fill_index = None

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 1 if self.split is None else self.split[1]

    def execute(self, *values):
        left, right = _concat(values[:self.n_left]), _concat(values[self.n_left:])
        if self.order == (_LPOS, _RPOS) and self.split is None and self.keys is None:
            # a broadcast right side: by direct addressing where the keys allow it
            res = direct_join(left, right, self.kwargs, self.meta.value.columns)
            if res is not None:
                return _cast(res, self.meta.value)
        if self.order is not None:
            left = left.assign(**{_LPOS: np.arange(len(left), dtype=np.int64)})
            right = right.assign(**{_RPOS: np.arange(len(right), dtype=np.int64)})
        if self.keys is not None:
            lkeys, rkeys, casts = self.keys
            left = _with_keys(left, _key_frame(left, lkeys, casts), "l")
            right = _with_keys(right, _key_frame(right, rkeys, casts), "r")
        res = pd.merge(left, right, **self.kwargs)
        source = {"l": left, "r": right}.get(self.fill_index)
        if (source is not None and len(source) == 0 and len(res)
                and not isinstance(source.index, pd.MultiIndex)):
            res.index = _missing_labels(source.index, len(res))
        if self.split is not None:
            col, n = self.split
            codes = (res[col].to_numpy(dtype=np.int64) >> 32).astype(np.intp)
            pieces = split_by_codes(res, codes, n)
            return pieces if n > 1 else pieces[0]
        if self.order is not None:
            nkeys = 0 if self.keys is None else len(self.keys[2])
            helpers = [_LPOS, _RPOS] + [f"__mars_{s}k{i}__" for i in range(nkeys) for s in "lr"]
            if nkeys or not _in_order(res, self.order):
                res = res.iloc[_row_order(res, self.order, nkeys)]
            res = res.drop(columns=helpers, errors="ignore")
        return _cast(res, self.meta.value)


def _with_keys(frame, keys, side):
    return frame.assign(**{f"__mars_{side}k{i}__": keys[i].array for i in keys.columns})


def _in_order(res, order) -> bool:
    """Whether the rows are already sorted by the position columns ``order`` (pandas' merge
    of one piece usually keeps them so: checking is linear, sorting is not)."""
    cols = [res[c].to_numpy() for c in order if c in res.columns]
    if not cols or len(res) < 2:
        return True
    ahead = np.zeros(len(res) - 1, dtype=bool)  # row i+1 is already after row i
    tied = np.ones(len(res) - 1, dtype=bool)
    for col in cols:
        step = np.diff(col)
        ahead |= tied & (step > 0)  # NaN positions compare False: sorted then
        tied &= step == 0
    return bool(ahead.all())


def _row_order(res, order, nkeys) -> np.ndarray:
    """Positions putting merged rows in order of their keys (the left row's, or the right
    row's where there is no left row; missing last), then of the position columns."""
    cols = {}
    if nkeys:
        has_left = res[_LPOS].notna().to_numpy()
        for i in range(nkeys):
            lk = pd.Series(res[f"__mars_lk{i}__"].array)
            cols[f"k{i}"] = lk.where(has_left, pd.Series(res[f"__mars_rk{i}__"].array))
    for col in order:
        if col in res.columns:
            cols[col] = res[col].to_numpy()
    frame = pd.DataFrame(cols, index=pd.RangeIndex(len(res)))
    return frame.sort_values(list(frame.columns), kind="stable", na_position="last").index.to_numpy()


def _missing_labels(index: pd.Index, n: int) -> pd.Index:
    from pandas.core.dtypes.missing import na_value_for_dtype

    fill = na_value_for_dtype(index.dtype, compat=False)
    return index.append(pd.Index([fill])).take(np.full(n, -1, dtype=np.intp))


class MergeGather(Operand):
    """One output chunk: the rows sent back to one chunk of the order side, in pandas' order."""

    _params = ("order", "offset", "meta")
    offset = None

    def execute(self, *pieces):
        res = _concat(list(pieces)).sort_values(list(self.order), kind="stable")
        res = _cast(res.drop(columns=[_LPOS, _RPOS], errors="ignore"), self.meta.value)
        return _relabel(res, self.offset)


class Relabel(Operand):
    """Rows ``offset ..`` of a fresh RangeIndex."""

    _params = ("offset",)

    def execute(self, frame):
        return _relabel(frame, self.offset)


def _relabel(frame, offset):
    if offset is None:
        return frame
    return frame.set_axis(pd.RangeIndex(offset, offset + len(frame)), axis=0)


class _Meta:
    """An empty pandas result carried as a parameter, tokenized by its structure."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __mars_token__(self):
        v = self.value
        if isinstance(v, pd.Series):
            return ("series-meta", repr(v.dtype), repr(v.name), repr(v.index.names))
        return ("frame-meta", repr(v.dtypes), repr(list(v.columns)), repr(v.index.names))

    def __getstate__(self):
        return self.value

    def __setstate__(self, state):
        self.value = state


# --- tiling -------------------------------------------------------------------------------

class Merge(Operand):
    """``pd.merge(left, right, **kwargs)`` over row chunks (see the module docstring)."""

    _params = ("kwargs", "lkeys", "rkeys", "casts", "reset", "broadcast_ok")

    def rebuild(self, node, inputs):
        """Metadata inferred again from the new inputs (an optimizer may have pruned columns)."""
        from ..core.entity import TileableData

        meta = _result_meta(inputs[0].meta, inputs[1].meta, self.kwargs)
        return TileableData(self, inputs, (math.nan, meta.shape[1]), meta, node.chunk_size)

    def tile(self, ctx, out):
        left, right = out.inputs
        how = self.kwargs["how"]
        if how == "cross":
            pieces = [self._merge([c, whole_chunk(ctx[right], right.meta)], 1, out, i)
                      for i, c in enumerate(row_chunks(ctx[left]))]
            return (yield from self._finish(out, pieces))
        if self.kwargs["sort"] or how == "outer":
            return (yield from self._ranged(ctx, out))
        side = _ORDER_SIDE[how]
        small = right if side == "l" else left
        if self.broadcast_ok and (yield from _is_small(ctx, small)):
            whole = whole_chunk(ctx[small], small.meta)
            runs = _runs(row_chunks(ctx[left if side == "l" else right]), ctx.cpus)
            order = _order(side, how)
            pieces = [self._merge([*run, whole] if side == "l" else [whole, *run],
                                  len(run) if side == "l" else 1, out, i, order)
                      for i, run in enumerate(runs)]
            return (yield from self._finish(out, pieces))
        return (yield from self._hashed(ctx, out, side))

    def _merge(self, inputs, n_left, out, i, order=None, keys=None, fill_index=None):
        op = MergePieces(kwargs=self.kwargs, n_left=n_left, meta=_Meta(out.meta), order=order,
                         keys=keys, fill_index=fill_index, label=self.label)
        return ChunkData(op, inputs, chunk_shape(out.meta, math.nan), out.meta, (i, 0))

    def _maps(self, ctx, node, keys, n, pos=None, bounds=None):
        """Per reducer (of ``n``), its pieces of ``node``'s chunks (core/exchange.py)."""
        mappers = []
        for i, c in enumerate(row_chunks(ctx[node])):
            op = KeyShuffleMap(keys=keys, casts=self.casts, n_reducers=n, ranged=bounds is not None,
                               pos=None if pos is None else (pos, i << 32), label=self.label)
            mappers.append((op, [c] if bounds is None else [c, bounds]))
        return exchange(mappers, n, self.label)

    def _ranged(self, ctx, out):
        left, right = out.inputs
        lch, rch = row_chunks(ctx[left]), row_chunks(ctx[right])
        first = self.casts[0] or _first_key_dtype(left.meta, self.lkeys)
        n = max(len(lch), len(rch)) if _rangeable(first) else 1
        bounds = None
        if n > 1:
            samples = [ChunkData(KeySample(keys=k, casts=self.casts), [c], (math.nan,), None, (i,))
                       for i, (c, k) in enumerate([(c, self.lkeys) for c in lch] + [(c, self.rkeys) for c in rch])]
            bounds = ChunkData(Boundaries(n=n), samples, (math.nan,), None, (0,))
        lrecv = self._maps(ctx, left, self.lkeys, n, bounds=bounds) if n > 1 else [lch]
        rrecv = self._maps(ctx, right, self.rkeys, n, bounds=bounds) if n > 1 else [rch]
        fill = yield from self._fill_index(ctx, out)
        how = self.kwargs["how"]
        order = _order("r" if how.startswith("right") else "l", how) if n > 1 else None
        keys = (self.lkeys, self.rkeys, self.casts) if n > 1 else None
        pieces = [self._merge(lrecv[j] + rrecv[j], len(lrecv[j]), out, j,
                              order=order, keys=keys, fill_index=fill) for j in range(n)]
        return (yield from self._finish(out, pieces))

    def _hashed(self, ctx, out, side):
        left, right = out.inputs
        n = max(len(row_chunks(ctx[left])), len(row_chunks(ctx[right])))
        lrecv = self._maps(ctx, left, self.lkeys, n, pos=_LPOS)
        rrecv = self._maps(ctx, right, self.rkeys, n, pos=_RPOS)
        order = _order(side, self.kwargs["how"])
        n_out = len(row_chunks(ctx[left if side == "l" else right]))
        fill = yield from self._fill_index(ctx, out)
        # each reducer sends its rows back to the chunk of the order side they came from
        back = exchange([(MergePieces(kwargs=self.kwargs, n_left=len(lrecv[j]), split=(order[0], n_out),
                                      fill_index=fill, label=self.label), lrecv[j] + rrecv[j])
                         for j in range(n)], n_out, self.label)
        offsets = [None] * n_out
        if self.reset:
            shapes = iter((yield [p for b in back for p in b]))
            sizes = np.asarray([sum(next(shapes)[0] for _ in b) for b in back], dtype=np.int64)
            offsets = [int(x) for x in np.cumsum(np.concatenate([[0], sizes[:-1]]))]
        meta = out.meta
        chunks = []
        for k in range(n_out):
            op = MergeGather(order=order, offset=offsets[k], meta=_Meta(meta), label=self.label)
            rows = math.nan if offsets[k] is None else int(sizes[k])
            chunks.append(ChunkData(op, back[k], chunk_shape(meta, rows), meta, (k, 0)))
        return rows_grid(chunks, meta)

    def _fill_index(self, ctx, out):
        """The side labelling the rows when it has any (pandas' rule for an index on one side)."""
        kw, (left, right) = self.kwargs, out.inputs
        if kw["right_index"] and not kw["left_index"] and kw["how"] != "left":
            side, node = "l", left
        elif kw["left_index"] and not kw["right_index"] and kw["how"] != "right":
            side, node = "r", right
        else:
            return None
        tiled = yield from ctx.known(node)
        return side if sum(c.shape[0] for c in tiled.flat) else None

    def _finish(self, out, pieces):
        """The result chunks; a fresh RangeIndex from their real sizes when keyed by columns."""
        if not self.reset:
            return rows_grid(pieces, out.meta)
        shapes = yield pieces
        offsets = np.cumsum([0] + [s[0] for s in shapes])
        chunks = [ChunkData(Relabel(offset=int(offsets[i]), label=self.label), [p],
                            chunk_shape(out.meta, int(shapes[i][0])), out.meta, (i, 0))
                  for i, p in enumerate(pieces)]
        return rows_grid(chunks, out.meta)


@uses(Merge)
def _merge_columns(node, needed):
    """Keys, and the columns consumers need; an overlapping column on both sides or neither
    (the suffixes it gets depend on the overlap)."""
    if needed is None:
        return [None, None]
    op, (lmeta, rmeta) = node.op, (i.meta for i in node.inputs)
    sx, sy = op.kwargs["suffixes"]
    overlap = set(lmeta.columns) & set(rmeta.columns)
    wanted = {c for c in overlap if c in needed or f"{c}{sx}" in needed or f"{c}{sy}" in needed}
    out = []
    for meta, keys in ((lmeta, op.lkeys), (rmeta, op.rkeys)):
        cols = {c for c in meta.columns if c in needed or c in wanted}
        out.append(cols | {k for k in keys or () if k in meta.columns})
    return out


def _order(side, how):
    """The position columns that put merged rows in pandas' order (an anti join keeps one side)."""
    order = (_LPOS, _RPOS) if side == "l" else (_RPOS, _LPOS)
    return order[:1] if how.endswith("_anti") else order


def _runs(chunks, cpus: int) -> list[list]:
    """Consecutive chunks of the big side merged as one piece: every piece hashes the whole
    small side again, so as few pieces as keep each CPU busy and each piece under the chunk
    limit (one a chunk when sizes are unknown)."""
    sizes = [chunk_nbytes(c) for c in chunks]
    if any(b is None for b in sizes) or len(chunks) <= cpus:
        return [[c] for c in chunks]
    n = min(len(chunks), max(cpus, math.ceil(sum(sizes) / options.chunk_store_limit)))
    bounds = np.linspace(0, len(chunks), n + 1).round().astype(int)
    return [chunks[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _is_small(ctx, node):
    tiled = ctx[node]
    if tiled.has_unknown_shape:
        tiled = yield from ctx.known(node)
    return sum(chunk_nbytes(c) or 0 for c in tiled.flat) <= options.merge_broadcast_bytes


def _first_key_dtype(meta, keys):
    return _key_values(meta, keys)[0].dtype


# --- planning -----------------------------------------------------------------------------

def _sample(meta: pd.DataFrame) -> pd.DataFrame:
    """``sample_of(meta)``, a RangeIndex's label being the value an int key column's sample
    has: a column joined to an index matches in the stand-in as every row may match."""
    s = sample_of(meta)
    if isinstance(meta.index, pd.RangeIndex):
        first = int(sample_of(pd.Series([], dtype=np.int64)).iloc[0])
        s.index = pd.RangeIndex(first, first + 1, name=meta.index.name)
    return s


def _union_dtype(a, b):
    from pandas.core.dtypes.cast import find_common_type

    if a == b:
        return a
    cat_a, cat_b = isinstance(a, pd.CategoricalDtype), isinstance(b, pd.CategoricalDtype)
    if cat_a != cat_b:  # keys of differently categorized sides: pandas gives the values' dtype
        return b if cat_a else a
    return find_common_type([a, b])


def _common_meta(parts: list) -> pd.DataFrame:
    res = parts[0].iloc[:0].copy()
    for i in range(res.shape[1]):
        dtype = res.dtypes.iloc[i]
        for p in parts[1:]:
            dtype = _union_dtype(dtype, p.dtypes.iloc[i])
        if dtype != res.dtypes.iloc[i]:
            res.isetitem(i, res.iloc[:, i].astype(dtype))
    return res


def _result_meta(lmeta, rmeta, kwargs, unmatched=("left", "right")):
    """pandas' result dtypes: those of matched rows and of the unmatched rows of each side
    the join keeps (missing values in the other side's columns), together; ``unmatched``:
    the sides that have unmatched rows."""
    pd.merge(lmeta, rmeta, **kwargs)  # pandas' errors for bad arguments
    l1, r1 = _sample(lmeta), _sample(rmeta)
    how = kwargs["how"]
    parts = [] if how.endswith("_anti") else [pd.merge(l1, r1, **kwargs)]
    if how in ("left", "outer", "left_anti") and "left" in unmatched:
        parts.append(pd.merge(l1, rmeta, **kwargs))
    if how in ("right", "outer", "right_anti") and "right" in unmatched:
        parts.append(pd.merge(lmeta, r1, **kwargs))
    meta = _common_meta(parts)
    if PANDAS3 and how in ("right", "outer") and "right" in unmatched and kwargs.get("right_index") \
            and not kwargs.get("left_index") and meta.index.nlevels == 1:
        # pandas 3: the left index taken at unmatched right rows, missing labels (int -> float)
        filled = sample_of(lmeta).index.take([0, -1], allow_fill=True, fill_value=None)
        meta.index = filled[:0].rename(meta.index.name)
    return meta


def _unmatched_counts(flags):
    """One row: how many rows of each side found no match."""
    return pd.DataFrame([[int((flags == "left_only").sum()), int((flags == "right_only").sum())]])


def _learned_meta(left, right, kwargs, meta):
    """pandas' dtypes when they depend on whether some row finds no match (an int column of
    the other side becomes float64 then): which sides have unmatched rows is computed now,
    by a merge of the key columns only (the optimizer prunes the rest)."""
    lmeta, rmeta = left.data.meta, right.data.meta
    matched = _result_meta(lmeta, rmeta, kwargs, unmatched=())
    if kwargs["how"] not in ("left", "right", "outer") or matched.dtypes.equals(meta.dtypes):
        return meta
    from .reshape import compute_now

    flag = "__mars_matched__"
    joined = _build(left, right, dict(kwargs, indicator=flag, validate=None), learn=False)
    counts = compute_now(map_chunks(_unmatched_counts, (joined[flag],), keep_rows=False,
                                    label="md.merge").sum())
    sides = tuple(side for side, n in zip(("left", "right"), counts) if n)
    return _result_meta(lmeta, rmeta, kwargs, unmatched=sides)


def _as_list(keys):
    if keys is None:
        return None
    keys = list(keys) if isinstance(keys, (list, tuple)) else [keys]
    for k in keys:
        if isinstance(k, (np.ndarray, pd.Series, pd.Index, list, Series)):
            raise NotImplementedError("merge keys must be column or index level labels")
    return keys


def _key_specs(lmeta, rmeta, on, left_on, right_on, left_index, right_index, how):
    if how == "cross":
        return (), ()
    if on is None and left_on is None and right_on is None and not left_index and not right_index:
        on = list(lmeta.columns.intersection(rmeta.columns))
    lkeys = None if left_index else _as_list(left_on if left_on is not None else on)
    rkeys = None if right_index else _as_list(right_on if right_on is not None else on)
    return (None if lkeys is None else tuple(lkeys)), (None if rkeys is None else tuple(rkeys))


def _lazy_frame(obj):
    from .datasource import from_pandas

    if isinstance(obj, (pd.DataFrame, pd.Series)):
        obj = from_pandas(obj)
    if isinstance(obj, Series):
        if obj.name is None:
            raise ValueError("Cannot merge a Series without a name")
        obj = map_chunks(_to_frame, (obj,), label="md.merge")
    if not isinstance(obj, DataFrame):
        raise TypeError(f"Can only merge Series or DataFrame objects, a {type(obj)} was passed")
    return obj


def _to_frame(s):
    return s.to_frame()


def merge(left, right, how="inner", on=None, left_on=None, right_on=None, left_index=False,
          right_index=False, sort=False, suffixes=("_x", "_y"), copy=None, indicator=False,
          validate=None):
    """Database-style join of two frames on columns or indexes, as ``pandas.merge``."""
    kwargs = dict(how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index,
                  right_index=right_index, sort=sort, suffixes=suffixes, indicator=indicator,
                  validate=validate)
    return _merge(left, right, kwargs, learn=True)


def merge_frames(left, right, **kwargs):
    """``merge`` for internal callers (alignment, concat, reindex), which may run while a graph
    is tiled: nothing is computed when it is built, the declared dtypes allow unmatched rows."""
    defaults = dict(how="inner", on=None, left_on=None, right_on=None, left_index=False,
                    right_index=False, sort=False, suffixes=("_x", "_y"), indicator=False, validate=None)
    return _merge(left, right, {**defaults, **kwargs}, learn=False)


def _merge(left, right, kwargs, learn):
    left, right = _lazy_frame(left), _lazy_frame(right)
    if kwargs["how"] in ("left_anti", "right_anti"):
        _result_meta(left.data.meta, right.data.meta, kwargs)  # pandas' errors
        return _anti_join(left, right, kwargs)
    return _build(left, right, kwargs, learn)


def _build(left, right, kwargs, learn=True):
    how, on, left_on, right_on = kwargs["how"], kwargs["on"], kwargs["left_on"], kwargs["right_on"]
    left_index, right_index, validate = kwargs["left_index"], kwargs["right_index"], kwargs["validate"]
    lmeta, rmeta = left.data.meta, right.data.meta
    meta = _result_meta(lmeta, rmeta, kwargs)
    if learn:
        meta = _learned_meta(left, right, kwargs, meta)
    lkeys, rkeys = _key_specs(lmeta, rmeta, on, left_on, right_on, left_index, right_index, how)
    casts = tuple(_common_dtype(a.dtype, b.dtype)
                  for a, b in zip(_key_values(lmeta, lkeys), _key_values(rmeta, rkeys))) \
        if how != "cross" else ()
    # validate checks uniqueness over a whole side: the broadcast side only is whole
    broadcast_ok = validate in (None, "many_to_many", "m:m") or (
        validate in ("many_to_one", "m:1") and _ORDER_SIDE.get(how) == "l") or (
        validate in ("one_to_many", "1:m") and _ORDER_SIDE.get(how) == "r")
    op = Merge(kwargs=kwargs, lkeys=lkeys, rkeys=rkeys, casts=casts, broadcast_ok=broadcast_ok,
               reset=not (left_index or right_index), label="md.merge")
    return new_frame(op, [left, right], math.nan, meta)


def _anti_join(left, right, kwargs):
    """pandas' ``left_anti`` / ``right_anti``: the rows of a left (right) join that found no
    match, labelled by their position in that join."""
    side = "left" if kwargs["how"] == "left_anti" else "right"
    flag = kwargs["indicator"] if isinstance(kwargs["indicator"], str) else "_merge"
    column = flag if kwargs["indicator"] else "__mars_anti__"
    joined = _build(left, right, dict(kwargs, how=side, indicator=column), learn=False)
    kept = joined[joined[column] == f"{side}_only"]
    return kept if kwargs["indicator"] else kept.drop(columns=[column])


@methods(DataFrame, name="merge")
def _merge_method(self, right, how="inner", on=None, left_on=None, right_on=None, left_index=False,
                  right_index=False, sort=False, suffixes=("_x", "_y"), copy=None, indicator=False,
                  validate=None):
    """Database-style join with another frame, as ``DataFrame.merge``."""
    return merge(self, right, how=how, on=on, left_on=left_on, right_on=right_on,
                 left_index=left_index, right_index=right_index, sort=sort, suffixes=suffixes,
                 indicator=indicator, validate=validate)


@methods(DataFrame)
def join(self, other, on=None, how="left", lsuffix="", rsuffix="", sort=False, validate=None,
         *, suffixes=None):
    """Join columns of another frame (or a named Series) on the index or on key columns."""
    if isinstance(other, (list, tuple)):
        return _join_list(self, list(other), on, how, lsuffix, rsuffix, sort, validate)
    suffixes = (lsuffix, rsuffix) if suffixes is None else suffixes
    if how == "cross":
        return merge(self, other, how="cross", on=on, suffixes=suffixes, sort=sort, validate=validate)
    return merge(self, other, left_on=on, how=how, left_index=on is None, right_index=True,
                 suffixes=suffixes, sort=sort, validate=validate)


def _join_list(self, others, on, how, lsuffix, rsuffix, sort, validate):
    """pandas' join of several frames: a concat of their columns when every index is unique
    (indexes known only when run are taken to be; a repeated label then raises ValueError),
    else a chain of merges on the indexes."""
    from .align import _client_index, concat, reindex

    if on is not None:
        raise ValueError("Joining multiple DataFrames only supported for joining on index")
    if rsuffix or lsuffix:
        raise ValueError("Suffixes not supported when joining multiple DataFrames")
    frames = [self] + [_lazy_frame(o) for o in others]
    known = [_client_index(f.data) for f in frames]
    if any(k is not None and not k.is_unique for k in known):
        joined = frames[0]
        for frame in frames[1:]:
            joined = merge(joined, frame, how=how, left_index=True, right_index=True, validate=validate,
                           sort=sort if PANDAS3 else False)
        return joined
    if how == "left" or (PANDAS3 and how == "right"):  # pandas 2.2 refuses how="right" in concat
        res = concat(frames, axis=1, join="outer", verify_integrity=True, sort=sort)
        index = (self if how == "left" else frames[-1]).index
        return reindex(res, index.sort_values() if sort and PANDAS3 else index)
    return concat(frames, axis=1, join=how, verify_integrity=True, sort=sort or (PANDAS3 and how == "outer"))
