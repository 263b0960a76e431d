"""``agg`` / ``aggregate`` and ``transform`` of DataFrames and Series, and Mars' ``CustomReduction``.

The reductions of ``reduction.py`` (tree reductions) serve a single name (``'sum'``, ...) and a
Series' list of such names; a ``CustomReduction`` is its own tree reduction (``pre`` per block,
``agg`` per level, ``post`` at the end). Anything else (callables, lists, dicts, ``median``,
...) runs pandas' own method on whole columns in column groups (``apply_columns``), so results
are pandas' own; a Series' whole values go to one chunk.
"""
from __future__ import annotations

import builtins

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from . import reduction
from .apply import MetaParam, Call, conform, infer_meta, rows_of, rowwise
from .agg_tree import TREE, tree_agg
from .apply_columns import columnwise
from .blockwise import row_chunks, rows_grid, sample_of, whole_chunk
from .core import DataFrame, Series, methods, new_frame

__all__ = ["CustomReduction"]

_TREE = TREE
#: reductions other modules implement without gathering whole columns
_OTHER_REDUCTIONS = ("median", "skew", "kurt", "sem", "all", "any")


class CustomReduction:
    """Mars' user-defined reduction, usable in ``agg``: ``pre(block)`` -> a tuple of partial
    values (default: the block), ``agg(*values)`` combines partials (it runs on each block's
    ``pre`` results and again on the concatenated results of several blocks), ``post(*values)``
    makes the result from the last ``agg`` (default: its single value).

    Called on a pandas object it computes ``post(*agg(*pre(value)))``, so pandas' ``agg``
    accepts it too.
    """

    #: set when ``pre`` already aggregates (``agg`` is then not run on single blocks)
    pre_with_agg = False

    def __init__(self, name=None, is_gpu=None):
        self.name = name or "<custom>"
        self.output_limit = 1
        self._is_gpu = is_gpu

    @property
    def __name__(self):
        return self.name

    def pre(self, value):
        return (value,)

    def agg(self, *values):
        raise NotImplementedError("a CustomReduction must implement agg()")

    def post(self, *values):
        if len(values) != 1:
            raise ValueError("post() must be implemented when agg() returns several values")
        return values[0]

    def __mars_token__(self):
        import cloudpickle

        return ("custom-reduction", cloudpickle.dumps(self))

    def __call__(self, value):
        if isinstance(value, (DataFrame, Series)):
            return agg(value, self)
        return self.post(*self._agg_block(value))

    def _agg_block(self, value) -> tuple:
        values = _tuple(self.pre(value))
        return values if self.pre_with_agg else _tuple(self.agg(*values))

    def _combine(self, parts: list[tuple]) -> tuple:
        slots = [_stack([p[i] for p in parts]) for i in range(len(parts[0]))]
        return _tuple(self.agg(*slots))


def _tuple(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _stack(values):
    if all(isinstance(v, (pd.Series, pd.DataFrame)) for v in values):
        return pd.concat(values)
    return pd.Series(values)


class CustomReduce(Operand):
    """A ``CustomReduction`` per column: ``'map'`` (per block), ``'combine'``, ``'final'``."""

    _params = ("reduction", "stage", "series", "dtype")

    def execute(self, *values):
        red = self.reduction
        if self.stage == "map":
            frame = values[0].to_frame() if isinstance(values[0], pd.Series) else values[0]
            try:
                return [red._agg_block(frame.iloc[:, j]) for j in range(frame.shape[1])]
            except Exception as exc:
                exc.add_note(f"in {self.label} on {rows_of(frame)}")
                raise
        cols = [red._combine([v[j] for v in values]) for j in range(len(values[0]))]
        if self.stage == "combine":
            return cols
        results = [red.post(*c) for c in cols]
        if self.series:
            return np.asarray(results[0], dtype=self.dtype)[()]
        return results

    def tile(self, ctx, out):
        level = [ChunkData(self.new(stage="map"), [c], (), None, (i,))
                 for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        k = builtins.max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        final = self.new(stage="final")
        if self.series:
            grid = chunk_grid(())
            grid[()] = ChunkData(final, level, (), out.meta, ())
            return Tiled(grid, ())
        values = ChunkData(final, level, (), None, (0,))
        meta = out.meta
        op = ToSeries(index=out.inputs[0].meta.columns, dtype=meta.dtype, label=self.label)
        return rows_grid([ChunkData(op, [values], out.shape, meta, (0,))], meta)


class ToSeries(Operand):
    """A list of scalars as a Series with ``index`` and ``dtype``."""

    _params = ("index", "dtype")

    def execute(self, values):
        res = pd.Series(list(values), index=self.index)
        return conform(res, pd.Series([], dtype=self.dtype))


def _custom(obj, red: CustomReduction, label: str):
    meta = obj.data.meta
    if isinstance(obj, Series):
        sample = infer_meta(lambda s: pd.Series([red(s)]), obj, label, {})
        op = CustomReduce(reduction=red, series=True, dtype=sample.dtype, label=label)
        return new_tensor(op, [obj], (), sample.dtype)
    out = infer_meta(lambda f: f.agg(red), obj, label, {})
    op = CustomReduce(reduction=red, series=False, dtype=out.dtype, label=label)
    return new_frame(op, [obj], len(meta.columns), pd.Series([], dtype=out.dtype, index=meta.columns[:0]))


# -- whole values of a Series ---------------------------------------------------------------------
class WholeCall(Operand):
    """A user call on all of a Series' values at once (one chunk)."""

    _params = ("call", "result_meta")

    def execute(self, whole):
        try:
            res = self.call(whole)
        except Exception as exc:
            exc.add_note(f"in {self.label} on {rows_of(whole)}")
            raise
        meta = self.result_meta.value
        if isinstance(meta, np.ndarray):
            return np.asarray(res, dtype=meta.dtype)[()]
        return conform(res, meta)

    def tile(self, ctx, out):
        inp = out.inputs[0]
        whole = whole_chunk(ctx[inp], inp.meta)
        meta = self.result_meta.value
        if isinstance(meta, np.ndarray):
            grid = chunk_grid(())
            grid[()] = ChunkData(self.new(), [whole], (), out.meta, ())
            return Tiled(grid, ())
        shape = (np.nan,) if isinstance(meta, pd.Series) else (np.nan, len(meta.columns))
        return rows_grid([ChunkData(self.new(), [whole], shape, meta, (0,) * len(shape))], meta)


def whole_call(obj, call, label: str):
    """``call`` on all values of ``obj`` in one chunk; a scalar result is a 0-d tensor."""
    meta = obj.data.meta
    try:
        out = call(meta) if obj.shape[0] == 0 else call(sample_of(meta))
    except Exception as exc:
        exc.add_note(f"{label} runs the function on a one-row sample to learn the result's type")
        raise
    if isinstance(out, (pd.Series, pd.DataFrame)):
        out = out.iloc[:0]
        op = WholeCall(call=call, result_meta=MetaParam(out), label=label)
        return new_frame(op, [obj], np.nan, out)
    dtype = np.asarray(out).dtype
    dtype = np.dtype(object) if dtype.kind in "US" else dtype
    op = WholeCall(call=call, result_meta=MetaParam(np.empty(0, dtype)), label=label)
    return new_tensor(op, [obj], (), dtype)


# -- agg ------------------------------------------------------------------------------------------
class _AggColumns:
    """``frame.agg(func)`` on a column group; a dict keeps the group's own columns."""

    __slots__ = ("method", "func", "args", "kwargs")

    def __init__(self, method, func, args, kwargs):
        self.method, self.func, self.args, self.kwargs = method, func, tuple(args), dict(kwargs)

    def __mars_token__(self):
        return ("agg-columns", self.method, self.func, self.args, self.kwargs)

    def __getstate__(self):
        return (self.method, self.func, self.args, self.kwargs)

    def __setstate__(self, state):
        self.method, self.func, self.args, self.kwargs = state

    def __call__(self, frame):
        func = self.func
        if isinstance(func, dict):
            func = {k: v for k, v in func.items() if k in frame.columns}
        return getattr(frame, self.method)(func, *self.args, **self.kwargs)


def _check_names(meta, func, method):
    """pandas' error for an unknown function name, at build time."""
    names = [func] if isinstance(func, str) else []
    if isinstance(func, (list, tuple)):
        names = [f for f in func if isinstance(f, str)]
    elif isinstance(func, dict):
        missing = [k for k in func if k not in getattr(meta, "columns", [])]
        if isinstance(meta, pd.DataFrame) and missing:
            raise KeyError(f"Column(s) {missing} do not exist")
        for v in func.values():
            names += [v] if isinstance(v, str) else [f for f in v if isinstance(f, str)] \
                if isinstance(v, (list, tuple)) else []
    for name in names:
        if not hasattr(meta, name) and not hasattr(np, name):
            raise AttributeError(f"'{name}' is not a valid function for '{type(meta).__name__}' object")


def _normalized(func):
    """pandas' dict normalization: when any entry is a list, every entry is one."""
    if isinstance(func, dict) and any(isinstance(v, (list, tuple, dict)) for v in func.values()):
        return {k: v if isinstance(v, (list, tuple, dict)) else [v] for k, v in func.items()}
    return func


def _by_dict(obj, func):
    """The frame's columns in the dict's order (pandas' result order)."""
    if isinstance(func, dict) and isinstance(obj, DataFrame) and list(func) != list(obj.columns):
        return obj[list(func)]
    return obj


@methods(DataFrame, Series, name="aggregate")
@methods(DataFrame, Series)
def agg(obj, func=None, axis=0, *args, **kwargs):
    """Aggregate with a name, a callable, a ``CustomReduction``, a list of them or a column ->
    function(s) dict; ``axis=1`` aggregates each row."""
    meta = obj.data.meta
    axis = meta._get_axis_number(axis)
    label = f"md.{type(obj).__name__}.agg"
    if func is None and kwargs and isinstance(obj, DataFrame):  # named aggregation
        return columnwise(obj, Call("agg", None, (), kwargs), label, {}, max_groups=1)
    _check_names(meta, func, "agg")
    if axis == 1:
        return rowwise(obj, Call("agg", func, args, {"axis": 1, **kwargs}), label, {})
    if isinstance(func, str) and func in _TREE and not args:
        return getattr(reduction, _TREE[func])(obj, **kwargs)
    if isinstance(func, str) and func in _OTHER_REDUCTIONS and not args and hasattr(type(obj), func):
        return getattr(obj, func)(**kwargs)  # the distributed reductions of other modules
    if isinstance(func, CustomReduction):
        return _custom(obj, func, label)
    if isinstance(obj, Series):
        if isinstance(func, (list, tuple)) and func and all(
                isinstance(f, str) and f in _TREE for f in func) and not args and not kwargs:
            return _stack_scalars([getattr(reduction, _TREE[f])(obj) for f in func], list(func), obj.name)
        return whole_call(obj, Call("agg", func, args, kwargs), label)
    tree = None if args or kwargs else tree_agg(obj, func, label)
    if tree is not None:
        return tree
    return columnwise(_by_dict(obj, func), _AggColumns("agg", _normalized(func), args, kwargs),
                      label, {}, align="concat")


class StackScalars(Operand):
    """0-d results as one Series (a Series' ``agg`` of a list)."""

    _params = ("index", "series_name", "dtype")

    def execute(self, *values):
        name = self.series_name
        res = pd.Series([np.asarray(v)[()] for v in values], index=list(self.index), name=name)
        return conform(res, pd.Series([], dtype=self.dtype, name=name))

    def tile(self, ctx, out):
        ins = [ctx[i].flat[0] for i in out.inputs]
        return rows_grid([ChunkData(self.new(), ins, out.shape, out.meta, (0,))], out.meta)


def _stack_scalars(results: list[Tensor], names, name):
    dtype = pd.Series([np.ones((), r.dtype)[()] for r in results]).dtype
    meta = pd.Series([], dtype=dtype, name=name, index=pd.Index(names)[:0])
    op = StackScalars(index=tuple(names), series_name=name, dtype=dtype, label="md.Series.agg")
    return new_frame(op, results, len(names), meta)


def apply_named(obj, func, axis, args, kwds):
    """``apply`` with a function name, a list or a dict: pandas runs ``agg``."""
    return agg(obj, func, axis, *args, **kwds)


# -- transform ------------------------------------------------------------------------------------
_ELEMENTWISE = {"abs", "sqrt", "exp", "log", "log10", "log2", "log1p", "expm1", "sin", "cos",
                "tan", "floor", "ceil", "negative", "square", "isna", "notna", "isnull", "notnull"}


def _elementwise(func) -> bool:
    if isinstance(func, np.ufunc):
        return True
    if isinstance(func, str):
        return func in _ELEMENTWISE
    if isinstance(func, (list, tuple)):
        return bool(func) and all(_elementwise(f) for f in func)
    if isinstance(func, dict):
        return all(_elementwise(f) for f in func.values())
    return False


@methods(DataFrame, Series)
def transform(obj, func, axis=0, *args, **kwargs):
    """Transform values keeping the shape: element by element for NumPy ufuncs and their
    names (block by block), else on whole columns (a DataFrame) or values (a Series)."""
    meta = obj.data.meta
    axis = meta._get_axis_number(axis)
    label = f"md.{type(obj).__name__}.transform"
    _check_names(meta, func, "transform")
    if axis == 1:
        return rowwise(obj, Call("transform", func, args, {"axis": 1, **kwargs}), label, {})
    if _elementwise(func):
        return rowwise(_by_dict(obj, func), Call("transform", func, args, kwargs), label, {})
    if isinstance(obj, Series):
        if callable(func) and _applies_to_values(obj, func, args, kwargs):
            return rowwise(obj, Call("apply", func, (), {"args": tuple(args), **kwargs}), label, {})
        return whole_call(obj, Call("transform", func, args, kwargs), label)
    return columnwise(_by_dict(obj, func), _AggColumns("transform", _normalized(func), args, kwargs),
                      label, {}, align="concat")


def _applies_to_values(obj, func, args, kwargs) -> bool:
    """pandas' Series.transform calls ``Series.apply`` (value by value) first."""
    try:
        sample_of(obj.data.meta).apply(func, args=tuple(args), **kwargs)
    except Exception:
        return False
    return True

