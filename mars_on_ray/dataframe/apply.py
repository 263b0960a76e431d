"""User functions on frames: ``apply`` (axis 0 and 1), ``Series.apply`` / ``map``, ``map_chunk``.

The result's metadata is inferred by running the user's function on a one-row sample with the
input's dtypes (or, on data known to be empty, pandas' own answer on the empty input); Mars'
hints ``output_type=`` / ``dtypes=`` / ``dtype=`` / ``name=`` / ``meta=`` override it. Row-wise
work (``axis=1``, ``Series.apply``) runs block by block; ``axis=0`` needs whole columns and goes
through the column-group shuffle of ``apply_columns``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.tokenize import tokenize
from .blockwise import map_chunks, sample_of
from .core import DataFrame, Series, methods

__all__: list[str] = []


# -- kernels ----------------------------------------------------------------------------------
class MetaParam:
    """An empty pandas result carried as a parameter; its token (structure only) is computed
    once, as every chunk operand of a tileable carries it."""

    __slots__ = ("value", "_token")

    def __init__(self, value):
        self.value, self._token = value, None

    def __mars_token__(self):
        if self._token is None:
            v = self.value
            dtypes = v.dtypes if isinstance(v, pd.DataFrame) else [getattr(v, "dtype", None)]
            self._token = tokenize(type(v).__name__, [str(d) for d in dtypes],
                                   [str(c) for c in getattr(v, "columns", [])],
                                   str(getattr(v, "name", None)), str(getattr(v, "index", None)))
        return self._token

    def __getstate__(self):
        return self.value

    def __setstate__(self, state):
        self.value, self._token = state, None



class Call:
    """``getattr(obj, method)(func, *args, **kwargs)`` (or ``func(obj, *args, **kwargs)`` when
    ``method`` is None): a picklable, tokenizable call of a user function."""

    __slots__ = ("method", "func", "args", "kwargs", "_token")

    def __init__(self, method, func, args=(), kwargs=None):
        self.method, self.func, self.args, self.kwargs = method, func, tuple(args), dict(kwargs or {})
        self._token = None

    def __mars_token__(self):
        if self._token is None:  # once: a closure is tokenized by pickling it
            self._token = tokenize("call", self.method, self.func, self.args, self.kwargs)
        return self._token

    def __getstate__(self):
        return (self.method, self.func, self.args, self.kwargs)

    def __setstate__(self, state):
        self.method, self.func, self.args, self.kwargs = state
        self._token = None

    def __call__(self, obj):
        if self.method is None:
            return self.func(obj, *self.args, **self.kwargs)
        return getattr(obj, self.method)(self.func, *self.args, **self.kwargs)


def rows_of(obj) -> str:
    """The row range of a block, for error notes (its first and last index labels)."""
    if len(obj) == 0:
        return "no rows"
    return f"rows {obj.index[0]!r} to {obj.index[-1]!r} ({len(obj)} rows)"


def conform(res, meta):
    """``res`` cast to the declared ``meta``'s dtypes (and name) where it can be; left as pandas
    gave it where a cast would change values (the declared dtypes came from a sample)."""
    if isinstance(meta, pd.DataFrame) and isinstance(res, pd.DataFrame):
        if list(res.columns) != list(meta.columns) or res.dtypes.equals(meta.dtypes):
            return res
        res = res.copy(deep=False)
        for i, dtype in enumerate(meta.dtypes):
            if res.dtypes.iloc[i] != dtype:
                cast = _cast(res.iloc[:, i], dtype)
                if cast is not None:
                    res.isetitem(i, cast)
        return res
    if isinstance(meta, pd.Series) and isinstance(res, pd.Series):
        if res.dtype != meta.dtype:
            res = _cast(res, meta.dtype) if _cast(res, meta.dtype) is not None else res
        return res if res.name == meta.name else res.rename(meta.name)
    return res


def _cast(values: pd.Series, dtype):
    try:
        cast = values.astype(dtype)
    except (TypeError, ValueError):
        return None
    same = cast.isna().equals(values.isna())
    if same and len(values) and values.dtype.kind in "iufcb" and getattr(dtype, "kind", "O") in "iufcb":
        with np.errstate(all="ignore"):
            same = bool((cast.astype("float64") == values.astype("float64"))[values.notna()].all())
    return cast if same else None


def empty_like(meta, index: pd.Index):
    """The declared empty result on an empty block's ``index``."""
    out = meta.iloc[:0].copy()
    out.index = index[:0]
    return out


class RowKernel:
    """A user call on one row block; an empty block gives the declared empty result, an error
    is noted with the operation and the block's rows."""

    __slots__ = ("call", "label", "meta", "empty")

    def __init__(self, call, label: str, meta, empty: bool = True):
        self.call, self.label, self.meta, self.empty = call, label, MetaParam(meta), empty

    def __mars_token__(self):
        return ("row-kernel", self.call, self.label, self.meta, self.empty)

    def __getstate__(self):
        return (self.call, self.label, self.meta, self.empty)

    def __setstate__(self, state):
        self.call, self.label, self.meta, self.empty = state

    def __call__(self, chunk):
        meta = self.meta.value
        if len(chunk) == 0 and self.empty:
            return empty_like(meta, chunk.index)
        try:
            res = self.call(chunk)
        except Exception as exc:
            exc.add_note(f"in {self.label} on {rows_of(chunk)}")
            raise
        return conform(res, meta)


# -- metadata --------------------------------------------------------------------------------
def hinted_meta(output_type=None, dtypes=None, dtype=None, name=None, index=None, meta=None):
    """The declared result from Mars' hints, or None when they do not pin it down."""
    if meta is not None:
        return meta.iloc[:0]
    index = pd.RangeIndex(0) if index is None else pd.Index(index)[:0]
    if output_type == "dataframe" or (output_type is None and dtypes is not None):
        if dtypes is None:
            return None
        dtypes = pd.Series(dtypes)
        return pd.DataFrame({c: pd.Series(dtype=d) for c, d in dtypes.items()}, index=index,
                            columns=dtypes.index)
    if output_type == "series" or (output_type is None and dtype is not None):
        if dtype is None:
            return None
        return pd.Series([], dtype=dtype, name=name, index=index)
    if output_type not in (None, "dataframe", "series"):
        raise ValueError(f"output_type must be 'dataframe' or 'series', got {output_type!r}")
    return None


def infer_meta(call, obj, label: str, hints: dict, row_index: bool = False):
    """The empty result of ``call`` on ``obj``: hinted, pandas' own on known-empty data, or
    from a one-row sample. ``row_index``: the result keeps the input's rows (its index)."""
    meta = obj.data.meta
    given = hinted_meta(**hints)
    if given is not None:
        if row_index:
            given.index = meta.index[:0]
        return given
    try:
        if obj.shape[0] == 0:
            out = call(meta)
        else:
            out = call(sample_of(meta))
    except Exception as exc:
        exc.add_note(f"{label} runs the function on a one-row sample to learn the result's "
                     "type; pass output_type= with dtypes= (or dtype=), or meta=, to skip that")
        raise
    if not isinstance(out, (pd.DataFrame, pd.Series)):
        out = pd.Series([out])  # a scalar per block: a Series
    out = out.iloc[:0]
    if row_index:
        out.index = meta.index[:0]
    if hints.get("dtypes") is not None and isinstance(out, pd.DataFrame):
        out = out.astype(dict(pd.Series(hints["dtypes"])))
    if hints.get("dtype") is not None and isinstance(out, pd.Series):
        out = out.astype(hints["dtype"])
    if hints.get("name") is not None and isinstance(out, pd.Series):
        out.name = hints["name"]
    return out


def _hints(output_type, dtypes, dtype, name, index, meta):
    return {"output_type": output_type, "dtypes": dtypes, "dtype": dtype, "name": name,
            "index": index, "meta": meta}


def rowwise(obj, call, label: str, hints: dict):
    """``call`` block by block, keeping the rows (axis=1 apply, Series.apply / map)."""
    meta = infer_meta(call, obj, label, hints, row_index=True)
    kernel = RowKernel(call, label, meta)
    return map_chunks(kernel, (obj,), label=label, meta=meta)


# -- the API ---------------------------------------------------------------------------------
_RESULT_TYPES = (None, "reduce", "broadcast", "expand")


@methods(DataFrame)
def apply(df, func, axis=0, raw=False, result_type=None, args=(), *, output_type=None,
          dtypes=None, dtype=None, name=None, index=None, meta=None, skip_infer=False, **kwds):
    """Apply ``func`` to each column (``axis=0``, whole columns) or each row (``axis=1``).

    The result type is learned by running ``func`` on a one-row sample; Mars' hints
    ``output_type=`` ('dataframe' / 'series'), ``dtypes=``, ``dtype=``, ``name=``, ``meta=``
    declare it instead (``skip_infer`` is accepted for Mars' code: a sample still runs when
    the hints leave the result open).
    """
    axis = df.data.meta._get_axis_number(axis)
    if result_type not in _RESULT_TYPES:
        raise ValueError("invalid value for result_type, must be one of "
                         "{None, 'reduce', 'broadcast', 'expand'}")
    if isinstance(func, str) or pd.api.types.is_list_like(func):
        from .aggregate import apply_named

        return apply_named(df, func, axis, args, kwds)
    if not callable(func):
        raise TypeError(f"'{type(func).__name__}' object is not callable")
    call = Call("apply", func, (), {"axis": axis, "raw": raw, "result_type": result_type,
                                    "args": tuple(args), **kwds})
    hints = _hints(output_type, dtypes, dtype, name, index, meta)
    if axis == 1 or (isinstance(func, np.ufunc) and not raw and not args and not kwds):
        return rowwise(df, call, "md.DataFrame.apply", hints)  # (pandas runs a ufunc elementwise)
    from .apply_columns import columnwise

    return columnwise(df, call, "md.DataFrame.apply", hints)


@methods(Series, name="apply")
def series_apply(s, func, args=(), *, convert_dtype=None, output_type=None, dtypes=None,
                 dtype=None, name=None, index=None, meta=None, skip_infer=False, **kwds):
    """Apply ``func`` to each value (block by block); a function returning Series expands
    into a DataFrame. Hints as for ``DataFrame.apply``."""
    if isinstance(func, str) or pd.api.types.is_list_like(func):
        from .aggregate import apply_named

        return apply_named(s, func, 0, args, kwds)
    if not callable(func):
        raise TypeError(f"'{type(func).__name__}' object is not callable")
    call = Call("apply", func, (), {"args": tuple(args), **kwds})
    return rowwise(s, call, "md.Series.apply", _hints(output_type, dtypes, dtype, name, index, meta))


def _map_kernel(chunk, arg, na_action, meta):
    if meta is not None and len(chunk) == 0:
        return empty_like(meta.value, chunk.index)
    try:
        res = chunk.map(arg, na_action=na_action)
    except Exception as exc:
        exc.add_note(f"in md.Series.map on {rows_of(chunk)}")
        raise
    return res if meta is None else conform(res, meta.value)


@methods(Series, name="map")
def series_map(s, arg, na_action=None, *, dtype=None, meta=None, skip_infer=False):
    """Map values through a dict, a Series (pandas or lazy: it goes whole to every block) or a
    function. With a mapping, missing keys give NaN, so the result's dtype depends on the
    data: it is learned from the blocks (a small reduction run now)."""
    if na_action not in (None, "ignore"):
        raise ValueError(f"na_action must either be 'ignore' or None, {na_action!r} was passed")
    from .accessors import settle_dtypes

    lazy_arg = isinstance(arg, Series)
    if not (callable(arg) or lazy_arg or isinstance(arg, (dict, pd.Series))):
        if not pd.api.types.is_dict_like(arg):
            raise TypeError(f"'{type(arg).__name__}' object is not callable")
    sample_arg = arg.data.meta if lazy_arg else arg
    given = hinted_meta(dtype=dtype, name=s.name, meta=meta)
    if given is not None:
        declared = given
    elif lazy_arg or not callable(arg):
        declared = s.data.meta.map(sample_arg, na_action=na_action)
    else:
        declared = infer_meta(Call("map", arg, (), {"na_action": na_action}), s, "md.Series.map",
                              {}, row_index=True)
    declared = declared.iloc[:0].rename(s.name)
    declared.index = s.data.meta.index[:0]
    learn = not callable(arg) and given is None
    # a mapping's blocks keep pandas' own dtypes (int, or float where a key is missing): the
    # whole result's dtype is learned from them, never forced to the empty input's guess
    res = map_chunks(_map_kernel, (s, arg, na_action, None if learn else MetaParam(declared)),
                     label="md.Series.map", meta=declared, broadcast=(arg,) if lazy_arg else ())
    return settle_dtypes(res, True, "md.Series.map") if learn else res


@methods(DataFrame, Series)
def map_chunk(obj, func, args=(), kwargs=None, *, output_type=None, dtypes=None, dtype=None,
              name=None, index=None, meta=None, skip_infer=False, **kw):
    """Mars' ``map_chunk``: ``func(block, *args, **kwargs)`` on every row block (its row count
    is known once run). The result's type comes from a one-row sample unless hinted
    (``output_type=``, ``dtypes=``, ``dtype=``, ``meta=``)."""
    kwargs = {**(kwargs or {}), **kw}
    call = Call(None, func, args, kwargs)
    label = f"md.{type(obj).__name__}.map_chunk"
    hints = _hints(output_type, dtypes, dtype, name, index, meta)
    # hinted types without an index: the blocks' labels, as a block's own result most often has
    keep_labels = index is None and meta is None and hinted_meta(**hints) is not None
    declared = infer_meta(call, obj, label, hints, row_index=keep_labels)
    return map_chunks(RowKernel(call, label, declared, empty=False), (obj,), label=label,
                      meta=declared, keep_rows=False)


@methods(DataFrame, name="map")
def frame_map(df, func, na_action=None, **kwargs):
    """``func`` on every element, block by block (result dtypes from a one-row sample)."""
    if na_action not in (None, "ignore"):
        raise ValueError(f"na_action must be 'ignore' or None. Got {na_action!r}")
    if not callable(func):
        raise TypeError(f"'{type(func).__name__}' object is not callable")
    return rowwise(df, Call("map", func, (), {"na_action": na_action, **kwargs}),
                   "md.DataFrame.map", {})


if hasattr(pd.DataFrame, "applymap"):  # pandas < 3 (deprecated there for ``map``)
    @methods(DataFrame)
    def applymap(df, func, na_action=None, **kwargs):
        """``DataFrame.map``'s former name."""
        return frame_map(df, func, na_action, **kwargs)
