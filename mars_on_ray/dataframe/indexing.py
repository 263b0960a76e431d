"""Selecting with ``[]`` and by label: columns, boolean rows, ``loc``, ``at``, ``head``, ``index``.

A label lookup filters every chunk and one small chunk checks what was found (so unsorted and
non-unique indexes give pandas' answer); a list of labels is a gather of the matching rows put
in the list's order; a label slice first reads small per-chunk facts (length, monotonicity,
first and last label, where the bounds fall) and then cuts the rows by position.
"""
from __future__ import annotations

import math
import operator

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from .blockwise import chunk_shape, concat_values, map_chunks, row_chunks, rows_grid
from .core import DataFrame, Series, _Frame, methods, new_frame
from .positional import (PANDAS3, RowsOp, TakeRows, _cut, _idx, _Indexer, _row_selection_columns,
                         assemble, is_int, mask_rows, pick, row_meta, row_then_columns,
                         scalar_dtype, single, slice_pieces, slice_rows, split_key, take_rows)
from .multi_loc import is_multi_selection, multi_index_key, multi_rows, prefix_rows
from .rules.usage import is_frame, same_as_output, uses

__all__: list[str] = []


def _filter(obj, mask):
    if isinstance(mask, pd.Series) and not mask.index.equals(obj.index):
        raise NotImplementedError(
            "a boolean Series indexer must have the same index as the object it filters (row "
            "by row); aligning a differently indexed mask is not supported")
    return obj[mask]


def _index_of(obj):
    return obj.index


@uses(operator.getitem, rows="same", passthrough=True)
def _selected_columns(node, needed):
    key = node.op.args[1]
    return [set(key) if isinstance(key, list) else {key}]


@uses(_filter, rows="subset", passthrough=True)
def _filter_columns(node, needed):
    return same_as_output(node, needed)


@uses(_index_of, rows="same")
def _no_columns(node, needed):
    return [set()]


def aligned_filter(obj, mask):
    """Rows where a lazy boolean Series with the same index is True (block by block)."""
    if not pd.api.types.is_bool_dtype(mask.dtype):
        raise NotImplementedError("only boolean Series can index rows lazily")
    from .align import _reindex_rows, index_relation

    if index_relation(obj, mask) != "same":  # pandas reindexes the mask to the object's labels
        try:
            realigned = _reindex_rows(mask, obj.index, None, settle=False)
        except ValueError:  # labels of another kind (str and int): none can match
            raise pd.errors.IndexingError(_UNALIGNABLE) from None
        return map_chunks(_filter_realigned, (obj, realigned), keep_rows=False, label="md.getitem",
                          meta=obj.data.meta)
    return map_chunks(_filter, (obj, mask), keep_rows=False, label="md.getitem", meta=obj.data.meta)


_UNALIGNABLE = ("Unalignable boolean Series provided as indexer (index of the boolean Series and "
                "of the indexed object do not match).")


def _filter_realigned(obj, mask):
    if mask.isna().any():
        raise pd.errors.IndexingError(_UNALIGNABLE)
    return _filter(obj, mask.astype(bool))


def _as_lazy(key):
    if isinstance(key, (pd.Series, pd.DataFrame)):
        from .datasource import from_pandas

        return from_pandas(key)
    return key


def getitem(obj, key):
    """``obj[key]``: columns, boolean rows (Series, array, tensor), a row slice, a ``where``
    by a boolean DataFrame; for a Series also labels (pandas' rules for integers)."""
    if isinstance(key, pd.Series) and pd.api.types.is_bool_dtype(key.dtype):
        key = _as_lazy(key)
    if isinstance(key, Series):
        return aligned_filter(obj, key)
    if isinstance(key, DataFrame):
        if isinstance(obj, DataFrame):
            return where_frame(obj, key)
        raise NotImplementedError("a Series cannot be indexed by a DataFrame")
    if isinstance(key, Tensor):
        if key.dtype != bool:
            raise NotImplementedError("only boolean tensors can index rows lazily")
        return mask_rows(obj, key, "md.getitem")
    if isinstance(key, slice):
        return _getitem_slice(obj, key)
    if callable(key):
        return getitem(obj, key(obj))
    if isinstance(obj, Series):
        return _series_getitem(obj, key)
    if _is_bool_list(key):
        return mask_rows(obj, np.asarray(key), "md.getitem")
    if isinstance(key, (list, pd.Index, np.ndarray)):
        key = list(key)
    return map_chunks(operator.getitem, (obj, key), label="md.getitem")


def _is_bool_list(key) -> bool:
    return isinstance(key, (list, np.ndarray, pd.Index)) and len(key) > 0 and \
        np.asarray(key).dtype == bool


def _positional_ints(obj) -> bool:
    """pandas 2.2 treats integer keys of ``series[key]`` as positions on a non-integer index."""
    return not PANDAS3 and obj.data.meta.index._should_fallback_to_positional


def _getitem_slice(obj, key: slice):
    ints = all(v is None or is_int(v) for v in (key.start, key.stop, key.step))
    float_index = obj.data.meta.index.dtype.kind == "f"
    if ints and (PANDAS3 or not float_index):
        return slice_rows(obj, key, "md.getitem")
    return loc_rows(obj, key)


def _series_getitem(obj, key):
    if _is_bool_list(key):
        return mask_rows(obj, np.asarray(key), "md.getitem")
    if pd.api.types.is_list_like(key) and not isinstance(key, tuple):
        arr = np.asarray(key)
        if arr.dtype.kind in "iu" and _positional_ints(obj):
            return take_rows(obj, arr, "md.getitem")
        return loc_rows(obj, key)
    if is_int(key) and _positional_ints(obj):
        return pick(obj, int(key), "md.getitem")
    return loc_rows(obj, key)


def index_of(obj):
    """The index of a DataFrame or Series as a lazy Index."""
    return map_chunks(_index_of, (obj,), label="md.index")


# --- where ----------------------------------------------------------------------------------

def cast_like(res, meta):
    """``res`` with ``meta``'s dtypes (chunks of one result must agree on them)."""
    if isinstance(res, pd.Series):
        return res if res.dtype == meta.dtype else res.astype(meta.dtype)
    if not res.columns.equals(meta.columns):  # fewer columns (pruned by the optimizer): by label
        wanted = meta.dtypes[~meta.columns.duplicated()]
        for i, (name, have) in enumerate(zip(res.columns, res.dtypes)):
            if name in wanted.index and wanted[name] != have:
                res.isetitem(i, res.iloc[:, i].astype(wanted[name]))
        return res
    for i, (have, want) in enumerate(zip(res.dtypes, meta.dtypes)):
        if have != want:
            res.isetitem(i, res.iloc[:, i].astype(want))
    return res


def _check_aligned(obj, other):
    if not other.index.equals(obj.index):
        raise NotImplementedError(
            f"a {type(other).__name__} whose index differs from the frame's: pandas aligns the "
            "labels, here the rows must line up one to one (same index)")


def _where(frame, mask, meta):
    _check_aligned(frame, mask)
    return cast_like(frame[mask], meta)


def where_frame(obj, mask):
    """``df[bool_df]``: values where the mask is True, missing elsewhere.

    pandas keeps an integer / boolean column's dtype when its mask is all True; the declared
    dtype here is the one holding missing values (float64 / object) for every chunk."""
    fmeta, mmeta = obj.data.meta, mask.data.meta
    sample = _sample(fmeta)
    sample[_sample(mmeta)]  # pandas' ValueError for a non-boolean mask
    meta = sample[pd.DataFrame(False, index=sample.index, columns=mmeta.columns)].iloc[:0]
    return map_chunks(_where, (obj, mask, meta), label="md.getitem", meta=meta)


def _sample(meta):
    from .blockwise import sample_of

    return sample_of(meta)


# --- head -------------------------------------------------------------------------------------

class Head(RowsOp):
    """The first ``n`` rows (all but the last ``-n``), reading only the chunks that hold them."""

    _params = ("n",)

    def tile(self, ctx, out):
        pieces = yield from slice_pieces(ctx, out.inputs[0], slice(None, self.n))
        return assemble(out, pieces, row_chunks(ctx[out.inputs[0]])[0])


@uses(Head)
def _head_columns(node, needed):
    return [needed if is_frame(node) else None]


def head(obj, n: int = 5):
    """The first ``n`` rows (all but the last ``-n`` when negative)."""
    n = operator.index(n)
    nrows = obj.shape[0]
    if math.isnan(nrows):
        size = math.nan
    else:
        size = min(n, nrows) if n >= 0 else max(0, nrows + n)
    return new_frame(Head(n=n, label="md.head"), [obj], size, obj.data.meta)


# --- loc: one label -----------------------------------------------------------------------------

class MatchLabel(Operand):
    """The rows of one chunk whose label is ``key``."""

    _params = ("key",)

    def execute(self, v):
        try:
            loc = v.index.get_loc(self.key)
        except KeyError:
            return v.iloc[:0]
        return v.iloc[[loc] if is_int(loc) else loc]


class PickLabel(Operand):
    """The one row found for ``key``: KeyError when none, an error when several."""

    _params = ("key",)

    def execute(self, *found):
        rows = concat_values(list(found))
        if len(rows) == 0:
            raise KeyError(self.key)
        if len(rows) > 1:
            raise NotImplementedError(
                f"the label {self.key!r} is not unique in the index: pandas returns its "
                f"{len(rows)} rows as a {'DataFrame' if rows.ndim == 2 else 'Series'}, a type a "
                f"lazy lookup must know in advance; use .loc[[{self.key!r}]]")
        return rows.iloc[0]


class LabelRow(Operand):
    """``obj.loc[key]`` for one label: every chunk filtered, a tree of concatenations, a pick."""

    _params = ("key",)

    def tile(self, ctx, out):
        inp = out.inputs[0]
        meta = inp.meta
        level = [ChunkData(MatchLabel(key=self.key, label=self.label), [c], chunk_shape(meta, math.nan),
                           meta, _idx(meta, i)) for i, c in enumerate(row_chunks(ctx[inp]))]
        k = max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(TakeRows(sels=(slice(None),) * len(level[i:i + k]), label=self.label),
                               level[i:i + k], chunk_shape(meta, math.nan), meta, _idx(meta, j))
                     for j, i in enumerate(range(0, len(level), k))]
        op = PickLabel(key=self.key, label=self.label)
        return single(out, ChunkData(op, level, out.shape, out.meta, (0,) * out.ndim))


def label_row(obj, key):
    """``obj.loc[key]``: a scalar of a Series, a row Series (named ``key``) of a DataFrame."""
    hash(key)
    index = obj.data.meta.index
    datetimes = (pd.DatetimeIndex, pd.PeriodIndex, pd.TimedeltaIndex)
    if isinstance(key, str) and isinstance(index, datetimes):
        raise NotImplementedError(
            "a string label on a datetime-like index selects one row or a range depending on the "
            "data's resolution; use a Timestamp for a row or a slice ('a':'b') for a range")
    op = LabelRow(key=key, label="md.loc")
    if isinstance(obj, Series):
        return new_tensor(op, [obj], (), scalar_dtype(obj.dtype))
    return new_frame(op, [obj], len(obj.columns), row_meta(obj.data.meta, name=key))


# --- loc: a list of labels ---------------------------------------------------------------------

class SplitLabels(Operand):
    """The rows of one chunk whose label is in each block of labels (one output per block)."""

    _params = ("blocks",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.blocks)

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return len(self.blocks) == 1

    def execute(self, v):
        pieces = tuple(v[v.index.isin(b)] for b in self.blocks)
        return pieces if len(pieces) > 1 else pieces[0]


class LocLabels(Operand):
    """One block of the result: the found rows put in the block's label order (pandas' loc)."""

    _params = ("labels",)

    def execute(self, *found):
        return concat_values(list(found)).loc[self.labels]


class LabelRows(RowsOp):
    """``obj.loc[labels]``: blocks of labels, each gathering its rows from every chunk."""

    _params = ("labels",)

    def tile(self, ctx, out):
        return self._gather(ctx, out, self.labels)

    def _gather(self, ctx, out, labels):
        inp = out.inputs[0]
        meta = inp.meta
        chunks = row_chunks(ctx[inp])
        sizes = [int(c.shape[0]) for c in chunks if not c.has_unknown_shape]
        block = max(sizes + [1]) if sizes else max(1, len(labels))
        blocks = tuple(labels[j:j + block] for j in range(0, len(labels), block)) or (labels,)
        unknown = chunk_shape(meta, math.nan)
        split = []
        for i, c in enumerate(chunks):  # the outputs of one split share its operand
            op = SplitLabels(blocks=blocks, label=self.label)
            split += [ChunkData(op, [c], unknown, meta, _idx(meta, i), o) for o in range(len(blocks))]
        result = [ChunkData(LocLabels(labels=b, label=self.label), split[j::len(blocks)], unknown,
                            out.meta, _idx(meta, j)) for j, b in enumerate(blocks)]
        return rows_grid(result, out.meta)


class LazyLabelRows(LabelRows):
    """``obj.loc[tensor]``: the labels a lazy tensor (the second input) holds, computed and
    fetched when tiling (labels, not data, pass through the supervisor)."""

    def tile(self, ctx, out):
        from ..tensor.fancy_index import fetch_index_values

        labels, = yield from fetch_index_values(ctx, [out.inputs[1]])
        return self._gather(ctx, out, pd.Index(np.asarray(labels).reshape(-1)))


def label_rows(obj, key):
    """``obj.loc[list_of_labels]`` (missing labels raise KeyError when run)."""
    labels = key if isinstance(key, (pd.Index, np.ndarray)) else list(key)
    labels = labels if isinstance(labels, pd.Index) else pd.Index(labels)
    return new_frame(LabelRows(labels=labels, label="md.loc"), [obj], math.nan, obj.data.meta)


# --- loc: a slice of labels ---------------------------------------------------------------------

def _cast_bound(index, label, side):
    try:
        return index._maybe_cast_slice_bound(label, side)
    except (AttributeError, NotImplementedError):  # pragma: no cover - older private API
        return label


class SliceStats(Operand):
    """Small facts of one chunk's index for a label slice: its length, monotonicity, first and
    last label, and per bound ``(label, side)``: rows below / above it (on a monotonic chunk)
    and where it occurs ``(count, first, last)``."""

    _params = ("bounds",)

    def execute(self, v):
        idx = v.index
        n = len(idx)
        inc, dec = bool(idx.is_monotonic_increasing), bool(idx.is_monotonic_decreasing)
        facts = [n, inc, dec, idx[0] if n else None, idx[-1] if n else None]
        for label, side in self.bounds:
            cast = _cast_bound(idx, label, side)
            lt = gt = None
            if n and (inc or dec):
                lt, gt = int((idx < cast).sum()), int((idx > cast).sum())
            facts.append((lt, gt, *_occurrences(idx, cast)))
        return tuple(facts)


def _occurrences(idx, label) -> tuple:
    try:
        loc = idx.get_loc(label)
    except (KeyError, TypeError):
        return 0, -1, -1
    if is_int(loc):
        return 1, int(loc), int(loc)
    if isinstance(loc, slice):
        return loc.stop - loc.start, loc.start, loc.stop - 1
    hits = np.flatnonzero(loc)
    return len(hits), int(hits[0]), int(hits[-1])


def _ordered(pairs) -> bool:
    try:
        return all(a <= b for a, b in pairs)
    except TypeError:
        return False


def _direction(stats) -> str | None:
    """'inc' / 'dec' when the whole index is monotonic (chunks and their junctions), else None."""
    full = [s for s in stats if s[0]]
    junctions = list(zip(full, full[1:]))
    if all(s[1] for s in full) and _ordered((a[4], b[3]) for a, b in junctions):
        return "inc"
    if all(s[2] for s in full) and _ordered((b[3], a[4]) for a, b in junctions):
        return "dec"
    return None


def _bound(stats, j: int, label, side: str, direction) -> int:
    """pandas' ``get_slice_bound`` of the whole index, from the per-chunk facts of bound ``j``."""
    facts = [s[5 + j] for s in stats]
    count = sum(f[2] for f in facts)
    if direction is not None:  # searchsorted on a monotonic index (== get_loc where present)
        below = sum(f[0] if direction == "inc" else f[1] for f in facts if f[0] is not None)
        return below if side == "left" else below + count
    if count == 0:
        raise KeyError(f"Cannot get {side} slice bound for non-monotonic index with a missing label "
                       f"{label!r}. Either sort the index or specify an existing label."
                       if PANDAS3 else label)
    offsets = np.cumsum([0] + [s[0] for s in stats])
    hits = [(offsets[i] + f[3], offsets[i] + f[4]) for i, f in enumerate(facts) if f[2]]
    first, last = int(hits[0][0]), int(hits[-1][1])
    if last - first + 1 != count:
        raise KeyError(f"Cannot get {side} slice bound for non-unique label: {label!r}")
    return first if side == "left" else last + 1


class LabelSlice(RowsOp):
    """``obj.loc[start:stop:step]``: per-chunk facts first, then a positional cut."""

    _params = ("start", "stop", "step")

    def _bounds(self):
        forward = self.step is None or self.step >= 0
        start, stop = (self.start, self.stop) if forward else (self.stop, self.start)
        return forward, [(start, "left"), (stop, "right")]

    def tile(self, ctx, out):
        chunks, rows = yield from self._positions(ctx, out.inputs[0])
        return assemble(out, _cut(chunks, rows), chunks[0])

    def _positions(self, ctx, inp):
        """The input's row chunks (real lengths) and the positional slice the labels select."""
        chunks = row_chunks(ctx[inp])
        forward, bounds = self._bounds()
        wanted = tuple(b for b in bounds if b[0] is not None)
        facts = [ChunkData(SliceStats(bounds=wanted, label=self.label), [c], (math.nan,), None, (i,))
                 for i, c in enumerate(chunks)]
        stats = yield from ctx.values(facts)
        chunks = [c.with_shape((s[0],) + tuple(c.shape[1:])) for c, s in zip(chunks, stats)]
        n, direction = sum(s[0] for s in stats), _direction(stats)
        locs, j = [], 0
        for (label, side), default in zip(bounds, (0, n)):
            if label is None:
                locs.append(default)
            else:
                locs.append(_bound(stats, j, label, side, direction))
                j += 1
        start, stop = locs
        if not forward:  # pandas' slice_locs for a reversed slice
            start, stop = stop - 1, start - 1
            stop, start = (stop - n if stop == -1 else stop), (start - n if start == -1 else start)
        return chunks, slice(start, stop, self.step)


class LabelSliceMask(LabelSlice):
    """Whether each row is one of ``obj.loc[start:stop:step]``: a boolean Series on the
    object's rows, chunk for chunk (what setting a label slice sets)."""

    def tile(self, ctx, out):
        chunks, rows = yield from self._positions(ctx, out.inputs[0])
        n = sum(int(c.shape[0]) for c in chunks)
        picked = range(*rows.indices(n))
        picked = picked[::-1] if picked.step < 0 else picked
        masks, offset = [], 0
        for i, c in enumerate(chunks):
            k = int(c.shape[0])
            here = picked[_first_at(picked, offset):_first_at(picked, offset + k)]
            local = slice(here.start - offset, here.stop - offset, here.step) if here else slice(0, 0)
            masks.append(ChunkData(RowsInSlice(rows=local, label=self.label), [c], (k,), out.meta, (i,)))
            offset += k
        return rows_grid(masks, out.meta)


def _first_at(positions: range, p: int) -> int:
    """The index in ``positions`` (increasing) of its first value >= ``p``."""
    return min(len(positions), max(0, -((positions.start - p) // positions.step)))


class RowsInSlice(Operand):
    _params = ("rows",)

    def execute(self, v):
        mask = np.zeros(len(v), dtype=bool)
        mask[self.rows] = True
        return pd.Series(mask, index=v.index)


def label_slice(obj, key: slice):
    """``obj.loc[a:b]`` (both ends included), pandas' rules for sorted and unsorted indexes."""
    obj.data.meta.loc[key]  # pandas' TypeError for bounds of the wrong type
    op = LabelSlice(start=key.start, stop=key.stop, step=key.step, label="md.loc")
    return new_frame(op, [obj], math.nan, obj.data.meta)


def label_slice_mask(obj, key: slice):
    """A boolean Series: True on the rows ``obj.loc[key]`` selects (pandas' slice rules)."""
    obj.data.meta.loc[key]
    op = LabelSliceMask(start=key.start, stop=key.stop, step=key.step, label="md.loc")
    return new_frame(op, [obj], obj.shape[0], pd.Series(dtype=bool, index=obj.data.meta.index))


for _op in (LabelRows, LazyLabelRows, LabelSlice, LabelSliceMask):
    uses(_op)(_row_selection_columns)


# --- loc / at accessors -----------------------------------------------------------------------

def loc_rows(obj, key):
    """``obj.loc[key]`` along rows."""
    if callable(key) and not isinstance(key, (_Frame, Tensor)):
        key = key(obj)
    if isinstance(key, Tensor) and key.ndim == 0:  # a lazy label (``s.idxmax()``): computed now,
        from .reshape import compute_now  # as pandas' result kind depends on it

        key = compute_now(key)
        key = key.item() if isinstance(key, np.ndarray) else key
    labels = multi_index_key(obj, key)
    if labels is not None:  # a MultiIndex: a row, or the rows under leading labels
        if len(labels) == obj.data.meta.index.nlevels:
            return label_row(obj, labels)
        return prefix_rows(obj, labels)
    if is_multi_selection(obj, key):
        return multi_rows(obj, key)
    if isinstance(key, slice):
        return obj if key == slice(None) else label_slice(obj, key)
    if isinstance(key, pd.Series) and pd.api.types.is_bool_dtype(key.dtype):
        key = _as_lazy(key)
    if isinstance(key, Series):
        return aligned_filter(obj, key)
    if isinstance(key, Tensor):
        if key.dtype != bool:
            if key.ndim != 1:
                raise ValueError("Cannot index with multidimensional key")
            return new_frame(LazyLabelRows(labels=None, label="md.loc"), [obj, key], math.nan,
                             obj.data.meta)
        return mask_rows(obj, key, "md.loc")
    if isinstance(key, (DataFrame, pd.DataFrame)):
        raise ValueError("Cannot index with multidimensional key")
    if isinstance(key, tuple):
        raise NotImplementedError("tuple labels (MultiIndex) are not supported")
    if pd.api.types.is_list_like(key):
        if _is_bool_list(key):
            return mask_rows(obj, np.asarray(key), "md.loc")
        return label_rows(obj, key)
    return label_row(obj, key)


def _loc_cols(frame, cols):
    return frame.loc[:, cols]


def loc_columns(obj, cols):
    """``df.loc[:, cols]``: checked now against the metadata, selected by label."""
    from .positional import select_columns

    if isinstance(cols, slice) and cols == slice(None):
        return obj
    if isinstance(cols, (_Frame, Tensor)):
        raise NotImplementedError("lazy column indexers are not supported")
    if isinstance(cols, (list, tuple, pd.Index, np.ndarray)):
        cols = list(cols)
    picked = obj.data.meta.loc[:, cols]  # pandas' KeyError for a missing column
    return select_columns(obj, picked, lambda: map_chunks(_loc_cols, (obj, cols), label="md.loc"))


def loc_get(obj, key):
    """``obj.loc[key]``: labels, lists, slices, boolean masks, (rows, cols)."""
    if multi_index_key(obj, key) is not None or (isinstance(obj, Series) and is_multi_selection(obj, key)):
        return loc_rows(obj, key)
    rows, cols = split_key(obj, key)
    if cols is None or (isinstance(cols, slice) and cols == slice(None)):
        return loc_rows(obj, rows)
    result = loc_rows(loc_columns(obj, cols), rows)
    scalar_row = not (isinstance(rows, slice) or pd.api.types.is_list_like(rows) or callable(rows))
    if scalar_row and (isinstance(cols, slice) or pd.api.types.is_list_like(cols)):
        return row_then_columns(obj, result)
    return result


class _Loc(_Indexer):
    __slots__ = ()

    def __getitem__(self, key):
        return loc_get(self.obj, key)

    def __setitem__(self, key, value):
        from .setting import loc_set

        rows, cols = split_key(self.obj, key)
        self.obj.data = loc_set(self.obj, rows, cols, value).data


class _At(_Indexer):
    __slots__ = ()

    def _check(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != self.obj.ndim or any(isinstance(k, slice) or pd.api.types.is_list_like(k)
                                           for k in key):
            raise ValueError("Invalid call for scalar access (getting)!")
        return key if len(key) > 1 else key[0]

    def __getitem__(self, key):
        return loc_get(self.obj, self._check(key))

    def __setitem__(self, key, value):
        from .setting import loc_set

        rows, cols = split_key(self.obj, self._check(key))
        self.obj.data = loc_set(self.obj, rows, cols, value).data


@methods(DataFrame, Series, prop=True)
def loc(obj):
    """Selection by label: ``obj.loc[rows]`` / ``df.loc[rows, cols]``; settable."""
    return _Loc(obj)


@methods(DataFrame, Series, prop=True)
def at(obj):
    """One value by labels: ``df.at[label, column]`` / ``s.at[label]``."""
    return _At(obj)


from . import sampling, setting  # noqa: E402,F401  (attach sample and __setitem__)
