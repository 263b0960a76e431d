"""Elementwise arithmetic and comparisons of frames with scalars and row-aligned frames."""
from __future__ import annotations

import operator

import numpy as np
import pandas as pd

from .blockwise import map_chunks, sample_of
from .core import DataFrame, Series, _Frame
from .rules.usage import same_as_output, uses

__all__: list[str] = []


def _binary_kernel(a, b, name: str, fill_value=None):
    if isinstance(a, (pd.Series, pd.DataFrame)) and type(a) is type(b):
        if not a.index.equals(b.index):
            # pandas aligns labels globally; row blocks can only line up equal indexes
            raise NotImplementedError(
                "binary operations between differently indexed frames are not supported yet")
    if fill_value is None:
        return getattr(operator, name)(a, b)
    if isinstance(a, (pd.Series, pd.DataFrame)):
        return getattr(a, name)(b, fill_value=fill_value)
    return getattr(b, "r" + name)(a, fill_value=fill_value)


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
    if hasattr(other, "ndim") and not isinstance(other, (_Frame, pd.Series)) and other.ndim > 0:
        raise NotImplementedError(f"operands of type {type(other).__name__} are not supported yet")
    return other


def _binary(name: str):
    def func(left, right, fill_value=None):
        if isinstance(left, _Frame):
            right = _as_operand(right, left)
        else:
            left = _as_operand(left, right)
        kwargs = {"name": name} if fill_value is None else {"name": name, "fill_value": fill_value}
        sides = (left, right)
        if any(isinstance(x, DataFrame) for x in sides) and any(isinstance(x, Series) for x in sides):
            return _frame_with_series(left, right, kwargs)
        return map_chunks(_binary_kernel, sides, kwargs, label=f"md.{name}", validate=True)

    func.__name__ = name
    func.__doc__ = f"Elementwise ``{name}`` of a frame with a scalar or a row-aligned frame."
    return func


add, sub, mul, truediv, floordiv, mod, pow = (
    _binary(n) for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"))
eq, ne, lt, le, gt, ge = (_binary(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))
and_, or_, xor = (_binary(n) for n in ("and_", "or_", "xor"))


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
    """Cast to ``dtype`` (a dtype, or a column -> dtype dict for DataFrames)."""
    return map_chunks(_astype, (obj, dtype), label="md.astype")
