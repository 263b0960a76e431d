"""Frame methods that keep rows: rename, drop, assign, insert, pop, copy, prefixes, where/mask,
isin, select_dtypes, to_frame.

Most are one pandas call per row block (``map_chunks``) with the metadata from the same call on
the empty metadata, so pandas' errors raise when the graph is built. Label lookups along the
rows (``drop(index=...)``, ``rename(index=..., errors='raise')``) check every label against the
whole index once (small per-chunk facts) before the blocks run.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import Tensor
from .blockwise import MapChunks, map_chunks, row_chunks, sample_of
from .core import DataFrame, Index, Series, _Frame, methods, new_frame
from .indexing import cast_like
from .rules.usage import same_as_output, uses
from .setting import _operand, _sample_value, _value, column_set, declared_meta, positional_map

__all__: list[str] = []

_NOT_FOUND = "{} not found in axis"


def call(obj, name, args, kwargs):
    """``obj.name(*args, **kwargs)``: the kernel of the one-pandas-call methods."""
    return getattr(obj, name)(*args, **kwargs)


def per_chunk(obj, method, *args, keep_rows=True, **kwargs):
    """The pandas ``method`` run on every row block (metadata from the empty one)."""
    return map_chunks(call, (obj, method, args, kwargs), keep_rows=keep_rows, label=f"md.{method}")


def inplace_result(obj, result, inplace: bool):
    """pandas' ``inplace=``: replace the object's node and return None."""
    if inplace:
        obj.data = result.data
        return None
    return result


def _index_of(v):
    return v if isinstance(v, pd.Index) else v.index


class LabelsFound(Operand):
    """Which of ``labels`` one chunk's index (or its ``level``) holds."""

    _params = ("labels", "level")

    def execute(self, v):
        index = _index_of(v)
        if self.level is not None:
            index = index.get_level_values(self.level)
        return self.labels.isin(index)


class CheckedMap(MapChunks):
    """``map_chunks`` that first checks each of ``labels`` is somewhere in the index of its
    first input (pandas' KeyError otherwise), then runs block by block."""

    _params = ("labels", "level")

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        op = LabelsFound(labels=self.labels, level=self.level, label=self.label)
        found = yield from ctx.values([ChunkData(op, [c], (math.nan,), None, (i,))
                                       for i, c in enumerate(chunks)])
        hit = np.logical_or.reduce([np.asarray(f, dtype=bool) for f in found]) if found else \
            np.zeros(len(self.labels), dtype=bool)
        missing = self.labels[~hit]
        if len(missing) and self.level is not None:
            raise KeyError(f"labels {list(missing)} not found in level")
        if len(missing):
            raise KeyError(_NOT_FOUND.format(list(missing)))
        return (yield from super().tile(ctx, out))


def checked(built, labels, level=None):
    """``built`` (a ``map_chunks`` result) checking first that ``labels`` exist in the index."""
    labels = pd.Index(list(labels) if pd.api.types.is_list_like(labels) and not isinstance(labels, tuple)
                      else [labels], dtype=object)
    op = CheckedMap(**built.op.params, labels=labels, level=level, label=built.op.label)
    return new_frame(op, built.data.inputs, built.shape[0], built.data.meta)


# --- rename / drop ------------------------------------------------------------------------------

def _rename(obj, kwargs):
    return obj.rename(**kwargs)


def _dict_like(mapper) -> bool:
    return pd.api.types.is_dict_like(mapper) and not callable(mapper)


@methods(DataFrame, Series)
def rename(obj, mapper=None, *, index=None, columns=None, axis=None, copy=None, inplace=False,
           level=None, errors="ignore"):
    """Rename labels with a dict or a function (a Series' scalar ``index`` renames the Series)."""
    if isinstance(obj, Series):
        if mapper is not None:
            index = mapper
        if axis not in (None, 0, "index"):
            raise ValueError(f"No axis named {axis} for object type Series")
        kw, row_mapper = {"index": index}, index
        if not (_dict_like(index) or callable(index)):
            row_mapper = None  # a new name for the Series
    else:
        if mapper is not None:
            if index is not None or columns is not None:
                raise TypeError("Cannot specify both 'mapper' and any of 'index' or 'columns'")
            if obj.data.meta._get_axis_number(axis or 0) == 0:
                index = mapper
            else:
                columns = mapper
        elif index is None and columns is None:
            raise TypeError("must pass an index to rename")
        kw, row_mapper = {"index": index, "columns": columns}, index
    kw = {k: v for k, v in kw.items() if v is not None}
    if level is not None:
        kw["level"] = level
    if errors not in ("ignore", "raise"):
        raise ValueError("errors must be either 'ignore' or 'raise'")
    meta = obj.data.meta
    meta.rename(**kw)  # pandas' errors
    if isinstance(obj, DataFrame) and columns is not None:
        meta.rename(columns=columns, level=level, errors=errors)
    built = map_chunks(_rename, (obj, kw), label="md.rename")
    if errors == "raise" and _dict_like(row_mapper):
        built = checked(built, list(row_mapper), level)
    return inplace_result(obj, built, inplace)


def _drop(obj, kwargs):
    return obj.drop(**kwargs, errors="ignore")


def _drop_rows(node):
    if isinstance(node.op, CheckedMap):
        return None  # every label must be found: no row rewrite may pass through
    return "same" if node.op.args[1].get("index") is None else "subset"


@uses(_drop, rows=_drop_rows, passthrough=True)
def _drop_columns(node, needed):
    return same_as_output(node, needed)


@methods(DataFrame, Series)
def drop(obj, labels=None, *, axis=0, index=None, columns=None, level=None, inplace=False,
         errors="raise"):
    """Drop rows (by index labels) or columns; missing labels raise KeyError unless ignored."""
    meta = obj.data.meta
    if labels is not None:
        if index is not None or columns is not None:
            raise ValueError("Cannot specify both 'labels' and 'index'/'columns'")
        if meta._get_axis_number(axis) == 0:
            index = labels
        else:
            columns = labels
    elif index is None and columns is None:
        raise ValueError("Need to specify at least one of 'labels', 'index' or 'columns'")
    if errors not in ("ignore", "raise"):
        raise ValueError("errors must be either 'ignore' or 'raise'")
    kw = {"index": index, "columns": columns, "level": level}
    kw = {k: v for k, v in kw.items() if v is not None}
    if columns is not None:
        meta.drop(columns=columns, level=level, errors=errors)  # pandas' KeyError
    built = map_chunks(_drop, (obj, kw), keep_rows=index is None, label="md.drop")
    if index is not None and errors == "raise":
        built = checked(built, index, level)
    return inplace_result(obj, built, inplace)


@methods(DataFrame, Series)
def rename_axis(obj, *args, inplace=False, **kwargs):
    """Set the name of the index or the columns axis."""
    return inplace_result(obj, per_chunk(obj, "rename_axis", *args, **kwargs), inplace)


def _prefix(obj, name, text, axis):
    kwargs = {} if axis is None else {"axis": axis}
    return per_chunk(obj, name, text, **kwargs)


@methods(DataFrame, Series)
def add_prefix(obj, prefix, axis=None):
    """Labels (columns of a DataFrame, the index of a Series) prefixed with ``prefix``."""
    return _prefix(obj, "add_prefix", prefix, axis)


@methods(DataFrame, Series)
def add_suffix(obj, suffix, axis=None):
    """Labels (columns of a DataFrame, the index of a Series) suffixed with ``suffix``."""
    return _prefix(obj, "add_suffix", suffix, axis)


@methods(DataFrame, Series, Index)
def copy(obj, deep=True):
    """A copy: a new object on the same (immutable) graph node; setting values on one leaves
    the other unchanged."""
    return type(obj)(obj.data)


# --- columns: assign / insert / pop / select_dtypes ----------------------------------------------

@methods(DataFrame)
def assign(obj, **kwargs):
    """New columns: scalars, array-likes, Series with the frame's index, or callables of the
    frame so far (later ones see earlier ones)."""
    result = obj
    for key, value in kwargs.items():
        if callable(value) and not isinstance(value, (_Frame, Tensor)):
            value = value(result)
        result = column_set(result, key, value)
    return result


def _insert(frame, loc, column, value, mode, allow, meta):
    out = frame.copy()
    out.insert(loc, column, _value(value, frame, mode), allow_duplicates=allow)
    return out if meta is None else cast_like(out, meta)


@methods(DataFrame)
def insert(obj, loc, column, value, allow_duplicates=False):
    """Insert a column at position ``loc`` (in place, like pandas)."""
    value, mode = _operand(value)
    meta = _insert(sample_of(obj.data.meta), loc, column, _sample_value(value, mode), mode,
                   allow_duplicates, None).iloc[:0]
    args = (obj, loc, column, value, mode, allow_duplicates, meta)
    if mode == "positional":
        built = positional_map(_insert, args, meta, label="md.insert")
    else:
        built = map_chunks(_insert, args, label="md.insert", meta=meta)
    obj.data = built.data


@methods(DataFrame)
def pop(obj, item):
    """The column ``item``, dropped from the frame (in place)."""
    column = obj[item]
    obj.data = drop(obj, columns=[item]).data
    return column


def _select_dtypes(frame, include, exclude):
    return frame.select_dtypes(include=include, exclude=exclude)


uses(_select_dtypes, rows="same", passthrough=True)(same_as_output)


@methods(DataFrame)
def select_dtypes(obj, include=None, exclude=None):
    """The columns whose dtypes are included / not excluded."""
    return map_chunks(_select_dtypes, (obj, include, exclude), label="md.select_dtypes")


# --- where / mask -------------------------------------------------------------------------------

_DEFAULT = "__mars_default__"


def _where(obj, how, cond, cmode, other, omode, kw, meta):
    cond = _value(cond, obj, cmode)
    args = (cond,) if omode is None else (cond, _value(other, obj, omode))
    out = getattr(obj, how)(*args, **kw)
    return out if meta is None else cast_like(out, meta)


def _fractional(sample):
    """A sample whose float values are not whole numbers: pandas keeps an integer column's
    dtype when the floats set in it are whole, real data seldom are."""
    if isinstance(sample, (pd.Series, pd.DataFrame)):
        sample = sample.copy()
        frame = sample.to_frame() if isinstance(sample, pd.Series) else sample
        for i, dtype in enumerate(frame.dtypes):
            if getattr(dtype, "kind", "O") in "fc":
                frame.isetitem(i, frame.iloc[:, i] * 0.5)
        return frame.iloc[:, 0].rename(sample.name) if isinstance(sample, pd.Series) else frame
    return sample


def _cond_operand(obj, cond, axis):
    if callable(cond) and not isinstance(cond, (_Frame, Tensor)):
        cond = cond(obj)
    if isinstance(obj, DataFrame) and isinstance(cond, (Series, pd.Series)):
        if axis in (1, "columns"):
            if isinstance(cond, Series):
                raise NotImplementedError("a lazy condition along the columns is not supported")
            return cond, "scalar"
    if isinstance(cond, np.ndarray) and cond.ndim == 2:
        from .datasource import from_pandas

        return from_pandas(pd.DataFrame(cond)), "positional"
    return _operand(cond)


def _where_or_mask(obj, how, cond, other, inplace, axis, level):
    cond, cmode = _cond_operand(obj, cond, axis)
    if cmode == "scalar" and not isinstance(cond, pd.Series):
        raise ValueError("Array conditional must be same shape as self")
    if isinstance(other, str) and other == _DEFAULT:
        other, omode = None, None
    else:
        if callable(other) and not isinstance(other, (_Frame, Tensor)):
            other = other(obj)
        other, omode = _operand(other)
    kw = {k: v for k, v in (("axis", axis), ("level", level)) if v is not None}
    sample = sample_of(obj.data.meta)
    cmeta = cond if cmode == "scalar" else cond.data.meta
    _where(sample, how, sample_of(cmeta) if cmode != "scalar" else cond, "scalar", None, None, kw,
           None)  # pandas' error for a condition that is not boolean

    def run(flag):
        if cmode == "scalar":
            c = cond.astype(bool) & False | flag
        elif isinstance(cmeta, pd.DataFrame):
            c = pd.DataFrame(flag, index=sample.index, columns=cmeta.columns)
        else:
            c = pd.Series(flag, index=sample.index, name=cmeta.name)
        o = None if omode is None else _fractional(_sample_value(other, omode))
        return _where(sample, how, c, "scalar", o, None if omode is None else "scalar", kw, None)

    replaced = how == "mask"  # where replaces where cond is False, mask where it is True
    meta = declared_meta(lambda: run(replaced), lambda: run(not replaced))
    args = (obj, how, cond, cmode, other, omode, kw, meta)
    if "positional" in (cmode, omode):
        built = positional_map(_where, args, meta, label=f"md.{how}")
    else:
        built = map_chunks(_where, args, label=f"md.{how}", meta=meta)
    return inplace_result(obj, built, inplace)


@methods(DataFrame, Series)
def where(obj, cond, other=_DEFAULT, *, inplace=False, axis=None, level=None):
    """Values where ``cond`` is True, ``other`` (missing by default) elsewhere.

    ``cond`` / ``other``: lazy or pandas objects with the same index, boolean arrays, callables
    of the object, scalars. An integer column declares the dtype it gets when a value is
    replaced (pandas keeps the integer dtype when none is)."""
    return _where_or_mask(obj, "where", cond, other, inplace, axis, level)


@methods(DataFrame, Series)
def mask(obj, cond, other=_DEFAULT, *, inplace=False, axis=None, level=None):
    """Values where ``cond`` is False, ``other`` (missing by default) elsewhere."""
    return _where_or_mask(obj, "mask", cond, other, inplace, axis, level)


# --- isin ---------------------------------------------------------------------------------------

def _isin(obj, values, aligned):
    if aligned and not values.index.equals(obj.index):
        raise NotImplementedError(
            "isin with a Series / DataFrame whose index differs from the frame's: pandas aligns "
            "the labels, here the rows must line up one to one (same index)")
    return obj.isin(values)


uses(_isin, rows="same")(lambda node, needed: [None] * len(node.inputs))


@methods(DataFrame, Series, Index)
def isin(obj, values):
    """Whether each value is in ``values`` (list-like, set, dict of columns, Series, ...)."""
    from .datasource import from_pandas

    meta = obj.data.meta
    if isinstance(obj, DataFrame) and isinstance(values, (pd.Series, pd.DataFrame)):
        values = from_pandas(values)
    if isinstance(values, (_Frame, Index, Tensor)):
        if isinstance(obj, DataFrame):  # lined up by the index (pandas aligns the labels)
            if not isinstance(values, _Frame):
                raise TypeError("only list-like or dict-like objects are allowed to be passed to "
                                f"DataFrame.isin(), you passed a '{type(values).__name__}'")
            meta.isin(values.data.meta)
            return map_chunks(_isin, (obj, values, True), label="md.isin")
        if isinstance(values, DataFrame):
            meta.isin(values.data.meta)  # pandas' error
        return _isin_whole(obj, values)
    meta.isin(values)  # pandas' TypeError for a scalar
    if isinstance(values, (set, frozenset, dict)) and not isinstance(obj, DataFrame):
        values = list(values)
    if isinstance(obj, Index):
        from .frame_tensor import series_tensor_map

        return series_tensor_map(obj, _isin, (values, False), dtype=bool, label="md.isin")
    return map_chunks(_isin, (obj, values, False), label="md.isin")


def _isin_whole(obj, values):
    """``obj.isin`` of every value of a lazy object: it goes whole to every block."""
    from .datasource import from_tensor
    from .frame_tensor import series_tensor_map

    if isinstance(values, Tensor):
        values = from_tensor(values.reshape(-1) if values.ndim != 1 else values, False)
    if isinstance(obj, Index):
        return series_tensor_map(obj, _isin, (values, False), broadcast=(values,), dtype=bool,
                                 label="md.isin")
    return map_chunks(_isin, (obj, values, False), label="md.isin", broadcast=(values,))


# --- to_frame -----------------------------------------------------------------------------------

@methods(Series)
def to_frame(obj, name=_DEFAULT):
    """The Series as a one-column DataFrame."""
    kwargs = {} if isinstance(name, str) and name == _DEFAULT else {"name": name}
    return per_chunk(obj, "to_frame", **kwargs)
