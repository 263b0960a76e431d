"""Label alignment of differently indexed frames: binary operations, ``align``, ``reindex``.

Two row-split objects whose indexes are the same (one descends row for row from the other, or
both come from pandas objects with equal indexes) are lined up block by block. Otherwise the
rows are matched by label with a merge on the indexes (``merge.py``: range-partitioned for an
outer join, so the result comes sorted as pandas' union is), and the operation runs on the
matched blocks. When neither is known when the graph is built, tiling compares the indexes
chunk by chunk first. Columns the alignment may fill with missing values are declared with the
dtype holding them.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.graph import topo_order
from ..core.operand import Operand
from ..core.tiling import tile_graph
from .blockwise import aligned_rows, index_as, map_chunks, sample_of
from .core import DataFrame, Index, Series, _Frame, methods, new_frame
from .rules.usage import row_behaviour

__all__ = ["concat"]

_PRESENT = "__mars_present__"


# --- what is known of two indexes when the graph is built ------------------------------------

#: row-preserving operations that change the labels (or make an Index of them)
_RELABELS = ("_shift_index", "_index_of")


def _index_root(node):
    """The node whose index ``node`` has row for row (following row-preserving operations)."""
    while node.inputs and (getattr(node.op, "keeps_index", False) or (
            row_behaviour(node) == "same"
            and getattr(getattr(node.op, "func", None), "__name__", "") not in _RELABELS)):
        node = node.inputs[0]
    return node


def index_relation(a, b) -> str | None:
    """``"same"``, ``"differ"`` or None (known only when the data is)."""
    na, nb = a.data, b.data
    if _index_root(na).key == _index_root(nb).key:
        return "same"
    if not (math.isnan(na.shape[0]) or math.isnan(nb.shape[0])) and na.shape[0] != nb.shape[0]:
        return "differ"
    ia, ib = _client_index(na), _client_index(nb)
    if ia is not None and ib is not None:
        return "same" if ia.equals(ib) else "differ"
    return None


def _client_index(node):
    from .datasource import FrameData

    root = _index_root(node)
    if isinstance(root.op, FrameData) and root.op.data is not None:
        return root.op.data.index
    return None


def promoted(meta, fill_value=None):
    """``meta`` with the dtypes of rows added by alignment (missing, or ``fill_value``)."""
    res = sample_of(meta).reset_index(drop=True).reindex([0, 1], fill_value=fill_value).iloc[:0]
    res = res.set_axis(meta.index[:0], axis=0)
    return res.rename(meta.name) if isinstance(meta, pd.Series) else res


# --- matching rows by label ---------------------------------------------------------------------

def _positional(obj, prefix: str):
    frame = obj.to_frame() if isinstance(obj, pd.Series) else obj
    cols = [f"{prefix}{i}" for i in range(frame.shape[1])]
    return frame.set_axis(cols, axis=1).assign(**{_PRESENT + prefix: True})


def _restore(part: pd.DataFrame, meta):
    if isinstance(meta, pd.Series):
        return part.iloc[:, 0].rename(meta.name)
    return part.set_axis(meta.columns, axis=1)


def _split(m: pd.DataFrame, ameta, bmeta):
    """The two sides of a merge of ``_positional`` frames, and where each had no row."""
    na = 1 if isinstance(ameta, pd.Series) else ameta.shape[1]
    nb = 1 if isinstance(bmeta, pd.Series) else bmeta.shape[1]
    a = _restore(m.iloc[:, :na], ameta)
    a_missing = m.iloc[:, na].isna().to_numpy()
    b = _restore(m.iloc[:, na + 1:na + 1 + nb], bmeta)
    b_missing = m.iloc[:, na + 1 + nb].isna().to_numpy()
    return a, b, a_missing, b_missing


def conform(res, meta):
    """``res`` with ``meta``'s dtypes (every chunk of a result agrees on them)."""
    if meta is None:
        return res
    if isinstance(meta, pd.Series):
        return res if res.dtype == meta.dtype else res.astype(meta.dtype)
    for i, want in enumerate(meta.dtypes):
        if res.dtypes.iloc[i] != want:
            res.isetitem(i, res.iloc[:, i].astype(want))
    return res


def _after_merge(m, ameta, bmeta, func, kwargs, meta):
    a, b, am, bm = _split(m, ameta, bmeta)
    return conform(func(a, b, am, bm, **kwargs), meta)


def _blockwise(a, b, func, kwargs, meta):
    none = np.zeros(len(a), dtype=bool)
    return conform(func(a, b, none, none, **kwargs), meta)


class IndexEquals(Operand):
    """Whether two row blocks have equal indexes."""

    def execute(self, a, b):
        return bool(a.index.equals(b.index))


def _tile_sub(ctx, obj):
    """Tile a graph built during tiling on already tiled inputs; its tiled result."""
    yield from tile_graph(topo_order([obj.data]), ctx)
    return ctx[obj.data]


def _wrap(node):
    return DataFrame(node) if isinstance(node.meta, pd.DataFrame) else Series(node)


class LabelAligned(Operand):
    """``func(a, b, a_missing, b_missing, **kwargs)`` on ``a`` and ``b`` lined up by labels
    (``join`` of their indexes); ``check``: compare the indexes first, block by block."""

    _params = ("func", "kwargs", "join", "check")

    def tile(self, ctx, out):
        a, b = (_wrap(n) for n in out.inputs)
        if self.check and (yield from _indexes_equal(ctx, a.data, b.data)):
            res = map_chunks(_blockwise, (a, b, self.func, self.kwargs, out.meta), meta=out.meta,
                             label=self.label)
            return (yield from _tile_sub(ctx, res))
        if self.join is None:  # a comparison operator: pandas requires equal labels
            raise ValueError(f"Can only compare identically-labeled {type(out.inputs[0].meta).__name__} objects")
        from .merge import merge_frames as merge

        af = map_chunks(_positional, (a, "l"), label=self.label)
        bf = map_chunks(_positional, (b, "r"), label=self.label)
        m = merge(af, bf, how=self.join, left_index=True, right_index=True)
        res = map_chunks(_after_merge, (m, a.data.meta, b.data.meta, self.func, self.kwargs, out.meta),
                         meta=out.meta, label=self.label, keep_rows=True)
        return (yield from _tile_sub(ctx, res))


def _indexes_equal(ctx, a, b):
    ta = yield from ctx.known(a)
    tb = yield from ctx.known(b)
    if sum(ta.nsplits[0]) != sum(tb.nsplits[0]):
        return False
    ca, cb = yield from aligned_rows(ctx, [a, b])
    checks = [ChunkData(IndexEquals(), [x, y], (), None, (i,)) for i, (x, y) in enumerate(zip(ca, cb))]
    return all((yield from ctx.values(checks)))


def label_aligned(a, b, func, kwargs, meta, join="outer", label=None, relation=None):
    """``func(a, b, a_missing, b_missing, **kwargs)`` with a and b lined up by labels; ``meta``:
    the declared result when alignment may add rows. ``join=None``: the labels must be equal."""
    if relation == "same":
        return map_chunks(_blockwise, (a, b, func, kwargs, None), label=label,
                          meta=_blockwise(a.data.meta, b.data.meta, func, kwargs, None))
    op = LabelAligned(func=func, kwargs=kwargs, join=join, check=relation is None, label=label)
    return new_frame(op, [a, b], math.nan, meta)


# --- align ----------------------------------------------------------------------------------

def _side(a, b, am, bm, which, join, axis, fill_value):
    if which == 1:
        a, b, am, bm = b, a, bm, am
        join = {"left": "right", "right": "left"}.get(join, join)
    if fill_value is not None and am.any():
        a = a.copy()
        a.iloc[am] = fill_value
    if isinstance(a, pd.DataFrame) and isinstance(b, pd.DataFrame) and axis in (None, 1, "columns"):
        a = a.align(b, join=join, axis=1, fill_value=fill_value)[0]
    return a


@methods(DataFrame, Series)
def align(self, other, join="outer", axis=None, level=None, fill_value=None):
    """Both objects with the same index (and columns) by ``join``, as pandas' ``align``."""
    if isinstance(other, (pd.DataFrame, pd.Series)):
        from .datasource import from_pandas

        other = from_pandas(other)
    if level is not None and multi_level_axis(self, axis):
        return _align_level(self, other, join, axis, level, fill_value)
    ma, mb = self.data.meta.align(other.data.meta, join=join, axis=axis, fill_value=fill_value)
    if axis in (1, "columns"):
        flipped = {"left": "right", "right": "left"}.get(join, join)
        return tuple(map_chunks(_align_columns, (x, y.data.meta, j, fill_value), label="md.align")
                     for x, y, j in [(self, other, join), (other, self, flipped)])
    relation = index_relation(self, other)
    out = []
    for which, meta in enumerate((ma, mb)):
        if relation != "same" and join in ("outer", ("right", "left")[which]):
            meta = promoted(meta, fill_value)
        out.append(label_aligned(self, other, _side, dict(which=which, join=join, axis=axis,
                                                          fill_value=fill_value),
                                 meta, join=join, label="md.align", relation=relation))
    return tuple(out)


def multi_level_axis(obj, axis) -> bool:
    """Whether the labels ``level=`` picks from are a MultiIndex (else it changes nothing)."""
    meta = obj.data.meta if isinstance(obj, _Frame) else None
    if meta is None:
        return False
    labels = meta.columns if isinstance(meta, pd.DataFrame) and axis not in (0, "index", "rows") else meta.index
    return isinstance(labels, pd.MultiIndex)


def _align_level(self, other, join, axis, level, fill_value):
    """``align(level=...)``: pandas matches ``other``'s labels to one level of these labels,
    row by row, so every row block aligns with the whole of ``other`` (typically one value per
    label of the level); ``join`` 'inner' / 'right' drops the rows whose label it lacks."""
    kwargs = dict(join=join, axis=axis, level=level, fill_value=fill_value)
    metas = self.data.meta.align(other.data.meta, **kwargs)  # pandas' errors
    keep = join in ("outer", "left") or axis in (1, "columns")
    if axis not in (1, "columns"):  # other's rows take these labels (pandas' empty other's do not)
        metas = (metas[0], metas[1].set_axis(metas[0].index, axis=0))
    return tuple(map_chunks(_level_side, (self, other, which, kwargs), label="md.align", broadcast=(other,),
                            meta=meta if which == 0 else promoted(meta, fill_value), keep_rows=keep)
                 for which, meta in enumerate(metas))


def _level_side(a, b, which, kwargs):
    return a.align(b, **kwargs)[which]


def _align_columns(a, b, join, fill_value):
    return a.align(b, join=join, axis=1, fill_value=fill_value)[0]


# --- reindex --------------------------------------------------------------------------------

def _labels_frame(labels):
    return pd.DataFrame({"__mars_label__": labels}) if not isinstance(labels, pd.DataFrame) else labels


def _reindexed(m, meta, name, fill_value, step=None):
    part = m.drop(columns=["__mars_label__", _PRESENT + "r"])
    res = _restore(part, meta)
    missing = m[_PRESENT + "r"].isna().to_numpy()
    if fill_value is not None and missing.any():
        res = res.copy()
        res.iloc[missing] = fill_value
    if step is not None:  # a RangeIndex target: pieces of it (concatenated, a RangeIndex as in pandas)
        start = int(m["__mars_label__"].iloc[0]) if len(m) else 0
        res.index = pd.RangeIndex(start, start + len(m) * step, step, name=name)
    else:
        res.index = pd.Index(m["__mars_label__"].array, name=name)
    return conform(res, meta)


def _index_frame(index):
    return pd.DataFrame({"__mars_label__": index.array}, index=pd.RangeIndex(len(index)))


def _reindex_rows(obj, labels, fill_value, method=None, limit=None, tolerance=None, settle=True):
    """``obj`` reindexed to ``labels``; ``settle=False`` declares the dtypes of missing rows
    without computing whether there are any (internal alignments whose kernels cope)."""
    from .concat_columns import unique_labels_guard
    from .datasource import from_pandas
    from .merge import merge_frames as merge
    from .stats import user_index

    meta = obj.data.meta
    if isinstance(labels, Index) and user_index(labels) is not None:
        labels = user_index(labels)  # the pandas index of a user's object (its class too)
    if isinstance(labels, Index):
        name = labels.name if labels.name is not None else meta.index.name
        lab = map_chunks(_index_frame, (labels,), label="md.reindex", keep_rows=True)
        sample = labels.data.meta
    else:
        labels = pd.Index(labels)
        if not len(labels) and labels.dtype == object:  # pandas: no labels take the index's dtype
            labels = labels.astype(meta.index.dtype)
        name = labels.name if labels.name is not None else meta.index.name
        lab = from_pandas(_index_frame(labels))
        sample = labels[:0]
    meta.reindex(sample, method=method, limit=limit, tolerance=tolerance)  # pandas' errors
    if method is not None or limit is not None or tolerance is not None:
        from .reindex_fill import reindex_fill

        freq = getattr(labels, "freq", None) if isinstance(labels, pd.Index) else None

        def present():  # where a label got no row, even by the method: missing
            marker = map_chunks(_present, (obj,), label="md.reindex")
            return reindex_fill(marker, lab, method, limit, tolerance, None, name, promoted(marker.data.meta), freq)

        want = missing_promoted(present, meta, fill_value, None, "md.reindex") if settle else promoted(meta, fill_value)
        return reindex_fill(obj, lab, method, limit, tolerance, fill_value, name, want, freq)
    known = _client_index(obj.data)
    if known is not None and not isinstance(labels, Index) and known.equals(labels) \
            and known.dtype == labels.dtype and labels.name in (None, known.name):
        return obj  # pandas' shortcut: nothing to reindex, repeated labels allowed
    right = map_chunks(_positional, (obj, "r"), label="md.reindex")
    m = unique_labels_guard(merge(lab, right, how="left", left_on="__mars_label__", right_index=True), [obj])
    want = missing_promoted(lambda: m[_PRESENT + "r"], meta, fill_value, m, "md.reindex") if settle \
        else promoted(meta, fill_value)
    step = labels.step if isinstance(labels, pd.RangeIndex) else None
    return map_chunks(_reindexed, (m, want, name, fill_value, step), meta=want, label="md.reindex")


def _misses(flags):
    return bool(flags.isna().any())


def _present(chunk):
    return pd.Series(True, index=chunk.index, name=_PRESENT)


def missing_promoted(flags, meta, fill_value, source, label):
    """``meta`` with the dtypes pandas gives when a label has no row (``flags()``: lazy,
    missing there): only if one has, computed now when the dtypes would change."""
    from .accessors import summarize
    from .conversion import _any
    from .reshape import compute_now

    want = promoted(meta, fill_value)
    same = list(want.dtypes) == list(meta.dtypes) if isinstance(meta, pd.DataFrame) else want.dtype == meta.dtype
    if same or not compute_now(summarize(flags(), _misses, _any, label=label), source):
        return meta
    return want


def _reindex_columns(frame, columns, fill_value):
    return frame.reindex(columns=columns, fill_value=fill_value)


@methods(DataFrame, Series)
def reindex(self, labels=None, *, index=None, columns=None, axis=None, method=None, fill_value=None,
            copy=None, level=None, limit=None, tolerance=None):
    """Conform to new row labels (and columns) with missing values (or ``fill_value``) where
    a label has no row."""
    if level is not None:
        from .multi_loc import reindex_level

        if columns is not None or axis in (1, "columns") or method is not None:
            raise NotImplementedError("reindex with level= selects rows only (no columns, method=)")
        return reindex_level(self, index if labels is None else labels, level)
    if labels is not None:
        if axis in (1, "columns"):
            columns = labels
        else:
            index = labels
    res = self
    if columns is not None:
        if isinstance(self, Series):
            raise TypeError("Series.reindex() got an unexpected keyword argument 'columns'")
        res = map_chunks(_reindex_columns, (res, pd.Index(columns), fill_value), label="md.reindex")
    if index is not None:
        res = _reindex_rows(res, index, fill_value, method, limit, tolerance)
    return res


@methods(DataFrame, Series)
def reindex_like(self, other, method=None, copy=None, limit=None, tolerance=None):
    """Conform to ``other``'s index (and columns)."""
    columns = other.data.meta.columns if isinstance(self, DataFrame) and isinstance(other, DataFrame) else None
    return reindex(self, index=other.index, columns=columns, method=method, limit=limit,
                   tolerance=tolerance)


# --- concat / append ------------------------------------------------------------------------

class ConcatChunk(Operand):
    """One input chunk as a piece of a row concatenation: its key level, the result's
    columns and dtypes, rows ``offset ..`` of a fresh RangeIndex when ignoring the index."""

    _params = ("key", "names", "meta", "offset")
    key = None
    offset = None

    def execute(self, v):
        meta = self.meta.value
        if self.key is not None:
            v = pd.concat([v], keys=[self.key], names=self.names)
        if isinstance(meta, pd.DataFrame):
            if not v.columns.equals(meta.columns):
                v = v.reindex(columns=meta.columns)
        elif v.name != meta.name:
            v = v.rename(meta.name)
        if self.offset is not None:
            v = v.set_axis(pd.RangeIndex(self.offset, self.offset + len(v)), axis=0)
        else:  # the result's index dtypes (a block of ints among strings: object)
            v = v.set_axis(index_as(v.index, meta.index), axis=0)
        return conform(v, meta)



class ConcatRows(Operand):
    """``pd.concat(objs)`` along rows: every input chunk, in order, conformed to the result."""

    _params = ("keys", "names", "ignore_index")

    def tile(self, ctx, out):
        from .blockwise import chunk_shape, row_chunks, rows_grid
        from .merge import _Meta

        meta, chunks, offset = out.meta, [], 0
        for i, node in enumerate(out.inputs):
            tiled = (yield from ctx.known(node)) if self.ignore_index else ctx[node]
            for c in row_chunks(tiled):
                op = ConcatChunk(key=None if self.keys is None else self.keys[i], names=self.names,
                                 meta=_Meta(meta), offset=offset if self.ignore_index else None,
                                 label=self.label)
                chunks.append(ChunkData(op, [c], chunk_shape(meta, c.shape[0]), meta,
                                        (len(chunks), 0) if isinstance(meta, pd.DataFrame) else (len(chunks),)))
                if self.ignore_index:
                    offset += int(c.shape[0])
        return rows_grid(chunks, meta)


def _concat_columns(*objs, join, keys, names, sort, ignore_index):
    first = objs[0].index
    if any(not o.index.equals(first) for o in objs[1:]):
        raise AssertionError("concat(axis=1) of blocks whose indexes differ")
    return pd.concat(list(objs), axis=1, join=join, keys=keys, names=names, sort=sort,
                     ignore_index=ignore_index)


def _lazy_objs(objs, keys):
    from .datasource import from_pandas

    if isinstance(objs, dict):
        keys = list(objs) if keys is None else keys
        objs = [objs[k] for k in keys]
    objs = [from_pandas(o) if isinstance(o, (pd.DataFrame, pd.Series)) else o for o in objs]
    if keys is not None:
        keys = list(keys)
        pairs = [(k, o) for k, o in zip(keys, objs) if o is not None]
        keys, objs = [k for k, _ in pairs], [o for _, o in pairs]
    else:
        objs = [o for o in objs if o is not None]
    for o in objs:
        if not isinstance(o, _Frame):
            raise TypeError(f"cannot concatenate object of type '{type(o)}'; only Series and "
                            "DataFrame objs are valid")
    return objs, keys


def concat(objs, axis=0, join="outer", ignore_index=False, keys=None, levels=None, names=None,
           verify_integrity=False, sort=False, copy=None):
    """Concatenate DataFrames / Series along rows (``axis=0``) or columns (``axis=1``)."""
    if isinstance(objs, (_Frame, pd.DataFrame, pd.Series)):
        raise TypeError("first argument must be an iterable of pandas objects, you passed an "
                        f"object of type \"{type(objs).__name__}\"")
    objs, keys = _lazy_objs(objs, keys)
    metas = [o.data.meta for o in objs]
    kwargs = dict(join=join, ignore_index=ignore_index, keys=keys, names=names, sort=sort)
    meta = pd.concat(metas, axis=axis, verify_integrity=verify_integrity, levels=levels, **kwargs)  # pandas' errors
    if levels is not None and keys is not None and not ignore_index:
        res = concat(objs, axis=axis, verify_integrity=verify_integrity, **kwargs)
        args = (res, [list(lv) for lv in levels], axis in (1, "columns"))
        return map_chunks(_with_levels, args, label="md.concat",
                          meta=_with_levels(res.data.meta, *args[1:]))
    if verify_integrity and axis in (0, "index") and not ignore_index:
        from .concat_columns import unique_labels_guard

        res = concat(objs, axis=0, join=join, ignore_index=False, keys=keys, names=names, sort=sort)
        return unique_labels_guard(res, [res], "Indexes have overlapping values: {repeated}", "md.concat")
    if axis in (1, "columns"):
        relations = {index_relation(objs[0], o) for o in objs[1:]}
        if relations - {"same"}:
            from .concat_columns import concat_columns_by_label

            return concat_columns_by_label(objs, join, keys, names, sort, ignore_index, meta,
                                           check="differ" not in relations)
        return map_chunks(_concat_columns, tuple(objs), dict(join=join, keys=keys, names=names, sort=sort,
                                                             ignore_index=ignore_index),
                          label="md.concat", meta=meta)
    if len({type(m) for m in metas}) > 1:  # a Series is a column named by it (or 0)
        objs = [o.to_frame(name=0 if o.name is None else o.name) if isinstance(o, Series) else o
                for o in objs]
        metas = [o.data.meta for o in objs]
    empty = pd.concat(metas, **kwargs)  # pandas' errors
    meta = pd.concat([sample_of(m) for m in metas], **kwargs).iloc[:0]
    if keys is None:  # the empty inputs' labels combine as the data's do; with keys, pandas
        meta.index = empty.index  # types an empty inner level apart (the samples' is right)
    nrows = sum(o.shape[0] for o in objs)
    op = ConcatRows(keys=None if keys is None else tuple(keys), names=names,
                    ignore_index=ignore_index, label="md.concat")
    return new_frame(op, objs, nrows, meta)


def _with_levels(frame, levels, columns: bool):
    """The keys' levels of the result's index (or columns) as given by ``levels``, as pandas'
    ``concat(keys=..., levels=...)`` makes them (unused values included)."""
    idx = frame.columns if columns else frame.index
    new = [pd.Index(lv) for lv in levels] + list(idx.levels[len(levels):])
    codes = [new[i].get_indexer(idx.get_level_values(i)) for i in range(len(levels))] + \
        list(idx.codes[len(levels):])
    relevelled = pd.MultiIndex(levels=new, codes=codes, names=idx.names)
    frame = frame.copy(deep=False)
    if columns:
        frame.columns = relevelled
    else:
        frame.index = relevelled
    return frame


@methods(DataFrame, Series)
def append(self, other, ignore_index=False, verify_integrity=False, sort=False):
    """Rows of ``other`` (an object or a list of them) after these (pandas' removed
    ``append``, as ``concat``)."""
    others = list(other) if isinstance(other, (list, tuple)) else [other]
    return concat([self, *others], ignore_index=ignore_index, verify_integrity=verify_integrity,
                  sort=sort)
