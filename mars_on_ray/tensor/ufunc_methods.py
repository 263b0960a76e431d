"""Lazy ufunc objects: ``mt.add(a, b)`` plus NumPy's ufunc methods ``reduce`` (a tree
reduction), ``accumulate`` (a prefix scan with chained carries), ``outer`` (a broadcast) and
``at`` (contributions combined per position on the client, one fancy read and write).

Only associative ufuncs reduce and accumulate across chunks (their partials combine in
order); the others raise NotImplementedError, unary ones NumPy's ValueError."""
from __future__ import annotations

import types

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .core import as_tensor, new_tensor
from .cumulative import _SCANS, TensorScan
from .reduction import Kernel, _reduce

__all__: list[str] = []

#: ufuncs whose reduce/accumulate may combine chunk partials (associative)
ASSOCIATIVE = ("add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
               "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
               "gcd")  # lcm is not: it wraps around on overflow


def _reduce_kernel(name: str) -> type:
    uf = getattr(np, name)
    cls = type(f"Reduce_{name}", (Kernel,), {
        "func": staticmethod(uf.reduce), "ufunc": uf, "takes_dtype": True,
        "no_identity": uf.identity is None, "__module__": __name__})
    globals()[cls.__name__] = cls  # importable by name: pickles and tokenizes by reference
    return cls


_REDUCE_KERNELS = {name: _reduce_kernel(name) for name in ASSOCIATIVE}
for _name in ASSOCIATIVE:
    _uf = getattr(np, _name)
    _SCANS[f"{_name}.accumulate"] = (_uf.accumulate, _uf.reduce, _uf)
del _name, _uf


class Ufunc:
    """A NumPy ufunc over tensors: called elementwise (with ``out=``/``where=``), and with
    ``reduce``, ``accumulate`` and ``outer`` like ``numpy.ufunc``."""

    def __init__(self, name: str, call):
        self.__name__ = self.__qualname__ = name
        self.__module__ = "mars_on_ray.tensor.arithmetic"
        self.__doc__ = f"Elementwise ``np.{name}`` over tensors, arrays and scalars (NumPy broadcasting)."
        self._call = call
        self._np = getattr(np, name)

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __get__(self, obj, objtype=None):  # a Tensor method, like the function it was
        return self if obj is None else types.MethodType(self, obj)

    def __reduce__(self):
        return self.__name__  # pickled by reference: arithmetic.<name>

    def __repr__(self):
        return f"<mars_on_ray ufunc '{self.__name__}'>"

    nin = property(lambda self: self._np.nin)
    nout = property(lambda self: self._np.nout)
    nargs = property(lambda self: self._np.nargs)
    identity = property(lambda self: self._np.identity)

    def _check(self, method: str):
        if self._np.nin != 2 or self._np.nout != 1:
            raise ValueError(f"{method} only supported for binary functions")
        if self.__name__ not in ASSOCIATIVE:
            raise NotImplementedError(f"mt.{self.__name__}.{method}: only associative ufuncs "
                                      f"({', '.join(ASSOCIATIVE)}) combine across chunks")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=np._NoValue,
               where=True):
        """Reduce ``array`` along ``axis`` (None: all; a tuple: several) by this ufunc."""
        self._check("reduce")
        return _reduce(_REDUCE_KERNELS[self.__name__], f"{self.__name__}.reduce", array, axis,
                       out, keepdims, initial=initial, where=where, func=self._np.reduce,
                       dtype=dtype)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running results of this ufunc along ``axis`` (a prefix scan across chunks)."""
        self._check("accumulate")
        if out is not None:
            raise TypeError(f"mt.{self.__name__}.accumulate: out= is not supported")
        a = as_tensor(array)
        sample = np.zeros(tuple(min(1, s) if s == s else 1 for s in a.shape), a.dtype)
        expected = self._np.accumulate(sample, axis=axis, dtype=dtype)  # NumPy's checks
        axis = normalize_axis_index(0 if axis is None else axis, a.ndim)
        op = TensorScan(func=f"{self.__name__}.accumulate", axis=axis, dtype=expected.dtype,
                        label=f"mt.{self.__name__}.accumulate")
        return new_tensor(op, [a], a.shape, expected.dtype)

    def outer(self, A, B, /, **kwargs):
        """This ufunc of every pair: result shape ``A.shape + B.shape``."""
        if self._np.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        A, B = as_tensor(A), as_tensor(B)
        return self(A[(Ellipsis,) + (None,) * B.ndim], B, **kwargs)

    def at(self, a, indices, b=None, /):
        """``a[indices] = ufunc(a[indices], b)`` in place, unbuffered: a position indexed
        several times takes every contribution (NumPy's ``ufunc.at``). ``indices``: NumPy
        integer arrays (or ints) on the leading axes; the contributions to each position are
        combined on the client (they are client data), then one fancy read and one write of
        the touched positions."""
        from .core import Tensor

        if not isinstance(a, Tensor):
            raise TypeError("ufunc.at needs a tensor to update in place")
        if self._np.nin != 2 or b is None:
            raise NotImplementedError(f"mt.{self.__name__}.at: only binary ufuncs with b")
        combine = "add" if self.__name__ == "subtract" else self.__name__
        if combine not in ASSOCIATIVE:
            raise NotImplementedError(f"mt.{self.__name__}.at: only {', '.join(ASSOCIATIVE)} and subtract")
        if isinstance(b, Tensor) or any(isinstance(i, Tensor) for i in (indices if isinstance(indices, tuple)
                                                                            else (indices,))):
            raise NotImplementedError(f"mt.{self.__name__}.at: lazy indices or values (NumPy arrays only)")
        index = indices if isinstance(indices, tuple) else (indices,)
        if any(isinstance(i, slice) or i is None or i is Ellipsis for i in index) or \
                any(np.asarray(i).dtype.kind not in "iu" for i in index):
            raise NotImplementedError(f"mt.{self.__name__}.at: integer indices only")
        lead, rest = tuple(a.shape[:len(index)]), tuple(a.shape[len(index):])
        index = tuple(np.asarray(i) for i in index)
        for axis, (i, size) in enumerate(zip(index, lead)):
            bad = i[(i >= size) | (i < -size)]
            if bad.size:
                raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {axis} with size {size}")
        bs = np.asarray(b)
        self._np.at(np.zeros(1, a.dtype), [0], bs.ravel()[:1] if bs.size else bs.dtype.type(0))  # casting
        rows = np.ravel_multi_index(tuple(i % s for i, s in zip(index, lead)), lead).ravel()
        vals = np.broadcast_to(bs, np.broadcast_shapes(*(i.shape for i in index)) + rest).reshape((-1,) + rest)
        order = np.argsort(rows, kind="stable")
        targets, starts = np.unique(rows[order], return_index=True)
        if not len(targets):
            return
        combined = getattr(np, combine).reduceat(vals[order], starts, axis=0)
        where = np.unravel_index(targets, lead)
        a[where] = self(a[where], combined).astype(a.dtype)
