"""Elementwise arithmetic and comparisons of frames with scalars and row-aligned frames."""
from __future__ import annotations

import operator

import numpy as np
import pandas as pd

from .align import index_relation, label_aligned, multi_level_axis, promoted
from .blockwise import map_chunks, sample_of
from .core import DataFrame, Series, _Frame, methods
from .rules.usage import same_as_output, uses

__all__: list[str] = []


def _binary_kernel(a, b, name: str, fill_value=None, axis=None):
    if isinstance(a, (pd.Series, pd.DataFrame)) and isinstance(b, (pd.Series, pd.DataFrame)) and (
            type(a) is type(b) or axis == 0) and not a.index.equals(b.index):
        # blocks are lined up only when the indexes are known equal: a safety net
        raise NotImplementedError("row blocks with different indexes were lined up")
    if fill_value is None and axis is None:
        return getattr(operator, name)(a, b)
    kwargs = {k: v for k, v in (("fill_value", fill_value), ("axis", axis)) if v is not None}
    if isinstance(a, (pd.Series, pd.DataFrame)):
        return getattr(a, name)(b, **kwargs)
    return getattr(b, "r" + name)(a, **kwargs)


def _aligned_kernel(a, b, a_missing, b_missing, **kwargs):
    return _binary_kernel(a, b, **kwargs)


@uses(_binary_kernel, rows="same")
def _binary_columns(node, needed):
    if node.op.broadcast:  # a Series lined up with the frame's columns needs them all
        return [None] * len(node.inputs)
    return same_as_output(node, needed)


def _as_operand(other, like):
    """Bring a pandas operand that pandas would align by rows into the lazy graph."""
    from .datasource import from_pandas

    if isinstance(other, pd.DataFrame) or (isinstance(other, pd.Series) and isinstance(like, Series)):
        return from_pandas(other)
    return other


def _array_operand(other):
    """A NumPy array, list or tensor operand (pandas lines arrays up by position), else None."""
    from ..tensor.core import Tensor

    if isinstance(other, Tensor):
        return other if other.ndim else None  # a lazy scalar (``s.mean()``) broadcasts
    if isinstance(other, (list, tuple, np.ndarray)) and np.ndim(other) > 0:
        return np.asarray(other)
    return None


def _positional_kernel(frame, values, arr_first: bool, **kwargs):
    arr = values.to_numpy()
    arr = arr.reshape(-1) if isinstance(frame, pd.Series) else arr
    return _binary_kernel(arr, frame, **kwargs) if arr_first else _binary_kernel(frame, arr, **kwargs)


def _with_array(obj, arr, arr_first: bool, kwargs):
    """``obj <op> arr`` as pandas computes it: an array with one value per column broadcasts
    along the rows; one with the object's shape pairs its rows by position."""
    from ..tensor.core import Tensor
    from .datasource import from_pandas, from_tensor
    from .setting import positional_map

    meta = obj.data.meta
    ncols = meta.shape[1] if isinstance(meta, pd.DataFrame) else None
    shape = tuple(arr.shape)
    if ncols is not None and (shape == (ncols,) or shape == (1, ncols)):
        if isinstance(arr, Tensor):  # a Series over the columns, as pandas aligns one
            series = from_tensor(arr.reshape(ncols), False).set_axis(meta.columns)
            sides = (series, obj) if arr_first else (obj, series)
            return _frame_with_series(*sides, kwargs)
        row = arr.reshape(ncols)
        return map_chunks(_binary_kernel, (row, obj) if arr_first else (obj, row), kwargs,
                          label=f"md.{kwargs['name']}", validate=True)
    want = 1 if ncols is None else 2
    if len(shape) != want or (ncols is not None and shape[1] != ncols):
        expected = "(n,)" if ncols is None else f"(n, {ncols})"
        raise ValueError(f"Unable to coerce to {type(meta).__name__}, shape must be {expected}: given {shape}")
    values = from_tensor(arr, want == 2) if isinstance(arr, Tensor) else \
        from_pandas(pd.DataFrame(arr) if want == 2 else pd.Series(arr))
    sample = sample_of(meta)
    probe = np.ones((1,) + shape[1:], dtype=arr.dtype)
    meta_out = _positional_kernel(sample, pd.DataFrame(probe) if want == 2 else pd.Series(probe),
                                  arr_first, **kwargs).iloc[:0]
    return positional_map(_PositionalCall(arr_first, kwargs), (obj, values), meta_out,
                          label=f"md.{kwargs['name']}")


class _PositionalCall:
    """``_positional_kernel`` with its keywords bound (``positional_map`` passes positions only)."""

    def __init__(self, arr_first, kwargs):
        self.arr_first, self.kwargs = arr_first, kwargs

    def __call__(self, frame, values):
        return _positional_kernel(frame, values, self.arr_first, **self.kwargs)

    def __mars_token__(self):
        return ("positional", self.arr_first, sorted(self.kwargs.items()))


def _binary(name: str, strict: bool = False):
    def func(left, right, axis=None, level=None, fill_value=None):
        if level is not None and multi_level_axis(left, axis):
            return _with_level(left, right, name, axis, level, fill_value)
        kwargs = {"name": name} if fill_value is None else {"name": name, "fill_value": fill_value}
        arr_first = not isinstance(left, _Frame)
        arr = _array_operand(left if arr_first else right)
        if arr is not None:
            return _with_array(right if arr_first else left, arr, arr_first, kwargs)
        if isinstance(left, _Frame):
            right = _as_operand(right, left)
        else:
            left = _as_operand(left, right)
        sides = (left, right)
        frame = next((x for x in sides if isinstance(x, DataFrame)), None)
        series = next((x for x in sides if isinstance(x, Series)), None)
        by_rows = axis in (0, "index", "rows")
        if frame is not None and series is not None and not by_rows:
            return _frame_with_series(left, right, kwargs)
        if frame is not None and series is not None:
            kwargs["axis"] = 0
        if all(isinstance(x, _Frame) for x in sides):
            return _label_aligned(left, right, kwargs, strict)
        return map_chunks(_binary_kernel, sides, kwargs, label=f"md.{name}", validate=True)

    func.__name__ = name
    func.__doc__ = f"Elementwise ``{name}`` of a frame with a scalar or a frame lined up by labels."
    return func


add, sub, mul, truediv, floordiv, mod, pow = (
    _binary(n) for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"))
eq, ne, lt, le, gt, ge = (_binary(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))
and_, or_, xor = (_binary(n) for n in ("and_", "or_", "xor"))
for _n in ("eq", "ne", "lt", "le", "gt", "ge"):  # operators require equal labels, methods align
    methods(DataFrame, Series, name=f"__{_n}__")(_binary(_n, strict=True))


def _label_aligned(left, right, kwargs, strict):
    label = f"md.{kwargs['name']}"
    relation = index_relation(left, right)
    if relation == "same":
        return map_chunks(_binary_kernel, (left, right), kwargs, label=label, validate=True)
    lmeta, rmeta = left.data.meta, right.data.meta
    if strict:
        _binary_kernel(lmeta, rmeta, **kwargs)  # pandas' errors (other columns, other kinds)
        if relation == "differ":
            raise ValueError(f"Can only compare identically-labeled {type(lmeta).__name__} objects")
        meta = _binary_kernel(lmeta, rmeta, **kwargs)
    else:
        _binary_kernel(sample_of(lmeta), sample_of(rmeta), **kwargs)
        meta = _binary_kernel(promoted(lmeta), promoted(rmeta), **kwargs)
    return label_aligned(left, right, _aligned_kernel, kwargs, meta, join=None if strict else "outer",
                         label=label, relation=relation)


def _level_kernel(a, b, name, level, axis, fill_value):
    kwargs = {"level": level, "fill_value": fill_value} | ({} if axis is None else {"axis": axis})
    return getattr(a, name)(b, **kwargs)


def _with_level(left, right, name, axis, level, fill_value):
    """``left.<name>(right, level=...)``: pandas matches ``right``'s labels to one level of
    ``left``'s index (or columns) without changing ``left``'s rows, so every row block does it
    with the whole of ``right`` (typically small: one value per label of the level)."""
    from .datasource import from_pandas

    if isinstance(right, (pd.Series, pd.DataFrame)):
        right = from_pandas(right)
    kwargs = dict(name=name, level=level, axis=axis, fill_value=fill_value)
    other = right.data.meta if isinstance(right, _Frame) else right
    empty = _level_kernel(left.data.meta, other, **kwargs)  # pandas' errors, labels
    sampled = _level_kernel(sample_of(left.data.meta), sample_of(other) if isinstance(right, _Frame) else other,
                            **kwargs).iloc[:0]  # dtypes, as when rows find no label
    meta = sampled.set_axis(empty.columns, axis=1) if isinstance(empty, pd.DataFrame) else sampled
    broadcast = (right,) if isinstance(right, _Frame) else ()
    return map_chunks(_level_kernel, (left, right), kwargs, label=f"md.{name}", meta=meta, broadcast=broadcast)


def _frame_with_series(left, right, kwargs):
    """pandas aligns a Series with a DataFrame's columns: every row block gets the whole Series
    (typically a small reduction result such as ``df - df.mean()``)."""
    series = left if isinstance(left, Series) else right
    frame = right if series is left else left
    # assume the Series is indexed by the frame's columns, as a reduction of it is
    stand_in = pd.Series(np.ones(len(frame.columns)), index=frame.columns).astype(series.dtype)
    metas = [stand_in.iloc[:0] if x is series else x.data.meta for x in (left, right)]
    _binary_kernel(*metas, **kwargs)
    samples = [stand_in if x is series else sample_of(x.data.meta) for x in (left, right)]
    meta = _binary_kernel(*samples, **kwargs).iloc[:0]
    return map_chunks(_binary_kernel, (left, right), kwargs, label=f"md.{kwargs['name']}",
                      meta=meta, broadcast=(series,))


uses(operator.neg, rows="same")(same_as_output)
uses(operator.abs, rows="same")(same_as_output)


def neg(obj):
    """Elementwise negation."""
    return map_chunks(operator.neg, (obj,), label="md.neg")


uses(operator.invert, rows="same")(same_as_output)


def invert(obj):
    """Elementwise logical / bitwise not (``~obj``)."""
    return map_chunks(operator.invert, (obj,), label="md.invert", validate=True)


def abs(obj):  # noqa: A001 - the pandas method name
    """Elementwise absolute value."""
    return map_chunks(operator.abs, (obj,), label="md.abs")


def _astype(obj, dtype):
    return obj.astype(dtype)


@uses(_astype, rows="same")
def _astype_columns(node, needed):
    dtype = node.op.args[1]
    if isinstance(dtype, dict) and needed is not None:  # pandas raises for a missing key
        needed = needed | set(dtype)
    return same_as_output(node, needed)


def astype(obj, dtype):
    """Cast to ``dtype`` (a dtype, or a column -> dtype dict for DataFrames); ``'category'``
    gets the categories of the whole data (learned now), not each block's own."""
    return map_chunks(_astype, (obj, _with_categories(obj, dtype)), label="md.astype")


def _open_category(dtype) -> bool:
    try:
        dtype = pd.api.types.pandas_dtype(dtype)
    except TypeError:
        return False
    return isinstance(dtype, pd.CategoricalDtype) and dtype.categories is None


def category_of(values, dtype):
    """The CategoricalDtype pandas gives all of ``values`` cast to ``dtype`` (no categories
    given): pandas' own cast of their distinct values (a small lazy object, computed now)."""
    from .reshape import compute_now

    if isinstance(values.dtype, pd.CategoricalDtype):  # its categories stay
        return values.data.meta.astype(dtype).dtype
    distinct = compute_now(values.drop_duplicates())
    return distinct.astype(dtype).dtype


def _with_categories(obj, dtype):
    if isinstance(obj, DataFrame):
        meta = obj.data.meta
        spec = dtype if pd.api.types.is_dict_like(dtype) else {c: dtype for c in meta.columns}
        open_ = [c for c, d in spec.items() if c in meta.columns and _open_category(d)]
        if not open_ or meta.columns.has_duplicates:
            return dtype
        return {**spec, **{c: category_of(obj[c], spec[c]) for c in open_}}
    return category_of(obj, dtype) if _open_category(dtype) else dtype


_UFUNC_OPS = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
              "floor_divide": "floordiv", "remainder": "mod", "power": "pow", "equal": "eq",
              "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt",
              "greater_equal": "ge", "bitwise_and": "and_", "bitwise_or": "or_", "bitwise_xor": "xor"}


def _apply_ufunc(ufunc, *args, **kwargs):
    return ufunc(*args, **kwargs)


def frame_array_ufunc(obj, ufunc, method, *inputs, **kwargs):
    """``DataFrame/Series.__array_ufunc__``: ``ndarray + s`` and ``np.exp(df)`` stay lazy (an
    array operand pairs by position, as in pandas); ``out=`` and ufunc methods are refused."""
    if method != "__call__" or "out" in kwargs:
        return NotImplemented
    op = _UFUNC_OPS.get(ufunc.__name__)
    if op is not None and len(inputs) == 2 and not kwargs:
        return globals()[op](*inputs)
    frames = [x for x in inputs if isinstance(x, _Frame)]
    if len(frames) != 1 or any(_array_operand(x) is not None for x in inputs):
        return NotImplemented
    return map_chunks(_apply_ufunc, (ufunc, *inputs), kwargs, label=f"np.{ufunc.__name__}", validate=True)


def frame_array(obj, dtype=None, copy=None):
    """``np.asarray(df)``: the computed values."""
    value = np.asarray(obj.fetch())
    return value if dtype is None else value.astype(dtype)
