"""Elementwise arithmetic and comparisons of frames with scalars and row-aligned frames."""
from __future__ import annotations

import operator

import pandas as pd

from .blockwise import map_chunks
from .core import DataFrame, Series, _Frame

__all__: list[str] = []


def _binary_kernel(a, b, name: str, fill_value=None):
    if isinstance(a, (pd.Series, pd.DataFrame)) and isinstance(b, (pd.Series, pd.DataFrame)):
        if not a.index.equals(b.index):
            # pandas aligns labels globally; row blocks can only line up equal indexes
            raise NotImplementedError(
                "binary operations between differently indexed frames are not supported yet")
    if fill_value is None:
        return getattr(operator, name)(a, b)
    if isinstance(a, (pd.Series, pd.DataFrame)):
        return getattr(a, name)(b, fill_value=fill_value)
    return getattr(b, "r" + name)(a, fill_value=fill_value)


def _as_operand(other, like):
    """Bring a pandas operand that pandas would align by rows into the lazy graph."""
    from .datasource import from_pandas

    if isinstance(other, pd.DataFrame) or (isinstance(other, pd.Series) and isinstance(like, Series)):
        return from_pandas(other)
    if isinstance(other, Series) and isinstance(like, DataFrame):
        raise NotImplementedError("DataFrame op Series (aligned on columns) is not supported yet")
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
        return map_chunks(_binary_kernel, (left, right), kwargs, label=f"md.{name}", validate=True)

    func.__name__ = name
    func.__doc__ = f"Elementwise ``{name}`` of a frame with a scalar or a row-aligned frame."
    return func


add, sub, mul, truediv, floordiv, mod, pow = (
    _binary(n) for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"))
eq, ne, lt, le, gt, ge = (_binary(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))


def neg(obj):
    """Elementwise negation."""
    return map_chunks(operator.neg, (obj,), label="md.neg")


def abs(obj):  # noqa: A001 - the pandas method name
    """Elementwise absolute value."""
    return map_chunks(operator.abs, (obj,), label="md.abs")


def _astype(obj, dtype):
    return obj.astype(dtype)


def astype(obj, dtype):
    """Cast to ``dtype`` (a dtype, or a column -> dtype dict for DataFrames)."""
    return map_chunks(_astype, (obj, dtype), label="md.astype")
