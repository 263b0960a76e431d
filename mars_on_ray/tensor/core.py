"""Tensor: the user object of the NumPy API."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.entity import TileableData
from ..core.operand import Operand
from ..core.user import Tileable, lazy_method


def tensor_meta(dtype, ndim: int) -> np.ndarray:
    """The empty array standing for a tensor's metadata."""
    return np.empty((0,) * ndim, dtype=dtype)


def new_tensor(op: Operand, inputs, shape, dtype, chunk_size=None) -> "Tensor":
    """Wrap a new tileable node of ``op`` applied to ``inputs`` (Tensors or nodes)."""
    nodes = [getattr(i, "data", i) for i in inputs]
    return Tensor(TileableData(op, nodes, tuple(shape), tensor_meta(np.dtype(dtype), len(shape)), chunk_size))


def _lazy(module: str, name: str, reflected: bool = False):
    return lazy_method("mars_on_ray.tensor", module, name, reflected)


class Tensor(Tileable):
    """A lazy n-dimensional array; NumPy's API, executed on Ray."""

    __slots__ = ()
    __array_priority__ = 100  # NumPy defers binary operators to us

    @property
    def dtype(self) -> np.dtype:
        return self.data.meta.dtype

    @property
    def size(self):
        return int(np.prod(self.shape)) if not self.data.has_unknown_shape else float("nan")

    @property
    def T(self) -> "Tensor":
        return self.transpose()

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self.fetch())
        return value.astype(dtype) if dtype is not None else value

    def __bool__(self):
        raise ValueError("the truth value of a lazy tensor is ambiguous; fetch() it first")

    def __hash__(self):
        return hash(self.key)

    def __setitem__(self, index, value):
        """``t[index] = value``: ``t`` now stands for the tensor with those elements set."""
        from .setitem import assign

        self.data = assign(self, index, value).data

    astype = _lazy("arithmetic", "astype")
    rechunk = _lazy("rechunk", "rechunk")
    transpose = _lazy("reshape", "transpose")
    reshape = _lazy("reshape", "reshape")
    dot = _lazy("contractions", "dot")
    clip = _lazy("arithmetic", "clip")
    __getitem__ = _lazy("indexing", "getitem")
    put = _lazy("setitem", "put")

    for _name in ("sum", "mean", "prod", "min", "max", "std", "var", "argmin", "argmax", "any", "all"):
        locals()[_name] = _lazy("reduction", _name)

    for _dunder, _func in (
        ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
        ("floordiv", "floor_divide"), ("mod", "mod"), ("pow", "power"), ("and", "bitwise_and"),
        ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
        ("rshift", "right_shift"),
    ):
        locals()[f"__{_dunder}__"] = _lazy("arithmetic", _func)
        locals()[f"__r{_dunder}__"] = _lazy("arithmetic", _func, reflected=True)
    for _dunder, _func in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"),
                           ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
        locals()[f"__{_dunder}__"] = _lazy("arithmetic", _func)
    __neg__ = _lazy("arithmetic", "negative")
    __pos__ = _lazy("arithmetic", "positive")
    __abs__ = _lazy("arithmetic", "absolute")
    __invert__ = _lazy("arithmetic", "invert")
    __array_ufunc__ = _lazy("arithmetic", "array_ufunc")  # np.exp(t), ndarray + t stay lazy
    __array_function__ = _lazy("arithmetic", "array_function")  # np.concatenate([t, u]) too
    __matmul__ = _lazy("contractions", "matmul")
    __rmatmul__ = _lazy("contractions", "matmul", reflected=True)
    sort = _lazy("sorting", "sort_inplace")
    partition = _lazy("sorting", "partition_inplace")
    argsort = _lazy("sorting", "argsort")
    argpartition = _lazy("sorting", "argpartition")
    searchsorted = _lazy("histogram", "searchsorted")
    nonzero = _lazy("nonzero", "nonzero")
    compress = _lazy("nonzero", "compress_method")
    ptp = _lazy("cumulative", "ptp")
    cumsum = _lazy("cumulative", "cumsum")
    cumprod = _lazy("cumulative", "cumprod")
    trace = _lazy("matrices", "trace")
    del _name, _dunder, _func


def as_tensor(value: Any) -> Tensor:
    """A Tensor for ``value`` (a Tensor, array-like or scalar)."""
    if isinstance(value, Tensor):
        return value
    from .datasource import tensor

    return tensor(value)
