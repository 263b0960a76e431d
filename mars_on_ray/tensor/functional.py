"""Functions applied to tensors: select, piecewise and vectorize (blockwise: NumPy's own
function on every block), apply_along_axis (whole lanes along the axis, then NumPy's)."""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["select", "piecewise", "apply_along_axis", "vectorize"]

_HERE = "mars_on_ray.tensor.functional"


def _weak(v) -> bool:
    return type(v) in (int, float, complex)


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else ``default``."""
    from .arithmetic import astype, elementwise

    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [as_tensor(c) for c in condlist]
    choices = [c if _weak(c) else as_tensor(c) for c in (*choicelist, default)]
    try:
        dtype = np.result_type(*(c if _weak(c) else c.dtype for c in choices))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    result = choices[-1]
    for cond, choice in zip(conds[::-1], choices[-2::-1]):  # every input is in: NumPy's shape
        result = elementwise("where", (cond, choice, result), label="mt.select")
    return result if result.dtype == dtype else astype(result, dtype)


def piecewise_kernel(x, *conds, funclist=(), extra=(), kw=None):
    conds = [np.broadcast_to(c, x.shape) for c in conds]
    return np.piecewise(x, conds, list(funclist), *extra, **(kw or {}))


def piecewise(x, condlist, funclist, *args, **kw):
    """``funclist[i]`` (a function of the selected elements, or a value) where
    ``condlist[i]`` holds, later ones winning; one extra function for where none holds
    (else 0). NumPy's ``piecewise`` on every block: the functions must be elementwise."""
    from .arithmetic import elementwise

    x = as_tensor(x)
    if isinstance(condlist, Tileable) or np.isscalar(condlist) or (
            isinstance(condlist, (list, tuple)) and condlist and x.ndim != 0
            and not isinstance(condlist[0], (list, tuple, np.ndarray, Tileable))):
        condlist = [condlist]
    conds = [as_tensor(c) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    for c in conds:
        if c.dtype != np.bool_:
            raise TypeError("piecewise: every condition must be boolean")
        grown = c.ndim > x.ndim or any(s != s and t == t or s == s and s not in (1, t)
                                        for s, t in zip(c.shape[::-1], x.shape[::-1]))
        if grown:  # a condition must fit ``x`` (it broadcasts to it, not beyond)
            raise IndexError(f"boolean index did not match indexed array: condition shape "
                             f"{c.shape}, array shape {x.shape}")
    return elementwise(f"{_HERE}:piecewise_kernel", (x, *conds), label="mt.piecewise",
                       result_dtype=x.dtype, funclist=tuple(funclist), extra=tuple(args) or None,
                       kw=kw or None)


class ApplyAlongAxis(Operand):
    """NumPy's ``apply_along_axis`` on a block holding whole lanes, cast to ``dtype``."""

    _params = ("func", "axis", "args", "kwargs", "dtype", "res_shape")

    def execute(self, x):
        if x.size == 0:  # no lane to call the function on
            shape = x.shape[:self.axis] + self.res_shape + x.shape[self.axis + 1:]
            return np.empty(shape, self.dtype)
        out = np.apply_along_axis(self.func, self.axis, x, *self.args, **self.kwargs)
        return np.asarray(out).astype(self.dtype, copy=False)


class TensorApplyAlongAxis(ApplyAlongAxis):
    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        axis = self.axis
        splits = list(tiled.nsplits)
        splits[axis] = (int(sum(splits[axis])),)  # every lane whole in one block
        tiled = rechunk_tiled(tiled, splits)
        k = len(self.res_shape)
        grid = chunk_grid(tiled.chunks.shape[:axis] + (1,) * k + tiled.chunks.shape[axis + 1:])
        for pos, c in np.ndenumerate(tiled.chunks):
            index = pos[:axis] + (0,) * k + pos[axis + 1:]
            shape = c.shape[:axis] + self.res_shape + c.shape[axis + 1:]
            op = ApplyAlongAxis(**self.params, label=self.label)
            grid[index] = ChunkData(op, [c], shape, out.meta, index)
        return Tiled.from_chunks(grid)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to every 1-D lane along ``axis``; its result's shape and dtype come
    from a call on a lane of zeros (NumPy reads them from the first lane), so ``func1d``
    must return the same shape for every lane."""
    a = as_tensor(arr)
    axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if n != n:
        raise NotImplementedError("mt.apply_along_axis: the axis length must be known")
    if any(s == 0 for d, s in enumerate(a.shape) if d != axis):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = np.asanyarray(func1d(np.zeros(n, a.dtype), *args, **kwargs))
    op = TensorApplyAlongAxis(func=func1d, axis=axis, args=tuple(args), kwargs=kwargs,
                              dtype=res.dtype, res_shape=tuple(res.shape),
                              label=f"mt.apply_along_axis({getattr(func1d, '__name__', 'func')})")
    shape = tuple(a.shape[:axis]) + res.shape + tuple(a.shape[axis + 1:])
    return new_tensor(op, [a], shape, res.dtype)


def vectorize_kernel(*arrays, pyfunc=None, otypes=None, kwargs=None, output=None):
    out = np.vectorize(pyfunc, otypes=otypes)(*arrays, **(kwargs or {}))
    return out if output is None else out[output]


class vectorize:
    """A Python function of scalars applied elementwise to tensors (NumPy broadcasting), block
    by block. ``otypes`` gives the output dtype(s); without it, a call on zeros decides (NumPy
    reads the first element). ``signature=`` is not supported."""

    def __init__(self, pyfunc=np._NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if signature is not None:
            raise NotImplementedError("mt.vectorize: signature= is not supported")
        if excluded:
            raise NotImplementedError("mt.vectorize: excluded= is not supported")
        if pyfunc is np._NoValue:  # used as a decorator with arguments
            self._options = (otypes, doc)
            self.pyfunc = None
            return
        self.pyfunc = pyfunc
        if isinstance(otypes, str):
            otypes = list(otypes)
        if otypes is not None:
            otypes = [np.dtype(t) for t in otypes]
        self.otypes = otypes
        self.__doc__ = pyfunc.__doc__ if doc is None else doc
        self.__name__ = getattr(pyfunc, "__name__", "vectorized")

    def __call__(self, *args, **kwargs):
        """The function over every element of the broadcast arguments."""
        from .arithmetic import elementwise

        if self.pyfunc is None:
            return vectorize(args[0], *self._options)
        otypes = self.otypes
        if otypes is None:
            tensors = [a if np.isscalar(a) else as_tensor(a) for a in args]
            samples = [a if np.isscalar(a) else np.zeros(1, a.dtype) for a in tensors]
            probe = np.vectorize(self.pyfunc)(*samples, **kwargs)
            outs = probe if isinstance(probe, tuple) else (probe,)
            otypes = [np.asarray(o).dtype for o in outs]
        kw = {"pyfunc": self.pyfunc, "otypes": tuple(otypes), "kwargs": kwargs or None}
        label = f"mt.vectorize({self.__name__})"
        if len(otypes) == 1:
            return elementwise(f"{_HERE}:vectorize_kernel", args, label=label,
                               result_dtype=otypes[0], **kw)
        return tuple(elementwise(f"{_HERE}:vectorize_kernel", args, label=label, result_dtype=t,
                                 output=i, **kw) for i, t in enumerate(otypes))
