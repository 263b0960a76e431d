"""The row labels of a frame: set_index, reset_index, set_axis; iterating over executed rows.

A fresh RangeIndex (``reset_index``) or new labels given as a list (``set_axis``) need each
block's first row position: the blocks' row counts are made known first (re-tiling when a
filter left them unknown), then each block is labelled on its own.
"""
from __future__ import annotations

import weakref

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import Tensor
from .blockwise import chunk_shape, map_chunks, row_chunks, rows_grid
from .core import DataFrame, Index, Series, _Frame, methods, new_frame
from .frame_methods import inplace_result, per_chunk
from .positional import _idx
from .setting import positional_map

__all__: list[str] = []


class ByPosition(Operand):
    """``func(block, start, *args)`` on every row block, ``start`` its first row's position."""

    _params = ("func", "args", "start", "length")

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        chunks, start = [], 0
        for i, c in enumerate(row_chunks(tiled)):
            n = int(c.shape[0])
            chunks.append(ChunkData(self.new(start=start), [c], chunk_shape(out.meta, n), out.meta,
                                    _idx(out.meta, i)))
            start += n
        if self.length is not None and self.length != start:
            raise ValueError(f"Length mismatch: Expected axis has {start} elements, new values "
                             f"have {self.length} elements")
        return rows_grid(chunks, out.meta)

    def execute(self, v):
        return self.func(v, self.start, *self.args)


def by_position(obj, func, args, meta, label, length=None):
    """A frame of ``func(block, start, *args)`` per row block (same rows); ``length``: the
    number of rows there must be (pandas' ValueError otherwise)."""
    op = ByPosition(func=func, args=tuple(args), length=length, label=label)
    return new_frame(op, [obj], obj.shape[0], meta)


# --- reset_index --------------------------------------------------------------------------------

def ranged(v, start, method, kwargs):
    """``v.method(**kwargs)`` with a RangeIndex from ``start`` (the rows' global positions)."""
    out = getattr(v, method)(**kwargs)
    out.index = pd.RangeIndex(start, start + len(out))
    return out


def _reset_keep(v, kwargs):
    return v.reset_index(**kwargs)


@methods(DataFrame, Series)
def reset_index(obj, level=None, *, drop=False, inplace=False, **kwargs):
    """The index as columns (or dropped), a fresh RangeIndex over all the rows."""
    meta = obj.data.meta
    if inplace and isinstance(obj, Series) and not drop:
        raise TypeError("Cannot reset_index inplace on a Series to create a DataFrame")
    kwargs = {"level": level, "drop": drop, **kwargs}
    out_meta = meta.reset_index(**kwargs)  # pandas' errors
    levels = level if isinstance(level, (list, tuple)) else [level]
    if level is not None and len(levels) < meta.index.nlevels:  # other levels stay the index
        result = map_chunks(_reset_keep, (obj, kwargs), label="md.reset_index", meta=out_meta)
    else:
        result = by_position(obj, ranged, ("reset_index", kwargs), out_meta, "md.reset_index")
    return inplace_result(obj, result, inplace)


# --- set_axis -----------------------------------------------------------------------------------

def _set_labels(v, start, labels):
    return v.set_axis(labels[start:start + len(v)], axis=0)


@methods(DataFrame, Series)
def set_axis(obj, labels, *, axis=0, copy=None):
    """New labels for the rows (a list-like of the length of the rows) or the columns."""
    meta = obj.data.meta
    if meta._get_axis_number(axis) == 1:
        return per_chunk(obj, "set_axis", labels, axis=1)
    if isinstance(labels, (_Frame, Index, Tensor)):  # lined up with the rows by position
        from .frame_creation import with_index

        return with_index(obj, labels)
    labels = labels if isinstance(labels, pd.Index) else pd.Index(labels)
    n = obj.shape[0]
    if n == n and len(labels) != n:
        raise ValueError(f"Length mismatch: Expected axis has {int(n)} elements, new values have "
                         f"{len(labels)} elements")
    return by_position(obj, _set_labels, (labels,), meta.set_axis(labels[:0], axis=0), "md.set_axis",
                       len(labels))


# --- set_index ----------------------------------------------------------------------------------

class _Key:
    """A lazy key of ``set_index`` (its values stand for the i-th lazy input)."""

    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i

    def __mars_token__(self):
        return ("set_index key", self.i)


def _set_index(frame, keys, drop, append, *values):
    keys = [pd.Index(values[k.i].array, name=values[k.i].name) if isinstance(k, _Key) else k
            for k in keys]
    return frame.set_index(keys, drop=drop, append=append)


def _lazy_key(key):
    from .datasource import from_pandas, from_tensor

    if isinstance(key, Series):
        return key
    if isinstance(key, Index):
        return key.to_series()
    if isinstance(key, Tensor):
        return from_tensor(key, False)
    if isinstance(key, (pd.Series, pd.Index, np.ndarray)):
        return from_pandas(pd.Series(key, name=getattr(key, "name", None)))
    return None


@methods(DataFrame)
def set_index(obj, keys, *, drop=True, append=False, inplace=False, verify_integrity=False):
    """Columns (labels) and / or arrays (Series, Index, tensors, arrays; by position) as the
    index."""
    keys = list(keys) if isinstance(keys, list) else [keys]
    meta = obj.data.meta
    lazy, template, samples = [], [], []
    for key in keys:
        value = _lazy_key(key)
        if value is None:
            template.append(key)
            samples.append(key)
        else:
            template.append(_Key(len(lazy)))
            lazy.append(value)
            samples.append(pd.Index(value.data.meta.array, name=value.data.meta.name))
    out_meta = meta.set_index(samples, drop=drop, append=append)  # pandas' KeyError
    args = (obj, template, drop, append, *lazy)
    if lazy:
        result = positional_map(_set_index, args, out_meta, label="md.set_index")
    else:
        result = map_chunks(_set_index, args, label="md.set_index", meta=out_meta)
    if verify_integrity:
        from .concat_columns import unique_labels_guard

        result = unique_labels_guard(result, [result], "Index has duplicate keys: {repeated}", "md.set_index")
    return inplace_result(obj, result, inplace)


# --- iteration ----------------------------------------------------------------------------------

def iter_batches(obj, batch_size: int = 1000, session=None):
    """The rows of ``obj`` as pandas objects of ``batch_size`` rows, fetched one at a time."""
    obj.execute(session=session)
    n = obj.shape[0]
    for start in range(0, int(n), batch_size):
        yield obj.iloc[start:start + batch_size].fetch(session=session)


@methods(DataFrame, name="__iter__")
def frame_iter(obj):
    """The column labels (as iterating a pandas DataFrame gives)."""
    return iter(obj.data.meta.columns)


@methods(Series, name="__iter__")
def series_iter(obj, batch_size: int = 1000, session=None):
    """The values, computed and fetched a batch of rows at a time."""
    for batch in iter_batches(obj, batch_size, session):
        yield from batch


@methods(Index, name="__iter__")
def index_iter(obj, batch_size: int = 1000, session=None):
    """The labels, computed and fetched a batch at a time."""
    for batch in iter_batches(obj.to_series(), batch_size, session):
        yield from batch.index


@methods(DataFrame, Series, Index, name="__contains__")
def contains(obj, key) -> bool:
    """pandas' ``in``: a column label of a DataFrame, an index label of a Series or Index
    (computed now)."""
    from .reshape import compute_now

    if isinstance(obj, DataFrame):
        return key in obj.data.meta.columns
    labels = obj.index if isinstance(obj, Series) else obj
    return bool(compute_now(labels.isin([key]).any()))


@methods(Index, name="tolist")
def index_tolist(obj):
    """The labels as a list (computed now)."""
    return list(index_iter(obj))


Index.to_list = Index.tolist


@methods(DataFrame)
def items(obj):
    """``(column label, lazy Series)`` pairs."""
    for i, name in enumerate(obj.data.meta.columns):
        yield name, obj.iloc[:, i]


@methods(Series, name="items")
def series_items(obj, batch_size: int = 1000, session=None):
    """``(index label, value)`` pairs, computed and fetched a batch of rows at a time."""
    for batch in iter_batches(obj, batch_size, session):
        yield from batch.items()


DataFrame.iteritems, Series.iteritems = DataFrame.items, Series.items


@methods(DataFrame)
def iterrows(obj, batch_size: int = 1000, session=None):
    """``(index label, row Series)`` pairs, fetched a batch of rows at a time."""
    for batch in iter_batches(obj, batch_size, session):
        yield from batch.iterrows()


@methods(DataFrame)
def itertuples(obj, index=True, name="Pandas", batch_size: int = 1000, session=None):
    """Rows as named tuples, fetched a batch of rows at a time."""
    for batch in iter_batches(obj, batch_size, session):
        yield from batch.itertuples(index=index, name=name)


# --- axes as attributes ---------------------------------------------------------------------------

def _assign_index(obj, labels):
    obj.data = set_axis(obj, labels, axis=0).data


def _assign_columns(obj, labels):
    obj.data = set_axis(obj, labels, axis=1).data


# a frame's lazy Index remembers its frame, so that ``df.index.name = ...`` renames the frame's
# index as in pandas (while the frame still holds the node the Index was taken from)
_owners: dict = {}


def _frame_index(obj):
    from .indexing import index_of

    idx = index_of(obj)
    _owners[id(idx)] = (weakref.ref(obj), obj.data.key)
    weakref.finalize(idx, _owners.pop, id(idx), None)
    return idx


def set_index_names(idx, names):
    renamed = idx.set_names(names)
    owner = _owners.get(id(idx))
    idx.data = renamed.data
    frame = owner[0]() if owner else None
    if frame is not None and frame.data.key == owner[1]:
        frame.data = frame.rename_axis(list(renamed.data.meta.names)).data
        _owners[id(idx)] = (owner[0], frame.data.key)


def _set_index_name(idx, name):
    if idx.data.meta.nlevels > 1:  # pandas sets a name its MultiIndex never shows: no change
        return
    set_index_names(idx, [name])


_Frame.index = property(_frame_index, _assign_index, doc="The row labels (settable).")
Index.name = property(Index.name.fget, _set_index_name, doc="The name (settable).")
Series.name = property(Series.name.fget, lambda s, name: setattr(s, "data", s.rename(name).data),
                       doc="The name (settable).")
DataFrame.columns = property(DataFrame.columns.fget, _assign_columns,
                             doc="The column labels (settable: ``df.columns = [...]``).")


@methods(DataFrame, name="keys")
def frame_keys(obj):
    """The column labels."""
    return obj.columns


@methods(Series, name="keys")
def series_keys(obj):
    """The index (lazy)."""
    return obj.index


@methods(DataFrame, Series, name="axes", prop=True)
def axes(obj):
    """``[index]`` for a Series, ``[index, columns]`` for a DataFrame."""
    return [obj.index, obj.columns] if isinstance(obj, DataFrame) else [obj.index]
