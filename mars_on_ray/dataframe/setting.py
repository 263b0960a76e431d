"""Setting values: ``df[col] = v``, ``df.loc[mask, cols] = v``, ``obj.iloc[...] = v``,
``s[mask] = v``, ``df[bool_df] = v``.

pandas mutates in place; here the lazy object's node is replaced (``obj.data``), so whoever
holds the old node keeps the old value. Each chunk is a copy with its values set.

Dtypes: pandas upcasts a column only when a value is actually set in it, so its dtype can depend
on the data. The declared dtypes are those of setting at least one row, and every chunk is cast
to them (a selection matching no row at all keeps pandas' original dtype, here the upcast one).
Where pandas 3 refuses an incompatible value only when it is set, the chunks setting it raise
pandas' TypeError when run.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import Tensor
from .blockwise import MapChunks, map_chunks, row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, _Frame, methods, new_frame
from .indexing import _check_aligned, _is_bool_list, _positional_ints, cast_like, label_slice_mask
from .positional import is_int, locate, slice_pieces, split_key
from .rules.usage import uses

__all__: list[str] = []

_LENGTH = "Length of values ({k}) does not match length of index ({n})"


class PositionalMap(MapChunks):
    """``map_chunks`` whose other inputs line up with the first by position: every length
    must equal the first's (checked once the extents are known)."""

    _params = ("mask",)

    def tile(self, ctx, out):
        totals = []
        for node in out.inputs:
            tiled = yield from ctx.known(node)
            totals.append(int(sum(tiled.nsplits[0])))
        _check_lengths(totals, self.mask)
        return (yield from super().tile(ctx, out))


def _check_lengths(totals, mask: bool):
    wrong = [k for k in totals[1:] if k == k and k != totals[0]]
    if wrong and totals[0] == totals[0]:
        if mask:
            raise IndexError(f"Boolean index has wrong length: {int(wrong[0])} instead of "
                             f"{int(totals[0])}")
        raise ValueError(_LENGTH.format(k=int(wrong[0]), n=int(totals[0])))


def positional_map(func, args, meta, mask=False, label="md.setitem"):
    """``map_chunks`` of inputs lined up by position (a row mask: pandas' IndexError when the
    lengths differ, else its ValueError)."""
    built = map_chunks(func, args, label=label, meta=meta)
    _check_lengths([i.shape[0] for i in built.data.inputs], mask)
    op = PositionalMap(**built.op.params, mask=mask, label=label)
    return new_frame(op, built.data.inputs, built.shape[0], meta)


def declared_meta(run_set, run_none):
    """The metadata of setting values: as when a row is set; as when none is when pandas
    refuses the value only once it is set (the chunks then raise)."""
    none = run_none()  # pandas' errors that do not depend on the data
    try:
        return run_set().iloc[:0]
    except TypeError:
        return none.iloc[:0]


def _value(value, frame, mode):
    if mode == "positional":
        return value.array if isinstance(value, pd.Series) else value.to_numpy()
    if mode == "aligned":
        _check_aligned(frame, value)
    return value


def _operand(value):
    """``(value, mode)``: a lazy object lined up by index ('aligned') or by position
    ('positional'), or a constant ('scalar')."""
    from .datasource import from_pandas, from_tensor

    if isinstance(value, (Series, DataFrame)):
        return value, "aligned"
    if isinstance(value, (pd.Series, pd.DataFrame)):
        return from_pandas(value), "aligned"
    if isinstance(value, Tensor):
        if value.ndim == 0:  # a lazy scalar (``s.mean()``): every block gets its value
            return value, "scalar"
        if value.ndim not in (1, 2):
            raise NotImplementedError("only 1-d and 2-d tensors can be set as columns")
        return from_tensor(value, value.ndim == 2), "positional"
    if pd.api.types.is_list_like(value) and not isinstance(value, dict):
        if np.ndim(value) == 2:
            return from_pandas(pd.DataFrame(np.asarray(value))), "positional"
        values = list(value) if isinstance(value, (list, tuple)) else value
        return from_pandas(pd.Series(values)), "positional"
    return value, "scalar"


def _sample_value(value, mode):
    if isinstance(value, Tensor) and value.ndim == 0:
        return np.ones((), dtype=value.dtype)[()]
    return value if mode == "scalar" else sample_of(value.data.meta)


# --- columns ----------------------------------------------------------------------------------

def _assign_columns(frame, key, value, mode, meta):
    out = frame.copy()
    out[key] = _value(value, frame, mode)
    return out if meta is None else cast_like(out, meta)


@uses(_assign_columns)
def _assigned_columns(node, needed):
    """The frame needs what is needed of the output except the columns assigned."""
    key = node.op.args[1]
    assigned = set(key) if isinstance(key, list) else {key}
    frame_needs = None if needed is None else needed - assigned
    return [frame_needs if i == 0 else None for i in range(len(node.inputs))]


def column_set(obj, key, value):
    """``df[key] = value``: a scalar, a Series / DataFrame with the same index, a tensor or an
    array-like of the frame's length."""
    if isinstance(key, (list, pd.Index, np.ndarray)):
        key = list(key)
    value, mode = _operand(value)
    sample = _assign_columns(sample_of(obj.data.meta), key, _sample_value(value, mode), mode, None)
    meta = sample.iloc[:0]
    args = (obj, key, value, mode, meta)
    if mode == "positional":
        return positional_map(_assign_columns, args, meta)
    return map_chunks(_assign_columns, args, label="md.setitem", meta=meta)


# --- rows by boolean masks ----------------------------------------------------------------------

def _assign_loc(frame, rows, cols, value, modes, meta):
    out = frame.copy()
    if rows is None:
        rows = slice(None)
    elif modes[0] == "labels":  # every row with one of the labels (pandas sets them all)
        rows = frame.index.isin(rows)
    else:
        rows = np.asarray(_value(rows, frame, modes[0]), dtype=bool)
    value = _value(value, frame, modes[1])
    if modes[2] == "item":  # obj[mask] = v: pandas' own path (it can differ from loc's)
        out[rows] = value
    elif cols is None:
        out.loc[rows] = value
    else:
        out.loc[rows, cols] = value
    return out if meta is None else cast_like(out, meta)


def _row_operand(obj, rows):
    from .datasource import from_pandas, from_tensor

    if isinstance(rows, slice) and rows == slice(None):
        return None, None
    if isinstance(rows, slice):
        return label_slice_mask(obj, rows), "aligned"
    if isinstance(rows, pd.Series) and pd.api.types.is_bool_dtype(rows.dtype):
        rows = from_pandas(rows)
    if isinstance(rows, Series) and pd.api.types.is_bool_dtype(rows.dtype):
        return rows, "aligned"
    if isinstance(rows, Tensor) and rows.dtype == bool and rows.ndim == 1:
        return from_tensor(rows, False), "positional"
    if _is_bool_list(rows):
        return from_pandas(pd.Series(np.asarray(rows, dtype=bool))), "positional"
    if isinstance(rows, (slice, _Frame, Tensor, tuple)) or callable(rows):
        raise NotImplementedError("setting rows by a lazy non-boolean object or a tuple is not "
                                  "supported; use a boolean mask or .iloc")
    labels = pd.Index(list(rows) if pd.api.types.is_list_like(rows) else [rows])
    return labels, "labels"


class LabelsPresent(Operand):
    """Which of ``labels`` one chunk's index holds."""

    _params = ("labels",)

    def execute(self, v):
        return self.labels.isin(v.index)


class LabelSetMap(MapChunks):
    """Setting rows by label: first checks which labels exist, then sets chunk by chunk; a
    single new label appends ``enlarged`` (its row, as pandas appends it) as a last chunk."""

    _params = ("labels", "enlarged")

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        op = LabelsPresent(labels=self.labels, label=self.label)
        present = yield from ctx.values([ChunkData(op, [c], (math.nan,), None, (i,))
                                         for i, c in enumerate(chunks)])
        missing = self.labels[~np.logical_or.reduce([np.asarray(p) for p in present])]
        if len(missing) and len(self.labels) > 1:
            raise KeyError(f"{list(missing)} not in index")
        tiled = yield from super().tile(ctx, out)
        if not len(missing):
            return tiled
        if self.enlarged is None:
            raise NotImplementedError(f"setting with enlargement (new row label {missing[0]!r}) "
                                      "here would change the columns' dtypes (pandas fills the "
                                      "other columns with NaN); set every column, or cast first")
        meta = out.meta
        row = ChunkData(EnlargedRow(row=self.enlarged, label=self.label), [],
                        (1,) + tuple(meta.shape[1:]), meta, (len(chunks), 0)[:meta.ndim])
        return rows_grid(row_chunks(tiled) + [row], meta)


class EnlargedRow(Operand):
    """The row setting with enlargement appends."""

    _params = ("row",)

    def execute(self):
        return self.row


def _enlarged_row(meta, label, cols, value):
    """The row pandas appends for ``obj.loc[label, cols] = value`` when ``label`` is new;
    None when appending changes the columns' dtypes (pandas 2.2 makes integer columns float,
    pandas 3 does when a NaN lands in one), which the declared metadata cannot follow."""
    import warnings

    if isinstance(value, (_Frame, Tensor)):
        return None
    probe = sample_of(meta)  # a frame with one other row: pandas' rules for appending to it
    probe.index = pd.Index([label + "_" if isinstance(label, str) else
                            label + 1 if isinstance(label, (int, float, np.number)) else object()])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if isinstance(probe, pd.DataFrame) and not (isinstance(cols, slice) and cols == slice(None)):
                probe.loc[label, cols] = value
            else:
                probe.loc[label] = value
    except (TypeError, ValueError, KeyError):
        return None
    same = probe.dtypes.equals(meta.dtypes) if isinstance(meta, pd.DataFrame) else probe.dtype == meta.dtype
    return probe.iloc[1:] if same and len(probe) == 2 else None


def loc_set(obj, rows, cols, value, via="loc"):
    """``obj.loc[rows, cols] = value`` with rows a boolean mask (or all rows); ``via='item'``:
    ``obj[rows] = value``."""
    meta = obj.data.meta
    if isinstance(obj, DataFrame) and isinstance(cols, slice) and cols != slice(None):
        cols = list(meta.loc[:, cols].columns)
    elif isinstance(cols, (list, pd.Index, np.ndarray, tuple)):
        cols = list(cols)
    rows, rmode = _row_operand(obj, rows)
    raw_value = value
    one_row_values = (rmode == "labels" and len(rows) == 1 and np.ndim(value) == 1 and
                      isinstance(value, (list, tuple, np.ndarray)))
    # one row's values (one per column) are a constant of every chunk, not rows to line up
    value, vmode = (list(value), "scalar") if one_row_values else _operand(value)
    if vmode == "positional" and rows is not None:
        raise NotImplementedError("setting masked rows from an array is not supported; use a "
                                  "scalar or a Series with the same index")
    fsample = sample_of(meta)

    def run(flag):
        mask = None if rows is None else pd.Series([flag] * len(fsample), index=fsample.index)
        modes = ("aligned" if rmode == "labels" else rmode, vmode, via)
        return _assign_loc(fsample, mask, cols, _sample_value(value, vmode), modes, None)

    meta = declared_meta(lambda: run(True), lambda: run(False))
    args = (obj, rows, cols, value, (rmode, vmode, via), meta)
    if "positional" in (rmode, vmode):
        return positional_map(_assign_loc, args, meta, mask=rmode == "positional")
    built = map_chunks(_assign_loc, args, label="md.setitem", meta=meta)
    if rmode != "labels":
        return built
    enlarged = _enlarged_row(obj.data.meta, rows[0], cols, raw_value) if len(rows) == 1 else None
    op = LabelSetMap(**built.op.params, labels=rows, enlarged=enlarged, label="md.setitem")
    return new_frame(op, built.data.inputs, math.nan if enlarged is not None else built.shape[0], meta)


def _assign_where(frame, mask, value, meta):
    _check_aligned(frame, mask)
    out = frame.copy()
    out[mask] = value
    return out if meta is None else cast_like(out, meta)


def where_set(obj, mask, value):
    """``df[bool_df] = value`` (a scalar), the mask having the frame's index."""
    from .datasource import from_pandas

    if isinstance(mask, pd.DataFrame):
        mask = from_pandas(mask)
    if isinstance(value, (_Frame, Tensor)) or pd.api.types.is_list_like(value):
        raise NotImplementedError("df[mask] = value supports scalar values only")
    fsample, mcols = sample_of(obj.data.meta), mask.data.meta.columns

    def run(flag):
        mask = pd.DataFrame(flag, index=fsample.index, columns=mcols)
        return _assign_where(fsample, mask, value, None)

    meta = declared_meta(lambda: run(True), lambda: run(False))
    return map_chunks(_assign_where, (obj, mask, value, meta), label="md.setitem", meta=meta)


# --- rows by position ---------------------------------------------------------------------------

class SetRows(Operand):
    """One chunk with rows ``sel`` (and columns ``cols``) set to ``value``, cast to ``meta``."""

    _params = ("sel", "cols", "value", "meta")

    def execute(self, v):
        out = v.copy()
        if self.cols is None:
            out.iloc[self.sel] = self.value
        else:
            out.iloc[self.sel, self.cols] = self.value
        return cast_like(out, self.meta)


def _same_dtypes(a, b) -> bool:
    if isinstance(a, pd.Series):
        return a.dtype == b.dtype
    return list(a.dtypes) == list(b.dtypes)


class ILocSet(Operand):
    """``obj.iloc[rows, cols] = value``: the chunks holding the rows are copied and set."""

    _params = ("rows", "cols", "value", "meta")

    def _targets(self, ctx, node):
        """``{chunk key: (local rows, ranks in the selection)}`` and the number selected."""
        targets = {}
        if isinstance(self.rows, slice):
            if isinstance(self.value, np.ndarray):  # the ranks of every row are needed
                yield from ctx.known(node)
            count = 0
            for c, sel, n in (yield from slice_pieces(ctx, node, self.rows)):
                targets[c.key] = (sel, slice(count, count + n) if n == n else slice(count, None))
                count += n
            return targets, count
        chunks, src, local = yield from locate(ctx, node, self.rows,
                                               "iloc cannot enlarge its target object")
        order = np.argsort(src, kind="stable")
        for g in np.split(order, np.flatnonzero(np.diff(src[order])) + 1):
            if len(g):
                targets[chunks[src[g[0]]].key] = (local[g], g)
        return targets, len(self.rows)

    def tile(self, ctx, out):
        node = out.inputs[0]
        targets, count = yield from self._targets(ctx, node)
        array = isinstance(self.value, np.ndarray) and self.value.ndim > 0
        if array and len(self.value) != count:
            raise ValueError("Must have equal len keys and value when setting with an iterable")
        reuse = _same_dtypes(node.meta, out.meta)
        chunks = []
        for c in row_chunks(ctx[node]):
            sel, ranks = targets.get(c.key, (np.array([], dtype=np.intp), None))
            if ranks is None and reuse:
                chunks.append(c)
                continue
            part = self.value[ranks] if array and ranks is not None else (
                self.value[:0] if array else self.value)
            op = SetRows(sel=sel, cols=self.cols, value=part, meta=self.meta, label=self.label)
            chunks.append(ChunkData(op, [c], c.shape, out.meta, c.index))
        return rows_grid(chunks, out.meta)


def _iloc_rows_key(obj, rows):
    """Integer positions (an array) or a slice for ``iloc`` setting."""
    n = obj.shape[0]
    if isinstance(rows, slice):
        if not all(v is None or is_int(v) for v in (rows.start, rows.stop, rows.step)):
            raise TypeError("cannot set using a slice indexer with a non-integer bound")
        return rows
    arr = np.asarray(rows)
    if arr.dtype == bool:
        if len(arr) != n:
            raise IndexError(f"Boolean index has wrong length: {len(arr)} instead of {int(n)}")
        return np.flatnonzero(arr)
    if arr.dtype.kind not in "iu" and arr.size:
        raise IndexError(".iloc requires numeric indexers")
    arr = arr.astype(np.intp).reshape(-1)
    if n == n and len(arr) and (arr.min() < -n or arr.max() >= n):
        raise IndexError("iloc cannot enlarge its target object")
    return arr


def iloc_set(obj, key, value):
    """``obj.iloc[key] = value``: positions (ints, slices, lists, boolean arrays) with a scalar
    or an array-like of the selection's length; boolean Series / tensors go through loc."""
    rows, cols = split_key(obj, key)
    if callable(rows):
        rows = rows(obj)
    meta = obj.data.meta
    if isinstance(cols, slice) and cols == slice(None):
        cols = None
    elif cols is not None:
        cols = list(cols) if isinstance(cols, (list, tuple, pd.Index, np.ndarray)) else cols
        meta.iloc[:, cols]  # pandas' IndexError
    unknown_rows = obj.shape[0] != obj.shape[0]
    if isinstance(rows, (Series, Tensor, pd.Series)) or (unknown_rows and _is_bool_list(rows)):
        # a mask by position (pandas 3 aligns a boolean Series): through loc, by column labels
        if cols is not None and not meta.columns.is_unique:
            raise NotImplementedError("a boolean mask with column positions needs unique labels")
        labels = None if cols is None else meta.iloc[:, cols]
        labels = None if labels is None else (labels.name if labels.ndim == 1 else list(labels.columns))
        if labels is None and isinstance(obj, DataFrame):
            labels = slice(None)
        return loc_set(obj, rows, labels, value)
    if isinstance(value, (_Frame, Tensor)):
        raise NotImplementedError("setting positions from a lazy object is not supported; use "
                                  "df[col] = ... or .loc with a mask")
    if pd.api.types.is_list_like(value):
        value = np.asarray(value)
    rows = _iloc_rows_key(obj, rows)
    sample = sample_of(meta)

    def run(select):
        out = sample.copy()
        v = value[:len(select)] if isinstance(value, np.ndarray) and value.ndim else value
        if cols is None:
            out.iloc[select] = v
        else:
            out.iloc[select, cols] = v
        return out

    declared = declared_meta(lambda: run([0]), lambda: run([]))
    op = ILocSet(rows=rows if isinstance(rows, slice) else np.asarray(rows), cols=cols, value=value,
                 meta=declared, label="md.iloc")
    return new_frame(op, [obj], obj.shape[0], declared)


# --- obj[key] = value ---------------------------------------------------------------------------

@methods(DataFrame, Series, name="__setitem__")
def setitem(obj, key, value):
    """``obj[key] = value``: the object's node is replaced by one with the values set."""
    obj.data = _setitem(obj, key, value).data


def _setitem(obj, key, value):
    if isinstance(key, (DataFrame, pd.DataFrame)):
        if isinstance(obj, Series):
            raise NotImplementedError("a Series cannot be set through a DataFrame mask")
        return where_set(obj, key, value)
    if isinstance(key, (Series, Tensor, pd.Series)) or _is_bool_list(key):
        return loc_set(obj, key, None if isinstance(obj, Series) else slice(None), value, via="item")
    if isinstance(key, slice):
        if all(v is None or is_int(v) for v in (key.start, key.stop, key.step)):
            return iloc_set(obj, key, value)
        return loc_set(obj, key, None if isinstance(obj, Series) else slice(None), value, via="item")
    if isinstance(obj, Series):
        if is_int(key) and _positional_ints(obj):  # pandas 2.2: a position on this index
            return iloc_set(obj, key, value)
        return loc_set(obj, key, None, value, via="item")
    return column_set(obj, key, value)
